"""Expressions -> Python closures ``f(state, env) -> value``, compiled once per game.

This is the interpreter's evaluator: each IR node becomes one small closure, so evaluating a
condition costs a few Python calls and no tree dispatch. Names are resolved here, once: a local
reads ``env``, a zone reads ``state.zones[index]``, a constant is folded.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meeple.dsl import ir
from meeple.dsl.builtins import (  # noqa: F401  (the seat helpers: re-exported)
    BUILTINS,
    REDUCERS,
    clockwise_from,
    first_of,
    others,
    seat_after,
    seat_index,
)
from meeple.dsl.datatable import lookup_parts
from meeple.dsl.errors import SourceSpan
from meeple.dsl.limits import MAX_CALL_DEPTH
from meeple.dsl.majorities import HOLDERS, membership, ties_code
from meeple.runtime.helpers import (
    MISSING,
    charge,
    divide,
    ordinal,
    restore_local,
    seat,
    span_list,
    too_deep,
    traced,
)
from meeple.runtime.majorities import majority_has, majority_holders
from meeple.runtime.values import CARD_FIELDS, Card, formatter

if TYPE_CHECKING:
    from .program import Program

Fn = Callable[[Any, dict[str, Any]], Any]


class ExprCompiler:
    """Compiles IR expressions against one Program's layout."""

    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.types = prog.checked.types

    def type_of(self, e: ir.Expr) -> str:
        return self.types.get(id(e), "any")

    def compile(self, e: ir.Expr) -> Fn:
        fn: Fn = getattr(self, "_" + type(e).__name__)(e)
        return fn

    def zone_ref(self, e: ir.Expr) -> Callable[[Any, dict[str, Any]], int]:
        """A zone expression -> a function giving the zone's index in ``state.zones``."""
        prog = self.prog
        if isinstance(e, ir.Name) and e.id in prog.zone_base:
            i = prog.zone_base[e.id]
            return lambda st, env: i
        if isinstance(e, ir.Index) and isinstance(e.obj, ir.Name) and e.obj.id in prog.zone_base:
            base, key = prog.zone_base[e.obj.id], self.compile(e.index)
            if prog.game.zones[e.obj.id].per == "players":
                span = e.index.span
                return lambda st, env: base + seat(st, key(st, env), span)
            ordinal = _ordinal_of(prog.game.zones[e.obj.id].per, e.span)
            return lambda st, env: base + ordinal(key(st, env))
        f = self.compile(e)
        return lambda st, env: st.zone_index(f(st, env))

    def var_index(self, name: str, index: ir.Expr, span: Any) -> Fn:
        """The list position of ``name[index]``: the seat, or the ordinal of a component for a
        variable per kind."""
        key, per = self.compile(index), self.prog.game.variables[name].per
        if per == "players":
            where = index.span
            return lambda st, env: seat(st, key(st, env), where)
        if per is None:
            return key
        ordinal = _ordinal_of(per, span)
        return lambda st, env: ordinal(key(st, env))

    def template(self, parts: tuple[str | ir.Expr, ...]) -> Callable[[Any, dict[str, Any]], str]:
        """A ``{expr}`` text template -> a function giving the text."""
        pieces: list[Any] = []
        for p in parts:
            if isinstance(p, str):
                pieces.append(p)
            else:
                pieces.append((self.compile(p), formatter(self.type_of(p))))
        if all(isinstance(p, str) for p in pieces):
            text = "".join(pieces)
            return lambda st, env: text

        def render(st: Any, env: dict[str, Any]) -> str:
            return "".join(p if isinstance(p, str) else p[1](p[0](st, env)) for p in pieces)

        return render

    # -------------------------------------------------------------- leaves
    def _Const(self, e: ir.Const) -> Fn:
        v = e.value
        return lambda st, env: v

    def _Name(self, e: ir.Name) -> Fn:
        n, prog = e.id, self.prog
        if n in prog.static_names:
            v = prog.static_names[n]
            return lambda st, env: v
        if n in prog.zone_base and prog.game.zones[n].per is None:
            i = prog.zone_base[n]
            return lambda st, env: st.zones[i]
        if n in prog.game.variables:
            return lambda st, env: st.vars[n]
        if n == "players":
            return lambda st, env: st.players
        if n == "num_players":
            return lambda st, env: len(st.players)

        def local(st: Any, env: dict[str, Any]) -> Any:
            return env[n]

        return local

    def _Attr(self, e: ir.Attr) -> Fn:
        lookup = lookup_parts(e, self.prog.game.data_tables)
        if lookup is not None:  # TABLE[keys].column
            return self._lookup(*lookup, e.span)
        obj, name = self.compile(e.obj), e.name
        if name in CARD_FIELDS:
            get = operator.attrgetter(name)
            return lambda st, env: get(obj(st, env))
        # a property: from the card's own properties, so no name reaches an engine attribute
        return lambda st, env: obj(st, env).props[name]

    def _lookup(
        self, t: ir.DataTable, keys: tuple[ir.Expr, ...], column: str, span: SourceSpan
    ) -> Fn:
        table = self.prog.data_tables[t.name]
        col = table.columns[column]
        fs = [self.compile(k) for k in keys]
        if len(fs) == 1:
            f0 = fs[0]
            return lambda st, env: table.cell((f0(st, env),), col, span)
        return lambda st, env: table.cell(tuple(f(st, env) for f in fs), col, span)

    def _Index(self, e: ir.Index) -> Fn:
        key = self.compile(e.index)
        if isinstance(e.obj, ir.Name) and e.obj.id in self.prog.zone_base:
            base = self.prog.zone_base[e.obj.id]
            if self.prog.game.zones[e.obj.id].per == "players":
                span = e.index.span
                return lambda st, env: st.zones[base + seat(st, key(st, env), span)]
            ordinal = _ordinal_of(self.prog.game.zones[e.obj.id].per, e.span)
            return lambda st, env: st.zones[base + ordinal(key(st, env))]
        if isinstance(e.obj, ir.Name) and e.obj.id in self.prog.game.variables:
            n, idx = e.obj.id, self.var_index(e.obj.id, e.index, e.span)
            return lambda st, env: st.vars[n][idx(st, env)]
        obj = self.compile(e.obj)
        return lambda st, env: obj(st, env)[key(st, env)]

    def _ListLit(self, e: ir.ListLit) -> Fn:
        items = [self.compile(i) for i in e.items]
        return lambda st, env: [f(st, env) for f in items]

    def _Comprehension(self, e: ir.Comprehension) -> Fn:
        return self._gen(e, "list")

    # -------------------------------------------------------------- operators
    def _BinOp(self, e: ir.BinOp) -> Fn:
        m = membership(e, self.prog.game)
        if m is not None:
            has = self._majority_has(e, m)
            return has if e.op == "in" else lambda st, env: not has(st, env)
        a, b, op = self.compile(e.left), self.compile(e.right), e.op
        if op == "and":
            return lambda st, env: a(st, env) and b(st, env)
        if op == "or":
            return lambda st, env: a(st, env) or b(st, env)
        if op == "in":
            return lambda st, env: a(st, env) in b(st, env)
        if op == "not in":
            return lambda st, env: a(st, env) not in b(st, env)
        if op == "..":
            return lambda st, env: span_list(a(st, env), b(st, env), e.span)
        if op == "//" or op == "%":
            return lambda st, env: divide(a(st, env), b(st, env), op, e.span)
        if isinstance(e.right, ir.Const):
            return _BINARY_CONST[op](a, e.right.value)
        return _BINARY[op](a, b)

    def _majority_has(self, e: ir.BinOp, m: ir.Majority) -> Fn:
        """``x in M(args)`` as the generated module asks it (majority_has): the seat's own
        count first, the others' only when it reaches the threshold; the count is evaluated in
        the majority's own scope, as its function body would be."""
        assert isinstance(e.right, ir.Call)
        who, args = self.compile(e.left), [self.compile(a) for a in e.right.args]
        count, among, at_least = (self.compile(x) for x in (m.count, m.among, m.at_least))
        params, var, ties = m.params, m.var, ties_code(m)

        def has(st: Any, env: dict[str, Any]) -> bool:
            inner = {p: a(st, env) for p, a in zip(params, args, strict=True)}

            def counted(x: Any) -> Any:
                inner[var] = x
                return count(st, inner)

            seat = who(st, env)
            return majority_has(st, seat, among(st, inner), at_least(st, inner), ties, counted)

        return has

    def _Unary(self, e: ir.Unary) -> Fn:
        a = self.compile(e.operand)
        if e.op == "not":
            return lambda st, env: not a(st, env)
        return lambda st, env: -a(st, env)

    def _Cond(self, e: ir.Cond) -> Fn:
        t, a, b = self.compile(e.test), self.compile(e.then), self.compile(e.orelse)
        return lambda st, env: a(st, env) if t(st, env) else b(st, env)

    # -------------------------------------------------------------- calls
    def _Call(self, e: ir.Call) -> Fn:
        if e.func in self.prog.game.functions:
            return self._user_function(e)
        if e.func == HOLDERS:  # a lowered majority (dsl/majorities.py)
            parts = [self.compile(a) for a in e.args]
            return lambda st, env: majority_holders(st, *[f(st, env) for f in parts])
        if len(e.args) == 1 and isinstance(e.args[0], ir.Comprehension):
            if e.func in REDUCERS:
                return self._gen(e.args[0], e.func)
        if BUILTINS[e.func].binds:
            return self._binding_call(e)
        args = [self.compile(a) for a in e.args]
        impl = BUILTINS[e.func].impl
        if e.func in ("pattern_rank", "pattern_label"):
            assert isinstance(e.args[1], ir.Name)
            table = self.prog.pattern_tables[e.args[1].id]
            cards = args[0]
            if e.func == "pattern_rank":
                return lambda st, env: table.rank(cards(st, env))
            return lambda st, env: table.label(cards(st, env))
        if e.func == "card":
            assert isinstance(e.args[0], ir.Const)
            found = self.prog.card_by_key(str(e.args[0].value))
            return lambda st, env: found
        assert impl is not None
        fn = impl
        if len(args) == 1:
            a0 = args[0]
            return lambda st, env: fn(st, a0(st, env))
        return lambda st, env: fn(st, *[f(st, env) for f in args])

    def _binding_call(self, e: ir.Call) -> Fn:
        """``sorted(x in xs, key)`` and the like: the key evaluated with ``x`` bound in ``env``
        for each item (and the name's previous value restored afterwards)."""
        first, key_expr = e.args
        assert isinstance(first, ir.BinOp) and isinstance(first.left, ir.Name)
        var, items, key = first.left.id, self.compile(first.right), self.compile(key_expr)
        impl = BUILTINS[e.func].impl
        assert impl is not None

        def call(st: Any, env: dict[str, Any]) -> Any:
            xs = items(st, env)
            saved = env.get(var, MISSING)

            def key_of(x: Any) -> Any:
                env[var] = x
                return key(st, env)

            try:
                return impl(st, xs, key_of)
            finally:
                restore_local(env, var, saved)

        return call

    def _user_function(self, e: ir.Call) -> Fn:
        fdecl = self.prog.game.functions[e.func]
        cell = self.prog.function_cell(e.func)
        args = [self.compile(a) for a in e.args]
        params = fdecl.params
        if e.func not in self.prog.leaf_functions:  # may recurse: counted and traced
            return counted_call(
                e.func,
                fdecl.span,
                e.span,
                cell,
                list(zip(params, args, strict=True)),
                self.prog.checked.work.call_charge(f"f:{e.func}"),
            )
        if len(params) == 0:
            return lambda st, env: cell[0](st, {})
        if len(params) == 1:
            p0, a0 = params[0], args[0]
            return lambda st, env: cell[0](st, {p0: a0(st, env)})
        if len(params) == 2:
            p0, a0, p1, a1 = params[0], args[0], params[1], args[1]
            return lambda st, env: cell[0](st, {p0: a0(st, env), p1: a1(st, env)})
        pairs = list(zip(params, args, strict=True))
        return lambda st, env: cell[0](st, {p: a(st, env) for p, a in pairs})

    def _gen(self, c: ir.Comprehension, reducer: str) -> Fn:
        """A comprehension reduced by ``reducer`` (count, any, sum, list...), as one flat loop:
        the loop variable is bound in ``env`` and its previous value restored afterwards."""
        it, var = self.compile(c.iter), c.var
        cond = self.compile(c.cond) if c.cond is not None else None
        elt = None if isinstance(c.elt, ir.Name) and c.elt.id == var else self.compile(c.elt)

        if reducer == "count" and cond is not None:

            def count(st: Any, env: dict[str, Any]) -> int:
                saved, n = env.get(var, MISSING), 0
                for x in it(st, env):
                    env[var] = x
                    if cond(st, env):
                        n += 1
                restore_local(env, var, saved)
                return n

            return count
        if reducer in ("any", "all") and elt is not None:
            want = reducer == "any"

            def any_all(st: Any, env: dict[str, Any]) -> bool:
                saved, result = env.get(var, MISSING), not want
                for x in it(st, env):
                    env[var] = x
                    if (cond is None or cond(st, env)) and bool(elt(st, env)) is want:
                        result = want
                        break
                restore_local(env, var, saved)
                return result

            return any_all
        reduce = REDUCERS[reducer]

        def values(st: Any, env: dict[str, Any]) -> Any:
            saved, out = env.get(var, MISSING), []
            for x in it(st, env):
                env[var] = x
                if cond is None or cond(st, env):
                    out.append(x if elt is None else elt(st, env))
            restore_local(env, var, saved)
            return reduce(out)

        return values


def counted_call(
    name: str,
    where: Any,
    call_span: Any,
    cell: list[Fn],
    pairs: list[tuple[str, Fn]],
    cost: int | None = None,
) -> Fn:
    """A call of a rules function that may call functions: refused deeper than MAX_CALL_DEPTH
    (a RuleError at the call, never Python's RecursionError), and named in the rules trace of
    an error inside it. ``st.calls`` is the depth of such calls. One of a call cycle charges
    ``cost`` (dsl/work.py) as it enters."""
    entry = f"function {name} ({where})"

    def call(st: Any, env: dict[str, Any]) -> Any:
        new = {p: a(st, env) for p, a in pairs}
        if st.calls >= MAX_CALL_DEPTH:
            raise too_deep(call_span)
        if cost is not None:
            charge(st, cost, call_span)
        st.calls += 1
        try:
            result = cell[0](st, new)
        except Exception as ex:
            st.calls -= 1
            traced(ex, entry)
            raise
        st.calls -= 1
        return result

    return call


def _ordinal_of(kind: str | None, span: Any) -> Callable[[Card], int]:
    return lambda card: ordinal(card, kind, span)


# One closure factory per operator, so evaluating `x == y` is one call, not two.
_BINARY: dict[str, Callable[[Fn, Fn], Fn]] = {
    "+": lambda a, b: lambda st, env: a(st, env) + b(st, env),
    "-": lambda a, b: lambda st, env: a(st, env) - b(st, env),
    "*": lambda a, b: lambda st, env: a(st, env) * b(st, env),
    "==": lambda a, b: lambda st, env: a(st, env) == b(st, env),
    "!=": lambda a, b: lambda st, env: a(st, env) != b(st, env),
    "<": lambda a, b: lambda st, env: a(st, env) < b(st, env),
    "<=": lambda a, b: lambda st, env: a(st, env) <= b(st, env),
    ">": lambda a, b: lambda st, env: a(st, env) > b(st, env),
    ">=": lambda a, b: lambda st, env: a(st, env) >= b(st, env),
}
_BINARY_CONST: dict[str, Callable[[Fn, Any], Fn]] = {
    "+": lambda a, c: lambda st, env: a(st, env) + c,
    "-": lambda a, c: lambda st, env: a(st, env) - c,
    "*": lambda a, c: lambda st, env: a(st, env) * c,
    "==": lambda a, c: lambda st, env: a(st, env) == c,
    "!=": lambda a, c: lambda st, env: a(st, env) != c,
    "<": lambda a, c: lambda st, env: a(st, env) < c,
    "<=": lambda a, c: lambda st, env: a(st, env) <= c,
    ">": lambda a, c: lambda st, env: a(st, env) > c,
    ">=": lambda a, c: lambda st, env: a(st, env) >= c,
}
