"""Loops over a kind's cards that test fixed values of each card first (codegen/statics.py).

tests/fixtures/statics tests a spot's type, its region's values and a constant first, in every
place a loop over a kind's cards has a condition (comprehensions, an ``any`` without one,
options, small functions written inline), next to terms that are not fixed and must be tested
per item. The interpreter tests every term on every card: every playout of the compiled game is
the interpreter's game for the same choices, and a term that raises before a fixed one raises
the interpreter's error at its place.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import generated
from test_playout import FIXTURES, Recorder, playouts_are_api_games

import meeple
from meeple.api import load_checked
from meeple.dsl.errors import RuleError

STATICS = FIXTURES / "statics" / "game.yaml"

#: What the interpreter's games of the fixture must show between them: each option taken.
SHAPES = (
    r"Place a pawn -> open \w+ (hill|field)",
    r"Place a pawn -> coast North (hill|lake)",
    r"Place a pawn -> goal \w+ lake",
    r"Place a pawn -> goal \w+ field",
    r"Place a pawn -> lake$",
    r"Place a pawn -> back \w+ (hill|lake)",
)


def _games(rules: Path) -> tuple[meeple.Game, meeple.Game]:
    return (
        meeple.load(str(rules), 3, backend="compiled"),
        meeple.load(str(rules), 3, backend="interpreter"),
    )


def test_every_shape_plays_out_as_the_interpreter_plays_it() -> None:
    """40 playouts of the compiled fixture, each the interpreter's API game (and the compiled
    one) for the same choices, its scores counted by every shape of loop; between them the
    games take every option."""
    _, log = playouts_are_api_games(STATICS, 3, range(40))
    for shape in SHAPES:
        assert any(re.search(shape, line) for line in log), shape


def _module() -> str:
    return generated(load_checked(str(STATICS)))


def test_the_fixed_terms_are_tested_once_when_the_module_is_built() -> None:
    """Each loop whose condition starts with fixed terms runs over a list of the cards that
    pass them, built with the module: those terms are not in the loops any more."""
    text = _module()
    built = dict(re.findall(r"\n    (KF_spots\d+) = \[_x for _x in K_spots1 if (.*)\]", text))
    assert sorted(built.values()) == sorted(
        [
            "(_x.props['type'] in ['hill', 'lake'])",  # `in` a list: a comprehension and an option
            "(not _x.props['big']) and (_x.props['region'] != _x.props['region'].props['rival'])",
            "(_x.props['type'] != 'lake')",
            "_x.props['region'].props['rival'].props['coastal']",  # then a variable's term
            "(_x.props['type'] == 'lake')",  # of_type(s, 'lake'), in `any` and in `first`
            "((_x.props['type'] == 'hill') or (_x.props['type'] == 'field'))",  # open_spot(s)
            "_x.props['region'].props['coastal'] and (_x.props['big'] == True)",  # a constant
        ]
    )
    # every term fixed: the count of the list built
    name = next(n for n, t in built.items() if "rival'])" in t and "not" in t)
    assert f"] + len({name})" in text  # (the score's new value, checked, then stored)
    loops = text[text.index("def c_0(") :]
    fixed = re.compile(r"props\['type'\] (==|!=|in) [\['](hill|lake|field)")
    assert not [x for x in loops.splitlines() if fixed.search(x) and "all(" not in x]
    assert "props['coastal']" not in loops
    big = [x for x in loops.splitlines() if "props['big']" in x]
    assert all("< st.vars['round']" in x for x in big), big  # (that one is not fixed)


def test_a_fixed_value_compared_with_a_name_reads_the_cards_of_that_value() -> None:
    """``of_type(s, goal)`` (a variable) and ``x.owner == p`` (a procedure's parameter): the
    cards grouped by their type, or owner, when the module is built; the loop runs over the
    group of the name's value, testing the terms after it."""
    text = _module()
    groups = re.findall(r"\n    (KP_\w+) = \{_k: \[_x for _x in (KF?_\w+) if (.*) == _k\]", text)
    assert sorted(g[1:] for g in groups) == [
        ("KF_spots4", "_x.props['type']"),  # the coastal rivals' spots, by type: then a count
        ("K_pawns1", "_x.owner"),
        ("K_spots1", "_x.props['type']"),
    ]
    by_type = next(g[0] for g in groups if g[1] == "K_spots1")
    loops = text[text.index("def c_0(") :]
    assert re.search(rf"for _s\d+ in {by_type}\.get\(st\.vars\['goal'\], \(\)\)", loops)
    rivals = next(g[0] for g in groups if g[1] == "KF_spots4")
    assert f"] + len({rivals}.get(st.vars['goal'], ()))" in loops
    found = r"for (_x\d+) in KP_pawns1\.get\(_L_p\d+, \(\)\) if \(\1\.props\['strong'\] and"
    assert re.search(found, loops)


def test_terms_that_are_not_fixed_stay_in_the_loop() -> None:
    """``s.value < round`` reads a variable (and orders: no group): that loop runs over every
    card of the kind and tests both terms per item; so does ``all`` (``all(A and B for ..)``
    is false for a card that fails A)."""
    loops = _module()[_module().index("def c_0(") :]
    kept = (
        r"all\(\(\(_s\d+\.props\['type'\] != 'lake'\) and .* for _s\d+ in K_spots1\)",
        r"for (_s\d+) in K_spots1 if \(\(\1\.props\['value'\] < st\.vars\['round'\]\) and \1\.",
    )
    for pattern in kept:
        assert re.search(pattern, loops), pattern


def test_a_term_that_raises_before_a_fixed_one_fails_as_in_the_interpreter(tmp_path: Path) -> None:
    """``crowd(s) >= 0 and s.type != 'lake'``: a lake's value is 0, so the interpreter's loop
    divides by zero at the first lake; the fixed term after it is not moved before it, and a
    compiled playout fails with the interpreter's error at its place."""
    text = STATICS.read_text(encoding="utf-8")
    edit = ("if s.type != 'lake' and count(at[s]) > 0)", "if crowd(s) >= 0 and s.type != 'lake')")
    assert edit[0] in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(*edit), encoding="utf-8")
    compiled, interpreter = _games(path)
    rec = Recorder(0)
    with pytest.raises(RuleError) as played:
        compiled.playout(0, rec)
    assert "division by zero" in str(played.value)
    for game in (interpreter, compiled):
        with pytest.raises(RuleError) as applied:
            api = game.new_initial_state(0, record_log=False)
            for _, i in rec.taken:
                assert api.pending is not None
                api.apply_action(api.pending.actions[i])
        assert str(applied.value) == str(played.value)
        assert played.value.span == applied.value.span
