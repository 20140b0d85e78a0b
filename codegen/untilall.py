"""A loop's ``until: all(X for x in L)`` written as a Python ``for`` loop, not a generator.

``all(...)`` of a generator expression makes a generator and resumes it once per item; Harbour
Guilds' play ends ``until: all(count(hand[p]) == 0 for p in players)``, tested after every round.
As statements the test is a loop whose ``else`` leaves the ``repeat``::

    if passes > 0:
        for x in L:
            if not X:
                break      # an item is false: the repeat goes on
        else:
            break          # every item is true: the repeat ends

The same items in the same order (``L`` evaluated once, then ``X`` per item with ``x`` bound to
it), stopping at the first false one as ``all`` does, so the same errors at the same item; ``x``
is a fresh Python local, as in the comprehension (nothing observes the interpreter's binding).
Only for ``all`` itself (not a rules function of that name) of one comprehension without a
condition whose item is not the variable itself (the emitter writes that one as a list).
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from .exprs import Scope
from .writer import Writer


def write_until_all(em: Any, w: Writer, until: ir.Expr, passes: str) -> bool:
    """Write the test of a ``repeat`` loop's ``until`` (run after the first pass, ``passes``
    the local counting them) that breaks out of the loop, when ``until`` has the form above;
    False (nothing written) otherwise. ``em``: the ModuleEmitter."""
    if not (
        isinstance(until, ir.Call)
        and until.func == "all"
        and "all" not in em.game.functions
        and len(until.args) == 1
        and isinstance(until.args[0], ir.Comprehension)
    ):
        return False
    c = until.args[0]
    if c.cond is not None or (isinstance(c.elt, ir.Name) and c.elt.id == c.var):
        return False
    ex = em.ex
    py = ex.fresh(c.var)
    items = ex.items(c.iter, Scope())
    ex.facts.note(py, ex.facts.items_of(items))
    with ex.loops.loop(py, host=False):  # (no value kept per item: memo)
        elt = ex.emit(c.elt, Scope().bind(c.var, py))
    w.line(f"if {passes} > 0:")
    with w.indent():
        w.line(f"for {py} in {items}:")
        with w.indent():
            w.line(f"if not {elt}:")
            with w.indent():
                w.line("break")
        w.line("else:")
        with w.indent():
            w.line("break")
    return True
