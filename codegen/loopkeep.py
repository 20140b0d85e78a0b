"""Values a ``while`` condition computes per item, read again by the choice its body starts with.

Sonnenkönig's phase 1 is ``while: any(c.phase1 and p in colour_majority(c) for c in
unused_properties)`` with a choice inside whose options are ``for col in unused_properties when:
col.phase1 and p in colour_majority(col)``: the interpreter computes a majority in the condition
for each colour up to the first held one, then again for every colour as it collects the
options. codegen/memo.py keeps a value of a loop's item in a dict, made where the outermost loop
(or a choice's region) starts; here one region is opened at the top of each pass of the
``while``, around the condition and, later, the choice's collection of options: the dict is made
before the condition (``_kept1 = {}`` on each pass) and the two read one value per item. It is
computed lazily where the interpreter first computes it and read where it would be computed
again (memo's rules), so it raises where the interpreter's raises and is never computed where
the interpreter does not compute it.

That is exact when no code between the condition and the collection of the options can change a
value the condition computes. What runs there: the loop's pass count (a local, or the
``too_long`` error that ends the game), then the body's statements before the choice, then the
choice's own code before its options (an empty set of ids). ``shared`` allows only statements
that write nothing a value reads: a ``log`` (text; in a playout no code at all) and a ``let`` of
a name the condition does not read (an expression never writes the state or ``env``, and the
condition's values read only its own free names and, through rules functions, the game's
names). Anything else (a move, which may also set off triggers; an assignment, which may cross
a track's spaces or change a variable a rules function reads; a call, an ``if``, a loop, a pick)
ends the search: the options compute their values again. The choice must be the body's own
statement (not inside an ``if`` or a block), so it runs on every pass that reaches it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from meeple.dsl import ir

from .memo import Loop, free_names


def shared(em: Any, s: ir.While) -> ir.Choose | None:
    """The choice of ``s``'s body whose options may read the values ``s``'s condition keeps
    (module docstring), or None when there is none or some statement before it might write."""
    reads = free_names(s.test, em.game, em.ex.inlinable)
    for stmt in s.body.stmts:
        if isinstance(stmt, ir.Choose):
            return stmt
        if isinstance(stmt, ir.Log):
            continue
        if isinstance(stmt, ir.Let) and stmt.name not in reads:
            continue
        return None  # (it may write what a kept value reads: computed again)
    return None


class Carried:
    """The region of a ``while``'s condition carried to the choice ``shared`` found: ``frame``
    (memo's Loop) is on memo's stack while the condition is written, off it while anything
    else is, and on it again while the choice's options are collected (``resume``)."""

    def __init__(self, em: Any, choice: ir.Choose) -> None:
        self.em = em
        self.choice = choice
        self.frame = Loop("", host=True, region=True)

    def condition(self, cond: ir.Expr) -> tuple[str, str]:
        """The line that makes the dicts (memo's mark, written out or dropped by
        ``Loops.resolve``) and the text of ``cond``, written inside the region."""
        loops = self.em.ex.loops
        self.frame.place = len(loops.places)  # (the mark goes first: it is placed now)
        loops.places.append([])
        mark = loops.made(self.frame, line=True)
        loops.stack.append(self.frame)
        try:
            text = self.em._e(cond)
        finally:
            loops.stack.pop()
        return mark, str(text)


@contextmanager
def carry(em: Any, s: ir.While) -> Iterator[Carried | None]:
    """While ``s`` is written in direct code: its Carried region, when ``shared`` finds a choice
    and no loop of an expression is being written around it (none is, at a statement)."""
    choice = shared(em, s) if em.ex.reuse is not None and not em.ex.loops.stack else None
    if choice is None:
        yield None
        return
    c = Carried(em, choice)
    em.carried = c
    try:
        yield c
    finally:
        em.carried = None


def resume(em: Any, s: ir.Choose) -> Loop | None:
    """The region the choice ``s`` collects its options in when a ``while``'s condition opened
    it (``carry``): taken once; None for a region of its own."""
    c = getattr(em, "carried", None)
    if c is None or c.choice is not s:
        return None
    em.carried = None
    return c.frame
