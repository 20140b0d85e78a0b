"""A checked game compiled for one player count: card list, zone layout, ops and action sites."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.dsl import ir
from meeple.dsl.checker import Checked
from meeple.dsl.errors import MeepleError, RuleError

from . import ops
from .evaluate import ExprCompiler, Fn, PatternTable
from .values import Card, formatter

_INT_DOMAIN = 64


class Program:
    """Everything about a game that does not change while it is played.

    ``cards``: the components, in kind order (per-player kinds expanded seat by seat);
    ``zone_base[name]``: index of the zone (or of its first pile) in State.zones;
    ``ops``: every compiled statement, by uid; ``num_distinct_actions``: size of the action space.
    """

    def __init__(self, checked: Checked, num_players: int) -> None:
        g = checked.game
        if not g.players_min <= num_players <= g.players_max:
            raise MeepleError(
                f"{g.name} is for {g.players_min} to {g.players_max} players, not {num_players}"
            )
        self.checked, self.game, self.num_players = checked, g, num_players
        self._layout_cards()
        self._layout_zones()
        self.static_names: dict[str, Any] = {k: self.kind_cards[k] for k in g.kinds}
        self.pattern_tables = {n: PatternTable(t) for n, t in g.tables.items()}
        self.static_names.update(self.pattern_tables)
        self.ops: list[ops.Op] = []
        self.next_action = 0
        self._function_cells: dict[str, list[Fn]] = {}
        self.ex = ExprCompiler(self)
        self.proc_blocks = {n: self._new_block(p.body) for n, p in g.procedures.items()}
        for n, p in g.procedures.items():
            self._fill_block(self.proc_blocks[n], p.body)
        self.setup = self.block(g.setup)
        self.play = self.block(g.play)
        self.scoring = self.block(g.scoring)
        self.tie_breakers = [self.ex.compile(t.key) for t in g.tie_breakers]
        self.var_initial = {n: self.ex.compile(v.initial) for n, v in g.variables.items()}
        self.num_distinct_actions = self.next_action

    # ------------------------------------------------------------------ layout
    def _layout_cards(self) -> None:
        g = self.game
        self.cards: list[Card] = []
        self.kind_cards: dict[str, list[Card]] = {}
        self.card_start: list[tuple[str, int | None]] = []
        keys: dict[tuple[str, str], Card] = {}
        self.num_card_types = 0
        for kind in g.kinds.values():
            seats: list[int | None] = list(range(self.num_players)) if kind.per_player else [None]
            lst: list[Card] = []
            for seat in seats:
                for item in kind.items:
                    type_id = self.num_card_types
                    self.num_card_types += 1
                    for _ in range(item.count):
                        props = dict(item.props)
                        c = Card(
                            len(self.cards),
                            kind.name,
                            item.key,
                            item.name,
                            seat,
                            len(lst),
                            props,
                            type_id,
                        )
                        self.cards.append(c)
                        lst.append(c)
                        keys.setdefault((kind.name, item.key), c)
                        self.card_start.append((kind.start or "", seat))
            self.kind_cards[kind.name] = lst
        for c in self.cards:  # resolve references between kinds (a day card's district)
            for p, t in g.kinds[c.kind].properties.items():
                if t in g.kinds:
                    ref = keys[(t, str(c.props[p]))]
                    c.props[p] = ref
                    setattr(c, p, ref)

    def _layout_zones(self) -> None:
        g = self.game
        self.zone_base: dict[str, int] = {}
        self.zone_names: list[str] = []
        self.zone_owner: list[int | None] = []
        self.zone_vis: list[str] = []
        self.zone_decl: list[ir.ZoneDecl] = []
        for z in g.zones.values():
            self.zone_base[z.name] = len(self.zone_names)
            if z.per is None:
                keys: list[tuple[str, int | None]] = [(z.name, None)]
            elif z.per == "players":
                keys = [(f"{z.name}[P{s + 1}]", s) for s in range(self.num_players)]
            else:
                keys = [(f"{z.name}[{c.name}]", None) for c in self.kind_cards[z.per]]
            for label, owner in keys:
                self.zone_names.append(label)
                self.zone_owner.append(owner)
                self.zone_vis.append(z.visibility)
                self.zone_decl.append(z)
        self.refill_of: list[int | None] = [
            self.zone_base[d.refill] if d.refill else None for d in self.zone_decl
        ]

    def card_by_key(self, key: str) -> Card:
        """The first card of the item with this key (for ``card('boneyard')``)."""
        for c in self.cards:
            if c.key == key:
                return c
        raise MeepleError(f"no card has the key '{key}'")

    def start_zone(self, card: Card) -> int:
        name, seat = self.card_start[card.id]
        return self.zone_base[name] + (seat or 0)

    # ------------------------------------------------------------------ compile
    def function_cell(self, name: str) -> list[Fn]:
        """A one-slot cell holding the compiled function (allows recursion and any order)."""
        cell = self._function_cells.get(name)
        if cell is None:
            cell = [lambda st, env: None]
            self._function_cells[name] = cell
            cell[0] = self.ex.compile(self.game.functions[name].body)
        return cell

    def _register(self, op: ops.Op) -> ops.Op:
        op.uid = len(self.ops)
        self.ops.append(op)
        return op

    def _site(self, domain: str) -> ops.Site:
        size = {
            "card": self.num_card_types + 1,
            "player": self.game.players_max,
            "int": _INT_DOMAIN,
        }.get(domain, 1)
        site = ops.Site(self.next_action, domain)
        self.next_action += size
        return site

    def _domain(self, t: str) -> str:
        t = t[5:] if t.startswith("list:") else ("card" if t == "zone" else t)
        return t if t in ("card", "player", "int") else "any"

    def _new_block(self, b: ir.Block) -> ops.BlockOp:
        op = ops.BlockOp(b.span, b.source)
        self._register(op)
        return op

    def _fill_block(self, op: ops.BlockOp, b: ir.Block) -> None:
        op.stmts = [self.stmt(s) for s in b.stmts]

    def block(self, b: ir.Block) -> ops.BlockOp:
        op = self._new_block(b)
        self._fill_block(op, b)
        return op

    def stmt(self, s: ir.Stmt) -> ops.Op:
        op: ops.Op = getattr(self, "_s_" + type(s).__name__)(s)
        if op.uid < 0:
            self._register(op)
        return op

    def _s_Block(self, s: ir.Block) -> ops.Op:
        return self.block(s)

    def _simple(self, s: ir.Stmt, run: Callable[[Any, dict[str, Any]], None]) -> ops.Op:
        return ops.SimpleOp(s.span, run)

    def _s_Let(self, s: ir.Let) -> ops.Op:
        f, n = self.ex.compile(s.value), s.name

        def run(st: Any, env: dict[str, Any]) -> None:
            env[n] = f(st, env)

        return self._simple(s, run)

    def _s_Assign(self, s: ir.Assign) -> ops.Op:
        f, n, decl = self.ex.compile(s.value), s.name, self.game.variables[s.name]
        idx = self.ex.var_index(s.name, s.index, s.span) if s.index is not None else None
        lo, hi, op = decl.min, decl.max, s.op

        def run(st: Any, env: dict[str, Any]) -> None:
            v = f(st, env)
            old = st.vars[n] if idx is None else st.vars[n][idx(st, env)]
            new = v if op == "=" else old + v if op == "+=" else old - v
            if hi is not None and new > hi:
                new = hi  # a capped track: the excess is lost
            if lo is not None and new < lo:
                raise RuleError(f"'{n}' would fall to {new}, below its minimum {lo}", s.span)
            if idx is None:
                st.vars[n] = new
            else:
                st.vars[n][idx(st, env)] = new

        return self._simple(s, run)

    def _s_Move(self, s: ir.Move) -> ops.Op:
        dest, bottom = self.ex.zone_ref(s.dest), s.bottom
        if s.count is not None:
            count, src = self.ex.compile(s.count), self.ex.zone_ref(s.src)  # type: ignore[arg-type]

            def run_count(st: Any, env: dict[str, Any]) -> None:
                st.move_count(count(st, env), src(st, env), dest(st, env), bottom, s.span)

            return self._simple(s, run_count)
        items = self.ex.compile(s.items)  # type: ignore[arg-type]

        def run_items(st: Any, env: dict[str, Any]) -> None:
            what = items(st, env)
            d = dest(st, env)
            if isinstance(what, Card):
                st.move(what, d, bottom)
            else:
                for c in list(what):
                    st.move(c, d, bottom)

        return self._simple(s, run_items)

    def _s_Shuffle(self, s: ir.Shuffle) -> ops.Op:
        z = self.ex.zone_ref(s.zone)
        return self._simple(s, lambda st, env: st.shuffle(z(st, env)))

    def _s_EndGame(self, s: ir.EndGame) -> ops.Op:
        return self._simple(s, lambda st, env: st.end_game())

    def _s_Log(self, s: ir.Log) -> ops.Op:
        text = self.ex.template(s.parts)

        def run(st: Any, env: dict[str, Any]) -> None:
            if st.record_log:
                st.log_line(text(st, env), -1)  # narration is public; decisions may be secret

        return self._simple(s, run)

    def _s_CallProc(self, s: ir.CallProc) -> ops.Op:
        p = self.game.procedures[s.name]
        return ops.CallOp(
            s.span, self.proc_blocks[s.name], p.params, [self.ex.compile(a) for a in s.args]
        )

    def _s_If(self, s: ir.If) -> ops.Op:
        orelse = self.block(s.orelse) if s.orelse is not None else None
        return ops.IfOp(s.span, self.ex.compile(s.test), self.block(s.then), orelse)

    def _s_For(self, s: ir.For) -> ops.Op:
        return ops.ForOp(s.span, s.var, self.ex.compile(s.iter), self.block(s.body), s.secret)

    def _s_Repeat(self, s: ir.Repeat) -> ops.Op:
        return ops.RepeatOp(s.span, self.block(s.body), self.ex.compile(s.until), False)

    def _s_While(self, s: ir.While) -> ops.Op:
        return ops.RepeatOp(s.span, self.block(s.body), self.ex.compile(s.test), True)

    def _s_Choose(self, s: ir.Choose) -> ops.Op:
        options = []
        for o in s.options:
            if o.var is None:
                site = self._site("fixed")
                items = None
            else:
                assert o.iter is not None
                dom = self._domain(self.ex.type_of(o.iter))
                if dom == "any":
                    raise MeepleError(
                        "options can range over cards, players or numbers only", o.iter.span
                    )
                site = self._site(dom)
                items = self.ex.compile(o.iter)
            options.append(
                ops.OptionOp(
                    site,
                    self.ex.template(o.label),
                    o.var,
                    items,
                    self.ex.compile(o.when) if o.when is not None else None,
                    self.block(o.body),
                )
            )
        return ops.ChooseOp(
            s.span, self.ex.compile(s.player), self.ex.template(s.prompt), options, s.secret
        )

    def _s_Pick(self, s: ir.Pick) -> ops.Op:
        c = self.ex.compile
        return ops.PickOp(
            s.span,
            c(s.player),
            self.ex.template(s.prompt),
            s.var,
            c(s.src),
            self.ex.zone_ref(s.dest) if s.dest is not None else None,
            c(s.min),
            c(s.max) if s.max is not None else None,
            c(s.where) if s.where is not None else None,
            s.into,
            s.secret,
            self._site("card"),
        )

    def _s_Winner(self, s: ir.Winner) -> ops.Op:
        t = self.ex.type_of(s.among)
        dom = self._domain(t)
        return ops.WinnerOp(
            s.span,
            s.var,
            self.ex.compile(s.among),
            self.ex.compile(s.strength),
            self.ex.compile(s.chooser) if s.chooser is not None else None,
            s.not_self,
            s.into,
            self.ex.template(s.prompt),
            self._site(dom),
            formatter(dom),
        )
