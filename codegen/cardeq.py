"""Cards compared by identity: ``a == b`` is written ``a is b`` where the checker types both
sides as cards (or none, or one of them).

A card (runtime/values.Card) defines no ``__eq__``, and none of the language's other values
(numbers, texts, lists, none) equals a card: Python's ``==`` between them falls back to
identity after asking both types' comparisons, which answer NotImplemented. So ``is`` gives
the interpreter's value (``==``, interpreter/evaluate.py) and never raises, as ``==`` does not;
it costs about half (a colour against a colour marker in Sonnenkönig, ``c.colour == col``).
The majority counts that compare a card property with a card name (codegen/majority_counts.py)
read the ``is`` in the text and call runtime/card_counts.py's loops.
"""

from __future__ import annotations

#: the checker's recorded types (plain: ``card[KIND]`` is ``card``) a side may have
_CARDISH = ("card", "none")

#: ``==`` and ``!=`` written by identity
IDENTITY = {"==": "is", "!=": "is not"}


def identity_op(op: str, left: str, right: str) -> str | None:
    """The identity operator for comparison ``op`` between values of the checker's types
    ``left`` and ``right``, where both are cards or none and at least one is a card; else None
    (the comparison is written as it is)."""
    if op not in IDENTITY or left not in _CARDISH or right not in _CARDISH:
        return None
    if "card" not in (left, right):  # none against none: `==` is as cheap
        return None
    return IDENTITY[op]
