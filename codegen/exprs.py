"""IR expressions -> Python expression text, with the interpreter's exact semantics.

The text reads the state as ``st`` and the current locals as ``env`` (a dict, as in the
interpreter), except names bound by comprehensions, options and function parameters, which
become Python locals, and the names a loop or a chosen option binds, read from the Python local
that holds the same value in its body (codegen/facts.py). A seat or kind check is left out where
the value is known to pass it. Every sub-expression is parenthesized, so Python's operator
chaining (``a < b < c``) never changes a meaning.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from meeple.dsl import ir
from meeple.dsl.builtins import BUILTINS, EMIT_REDUCERS
from meeple.dsl.datatable import lookup_parts
from meeple.dsl.errors import MeepleError
from meeple.dsl.limits import is_name
from meeple.dsl.majorities import HOLDERS, membership, ties_code
from meeple.dsl.specs import leaf_functions
from meeple.runtime.values import CARD_FIELDS

from . import statics
from .cardeq import identity_op
from .cse import branch, conjunction
from .facts import SEAT, SEAT_TABLES, Facts, card_of, seat_list_items
from .firstcard import early_first, stops_early
from .guarded import guardable
from .layout import GenLayout
from .majority_counts import count_by_property, top_by_property
from .memo import Loops
from .tops import write_is_top, write_tops
from .writer import Writer, literal
from .zoneindex import cond_zone_index

_COMPARE = ("==", "!=", "<", "<=", ">", ">=", "+", "-", "*")


# a key emitted twice by an inline check: a Python local or a local of the rules' env, or a
# value computed before (codegen/cse.py's mark of a Python local)
_SIMPLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|env\['[A-Za-z_][A-Za-z0-9_]*'\]|\x04[0-9]+\x05")


class Scope:
    """Which language names are Python locals here (name -> Python identifier)."""

    def __init__(self, locals_: dict[str, str] | None = None) -> None:
        self.locals = dict(locals_ or {})

    def bind(self, name: str, py: str) -> Scope:
        return Scope({**self.locals, name: py})


class ExprEmitter:
    """Turns IR expressions of one game into Python text.

    ``const(kind, key, make)`` registers a per-program constant (a kind's card list, a pattern
    table, a card looked up by key, a formatter) and returns its Python name; ``span(s)`` the
    name of a SourceSpan constant.
    """

    def __init__(
        self,
        prog: GenLayout,
        const: Callable[[str, str], str],
        span: Callable[[ir.SourceSpan], str],
        fresh: Callable[[str], str],
    ) -> None:
        self.prog, self.types = prog, prog.checked.types
        self.const, self.span, self.fresh = const, span, fresh
        self.inlinable = _inlinable(prog.game)
        # functions inlined too in a statement guarded by its exact code (codegen/guarded)
        self.guardable = guardable(prog.game, self.inlinable, expr_depth, INLINE_MAX_DEPTH)
        self.guarded = False
        # while a function is written whose locals are read once at its entry (codegen/hoist)
        self.hoist: Any = None
        # the owner counts direct code reads from a table (codegen/tally.Tally), while it
        # writes direct code; None elsewhere
        self.tally: Any = None
        self.classes: Any = None  # counts by name, by class (codegen/classcounts.Classes)
        self.facts = Facts(prog.game)  # what is known of values by construction (codegen/facts)
        # while a module is written: values computed twice computed once (codegen/cse.Reuse)
        self.reuse: Any = None
        self.loops = Loops()  # the loops around what is written (codegen/memo)

    def type_of(self, e: ir.Expr) -> str:
        return self.types.get(id(e), "any")

    def emit(self, e: ir.Expr, scope: Scope) -> str:
        if self.loops.stack:  # a value of an inner loop kept across an outer one (memo)
            kept = self.loops.memoize(self, e, scope)
            if kept is not None:
                return kept
        if self.reuse is not None:  # it writes e by the method below, or reads e's value
            return str(self.reuse.emit(e, scope))
        text: str = getattr(self, "_" + type(e).__name__)(e, scope)
        return text

    def template(self, parts: tuple[str | ir.Expr, ...], scope: Scope) -> str:
        """A ``{expr}`` text template -> a Python expression giving the text."""
        pieces = []
        for p in parts:
            if isinstance(p, str):
                if p:
                    pieces.append(literal(p))  # braces and quotes stay text: never formatted
            else:
                fmt = self.const("formatter", self.type_of(p))
                pieces.append(f"{fmt}({self.emit(p, scope)})")
        return " + ".join(pieces) if pieces else "''"

    def zone_index(self, e: ir.Expr, scope: Scope) -> str:
        """A zone expression -> Python text giving its index in ``st.zones``."""
        prog = self.prog
        if isinstance(e, ir.Name) and e.id in prog.zone_base:
            return self.const("zone", e.id)
        if isinstance(e, ir.Index) and isinstance(e.obj, ir.Name) and e.obj.id in prog.zone_base:
            base, key = self.const("zone", e.obj.id), self.emit(e.index, scope)
            per = prog.zone_per[e.obj.id]
            if per == "players":
                return f"({base} + {self.seat(key, e.index.span)})"
            return f"({base} + {self.ordinal(key, per, e.span)})"
        if isinstance(e, ir.Cond):  # `A if T else B`: the index of the branch taken (zoneindex)
            return cond_zone_index(self, e, scope)
        return f"st.zone_index({self.emit(e, scope)})"

    def items(self, e: ir.Expr, scope: Scope) -> str:
        """Python text for the items of the list ``e`` that a loop or a comprehension runs over
        (the value itself is never kept): ``others(x)`` and ``clockwise_from(x)`` read a table
        of the build when every seat is in play (codegen/facts.seat_list_items)."""
        if not (
            isinstance(e, ir.Call)
            and e.func in SEAT_TABLES
            and e.func not in self.prog.game.functions
        ):
            return self.emit(e, scope)
        if self.reuse is None:
            return self._seat_list_items(e, scope)
        text = str(self.reuse.emit_as(e, scope, "items", lambda: self._seat_list_items(e, scope)))
        self.facts.note_items(text, SEAT)  # (the same list where its value is read again)
        return text

    def _seat_list_items(self, e: ir.Call, scope: Scope) -> str:
        arg = self.emit(e.args[0], scope)
        key = arg if self.facts.of(arg) == SEAT else None
        if key is None and self.hoist is not None:  # (None if arg is no hoisted local)
            key = self.hoist.checked(arg)
        table = seat_list_items(e, arg, lambda name: self.const("seats", name), key)
        text = table or self._builtin(e, [arg])
        self.facts.note_items(text, SEAT)
        return text

    # -------------------------------------------------------------- leaves
    def _Const(self, e: ir.Const, scope: Scope) -> str:
        return literal(e.value)

    def _Name(self, e: ir.Name, scope: Scope) -> str:
        n, prog = e.id, self.prog
        if n in prog.game.constants:  # a literal in the module: its value, never its name
            return literal(prog.game.constants[n].value)
        if n in prog.static_names:
            if n in prog.pattern_tables:
                return self.const("table", n)
            cards = self.const("kind", n)
            self.facts.note_items(cards, card_of(n))
            return cards
        if n in prog.zone_base and prog.zone_per[n] is None:
            return f"st.zones[{self.const('zone', n)}]"
        if n in prog.game.variables:
            return f"st.vars[{literal(n)}]"
        if n == "players":
            return "st.players"
        if n == "num_players":
            return "len(st.players)"
        if n in scope.locals:
            return scope.locals[n]
        if n in self.facts.bound:  # a statement's name, while its body is written
            return self.facts.bound[n]
        if self.hoist is not None:
            py = self.hoist.local(n)
            if py is not None:
                return py
        return f"env[{literal(n)}]"

    def _Attr(self, e: ir.Attr, scope: Scope) -> str:
        lookup = lookup_parts(e, self.prog.game.data_tables)
        if lookup is not None:  # TABLE[keys].column, as in the interpreter
            t, keys, column = lookup
            cells = "".join(self.emit(k, scope) + ", " for k in keys)
            col = self.prog.data_tables[t.name].columns[column]
            rows = self.const("lookup", f"{t.name}@{self.span(e.span)[2:-1]}")  # S[i]: i
            return f"{rows}[({cells})][{col}]"  # (its rows by key: runtime/datatable.Lookup)
        obj = self.emit(e.obj, scope)
        if e.name in CARD_FIELDS:
            return f"{obj}.{e.name}"
        text = f"{obj}.props[{literal(e.name)}]"  # never an engine attribute, whatever the name
        self.facts.prop(text, e.name)
        return text

    def var_index(self, name: str, index: ir.Expr, span: ir.SourceSpan, scope: Scope) -> str:
        """The list position of ``name[index]``: the seat, or the ordinal of a component for a
        variable per kind."""
        key, per = self.emit(index, scope), self.prog.game.variables[name].per
        if per == "players":  # a seat out of range is a rule error, as in the interpreter
            return self.seat(key, index.span)
        if per is None:
            return key
        return self.ordinal(key, per, span)

    def seat(self, key: str, span: ir.SourceSpan) -> str:
        """``key`` checked to be a seat (evaluate.seat), the check inline for a plain name;
        none for a value known to be a seat, and read once for a hoisted local (codegen/facts,
        codegen/hoist)."""
        if self.facts.of(key) == SEAT:
            return key
        call = f"seat(st, {key}, {self.span(span)})"
        checked = self.hoist.checked(key) if self.hoist is not None else None
        if checked is not None:
            return f"({checked} if {checked} is not None else {call})"
        if not _SIMPLE_KEY.fullmatch(key):
            return call
        return f"({key} if type({key}) is int and 0 <= {key} < num_players else {call})"

    def ordinal(self, key: str, kind: str | None, span: ir.SourceSpan) -> str:
        """The ordinal of card ``key`` of ``kind`` (evaluate.ordinal, inline for a plain name:
        a value that is not a card fails on ``.kind`` in both); no check for a card known to be
        of ``kind``, and one at entry for a hoisted local (codegen/facts, codegen/hoist)."""
        if kind is not None and self.facts.of(key) == card_of(kind):
            return f"{key}.ordinal"
        call = f"ordinal({key}, {literal(kind)}, {self.span(span)})"
        checked = self.hoist.checked(key, kind) if self.hoist is not None and kind else None
        if checked is not None:
            return f"({checked} if {checked} is not None else {call})"
        if not _SIMPLE_KEY.fullmatch(key):
            return call
        return f"({key}.ordinal if {key}.kind == {literal(kind)} else {call})"

    def _Index(self, e: ir.Index, scope: Scope) -> str:
        if isinstance(e.obj, ir.Name) and e.obj.id in self.prog.zone_base:
            return f"st.zones[{self.zone_index(e, scope)}]"
        if isinstance(e.obj, ir.Name) and e.obj.id in self.prog.game.variables:
            n = e.obj.id
            return f"st.vars[{literal(n)}][{self.var_index(n, e.index, e.span, scope)}]"
        return f"{self.emit(e.obj, scope)}[{self.emit(e.index, scope)}]"

    def _ListLit(self, e: ir.ListLit, scope: Scope) -> str:
        return "[" + ", ".join(self.emit(i, scope) for i in e.items) + "]"

    def _Comprehension(self, e: ir.Comprehension, scope: Scope) -> str:
        return self._gen(e, "list", scope)

    # -------------------------------------------------------------- operators
    def _BinOp(self, e: ir.BinOp, scope: Scope) -> str:
        if e.op in ("in", "not in"):
            has = self._majority_has(e, scope)
            if has is not None:
                return has if e.op == "in" else f"(not {has})"
        if e.op == "==":  # a card the top of its row of a pile (tops)
            top = write_is_top(self, e, scope)
            if top is not None:
                return top
        a, b, op = self.emit(e.left, scope), self.emit(e.right, scope), e.op
        op = identity_op(op, self.type_of(e.left), self.type_of(e.right)) or op  # (cardeq)
        if op in ("and", "or", "in", "not in", "is", "is not") or op in _COMPARE:
            return f"({a} {op} {b})"
        if op == "..":
            return f"span_list({a}, {b}, {self.span(e.span)})"
        if op in ("//", "%"):
            return f"divide({a}, {b}, {literal(op)}, {self.span(e.span)})"
        raise AssertionError(f"operator {op} has no code generator")

    def _majority_has(self, e: ir.BinOp, scope: Scope) -> str | None:
        """``x in M(args)`` for a majority of one count that is never none, first place and no
        chooser: the seat's own count first, the others' only when it reaches the threshold
        (majority_has), instead of every count and the holders' list. None where it does not
        apply (the interpreter's way is then emitted, as for any call)."""
        m, call = membership(e, self.prog.game), e.right
        if m is None or not isinstance(call, ir.Call):
            return None
        if not all(isinstance(a, (ir.Name, ir.Const)) for a in call.args):
            return None
        inner = Scope({p: self.emit(a, scope) for p, a in zip(m.params, call.args, strict=True)})
        x = self.fresh(m.var)
        among, at_least = self.items(m.among, inner), self.emit(m.at_least, inner)
        # the count is asked of among's items, and of ``who`` only when ``who in among``: an
        # item itself (a card) or equal to one (a seat; a bool would index as that seat does)
        self.facts.note(x, self.facts.items_of(among))
        with self.loops.loop(x, host=False):
            count = self.emit(m.count, inner.bind(m.var, x))
        who = self.emit(e.left, scope)
        ties = literal(ties_code(m))
        if self.facts.items_of(among) == SEAT:  # a count of a seat's pile (majority_counts)
            fast = count_by_property(who, among, at_least, ties, x, count)
            if fast is not None:
                return fast
        return f"majority_has(st, {who}, {among}, {at_least}, {ties}, lambda {x}: {count})"

    def _Unary(self, e: ir.Unary, scope: Scope) -> str:
        a = self.emit(e.operand, scope)
        return f"(not {a})" if e.op == "not" else f"(-{a})"

    def _Cond(self, e: ir.Cond, scope: Scope) -> str:
        t, a, b = (self.emit(x, scope) for x in (e.test, e.then, e.orelse))
        return f"({a} if {t} else {b})"

    # -------------------------------------------------------------- calls
    def _Call(self, e: ir.Call, scope: Scope) -> str:
        if e.func in self.prog.game.functions:
            f = self.prog.game.functions[e.func]
            inline = e.func in self.inlinable or (self.guarded and e.func in self.guardable)
            if inline and all(isinstance(a, (ir.Name, ir.Const)) for a in e.args):
                # a small function called with plain names: its body, with the names put in
                inner = Scope(
                    {p: self.emit(a, scope) for p, a in zip(f.params, e.args, strict=True)}
                )
                return self.emit(f.body, inner)
            passed = "".join(", " + self.emit(a, scope) for a in e.args)
            if e.func not in self.inlinable:  # counted: it takes the call's span (call depth)
                passed = f", {self.span(e.span)}{passed}"
            return f"{function_name(e.func)}(st{passed})"
        if len(e.args) == 1 and isinstance(e.args[0], ir.Comprehension) and e.func in EMIT_REDUCERS:
            return self._gen(e.args[0], e.func, scope)
        if e.func == HOLDERS:  # a lowered majority (dsl/majorities.py); it runs over among
            args = [self.items(e.args[0], scope), *(self.emit(a, scope) for a in e.args[1:4])]
            if len(e.args) == 5 and args[3] == "1" and self.facts.items_of(args[0]) == SEAT:
                with branch(self):  # (its values its own: it may be replaced by the call)
                    args.append(self.emit(e.args[4], scope))
                fast = top_by_property(args[0], args[1], args[2], args[4])  # no comprehensions
                if fast is not None:
                    return fast
            args += [self.emit(a, scope) for a in e.args[len(args) :]]
            if len(args) == 5 and args[3] == "1":  # one count, first place (majority_top)
                return f"majority_top(st, {', '.join(args[:3])}, {args[4]})"
            return f"majority_holders(st, {', '.join(args)})"
        if e.func in ("pattern_rank", "pattern_label"):
            assert isinstance(e.args[1], ir.Name)
            table = self.const("table", e.args[1].id)
            method = "rank" if e.func == "pattern_rank" else "label"
            return f"{table}.{method}({self.emit(e.args[0], scope)})"
        if e.func == "card":
            assert isinstance(e.args[0], ir.Const)
            return self.const("card", str(e.args[0].value))
        emit = BUILTINS[e.func].emit
        if BUILTINS[e.func].binds and emit is not None:  # the key: a Python function of the item
            first, key = e.args
            assert isinstance(first, ir.BinOp) and isinstance(first.left, ir.Name)
            x = self.fresh(first.left.id)
            items = self.emit(first.right, scope)
            self.facts.note(x, self.facts.items_of(items))  # (the key is asked of its items)
            with self.loops.loop(x, host=False):
                key_text = self.emit(key, scope.bind(first.left.id, x))
            args = [items, f"lambda {x}: {key_text}"]
        elif emit is None:
            raise MeepleError(f"the code generator has no code for the built-in {e.func}()")
        else:
            args = [self.emit(a, scope) for a in e.args]
        return self._builtin(e, args)

    def _builtin(self, e: ir.Call, args: list[str]) -> str:
        """The built-in call ``e`` with its arguments written ``args``."""
        emit = BUILTINS[e.func].emit
        assert emit is not None
        text = emit(args)
        self.facts.call(e, text, args, self.prog.game.functions)
        return text

    def _gen(self, c: ir.Comprehension, reducer: str, scope: Scope) -> str:
        """A comprehension reduced like the interpreter's flat loop; its variable is a Python
        local (nothing can observe the interpreter's temporary binding in ``env``)."""
        tops = write_tops(self, c, reducer, scope)  # a pile's top card of each row (tops)
        if tops is not None:
            return tops
        if reducer == "count" and self.classes is not None:  # by name (codegen/classcounts)
            classes, self.classes = self.classes, None
            try:
                text = classes.count(self, c, scope, lambda: self._gen(c, reducer, scope))
            finally:
                self.classes = classes
            if text is not None:
                return text
        if reducer == "count" and self.tally is not None:  # direct code (codegen/tally.py)
            tally, self.tally = self.tally, None
            try:
                text = tally.read(self, c, scope, lambda: self._gen(c, reducer, scope))
            finally:
                self.tally = tally
            if text is not None:
                return text
        py = self.fresh(c.var)
        inner = scope.bind(c.var, py)
        it = self.items(c.iter, scope)
        is_var = isinstance(c.elt, ir.Name) and c.elt.id == c.var
        # a kind's cards that pass the condition's static terms, when it has some (statics)
        moved = statics.split_comprehension(self, c, reducer, is_var, inner)
        if moved is not None:
            it = moved[0]
        self.facts.note(py, self.facts.items_of(it))
        it_items = it  # (its items' text, before the condition is put in)
        with self.loops.loop(py, host=True) as loop:  # (memo: the first loop makes the dicts)
            cond, elt = self._gen_parts(c, reducer, moved, py, is_var, inner)
        if cond is None or elt is None:  # every term static (statics)
            return f"len({it})" if cond is None else f"(len({it}) > 0)"
        it = f"{it}{cond}"
        pre = self.loops.made(loop, line=False)  # (its dicts of values kept per item: memo)
        if reducer == "count" and c.cond is not None:
            return f"len([1 {pre}for {py} in {it}])"
        body = f"{elt} {pre}for {py} in {it}"
        if reducer in ("any", "all") and not is_var:
            return f"{reducer}({body})"  # short-circuits, as the interpreter's loop does
        if reducer in ("any", "all"):
            return f"{reducer}([{body}])"
        text = EMIT_REDUCERS[reducer].format(body)
        if reducer == "first" and stops_early(c, it_items, body, self.prog.game):
            # stops at the first card (codegen/firstcard), where ``:=`` may be written
            if self.reuse is not None and not self.reuse.in_iter:
                head = f"for {py} in {it_items}"
                text = early_first(body, head, py, it_items, self.fresh("zone"), text)
        if reducer == "list":  # its items are values of the element
            self.facts.note_items(text, self.facts.of(elt))
        elif reducer == "first":
            self.facts.note(text, self.facts.of(elt))
        return text

    def _gen_parts(
        self, c: ir.Comprehension, reducer: str, moved: Any, py: str, is_var: bool, inner: Scope
    ) -> tuple[str | None, str | None]:
        """The condition (`` if ...`` or "") and the item of the comprehension ``c`` (its
        variable the local ``py``, reduced by ``reducer``), the static terms ``moved`` left out
        (statics); None for a count's condition of static terms only, or an item of static
        terms only."""
        if moved is not None and moved[2] == "cond":
            with branch(self):  # (the condition's place: once per item)
                cond = statics.write_rest(self, moved[1], conjunction)
            if not cond and reducer == "count":  # ``len`` of the cards
                return None, ""
            cond = f" if ({cond})" if cond else ""
        else:
            cond = f" if {self.emit(c.cond, inner)}" if c.cond is not None else ""
        if moved is not None and moved[2] == "elt":
            with branch(self):  # (the item's place: once per item)
                elt = statics.write_rest(self, moved[1], conjunction)
            return cond, (f"({elt})" if elt else None)
        return cond, (py if is_var else self.emit(c.elt, inner))


#: Deepest function body that is inlined. A call site may be MAX_EXPR_DEPTH deep and an inlined
#: body adds its own depth: a small cap keeps every emitted expression well inside Python's
#: limit of 200 nested brackets (the shipped games' inlined bodies are at most 11 deep).
INLINE_MAX_DEPTH = 16


def _inlinable(game: ir.Game) -> set[str]:
    """Small functions that call no rules function: inlining them always ends (no function
    body is followed, so a function calling itself, directly or not, is simply not inlined),
    and adds at most INLINE_MAX_DEPTH levels to an expression."""

    leaves = leaf_functions(game)
    return {n for n in leaves if expr_depth(game.functions[n].body) <= INLINE_MAX_DEPTH}


def expr_depth(e: object) -> int:
    """Tree depth of an IR expression (a leaf is 1)."""
    if isinstance(e, (list, tuple)):
        return max((expr_depth(x) for x in e), default=0)
    if isinstance(e, ir.Expr):
        kids = (getattr(e, f) for f in e.__dataclass_fields__ if f != "span")
        return 1 + max((expr_depth(k) for k in kids), default=0)
    return 0


def action_id(domain: str, base: str, index: int, x: str) -> str:
    """The action id of an option's value ``x`` (a Python local) at the site ``index`` of
    ``domain`` whose first id is ``base``: a card's by its type, a seat's checked inline as the
    interpreter checks it (runtime.helpers.option_seat), a number's by its site (which checks
    its range)."""
    if domain == "card":
        return f"{base} + {x}.type_id"
    if domain == "player":
        seat = f"{x} if type({x}) is int and 0 <= {x} < num_players"
        return f"{base} + ({seat} else option_seat({x}, num_players))"
    return f"site[{index}].action({x})"


def known_seat(ex: ExprEmitter, p: str) -> bool:
    """Is ``p`` known to be a seat, or a hoisted local whose test is made at entry?"""
    if ex.facts.of(p) == SEAT:
        return True
    return ex.hoist is not None and ex.hoist.checked(p) is not None


def write_seat_check(w: Writer, p: str, span: str, ex: ExprEmitter | None = None) -> None:
    """Refuse the decider ``p`` (a Python local) unless it is a seat, with the interpreter's
    message at ``span`` (State.decide); with the ExprEmitter ``ex``, no test for a value known
    to be a seat, and the test made at entry for a hoisted local (codegen/facts, hoist)."""
    test = f"type({p}) is not int or not 0 <= {p} < num_players"
    if ex is not None:
        if ex.facts.of(p) == SEAT:
            return
        checked = ex.hoist.checked(p) if ex.hoist is not None else None
        if checked is not None:
            test = f"{checked} is None"
    w.line(f"if {test}:")
    with w.indent():
        w.line(f"raise RuleError(not_a_seat({p}, num_players), {span})")


def write_decider(w: Writer, ex: ExprEmitter, player: str, p: str, span: str) -> str:
    """The Python local holding the decider ``player`` (Python text) of a choice or pick:
    ``player`` itself where it is a local known to be a seat or tested at entry, else ``p``,
    assigned here; followed by write_seat_check's refusal of a value that is no seat."""
    if player.isidentifier() and known_seat(ex, player):
        p = player
    else:
        w.line(f"{p} = {player}")
    write_seat_check(w, p, span, ex)
    return p


def function_name(name: str) -> str:
    """The Python name of a rules function in a generated module.

    Raises MeepleError if ``name`` is not a meeple name (the checker refuses those first)."""
    if not is_name(name):
        raise MeepleError(f"{literal(name)} is not a valid function name for the code generator")
    return f"fn_{name}"


def split_invariant(when: ir.Expr | None, var: str) -> tuple[list[ir.Expr], list[ir.Expr]]:
    """The leading ``and`` terms of ``when`` that do not name ``var``, and the rest."""
    terms: list[ir.Expr] = []

    def flatten(e: ir.Expr) -> None:
        if isinstance(e, ir.BinOp) and e.op == "and":
            flatten(e.left)
            flatten(e.right)
        else:
            terms.append(e)

    if when is None:
        return [], []
    flatten(when)
    k = 0
    while k < len(terms) and not mentions(terms[k], var):
        k += 1
    return terms[:k], terms[k:]


def mentions(e: Any, var: str) -> bool:
    """Does the expression mention the name ``var`` anywhere?"""
    if isinstance(e, ir.Name):
        return e.id == var
    if isinstance(e, (list, tuple)):
        return any(mentions(x, var) for x in e)
    if isinstance(e, ir.Expr):
        return any(mentions(getattr(e, f), var) for f in e.__dataclass_fields__ if f != "span")
    return False
