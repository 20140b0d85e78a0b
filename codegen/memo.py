"""Values of an inner loop that do not change with an outer loop, computed once per item.

In ``any(markers_of(p, d) > 0 and markers_of(q, d) > 0 for d in districts)``, the condition of
an option ``for q in others(p)``, ``markers_of(p, d)`` names the inner loop's ``d`` but not the
outer ``q``: the interpreter computes it again for each ``q``, with the same value, since no
statement runs while the options are collected (nor while one expression is evaluated). Here
such a value is kept in a dict by its item, made where the outermost loop starts:
``(_m1[d] if d in _m1 else _m1.setdefault(d, VALUE))``. It is computed where the interpreter
first computes it, lazily, and read where it would be computed again: so it raises where the
interpreter's raises (a first computation that raises ends the evaluation), and is never
computed where the interpreter does not compute it.

That is exact when:

- the value is a pure function of the item and of values that stay the same while the outermost
  loop runs: the ``Loops`` stack holds every loop of the expression being written (a
  comprehension, a key function, a majority's counts; codegen/exprs.py) and an option's loop
  (codegen/choice.py), and the value names the Python local of one of them only, not the
  outermost's; every other name it reads was bound before the outermost loop began (a loop of
  statements around it is not on the stack: its value is the same for the whole evaluation) or
  is read from the state, which no expression changes;
- the item is a key that stands for one value: a seat (an int) or a card of a kind (a card is
  equal only to itself), as codegen/facts.py knows the loop's items to be;
- nothing the value's code computes is read after it (it runs only when the item is new): it is
  written as a branch of codegen/cse.py's regions, and its tail is not its call's.

A value worth it computes a list: a comprehension, a count or another reducer, a call of a rules
function or of a small one whose body does (not a card's field or a zone's size). A value that
names no loop's local at all is kept once for the whole loop the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from meeple.dsl import ir
from meeple.dsl.builtins import BUILTINS
from meeple.dsl.majorities import HOLDERS

from .facts import SEAT


@dataclass
class Loop:
    """A loop being written: the Python local of its item, and whether code can be written
    where it starts (a comprehension, an option's loop; not a lambda's parameter)."""

    py: str
    host: bool
    memos: list[str] = field(default_factory=list)  # the dicts made where it starts
    names: dict[Any, str] = field(default_factory=dict)  # (value's key, item) -> its dict


class Loops:
    """The loops around the expression being written, outermost first (module docstring)."""

    def __init__(self) -> None:
        self.stack: list[Loop] = []
        self.floor = 1  # the first loop whose item a value may be kept by (see ``memoize``)
        self.inside = False  # while a kept value's own code is written

    @contextmanager
    def loop(self, py: str, host: bool) -> Iterator[Loop]:
        """While the code run once per item of a loop (its item the Python local ``py``) is
        written. The outermost loop's ``memos`` are the dicts to make where it starts."""
        frame = Loop(py, host)
        self.stack.append(frame)
        try:
            yield frame
        finally:
            self.stack.pop()

    def memoize(self, ex: Any, e: ir.Expr, scope: Any) -> str | None:
        """The text of ``e`` kept per item (module docstring), or None where it is not."""
        if not self.stack or not self.stack[0].host or ex.reuse is None:
            return None
        if not ex.reuse.candidate(e) or not costly(e, ex.prog.game, ex.inlinable):
            return None
        if ex.reuse.known(e, scope):  # (computed before: read where it is, codegen/cse)
            return None
        deps = self._deps(ex, e, scope)
        if len(deps) > 1 or (not deps and self.inside):  # (inside a kept value: its own)
            return None
        if deps:
            (j,) = deps
            if j < self.floor:  # (the outermost loop's item: each is met once)
                return None
            item = self.stack[j].py
            fact = ex.facts.of(item)
            if not (fact == SEAT or (fact is not None and fact.startswith("card:"))):
                return None
        else:
            item = "None"  # (a value of no loop's item: one for the whole loop)
        host = self.stack[0]
        key = (ex.reuse.key(e, scope), item)
        memo = host.names.get(key)
        if memo is None:
            memo = host.names[key] = ex.fresh("kept")
            host.memos.append(memo)

        def write() -> str:
            # inside: only values kept by the items of its own loops
            saved, self.floor, self.inside = (self.floor, self.inside), len(self.stack), True
            try:
                with ex.reuse.branch():  # runs only for a new item: its values are its own
                    inner = getattr(ex, "_" + type(e).__name__)(e, scope)
            finally:
                self.floor, self.inside = saved
            return f"({memo}[{item}] if {item} in {memo} else {memo}.setdefault({item}, {inner}))"

        return str(ex.reuse.emit_as(e, scope, "memo", write))

    def _deps(self, ex: Any, e: ir.Expr, scope: Any) -> set[int]:
        """The positions in the stack of the loops whose item ``e`` reads."""
        out: set[int] = set()
        for n in free_names(e, ex.prog.game, ex.inlinable):
            text = _text_of(ex, n, scope)
            if text is None:
                continue
            for j, loop in enumerate(self.stack):
                if re.search(rf"(?<![\w.]){re.escape(loop.py)}(?!\w)", text):
                    out.add(j)
        return out


def _text_of(ex: Any, n: str, scope: Any) -> str | None:
    """The Python text the ExprEmitter's ``_Name`` reads the name ``n`` as, when it is a local
    of the scope (one of the game's names first); None for anything else (the game's names,
    a statement's name, a hoisted local or ``env``: bound before the expression)."""
    prog = ex.prog
    game = prog.game
    if n in game.constants or n in prog.static_names or n in prog.zone_base:
        return None
    if n in game.variables or n in ("players", "num_players"):
        return None
    text = scope.locals.get(n)
    return None if text is None else str(text)


def free_names(e: Any, game: ir.Game, inlinable: Any) -> set[str]:
    """The names ``e`` reads that it does not bind itself (a comprehension's variable, a key
    function's). A rules function reads only its parameters (and the game's names)."""
    if isinstance(e, ir.Name):
        return {e.id}
    if isinstance(e, ir.Comprehension):
        inner = free_names(e.cond, game, inlinable) | free_names(e.elt, game, inlinable)
        return free_names(e.iter, game, inlinable) | (inner - {e.var})
    if isinstance(e, ir.Call) and e.func not in game.functions:
        spec = BUILTINS.get(e.func)
        if spec is not None and spec.binds:
            first, key = e.args
            assert isinstance(first, ir.BinOp) and isinstance(first.left, ir.Name)
            seq = free_names(first.right, game, inlinable)
            rest = free_names(e.kwargs, game, inlinable)
            return seq | rest | (free_names(key, game, inlinable) - {first.left.id})
    if isinstance(e, (list, tuple)):
        out: set[str] = set()
        for x in e:
            out |= free_names(x, game, inlinable)
        return out
    if isinstance(e, ir.Expr):
        out = set()
        for f in e.__dataclass_fields__:
            if f != "span":
                out |= free_names(getattr(e, f), game, inlinable)
        return out
    return set()


def costly(e: Any, game: ir.Game, inlinable: Any) -> bool:
    """Does computing ``e`` go over a list (a comprehension, a key function, a majority, a
    rules function that is not written inline, one written inline whose body does)?"""
    if isinstance(e, ir.Comprehension):
        return True
    if isinstance(e, ir.Call):
        if e.func in game.functions:
            if e.func not in inlinable:
                return True
            if costly(game.functions[e.func].body, game, inlinable):
                return True
        elif e.func == HOLDERS or e.func in game.majorities:
            return True
        elif e.func in BUILTINS and BUILTINS[e.func].binds:
            return True
    if isinstance(e, (list, tuple)):
        return any(costly(x, game, inlinable) for x in e)
    if isinstance(e, ir.Expr):
        return any(costly(getattr(e, f), game, inlinable) for f in e.__dataclass_fields__)
    return False


def made(memos: list[str]) -> str:
    """The ``for`` clause that makes the dicts ``memos`` where a comprehension starts ("" for
    none): one clause, however many (each clause is one of Python's nested blocks)."""
    if len(memos) <= 1:
        return "".join(f"for {m} in [{{}}] " for m in memos)
    return f"for {', '.join(memos)} in [({', '.join('{}' for _ in memos)})] "
