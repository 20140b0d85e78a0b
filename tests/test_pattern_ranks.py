"""PatternTable keeps the rank of each set of cards it ranked (runtime/helpers.py): by the group
values of the cards, in their order, at most RANKS_KEPT sets. A rank read from what it kept is
the rank computed afresh, for every set, in any order of asking."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from meeple.runtime import helpers
from meeple.runtime.helpers import PatternTable
from meeple.runtime.values import Card

PATTERNS = ((1, 1), (2,), (2, 1), (1, 1, 1), (3,), (2, 2))


def _table() -> PatternTable:
    return PatternTable("name", PATTERNS, tuple(f"p{n}" for n in range(len(PATTERNS))))


def _afresh(names: tuple[str, ...]) -> int:
    """The rank as the rules define it: the sizes of the groups, largest first."""
    sizes = tuple(sorted(Counter(names).values(), reverse=True))
    return PATTERNS.index(sizes) + 1 if sizes in PATTERNS else 0


def _sets() -> list[tuple[str, ...]]:
    """Every sequence of 0 to 4 names out of three."""
    return [s for n in range(5) for s in itertools.product("abc", repeat=n)]


def _cards(names: tuple[str, ...]) -> list[Card]:
    return [Card(i, "minions", n, n, None, i, {}) for i, n in enumerate(names)]


@pytest.mark.parametrize("order", ["forward", "backward"])
def test_a_kept_rank_is_the_rank(order: str) -> None:
    """Each set ranked three times (the first afresh, then from what the table kept: one rank
    per set but the empty one), in either order of asking: always the rank computed afresh."""
    table = _table()
    sets = _sets() if order == "forward" else _sets()[::-1]
    for _ in range(3):
        for names in sets:
            assert table.rank(_cards(names)) == _afresh(names), names
    assert len(table._known) == len(sets) - 1


def test_a_table_keeps_at_most_so_many_ranks(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for 10 sets, the rest are ranked afresh each time, and rightly."""
    monkeypatch.setattr(helpers, "RANKS_KEPT", 10)
    table = _table()
    for _ in range(2):
        for names in _sets():
            assert table.rank(_cards(names)) == _afresh(names), names
    assert len(table._known) == 10
