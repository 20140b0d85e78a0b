"""Values the generated code computes once where the rules compute them again (codegen/cse.py).

tests/fixtures/reuse computes values several times in one condition, in the guards of one
choice and in a pick's bounds, in every shape where the code generator computes one once, and in
the shapes where it must not: a value first computed only on some paths (behind ``and``/``or``,
in a branch of ``if else``, in a comprehension, in a key function), one that raises on paths the
rules do not take, one per item, one changed by a move between two statements, a function of
one parameter called with two seats. The interpreter computes every value each time: every
playout of the compiled game is the interpreter's game for the same choices, and a value that
raises raises the interpreter's error at its place.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import generated
from test_playout import FIXTURES, playouts_are_api_games
from test_rows import _first_failure

from meeple.api import load_checked
from meeple.codegen.cse import NESTED_VALUES, Reuse
from meeple.codegen.emitter import ModuleEmitter
from meeple.codegen.exprs import Scope
from meeple.codegen.writer import Names
from meeple.dsl import ir
from meeple.dsl.errors import SourceSpan

REUSE = FIXTURES / "reuse" / "game.yaml"

#: What the interpreter's games of the fixture must show between them (their logs): each option
#: taken, and the pick made.
SHAPES = (
    r"Your turn -> swap$",
    r"Your turn -> draw$",
    r"Your turn -> draw two$",
    r"Your turn -> bank \w+",
    r"Your turn -> mark P\d",
    r"Your turn -> tax P\d",
    r"Your turn -> fine P\d",
    r"Your turn -> spare P\d",
    r"Your turn -> gift$",
    r"Your turn -> trade$",
    r"Your turn -> burn$",
    r"Your turn -> stock$",
    r"Your turn -> stash King",
    r"Your turn -> hoard \w+",
    r"Your turn -> pay P\d",
    r"Discard down to four -> \w+, \w+",
)


def test_every_shape_plays_out_as_the_interpreter_plays_it() -> None:
    """40 playouts of the compiled fixture, each the interpreter's API game (and the compiled
    one) for the same choices; between them the games show every option and the pick."""
    _, log = playouts_are_api_games(REUSE, 3, range(40))
    for shape in SHAPES:
        assert any(re.search(shape, line) for line in log), shape


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        # a seat that is none, no longer behind `target != none and` in one option of two
        (
            ("when: target != none and target != p and count(hand[target]) > 1 +", "when: "
             "target != p and count(hand[target]) > 1 +"),
            "none is not a player",
        ),
        # a shared count that raises, first where the interpreter first computes it
        (('"count(c for c in hand[p] if c.wild)"}', '"count(c for c in hand[p] if c.wild) // '
          '(3 - round)"}'), "division by zero"),
        # a cell read twice by each item of an option, and no row for one card
        (("[joker, 3], [king, 5]]", "[joker, 3]]"), "table 'worth' has no row for card King"),
    ],
)  # fmt: skip
def test_a_shared_value_that_raises_fails_as_in_the_interpreter(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    """The fixture edited so that a value computed several times raises: a compiled playout
    fails with the rule error, at the place, of the interpreter's game of the same choices."""
    text = REUSE.read_text(encoding="utf-8")
    assert edit[0] in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
    played = _first_failure(path)  # (on both back ends, as the API games fail)
    assert re.search(message, str(played)), str(played)


def _module() -> str:
    return generated(load_checked(str(REUSE)))


def test_the_guards_of_a_choice_compute_a_shared_count_once() -> None:
    """``wilds(p)`` (a count of the hand) is in the guards of eight options of the turn's
    choice: the playouts' code counts the hand (by class: codegen/classcounts.py) twice, behind
    ``round > 2 and`` (where it is not read again) and in the first guard that always computes
    it, and counts ``wilds(q)`` per seat."""
    text = _module()
    start = text.index("_actions1 = set()")
    collect = text[start : text.index("_end1 = 1", start)]
    assert collect.count("class_counts(") == 3


def test_the_bounds_of_a_pick_compute_a_shared_count_once() -> None:
    """``min: count(hand[p]) - 4`` and ``max: count(hand[p]) - 4 + ...``: the max reads the
    count the min computed."""
    text = _module()
    found = re.search(r"_lo\d+ = \(\((_r\d+) := len\(st\.zones.*\n *_hi\d+ = \(\(\1 - 4\) \+", text)
    assert found, "the max counts the hand again"


def test_the_terms_of_an_and_read_what_the_terms_before_them_computed() -> None:
    """``round > 4 and count(deck) % 3 == 0 and count(deck) > 0 or count(deck) % 3 == 1``
    (the burn option's guard, in the option's function, collect_N and the playouts' code):
    the third term reads the count the second computed (it runs only after the second); the
    right of ``or`` counts again (it runs also where the second did not)."""
    lines = [x for x in _module().splitlines() if "Z_deck1]), 3, '%'" in x]
    assert len(lines) == 3
    for line in lines:
        first = re.search(r"\((_r\d+) := len\(st\.zones\[Z_deck1\]\)\), 3", line)
        assert first and f"and ({first[1]} > 0)) or (divide(len(st.zones[Z_deck1])" in line


def test_the_terms_of_a_guard_read_what_a_function_before_them_computed() -> None:
    """``rich(p) and count(deck) > 2 and ...`` (the hoard option's guard), ``rich(p)`` a
    function whose body, written inline, is ``count(vault[p]) > 0 and count(deck) > 1``: the
    second term, which runs only where the body's second term ran, reads its count."""
    lines = [
        x for x in _module().splitlines() if re.match(r" *if _items\d+ and .*Z_vault.*Z_deck1", x)
    ]
    assert len(lines) == 2  # the playouts' code and collect_N
    for line in lines:
        assert line.count("len(st.zones[Z_deck1])") == 1


def test_the_item_of_a_comprehension_reads_what_its_condition_computed() -> None:
    """``sum(top(vault[q]).points + count(hand[q]) for q in players if count(vault[q]) > 0
    and count(hand[q]) < 9)``: the item runs only where the condition ran and was true, so it
    reads the pile and the count the condition read; where the condition is ``A or B``, B
    may not have run, and the item counts again."""
    text = _module()
    sums = re.findall(r"\] \+ (sum\(\[.* for _q\d+ in st\.players if .*\]\))$", text, re.M)
    both = [x for x in sums if "< 9" in x]
    either = [x for x in sums if "> 3) or" in x]
    assert both and either and len(both) + len(either) == len(sums), sums
    for line in both:
        got = re.fullmatch(
            r"sum\(\[\((_r\d+)\[-1\]\.props\['points'\] \+ (_r\d+)\) for (_q\d+) in "
            r"st\.players if \(\(len\(\(\1 := st\.zones\[\(Z_vault1 \+ \3\)\]\)\) > 0\) and "
            r"\(\(\2 := len\(st\.zones\[\(Z_hand1 \+ \3\)\]\)\) < 9\)\)\]\)",
            line,
        )
        assert got, line
    for line in either:
        assert line.count("len(st.zones[(Z_vault1 + _q") == 2, line


def test_a_majority_computes_its_candidates_once() -> None:
    """Louis XIV's ``most_influence`` (a majority among ``clockwise_from(start_player)``): the
    lowered majority names its candidates twice (the list, and the list its counts go over),
    one expression; the module computes it once."""
    text = generated(load_checked("louis-xiv"))
    start = text.index("def fn_most_influence(")
    body = text[start : text.index("\n\n", start)]
    assert body.count("clockwise_from(") == 1


def test_values_computed_inside_one_another_nest_a_few_brackets_at_most() -> None:
    """``abs(L) + abs(L)``, L the same twelve levels down: each level's value is read again,
    but at most NESTED_VALUES of them are computed inside one another (each is a bracket,
    Python reads at most 200); the expression's value is the same."""
    em = ModuleEmitter(load_checked(str(REUSE)))
    span = SourceSpan("game.yaml", 1, 1, 1, 2)
    e: ir.Expr = ir.Name(span, "round")
    for _ in range(12):
        e = ir.BinOp(span, "+", ir.Call(span, "abs", (e,)), ir.Call(span, "abs", (e,)))
    text = em.ex.reuse.resolve(em.ex.emit(e, Scope()), em.names.fresh)
    assert max(_walrus_depth(text)) == NESTED_VALUES
    assert eval(text, {"st": SimpleNamespace(vars={"round": -1})}) == 2**12  # noqa: S307


def _walrus_depth(text: str) -> list[int]:
    """For each ``(_rN := ...)`` of ``text``, how many (itself included) enclose it."""
    stack: list[bool] = []
    found = []
    for i, ch in enumerate(text):
        if ch == "(":
            stack.append(re.match(r"\(_r\d+ := ", text[i:]) is not None)
            if stack[-1]:
                found.append(sum(stack))
        elif ch == ")":
            stack.pop()
    return found


def test_a_value_read_where_it_is_never_computed_is_a_generator_error() -> None:
    """Reuse.resolve refuses a module that reads a value no code computes, or keeps a mark."""
    with pytest.raises(AssertionError, match="never computed"):
        Reuse(None).resolve("x = \x043\x05\n", Names().fresh)
    assert Reuse(None).resolve("x = \x001\x01len(y)\x021\x03\n", Names().fresh) == "x = len(y)\n"
