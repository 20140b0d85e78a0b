"""The top card of each row of a pile, in one pass (for generated code: codegen/tops.py).

A pile whose cards lie in rows by one property (Sonnenkönig's power area: a colour row is the
cards of that colour, its top card the last of them) names its top cards as
``[c for c in Z if c == top([x for x in Z if x.PROP == c.PROP])]``: for each card, every card
of the pile again. ``tops_by`` gives the same list from one pass from the top.
"""

from __future__ import annotations

from typing import Any


def tops_by(z: list[Any], prop: str) -> list[Any]:
    """``[c for c in z if c == [x for x in z if x.props[prop] == c.props[prop]][-1]]`` for a
    zone ``z`` (a list that holds no card twice): each card that is the last of its value of
    ``prop``, in pile order. Raises ``KeyError(prop)`` when a card of ``z`` has no ``prop``, as
    that comprehension does (it reads every card's for the first card). A value that cannot be
    a set's (a list) is compared card by card, as there."""
    seen: set[Any] = set()
    out = []
    try:
        for x in reversed(z):
            v = x.props[prop]
            if v not in seen:
                seen.add(v)
                out.append(x)
    except TypeError:  # an unhashable value: the comprehension itself (the same answer)
        return [c for c in z if c == [x for x in z if x.props[prop] == c.props[prop]][-1]]
    out.reverse()
    return out
