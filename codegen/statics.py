"""Conditions on a kind's cards that the build decides: a loop over a kind's cards tests only
the cards that can pass.

A card is never changed (runtime/values.Card): its kind, key, name, owner and properties are
fixed when the game is laid out, and a property of a kind's type holds a card of that kind
(runtime/layout resolves it, and the front end refuses an item without a value for each declared
property: dsl/build.py). A comprehension or an option ``for x in KIND`` over a kind's card list
(a build constant ``K_...``) whose condition starts with terms that read only such fixed values
of ``x`` and constants (``x.type == 'aristocrat' or x.type == 'castle'``) tests those terms on
the same cards with the same answers in every state; here they are tested once, when the
module is built, and the loop runs over the cards that pass them (a constant ``KF_...``, in the
kind's order), testing only the rest of the condition.

A term after those that compares such a fixed value with a name, ``x.owner == p`` or
``s.type == kind``, picks the cards of one value: the build groups the cards (that passed the
terms before it) by the value, ``KP_...`` (a dict of lists, in the kind's order), and the loop
runs over ``KP_....get(p, ())``. A dict finds the key equal to ``p`` exactly when ``==`` does,
for the values it is used with (the name's checked type: an int, a bool, a string, a seat, a
card or none; the fixed value no list); the name is read once, before the loop, where the
interpreter reads it for each card that gets there: a read never raises.

That is exact when the terms can never raise, so that leaving them out changes no error: a
*static* term is built only of constants, the item and the fixed values read from it (a card
field, or a property its kind declares; through a property of a kind's type, the same of that
kind's card), ``==``/``!=``, membership in a list of such values, ``and``/``or``/``not``:
comparing and testing the truth of ints, strings, bools, none, cards and lists of them never
raises. Only the leading ``and`` terms move (a term after another runs only where that one was
true, which may raise), and a small function's body is read where the ExprEmitter writes it
inline (codegen/exprs.py: a function that calls no other, with names or constants passed), its
terms in the body's own scope (a parameter given a constant is that constant).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from meeple.dsl import ir
from meeple.runtime.values import CARD_FIELDS

from .writer import literal

#: what a language name stands for inside a static term: the item itself, or a constant's value
ITEM = ("item",)

Bindings = dict[str, tuple[Any, ...]]


def kind_list(e: ir.Expr, prog: Any) -> str | None:
    """The kind whose card list ``e`` reads (a name the ExprEmitter's ``_Name`` reads as
    ``P.kind_cards[kind]``: constants come first), or None."""
    if not isinstance(e, ir.Name) or e.id in prog.game.constants:
        return None
    if e.id in prog.static_names and e.id not in prog.pattern_tables and e.id in prog.game.kinds:
        return e.id
    return None


class Term:
    """One ``and`` term of a condition and the Python scope the ExprEmitter writes it in (the
    caller's, or an inlined function body's: its parameters as the arguments' texts), with what
    its names are for the static test (``bind``: a name -> ITEM or ("const", value); a name
    not there is neither)."""

    def __init__(self, expr: ir.Expr, scope: Any, bind: Bindings) -> None:
        self.expr, self.scope, self.bind = expr, scope, bind


def terms(ex: Any, e: ir.Expr, scope: Any, bind: Bindings) -> list[Term]:
    """The ``and`` terms of ``e`` in the order they are evaluated, a small function's body
    read where the ExprEmitter writes it inline (``_Call``: the same test)."""
    if isinstance(e, ir.BinOp) and e.op == "and":
        return terms(ex, e.left, scope, bind) + terms(ex, e.right, scope, bind)
    game = ex.prog.game
    if (
        isinstance(e, ir.Call)
        and e.func in game.functions
        and e.func in ex.inlinable
        and all(isinstance(a, (ir.Name, ir.Const)) for a in e.args)
    ):
        f = game.functions[e.func]
        inner = type(scope)({p: ex.emit(a, scope) for p, a in zip(f.params, e.args, strict=True)})
        inner_bind: Bindings = {}
        for p, a in zip(f.params, e.args, strict=True):
            if isinstance(a, ir.Name):
                what = _name_value(a, bind, game)
            else:
                assert isinstance(a, ir.Const)
                what = ("const", a.value)
            if what is not None:
                inner_bind[p] = what
        return terms(ex, f.body, inner, inner_bind)
    return [Term(e, scope, bind)]


def _name_value(e: ir.Name, bind: Bindings, game: ir.Game) -> tuple[Any, ...] | None:
    """What the name ``e`` reads, as the ExprEmitter's ``_Name`` resolves it: a constant's value
    first; a name of the game (a kind, zone, variable, ``players``) is none of ``bind``'s."""
    if e.id in game.constants:  # (a literal wherever it is read)
        return ("const", game.constants[e.id].value)
    taken = e.id in game.kinds or e.id in game.tables or e.id in game.zones
    if taken or e.id in game.variables or e.id in ("players", "num_players"):
        return None
    return bind.get(e.id)


def is_static(e: ir.Expr, bind: Bindings, kind: str, game: ir.Game) -> bool:
    """Is ``e`` a static term (module docstring) of an item of ``kind`` that never raises?"""
    return _static(e, bind, kind, game) is not None


def _static(e: Any, bind: Bindings, kind: str, game: ir.Game) -> str | None:
    """What ``e`` gives, if static: "card:K" (a card of kind K, never none) or "value"; else
    None."""
    if isinstance(e, ir.Const):
        return "value"
    if isinstance(e, ir.Name):
        what = _name_value(e, bind, game)
        if what is None:
            return None
        return "card:" + kind if what == ITEM else "value"
    if isinstance(e, ir.Attr):
        obj = _static(e.obj, bind, kind, game)
        if obj is None or not obj.startswith("card:"):
            return None
        if e.name in CARD_FIELDS:  # (read before the properties, as the ExprEmitter does)
            return "value"
        k = game.kinds[obj[5:]]
        if e.name in k.properties:
            t = k.properties[e.name]
            return "card:" + t if t in game.kinds else "value"
        return None
    if isinstance(e, ir.Unary):
        return "value" if e.op == "not" and _static(e.operand, bind, kind, game) else None
    if isinstance(e, ir.BinOp):
        if e.op in ("==", "!=", "and", "or"):
            ok = _static(e.left, bind, kind, game) and _static(e.right, bind, kind, game)
            return "value" if ok else None
        if e.op in ("in", "not in") and isinstance(e.right, ir.ListLit):
            parts = (e.left, *e.right.items)
            return "value" if all(_static(x, bind, kind, game) for x in parts) else None
    return None


def static_text(e: Any, bind: Bindings, item: str, game: ir.Game) -> str:
    """Python text of the static term ``e``, the item read as ``item``: the ExprEmitter's text
    for these forms (a card field as an attribute, a property from ``props``, a constant as its
    literal, every sub-expression in brackets)."""
    if isinstance(e, ir.Const):
        return literal(e.value)
    if isinstance(e, ir.Name):
        what = _name_value(e, bind, game)
        assert what is not None  # (a static term's names are all bound)
        return item if what == ITEM else literal(what[1])
    if isinstance(e, ir.Attr):
        obj = static_text(e.obj, bind, item, game)
        if e.name in CARD_FIELDS:
            return f"{obj}.{e.name}"
        return f"{obj}.props[{literal(e.name)}]"
    if isinstance(e, ir.Unary):
        return f"(not {static_text(e.operand, bind, item, game)})"
    assert isinstance(e, ir.BinOp)
    a = static_text(e.left, bind, item, game)
    if isinstance(e.right, ir.ListLit):
        b = "[" + ", ".join(static_text(x, bind, item, game) for x in e.right.items) + "]"
    else:
        b = static_text(e.right, bind, item, game)
    return f"({a} {e.op} {b})"


def split(
    ex: Any, iter_expr: ir.Expr, var: str, conds: list[ir.Expr], scope: Any
) -> tuple[str, list[Term]] | None:
    """For a loop of the variable ``var`` (its Python local in ``scope``) over ``iter_expr``
    with the condition ``conds`` (its ``and`` terms in order): the Python name of the cards of
    the kind that pass the leading static terms (a build constant, noted a list of that kind's
    cards) and the other terms, each with its scope; None where no term is static or the loop
    is not over a kind's cards."""
    kind = kind_list(iter_expr, ex.prog)
    if kind is None:
        return None
    all_terms = [t for c in conds for t in terms(ex, c, scope, _bindings(scope, var))]
    game = ex.prog.game
    k = 0
    while k < len(all_terms) and is_static(all_terms[k].expr, all_terms[k].bind, kind, game):
        k += 1
    part = _partition_term(ex, all_terms[k], kind) if k < len(all_terms) else None
    if k == 0 and part is None:
        return None
    cards = ex.const("kind", kind)
    known = ex.facts.items_of(cards)
    if k > 0:
        tests = " and ".join(static_text(t.expr, t.bind, "_x", game) for t in all_terms[:k])
        cards = ex.const("filter", f"{kind}@[_x for _x in {cards} if {tests}]")
        ex.facts.note_items(cards, known)
    if part is None:
        return cards, all_terms[k:]
    key, value = part
    # the cards of each value, in the kind's order (the values in the order first met)
    each = f"[_x for _x in {cards} if {key} == _k]"
    groups = f"{{_k: {each} for _k in dict.fromkeys({key} for _x in {cards})}}"
    text = f"{ex.const('partition', f'{kind}@{groups}')}.get({value}, ())"
    ex.facts.note_items(text, known)
    return text, all_terms[k + 1 :]


#: the checked types of a value that is a key of a dict, equal to a key exactly when ``==`` says
#: so (an int, a bool, a string, none, a card: no list)
HASHABLE = ("int", "bool", "str", "player", "card")


def _partition_term(ex: Any, t: Term, kind: str) -> tuple[str, str] | None:
    """For a term ``S(x) == V`` (or ``V == S(x)``) of a fixed value S of the item, hashable, and
    a name V that is not the item, of a hashable type (a read, which never raises: evaluated
    once before the loop instead of for each item): the texts of S (the item read as ``_x``) and
    of V; else None."""
    e, game = t.expr, ex.prog.game
    if not (isinstance(e, ir.BinOp) and e.op == "=="):
        return None
    for s, v in ((e.left, e.right), (e.right, e.left)):
        if not isinstance(v, ir.Name) or _name_value(v, t.bind, game) is not None:
            continue  # (a fixed value, or the item: a static term, not a key)
        if ex.type_of(v).split(":")[0] not in HASHABLE:
            continue
        if _static(s, t.bind, kind, game) is None or not _hashable(s, t.bind, kind, game):
            continue
        return static_text(s, t.bind, "_x", game), ex.emit(v, t.scope)
    return None


def _hashable(e: Any, bind: Bindings, kind: str, game: ir.Game) -> bool:
    """Is the static value ``e`` (a card's field or property, a constant) never a list?"""
    if isinstance(e, ir.Attr):
        obj = _static(e.obj, bind, kind, game)
        if obj is None or not obj.startswith("card:"):
            return False
        props = game.kinds[obj[5:]].properties
        return e.name in CARD_FIELDS or not props.get(e.name, "list:").startswith("list:")
    if isinstance(e, ir.Name):
        what = _name_value(e, bind, game)
        return what == ITEM or (what is not None and not isinstance(what[1], list))
    return isinstance(e, ir.Const) and not isinstance(e.value, list)


def _bindings(scope: Any, var: str) -> Bindings:
    """``var`` the item, and the scope's names written as a literal (a small function's
    parameters given constants) their values."""
    out: Bindings = {}
    for name, text in scope.locals.items():
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, (bool, int, str)) or value is None:
            out[name] = ("const", value)
    out[var] = ITEM
    return out


def split_comprehension(
    ex: Any, c: ir.Comprehension, reducer: str, is_var: bool, inner: Any
) -> tuple[str, list[Term], str] | None:
    """``split`` for the comprehension ``c`` reduced by ``reducer`` (its variable's local in
    ``inner``): of its condition, or of its item for an ``any`` without one (``any(A and B for
    x in K)`` is ``any(B for x in K if A)``), with which of the two it splits; else None."""
    if c.cond is not None:
        out = split(ex, c.iter, c.var, [c.cond], inner)
        return None if out is None else (out[0], out[1], "cond")
    if reducer == "any" and not is_var:
        out = split(ex, c.iter, c.var, [c.elt], inner)
        return None if out is None else (out[0], out[1], "elt")
    return None


def write_rest(ex: Any, rest: list[Term], conjunction: Callable[..., str]) -> str:
    """The text of the terms left, joined by ``and`` as one chain (codegen/cse.conjunction)."""
    return conjunction(ex, [t.expr for t in rest], [t.scope for t in rest])
