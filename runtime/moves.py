"""``move ITEMS to ZONE`` for a zone or a list of cards, in one call (both generated back ends'
code, stepping and direct, call it; the interpreter keeps the card-by-card moves it is defined
by, so the state-by-state comparisons of the two back ends check this module).

The statement means: for each card of ``cards_of(ITEMS)`` (a copy, bottom to top), in order,
``State.move(card, dest, bottom)``. When ITEMS is a whole pile (the very list of a zone: a zone
named in the rules, a zone parameter, a local bound to a zone) that comes to the following,
done here in one operation:

- another zone, on top: the pile is put on the destination as it lies (its bottom card first,
  so its top card ends on top); at the bottom: the pile, turned over, under the destination's
  bottom card (each card goes under the one moved before it);
- the pile itself, on top: nothing changes (each card, bottom first, goes on top: the pile ends
  as it was); at the bottom: the pile is turned over;
- an empty pile: nothing.

Each card's ``loc`` is the destination; the piles stay the same list objects (code may hold
one), but for a pile shared with a clone, copied first as State.move copies it (State.clone).
With the log on, each card moved into a seat's own zone from a face-down one still gets its own
"draws" line, in the order of the moves (State._note_draw). A list that is not a whole
pile (a filtered list, two piles added up, a card list a local holds) is moved card by card, as
before, with the same errors in the same places.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .ops import cards_of
from .values import Card

if TYPE_CHECKING:
    from .state import State


def move_cards(st: State, items: Any, dest: int, bottom: bool) -> None:
    """``move ITEMS to dest`` (``bottom``: under its bottom card): ITEMS a card, a zone (its
    list) or a list of cards, moved as ``State.move`` card by card over ``cards_of(ITEMS)``
    would move them (see the module docstring). Raises RuleError for ``none`` or for an item
    that is not a card (the cards before it are moved, as card by card)."""
    if type(items) is not list:
        if type(items) is Card:
            st.move(items, dest, bottom)
            return
        for c in cards_of(items):  # none: the rules' error
            st.move(c, dest, bottom)
        return
    if not items:
        return
    first = items[0]
    zones = st.zones
    src = st.loc[first.id] if type(first) is Card else -1
    if src < 0 or zones[src] is not items:  # not a whole pile: card by card
        for c in items:  # (no copy: only the piles' lists change as cards move)
            st.move(c, dest, bottom)
        return
    owned = st.owned
    if owned is not None and not (owned[src] and owned[dest]):  # shared with a clone
        st._own_pair(src, dest)  # (see State.clone: the piles this move changes, copied first)
        items = zones[src]
    if st.record_log and st.prog.zone_vis[dest] == "owner":
        for c in items:  # one line per card, as State.move writes them
            st._note_draw(src, dest, [c])
    if src == dest:
        if bottom:
            items.reverse()
        return
    loc = st.loc
    for c in items:
        loc[c.id] = dest
    d = zones[dest]
    if bottom:
        items.reverse()
        d[:0] = items
    else:
        d.extend(items)
    items.clear()
