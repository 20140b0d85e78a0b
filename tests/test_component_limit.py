"""A game lays out at most MAX_COMPONENTS cards (dsl/component_count.py): past it ``meeple check``
refuses the item that goes over, at its count, before any card is built. A 490 KB file of 8,000
lines of ``count: 1000`` (8 million cards) otherwise passed check and ran out of memory when a
game started; 100 such lines (100,000 cards) hung the first shuffle."""

from __future__ import annotations

from pathlib import Path

import pytest

from meeple.dsl.errors import CheckError
from meeple.dsl.limits import MAX_COMPONENTS
from meeple.dsl.loader import load_rules

FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "game.yaml"
BASE = FIXTURE.read_text(encoding="utf-8")
RULES = Path(__file__).parent.parent / "rules"
ITEMS = (
    "      - {name: Coin, count: 10, points: 1}\n"
    "      - {name: Gem, count: 6, points: 2}\n"
    "      - {name: Crown, count: 4, points: 3}\n"
)


def _with_items(items: str, tmp_path: Path, extra: str = "") -> Path:
    assert BASE.count(ITEMS) == 1
    text = BASE.replace(ITEMS, items)
    if extra:
        text = text.replace("    start: deck\n", "    start: deck\n" + extra, 1)
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _lines(n: int, count: int) -> str:
    return "".join(f"      - {{name: C{i}, count: {count}, points: 1}}\n" for i in range(n))


def test_exactly_the_limit_checks(tmp_path: Path) -> None:
    path = _with_items(_lines(MAX_COMPONENTS // 1000, 1000), tmp_path)
    game = load_rules(path).game
    assert sum(i.count for k in game.kinds.values() for i in k.items) == MAX_COMPONENTS


def test_one_card_past_the_limit_is_refused_at_that_items_count(tmp_path: Path) -> None:
    items = _lines(MAX_COMPONENTS // 1000, 1000) + "      - {name: Extra, count: 1, points: 1}\n"
    path = _with_items(items, tmp_path)
    with pytest.raises(CheckError) as info:
        load_rules(path)
    e = info.value
    text = path.read_text(encoding="utf-8")
    line = text[: text.index("{name: Extra")].count("\n") + 1
    assert e.span is not None and (e.span.file, e.span.line) == (str(path), line)
    column = text.splitlines()[line - 1].index("1, points") + 1
    assert e.span.col == column
    assert f"more than the {MAX_COMPONENTS:,} allowed (MAX_COMPONENTS)" in e.message
    assert "item 'Extra' of kind 'cards'" in e.message
    assert e.suggestion and "smaller counts" in e.suggestion


def test_a_per_player_kind_counts_once_per_seat_at_the_most_players(tmp_path: Path) -> None:
    """The minimal game is for up to 4 players: 6 lines of 1,000 per seat are 24,000 cards."""
    path = _with_items(_lines(6, 1000), tmp_path, extra="    per_player: true\n")
    with pytest.raises(CheckError) as info:
        load_rules(path)
    assert "item 'C5' of kind 'cards' (4,000 cards for each of 4 players)" in info.value.message
    assert "to 24,000 cards" in info.value.message


def test_numbered_lines_are_counted_number_by_number(tmp_path: Path) -> None:
    items = '      - {name: "C{n}", count: 1000, points: 1, for: n in 1..1000}\n'
    with pytest.raises(CheckError) as info:
        load_rules(_with_items(items, tmp_path))
    assert "item 'C21' of kind 'cards'" in info.value.message


def test_a_hundred_thousand_cards_within_the_file_limits_fail_at_check(tmp_path: Path) -> None:
    """The tester's shuffle_100k.yaml: 100 lines of count 1000 in Harbour Guilds."""
    text = (RULES / "harbour-guilds" / "game.yaml").read_text(encoding="utf-8")
    goods = "".join(
        f"      - {{name: G{i}, guild: weavers, value: 1, count: 1000}}\n" for i in range(100)
    )
    at = text.index("  goods:")
    items_at = text.index("    items:\n", at) + len("    items:\n")
    path = tmp_path / "game.yaml"
    path.write_text(text[:items_at] + goods + text[items_at:], encoding="utf-8")
    with pytest.raises(CheckError) as info:
        load_rules(path)
    assert "item 'G19' of kind 'goods'" in info.value.message


# The cards the shipped games lay out at their most players (measured when the limit was set);
# a game past a fiftieth of the limit should make us look at the limit again.
SHIPPED_CARDS = {
    "harbour-guilds": 21,
    "louis-xiv": 260,
    "shadow-of-the-emperor": 159,
    "shadow-of-the-sun": 104,
    "sonnenkoenig": 150,
}


@pytest.mark.parametrize("game", sorted(SHIPPED_CARDS))
def test_shipped_games_stay_well_within_the_component_limit(game: str) -> None:
    g = load_rules(RULES / game).game
    cards = sum(
        i.count * (g.players_max if k.per_player else 1) for k in g.kinds.values() for i in k.items
    )
    assert cards == SHIPPED_CARDS[game]
    assert cards <= MAX_COMPONENTS // 50
