"""Which kinds of component each zone can ever hold: a tighter bound of a zone's size for the
work bound (dsl/work.py) than every component of the game.

A zone holds the kinds that start in it, and whatever a ``move`` or ``pick`` can bring into it
from elsewhere (a refill zone's cards too). What a moved expression can hold is found by a
flow-insensitive walk: each name (a loop's, a parameter's, a ``let``'s...) holds the union of
every value bound to a name so spelt anywhere in the rules, so that the answer stays an upper
bound however the rules pass cards around; a destination that is not written as a zone sends
the cards to every zone. The walk repeats until nothing grows (sets only grow: it ends), at
most MAX_ROUNDS times.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import ir
from .render import children

Kinds = frozenset[str]

#: Walks of the whole game before giving up (every zone may then hold every kind): each walk
#: carries what a name holds one call or move further, and the shipped games settle in at most
#: 7; a chain of a thousand functions passing cards down would take a thousand.
MAX_ROUNDS = 16

_TAKE = frozenset({"first", "top", "bottom", "sorted", "min_by", "max_by", "pairs"})


def zone_kinds(game: ir.Game) -> dict[str, Kinds]:
    """Zone name -> the kinds of component that can ever be in it (any of its piles)."""
    return _Flow(game).run()


class _Flow:
    def __init__(self, game: ir.Game) -> None:
        self.game = game
        self.all: Kinds = frozenset(game.kinds)
        self.holds: dict[str, set[str]] = {z: set() for z in game.zones}
        for k in game.kinds.values():
            if k.start in self.holds:
                self.holds[k.start].add(k.name)
        self.names: dict[tuple[str, str], set[str]] = {}  # (unit, name) -> kinds
        self.unit = ""  # the body being walked: its names are its own
        self.results: dict[str, set[str]] = {}  # function -> the kinds of its value
        self.changed = True

    def run(self) -> dict[str, Kinds]:
        roots = _roots(self.game)
        for _ in range(MAX_ROUNDS):
            if not self.changed:
                break
            self.changed = False
            for z in self.game.zones.values():
                if z.refill is not None and z.refill in self.holds:
                    self._add(self.holds[z.name], self.holds[z.refill])
            for t in self.game.triggers.values():
                self.unit = f"t:{t.name}"
                self._bind(t.var, frozenset({t.kind}) if t.kind else self._zone(t.zone))
            for self.unit, root in roots:
                for n in _walk(root):
                    self._node(n)
                if self.unit.startswith("f:"):  # what a call of the function gives
                    name = self.unit[2:]
                    self._add(self.results.setdefault(name, set()), self.kinds(root))
        if self.changed:  # (not settled: any zone may hold any kind, which is always true)
            return {z: self.all for z in self.holds}
        return {z: frozenset(k) for z, k in self.holds.items()}

    def _add(self, into: set[str], kinds: Any) -> None:
        if not set(kinds) <= into:
            into |= set(kinds)
            self.changed = True

    def _bind(self, name: str | None, kinds: Kinds, unit: str | None = None) -> None:
        if name is not None:
            key = (self.unit if unit is None else unit, name)
            self._add(self.names.setdefault(key, set()), kinds)

    def _zone(self, name: str) -> Kinds:
        return frozenset(self.holds.get(name, ()))

    def _into(self, dest: ir.Expr | None, kinds: Kinds) -> None:
        if dest is None or not kinds:
            return
        zones = self._dest_zones(dest)
        for z in list(self.holds) if zones is None else zones:  # (not by name: any of them)
            self._add(self.holds[z], kinds)

    def _dest_zones(self, dest: ir.Expr) -> list[str] | None:
        """The zones a destination can be: a zone's name, one of its piles, either branch of
        an ``if``; None for anything else (a local holding a zone, a call), which can be any
        zone, even beside a zone's name: ``z if c else bank``."""
        if isinstance(dest, ir.Index):
            dest = dest.obj
        if isinstance(dest, ir.Name):
            return [dest.id] if dest.id in self.holds else None
        if isinstance(dest, ir.Cond):
            a, b = self._dest_zones(dest.then), self._dest_zones(dest.orelse)
            return None if a is None or b is None else a + b
        return None

    def _node(self, n: Any) -> None:  # noqa: PLR0912 (one case per binding node)
        if isinstance(n, (ir.For, ir.Comprehension)):
            self._bind(n.var, self.kinds(n.iter))
        elif isinstance(n, ir.Option):
            if n.iter is not None:
                self._bind(n.var, self.kinds(n.iter))
        elif isinstance(n, ir.Let):
            self._bind(n.name, self.kinds(n.value))
        elif isinstance(n, ir.Pick):
            src = self.kinds(n.src)
            self._bind(n.var, src)
            self._bind(n.into, src)
            self._into(n.dest, src)
        elif isinstance(n, ir.Winner):
            self._bind(n.var, self.kinds(n.among))
            self._bind(n.into, self.kinds(n.among))
        elif isinstance(n, ir.Move):
            moved = self.kinds(n.items) if n.items is not None else self.kinds(n.src)
            if n.where is not None:
                self._bind(ir.MOVE_VAR, self.kinds(n.src))
            self._into(n.dest, moved)
        elif isinstance(n, (ir.Call, ir.CallProc)):
            name = n.func if isinstance(n, ir.Call) else n.name
            decl: Any = self.game.functions.get(name)
            unit = f"f:{name}"
            if isinstance(n, ir.CallProc):
                decl, unit = self.game.procedures.get(name), f"p:{name}"
            if decl is not None:
                for p, a in zip(decl.params, n.args, strict=False):
                    self._bind(p, self.kinds(a), unit)
            elif isinstance(n, ir.Call) and len(n.args) == 2 and isinstance(n.args[0], ir.BinOp):
                first = n.args[0]  # sorted(x in xs, key) and the like
                if first.op == "in" and isinstance(first.left, ir.Name):
                    self._bind(first.left.id, self.kinds(first.right))
        elif isinstance(n, ir.Assign):
            self._bind(n.name, self.kinds(n.value))

    def kinds(self, e: ir.Expr | None) -> Kinds:  # noqa: PLR0911 (one case per expression)
        """The kinds of the cards ``e`` can be or hold."""
        g = self.game
        if e is None or isinstance(e, ir.Const):
            return frozenset()
        if isinstance(e, ir.Name):
            if e.id in self.holds:
                return self._zone(e.id)
            if e.id in g.kinds:
                return frozenset({e.id})
            v = g.variables.get(e.id)
            if v is not None and v.type.startswith("card"):
                return frozenset({v.kind}) if v.kind else self.all
            return frozenset(self.names.get((self.unit, e.id), ()))
        if isinstance(e, ir.Index):
            return self.kinds(e.obj)
        if isinstance(e, ir.Attr):
            return frozenset(
                k.properties[e.name]
                for k in g.kinds.values()
                if k.properties.get(e.name) in g.kinds
            )
        if isinstance(e, ir.Comprehension):
            return self.kinds(e.elt)
        if isinstance(e, ir.ListLit):
            return frozenset().union(*(self.kinds(x) for x in e.items))
        if isinstance(e, ir.Cond):
            return self.kinds(e.then) | self.kinds(e.orelse)
        if isinstance(e, ir.BinOp):
            return self.kinds(e.left) | self.kinds(e.right) if e.op == "+" else frozenset()
        if isinstance(e, ir.Call):
            f = g.functions.get(e.func)
            if f is not None:  # (its body's names are its own: seen while walking it)
                return frozenset(self.results.get(e.func, ()))
            if e.func == "card":
                return self.all
            if e.func in _TAKE and e.args:
                first = e.args[0]
                if isinstance(first, ir.BinOp) and first.op == "in":
                    return self.kinds(first.right)
                return frozenset().union(*(self.kinds(a) for a in e.args))
            if e.func in ("min", "max") and len(e.args) == 1:
                return self.kinds(e.args[0])
        return frozenset()


def _roots(game: ir.Game) -> list[tuple[str, Any]]:
    """Every body, with the unit whose names it uses."""
    roots: list[tuple[str, Any]] = [("setup", game.setup), ("play", game.play)]
    roots += [("scoring", game.scoring)]
    roots += [(f"p:{p.name}", p.body) for p in game.procedures.values()]
    roots += [(f"f:{f.name}", f.body) for f in game.functions.values()]
    roots += [(f"t:{t.name}", t.body) for t in game.triggers.values()]
    roots += [(f"t:{t.name}", t.when) for t in game.triggers.values() if t.when is not None]
    roots += [(f"s:{v.name}", s.body) for v in game.variables.values() for s in v.spaces]
    roots += [(f"tie:{i}", t.key) for i, t in enumerate(game.tie_breakers)]
    roots += [(f"init:{v.name}", v.initial) for v in game.variables.values()]
    return roots


def _walk(node: Any) -> Iterator[Any]:
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(children(n))
