"""``who in M(...)`` for a majority whose count is the cards of a seat's pile with one property
equal to a value (Sonnenkönig's ``row_count(p, col)``: the cards of ``area[p]`` of colour
``col``), counted here instead of by a callback per seat.

``majority_has`` (runtime/majorities.py) takes the count as a function of the candidate: a
closure made per question and a call and a list per candidate. Where the generator proves the
count has the form ``len([1 for c in st.zones[base + x] if c.props[prop] == value])``, with the
candidates proven seats and ``value`` a name read (codegen/majority_counts.py), it calls
``majority_has_count`` with those parts: the same cards read in the same order, each property
read as there (a card without it raises the same ``KeyError``, so the same rules error), the
same candidates asked in the same order and the same answer.
"""

from __future__ import annotations

from typing import Any

from .majorities import _mode, majority_top


def majority_has_count(
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
    """``majority_has(st, who, among, at_least, ties, count)`` where ``count(x)`` is the number
    of cards ``c`` of ``zones[base + x]`` with ``c.props[prop] == value`` (``among``: seats,
    ``base``: the index of seat 0's pile of a per-seat zone). Raises what that count raises: a
    ``KeyError`` for a card without ``prop``."""
    if who not in among:
        return False
    mine = 0
    for c in zones[base + who]:
        if c.props[prop] == value:
            mine += 1
    if mine < at_least:
        return False
    tied = False
    for x in among:
        if x != who:
            k = 0
            for c in zones[base + x]:
                if c.props[prop] == value:
                    k += 1
            if k > mine:
                return False
            tied = tied or k == mine
    return not tied or _mode(ties, len(st.players)) != "nobody"


def majority_top_count(
    st: Any,
    among: Any,
    at_least: int,
    ties: str,
    zones: list[list[Any]],
    base: int,
    prop: str,
    value: Any,
) -> list[Any]:
    """``majority_top(st, among, at_least, ties, counts)`` where ``counts`` is, for each seat
    ``x`` of ``among`` in order, the number of cards ``c`` of ``zones[base + x]`` with
    ``c.props[prop] == value`` (``among``: seats; Harbour Guilds' and Louis XIV's holders of a
    majority by property). The counts are the generated comprehension's, counted in loops here
    (a comprehension is a Python call per seat): the same cards read in the same order, the
    same holders and the same errors (a ``KeyError`` for a card without ``prop``)."""
    counts = []
    for x in among:
        k = 0
        for c in zones[base + x]:
            if c.props[prop] == value:
                k += 1
        counts.append(k)
    return majority_top(st, among, at_least, ties, counts)
