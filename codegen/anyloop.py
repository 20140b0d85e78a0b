"""An option's condition ``any(X for y in L)`` (or ``all``) written as an inner ``for`` loop.

Shadow of the Sun offers ``Usurp {q}`` for each other player ``q`` when ``any(markers_of(p, d) >
0 and markers_of(q, d) > 0 for d in districts)``: as a comprehension's condition that is a
generator made and resumed once per district for each player. Where the option's condition
(its terms that name the option's variable, codegen/choice.py's ``varying``) is that one call,
the values are collected by statements instead::

    v = []
    for x in ITEMS:
        for y in L:                 # any: the first true item offers x
            if X:
                v.append(x)
                break

    (all:  if not X: break  /  else: v.append(x))

The same expressions in the same order: ``L`` once per ``x``, then ``X`` per item with ``y``
bound, stopping at the first true (any) or false (all) item as the built-ins do, so the same
errors at the same item; a condition of the comprehension (``for y in L if C``) is tested first
(``C and X``), and a kind's cards that pass static terms come from codegen/statics.py as in the
comprehension. ``y`` is a fresh Python local, as in the comprehension. Only for the built-in
(not a rules function of that name) of a comprehension whose item is not the variable itself
(the expression writer makes that one a list). Sun's playouts run about 5% fewer instructions.
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from . import statics
from .cse import branch
from .exprs import Scope
from .writer import Writer


class Loop:
    """The parts of an ``any``/``all`` condition, written while the option's item is bound."""

    def __init__(self, reducer: str, py: str, items: str, cond: str, elt: str, mark: str) -> None:
        self.reducer = reducer  # "any" or "all"
        self.py = py  # the inner item's Python local
        self.items = items  # the inner items (Python text, evaluated once per option item)
        self.cond = cond  # the comprehension's condition (an item failing it is skipped), or ""
        self.elt = elt  # the item's value, tested where the condition holds
        self.mark = mark  # a memo line to write before the inner loop (codegen/memo), or ""


def applies(em: Any, varying: list[ir.Expr]) -> bool:
    """Is ``varying`` (an option's condition terms naming its variable) one ``any``/``all``
    call of a comprehension as the module docstring says?"""
    if len(varying) != 1:
        return False
    t = varying[0]
    if not (
        isinstance(t, ir.Call)
        and t.func in ("any", "all")
        and t.func not in em.game.functions
        and len(t.args) == 1
        and isinstance(t.args[0], ir.Comprehension)
    ):
        return False
    c = t.args[0]
    return not (isinstance(c.elt, ir.Name) and c.elt.id == c.var)


def parts(em: Any, call: ir.Expr, scope: Scope) -> Loop:
    """The loop's parts for the condition ``call`` (``applies``), in ``scope`` (the option's
    variable bound), written by the ModuleEmitter ``em``'s expression writer."""
    ex = em.ex
    assert isinstance(call, ir.Call)
    c = call.args[0]
    assert isinstance(c, ir.Comprehension)
    py = ex.fresh(c.var)
    inner = scope.bind(c.var, py)
    items = ex.items(c.iter, scope)
    moved = statics.split_comprehension(ex, c, call.func, False, inner)
    if moved is not None:
        items = moved[0]
    ex.facts.note(py, ex.facts.items_of(items))
    with branch(ex), ex.loops.loop(py, host=True) as loop:  # (once per inner item)
        cond, elt = ex._gen_parts(c, call.func, moved, py, False, inner)
    mark = ex.loops.made(loop, line=True)
    # (elt None: every term of the item static, codegen/statics; cond " if C" or "")
    return Loop(call.func, py, items, cond[len(" if ") :], elt or "True", mark)


def write(w: Writer, v: str, x: str, source: str, loc: str, loop: Loop) -> None:
    """``v``: the items ``x`` of ``source`` (Python text; ``loc`` the comment citing the
    option) for which ``loop``'s call is true, in their order."""
    w.line(f"{v} = []")
    w.line(f"for {x} in {source}:{loc}")
    with w.indent():
        if loop.mark:
            w.line(loop.mark)
        w.line(f"for {loop.py} in {loop.items}:")
        with w.indent():
            c = f"({loop.cond}) and " if loop.cond else ""  # C first, X only where C holds
            if loop.reducer == "any":
                w.line(f"if {c}({loop.elt}):")
                with w.indent():
                    w.line(f"{v}.append({x})")
                    w.line("break")
            else:
                w.line(f"if {c}not ({loop.elt}):")
                with w.indent():
                    w.line("break")
        if loop.reducer == "all":
            w.line("else:")
            with w.indent():
                w.line(f"{v}.append({x})")
