"""Owner counts of piles, kept up to date while a playout's direct code runs.

A generated module whose rules count a pile's cards by owner (``count(m for m in
markers_on[d] if m.owner == p)``) reads those counts from a table instead of scanning the pile
(codegen/tally.py says when, and what keeps the table right). The table of a state is a list
with one entry per zone: None until the zone is first read, then ``owner_counts`` of its pile,
kept up to date; so a table dropped and made again costs only the zones read afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def owner_counts(pile: Iterable[Any], n: int) -> list[int]:
    """The cards of ``pile`` counted by owner: ``counts[o]`` for each seat ``o`` of ``n``, and
    ``counts[n]`` (index -1) the cards of no owner, which a read never asks for (it asks for a
    seat)."""
    counts = [0] * (n + 1)
    for c in pile:
        o = c.owner
        counts[-1 if o is None else o] += 1
    return counts


def owner_slots(cards: Any) -> tuple[int, ...]:
    """Each card's slot in owner_counts, by card id: its owner, or -1 for none."""
    return tuple(-1 if c.owner is None else c.owner for c in cards)
