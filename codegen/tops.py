"""The top card of each row of a pile, written as one pass instead of a scan per card.

Rules name "the top card of each row" of a pile whose rows are its cards of one value of a
property (Sonnenkönig: ``top_cards(p)`` is ``[c for c in area[p] if is_top(c, p)]`` with
``is_top(c, p)`` = ``c == top([x for x in area[p] if x.colour == c.colour])``). Written as it
reads, it scans the pile again for each of its cards. Where the generator sees exactly that
form, with both piles the same zone (a zone holds no card twice) and the row property a declared
property, it writes ``tops_by(ZONE, 'PROP')`` (runtime/tops.py): the same cards in the same
order, and the same error where a card lacks the property (``KeyError`` of that property, from
the same rules function). The condition may be written out or be a call, with plain names, of
a small function the generator writes inline (codegen/exprs.py ``inlinable``): its parameters
are put in for its names before the two piles are compared.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from meeple.dsl import ir
from meeple.runtime.values import CARD_FIELDS


def write_tops(ex: Any, c: ir.Comprehension, reducer: str, scope: Any) -> str | None:
    """``tops_by(...)`` for the comprehension ``c`` reduced by ``reducer`` when it is a pile's
    top card of each row (module docstring), written by the ExprEmitter ``ex``; else None."""
    if reducer != "list" or c.cond is None or not _is_name(c.elt, c.var):
        return None
    if not _zone(ex, c.iter):
        return None
    body, names = _condition(ex, c.cond)
    if body is None:
        return None
    if "top" in ex.prog.game.functions:  # (the built-in's name taken by the rules)
        return None
    prop = _row_test(body, names, c.var)
    if prop is None:
        return None
    pile, name = prop
    if isinstance(pile, ir.Index) and isinstance(pile.obj, ir.Name) and pile.obj.id in names:
        return None  # (a parameter indexed, not the zone of that name)
    if not _same(_put(pile, names), c.iter) or _mentions(pile, names, c.var):
        return None
    return f"tops_by({ex.emit(c.iter, scope)}, {name!r})"


def _condition(ex: Any, cond: ir.Expr) -> tuple[ir.Expr | None, dict[str, ir.Expr]]:
    """The condition's expression and the names put in for a small function's parameters."""
    game = ex.prog.game
    if isinstance(cond, ir.Call) and cond.func in game.functions:
        if cond.func not in ex.inlinable or cond.kwargs:
            return None, {}
        if not all(isinstance(a, (ir.Name, ir.Const)) for a in cond.args):
            return None, {}
        f = game.functions[cond.func]
        return f.body, dict(zip(f.params, cond.args, strict=True))
    return cond, {}


def _row_test(body: ir.Expr, names: dict[str, ir.Expr], var: str) -> tuple[ir.Expr, str] | None:
    """(the inner pile, the property) where ``body`` is ``C == top([x for x in PILE if
    x.PROP == C.PROP])`` with C the name ``var`` (its parameters put in); else None."""
    if not (isinstance(body, ir.BinOp) and body.op == "==" and isinstance(body.left, ir.Name)):
        return None
    me = body.left.id
    if not _is_name(_put(body.left, names), var):
        return None
    top = body.right
    if not (isinstance(top, ir.Call) and top.func == "top" and len(top.args) == 1):
        return None
    if top.kwargs:
        return None
    inner = top.args[0]
    if not isinstance(inner, ir.Comprehension) or inner.cond is None:
        return None
    x = inner.var
    if x == me or x in names or not _is_name(inner.elt, x):
        return None
    t = inner.cond
    if not (isinstance(t, ir.BinOp) and t.op == "=="):
        return None
    a, b = t.left, t.right
    if not (isinstance(a, ir.Attr) and isinstance(b, ir.Attr) and a.name == b.name):
        return None
    if a.name in CARD_FIELDS or not _is_name(a.obj, x) or not _is_name(b.obj, me):
        return None
    return inner.iter, a.name


def _zone(ex: Any, e: ir.Expr) -> bool:
    """Is ``e`` a zone read (a zone's name, or a per-seat or per-card zone indexed by a plain
    name or constant: the ExprEmitter's ``_Index`` reads the zone whatever the locals), whose
    list never holds a card twice?"""
    zones = ex.prog.zone_base
    if isinstance(e, ir.Name):
        return e.id in zones and ex.prog.zone_per[e.id] is None and _not_shadowed(ex, e.id)
    return (
        isinstance(e, ir.Index)
        and isinstance(e.obj, ir.Name)
        and e.obj.id in zones
        and ex.prog.zone_per[e.obj.id] is not None
        and isinstance(e.index, (ir.Name, ir.Const))
    )


def _not_shadowed(ex: Any, name: str) -> bool:
    """A zone's name that names a zone where it is read: the ExprEmitter's ``_Name`` reads a
    constant, a kind or a table of that name first, and a zone before any local."""
    return name not in ex.prog.game.constants and name not in ex.prog.static_names


def _is_name(e: ir.Expr, name: str) -> bool:
    return isinstance(e, ir.Name) and e.id == name


def _put(e: ir.Expr, names: dict[str, ir.Expr]) -> ir.Expr:
    """``e`` (a name, or a zone indexed by a name or a constant) with a function's parameters
    replaced by its arguments."""
    if isinstance(e, ir.Name):
        return names.get(e.id, e)
    if isinstance(e, ir.Index):
        return ir.Index(e.span, e.obj, _put(e.index, names))
    return e


def _mentions(e: ir.Expr, names: dict[str, ir.Expr], var: str) -> bool:
    """Does the pile ``e``, its parameters put in, read the comprehension's variable (then
    it is not the outer pile, whatever its text)?"""
    e = _put(e, names)
    if isinstance(e, ir.Index):
        return _is_name(e.index, var) or _is_name(e.obj, var)
    return _is_name(e, var)


def _same(a: Any, b: Any) -> bool:
    """Are two IR expressions the same tree (their spans left out)?"""
    if isinstance(a, ir.Expr) and isinstance(b, ir.Expr):
        if type(a) is not type(b):
            return False
        return all(
            _same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a) if f.name != "span"
        )
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b and type(a) is type(b))


def write_is_top(ex: Any, e: ir.BinOp, scope: Any) -> str | None:
    """``is_top_by(C, ZONE, 'PROP')`` (runtime/tops.py) for ``C == top([x for x in ZONE if
    x.PROP == C.PROP])`` with C a name and ZONE a zone read, written by the ExprEmitter ``ex``
    (C read first, then the zone, as there); else None."""
    if not isinstance(e.left, ir.Name) or "top" in ex.prog.game.functions:
        return None
    found = _row_test(e, {}, e.left.id)
    if found is None or not _zone(ex, found[0]) or _mentions(found[0], {}, e.left.id):
        return None
    pile, prop = found
    return f"is_top_by({ex.emit(e.left, scope)}, {ex.emit(pile, scope)}, {prop!r})"
