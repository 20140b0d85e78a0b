"""Values the generated code would compute twice, computed once (common subexpressions).

An option collection tests a guard per option, and the guards of one choice often share a
count (``count(c for c in hand[p] if c.wild)`` in each); a condition names the same count twice;
a pick's bounds are often one expression. No statement runs while such code is evaluated, so
two evaluations of one pure expression in it give the same value, and the second may read the
first's. Here the ExprEmitter's ``emit`` (codegen/exprs.py) asks ``Reuse.emit``, which writes a
reused value as ``(_r1 := EXPR)`` where it is first evaluated and ``_r1`` where it would be
evaluated again. That is exact when:

- the two are one computation: the same expression (its tree, spans left out: the second never
  raises, as the first did not), its names the same Python text (``Scope``, a local read once,
  ``env[...]``) and a comprehension's own name bound at the same place (``key``);
- nothing changed in between: both are in one *region*, code where no statement runs. A single
  expression is one (an expression never writes the state or ``env``: a rules function counts
  its depth in ``st.calls`` and puts it back); codegen/choice.py and codegen/pick.py open one
  around the expressions of an option collection and of a pick's bounds;
- the first is evaluated on every path to the second, before it: the region's code is written in
  the order Python evaluates it (the ExprEmitter writes ``a if t else b`` as t, a, b; a
  majority's parts, written before the seat they test, keep their values to themselves), and
  whatever runs only on some paths (the right of ``and``/``or``, the branches of ``if``/``else``,
  a comprehension's condition and item, a key function, a majority's counts, a block of the
  region's own code under ``if`` or ``for``: ``branch``) keeps the values it computes to itself,
  but for the rest of a chain ``A and B and C``, which runs only where B ran, and for a
  comprehension's item, which runs only where its condition ran and was true (what the right of
  an ``and`` there computed too, not of an ``or``). So a value is never
  computed earlier, or more often, than the interpreter computes it, and a value that might
  raise raises where it did.

A comprehension's iterable may not hold ``:=`` (Python refuses it), so nothing is first computed
there (it may read a value computed before). Which first evaluations are read again is known
only at the end: ``resolve`` writes ``(_rN := ...)`` for those and drops the others' marks, on
the whole module's text. Marks are control characters, which no literal and no comment of a
module holds (``literal`` writes them escaped).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields
from typing import Any

from meeple.dsl import ir
from meeple.dsl.builtins import BUILTINS
from meeple.dsl.datatable import lookup_parts
from meeple.dsl.majorities import membership
from meeple.dsl.render import children

#: how a child of an expression is evaluated, when not once each time its parent is
BRANCH = "branch"  # on some paths only, or once per item: its values stay its own
CHAIN = "chain"  # the right of `X and C` (or `or`): a branch, after B where X is `A and B`
ITER = "iter"  # a comprehension's iterable: no ``:=`` inside (Python's rule)
COND = "cond"  # a comprehension's condition: a branch, its values kept for the item
ITEM = "item"  # a comprehension's item: a branch, after the condition was true for the item

#: most values computed inside one another's computation: each adds a bracket ``(_rN := ...)``
#: around the one outside it, and Python reads at most 200 nested brackets (the deepest
#: expression the front end allows is written about 130 deep: tests/test_codegen_safety.py)
NESTED_VALUES = 8

_DEF = re.compile("\x00([0-9]+)\x01|\x02([0-9]+)\x03")
_USE = re.compile("\x04([0-9]+)\x05")
_MARK = re.compile("[\x00-\x05]")

Key = tuple[Any, ...]


class Reuse:
    """The values computed so far in the open region, and the marks written (see module
    docstring). ``ex`` is the ExprEmitter whose expressions are written."""

    def __init__(self, ex: Any) -> None:
        self.ex = ex
        # the values computed on every path to here: one dict per level of branches
        self.frames: list[dict[Key, int]] = []
        self.roles: dict[int, str] = {}  # id of an IR child -> its role, while written
        # an `and`/`or` just written (or a call of a function whose body is one): its op and
        # the values its right computed, for the CHAIN on its right
        self.tails: dict[int, tuple[str, dict[Key, int]]] = {}
        self.popped: dict[Key, int] = {}  # the values of the last branch written
        self.left_of: dict[int, tuple[int, str]] = {}  # a CHAIN -> its left's id, its and/or
        # a comprehension's item -> its condition's id; a condition just written -> its values
        self.cond_of: dict[int, int] = {}
        self.cond_values: dict[int, dict[Key, int]] = {}
        self.in_iter = 0  # > 0 inside a comprehension's iterable
        self.nested = 0  # values that may be computed, being written around the one written
        self.count = 0  # marks given
        # an expression written another way than its ExprEmitter method: its key's tag, writer
        self.writers: dict[int, tuple[str, Any]] = {}

    # ------------------------------------------------------------------ regions
    @contextmanager
    def region(self) -> Iterator[None]:
        """Code written inside runs with no statement in between: each value computed on every
        path to a later evaluation of it is read there instead."""
        saved, self.frames = self.frames, [{}]
        try:
            yield
        finally:
            self.frames = saved

    @contextmanager
    def branch(self) -> Iterator[None]:
        """Code of the region written inside runs on some paths only (or once per item): what
        it computes is not read after it."""
        if not self.frames:  # no region: every expression is its own
            yield
            return
        self.frames.append({})
        try:
            yield
        finally:
            self.frames.pop()

    # ------------------------------------------------------------------ expressions
    def emit(self, e: ir.Expr, scope: Any) -> str:
        """The ExprEmitter's ``emit``: ``e`` as Python text, reusing and marking values."""
        if not self.frames:  # an expression alone: a region of its own
            with self.region():
                return self._child(e, scope)
        return self._child(e, scope)

    def _child(self, e: ir.Expr, scope: Any) -> str:
        role = self.roles.get(id(e))
        if role in (BRANCH, CHAIN, COND, ITEM):
            start: dict[Key, int] = {}
            if role == CHAIN:  # ``X and C``: C runs only where X was true; where X is ``A and
                # B`` (or a function whose body is), B ran: C starts with the values B computed
                # (X's tail, just written). So for ``or``, where X was false.
                left, op = self.left_of.get(id(e), (0, ""))
                tail = self.tails.get(left)
                if tail is not None and tail[0] == op:
                    start = tail[1]
            elif role == ITEM:  # ``[E for x in L if C]``: E runs only where C ran, and was true
                start = self.cond_values.pop(self.cond_of.get(id(e), 0), {})
            self.frames.append(dict(start))
            try:
                return self._value(e, scope)
            finally:
                self.popped = self.frames.pop()
                if role == COND:  # what it computed, and where it is `A and B`, what B did
                    tail = self.tails.get(id(e))
                    kept = tail[1] if tail is not None and tail[0] == "and" else {}
                    self.cond_values[id(e)] = {**self.popped, **kept}
        if role == ITER:
            self.in_iter += 1
            try:
                return self._value(e, scope)
            finally:
                self.in_iter -= 1
        return self._value(e, scope)

    def emit_as(self, e: ir.Expr, scope: Any, tag: str, write: Any) -> str:
        """``emit``, with ``write()`` giving the text of ``e`` itself: another value than the
        ExprEmitter method's (as a seat list's items, a tuple), so reused only by ``emit_as``
        calls of the same ``tag``."""
        self.writers[id(e)] = (tag, write)
        try:
            return self.emit(e, scope)
        finally:
            self.writers.pop(id(e), None)

    def _value(self, e: ir.Expr, scope: Any) -> str:
        writer = self.writers.pop(id(e), None)
        k = self.key(e, scope) if self.candidate(e) else None
        if k is not None and writer is not None:
            k = (writer[0], k)
        if k is not None:
            for frame in reversed(self.frames):
                n = frame.get(k)
                if n is not None:
                    return f"\x04{n}\x05"
        k = k if k is None or (not self.in_iter and self.nested < NESTED_VALUES) else None
        saved = {}
        # a tail is dropped before what writes it: a CHAIN never starts with an older one's
        chain = isinstance(e, ir.BinOp) and e.op in ("and", "or")
        if isinstance(e, ir.BinOp) and chain:
            self.left_of[id(e.right)] = (id(e.left), e.op)
            self.tails.pop(id(e.left), None)
        body = None  # a function's body, whose tail is its call's where it is written inline
        if isinstance(e, ir.Call) and e.func in self.ex.prog.game.functions:
            body = self.ex.prog.game.functions[e.func].body
            self.tails.pop(id(body), None)
        for child, role in children_roles(e, self.ex.prog.game, self.candidate):
            saved[id(child)] = self.roles.get(id(child))
            self.roles[id(child)] = role
        for c in (e, *(e.args if isinstance(e, ir.Call) else ())):
            if isinstance(c, ir.Comprehension) and c.cond is not None:
                # (a condition written another way, as codegen/statics' terms, keeps nothing)
                self.cond_of[id(c.elt)] = id(c.cond)
                self.cond_values.pop(id(c.cond), None)
        self.nested += k is not None
        try:
            if writer is not None:
                text: str = writer[1]()
            else:
                text = getattr(self.ex, "_" + type(e).__name__)(e, scope)
            if isinstance(e, ir.BinOp) and chain:  # what its right computed (the last branch)
                self.tails[id(e)] = (e.op, self.popped)
            elif body is not None and id(body) in self.tails and writer is None:
                # (the body written inline; another writer's text, as codegen/memo's value
                # kept per item, may not run the body each time)
                self.tails[id(e)] = self.tails[id(body)]
        finally:
            self.nested -= k is not None
            for i, old in saved.items():
                if old is None:
                    del self.roles[i]
                else:
                    self.roles[i] = old
        if k is None:
            return text
        n = self.count
        self.count += 1
        self.frames[-1][k] = n
        return f"\x00{n}\x01{text}\x02{n}\x03"

    def conjunction(self, terms: list[ir.Expr], scope: Any) -> list[str]:
        """The texts of ``terms``, to be joined by ``and`` (as one ``A and B and C``): each term
        reads the values the terms before it computed, their tails too (see ``_child``).
        ``scope``: the terms' scope, or a list of one per term (codegen/statics.Term)."""
        if not self.frames:
            with self.region():
                return self.conjunction(terms, scope)
        scopes = scope if isinstance(scope, list) else [scope] * len(terms)
        depth, texts = len(self.frames), list[str]()
        try:
            for t, sc in zip(terms, scopes, strict=True):
                if texts:  # runs only where the terms before were true
                    tail = self.tails.get(id(terms[len(texts) - 1]))
                    self.frames.append(dict(tail[1]) if tail and tail[0] == "and" else {})
                self.tails.pop(id(t), None)
                # (a term's value of a loop's item, kept by codegen/memo as ``emit`` keeps it)
                kept = self.ex.loops.memoize(self.ex, t, sc) if self.ex.loops.stack else None
                texts.append(kept if kept is not None else self._child(t, sc))
        finally:
            del self.frames[depth:]
        return texts

    def known(self, e: ir.Expr, scope: Any) -> bool:
        """Is the value of ``e`` computed on every path to here, so that ``emit`` reads it?"""
        if not self.candidate(e) or not self.frames:
            return False
        k = self.key(e, scope)
        return any(k in frame for frame in self.frames)

    def candidate(self, e: ir.Expr) -> bool:
        """Is ``e`` worth a local when computed twice? Calls, comprehensions, indexing (a seat
        checked, a zone read), membership and ranges, data table cells; not a name, a constant
        or arithmetic on them. Never one that calls a function of a call cycle: each of its
        calls is charged to the work budget (codegen/budget.py), as the interpreter's are."""
        if self._charged(e):
            return False
        if isinstance(e, ir.Call):
            return e.func != "card"  # (a card by its key is a constant of the module)
        if isinstance(e, (ir.Comprehension, ir.Index)):
            return True
        if isinstance(e, ir.BinOp):
            return e.op in ("in", "not in", "..")
        if isinstance(e, ir.Attr):
            return lookup_parts(e, self.ex.prog.game.data_tables) is not None
        return False

    def _charged(self, e: ir.Expr) -> bool:
        """Does ``e`` call a function of a call cycle (dsl/work.py), itself or inside?"""
        work = self.ex.prog.checked.work
        cyclic = {k[2:] for k in work.cyclic if k.startswith("f:")} if work else set()
        if not cyclic:
            return False
        todo: list[Any] = [e]
        while todo:
            n = todo.pop()
            if isinstance(n, ir.Call) and n.func in cyclic:
                return True
            todo.extend(children(n))
        return False

    def key(self, e: Any, scope: Any, bound: dict[str, int] | None = None) -> Any:
        """What ``e`` computes, as a hashable tree: equal keys in one region, one value. A name
        is the Python text it is read as (or, bound inside ``e``, the depth of its binder), a
        constant its type and value; spans are left out. Nothing is written or registered: a
        name may be no value at all (a zone per player, the table of a lookup)."""
        bound = bound or {}
        if isinstance(e, ir.Name):
            if e.id in bound:
                return ("bound", bound[e.id])
            if e.id in scope.locals and not self._global(e.id):
                return ("local", scope.locals[e.id])
            return ("name", e.id)  # (one Python text in a whole function, as _Name reads it)
        if isinstance(e, ir.Const):
            return ("const", type(e.value).__name__, repr(e.value))
        if isinstance(e, ir.Comprehension):
            inner = {**bound, e.var: len(bound)}
            return (
                "comprehension",
                self.key(e.iter, scope, bound),
                self.key(e.cond, scope, inner),
                self.key(e.elt, scope, inner),
            )
        if isinstance(e, ir.Call) and e.func in BUILTINS and BUILTINS[e.func].binds:
            first, fn = e.args  # NAME in SEQ, then an expression of NAME
            assert isinstance(first, ir.BinOp) and isinstance(first.left, ir.Name)
            inner = {**bound, first.left.id: len(bound)}
            seq, by = self.key(first.right, scope, bound), self.key(fn, scope, inner)
            return ("by", e.func, seq, by, self.key(e.kwargs, scope, bound))
        if isinstance(e, ir.Expr):
            parts: list[Any] = [type(e).__name__]
            for f in fields(e):
                if f.name != "span":
                    parts.append(self.key(getattr(e, f.name), scope, bound))
            return tuple(parts)
        if isinstance(e, (tuple, list)):
            return tuple(self.key(x, scope, bound) for x in e)
        if e is None or isinstance(e, (str, int, float)):
            return ("value", type(e).__name__, repr(e))
        raise AssertionError(f"no key for {type(e).__name__} in an expression")

    def _global(self, name: str) -> bool:
        """Does the ExprEmitter's ``_Name`` read ``name`` before the scope's locals?"""
        prog = self.ex.prog
        return (
            name in prog.game.constants
            or name in prog.static_names
            or (name in prog.zone_base and prog.zone_per[name] is None)
            or name in prog.game.variables
            or name in ("players", "num_players")
        )

    # ------------------------------------------------------------------ the module
    def resolve(self, text: str, fresh: Callable[[str], str]) -> str:
        """The module ``text`` with its marks written out: ``(_rN := EXPR)`` where a value
        read again is first computed, ``_rN`` where it is read, ``EXPR`` where it is not."""
        used = {int(n) for n in _USE.findall(text)}
        names: dict[int, str] = {}
        for m in _DEF.finditer(text):  # names in the order of the text: deterministic
            if m[1] is not None and int(m[1]) in used:
                names[int(m[1])] = fresh("r")
        missing = used - names.keys()
        if missing:  # a value read where it is never computed: a bug of the generator
            raise AssertionError(f"reused values {sorted(missing)} are never computed")

        def opened(m: re.Match[str]) -> str:
            if m[1] is not None:
                return f"({names[int(m[1])]} := " if int(m[1]) in names else ""
            return ")" if int(m[2]) in names else ""

        out = _USE.sub(lambda m: names[int(m[1])], _DEF.sub(opened, text))
        if _MARK.search(out):
            raise AssertionError("a reuse mark is left in the module")
        return out


@contextmanager
def region(ex: Any) -> Iterator[None]:
    """``Reuse.region`` of the ExprEmitter ``ex`` (nothing when it reuses no value)."""
    if ex.reuse is None:
        yield
        return
    with ex.reuse.region():
        yield


@contextmanager
def branch(ex: Any) -> Iterator[None]:
    """``Reuse.branch`` of the ExprEmitter ``ex`` (nothing when it reuses no value)."""
    if ex.reuse is None:
        yield
        return
    with ex.reuse.branch():
        yield


def conjunction(ex: Any, terms: list[ir.Expr], scope: Any) -> str:
    """``" and ".join`` of the texts of ``terms`` written by the ExprEmitter ``ex``, each term
    reading the values the ones before it computed (``Reuse.conjunction``); ``scope`` as
    there."""
    if ex.reuse is None:
        scopes = scope if isinstance(scope, list) else [scope] * len(terms)
        return " and ".join(ex.emit(t, sc) for t, sc in zip(terms, scopes, strict=True))
    return " and ".join(ex.reuse.conjunction(terms, scope))


@contextmanager
def iterable(ex: Any) -> Iterator[None]:
    """Text written inside goes into a comprehension's iterable, where Python allows no
    ``:=``: it reads values computed before, and computes none for later."""
    if ex.reuse is None:
        yield
        return
    ex.reuse.in_iter += 1
    try:
        yield
    finally:
        ex.reuse.in_iter -= 1


def children_roles(
    e: ir.Expr, game: ir.Game, candidate: Callable[[ir.Expr], bool]
) -> list[tuple[ir.Expr, str]]:
    """The children of ``e`` that the ExprEmitter writes (and Python evaluates) otherwise than
    once, unconditionally, each time ``e`` is evaluated, with how. A role is the child object's
    wherever it is written in ``e`` (one object may stand in two places): each role only keeps
    values from being computed or read, but CHAIN, whose start is never an older one's."""
    out: list[tuple[ir.Expr, str]] = []
    if isinstance(e, ir.BinOp):
        if e.op in ("and", "or"):
            out.append((e.right, CHAIN))
        m = membership(e, game)
        if m is not None:  # majority_has: the counts called back, the rest written first
            out += [(m.count, BRANCH), (m.among, BRANCH), (m.at_least, BRANCH)]
    elif isinstance(e, ir.Cond):
        out += [(e.then, BRANCH), (e.orelse, BRANCH)]
    elif isinstance(e, ir.Comprehension):
        out += _comprehension(e)
    elif isinstance(e, ir.Call):
        for k, a in enumerate(e.args):  # a reducer writes its comprehension argument itself
            if isinstance(a, ir.Comprehension):
                out += _comprehension(a)
                if any(a.iter is b for b in e.args[:k]) and candidate(a.iter):
                    # a lowered majority's candidates, written first as an argument: the
                    # iterable reads the value computed there (nothing is computed in it)
                    out.remove((a.iter, ITER))
        if e.func in BUILTINS and BUILTINS[e.func].binds:  # the key: a function of the item
            out.append((e.args[1], BRANCH))
    return out


def _comprehension(c: ir.Comprehension) -> list[tuple[ir.Expr, str]]:
    if c.cond is None:
        return [(c.iter, ITER), (c.elt, BRANCH)]
    # (one object in both places: a branch that keeps nothing for the other)
    item = BRANCH if c.elt is c.cond else ITEM
    return [(c.iter, ITER), (c.elt, item), (c.cond, COND if item == ITEM else BRANCH)]
