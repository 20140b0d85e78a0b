"""Values of an inner loop that do not change with an outer loop, computed once per item
(codegen/memo.py).

tests/fixtures/memo computes, in a loop over the spots inside a loop over the seats, values that
name the spot but not the seat: in options' conditions, in a comprehension in a comprehension,
through a small function whose body is an ``and`` read by the term after it, and a value that
names no loop; next to values of both loops, a value that raises only on paths the rules do not
take, and counts computed again after a move. The interpreter computes every value each time:
every playout of the compiled game is the interpreter's game for the same choices, and the value
that raises, once the rules take its path, raises the interpreter's error at its place.
"""

from __future__ import annotations

import re
from pathlib import Path

from test_playout import FIXTURES, playouts_are_api_games
from test_rows import _first_failure

from meeple.api import load_checked
from meeple.codegen import tally
from meeple.codegen.emitter import generate

MEMO = FIXTURES / "memo" / "game.yaml"

#: What the interpreter's games of the fixture must show between them: each option taken.
SHAPES = (r"Your turn -> raid P\d", r"Your turn -> hold P\d", r"Your turn -> weigh P\d")


def test_every_shape_plays_out_as_the_interpreter_plays_it() -> None:
    """60 playouts of the compiled fixture, each the interpreter's API game (and the compiled
    one) for the same choices, its scores counted by every shape; between them the games take
    every option."""
    _, log = playouts_are_api_games(MEMO, 3, range(60))
    for shape in SHAPES:
        assert any(re.search(shape, line) for line in log), shape


def _playouts_code() -> str:
    """The fixture's direct code, its counts by owner scanned as the interpreter scans them
    (here they are the values memo keeps; codegen/tally.py reads them from a table otherwise)."""
    tally.ENABLED = False
    try:
        text = generate(load_checked(str(MEMO)))
    finally:
        tally.ENABLED = True
    return text[text.index("def c_0(") :]


def test_a_value_of_the_inner_loop_only_is_kept_per_item() -> None:
    """In the playouts' code: ``mine(p, s)``, ``hold(p, s)`` and ``ratio(p, s)`` are kept
    per spot across the seats (options and comprehensions), ``left(p)`` once for the whole
    loop (next to ``mine(p, s)``: two dicts made where one loop starts); ``mine(q, s)`` names
    the seat too, and is counted for each seat and spot."""
    code = _playouts_code()
    at = r"(_kept\d+)\[(_s\d+|None)\] if \2 in \1 else \1\.setdefault\(\2, (\(*\w+)"
    kept = re.findall(at, code)
    # guard and raid (one dict), hold, weigh (options), the two counts over seats (one in a
    # loop of statements)
    assert sorted(v for _, key, v in kept if key != "None") == sorted(
        ["len", "len", "divide", "((len", "len", "len"]
    ), kept
    assert [v for _, key, v in kept if key == "None"] == ["len", "len"]  # left(p), twice
    # a seat's count is never kept: one per seat and spot
    per_seat = r"setdefault\(_s\d+, len\(\[1 for _x\d+ in [^\]]* if \(_x\d+\.owner == _q"
    assert not re.search(per_seat, code)
    # a comprehension's dicts are made where it starts
    assert len(re.findall(r"\[1 for _kept\d+ in \[\{\}\] for ", code)) == 2
    assert len(re.findall(r"\[1 for _kept\d+, _kept\d+ in \[\(\{\}, \{\}\)\] for ", code)) == 1


def test_the_options_of_a_choice_read_one_dict() -> None:
    """The turn's choice makes its dicts before its options are collected: ``mine(p, s)`` of
    the guard option's loop over the spots and of the raid option's loop inside a loop over
    the seats is one dict; the crowd option's count is read once per spot, and not kept."""
    code = _playouts_code()
    made = re.search(r"\n( *)(_kept\d+) = \{\}\n\1(_kept\d+) = \{\}\n\1(_kept\d+) = \{\}\n", code)
    assert made, "the choice's dicts are not made before its options"
    lines = code[made.end() :].splitlines()[:12]
    guard = next(x for x in lines if "> 1))]" in x)
    # (raid's ``any``: an inner loop over the spots, codegen/anyloop.py)
    raid = next(x for x in lines if x.lstrip().startswith("if (") and "> 0) and (len(" in x)
    assert f"{made[2]}.setdefault(" in guard and f"{made[2]}.setdefault(" in raid
    crowd = next(x for x in lines if ".owner != _L_p" in x)
    assert "_kept" not in crowd


def test_what_a_kept_value_computes_is_not_read_after_it() -> None:
    """``hold(p, s) and top(at[s]).owner == q``: ``hold``'s body reads the spot's pile, and the
    term after it reads the pile again, never a value the body computed (the body runs only for
    a new spot)."""
    code = _playouts_code()
    line = next(x for x in code.splitlines() if "> 0)))) and (" in x and "[-1].owner ==" in x)
    assert re.search(
        r"and \(st\.zones\[\(Z_at1 \+ _s\d+\.ordinal\)\]\[-1\]\.owner == _q\d+\)", line
    )


def test_a_kept_value_that_raises_fails_as_in_the_interpreter(tmp_path: Path) -> None:
    """``ratio(p, s)`` divides by the spot's value, 0 for spot A, and is kept per spot: behind
    ``s.value > 0`` it never raises; without it, a compiled playout fails with the error, at
    the place, of the interpreter's game of the same choices."""
    text = MEMO.read_text(encoding="utf-8")
    edit = ("mine(q, s) > 0 and s.value > 0 and ratio(p, s)", "mine(q, s) > 0 and ratio(p, s)")
    assert edit[0] in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(*edit), encoding="utf-8")
    played = _first_failure(path)  # (on both back ends, as the API games fail)
    assert "division by zero" in str(played)
