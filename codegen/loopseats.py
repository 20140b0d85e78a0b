"""A loop over seats skips a seat eliminated since it began, the test written out.

In rules that eliminate players, ``for q in LIST`` over seats skips a seat that was in the game
when the loop began and is out now (the interpreter's ForOp, ``runtime/ops.gone``): a bit mask
of the seats in play is taken before the loop, and each item tested by a call. Where the
generator knows more, the test is written out (Sonnenkönig's auction runs such a loop per round
of bids, its turns one per seat):

- over ``st.players`` itself (the loop runs over a copy taken just after the mask, and no
  expression changes the seats in play), every item was in the game: it is gone when it is no
  longer in ``st.players``, and no mask is needed;
- over a list whose items are proven seats (codegen/facts: ints from 0 to the number of players
  less one), ``gone``'s type test always passes: ``(mask >> x) & 1 and x not in st.players``;
- over anything else, ``gone(st, mask, x)`` as before.
"""

from __future__ import annotations

from .facts import SEAT, Facts


def gone_test(live: str, x: str, items: str, facts: Facts) -> str:
    """Python text true when the loop's item ``x`` (over the list ``items``, with the mask of
    the seats in play in ``live``) is a seat eliminated since the loop began."""
    if items == "st.players":
        return f"{x} not in st.players"
    if facts.items_of(items) == SEAT:
        return f"({live} >> {x}) & 1 and {x} not in st.players"
    return f"gone(st, {live}, {x})"


def needs_mask(live: str, test: str) -> bool:
    """Does the test ``gone_test`` wrote read the mask ``live`` (taken before the loop)?"""
    return bool(live) and live in test
