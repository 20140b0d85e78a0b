"""A pick whose condition's ``picked`` part only takes candidates away, its cards tested once
in direct code (codegen/pickshrink.py): the playouts of tests/fixtures/pickshrink are the API's
games (the same options, in the same order, at every decision), on both back ends, and an
``any`` over the picked cards that raises fails a playout as it fails the API game (only where
run_pick computes it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_pick_keep import _picks
from test_playout import (
    BACKENDS,
    FIXTURES,
    Recorder,
    _fails_as_the_api_game,
    playouts_are_api_games,
)

import meeple
from meeple.api import load_checked
from meeple.codegen.layout import GenLayout
from meeple.codegen.pickshrink import shrinks
from meeple.dsl.errors import RuleError

PICKSHRINK = FIXTURES / "pickshrink" / "game.yaml"

#: each pick of the fixture (by the start of its prompt) -> are its tested cards kept?
SHRINKS = {
    "Pay a pair of": True,  # to another zone, count 2
    "Show any cards": True,  # to no zone, no max, an `if` in the any
    "Discard up to two": True,  # a max that may be 0
    "Give a pair": False,  # to a zone of the same name: a picked card may come back on top
}

#: what the API games must show between them (their logs): each pick taking two cards, a wild
#: one among them (after which the other wild cards are no candidates) and none
SHAPES = (
    r"Pay a pair of (\w+) -> \1, \1",
    r"Pay a pair of (\w+) -> \1, J\w+",
    r"Pay a pair of (\w+) -> J\w+, \1",
    r"Show any cards of \d points or more -> \w+, \w+",
    r"Show any cards of \d points or more -> J\w+, \w+, \w+",
    r"Discard up to two -> \w+, \w+",
    r"Give a pair to the next player -> \w+, \w+",
)


def test_the_picks_that_keep_their_tested_cards() -> None:
    """The fixture's picks are the shapes the test means: all but the one to a zone of the
    same name keep their tested cards."""
    checked = load_checked(str(PICKSHRINK))
    layout = GenLayout(checked)
    found = {}
    for s in _picks(checked.game.procedures["turn"].body):
        prompt = "".join(p for p in s.prompt if isinstance(p, str))
        (key,) = [k for k in SHRINKS if prompt.startswith(k)]
        found[key] = shrinks(s, layout)
    assert found == SHRINKS


def test_every_shrinking_pick_plays_out_as_the_api_game() -> None:
    """80 playouts, each the interpreter's and the compiled module's API game for the same
    choices (to_json at the end, the number of options at every decision); the games show every
    pick taking two or more cards, wild ones among them."""
    _, log = playouts_are_api_games(PICKSHRINK, 3, range(80))
    for shape in SHAPES:
        assert any(re.search(shape, line) for line in log), shape


def _outcome(game: meeple.Game, seed: int) -> tuple[list[tuple[int, int]], str]:
    """The decisions of the playout of ``seed`` and how it ended: its final state (to_json) or
    its rule error (message and place)."""
    rec = Recorder(seed)
    try:
        end = str(game.playout(seed, rec).to_json())
    except RuleError as e:
        end = f"{e} @ {e.span}"
    return rec.taken, end


def test_an_any_that_raises_fails_as_run_pick_does(tmp_path: Path) -> None:
    """The ``any`` over the picked cards raises for a picked Gem: a playout fails where
    run_pick's fails (a Jester, the only wild card of the condition, still to test at a later
    pass) and only there (a Gem picked and no Jester left: the ``any`` is never computed), with
    the same rule error at the same place, else ends in the same state."""
    text = PICKSHRINK.read_text(encoding="utf-8")
    where = "where: c.name == name or (c.wild and not any(x.wild for x in picked))"
    assert where in text
    raising = (
        "where: c.name == name or (c.name == 'Jester' and not any(x.wild or"
        " 1 // (x.points - 2) == 7 for x in picked))"
    )
    path = tmp_path / "game.yaml"
    # (a Joker pays no pair now: the option asks for two cards of the name or a Jester)
    path.write_text(
        text.replace(where, raising).replace("if c.wild)) >= 2", "if c.name == 'Jester')) >= 2"),
        encoding="utf-8",
    )
    compiled = meeple.load(str(path), 3, backend="compiled")
    interpreter = meeple.load(str(path), 3, backend="interpreter")
    ends = []
    for seed in range(60):
        (taken, end) = _outcome(compiled, seed)
        assert (taken, end) == _outcome(interpreter, seed)
        ends.append(end)
    assert any("division by zero" in e for e in ends)
    assert any(e.startswith("{") for e in ends)  # (some games end without the error)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_any_that_raises_fails_as_the_api_game(tmp_path: Path, backend: str) -> None:
    """The ``any`` over the picked cards raises for a picked Gem: at the pass where run_pick
    first computes it (a wild card still to test), with the same rule error at the same place."""
    edit = (
        "where: c.name == name or (c.wild and not any(x.wild for x in picked))",
        "where: c.name == name or (c.wild and not any(x.wild or 1 // (x.points - 2) == 7"
        " for x in picked))",
    )
    _fails_as_the_api_game(PICKSHRINK, tmp_path, edit, r"division by zero|divid", backend)
