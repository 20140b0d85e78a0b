"""A pile's cards counted by class, in one pass (codegen/classcounts.py): the counts by name
that one option collection asks of a hand, read from one list."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def class_slots(cards: Any, good: dict[str, int], lack: int) -> tuple[int, ...]:
    """Each card's slot in class_counts, by card id: its name's slot in ``good``, or ``lack``
    for a card of any other name."""
    return tuple(good.get(c.name, lack) for c in cards)


def class_counts(pile: Iterable[Any], slots: tuple[int, ...], n: int) -> list[int]:
    """The cards of ``pile`` (cards) counted by class: ``counts[s]`` the number whose slot
    (``slots``, by card id) is ``s``, for ``n`` slots."""
    counts = [0] * n
    for c in pile:
        counts[slots[c.id]] += 1
    return counts
