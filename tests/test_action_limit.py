"""A game numbers at most MAX_ACTIONS action ids for a player count (dsl/action_limit.py): the AI
adapters allocate a mask of ``num_distinct_actions`` entries, and an auction's bids take
``most + 1`` ids, so ``most: 999999999999`` passed check and then asked numpy for 931 GiB. A
constant ``most`` past it is a check error at ``most:``; a ``most`` computed from the
components, when the game is made for a player count, on both back ends."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.cases import position
from test_auction import game
from test_auction_settings import MOST
from test_language_v2 import edit, write

import meeple
from meeple.cli import main
from meeple.dsl import ir
from meeple.dsl.errors import CheckError
from meeple.dsl.limits import MAX_ACTIONS
from meeple.dsl.loader import load_rules
from meeple.dsl.numbering import number

RULES = Path(__file__).parent.parent / "rules"


def test_a_constant_most_past_the_limit_is_a_check_error_at_most(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = edit(game("open"), MOST, "        most: 999999999999\n")
    path = write(tmp_path, text)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    line, col = position(text, "most: |999999999999")
    assert f"{path}:{line}:{col}: error: the auction's 'most' (999,999,999,999) gives" in err
    assert f"more than the {MAX_ACTIONS:,} allowed (MAX_ACTIONS)" in err
    assert "make 'most' the most any seat could really hold" in err


def test_a_constant_most_at_the_limit_checks(tmp_path: Path) -> None:
    text = edit(game("open"), MOST, f"        most: {MAX_ACTIONS - 1}\n")
    load_rules(write(tmp_path, text))


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_computed_most_past_the_limit_is_refused_as_the_game_is_made(
    tmp_path: Path, backend: str
) -> None:
    """``most`` reads the components (20 cards): 50,000 times as many is past the limit."""
    text = edit(game("open"), MOST, "        most: 50000 * count(cards)\n")
    path = write(tmp_path, text)
    load_rules(path)  # (the check cannot know the cards' count)
    with pytest.raises(CheckError) as info:
        meeple.load(str(path), 2, backend=backend)
    e = info.value
    assert "the auction's 'most' (1,000,000 with 2 players) gives 1,000,001 possible bids" in (
        str(e)
    )
    assert e.span is not None and (e.span.line, e.span.col) == position(text, "most: |50000")


def test_the_total_of_the_sites_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many sites whose ids together go past the limit: refused at the site that goes past it
    (here with the limit lowered, as the shipped shapes of sites stay far below it)."""
    checked = load_rules(RULES / "louis-xiv")
    monkeypatch.setattr("meeple.dsl.action_limit.MAX_ACTIONS", 1000)
    with pytest.raises(CheckError) as info:
        number(checked, 3)
    assert "action ids by this one (with 3 players), more than the 1,000 allowed" in str(info.value)
    assert info.value.span is not None


# num_distinct_actions of the shipped games at their most players (measured when the limit was
# set); a game past a hundredth of the limit should make us look at the limit again.
SHIPPED_ACTIONS = {
    "harbour-guilds": 28,
    "louis-xiv": 1301,
    "shadow-of-the-emperor": 3668,
    "shadow-of-the-sun": 310,
    "sonnenkoenig": 768,
}


@pytest.mark.parametrize("name", sorted(SHIPPED_ACTIONS))
def test_shipped_games_stay_well_within_the_action_limit(name: str) -> None:
    checked = load_rules(RULES / name)
    g: ir.Game = checked.game
    counts = [
        number(checked, n).num_distinct_actions for n in range(g.players_min, g.players_max + 1)
    ]
    assert max(counts) == SHIPPED_ACTIONS[name]
    assert max(counts) <= MAX_ACTIONS // 100
