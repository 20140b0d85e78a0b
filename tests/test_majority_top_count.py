"""The holders of a majority counted by one property (runtime ``majority_top_count``,
codegen/majority_counts.py ``top_by_property``): Harbour Guilds' ``guild_majority(g)`` and
Louis XIV's coat of arms majorities, written as one call without a comprehension per seat.

The call must give what ``majority_top`` gives for the comprehension's counts (the same holders,
the same errors) for any piles; the shipped games must use it where it applies and only there;
and their games on both back ends agree (tests/test_codegen.py plays them)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import generated
from hypothesis import given
from hypothesis import strategies as st_

from meeple.api import load_checked
from meeple.runtime.majorities import majority_top
from meeple.runtime.majority_counts import majority_top_count

PILES = st_.lists(st_.lists(st_.sampled_from(["a", "b", "c", None]), max_size=6), max_size=5)


def _card(colour: str | None) -> Any:
    """A card whose ``colour`` is ``colour``, or one without it (None)."""
    return SimpleNamespace(props={} if colour is None else {"colour": colour})


@given(
    piles=PILES,
    order=st_.randoms(use_true_random=False),
    at_least=st_.integers(0, 3),
    ties=st_.sampled_from(["2-6:nobody", "2-6:all", "2-3:nobody,4-6:all"]),
    value=st_.sampled_from(["a", "b"]),
)
def test_the_holders_are_those_of_the_comprehensions_counts(
    piles: list[list[str | None]], order: Any, at_least: int, ties: str, value: str
) -> None:
    """Any piles (a card without the property too), candidates in any order and any subset:
    the same holders as majority_top of ``[len([1 for c in pile[x] if c.props[P] == V]) for x
    in among]``, or the same error."""
    zones = [[_card(c) for c in pile] for pile in [["a"], *piles]]  # (seat 0's pile at 1)
    seats = list(range(len(piles)))
    among = order.sample(seats, order.randint(0, len(seats)))
    state = SimpleNamespace(players=seats or [0])
    try:
        counts = [len([1 for c in zones[1 + x] if c.props["colour"] == value]) for x in among]
        expected: Any = majority_top(state, among, at_least, ties, counts)
    except KeyError as e:
        expected = e
    try:
        got: Any = majority_top_count(state, among, at_least, ties, zones, 1, "colour", value)
    except KeyError as e:
        got = e
    if isinstance(expected, KeyError):
        assert isinstance(got, KeyError) and got.args == expected.args
    else:
        assert got == expected


@pytest.mark.parametrize(
    ("game_id", "call"),
    [
        (
            "harbour-guilds",
            # a guild is a card: compared by identity (runtime/card_counts.py)
            r"majority_top_card\(st, st\.players, 1, '2-4:nobody', st\.zones, Z_stall1, "
            r"'guild', (v_g|_L_g\d+)\)",
        ),
        (
            "louis-xiv",
            r"majority_top_count\(st, \(\(SEATS_clockwise_from1\.get\(st\.vars\['start_player'\]"
            r"\).*\), 1, '2-4:all', st\.zones, Z_coats_held1, 'arms', (v_a|_a\d+)\)",
        ),
    ],
)
def test_the_shipped_majorities_by_property_are_one_call(game_id: str, call: str) -> None:
    """The function and the direct code of the majority call it; where the value is read from
    ``env`` (the frame-stepping code's loop) the comprehensions are kept (an ``env`` read in an
    argument is not proven to be what the comprehension reads), as is a count by owner."""
    code = generated(load_checked(game_id))
    assert len(re.findall(call, code)) == 2
    assert "majority_top_c" not in "\n".join(line for line in code.splitlines() if "env[" in line)
    assert "majority_top(st, " in code
