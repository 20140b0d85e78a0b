"""The code of a ``move`` that sets off no trigger (ModuleEmitter._f_Move hands it here).

``move N from SRC to DEST`` is ``st.move_count``; a move of one card (by its checked type) is
``st.move``; a move of a zone or a list of cards, or of a value of no known type, is one call of
``move_cards`` (runtime/moves.py), which moves a whole pile in one operation, with the same pile
orders, ``loc`` and log lines as ``st.move`` card by card, and any other list card by card. The
items are evaluated before the destination, as the interpreter does. Rule text reaches this code
only through the emitter's expression writer.
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir
from meeple.dsl.errors import MeepleError

from .exprs import Scope
from .writer import Writer


def write_move(em: Any, w: Writer, s: ir.Move) -> None:
    """The statement ``s`` (no ``where``, no trigger on its destination) as Python lines; ``em``
    is the ModuleEmitter, whose helpers write every expression and span."""
    if not isinstance(s.bottom, bool):  # as the emitter's _flag: never written raw
        raise MeepleError(f"the code generator expected a yes/no value, not {s.bottom!r:.40}")
    bottom = repr(s.bottom)
    dest = em.ex.zone_index(s.dest, Scope())
    if s.count is not None:
        assert s.src is not None
        src = em.ex.zone_index(s.src, Scope())
        w.line(f"st.move_count({em._e(s.count)}, {src}, {dest}, {bottom}, {em._span(s.span)})")
        return
    assert s.items is not None
    if em.ex.type_of(s.items) == "card":
        w.line(f"st.move({em._e(s.items)}, {dest}, {bottom})")
        return
    w.line(f"move_cards(st, {em._e(s.items)}, {dest}, {bottom})")
