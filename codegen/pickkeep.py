"""A pick's candidates built once and kept up to date, where the generator proves it exact
(codegen/pick.py writes the rest of the pick).

run_pick builds the candidates anew for every item picked: the source's items that meet the
condition, less those already picked, identical cards one choice (the top-most of each, in the
source's order). pick.py's loop does the same at every pass. Here they are built before the loop
and, after each card picked, changed by what that pick changed, when:

- the source is a zone, its index (if any) a name or fixed as the condition below: the pick's
  own moves are the only change to it while the pick runs (a pick sets off no trigger and runs
  no other statement; the chooser only returns a number), and each takes the picked card out of
  it or puts it back on its top (a destination of the same zone), or there is no move at all
  (no destination): the cards not yet picked stay in the source in the same order, and the
  picked ones are no candidates (run_pick leaves them out);
- the condition, if any, is *fixed* (``fixed``): it reads only the item, constants, kinds and
  locals that hold no zone (``Checked.zone_locals``), through card fields and properties
  (never changed: runtime/values.Card), operators, conditionals and list literals; no zone, no
  call, no ``picked``. No statement runs while the pick does, so every local keeps its value:
  the condition gives each card the same answer (or the same error) at every pass, and the
  first pass, which tests every card in the source's order as run_pick's does, is the only one
  that needs to.

The kept lists hold the source's cards that met the condition and are not picked, from the top
down: ``rf`` the cards, ``rt`` their ``type_id``. A candidate is the first card of its type in
``rf``. When the candidate ``c`` at index ``i`` is picked, it leaves ``rf``/``rt`` and the
candidates; the next card of its type in ``rf`` (if any) becomes a candidate, placed among those
below ``c`` by its place in the source (after those below it), so the candidates are the list
run_pick would build, in the same order: the chooser sees the same options and draws the same
numbers (tests/test_pick_keep.py plays tests/fixtures/pickkeep against the API).
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from .cse import iterable
from .exprs import Scope
from .pick import zone_name
from .writer import Writer


def fixed(e: ir.Expr, var: str, layout: Any) -> bool:
    """Does the condition ``e`` of a pick whose item is named ``var`` give each item the same
    answer (or error) whatever the zones hold and whatever is picked (module docstring)?"""
    if isinstance(e, ir.Const):
        return True
    if isinstance(e, ir.Name):
        n, game = e.id, layout.game
        if n == var or n in game.constants or n in layout.static_names:
            return True
        if n == "picked" or n in layout.zone_base or n in game.variables:
            return False
        if n in ("players", "num_players"):  # (no one leaves the game during a pick)
            return True
        return n not in layout.checked.zone_locals()  # a local: it holds no zone
    if isinstance(e, ir.Attr):
        return fixed(e.obj, var, layout)
    if isinstance(e, ir.Unary):
        return fixed(e.operand, var, layout)
    if isinstance(e, ir.BinOp):
        return fixed(e.left, var, layout) and fixed(e.right, var, layout)
    if isinstance(e, ir.Cond):
        return all(fixed(x, var, layout) for x in (e.test, e.then, e.orelse))
    if isinstance(e, ir.ListLit):
        return all(fixed(x, var, layout) for x in e.items)
    return False  # a call, an index, a comprehension: they may read a zone


def keeps(s: ir.Pick, layout: Any) -> bool:
    """Are the candidates of the pick ``s`` built once and kept (module docstring)?"""
    if zone_name(s.src, layout) is None:
        return False
    if isinstance(s.src, ir.Index) and not _fixed_index(s.src.index, s.var, layout):
        return False  # which zone it is may change as cards move
    return s.where is None or fixed(s.where, s.var, layout)


def _fixed_index(e: ir.Expr, var: str, layout: Any) -> bool:
    """Is the index of the source zone the same at every pass? A fixed value is; so is any name
    but a zone's: no statement changes it while the pick runs, and a value that is no seat or
    component (a zone held in a local) fails the index's check at the first pass."""
    if isinstance(e, ir.Name) and e.id not in layout.zone_base and e.id != "picked":
        return True
    return fixed(e, var, layout)


class Kept:
    """The names of one pick's kept lists (module docstring), written by ``build`` and
    ``update``."""

    def __init__(self, em: Any, s: ir.Pick, cands: str) -> None:
        self.em, self.s, self.cands = em, s, cands
        fresh = em.names.fresh
        self.rf, self.rt = fresh("rf"), fresh("rt")

    def build(self, w: Writer) -> None:
        """``cands`` (and the kept lists) as the first pass of run_pick's loop finds them."""
        em, s, fresh = self.em, self.s, self.em.names.fresh
        rf, rt, cands = self.rf, self.rt, self.cands
        x, y, t = fresh(s.var), fresh("y"), fresh("t")
        with iterable(em.ex):  # (it may be a comprehension's)
            src = em._e(s.src)
        if s.where is None:
            w.line(f"{rf} = {src}[::-1]")
        else:
            em.ex.facts.note(x, em.ex.facts.items_of(src))  # (its condition asks only of items)
            cond = em.ex.emit(s.where, Scope({s.var: x}))
            # tested in the source's order, as run_pick's candidates are (the same first error)
            w.line(f"{rf} = [{x} for {x} in {src} if {cond}]")
            w.line(f"{rf}.reverse()")
        w.line(f"{rt} = []")
        w.line(f"{cands} = []")
        w.line(f"for {y} in {rf}:  # from the top down: the first card of each type")
        with w.indent():
            w.line(f"{t} = {y}.type_id")
            w.line(f"if {t} not in {rt}:")
            with w.indent():
                w.line(f"{cands}.append({y})")
            w.line(f"{rt}.append({t})")
        w.line(f"{cands}.reverse()")

    def update(self, w: Writer, c: str, i: str) -> None:
        """After the candidate ``c`` at index ``i`` was picked (and moved): the candidates as the
        next pass of run_pick's loop finds them."""
        fresh = self.em.names.fresh
        rf, rt, cands = self.rf, self.rt, self.cands
        t, k, j = fresh("t"), fresh("k"), fresh("j")
        w.line(f"del {cands}[{i}]")
        w.line(f"{t} = {c}.type_id")
        w.line(f"{k} = {rt}.index({t})  # (c: the first of its type from the top)")
        w.line(f"del {rt}[{k}]")
        w.line(f"del {rf}[{k}]")
        w.line(f"if {t} in {rt}:  # the next card of its type is a candidate now")
        with w.indent():
            w.line(f"{k} = {rt}.index({t}, {k})")
            # below c, as c was: after the candidates below it, before those above it
            w.line(f"{j} = {i}")
            w.line(f"while {j} and {rf}.index({cands}[{j} - 1]) < {k}:")
            with w.indent():
                w.line(f"{j} -= 1")
            w.line(f"{cands}.insert({j}, {rf}[{k}])")
