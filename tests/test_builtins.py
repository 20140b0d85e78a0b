"""The registry of built-in functions (dsl/builtins.py) is the one the checker, the interpreter
and the code generator read: every entry is documented, compiled by both back ends, and gives
the same values on both."""

from __future__ import annotations

import builtins as python_builtins
import re
from pathlib import Path

import pytest
from test_language_v2 import BASE, edit, play_both, write

from meeple.dsl import builtins
from meeple.dsl.builtins import BUILTINS, EMIT_REDUCERS, HIDDEN, REDUCERS
from meeple.dsl.errors import CheckError
from meeple.dsl.loader import load_rules

DOCS = Path(__file__).resolve().parent.parent / "docs" / "language.md"

# Every built-in, in its plain and (where it reduces) generator form, in one scoring rule.
USES = edit(
    BASE,
    "variables:\n",
    "tracks:\n  gold: {per: players, min: 0, at_ends: refuse, source: Turn}\n\nvariables:\n",
    "              - move 1 from deck to hand[p]\n",
    "              - move 1 from deck to hand[p]\n              - gold[p] += 1\n",
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)",
    "        - let n = count(hand[p]) + sum([c.points for c in hand[p]]) + min(1, 2) + max([3, 4])"
    " + abs(-3)\n"
    "        - let g = count(c for c in hand[p] if c.points > 1) + sum(c.points for c in cards)"
    " + min(c.points for c in cards) + max(c.points for c in cards)"
    " + first(c.points for c in cards if c.points > 2)\n"
    "        - let b = any(c.points > 2 for c in hand[p]) or all([true]) or all(x > 0 for x in [1])"
    " or any([false])\n"
    "        - let s = count([left_of(p), right_of(p)]) + count(clockwise_from(p))"
    " + count(others(p))\n"
    "        - let k = first(cards).points + top(cards).points + bottom(cards).points"
    " + card('cards_1').points\n"
    "        - let r = pattern_rank(hand[p], sets)"
    " + (1 if pattern_label(hand[p], sets) == 'a pair' else 0)\n"
    "        - let o = first(sorted(c in cards, -c.points)).points + count(sorted(c in hand[p], 0))"
    " + min_by(c in cards, c.points).points + count([max_by(q in players, score[q])])"
    " + gold[first(track_order(gold))] + 2 * count(track_order(gold, others(p)))"
    " + count(pairs(hand[p], hand[p])) + count(pairs([1], [2]))\n"
    "        - score[p] = n + g + s + k + r + o + (1 if b else 0)",
)


def test_every_builtin_runs_alike_on_both_back_ends(tmp_path: Path) -> None:
    for name in set(BUILTINS) - HIDDEN:  # the rule above uses every entry: add a new one there
        assert re.search(rf"\b{name}\(", USES), f"add a use of {name}() to USES"
    for name in REDUCERS:
        assert name == "list" or re.search(rf"\b{name}\([^()\[\]]* for ", USES), name
    path = write(tmp_path, USES)
    for players in (2, 4):
        play_both(path, players, range(2))


def test_the_registry_is_whole() -> None:
    """Each entry either has both an implementation and generated text, or neither (then
    both back ends compile it themselves); a reducer has both forms."""
    for b in BUILTINS.values():
        assert (b.impl is None) == (b.emit is None), b.name
        assert b.min_args <= b.max_args, b.name
        assert len(b.args) <= b.max_args, b.name
        assert (b.reduce is None) == (b.emit_reduce is None), b.name
    assert set(REDUCERS) == set(EMIT_REDUCERS)
    special = {n for n, b in BUILTINS.items() if b.compiled_by_back_end}
    assert special == {"pattern_rank", "pattern_label", "card"}  # each back end's own code
    # the generated text names only what a generated module imports
    from meeple import runtime

    texts = [b.emit(["x", "y"]) for b in BUILTINS.values() if b.emit is not None]
    for text in texts + [t.format("x") for t in EMIT_REDUCERS.values()]:
        for called in re.findall(r"([A-Za-z_]\w*)\(", text):
            assert hasattr(python_builtins, called) or called in runtime.__all__, (text, called)
    assert builtins.first_of([5]) == 5


def test_the_documented_table_is_the_registry() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## 12. Built-in functions", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)\(", section, flags=re.M))
    assert documented == set(BUILTINS) - HIDDEN  # (the auction's own checks: never written)
    assert "dsl/builtins.py" in section


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "hand_points(p) + 2",
            "hand_points(p) + abs(p, 2) + 2",
            "'abs' takes 1 argument(s), got 2",
        ),
        ("hand_points(p) + 2", "hand_points(p) + count(3) + 2", "this is not a zone or a list"),
        ("hand_points(p) + 2", "hand_points(p) + abs(x=1) + 2", "'abs' takes no named arguments"),
        ("hand_points(p) + 2", "hand_points(p) + cont(hand[p]) + 2", "did you mean 'count'?"),
    ],
)
def test_the_checker_reads_arity_and_types_from_the_registry(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    with pytest.raises(CheckError) as e:
        load_rules(write(tmp_path, edit(BASE, old, new)))
    assert message in str(e.value)
