"""The zone a conditional expression names, as an index (``move c to (A if T else B)``).

``st.zone_index(LIST)`` finds the zone that is the list itself: a look at the ``loc`` of its
first card, or a search of every zone when it is empty (Sonnenkönig's ``reveal`` moves each
card it draws to ``area[p] if into_area else on_display``, and ``return_item`` to one of three
piles). When the destination is ``A if T else B``, its index is ``iA if T else iB``: the same
test evaluated at the same point, then the same branch's index, each branch written as a zone
expression is (a zone's base plus a checked seat or ordinal, or ``st.zone_index`` of what is no
zone name). A branch that is no zone still fails as before, in ``st.zone_index``, and a seat
out of range with the seat check's error: the two texts raise the same errors in the same
order, and compute the same index otherwise.
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from .cse import branch


def cond_zone_index(ex: Any, e: ir.Cond, scope: Any) -> str:
    """Python text for the index in ``st.zones`` of the zone ``e`` (``A if T else B``) names,
    written by the ExprEmitter ``ex``: ``(iA if T else iB)``. Each branch runs on some paths
    only, so what it computes is reused nowhere else (codegen/cse)."""
    test = ex.emit(e.test, scope)
    with branch(ex):
        a = ex.zone_index(e.then, scope)
    with branch(ex):
        b = ex.zone_index(e.orelse, scope)
    return f"({a} if {test} else {b})"
