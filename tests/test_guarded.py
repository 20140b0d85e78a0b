"""A pick's condition calling a rules function that calls another, written inline in direct code
under a guard of the exact code (codegen/guarded.py), on tests/fixtures/guarded.

``can_give(c, p)`` asks ``is_top(c, p)``: it is named in the rules trace of an error inside it,
so it is inlined only in a pick's candidates, where an error of the inlined code runs the exact
code again. Every playout of the compiled fixture is the interpreter's API game (and the
compiled one) for the same choices; the generated module inlines the three picks' conditions,
each guarded; a coin (which has no colour) in a row makes each pick fail with the interpreter's
error, at its place, with ``function can_give`` in the trace.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_playout import FIXTURES, playouts_are_api_games
from test_rows import _first_failure

from meeple.api import load_checked
from meeple.codegen.emitter import generate

GUARDED = FIXTURES / "guarded" / "game.yaml"

#: What the interpreter's games of the fixture must show between them, per player count.
SHAPES = (
    r"Pay one -> .* tile",
    r"Pay one -> Coin",
    r"Pay up to two -> .* tile",
    r"Show a top tile -> .* tile",
)


@pytest.mark.parametrize("players", [3, 4])
def test_every_playout_is_the_interpreters_game(players: int) -> None:
    """40 playouts of the compiled fixture per player count, each the interpreter's API game
    (and the compiled one) for the same choices, state for state at the end; between them the
    games pay tiles and coins with each pick."""
    _, log = playouts_are_api_games(GUARDED, players, range(40))
    for shape in SHAPES:
        assert any(re.search(shape, line) for line in log), shape


def test_the_conditions_are_inlined_and_guarded() -> None:
    """Each of the three picks computes its candidates with ``can_give`` inline (no call per
    card), and again with ``fn_can_give`` where that raises."""
    code = generate(load_checked(str(GUARDED)))
    guarded = re.findall(
        r"try:\n +(_\w+) = \[(.*)\]\n +except Exception:.*\n +\1 = \[(.*)\]\n", code
    )
    assert len(guarded) >= 3
    for _, fast, exact in guarded:
        assert "is_top_by(" in fast and "fn_can_give(" not in fast
        assert "fn_can_give(" in exact


COIN_IN_ROW = (
    'do: ["move 2 from bank to purse[p]"]',
    'do: ["move 2 from bank to purse[p]", "move 1 from bank to row[p]"]',
)
PICKS = {
    "one": """          - label: pay one
            when: count(purse[p]) + count(row[p]) > 0
            do:
              - {pick: Pay one, by: p, from: "purse[p] + row[p]", count: 1, where: "can_give(c, p)",
                 to: bin, as: paid}
              - score[p] += sum(x.points for x in paid if x.kind == 'tiles')
""",
    "two": """          - label: pay up to two
            when: count(purse[p]) + count(row[p]) > 0
            do:
              - {pick: Pay up to two, by: p, from: "purse[p] + row[p]", min: 0, max: 2,
                 where: "can_give(c, p)", to: bin}
""",
    "list": """          - label: show a top tile
            when: count(row[p]) > 0
            do:
              - {pick: Show a top tile, by: p, from: "tops(p) + purse[p]", count: 1,
                 where: "can_give(c, p)", as: shown}
""",
}


@pytest.mark.parametrize("pick", ["one", "two", "list"])
def test_a_coin_in_a_row_fails_in_can_give(tmp_path: Path, pick: str) -> None:
    """With a coin in each row, the only pick left fails reading the coin's colour: the
    interpreter's error, at its place, with ``function can_give`` last in the trace (the
    inlined code raised, and the exact code ran again). The list pick's source is the row's
    tiles (``tops`` of a row holding a coin would fail first, in ``tops``)."""
    text = GUARDED.read_text(encoding="utf-8").replace(*COIN_IN_ROW)
    for name, option in PICKS.items():
        assert option in text, name
        if name != pick:
            text = text.replace(option, "")
    if pick == "list":  # (offered once a tile lies by the coin)
        text = text.replace('"tops(p) + purse[p]"', "\"[x for x in row[p] if x.kind == 'tiles']\"")
        text = text.replace("when: count(row[p]) > 0", "when: count(row[p]) > 1")
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    failed = _first_failure(path)
    assert "no such property (colour)" in str(failed)
    assert failed.trace[-1].startswith("function can_give ")
