"""Owner counts of some piles, kept up to date while a playout's direct code runs.

A generated module whose rules count a pile's cards by owner (``count(m for m in
markers_on[d] if m.owner == p)``) reads those counts from a table instead of scanning the pile
(codegen/tally.py says when, and what keeps the table right). The table is built here from the
piles: ``table[z][o]`` is the number of cards of owner ``o`` (a seat) in zone ``z``, for each
zone index ``z`` in ``zones``; ``table[z]`` is None for every other zone. Slot ``n`` (index -1)
counts the cards of no owner, which a read never asks for (it asks for a seat).
"""

from __future__ import annotations

from typing import Any


def build_tally(st: Any, zones: tuple[int, ...], n: int) -> list[list[int] | None]:
    """The owner counts of ``st``'s piles ``zones`` (indices into ``st.zones``), counted now;
    ``n``: the number of seats. A list with one entry per zone of the state."""
    table: list[list[int] | None] = [None] * len(st.zones)
    for z in zones:
        counts = [0] * (n + 1)
        for c in st.zones[z]:
            o = c.owner
            counts[-1 if o is None else o] += 1
        table[z] = counts
    return table


def owner_slots(cards: Any) -> tuple[int, ...]:
    """Each card's slot in a table of build_tally, by card id: its owner, or -1 for none."""
    return tuple(-1 if c.owner is None else c.owner for c in cards)
