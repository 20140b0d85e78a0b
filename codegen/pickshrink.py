"""A pick whose condition's ``picked`` part only takes candidates away: its cards tested once,
later passes only leaving some out (codegen/pick.py writes the rest of the pick).

The condition is ``F or (G and not any(H for x in picked))`` (the shape of "two of a name, one
wild card may stand in"): ``F`` and ``G`` *fixed* (codegen/pickkeep.fixed: the same answer, or
the same error, for a card at every pass), ``H`` fixed for ``x`` and not reading the pick's item
(nor any ``if`` of that comprehension), the source a zone as codegen/pickkeep.keeps wants it, and
the picked cards leaving it for a zone of another name or not moving (the cards not yet picked
stay in the source in the same order: no statement runs while the pick does).

run_pick tests, at every pass, each card of the source in order: ``F``; if falsy ``G``; if
truthy the ``any`` over the cards picked (the same value for every card of one pass: it reads no
item). At the first pass nothing is picked: the ``any`` is false without testing anything, so
the cards met are those where ``F`` or ``G`` holds, and this code keeps them (``found``, in the
source's order) with whether ``F`` held (``ff``). At a later pass the cards of the source
outside ``found`` fail again without error; a kept card with ``F`` is met again; a kept card
without ``F`` (so with ``G``) is met iff the ``any`` is false, which run_pick computes first at
the first such card, so it is computed here once when there is one (the same value, or the same
error first). The cards met are then merged as pick.py's ``_merge`` does (tests/test_pick_shrink.py
plays tests/fixtures/pickshrink against the API).
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from .cse import iterable
from .exprs import Scope, mentions
from .pick import picked_may_be_candidates, zone_name
from .pickkeep import _fixed_index, fixed
from .writer import Writer


def _parts(s: ir.Pick) -> tuple[ir.Expr, ir.Expr, ir.Call] | None:
    """``(F, G, any(...))`` of a condition ``F or (G and not any(...))``, else None."""
    w = s.where
    if not (isinstance(w, ir.BinOp) and w.op == "or"):
        return None
    r = w.right
    if not (isinstance(r, ir.BinOp) and r.op == "and"):
        return None
    n = r.right
    if not (isinstance(n, ir.Unary) and n.op == "not" and isinstance(n.operand, ir.Call)):
        return None
    call = n.operand
    if call.func != "any" or call.kwargs or len(call.args) != 1:
        return None
    return w.left, r.left, call


def shrinks(s: ir.Pick, layout: Any) -> bool:
    """Does the pick ``s`` keep its tested cards and only leave some out later (module
    docstring)?"""
    parts = _parts(s)
    if parts is None or zone_name(s.src, layout) is None:
        return False
    if isinstance(s.src, ir.Index) and not _fixed_index(s.src.index, s.var, layout):
        return False
    if s.dest is not None and picked_may_be_candidates(s, layout):
        return False  # a picked card may go back on top of the source: its order changes
    f, g, call = parts
    comp = call.args[0]
    if not (
        isinstance(comp, ir.Comprehension)
        and isinstance(comp.iter, ir.Name)
        and comp.iter.id == "picked"
        and comp.var != s.var
    ):
        return False
    inner = [comp.elt] + ([comp.cond] if comp.cond is not None else [])
    return (
        fixed(f, s.var, layout)
        and fixed(g, s.var, layout)
        and all(fixed(e, comp.var, layout) and not mentions(e, s.var) for e in inner)
    )


class Shrink:
    """The names of one pick's tested cards (module docstring), written by ``build``,
    ``passes`` and ``drop``."""

    def __init__(self, em: Any, s: ir.Pick, picked: str) -> None:
        self.em, self.s, self.picked = em, s, picked
        fresh = em.names.fresh
        self.found, self.ff = fresh("found"), fresh("ff")

    def build(self, w: Writer) -> None:
        """The cards the first pass meets (``found``), and whether ``F`` held for each."""
        em, s, fresh = self.em, self.s, self.em.names.fresh
        f, g, _ = _parts(s)  # type: ignore[misc]
        x = fresh(s.var)
        with iterable(em.ex):  # (it may be a comprehension's)
            src = em._e(s.src)
        em.ex.facts.note(x, em.ex.facts.items_of(src))  # (its condition asks only of items)
        scope = Scope({s.var: x})
        w.line(f"{self.found} = []")
        w.line(f"{self.ff} = []")
        w.line(f"for {x} in {src}:  # in the source's order, as run_pick tests them")
        with w.indent():
            w.line(f"if {em.ex.emit(f, scope)}:")
            with w.indent():
                w.line(f"{self.found}.append({x})")
                w.line(f"{self.ff}.append(True)")
            w.line(f"elif {em.ex.emit(g, scope)}:  # (nothing picked yet: the any is false)")
            with w.indent():
                w.line(f"{self.found}.append({x})")
                w.line(f"{self.ff}.append(False)")

    def passes(self, w: Writer, met: str) -> None:
        """``met`` = the cards the current pass meets, in the source's order."""
        em, s = self.em, self.s
        _, _, call = _parts(s)  # type: ignore[misc]
        y, fl = em.names.fresh("sy"), em.names.fresh("sfl")
        anyp = em.ex.emit(call, Scope({"picked": self.picked}))
        w.line(f"if {self.picked} and False in {self.ff} and {anyp}:")
        with w.indent():
            w.line(f"{met} = [{y} for {y}, {fl} in zip({self.found}, {self.ff}) if {fl}]")
        w.line("else:")
        with w.indent():
            w.line(f"{met} = {self.found}")

    def drop(self, w: Writer, c: str) -> None:
        """The card ``c`` was picked: it is met no more."""
        k = self.em.names.fresh("sk")
        w.line(f"{k} = {self.found}.index({c})")
        w.line(f"del {self.found}[{k}]")
        w.line(f"del {self.ff}[{k}]")
