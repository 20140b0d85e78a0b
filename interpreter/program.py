"""A checked game compiled for one player count: card list, zone layout, ops and action sites."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.dsl import cardkinds, ir
from meeple.dsl.checker import Checked, may_be_zone
from meeple.dsl.errors import MeepleError
from meeple.dsl.limits import MAX_NUMBER
from meeple.dsl.numbering import Numbering, number, site_domain
from meeple.dsl.specs import kind_specs, leaf_functions, wrap_size, zone_specs
from meeple.dsl.tracks import bounded
from meeple.dsl.work import check_work
from meeple.runtime import ops
from meeple.runtime.datatable import DataTableRT
from meeple.runtime.helpers import MISSING, PatternTable, restore_local, too_large, typed
from meeple.runtime.layout import ProgramBase, VarSpec, site_size
from meeple.runtime.position import turn_line
from meeple.runtime.tracks import Spaces, reach
from meeple.runtime.values import formatter

from .evaluate import ExprCompiler, Fn


class Program(ProgramBase):
    """Everything about a game that does not change while it is played: the layout (cards and
    zones, see Layout), ``ops``: every compiled statement, by uid; ``num_distinct_actions``: size
    of the action space.
    """

    def __init__(self, checked: Checked, num_players: int) -> None:
        g = checked.game
        if not g.players_min <= num_players <= g.players_max:
            raise MeepleError(
                f"{g.name} is for {g.players_min} to {g.players_max} players, not {num_players}"
            )
        self.checked, self.game = checked, g
        if checked.work is None:  # (a Checked made without check(): its work bounds now)
            checked.work = check_work(g)
        super().__init__(kind_specs(g), zone_specs(g), num_players)
        self.game_id, self.game_name = g.id, g.name
        self.players_max = g.players_max
        self.tie_breaker_spans = [t.span for t in g.tie_breakers]
        self.var_specs = var_specs(checked)
        self.local_types = checked.fixed_local_types()
        self.zone_locals = checked.zone_locals()
        self.static_names: dict[str, Any] = {k: self.kind_cards[k] for k in g.kinds}
        self.pattern_tables = {
            n: PatternTable(t.group_by, t.patterns, t.labels) for n, t in g.tables.items()
        }
        self.static_names.update(self.pattern_tables)
        self.data_tables = {
            n: DataTableRT.build(DataTableRT.data(t, g.kinds), self.card_by_key)
            for n, t in g.data_tables.items()
        }
        # a constant's name reads its value, folded where the expression is compiled
        self.static_names.update({n: c.value for n, c in g.constants.items()})
        # uids and action sites come from the front end's numbering (dsl/numbering.py), the one
        # the code generator writes too; the ops are put in their places as they are compiled
        self.numbering: Numbering = number(checked, num_players, self)
        self.ops: list[ops.Op] = [None] * self.numbering.num_ops  # type: ignore[list-item]
        self.op_of: dict[int, ops.Op] = {}  # id(IR statement) -> its op, for the AI adapters
        self.site_domains: list[str] = list(self.numbering.site_domains)
        self.next_action = self.numbering.num_distinct_actions
        self._function_cells: dict[str, list[Fn]] = {}
        self.ex = ExprCompiler(self)
        self.triggers_at: dict[int, list[ops.TriggerRule]] = {}  # filled once all is compiled
        self.leaf_functions = leaf_functions(g)
        # a track's spaces: made before any statement is compiled (an assignment to the track
        # runs them), their bodies compiled below (a body may move the same track)
        self.spaces_of = {n: Spaces([], wrap_size(v)) for n, v in g.variables.items() if v.spaces}
        self.proc_blocks = {n: self._new_block(p.body) for n, p in g.procedures.items()}
        self.proc_names = {
            b.uid: f"procedure {n} ({g.procedures[n].span})" for n, b in self.proc_blocks.items()
        }
        for n, p in g.procedures.items():
            self._fill_block(self.proc_blocks[n], p.body)
        for t in g.triggers.values():
            rule = ops.TriggerRule(
                t.kind,
                t.var,
                self.ex.compile(t.when) if t.when else None,
                self.block(t.body),
                checked.work.call_charge(f"t:{t.name}"),
            )
            base = self.zone_base[t.zone]
            for zi in range(base, base + self.zone_piles[t.zone]):
                self.triggers_at.setdefault(zi, []).append(rule)
        for n, spaces in self.spaces_of.items():
            spaces.edges = [
                (
                    s.at + (s.when == "passed"),
                    s.when == "reached",
                    rule_of_space(s, self.block, checked.work.call_charge(f"s:{n}")),
                )
                for s in g.variables[n].spaces
            ]
        self.setup = self.block(g.setup)
        self.play = self.block(g.play)
        self.scoring = self.block(g.scoring)
        self.tie_breakers = [self.ex.compile(t.key) for t in g.tie_breakers]
        self.var_initial = {n: self.ex.compile(v.initial) for n, v in g.variables.items()}
        self.num_distinct_actions = self.next_action

    # ------------------------------------------------------------------ compile
    def function_cell(self, name: str) -> list[Fn]:
        """A one-slot cell holding the compiled function (allows recursion and any order)."""
        cell = self._function_cells.get(name)
        if cell is None:
            cell = [lambda st, env: None]
            self._function_cells[name] = cell
            cell[0] = self.ex.compile(self.game.functions[name].body)
        return cell

    def _register(self, op: ops.Op, node: ir.Stmt) -> ops.Op:
        uid = self.numbering.uids.get(id(node))
        if uid is None:  # compiled after the game (a scenario's start): past the game's ops
            uid = len(self.ops)
            self.ops.append(op)
        else:
            self.ops[uid] = op
        op.uid = uid
        self.op_of[id(node)] = op
        return op

    def _site(self, node: ir.Option | ir.Pick | ir.Winner) -> ops.Site:
        index = self.numbering.site_of.get(id(node))
        if index is None:  # compiled after the game (a scenario's start): past the game's sites
            domain = site_domain(self.checked, node, self)
            site = ops.Site(self.next_action, domain)
            site.index = len(self.site_domains)
            self.site_domains.append(domain)
            self.next_action += site_size(domain, self.num_card_types, self.game.players_max)
            return site
        site = ops.Site(self.numbering.site_bases[index], self.numbering.site_domains[index])
        site.index = index
        return site

    def _new_block(self, b: ir.Block) -> ops.BlockOp:
        op = ops.BlockOp(b.span, b.source)
        self._register(op, b)
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
            self._register(op, s)
        self.op_of[id(s)] = op
        return op

    def _s_Block(self, s: ir.Block) -> ops.Op:
        return self.block(s)

    _s_Auction = _s_Block  # its statements were lowered by the front end (dsl/auction.py)

    def _simple(self, s: ir.Stmt, run: Callable[[Any, dict[str, Any]], None]) -> ops.Op:
        return ops.SimpleOp(s.span, run)

    def _s_Let(self, s: ir.Let) -> ops.Op:
        f, n = self.ex.compile(s.value), s.name

        def run(st: Any, env: dict[str, Any]) -> None:
            env[n] = f(st, env)

        def run_zone(st: Any, env: dict[str, Any]) -> None:
            env[n] = st.own(f(st, env))  # (a zone given a name: see State.own)

        zone = may_be_zone(self.checked.types.get(id(s.value), "any"))
        return self._simple(s, run_zone if zone else run)

    def _s_Assign(self, s: ir.Assign) -> ops.Op:
        f, n, decl = self.ex.compile(s.value), s.name, self.game.variables[s.name]
        if self.checked.types.get(id(s.value), "any") == "any":  # checked when it runs
            f = _typed(f, n, cardkinds.plain(decl.type), s.span)
        if s.position and n == "turn_player" and not isinstance(s.value, ir.Const):

            def run_turn(st: Any, env: dict[str, Any]) -> None:  # a turn begins: set and log
                st.vars[n] = f(st, env)
                if st.record_log:
                    st.log_line(turn_line(st), -1)

            return self._simple(s, run_turn)
        idx = self.ex.var_index(s.name, s.index, s.span) if s.index is not None else None
        op, track = s.op, decl.is_track
        numeric = track or cardkinds.plain(decl.type) == "int"
        # a track with spaces: once the marker has moved (within its ends, as any track's), the
        # spaces it crossed going up push their effects (runtime/tracks)
        spaces, wraps = self.spaces_of.get(n), decl.at_max == "wrap"

        def run(st: Any, env: dict[str, Any]) -> None:
            v = f(st, env)
            i = None if idx is None else idx(st, env)
            old = st.vars[n] if i is None else st.vars[n][i]
            raw = v if op == "=" else old + v if op == "+=" else old - v
            new = bounded(raw, decl, s.span) if track else raw
            if numeric and type(new) is int and not -MAX_NUMBER <= new <= MAX_NUMBER:
                raise too_large(n, s.span)
            if i is None:
                st.vars[n] = new
            else:
                st.vars[n][i] = new
            if spaces is not None:
                reach(st, spaces, old, raw if wraps else new, i, s.span)

        return self._simple(s, run)

    def _s_Move(self, s: ir.Move) -> ops.Op:
        dest, bottom = self.ex.zone_ref(s.dest), s.bottom
        trig = self.triggers_at  # zone index -> the triggers its arrivals run
        if s.where is not None:
            return self._move_where(s, dest)
        if s.count is not None:
            count, src = self.ex.compile(s.count), self.ex.zone_ref(s.src)  # type: ignore[arg-type]

            def run_count(st: Any, env: dict[str, Any]) -> None:
                d = dest(st, env)
                before = len(st.zones[d])
                st.move_count(count(st, env), src(st, env), d, bottom, s.span)
                if d in trig:
                    ops.fire_arrivals(st, trig[d], d, before, bottom, s.span)

            return self._simple(s, run_count)
        items = self.ex.compile(s.items)  # type: ignore[arg-type]

        def run_items(st: Any, env: dict[str, Any]) -> None:
            what = items(st, env)
            d = dest(st, env)
            moved = ops.cards_of(what)
            for c in moved:
                st.move(c, d, bottom)
            if d in trig:
                ops.fire(st, trig[d], moved, s.span)

        return self._simple(s, run_items)

    def _move_where(self, s: ir.Move, dest: Callable[[Any, dict[str, Any]], int]) -> ops.Op:
        """``move N where COND from SRC to DEST``: see ops.take_where."""
        assert s.count is not None and s.src is not None and s.where is not None
        count, src, cond = (
            self.ex.compile(s.count),
            self.ex.zone_ref(s.src),
            self.ex.compile(s.where),
        )
        bottom, trig, var = s.bottom, self.triggers_at, ir.MOVE_VAR

        def run(st: Any, env: dict[str, Any]) -> None:
            n, zone = count(st, env), src(st, env)
            saved = env.get(var, MISSING)

            def test(card: Any) -> Any:
                env[var] = card
                return cond(st, env)

            try:
                moved = ops.take_where(st, zone, n, test, s.span)
            finally:
                restore_local(env, var, saved)
            d = dest(st, env)
            for c in moved:
                st.move(c, d, bottom)
            if d in trig:
                ops.fire(st, trig[d], moved, s.span)

        return self._simple(s, run)

    def _s_Shuffle(self, s: ir.Shuffle) -> ops.Op:
        z = self.ex.zone_ref(s.zone)
        return self._simple(s, lambda st, env: st.shuffle(z(st, env)))

    def _s_EndGame(self, s: ir.EndGame) -> ops.Op:
        return self._simple(s, lambda st, env: st.end_game())

    def _s_Eliminate(self, s: ir.Eliminate) -> ops.Op:
        who = self.ex.compile(s.player)

        return self._simple(s, lambda st, env: ops.eliminate(st, who(st, env), s.span))

    def _s_Log(self, s: ir.Log) -> ops.Op:
        text = self.ex.template(s.parts)

        def run(st: Any, env: dict[str, Any]) -> None:
            if st.record_log:
                st.log_line(text(st, env), -1)  # narration is public; decisions may be secret

        return self._simple(s, run)

    def _s_CallProc(self, s: ir.CallProc) -> ops.Op:
        p = self.game.procedures[s.name]
        return ops.CallOp(
            s.span,
            self.proc_blocks[s.name],
            p.params,
            [self.ex.compile(a) for a in s.args],
            self.checked.work.call_charge(f"p:{s.name}"),
        )

    def _s_If(self, s: ir.If) -> ops.Op:
        orelse = self.block(s.orelse) if s.orelse is not None else None
        test, then = self.ex.compile(s.test), self.block(s.then)
        elifs = [(self.ex.compile(b.test), self.block(b.then)) for b in s.elifs]
        return ops.IfOp(s.span, test, then, orelse, elifs)

    def _s_For(self, s: ir.For) -> ops.Op:
        seats = self.ex.type_of(s.iter) == "list:player"  # skips seats eliminated meanwhile
        items = self.ex.compile(s.iter)
        return ops.ForOp(s.span, s.var, items, self.block(s.body), s.secret, seats)

    def _s_Repeat(self, s: ir.Repeat) -> ops.Op:
        work = self.checked.work
        return ops.RepeatOp(
            s.span,
            self.block(s.body),
            self.ex.compile(s.until),
            False,
            work.pass_cost(s),
            work.may_decide(s.body),
        )

    def _s_While(self, s: ir.While) -> ops.Op:
        work = self.checked.work
        return ops.RepeatOp(
            s.span,
            self.block(s.body),
            self.ex.compile(s.test),
            True,
            work.pass_cost(s),
            work.may_decide(s.test) or work.may_decide(s.body),
        )

    def _s_Choose(self, s: ir.Choose) -> ops.Op:
        options = []
        for o in s.options:
            site = self._site(o)
            items = self.ex.compile(o.iter) if o.iter is not None else None
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
            self._site(s),
        )

    def _s_Winner(self, s: ir.Winner) -> ops.Op:
        site = self._site(s)
        return ops.WinnerOp(
            s.span,
            s.var,
            self.ex.compile(s.among),
            self.ex.compile(s.strength),
            self.ex.compile(s.chooser) if s.chooser is not None else None,
            s.not_self,
            s.into,
            self.ex.template(s.prompt),
            site,
            formatter(site.domain),
        )


def var_specs(checked: Checked) -> list[VarSpec]:
    """The game's variables: name, type, per, and the position of the initial value."""
    return [
        VarSpec(n, v.type, v.per, v.initial.span, v.visibility)
        for n, v in checked.game.variables.items()
    ]


def rule_of_space(
    s: ir.Space, block: Callable[[ir.Block], ops.BlockOp], cost: int | None
) -> ops.TriggerRule:
    """A space's effect as a trigger's rule: its body, run with ``s.var`` naming the seat;
    ``cost``: what each crossing charges where the track's spaces are in a cycle."""
    return ops.TriggerRule(None, s.var, None, block(s.body), cost)  # type: ignore[arg-type]


def _typed(f: Fn, name: str, want: str, span: Any) -> Fn:
    """``f``, its value checked against variable ``name``'s type ``want`` (runtime.typed)."""

    def run(st: Any, env: dict[str, Any]) -> Any:
        return typed(f(st, env), name, want, span)

    return run
