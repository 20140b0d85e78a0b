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


#: the last pile ``is_top_by`` was asked about: (property, its cards, the last card by value);
#: one tuple, replaced whole (a reader never sees parts of two)
_last: tuple[str, tuple[Any, ...], dict[Any, Any]] = ("", (), {})


def is_top_by(c: Any, z: list[Any], prop: str) -> Any:
    """``c == [x for x in z if x.props[prop] == c.props[prop]][-1]``: is ``c`` the top card of
    its row of ``z``? The last card of each value is found once per pile and property and kept
    for the next question about the same cards in the same order (cards never change: the same
    cards give the same answer), so the cards of a pile asked one by one (a pick's candidates)
    scan it once. Wherever that comprehension would raise (an empty pile, a card without the
    property, a value that cannot be a dict's key, no card of ``c``'s value) it is evaluated
    itself, so the error is its own."""
    global _last
    cards = tuple(z)
    kept = _last
    if kept[0] == prop and kept[1] == cards:
        last = kept[2]
    else:
        last = {}
        try:
            for x in cards:
                last[x.props[prop]] = x
        except (KeyError, TypeError):
            return c == [x for x in z if x.props[prop] == c.props[prop]][-1]
        _last = (prop, cards, last)
    try:
        top = last[c.props[prop]] if cards else None
    except (KeyError, TypeError, AttributeError):  # (c: no such property, or no card of it)
        top = None
    if top is None:
        return c == [x for x in z if x.props[prop] == c.props[prop]][-1]
    return c == top
