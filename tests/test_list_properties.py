"""List properties (``list:T``): values checked per item, lists at run time, keys resolved."""

from __future__ import annotations

from pathlib import Path

import meeple
from meeple.dsl.checker import check_expression
from meeple.dsl.parser import parse_expression

FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "game.yaml"


def _value(game: meeple.interpreter.game.Game, text: str) -> object:
    e = parse_expression(text)
    check_expression(game.checked, e)
    return game.program.ex.compile(e)(game.new_initial_state(1), {})


def test_list_properties_of_numbers_and_of_a_kind(tmp_path: Path) -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    text = text.replace(
        "properties: {points: int}", "properties: {points: int, beats: list:cards, rolls: list:int}"
    )
    text = text.replace(
        "{name: Coin, count: 10, points: 1}",
        "{key: coin, name: Coin, count: 10, points: 1, beats: [], rolls: [1, 1]}",
    )
    text = text.replace(
        "{name: Gem, count: 6, points: 2}",
        "{key: gem, name: Gem, count: 6, points: 2, beats: [coin], rolls: [2]}",
    )
    text = text.replace(
        "{name: Crown, count: 4, points: 3}",
        "{key: crown, name: Crown, count: 4, points: 3, beats: [coin, gem], rolls: []}",
    )
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    game = meeple.load(str(tmp_path), players=2)
    assert _value(game, "[c.name for c in card('crown').beats]") == ["Coin", "Gem"]
    assert _value(game, "card('coin') in card('gem').beats") is True
    assert _value(game, "card('gem') in card('gem').beats") is False
    assert _value(game, "sum(card('coin').rolls) + count(card('crown').rolls)") == 2
    assert _value(game, "count(card('coin').beats)") == 0


def test_louis_xiv_adjacency_is_symmetric() -> None:
    game = meeple.load("louis-xiv", players=2)
    assert _value(game, "all(all(t in a.adjacent for a in t.adjacent) for t in courtiers)") is True
    assert _value(game, "count(card('anne').adjacent)") == 4
