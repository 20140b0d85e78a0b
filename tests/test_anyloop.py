"""An option's condition ``any(...)``/``all(...)`` of a comprehension written as an inner loop
(codegen/anyloop.py), and a choice's owner-count table read once (codegen/tablelocal.py).

tests/fixtures/anyloop offers options by each shape the loop is written for; every playout must
be the API game of the same choices (the same options at each decision, the same state at the
end), and an item that fails must fail the playout where it fails the API game: ``any`` stops at
the first true item and ``all`` at the first false one, so a later item is never evaluated.
Shadow of the Sun's Usurp is written so, and its Action choice reads the table once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import generated
from test_playout import BACKENDS, FIXTURES, _fails_as_the_api_game, _plays_out_as_the_api_games

from meeple.api import load_checked
from meeple.codegen.emitter import generate
from meeple.codegen.tablelocal import hoist
from meeple.codegen.tally import TABLE
from meeple.codegen.writer import Writer

ANYLOOP = FIXTURES / "anyloop" / "game.yaml"

#: every option of the fixture is taken in some game (each shape offers something)
SHAPES = (
    r"Your turn -> rob P\d",  # any, no condition
    r"Your turn -> gift P\d",  # any with a condition, a condition before the loop
    r"Your turn -> praise P\d",  # all with a condition
    r"Your turn -> tax P\d",  # all, no condition
    r"Your turn -> polish P\d",  # any over a kind's cards
)


def test_the_fixture_writes_each_shape_as_a_loop() -> None:
    code = generate(load_checked(str(ANYLOOP)))
    direct = code[code.index("def c_0(") :]
    assert direct.count("break\n") >= 5
    assert re.search(
        r"\n( +)for (_c\d+) in st\.zones\[.*\]:\n\1    if .*:\n\1        break\n"
        r"\1else:\n",
        direct,
    )  # all: its else offers the item
    assert " any(" not in direct.split("def c_", 2)[1]
    assert " all(" not in direct.split("def c_", 2)[1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_shape_plays_out_as_the_api_game(backend: str) -> None:
    _plays_out_as_the_api_games(ANYLOOP, backend, SHAPES)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "edit",
    [  # each divides by zero at an item of some round, if the loop reaches it
        ("c.points >= round - 2 for", "c.points >= round - 2 + Z for"),
        ("c.points <= round for", "c.points <= round + Z for"),
        ("c.points < 3 for c", "c.points < 3 + Z for c"),
        ("if c.points < 3)", "if c.points < 3 + Z)"),
        ("c.points > 1 for c in purse[q] if", "c.points > 1 + Z for c in purse[q] if"),
        ("g.points >= 2 and", "g.points >= 2 + 1 // (round + g.points - 6) * 0 and"),
    ],
)
def test_an_item_that_fails_fails_the_playout_as_the_api_game(
    tmp_path: Path, edit: tuple[str, str], backend: str
) -> None:
    new = edit[1].replace("Z", "1 // (round + c.points - 6) * 0")
    _fails_as_the_api_game(ANYLOOP, tmp_path, (edit[0], new), "division by zero", backend)


def test_sun_usurps_by_a_loop_reading_the_table_once() -> None:
    code = generated(load_checked("shadow-of-the-sun"))
    action = code[code.index("def c_5(") : code.index("def c_6(")]
    collect = action[: action.index("st.choose(")]  # (the options' lines)
    table = re.search(r"(_tb\d+) = \(_TD\.get\(st\) or tally_of\(st\)\)", collect)
    assert table is not None
    assert "(_TD.get(st) or tally_of(st))" not in collect.replace(table.group(0), "")
    assert collect.count(f"{table.group(1)}[") >= 3  # Bolster's and Usurp's reads
    assert re.search(
        r"for (_d\d+) in K_districts1:\n +if .*\n +(_v\d+)\.append\(_q\d+\)\n"
        r" +break\n",
        action,
    )


@pytest.mark.parametrize(
    ("line", "hoisted"),
    [
        ("x = (TABLE[z] or tally_zone(st, z))[p]", True),
        ("x = (TABLE[z] or tally_zone(st, z))[p] + fn_score(st, p)", True),  # (fn_N reads)
        ("x = (TABLE[z] or tally_zone(st, z))[p] + c_7(st, env, 0)", False),  # may clear _TD
        ("x = (TABLE[z] or tally_zone(st, z))[p] + move_cards(st, 1, 2)", False),  # a move
        ("x = (TABLE[z] or tally_zone(st, z))[p] if _TD else 0", False),  # another _TD read
        ("x = len(st.zones[z])", False),  # no read of the table: nothing to hoist
    ],
)
def test_the_table_is_read_once_only_where_nothing_can_drop_it(line: str, hoisted: bool) -> None:
    """The lines collecting options read the table from a local only when none of them can
    clear or replace it (codegen/tablelocal.py): a move, a direct function's call."""
    body = Writer(1)
    body.line(line.replace("TABLE", TABLE))
    w = Writer(1)
    hoist(w, body, lambda hint: f"_{hint}1")
    if hoisted:
        assert w.lines == [f"    _tb1 = {TABLE}  # (codegen/tablelocal.py)"]
        assert body.lines == ["    " + line.replace("TABLE", "_tb1")]
    else:
        assert w.lines == []
        assert body.lines == ["    " + line.replace("TABLE", TABLE)]
