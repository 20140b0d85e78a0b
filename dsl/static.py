"""Expressions evaluated once, before any game is played: from the components and constants alone.

An auction's ``most`` sizes its bid option's action ids (dsl/numbering.py), so it is computed
while the game is numbered, for one player count, by this small evaluator over the IR rather
than by a back end. It knows constants, kinds (their cards, laid out for that player count),
numbers, lists, card fields and properties, ``card('key')``, comprehensions, the built-ins that
do not read a state and the rules' own functions; anything else (a variable, a zone, a data or
pattern table, ``players``) is refused with a MeepleError at the expression.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from meeple.runtime.helpers import span_list

from . import ir
from .builtins import BUILTINS, REDUCERS
from .errors import MeepleError
from .limits import MAX_CALL_DEPTH

_CARD_FIELDS = frozenset({"name", "key", "kind", "owner"})  # runtime values.CARD_FIELDS

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
}


class _NotStatic(Exception):
    """An expression part that needs a game in play (a variable, a zone, the seats)."""


def static_int(e: ir.Expr, game: ir.Game, kind_cards: Mapping[str, list[Any]]) -> int:
    """``e`` (an auction's ``most``) as a number of 0 or more, computed from ``game``'s
    constants and functions and ``kind_cards`` (kind name -> its cards, laid out for the player
    count being numbered).

    Raises MeepleError at ``e`` when it reads anything else, fails, or is not such a number.
    """
    try:
        value = _Static(game, kind_cards).ev(e, {}, 0)
    except MeepleError:
        raise
    except Exception as err:  # e.g. a function that reads the state
        why = "it needs a game in play" if isinstance(err, _NotStatic) else err
        raise MeepleError(
            f"this must be computable from the components and constants alone ({why})", e.span
        ) from None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise MeepleError(f"this must be a number of 0 or more, not {value!r}", e.span)
    return value


class _Static:
    """The evaluator: ``ev(e, env, depth)``; env holds comprehension and parameter names."""

    def __init__(self, game: ir.Game, kind_cards: Mapping[str, list[Any]]) -> None:
        self.game, self.kind_cards = game, kind_cards

    def ev(self, e: ir.Expr, env: dict[str, Any], depth: int) -> Any:
        if isinstance(e, ir.Const):
            return e.value
        if isinstance(e, ir.Name):
            if e.id in env:
                return env[e.id]
            if e.id in self.game.constants:
                return self.game.constants[e.id].value
            if e.id in self.kind_cards:
                return self.kind_cards[e.id]
            raise _NotStatic(e.id)
        if isinstance(e, ir.Attr):
            obj = self.ev(e.obj, env, depth)
            return getattr(obj, e.name) if e.name in _CARD_FIELDS else obj.props[e.name]
        if isinstance(e, ir.Index):
            return self.ev(e.obj, env, depth)[self.ev(e.index, env, depth)]
        if isinstance(e, ir.ListLit):
            return [self.ev(x, env, depth) for x in e.items]
        if isinstance(e, ir.Comprehension):
            return self.gen(e, "list", env, depth)
        if isinstance(e, ir.Unary):
            v = self.ev(e.operand, env, depth)
            return (not v) if e.op == "not" else -v
        if isinstance(e, ir.Cond):
            test = self.ev(e.test, env, depth)
            return self.ev(e.then if test else e.orelse, env, depth)
        if isinstance(e, ir.BinOp):
            return self.binop(e, env, depth)
        if isinstance(e, ir.Call):
            return self.call(e, env, depth)
        raise _NotStatic(type(e).__name__)

    def binop(self, e: ir.BinOp, env: dict[str, Any], depth: int) -> Any:
        a = self.ev(e.left, env, depth)
        if e.op == "and":
            return a and self.ev(e.right, env, depth)
        if e.op == "or":
            return a or self.ev(e.right, env, depth)
        b = self.ev(e.right, env, depth)
        if e.op in ("//", "%"):
            if b == 0:
                raise MeepleError("division by zero", e.span)
            return a // b if e.op == "//" else a % b
        if e.op == "..":
            return span_list(a, b, e.span)  # a runaway range refused, as in a game
        return _BINARY[e.op](a, b)

    def call(self, e: ir.Call, env: dict[str, Any], depth: int) -> Any:
        f = self.game.functions.get(e.func)
        if f is not None:
            if depth >= MAX_CALL_DEPTH:
                raise MeepleError(f"calls nest more than {MAX_CALL_DEPTH} deep", e.span)
            args = [self.ev(a, env, depth) for a in e.args]
            return self.ev(f.body, dict(zip(f.params, args, strict=True)), depth + 1)
        if len(e.args) == 1 and isinstance(e.args[0], ir.Comprehension) and e.func in REDUCERS:
            return self.gen(e.args[0], e.func, env, depth)
        if e.func == "card":  # card('key'): the first card of that item, as the layout finds it
            assert isinstance(e.args[0], ir.Const)
            wanted = str(e.args[0].value)
            for c in (c for cards in self.kind_cards.values() for c in cards if c.key == wanted):
                return c
            raise MeepleError(f"no card has the key '{wanted}'", e.span)
        b = BUILTINS.get(e.func)
        if b is None or b.impl is None:  # a lowered majority, a pattern table, ...
            raise _NotStatic(e.func)
        if b.binds:
            first, key = e.args
            assert isinstance(first, ir.BinOp) and isinstance(first.left, ir.Name)
            var, items = first.left.id, self.ev(first.right, env, depth)
            return b.impl(None, items, lambda x: self.ev(key, {**env, var: x}, depth))
        return b.impl(None, *[self.ev(a, env, depth) for a in e.args])

    def gen(self, c: ir.Comprehension, reducer: str, env: dict[str, Any], depth: int) -> Any:
        out = []
        for x in self.ev(c.iter, env, depth):
            inner = {**env, c.var: x}
            if c.cond is None or self.ev(c.cond, inner, depth):
                out.append(self.ev(c.elt, inner, depth))
        return REDUCERS[reducer](out)
