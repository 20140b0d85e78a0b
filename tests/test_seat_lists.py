"""others() and clockwise_from() (dsl/builtins.py), which both back ends call, give the seats in
play in clockwise order from a seat; a seat in play takes a short path (two slices) that must
give exactly what the general one gives, also once a seat is eliminated, when the generated
module's tables no longer apply and every call reaches these."""

from __future__ import annotations

from itertools import combinations
from types import SimpleNamespace
from typing import Any

import pytest

from meeple.dsl.builtins import clockwise_from, others
from meeple.dsl.errors import RuleError


def _state(players: list[int], n: int) -> Any:
    return SimpleNamespace(players=players, prog=SimpleNamespace(num_players=n))


def _clockwise(players: list[int], n: int, p: int) -> list[int]:
    """The definition: from seat p (or the next seat in play after it) round the table."""
    q = next(q % n for q in range(p, p + n) if q % n in players)
    i = players.index(q)
    return players[i:] + players[:i]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_seat_lists_from_every_seat_with_any_seats_out(n: int) -> None:
    for k in range(1, n + 1):
        for live in combinations(range(n), k):
            st = _state(list(live), n)
            for p in range(n):
                order = _clockwise(list(live), n, p)
                assert clockwise_from(st, p) == order, (live, p)
                assert others(st, p) == [q for q in order if q != p], (live, p)


def test_a_value_that_is_no_seat_is_refused() -> None:
    st = _state([0, 2], 3)
    named = r"is not a player in this 3-player game \(seats are P1\.\.P3"  # (as everywhere)
    for bad in (3, -1, None, "P1"):
        with pytest.raises(RuleError, match=named):
            others(st, bad)
        with pytest.raises(RuleError, match=named):
            clockwise_from(st, bad)
    with pytest.raises(RuleError, match="error: none is not a player"):
        clockwise_from(st, None)  # (never Python's None)
    nobody = _state([], 3)  # every seat eliminated, and the rules go on
    for f in (others, clockwise_from):
        with pytest.raises(RuleError, match="every player is out of the game"):
            f(nobody, 1)


def test_the_lists_are_new_lists() -> None:
    st = _state([0, 1, 2], 3)
    for f in (others, clockwise_from):
        got = f(st, 0)
        got.append(9)
        assert st.players == [0, 1, 2]
