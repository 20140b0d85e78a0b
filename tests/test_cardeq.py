"""Cards compared by identity (codegen/cardeq.py, runtime/card_counts.py).

``a == b`` between values the checker types as cards (or none) is written ``a is b``, and the
majority counts of a card property against a card count with ``is``: the same value as ``==``
for every value of the language, because a card defines no ``__eq__``. The runtime loops must
give what the ``==`` loops give (the same holders, the same errors) for any piles; the
generator must write ``is`` exactly where both sides are cards or none; the shipped games that
compare cards use it and play the interpreter's games (tests/test_codegen.py and
tests/test_playout.py play them on both back ends)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st_

from meeple.api import load_checked
from meeple.codegen.cardeq import identity_op
from meeple.codegen.emitter import generate
from meeple.runtime.card_counts import majority_has_card, majority_top_card
from meeple.runtime.majority_counts import majority_has_count, majority_top_count
from meeple.runtime.values import Card


def _marker(i: int) -> Card:
    return Card(i, "colours", f"c{i}", f"Colour {i}", None, i, {})


MARKERS = [_marker(i) for i in range(3)]
# what a property may hold: cards, none, and values of other types (never equal to a card);
# "missing" is a card without the property (a KeyError on both sides)
VALUES = st_.sampled_from([*MARKERS, None, 0, 1, "c0", "missing"])
PILES = st_.lists(st_.lists(VALUES, max_size=6), max_size=5)


def _card(v: Any) -> Any:
    return SimpleNamespace(props={} if v == "missing" else {"colour": v})


def _outcome(f: Any, *args: Any) -> Any:
    try:
        return f(*args)
    except KeyError as e:
        return ("KeyError", e.args)


@given(
    piles=PILES,
    order=st_.randoms(use_true_random=False),
    at_least=st_.integers(0, 3),
    ties=st_.sampled_from(["2-6:nobody", "2-6:all", "2-3:nobody,4-6:all"]),
    value=st_.sampled_from([*MARKERS, None]),
)
def test_the_identity_counts_are_the_equality_counts(
    piles: list[list[Any]], order: Any, at_least: int, ties: str, value: Any
) -> None:
    """Any piles (cards, none, numbers, texts, a card without the property), any candidates:
    ``majority_has_card`` and ``majority_top_card`` give what the ``==`` versions give, or the
    same error."""
    zones = [[_card(v) for v in pile] for pile in [[MARKERS[0]], *piles]]  # seat 0's pile at 1
    seats = list(range(len(piles)))
    among = order.sample(seats, order.randint(0, len(seats)))
    state = SimpleNamespace(players=seats or [0])
    top = (state, among, at_least, ties, zones, 1, "colour", value)
    assert _outcome(majority_top_card, *top) == _outcome(majority_top_count, *top)
    for who in seats or [0]:
        has = (state, who, among, at_least, ties, zones, 1, "colour", value)
        assert _outcome(majority_has_card, *has) == _outcome(majority_has_count, *has)


def test_identity_is_written_only_between_cards_and_none() -> None:
    assert identity_op("==", "card", "card") == "is"
    assert identity_op("!=", "card", "card") == "is not"
    assert identity_op("==", "card", "none") == "is"
    assert identity_op("!=", "none", "card") == "is not"
    for left, right in [
        ("none", "none"),  # no card: left as it is
        ("card", "any"),  # an unknown value: left to Python's ==
        ("any", "card"),
        ("int", "int"),
        ("player", "player"),
        ("text", "text"),
        ("list:card", "list:card"),  # lists compare item by item
        ("zone", "zone"),
    ]:
        assert identity_op("==", left, right) is None
        assert identity_op("!=", left, right) is None
    assert identity_op("<", "card", "card") is None


@pytest.mark.parametrize(
    ("game_id", "present", "absent"),
    [
        (
            "sonnenkoenig",
            [
                r"majority_has_card\(st, _L_p\d+, st\.players, 1, '2-3:nobody,4-6:all', "
                r"st\.zones, Z_area1, 'colour', _c\w+\)",
                r"\(_L_col\d+ is C_green1\)",
                r"\(_c\d+\.props\['colour'\] is _picked\d+\[0\]\.props\['colour'\]\)",
            ],
            [r"majority_has_count\(", r"props\['colour'\] == ", r" == C_"],
        ),
        (
            "louis-xiv",
            [r"\(_y\d+ is not _x\d+\)", r"\(env\['t'\] is st\.vars\['louis'\]\)"],
            [r"\(_y\d+ != _x\d+\)"],
        ),
    ],
)
def test_the_shipped_card_comparisons_are_by_identity(
    game_id: str, present: list[str], absent: list[str]
) -> None:
    """Sonnenkönig's colours (its majorities, use_property's branches, keep_cards' second
    card) and Louis XIV's tokens and courtiers are compared by identity; numbers are not."""
    code = generate(load_checked(game_id))
    for pattern in present:
        assert re.search(pattern, code), pattern
    for pattern in absent:
        assert not re.search(pattern, code), pattern
    assert re.search(r"\.props\['value'\] == ", code) or game_id == "louis-xiv"
