"""Values of an inner loop that do not change with an outer loop, computed once per item.

In ``any(markers_of(p, d) > 0 and markers_of(q, d) > 0 for d in districts)``, the condition of
an option ``for q in others(p)``, ``markers_of(p, d)`` names the inner loop's ``d`` but not the
outer ``q``: the interpreter computes it again for each ``q``, with the same value, since no
statement runs while the options are collected (nor while one expression is evaluated). Here
such a value is kept in a dict by its item, made where the outermost loop starts, or before a
choice's options are collected (so that the loops of two options share it: Sun's Bolster and
Usurp count a seat's markers per district):
``(_kept1[d] if d in _kept1 else _kept1.setdefault(d, VALUE))``. It is computed where the
interpreter first computes it, lazily, and read where it would be computed again: so it raises
where the interpreter's raises (a first computation that raises ends the evaluation), and is
never computed where the interpreter does not compute it. A dict read at one place only, in a
loop that no other loop around it repeats, would only cost: it is left out (``Loops.resolve``).

That is exact when:

- the value is a pure function of the item and of values that stay the same while the outermost
  loop runs: the ``Loops`` stack holds every loop of the expression being written (a
  comprehension, a key function, a majority's counts; codegen/exprs.py), an option's loop and
  the choice around it (codegen/choice.py), and the value names the Python local of one of them
  only, not the outermost loop's; every other name it reads was bound before the outermost loop
  began (a loop of statements around it is not on the stack: its value is the same for the whole
  evaluation) or is read from the state, which no expression changes; two places share a dict
  where they compute the same of their items (codegen/cse's key, the item's local left out);
- the item is a key that stands for one value: a seat (an int) or a card (of a kind, or any
  card of a zone: a card is equal only to itself), as codegen/facts.py knows the loop's items
  to be;
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

from .facts import CARD, SEAT


@dataclass
class Loop:
    """A loop being written: the Python local of its item, and whether code can be written
    where it starts (a comprehension, an option's loop; not a lambda's parameter). A *region*
    (a choice's collection of options, no loop itself: ``py`` empty) holds the dicts of the
    loops written inside it, so that two of its loops read one value per item."""

    py: str
    host: bool
    region: bool = False
    place: int = -1  # its place's mark, once it holds a dict (see ``Loops.made``)
    names: dict[Any, int] = field(default_factory=dict)  # a value's key -> its dict


#: marks in the module's text, written out by ``Loops.resolve``: where a kept value starts and
#: ends, and where the dicts of a loop are made (control characters, as codegen/cse's marks)
_START, _END, _PLACE = "\x0e{}\x0f", "\x10{}\x11", "\x12{}\x13"
_SITE = re.compile("\x0e([0-9]+)\x0f|\x10([0-9]+)\x11")
_LINE = re.compile("^( *)\x12([0-9]+)\x13\n", re.M)
_CLAUSE = re.compile("\x12([0-9]+)\x13")


class Loops:
    """The loops around the expression being written, outermost first, and the values kept
    so far (module docstring). Whether a dict is worth making is known only at the end of the
    module: one read at two places, or in a loop inside another (or none: for every item of
    its loop), is made; ``resolve`` writes out the others as the values themselves."""

    def __init__(self) -> None:
        self.stack: list[Loop] = []
        self.floor = 1  # the first loop whose item a value may be kept by (see ``memoize``)
        self.inside = False  # while a kept value's own code is written
        self.dicts: list[tuple[str, list[bool]]] = []  # name, and per place read: read again?
        self.sites: list[tuple[int, str, str]] = []  # its dict, the text before and after it
        self.places: list[list[int]] = []  # per loop that makes dicts: the dicts

    @contextmanager
    def loop(
        self, py: str, host: bool, region: bool = False, frame: Loop | None = None
    ) -> Iterator[Loop]:
        """While the code run once per item of a loop (its item the Python local ``py``) is
        written, or a ``region``'s code. The outermost one's ``made()`` is where its dicts are
        made. ``frame``: a region opened before, entered again (codegen/loopkeep.py)."""
        frame = frame or Loop(py, host, region)
        self.stack.append(frame)
        try:
            yield frame
        finally:
            self.stack.pop()

    def made(self, loop: Loop, line: bool) -> str:
        """The mark of where the dicts of ``loop`` are made: a ``for`` clause at the start of a
        comprehension, or (``line``) a line of its own before a choice's options; "" for
        none."""
        if loop.place < 0:
            return ""
        return _PLACE.format(loop.place)

    def memoize(
        self, ex: Any, e: ir.Expr, scope: Any, value: Any = None, tag: str = "memo"
    ) -> str | None:
        """The text of ``e`` kept per item (module docstring), or None where it is not.
        ``value``: None, or what writes another value of ``e`` (``tag``'s, as Reuse.emit_as:
        a pile's class counts, codegen/classcounts.py), kept whatever it costs."""
        if not self.stack or not self.stack[0].host or ex.reuse is None:
            return None
        if all(loop.region for loop in self.stack):  # (no loop: read once, codegen/cse)
            return None
        # (a count by owner read from a table costs less than a dict: codegen/tally.py; a
        # count by name keeps its pile's counts itself: codegen/classcounts.py)
        tests = [t.read_only for t in (ex.tally, ex.classes) if t is not None]
        cheap = (lambda x: any(t(x) for t in tests)) if tests else None
        if value is None and (
            not ex.reuse.candidate(e) or not costly(e, ex.prog.game, ex.inlinable, cheap)
        ):
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
            if not (fact in (SEAT, CARD) or (fact is not None and fact.startswith("card:"))):
                return None
            again = any(not loop.region for loop in self.stack[:j])  # (a loop around its loop)
        else:
            item, again = "None", True  # (a value of no loop's item: one for the whole loop)
        host = self.stack[0]
        # (by what it computes of the item: two loops of a region over the same items share it)
        key = (tag, _abstract(ex.reuse.key(e, scope), item))
        n = host.names.get(key)
        if n is None:
            n = host.names[key] = len(self.dicts)
            self.dicts.append((ex.fresh("kept"), []))
            if host.place < 0:
                host.place = len(self.places)
                self.places.append([])
            self.places[host.place].append(n)
        self.dicts[n][1].append(again)
        memo = self.dicts[n][0]
        site = len(self.sites)
        self.sites.append(
            (n, f"({memo}[{item}] if {item} in {memo} else {memo}.setdefault({item}, ", "))")
        )

        def write() -> str:
            # inside: only values kept by the items of its own loops
            saved, self.floor, self.inside = (self.floor, self.inside), len(self.stack), True
            try:
                with ex.reuse.branch():  # runs only for a new item: its values are its own
                    if value is not None:
                        inner = value()
                    else:
                        inner = getattr(ex, "_" + type(e).__name__)(e, scope)
            finally:
                self.floor, self.inside = saved
            return _START.format(site) + inner + _END.format(site)

        return str(ex.reuse.emit_as(e, scope, tag, write))

    def resolve(self, text: str) -> str:
        """The module ``text`` with its marks written out (see the class docstring)."""
        made = [len(again) > 1 or any(again) for _, again in self.dicts]

        def site(m: re.Match[str]) -> str:
            n, before, after = self.sites[int(m[1] or m[2])]
            return "" if not made[n] else before if m[1] else after

        def line(m: re.Match[str]) -> str:
            names = [self.dicts[n][0] for n in self.places[int(m[2])] if made[n]]
            return "".join(f"{m[1]}{name} = {{}}\n" for name in names)

        def clause(m: re.Match[str]) -> str:
            names = [self.dicts[n][0] for n in self.places[int(m[1])] if made[n]]
            if len(names) <= 1:  # (one clause however many: each is one of Python's blocks)
                return "".join(f"for {name} in [{{}}] " for name in names)
            return f"for {', '.join(names)} in [({', '.join('{}' for _ in names)})] "

        out = _CLAUSE.sub(clause, _LINE.sub(line, _SITE.sub(site, text)))
        if re.search("[\x0e-\x13]", out):
            raise AssertionError("a mark of a kept value is left in the module")
        return out

    def _deps(self, ex: Any, e: ir.Expr, scope: Any) -> set[int]:
        """The positions in the stack of the loops whose item ``e`` reads."""
        out: set[int] = set()
        for n in free_names(e, ex.prog.game, ex.inlinable):
            text = _text_of(ex, n, scope)
            if text is None:
                continue
            for j, loop in enumerate(self.stack):
                if loop.py and re.search(rf"(?<![\w.]){re.escape(loop.py)}(?!\w)", text):
                    out.add(j)
        return out


def _abstract(key: Any, item: str) -> Any:
    """``key`` (codegen/cse's) with the item's local read as the item itself."""
    if key == ("local", item):
        return ("item",)
    if isinstance(key, tuple):
        return tuple(_abstract(k, item) for k in key)
    return key


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


def costly(e: Any, game: ir.Game, inlinable: Any, cheap: Any = None) -> bool:
    """Does computing ``e`` go over a list (a comprehension, a key function, a majority, a
    rules function that is not written inline, one written inline whose body does)? ``cheap``:
    None, or a test of an expression that does not (a count read from a table)."""
    if cheap is not None and cheap(e):
        return False
    if isinstance(e, ir.Comprehension):
        return True
    if isinstance(e, ir.Call):
        if e.func in game.functions:
            if e.func not in inlinable:
                return True
            if costly(game.functions[e.func].body, game, inlinable, cheap):
                return True
        elif e.func == HOLDERS or e.func in game.majorities:
            return True
        elif e.func in BUILTINS and BUILTINS[e.func].binds:
            return True
    if isinstance(e, (list, tuple)):
        return any(costly(x, game, inlinable, cheap) for x in e)
    if isinstance(e, ir.Expr):
        return any(costly(getattr(e, f), game, inlinable, cheap) for f in e.__dataclass_fields__)
    return False
