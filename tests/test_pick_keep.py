"""A pick's candidates built once and kept up to date in direct code (codegen/pickkeep.py): the
playouts of tests/fixtures/pickkeep are the API's games (the same options, in the same order,
at every decision), on both back ends, and a condition that raises fails a playout as it fails
the API game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_playout import BACKENDS, FIXTURES, _fails_as_the_api_game, playouts_are_api_games

from meeple.api import load_checked
from meeple.codegen.layout import GenLayout
from meeple.codegen.pickkeep import keeps
from meeple.dsl import ir

PICKKEEP = FIXTURES / "pickkeep" / "game.yaml"

#: each pick of the fixture (by the start of its prompt) -> are its candidates kept?
KEPT = {
    "Bank one to three": True,  # to another zone, a condition reading a local and a constant
    "Discard any number": True,  # no condition, no max
    "Show some plain cards": True,  # to no zone, a max that may be 0, a list literal
    "Put three cards on top": True,  # to the same zone
    "Give fine cards": True,  # to a zone of the same name
    "Discard up to two cards of one name": False,  # its condition reads picked
    "Discard while the discard allows": False,  # its condition reads the destination
    "Discard from alternate hands": False,  # which hand it is reads the destination
}

#: what the API games must show between them (their logs): each kept pick taking two or more
#: cards (the candidates changed after a card was picked), and the pick that is built anew
SHAPES = (
    r"Bank one to three cards of \d points or more -> \w+, \w+",
    r"Discard any number -> \w+, \w+, \w+",
    r"Show some plain cards -> \w+",
    r"Put three cards on top of your hand -> \w+, \w+, \w+",
    r"Give fine cards to the next player -> \w+, \w+",
    r"Discard up to two cards of one name -> \w+, \w+",
    r"Discard while the discard allows -> \w+, \w+",
    r"Discard from alternate hands -> \w+, \w+, \w+",
)


def _picks(block: ir.Block) -> list[ir.Pick]:
    out: list[ir.Pick] = []
    for s in block.stmts:
        if isinstance(s, ir.Pick):
            out.append(s)
        if isinstance(s, ir.Choose):
            for o in s.options:
                out += _picks(o.body)
    return out


def test_the_picks_that_keep_their_candidates() -> None:
    """The fixture's picks are the shapes the test means: all but the one whose condition
    reads ``picked`` keep their candidates."""
    checked = load_checked(str(PICKKEEP))
    layout = GenLayout(checked)
    picks = _picks(checked.game.procedures["turn"].body)
    found = {}
    for s in picks:
        prompt = "".join(p for p in s.prompt if isinstance(p, str))
        (key,) = [k for k in KEPT if prompt.startswith(k)]
        found[key] = keeps(s, layout)
    assert found == KEPT


def test_every_kept_pick_plays_out_as_the_api_game() -> None:
    """60 playouts, each the interpreter's and the compiled module's API game for the same
    choices (to_json at the end, the number of options at every decision); the games show every
    pick taking two or more cards."""
    _, log = playouts_are_api_games(PICKKEEP, 3, range(60))
    for shape in SHAPES:
        assert any(re.search(shape, line) for line in log), shape


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_kept_condition_that_raises_fails_as_the_api_game(tmp_path: Path, backend: str) -> None:
    """The condition is tested on every card of the source at the first pass, in the source's
    order, as run_pick tests it: the same rule error at the same place."""
    edit = ("where: c.points >= low or", "where: c.points * (round % 3 // (round % 3)) >= low or")
    _fails_as_the_api_game(PICKKEEP, tmp_path, edit, r"division by zero|divid", backend)
