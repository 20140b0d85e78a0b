"""``majority_has_count`` and ``majority_top_count`` (runtime/majority_counts.py) for a value
that is a card: each card's property is tested with ``is`` instead of ``==``.

A card (runtime/values.Card) defines no ``__eq__``, so ``x == card`` is ``x is card`` for every
value of the language (a number, a text, a list, none or a card: each of their types answers
NotImplemented to a card, and Python then compares identities), but ``==`` gets there by two
calls of the types' comparisons and a fallback, which made the count of a colour row in
Sonnenkönig's majorities (one test per card of every seat's area, about 3,000 a playout) 5% of
its playout's instructions. The generator calls these where the checker types the value as a
card (codegen/cardeq.py): the same cards read in the same order, each property read as there
(a card without it raises the same ``KeyError``), the same answer.
"""

from __future__ import annotations

from typing import Any

from .majorities import _mode, majority_top


def majority_has_card(
    st: Any,
    who: Any,
    among: list[Any],
    at_least: int,
    ties: str,
    zones: list[list[Any]],
    base: int,
    prop: str,
    value: Any,
) -> bool:
    """``majority_has_count(st, who, among, at_least, ties, zones, base, prop, value)`` for a
    ``value`` that is a card or none (``among``: seats, ``base``: the index of seat 0's pile of
    a per-seat zone). Raises a ``KeyError`` for a card without ``prop``, as that does."""
    if who not in among:
        return False
    mine = 0
    for c in zones[base + who]:
        if c.props[prop] is value:
            mine += 1
    if mine < at_least:
        return False
    tied = False
    for x in among:
        if x != who:
            k = 0
            for c in zones[base + x]:
                if c.props[prop] is value:
                    k += 1
            if k > mine:
                return False
            tied = tied or k == mine
    return not tied or _mode(ties, len(st.players)) != "nobody"


def majority_top_card(
    st: Any,
    among: Any,
    at_least: int,
    ties: str,
    zones: list[list[Any]],
    base: int,
    prop: str,
    value: Any,
) -> list[Any]:
    """``majority_top_count(st, among, at_least, ties, zones, base, prop, value)`` for a
    ``value`` that is a card or none: the holders (seats of ``among``), the same errors."""
    counts = []
    for x in among:
        k = 0
        for c in zones[base + x]:
            if c.props[prop] is value:
                k += 1
        counts.append(k)
    return majority_top(st, among, at_least, ties, counts)
