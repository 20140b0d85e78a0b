"""The work of one step, bounded: no rules file may make meeple compute for hours between two
decisions (docs/security.md, "The work of one step").

Two halves, so that both back ends agree by construction and the generated code pays nothing
per item:

- **Static** (``check_work``, run by ``meeple check`` and every load): an upper bound, in units,
  of what each expression and statement can do once. A comprehension (``any``, ``sum``,
  ``count``...), a ``for`` or a keyed built-in (``sorted(x in xs, key)``) over a source costs
  ``size(source) x (1 + cost of its body)``; a zone holds at most the cards of the kinds that
  can reach it (dsl/zonekinds.py), a kind its cards, ``players`` at most ``players.max`` seats,
  a number the bounds its constants, counts and tracks give it, a range with constant ends its
  length and any other range at most MAX_RANGE numbers (refused at run time past it,
  runtime/helpers.py), a parameter the largest argument given for it; a
  call of a function or procedure costs its body (the callee's bound, computed bottom-up over
  the call graph without Python recursion); a move also runs the triggers of its destination
  and an assignment to a track the effects of its spaces. A bound over MAX_STATIC_WORK is a
  CheckError at the smallest expression or statement that reaches it.
- **Charged** (at run time, identically on both back ends): what no static bound covers. Each
  pass of a ``while``/``repeat`` loop that asked no decision charges ``pass_cost`` (a constant
  computed here, at least MIN_CHARGE, which the generator writes as a literal) and each call
  of a function or procedure that is part of a call cycle charges ``unit_cost`` of its body (a
  call inside its own cycle counts 1 in that bound: it is charged when it happens); so does
  each firing of a trigger, and each space crossed on a track, that is part of such a cycle
  (a trigger's body moving cards into a zone whose trigger moves them back, a space's effect
  moving its own track's marker, through procedures or not), charged as it is set off: when its
  ``when`` held, before any body runs (runtime/ops.py ``fire``, runtime/tracks.py ``reach``,
  codegen/triggers.py for the triggers a playout runs as calls). Triggers and spaces outside
  every cycle charge nothing: their bodies are in the static bound of the move or the
  assignment that sets them off. The
  charges go to ``st.work``, the work since the last decision (``st.work_move`` is the
  ``st.move_number`` it counts from: a decision really asked moves ``move_number`` at the same
  point on both back ends); past MAX_STEP_WORK it is a RuleError at the loop or the call
  (runtime/helpers.py ``too_much_work``).

A cycle is one of the graph "this body can call that function or procedure, move a card into
that trigger's zone, assign that track": a move to a zone the generator cannot name (a local)
may reach every trigger, so the graph may hold cycles the game never runs; those charge too,
and only for the firings that happen.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from . import ir
from .builtins import BUILTINS
from .errors import CheckError
from .limits import MAX_RANGE, MAX_STATIC_WORK, MAX_STEP_CHARGES, MAX_STEP_WORK
from .render import children
from .zonekinds import zone_kinds

_SIZE_CAP = 10**9  # (a collected size: no larger, whatever lists concatenate)

#: The least a loop pass or a recursive call charges: at most MAX_STEP_CHARGES of them run
#: between two decisions, however little each does.
MIN_CHARGE = MAX_STEP_WORK // MAX_STEP_CHARGES

_ITEM_OF = frozenset({"first", "top", "bottom", "min_by", "max_by", "min", "max"})
_DECISIONS = (ir.Choose, ir.Pick, ir.Winner, ir.Auction)  # statements that may ask

Sizes = dict[str, Any]  # local -> the most items its list holds; '#local' -> its (lo, hi)


class Work:
    """The static costs of a checked game (see the module docstring).

    ``unit_cost[key]``: the bound of one run of a function (key ``f:NAME``), procedure
    (``p:NAME``), trigger (``t:NAME``) or a track's space effects (``s:VAR``); ``cyclic``: the
    keys that can run themselves again (a call cycle). ``pass_cost(loop)`` is one pass of a
    ``while``/``repeat``. Bounds are in units: about one evaluated node of the rules each.
    Building it raises CheckError where a bound exceeds MAX_STATIC_WORK.
    """

    def __init__(self, game: ir.Game) -> None:
        self.game = game
        # the most cards any zone or list of them holds: every component, laid out for the
        # largest player count (``game.components`` is laid out per player count, later)
        self.items = max(
            1,
            sum(
                i.count * (game.players_max if k.per_player else 1)
                for k in game.kinds.values()
                for i in k.items
            ),
        )
        self.seats = max(1, game.players_max)
        count = {
            k.name: sum(i.count for i in k.items) * (game.players_max if k.per_player else 1)
            for k in game.kinds.values()
        }
        self.kind_size = count
        self.zone_size = {z: sum(count[k] for k in ks) for z, ks in zone_kinds(game).items()}
        self.unit_cost: dict[str, int] = {}
        self.cyclic: set[str] = set()
        self._passes: dict[int, int] = {}  # id(loop) -> its pass cost
        self._current: frozenset[str] = frozenset()  # the cycle being costed
        self._units = _units(game)
        edges = {k: sorted(set(self._edges(body))) for k, body in self._units.items()}
        order = _components(edges)
        for scc in order:
            if len(scc) > 1 or scc[0] in edges[scc[0]]:
                self.cyclic |= set(scc)
        # the size and the bounds of each function's value, callees first (a long chain of
        # calls is then no deep Python recursion); first with any range as long as MAX_RANGE
        self.unknown = max(self.items, self.seats, MAX_RANGE)
        self._function_values(order)
        # the size of a list whose origin is not known here (a parameter's, an item of a list
        # of lists): at most every card, every seat, or the longest range or list written
        self.unknown = max(self.items, self.seats, *(_written_sizes(self, game)))
        self._function_values(order)
        # a parameter's list holds at most what the largest argument given for it holds:
        # found by a pass that only collects those sizes (over every call site, with its
        # locals' sizes), callers first, before the pass that checks; a parameter of a call
        # cycle not yet seen has the size of a list not known
        self.param_size: dict[str, dict[str, int]] = {}  # unit -> parameter -> size
        self._collect = True
        for root in _roots(game):  # callers first: a parameter's size is known when read
            self._root(root)
        for scc in order[::-1]:
            self._current = frozenset(scc)
            for k in scc:
                self._unit(k, self._units[k])
        self._collect = False
        self._costs(order, game)

    def _function_values(self, order: list[list[str]]) -> None:
        """``_fn_size`` and ``_fn_bounds`` of each function outside call cycles, callees first
        (what a call of one of them gives: ``size`` and ``bounds`` read them)."""
        self._fn_size: dict[str, int] = {}
        self._fn_bounds: dict[str, tuple[int | None, int | None]] = {}
        for scc in order:
            for k in scc:
                if k.startswith("f:") and k not in self.cyclic:
                    body = self.game.functions[k[2:]].body
                    self._fn_size[k] = self.size(body, {})
                    self._fn_bounds[k] = self.bounds(body, {})

    def _costs(self, order: list[list[str]], game: ir.Game) -> None:
        """Cost every unit, callees first, then what runs outside them."""
        for scc in order:
            self._current = frozenset(scc)
            for k in scc:
                self.unit_cost[k] = self._unit(k, self._units[k])
        self._current = frozenset()
        for root in _roots(game):
            self._root(root)

    def _argued(self, key: str, params: tuple[str, ...], args: Any, sizes: Sizes) -> None:
        """Note the size of each argument of a call of unit ``key`` (the collecting passes)."""
        if not self._collect:
            return
        known = self.param_size.setdefault(key, {})
        for p, a in zip(params, args, strict=False):
            known[p] = max(known.get(p, 0), min(self.size(a, sizes), _SIZE_CAP))

    # ------------------------------------------------------------------ public
    def pass_cost(self, loop: ir.Repeat | ir.While) -> int:
        """What both back ends charge for a pass of ``loop`` that asked no decision: the bound
        of one pass (its condition and its body), at least MIN_CHARGE."""
        cost = self._passes.get(id(loop))
        if cost is None:  # a loop the back end made itself (not in the checked game)
            cost = self._stmt(loop, {})
        return max(MIN_CHARGE, cost)

    def call_charge(self, key: str) -> int | None:
        """What a call of unit ``key`` (``f:NAME``, ``p:NAME``), a firing of trigger ``t:NAME``
        or a crossing of a space of track ``s:NAME`` charges at run time: its body's bound (at
        least MIN_CHARGE) when it is part of a cycle, else None (its cost is static)."""
        return max(MIN_CHARGE, self.unit_cost[key]) if key in self.cyclic else None

    def may_decide(self, node: Any) -> bool:
        """Can running ``node`` ask a decision (a choice, a pick, a winner's tie, an auction),
        itself or in what it calls or sets off? A loop whose body cannot is charged at each
        pass without looking at the move number it began at."""
        todo, seen = [node], set()
        while todo:
            body = todo.pop()
            if any(isinstance(n, _DECISIONS) for n in _walk(body)):
                return True
            for k in self._edges(body):
                if k not in seen:
                    seen.add(k)
                    todo.append(self._units[k])
        return False

    def _edges(self, body: Any) -> Iterator[str]:
        """The units ``body`` can run directly: calls, triggers of moves' destinations, space
        effects of assigned tracks."""
        todo = [body]
        while todo:
            n = todo.pop()
            if isinstance(n, ir.Call):
                for k in (f"f:{n.func}",):
                    if k in self._units:
                        yield k
            elif isinstance(n, ir.CallProc):
                yield f"p:{n.name}"
            elif isinstance(n, (ir.Move, ir.Pick)):
                yield from self._triggers(n.dest)
            elif isinstance(n, ir.Assign) and f"s:{n.name}" in self._units:
                yield f"s:{n.name}"
            todo.extend(_children(n))

    def _triggers(self, dest: ir.Expr | None) -> list[str]:
        """The triggers a card arriving in ``dest`` may set off: those of the zones it names
        (``a if c else b``: both), all of them where it names none."""
        if dest is None:
            return []
        zones = {n.id for n in _walk(dest) if isinstance(n, ir.Name) and n.id in self.game.zones}
        return [f"t:{t.name}" for t in self.game.triggers.values() if not zones or t.zone in zones]

    def _unit(self, key: str, body: Any) -> int:
        sizes: Sizes = dict(self.param_size.get(key, {}))
        if isinstance(body, ir.Expr):
            return self._bounded(self.expr(body, sizes), body.span)
        if isinstance(body, tuple):  # a trigger: (when, body)
            when, block = body
            return (self.expr(when, {}) if when is not None else 0) + self.stmt(block, {})
        if isinstance(body, list):  # a track's spaces: any of them may run in one assignment
            return sum(self.stmt(b, {}) for b in body)
        return self.stmt(body, sizes)

    def _root(self, node: Any) -> None:
        if isinstance(node, ir.Expr):
            self.expr(node, {})
        else:
            self.stmt(node, {})

    def _call(self, key: str) -> int:
        """A call's bound: the callee's body, or 1 for one inside its own cycle or in any
        cycle (charged at run time)."""
        if key in self._current or key in self.cyclic or key not in self.unit_cost:
            return 1
        return self.unit_cost[key]

    def _bounded(self, cost: int, span: Any) -> int:
        if cost > MAX_STATIC_WORK and not self._collect:
            raise CheckError(
                f"this can do up to {cost:,} units of work in one step, more than the "
                f"{MAX_STATIC_WORK:,} allowed (MAX_STATIC_WORK, docs/security.md)",
                span,
                suggestion="loop over fewer items (a zone, players or a short range), or nest "
                "fewer comprehensions and loops inside one another",
            )
        return cost

    # ------------------------------------------------------------------ sizes
    def size(self, e: ir.Expr | None, sizes: Sizes) -> int:
        """The most items the list or zone ``e`` can hold."""
        if e is None:
            return self.items
        if isinstance(e, ir.Name):
            if e.id in sizes:
                return int(sizes[e.id])
            if e.id == "players":
                return self.seats
            if e.id in self.zone_size:
                return self.zone_size[e.id]
            if e.id in self.kind_size:
                return self.kind_size[e.id]
            v = self.game.variables.get(e.id)
            if e.id in self.game.constants or (v is not None and not v.type.startswith("list")):
                return 1
            return self.unknown
        if isinstance(e, ir.Index) and isinstance(e.obj, ir.Name) and e.obj.id in self.zone_size:
            return self.zone_size[e.obj.id]
        if isinstance(e, ir.ListLit):
            return len(e.items)
        if isinstance(e, ir.Comprehension):
            return self.size(e.iter, sizes)
        if isinstance(e, ir.BinOp):
            if e.op == "..":
                lo, hi = self.bounds(e.left, sizes)[0], self.bounds(e.right, sizes)[1]
                if lo is not None and hi is not None:
                    return max(0, min(hi - lo + 1, MAX_RANGE))
                return MAX_RANGE
            if e.op == "+":
                return self.size(e.left, sizes) + self.size(e.right, sizes)
        if isinstance(e, ir.Cond):
            return max(self.size(e.then, sizes), self.size(e.orelse, sizes))
        if isinstance(e, ir.Call):
            return self._call_size(e, sizes)
        if isinstance(e, ir.Name):
            return self.unknown
        return self.items  # a zone's pile (``hand[p]``), a table's column

    def _call_size(self, e: ir.Call, sizes: Sizes) -> int:
        if e.func in self.game.functions:  # (a call cycle's, or one not yet seen: not known)
            return self._fn_size.get(f"f:{e.func}", self.unknown)
        if e.func in ("clockwise_from", "others", "track_order", "majority:holders"):
            return self.seats
        if e.func == "sorted" and isinstance(e.args[0], ir.BinOp):
            return self.size(e.args[0].right, sizes)
        if e.func == "pairs":
            return min(self.size(a, sizes) for a in e.args)
        if e.func in _ITEM_OF and e.args:  # an item: a list only in a list of lists
            first = e.args[0]
            if isinstance(first, ir.BinOp) and first.op == "in":
                first = first.right
            return self._elem_size(first, sizes)
        return 1  # a number, a card, a seat, a text

    def _elem_size(self, e: ir.Expr | None, sizes: Sizes) -> int:
        """The most items an item of the list ``e`` holds, when it is a list (1 for a card, a
        seat or a number)."""
        if isinstance(e, ir.ListLit):
            return max((self.size(x, sizes) for x in e.items if _listy(x)), default=1)
        if isinstance(e, ir.Comprehension):
            return self.size(e.elt, sizes) if _listy(e.elt) else 1
        if isinstance(e, ir.Call) and e.func == "pairs":
            return 2
        if isinstance(e, ir.Call) and e.func in self.game.functions:
            return self.unknown  # (a function's list of lists: not followed)
        return 1

    def bounds(self, e: ir.Expr, sizes: Sizes) -> tuple[int | None, int | None]:
        """The least and the greatest value the number ``e`` can have (None: not known), from
        constants, the player count, zone sizes, tracks' ends and the arithmetic between."""
        if isinstance(e, ir.Const):
            v = e.value
            return (v, v) if type(v) is int else (None, None)
        if isinstance(e, ir.Name):
            if f"#{e.id}" in sizes:
                return sizes[f"#{e.id}"]  # type: ignore[return-value]
            if e.id in sizes:
                return (None, None)
            if e.id in self.game.constants:
                return self._pair(self._int(e))
            if e.id == "num_players":
                return (self.game.players_min, self.game.players_max)
            v = self.game.variables.get(e.id)
            if v is not None and v.per is None:
                return (v.min, v.max)
            return (None, None)
        if isinstance(e, ir.Index) and isinstance(e.obj, ir.Name):
            v = self.game.variables.get(e.obj.id)
            return (v.min, v.max) if v is not None else (None, None)
        if isinstance(e, ir.Unary) and e.op == "-":
            lo, hi = self.bounds(e.operand, sizes)
            return (None if hi is None else -hi, None if lo is None else -lo)
        if isinstance(e, ir.Cond):
            (a, b), (c, d) = self.bounds(e.then, sizes), self.bounds(e.orelse, sizes)
            return (_opt(min, a, c), _opt(max, b, d))
        if isinstance(e, ir.BinOp):
            return self._bin_bounds(e, sizes)
        if isinstance(e, ir.Call):
            return self._call_bounds(e, sizes)
        return (None, None)

    def _bin_bounds(self, e: ir.BinOp, sizes: Sizes) -> tuple[int | None, int | None]:
        (a, b), (c, d) = self.bounds(e.left, sizes), self.bounds(e.right, sizes)
        if e.op == "+":
            return (_sum(a, c), _sum(b, d))
        if e.op == "-":
            return (_sum(a, None if d is None else -d), _sum(b, None if c is None else -c))
        if e.op == "*" and None not in (a, b, c, d):
            products = [x * y for x in (a, b) for y in (c, d)]  # type: ignore[operator]
            return (min(products), max(products))
        if e.op == "//" and c is not None and c == d and c > 0:
            return (None if a is None else a // c, None if b is None else b // c)
        return (None, None)

    def _call_bounds(self, e: ir.Call, sizes: Sizes) -> tuple[int | None, int | None]:
        if e.func in ("count", "len") and len(e.args) == 1:
            return (0, self.size(e.args[0], sizes))
        if e.func in ("min", "max") and len(e.args) > 1:
            pairs = [self.bounds(a, sizes) for a in e.args]
            pick = min if e.func == "min" else max
            los, his = [p[0] for p in pairs], [p[1] for p in pairs]
            if e.func == "min":
                return (_all(pick, los), _any(pick, his))
            return (_any(pick, los), _all(pick, his))
        if e.func == "sum" and len(e.args) == 1 and isinstance(e.args[0], ir.Comprehension):
            c = e.args[0]
            inner = _without(sizes, c.var, self._elem_size(c.iter, sizes))
            lo, hi = self.bounds(c.elt, inner)
            n = self.size(c.iter, sizes)
            return (
                None if lo is None else min(0, lo * n),
                None if hi is None else max(0, hi * n),
            )
        # a function's value (its parameters' bounds not known): a call cycle's is not known
        return self._fn_bounds.get(f"f:{e.func}", (None, None))

    @staticmethod
    def _pair(v: int | None) -> tuple[int | None, int | None]:
        return (v, v)

    def _int(self, e: ir.Expr) -> int | None:
        if isinstance(e, ir.Const) and type(e.value) is int:
            return int(e.value)
        if isinstance(e, ir.Name) and e.id in self.game.constants:
            c = self.game.constants[e.id].value
            return int(c) if type(c) is int else None
        if isinstance(e, ir.Unary) and e.op == "-":
            v = self._int(e.operand)
            return None if v is None else -v
        return None

    # ------------------------------------------------------------------ expressions
    def expr(self, e: ir.Expr | None, sizes: Sizes) -> int:
        """The bound of one evaluation of ``e``; CheckError at ``e`` past MAX_STATIC_WORK."""
        if e is None:
            return 0
        return self._bounded(self._expr(e, sizes), e.span)

    def _expr(self, e: ir.Expr, sizes: Sizes) -> int:
        if isinstance(e, (ir.Const, ir.Name)):
            return 1
        if isinstance(e, ir.Comprehension):
            inner = _without(sizes, e.var, self._elem_size(e.iter, sizes))
            body = self.expr(e.cond, inner) + self.expr(e.elt, inner)
            return self.expr(e.iter, sizes) + self.size(e.iter, sizes) * (1 + body)
        if isinstance(e, ir.Cond):
            return (
                1
                + self.expr(e.test, sizes)
                + max(self.expr(e.then, sizes), self.expr(e.orelse, sizes))
            )
        if isinstance(e, ir.BinOp) and e.op == "..":
            return 1 + self.expr(e.left, sizes) + self.expr(e.right, sizes) + self.size(e, sizes)
        if isinstance(e, ir.Call):
            return self._call_expr(e, sizes)
        return 1 + sum(self.expr(c, sizes) for c in _children(e) if isinstance(c, ir.Expr))

    def _call_expr(self, e: ir.Call, sizes: Sizes) -> int:
        args = list(e.args) + [v for _, v in e.kwargs]
        b = BUILTINS.get(e.func)
        if b is not None and b.binds and len(e.args) == 2:
            first, key = e.args
            if isinstance(first, ir.BinOp) and isinstance(first.left, ir.Name):
                items = first.right
                inner = _without(sizes, first.left.id, self._elem_size(items, sizes))
                return (
                    1
                    + self.expr(items, sizes)
                    + self.size(items, sizes) * (1 + self.expr(key, inner))
                )
        cost = 1 + sum(self.expr(a, sizes) for a in args)
        if e.func in self.game.functions:
            self._argued(f"f:{e.func}", self.game.functions[e.func].params, e.args, sizes)
            cost += self._call(f"f:{e.func}")
        return cost

    # ------------------------------------------------------------------ statements
    def stmt(self, s: Any, sizes: Sizes) -> int:
        """The bound of one run of statement ``s``; CheckError at ``s`` past MAX_STATIC_WORK."""
        if s is None:
            return 0
        return self._bounded(self._stmt(s, sizes), s.span)

    def _block(self, b: ir.Block, sizes: Sizes) -> int:
        inner, total = dict(sizes), 0
        for s in b.stmts:
            total += self.stmt(s, inner)
            if isinstance(s, ir.Let):
                inner[s.name] = self.size(s.value, inner)
                inner[f"#{s.name}"] = self.bounds(s.value, inner)  # type: ignore[assignment]
            elif isinstance(s, ir.Pick) and s.into:
                inner[s.into] = self.size(s.src, inner)
            elif isinstance(s, ir.Winner):
                inner.pop(s.into, None)
        return self._bounded(total, b.span)

    def _fire(self, dest: ir.Expr | None) -> int:
        return sum(self._call(k) for k in self._triggers(dest))

    def _stmt(self, s: Any, sizes: Sizes) -> int:  # noqa: PLR0911 (one case per statement)
        if isinstance(s, ir.Block):
            return self._block(s, sizes)
        if isinstance(s, ir.If):
            tests = self.expr(s.test, sizes) + sum(self.expr(b.test, sizes) for b in s.elifs)
            branches = [s.then, *(b.then for b in s.elifs), s.orelse]
            return 1 + tests + max(self.stmt(b, sizes) for b in branches)
        if isinstance(s, ir.For):
            inner = _without(sizes, s.var, self._elem_size(s.iter, sizes))
            each = 1 + self.stmt(s.body, inner)
            return self.expr(s.iter, sizes) + self.size(s.iter, sizes) * each
        if isinstance(s, (ir.Repeat, ir.While)):
            test = s.until if isinstance(s, ir.Repeat) else s.test
            cost = self._bounded(1 + self.expr(test, sizes) + self.stmt(s.body, sizes), s.span)
            self._passes[id(s)] = cost
            return cost
        if isinstance(s, ir.Move):
            moved = self.size(s.items, sizes) if s.items is not None else self._count(s.count)
            scanned = self.size(s.src, sizes) if s.where is not None else 0
            exprs = sum(self.expr(x, sizes) for x in (s.items, s.count, s.src, s.dest))
            inner = _without(sizes, ir.MOVE_VAR)
            return (
                1
                + exprs
                + scanned * (1 + self.expr(s.where, inner))
                + moved * (1 + self._fire(s.dest))
            )
        if isinstance(s, ir.Shuffle):
            return 1 + self.expr(s.zone, sizes) + self.items
        if isinstance(s, ir.CallProc):
            self._argued(f"p:{s.name}", self.game.procedures[s.name].params, s.args, sizes)
            return 1 + sum(self.expr(a, sizes) for a in s.args) + self._call(f"p:{s.name}")
        if isinstance(s, ir.Assign):
            spaces = self._call(f"s:{s.name}") if f"s:{s.name}" in self._units else 0
            return 1 + self.expr(s.index, sizes) + self.expr(s.value, sizes) + spaces
        if isinstance(s, ir.Choose):
            cost = 1 + self.expr(s.player, sizes) + self._parts(s.prompt, sizes)
            bodies = 0
            for o in s.options:
                inner = _without(sizes, o.var, self._elem_size(o.iter, sizes))
                one = 1 + self._parts(o.label, inner) + self.expr(o.when, inner)
                if o.iter is not None:
                    cost += self.expr(o.iter, sizes) + self.size(o.iter, sizes) * one
                else:
                    cost += one
                bodies = max(bodies, self.stmt(o.body, inner))
            return cost + bodies
        if isinstance(s, ir.Pick):
            inner = _without(sizes, s.var)
            exprs = sum(self.expr(x, sizes) for x in (s.player, s.src, s.dest, s.min, s.max))
            each = 1 + self.expr(s.where, inner)
            return (
                1
                + exprs
                + self._parts(s.prompt, sizes)
                + self.size(s.src, sizes) * each
                + self._fire(s.dest)
            )
        if isinstance(s, ir.Winner):
            inner = _without(sizes, s.var)
            among = self.expr(s.among, sizes) + self.expr(s.chooser, sizes)
            return 1 + among + self.size(s.among, sizes) * (1 + self.expr(s.strength, inner))
        if isinstance(s, ir.Log):
            return 1 + self._parts(s.parts, sizes)
        # let, end game, eliminate, and any statement added later: its expressions once
        return 1 + sum(
            self.expr(c, sizes) if isinstance(c, ir.Expr) else self.stmt(c, sizes)
            for c in _children(s)
            if isinstance(c, (ir.Expr, ir.Stmt))
        )

    def _parts(self, parts: Iterable[Any], sizes: Sizes) -> int:
        return sum(self.expr(p, sizes) for p in parts if isinstance(p, ir.Expr))

    def _count(self, e: ir.Expr | None) -> int:
        n = self._int(e) if e is not None else None
        return self.items if n is None else max(0, min(n, self.items))


def check_work(game: ir.Game) -> Work:
    """The static work bounds of ``game`` (see Work); raises CheckError at the first expression
    or statement whose bound exceeds MAX_STATIC_WORK."""
    return Work(game)


def _without(sizes: Sizes, var: str | None, item: int = 1) -> Sizes:
    """``sizes`` inside a loop whose variable ``var`` hides a local: an item, which is a list
    of at most ``item`` items where the loop goes over a list of lists."""
    out = {k: v for k, v in sizes.items() if k != f"#{var}"}
    if var is not None:
        out[var] = item
    return out


def _listy(e: ir.Expr) -> bool:
    """Is ``e`` written as a list (a list, a comprehension, a range, a call giving one)?"""
    return isinstance(e, (ir.ListLit, ir.Comprehension, ir.Call)) or (
        isinstance(e, ir.BinOp) and e.op in ("..", "+")
    )


def _opt(f: Any, a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else f(a, b)


def _sum(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _all(f: Any, xs: list[int | None]) -> int | None:
    """f of every value, None if one is not known."""
    return None if any(x is None for x in xs) else f(xs)


def _any(f: Any, xs: list[int | None]) -> int | None:
    """f of the known values (min of upper bounds needs only one), None if none is known."""
    known = [x for x in xs if x is not None]
    return f(known) if known else None


def _children(n: Any) -> list[Any]:
    """The IR nodes directly inside ``n``; a unit's body may be a tuple or list of them."""
    if isinstance(n, (tuple, list)):
        return [x for x in n if x is not None]
    return list(children(n))


def _written_sizes(w: Work, game: ir.Game) -> Iterator[int]:
    """The size of each range and list literal written in the rules."""
    for root in [*_units(game).values(), *_roots(game)]:
        for n in _walk(root):
            if isinstance(n, ir.ListLit):
                yield len(n.items)
            elif isinstance(n, ir.BinOp) and n.op == "..":
                yield w.size(n, {})


def _walk(e: Any) -> Iterator[Any]:
    todo = [e]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(_children(n))


def _units(game: ir.Game) -> dict[str, Any]:
    """Every body that runs as a unit: functions, procedures, triggers, tracks' space effects."""
    units: dict[str, Any] = {f"f:{f.name}": f.body for f in game.functions.values()}
    units.update({f"p:{p.name}": p.body for p in game.procedures.values()})
    units.update({f"t:{t.name}": (t.when, t.body) for t in game.triggers.values()})
    for v in game.variables.values():
        if v.spaces:
            units[f"s:{v.name}"] = [s.body for s in v.spaces]
    return units


def _roots(game: ir.Game) -> list[Any]:
    """What runs outside every unit: setup, play, scoring, tie-breakers, initial values."""
    roots: list[Any] = [game.setup, game.play, game.scoring]
    roots += [t.key for t in game.tie_breakers] + [v.initial for v in game.variables.values()]
    return roots


def _components(edges: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of ``edges``, callees before callers (Tarjan's
    algorithm without Python recursion: a chain of hundreds of calls is no problem)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in edges:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(edges[nxt])))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                scc = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    scc.append(w)
                    if w == node:
                        break
                out.append(scc)
    return out
