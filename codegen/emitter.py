"""Checked IR -> the Python source of one module per game.

The module defines ``build(num_players, files)``, which lays the game out (the interpreter's
layout code), makes its per-program constants (zone indices, card lists, tables), and returns a
CompiledProgram whose ops have the interpreter's uids and action sites. What is specialized:

- every expression is Python text (no closure tree), names resolved to direct indices;
- a statement that can never stop for a decision ("flat") runs inline in its block's step, as
  plain Python control flow, instead of one op per run-loop turn;
- a block's step resumes by ``pc`` only where a statement can stop.

Statements that can stop (choose, pick, a tie broken by a chooser, ...) keep the interpreter's
op classes, fed with generated functions, so a state stops at a decision with exactly the
interpreter's frames.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from meeple.dsl import cardkinds, ir
from meeple.dsl.checker import Checked, may_be_zone
from meeple.dsl.errors import MeepleError
from meeple.dsl.limits import is_name
from meeple.dsl.numbering import domain_of, number
from meeple.dsl.render import eliminates
from meeple.dsl.specs import kind_specs, zone_specs
from meeple.dsl.work import check_work
from meeple.runtime.datatable import DataTableRT

from .at import put
from .budget import loop_decides, write_call_charge, write_pass_end, write_pass_start
from .calls import ProcedureDepth, never_deep
from .classcounts import classes_of
from .contest import same_strength, write_contest
from .cse import Reuse, branch, conjunction, iterable, region
from .direct import DirectEmitter, resume_table
from .exprs import ExprEmitter, Scope, action_id, function_name, split_invariant
from .facts import SEAT_TABLES, fresh_list
from .hoist import bound_names, hoisted
from .layout import GenLayout
from .loopseats import gone_test, needs_mask
from .moves import write_move, write_moved
from .tally import KEPT, Tally, resume_wrappers, tallied_zones
from .tracks import emit_bounded, emit_number_check, emit_spaces, emit_spaces_table
from .unread import binds_env
from .untilall import write_until_all
from .writer import Names, Writer, comment_path, literal, literal_text

GENERATOR_VERSION = "14"

_ASSIGN_OPS = ("=", "+=", "-=")
_SIMPLE = (ir.Let, ir.Assign, ir.Move, ir.Shuffle, ir.Log, ir.Eliminate)


class ModuleEmitter:
    """Generates the module text for one checked game (see module docstring)."""

    def __init__(self, checked: Checked) -> None:
        check_names(checked.game)  # before anything is laid out or written
        self.checked, self.game = checked, checked.game
        if checked.work is None:  # (a Checked made without check(): its work bounds now)
            checked.work = check_work(checked.game)
        # the layout and the front end's numbering (uids, action sites) for the fewest players
        self.layout = GenLayout(checked)
        self.numbering = number(checked, self.game.players_min, self.layout)
        self.root = Path(self.game.file).parent
        self.names = Names()
        self.files: list[str] = []
        self.spans: dict[tuple[int, int, int, int, int], int] = {}
        self.consts: dict[tuple[str, str], str] = {}
        self.const_lines = Writer(1)
        self.ex = ExprEmitter(self.layout, self._const, self._span, self.names.fresh)
        self.ex.reuse = Reuse(self.ex)  # values computed twice computed once (codegen/cse)
        self.never_deep = never_deep(self.game)  # no depth count in functions (codegen/calls)
        # which procedure calls direct code checks and counts (codegen/calls); ``direct_block``:
        # the block whose direct code is being written (None: the frame-stepping code's, which
        # checks and counts them all); ``uncounted``: a call was written unchecked or uncounted
        self.depth = ProcedureDepth(self.game)
        self.direct_block: ir.Block | None = None
        self.uncounted = False
        self._flat_proc = _flat_procedures(self.game)
        # can a seat leave the game? If not, loops over seats never skip one (ForOp's check)
        self.eliminates = eliminates(self.game)
        self._flat: dict[int, bool] = {}
        # writing direct code (c_N), which only playouts run, the log off (codegen/moves.py)
        self.playout_only = False
        # writing direct code of a move whose triggers run as calls (codegen/triggers.py)
        self.trigger_calls: Any = None
        # the zones whose counts by owner direct code keeps in a table (codegen/tally.py)
        tallied = tallied_zones(self.game, self.layout)
        self.tally = Tally(tallied, self.layout) if tallied else None
        self.tally_proc = False  # writing a procedure run as a function (codegen/tally.py)
        self.ex.classes = classes_of(self.game, self.layout)  # (codegen/classcounts.py)
        self._flat_proc_named = {
            id(p.body): n
            for n, p in self.game.procedures.items()
            if self._flat_proc.get(n) and self.flat(p.body)
        }

    # ------------------------------------------------------------------ tables of the module
    def _span(self, s: ir.SourceSpan) -> str:
        f = self._relative(s.file)
        if f not in self.files:
            self.files.append(f)
        key = (self.files.index(f), s.line, s.col, s.end_line, s.end_col)
        i = self.spans.setdefault(key, len(self.spans))
        return f"S[{i}]"

    def _const(self, kind: str, key: str) -> str:
        name = self.consts.get((kind, key))
        if name is not None:
            return name
        prefix = {
            "zone": "Z",
            "kind": "K",
            "table": "T",
            "datatable": "D",
            "lookup": "DL",
            "card": "C",
            "formatter": "fmt",
            "site": "A",
            "triggers": "TRIGGERS",
            "seats": "SEATS",
            "filter": "KF",
            "partition": "KP",
            "counts": "KC",
        }[kind]
        # (a lookup: by its table's name; a kind's cards that pass a test: by the kind's)
        hint = key.split("@")[0] if kind in ("lookup", "filter", "partition", "counts") else key
        name = self.names.fresh(f"{prefix}_{hint}" if hint else prefix)[1:]
        self.consts[(kind, key)] = name
        if kind == "zone":
            value = f"P.zone_base[{literal(key)}]"
        elif kind == "kind":
            value = f"P.kind_cards[{literal(key)}]"
        elif kind == "card":
            value = f"P.card_by_key({literal(key)})"
        elif kind == "datatable":
            plain = DataTableRT.data(self.game.data_tables[key], self.game.kinds)
            value = f"DataTableRT.build({literal(plain)}, P.card_by_key)"
        elif kind == "lookup":  # one lookup of a data table (by its span): its rows by key
            table, at = key.split("@")
            value = f"{self._const('datatable', table)}.lookup(P.cards, S[{at}])"
        elif kind == "formatter":
            value = f"formatter({literal(key)})"
        elif kind == "site":
            value = f"site[{key}].base"
        elif kind == "triggers":
            value = "P.triggers_at"
        elif kind == "seats":  # others() or clockwise_from() from each seat (codegen/facts)
            value = SEAT_TABLES[key]
        elif kind in ("filter", "partition", "counts"):  # (statics; codegen/classcounts)
            value = key.split("@", 1)[1]
        else:
            t = self.game.tables[key]
            data = (t.group_by, t.patterns, t.labels)
            value = f"PatternTable({', '.join(literal(x) for x in data)})"
        self.const_lines.line(f"{name} = {value}")
        return name

    def _op(self, node: Any) -> str:
        return f"o{self._uid(node)}"

    def _uid(self, node: Any) -> int:
        return self.numbering.uid(node)

    def _where(self, span: ir.SourceSpan) -> str:
        return f"# {comment_path(self._relative(span.file))}:{int(span.line)}"

    def _relative(self, file: str) -> str:
        return relative(file, self.root)

    # ------------------------------------------------------------------ flatness
    def flat(self, s: ir.Stmt) -> bool:
        """True when ``s`` can never stop for a decision, end the game, or push a frame that
        outlives it, so it may run inline."""
        known = self._flat.get(id(s))
        if known is None:
            known = self._flat[id(s)] = self._is_flat(s)
        return known

    def _is_flat(self, s: ir.Stmt) -> bool:
        if isinstance(s, ir.Move):
            return not self._may_trigger(s)
        if isinstance(s, ir.Assign) and self.game.variables[s.name].spaces:
            return False  # it may push the effects of the spaces it crosses (codegen/tracks)
        if isinstance(s, _SIMPLE):
            return True
        if isinstance(s, ir.Block):
            return all(self.flat(x) for x in s.stmts)
        if isinstance(s, ir.If):
            branches = [s.then, *(b.then for b in s.elifs)]
            return all(map(self.flat, branches)) and (s.orelse is None or self.flat(s.orelse))
        if isinstance(s, (ir.For, ir.Repeat, ir.While)):
            return self.flat(s.body)
        if isinstance(s, ir.CallProc):
            body = self.game.procedures[s.name].body
            return self._flat_proc.get(s.name, False) and self.flat(body)
        if isinstance(s, ir.Winner):
            return s.chooser is None
        return False  # choose, pick, end game, and any statement kind not known here

    # ------------------------------------------------------------------ statements
    def stmt_flat(self, w: Writer, s: ir.Stmt, followed: bool = False) -> None:
        """Inline code for a flat statement; ``followed``: another statement of its block comes
        next (then ``st.at`` may be left to it: codegen/at.py)."""
        code = Writer(w.level)
        getattr(self, "_f_" + type(s).__name__)(code, s)
        put(self, w, s, code, followed)

    def _e(self, e: ir.Expr) -> str:
        return self.ex.emit(e, Scope())

    def _f_Let(self, w: Writer, s: ir.Let) -> None:
        w.line(f"env[{literal(s.name)}] = {self._named(s.value)}")

    def _named(self, e: ir.Expr) -> str:
        """``e`` as Python text, as a local may hold it: a value that may be a zone goes through
        st.own (a pile shared with a clone made this state's own first, see State.own). Not in
        direct code: it runs only in a playout, which shares no pile (State.own_all)."""
        if self.playout_only or not may_be_zone(self.ex.type_of(e)):
            return self._e(e)
        return f"st.own({self._e(e)})"

    def _f_Assign(self, w: Writer, s: ir.Assign) -> None:
        decl = self.game.variables[s.name]
        target = f"st.vars[{literal(s.name)}]"
        if s.index is not None:
            i = self.names.fresh("i")
            w.line(f"{i} = {self.ex.var_index(s.name, s.index, s.span, Scope())}")
            target += f"[{i}]"
        value = self._e(s.value)
        if self.ex.type_of(s.value) == "any":  # checked when it runs (runtime.typed)
            want = literal(cardkinds.plain(decl.type))
            value = f"typed({value}, {literal(s.name)}, {want}, {self._span(s.span)})"
        if s.op not in _ASSIGN_OPS:
            raise MeepleError(f"the code generator has no assignment {s.op!r}", s.span)
        if not decl.is_track and cardkinds.plain(decl.type) != "int":
            w.line(f"{target} {s.op} {value}")
            if s.position and s.name == "turn_player" and not isinstance(s.value, ir.Const):
                if self.playout_only:  # the log is off (codegen/direct.py): no turn line
                    return
                w.line("if st.record_log:")  # a turn begins (as the interpreter's _s_Assign)
                with w.indent():
                    w.line(f"st.at = {self._op(s)}  {self._where(s.span)}")  # (codegen/at.py)
                    w.line("st.log_line(turn_line(st), -1)")
            return
        if decl.spaces:
            emit_spaces(self, w, s, target, value, i if s.index is not None else "None")
            return
        v = self.names.fresh("v")  # a number: checked (a track's ends, MAX_NUMBER), then kept
        w.line(f"{v} = {value if s.op == '=' else f'{target} {s.op[0]} {value}'}")
        if decl.is_track:
            emit_bounded(w, v, decl, self._span(s.span))
        emit_number_check(w, v, decl, self._span(s.span))
        w.line(f"{target} = {v}")

    def _may_trigger(self, s: ir.Move) -> bool:
        """Can cards this move brings set off a trigger (which pushes its body as a frame)?"""
        zones = {t.zone for t in self.game.triggers.values()}
        d = s.dest.obj if isinstance(s.dest, ir.Index) else s.dest
        if isinstance(d, ir.Name) and d.id in self.layout.zone_base:
            return d.id in zones
        return bool(zones)

    def _f_Move(self, w: Writer, s: ir.Move) -> None:
        if s.where is not None:
            self._move_where(w, s)
            return
        if self._may_trigger(s):
            self._move_firing(w, s)
            return
        write_move(self, w, s)  # codegen/moves.py

    def _move_where(self, w: Writer, s: ir.Move) -> None:
        """``move N where COND from SRC to DEST``, in the interpreter's order: the count, the
        source, the cards (ops.take_where, the condition a Python function of the card), the
        destination, the moves, then the triggers."""
        assert s.count is not None and s.src is not None and s.where is not None
        x = self.names.fresh(ir.MOVE_VAR)
        cond = self.ex.emit(s.where, Scope({ir.MOVE_VAR: x}))
        n, moved = self.names.fresh("n"), self.names.fresh("moved")
        d, c, span = self.names.fresh("dest"), self.names.fresh("c"), self._span(s.span)
        w.line(f"{n} = {self._e(s.count)}")
        src = self.ex.zone_index(s.src, Scope())
        w.line(f"{moved} = take_where(st, {src}, {n}, lambda {x}: {cond}, {span})")
        w.line(f"{d} = {self.ex.zone_index(s.dest, Scope())}")
        w.line(f"for {c} in {moved}:")
        with w.indent():
            w.line(f"st.move({c}, {d}, {_flag(s.bottom)})")
        if self._may_trigger(s) and self.trigger_calls is not None:  # (codegen/triggers.py)
            self.trigger_calls.call(w, s, d, moved, span)
        elif self._may_trigger(s):
            trig = self._const("triggers", "")
            w.line(f"if {d} in {trig}:")
            with w.indent():
                w.line(f"fire(st, {trig}[{d}], {moved}, {span})")

    def _move_firing(self, w: Writer, s: ir.Move) -> None:
        """A move into a zone with triggers: as the interpreter's, firing them after it."""
        trig = self._const("triggers", "")
        d, span = self.names.fresh("dest"), self._span(s.span)
        w.line(f"{d} = {self.ex.zone_index(s.dest, Scope())}")
        if s.count is not None:
            assert s.src is not None
            before = self.names.fresh("before")
            w.line(f"{before} = len(st.zones[{d}])")
            src = self.ex.zone_index(s.src, Scope())
            w.line(f"st.move_count({self._e(s.count)}, {src}, {d}, {_flag(s.bottom)}, {span})")
            if self.trigger_calls is not None:  # fire_arrivals' cards (codegen/triggers.py)
                z = f"st.zones[{d}]"
                got = f"{z}[:len({z}) - {before}][::-1]" if s.bottom else f"{z}[{before}:]"
                self.trigger_calls.call(w, s, d, got, span)
                return
            w.line(f"if {d} in {trig}:")
            with w.indent():
                w.line(f"fire_arrivals(st, {trig}[{d}], {d}, {before}, {_flag(s.bottom)}, {span})")
            return
        moved = write_moved(self, w, s, d)  # codegen/moves.py
        if self.trigger_calls is not None:  # (codegen/triggers.py)
            self.trigger_calls.call(w, s, d, moved, span)
            return
        w.line(f"if {d} in {trig}:")
        with w.indent():
            w.line(f"fire(st, {trig}[{d}], {moved}, {span})")

    def _f_Eliminate(self, w: Writer, s: ir.Eliminate) -> None:
        w.line(f"eliminate(st, {self._e(s.player)}, {self._span(s.span)})")

    def _f_Shuffle(self, w: Writer, s: ir.Shuffle) -> None:
        w.line(f"st.shuffle({self.ex.zone_index(s.zone, Scope())})")

    def _f_Log(self, w: Writer, s: ir.Log) -> None:
        if self.playout_only:  # the log is off (codegen/direct.py): the line is never made
            return
        w.line("if st.record_log:")
        with w.indent():
            w.line(f"st.at = {self._op(s)}  {self._where(s.span)}")  # (codegen/at.py)
            w.line(f"st.log_line({self.ex.template(s.parts, Scope())}, -1)")

    def _f_CallProc(self, w: Writer, s: ir.CallProc) -> None:
        args = self._call_env(s)
        if self.game.procedures[s.name].body.stmts:
            a = self.names.fresh("args")
            w.line(f"{a} = {args}")
            self._inline_call(w, s, a)
        else:
            w.line(args)

    def _inline_call(self, w: Writer, s: ir.CallProc, args: str, call: str = "") -> None:
        """A procedure run as a Python function (``proc_NAME(st, args)``, or the playouts'
        ``call``): counted in the call depth (``st.inline``, as the interpreter counts its
        frame) and checked, but in direct code where codegen/calls.py finds neither needed; and
        named in the rules trace of an error inside it."""
        proc, checked, counted = self.game.procedures[s.name], True, True
        if self.direct_block is not None:  # (a playout made sure it may: codegen/calls.py)
            checked = self.depth.checked(self.direct_block)
            counted = self.depth.counted(s.name)
            self.uncounted |= not (checked and counted)
        if checked:
            self.enter(w, s.span)
        write_call_charge(self, w, f"p:{s.name}", self._span(s.span))  # (a cycle's: budget)
        if counted:
            w.line("st.inline += 1")
        w.line("try:")
        with w.indent():
            kept = self.playout_only and self.tally is not None and self.tally.keeps(s.name)
            w.line((call or f"proc_{s.name}(st, {args})") + (f"  {KEPT}" if kept else ""))
        w.line("except Exception as e:")
        with w.indent():
            if counted:
                w.line("st.inline -= 1")
            head = repr(f"procedure {s.name} (")  # rule text reaches code only through repr
            w.line(f"traced(e, {head} + str({self._span(proc.span)}) + ')')")
            w.line("raise")
        if counted:
            w.line("st.inline -= 1")

    def enter(self, w: Writer, span: ir.SourceSpan) -> None:
        """enter_procedure's depth check, called only when the stack could be that deep."""
        w.line("if len(st.frames) + st.inline >= MAX_CALL_DEPTH:")
        with w.indent():
            w.line(f"enter_procedure(st, {self._span(span)})")

    def _call_env(self, s: ir.CallProc) -> str:
        params = self.game.procedures[s.name].params
        pairs = ", ".join(
            f"{literal(p)}: {self._named(a)}" for p, a in zip(params, s.args, strict=True)
        )
        return "{" + pairs + "}"

    def _f_Block(self, w: Writer, s: ir.Block) -> None:
        self.body_flat(w, s)

    _f_Auction = _f_Block  # lowered by the front end (dsl/auction.py): a block of statements

    def body_flat(self, w: Writer, b: ir.Block) -> None:
        if not b.stmts:
            w.line("pass")
        for k, x in enumerate(b.stmts):
            self.stmt_flat(w, x, k + 1 < len(b.stmts))

    def _f_If(
        self, w: Writer, s: ir.If, body: Callable[[Writer, ir.Block], None] | None = None
    ) -> None:
        """if/elif/else as Python; ``body`` writes each block (default: inline, flat)."""
        write = body or self.body_flat
        w.line(f"if {self._e(s.test)}:")
        with w.indent():
            write(w, s.then)
        for b in s.elifs:
            w.line(f"elif {self._e(b.test)}:")
            with w.indent():
                write(w, b.then)
        if s.orelse is not None and s.orelse.stmts:
            w.line("else:")
            with w.indent():
                write(w, s.orelse)

    def _f_For(
        self, w: Writer, s: ir.For, body: Callable[[Writer, ir.Block], None] | None = None
    ) -> None:
        """A loop as a Python loop; ``body`` writes its block (default: inline, flat)."""
        x = self.names.fresh(s.var)
        seats = self.ex.type_of(s.iter) == "list:player" and self.eliminates
        live = self.names.fresh("live") if seats else ""
        items = self.ex.items(s.iter, Scope())
        # a seat eliminated since the loop began is skipped (the interpreter's ForOp), the
        # test written out where the items are seats (codegen/loopseats)
        skip = gone_test(live, x, items, self.ex.facts) if seats else ""
        if needs_mask(live, skip):
            w.line(f"{live} = live_mask(st)")
        self.ex.facts.note(x, self.ex.facts.items_of(items))
        # a copy, as ForOp's, unless the list is made afresh here (nothing else can change it)
        items = items if fresh_list(s.iter, self.game) else f"list({items})"
        t = self.ex.type_of(s.iter)
        if t != "zone" and may_be_zone(t) and not self.playout_only:  # over zones: own (_named)
            items = f"st.own_each({items})"
        w.line(f"for {x} in {items}:")
        with w.indent():
            if seats:
                w.line(f"if {skip}:")
                with w.indent():
                    w.line("continue")
            code = Writer(w.level)
            with self.ex.facts.binding(s.var, x):  # the body reads x (codegen/facts)
                (body or self.body_flat)(code, s.body)
            if binds_env(self.playout_only, s.var, code.lines):  # (else no one reads it: unread)
                w.line(f"env[{literal(s.var)}] = {x}")
            w.extend(code)

    def _loop(
        self,
        w: Writer,
        s: ir.Repeat | ir.While,
        cond: ir.Expr,
        before: bool,
        body: Callable[[Writer, ir.Block], None] | None = None,
        condition: Callable[[ir.Expr], tuple[str, str]] | None = None,
    ) -> None:
        """repeat/while as a Python loop (at most MAX_PASSES passes); ``body`` as in _f_For;
        ``condition``: a while's condition written another way, a line before it and its text
        (codegen/loopkeep.py)."""
        n = self.names.fresh("passes")
        began = self.names.fresh("move") if loop_decides(self, s, cond) else None
        span = self._span(s.span)
        w.line(f"{n} = 0")
        w.line("while True:")
        with w.indent():
            w.line(f"st.at = {self._op(s)}  {self._where(s.span)}")  # the condition's rule
            write_pass_end(w, self.checked.work.pass_cost(s), span, n, began)  # (budget)
            if before:
                mark, test = condition(cond) if condition else ("", self._e(cond))
                if mark:
                    w.line(mark)
                w.line(f"if not {test}:")
                with w.indent():
                    w.line("break")
            elif not write_until_all(self, w, cond, n):  # (a generator less: untilall)
                w.line(f"if {n} > 0 and {self._e(cond)}:")
                with w.indent():
                    w.line("break")
            w.line(f"{n} += 1")
            w.line(f"if {n} > MAX_PASSES:")
            with w.indent():
                w.line(f"raise too_long({span})")
            write_pass_start(w, began)
            (body or self.body_flat)(w, s.body)

    def _f_Repeat(self, w: Writer, s: ir.Repeat) -> None:
        self._loop(w, s, s.until, False)

    def _f_While(self, w: Writer, s: ir.While) -> None:
        self._loop(w, s, s.test, True)

    def _f_Winner(self, w: Writer, s: ir.Winner) -> None:
        if self.playout_only and same_strength(s):  # direct code (codegen/contest.py)
            write_contest(self, w, s)
            return
        w.line(f"{self._op(s)}.exec(st, env)")

    # ------------------------------------------------------------------ stopping statements
    def stmt_start(self, w: Writer, s: ir.Stmt) -> None:
        """Code that starts a statement that may stop (push a frame or ask a decision)."""
        w.line(f"st.at = {self._op(s)}  {self._where(s.span)}")
        if isinstance(s, ir.EndGame):
            w.line("st.end_game()")
        elif isinstance(s, (ir.Move, ir.Assign)):  # an assignment here crosses track spaces
            getattr(self, "_f_" + type(s).__name__)(w, s)
        elif isinstance(s, ir.If):
            w.line(f"if {self._e(s.test)}:")
            with w.indent():
                self.block_start(w, s.then)
            for b in s.elifs:
                w.line(f"elif {self._e(b.test)}:")
                with w.indent():
                    self.block_start(w, b.then)
            if s.orelse is not None:
                w.line("else:")
                with w.indent():
                    self.block_start(w, s.orelse)
        elif isinstance(s, ir.Block):
            self.block_start(w, s)
        elif isinstance(s, ir.CallProc):
            body = self.game.procedures[s.name].body
            a = self.names.fresh("args")
            w.line(f"{a} = {self._call_env(s)}")
            if body.stmts:
                self.enter(w, s.span)
                write_call_charge(self, w, f"p:{s.name}", self._span(s.span))  # (budget)
                w.line(f"st.frames.append(Frame({self._op(body)}, {a}))")
        else:
            w.line(f"{self._op(s)}.exec(st, env)")

    def block_start(self, w: Writer, b: ir.Block) -> None:
        """Start a block: inline when flat (its frame would be popped before any decision)."""
        if self.flat(b):
            self.body_flat(w, b)
        elif b.stmts:
            w.line(f"st.frames.append(Frame({self._op(b)}, env))")
        else:
            w.line("pass")

    # ------------------------------------------------------------------ functions
    def block_step(self, w: Writer, b: ir.Block) -> None:
        """``step(st, fr)`` of a block: runs up to the next statement that may stop."""
        uid = self.numbering.uid(b)
        proc = self._flat_proc_named.get(id(b))
        if proc is not None:  # the body of a procedure generated as a function: run it whole
            w.line(f"step_{uid} = run_whole(proc_{proc})  {self._where(b.span)}")
            return
        w.line(f"def step_{uid}(st, fr):  {self._where(b.span)}")
        with w.indent():
            if self.flat(b):
                w.line("env = fr.env")
                self.body_flat(w, b)
                w.line("st.frames.pop()")
                return
            w.line("env = fr.env")
            w.line("pc = fr.pc")
            resume = 0
            w.line("if pc == 0:")
            w.level += 1
            for k, s in enumerate(b.stmts):
                if self.flat(s):
                    self.stmt_flat(w, s, k + 1 < len(b.stmts))
                    continue
                w.line(f"fr.pc = {k + 1}")
                self.stmt_start(w, s)
                if isinstance(s, ir.EndGame):
                    w.line("return")
                else:
                    w.line("if st.pending is not None or st.frames[-1] is not fr:")
                    with w.indent():
                        w.line("return")
                w.line(f"pc = {k + 1}")
                w.level -= 1
                resume = k + 1
                w.line(f"if pc == {resume}:")
                w.level += 1
            w.line("st.frames.pop()")
            w.line("return")
            w.level -= 1
            w.line("raise RuleError(f'a saved state resumes this block at {pc}: it is damaged')")

    def op_functions(self, w: Writer, uid: int, node: Any) -> None:
        """The (st, env) functions an interpreter op class is fed with."""
        loc = self._where(node.span)
        if isinstance(node, ir.For):
            self._fn(w, f"e{uid}_items", self._e(node.iter), loc)
        elif isinstance(node, ir.Repeat):
            self._fn(w, f"e{uid}_cond", self._e(node.until), loc)
        elif isinstance(node, ir.While):
            self._fn(w, f"e{uid}_cond", self._e(node.test), loc)
        elif isinstance(node, ir.Choose):
            self._fn(w, f"e{uid}_player", self._e(node.player), loc)
            self._fn(w, f"e{uid}_prompt", self.ex.template(node.prompt, Scope()), loc)
            for k, o in enumerate(node.options):
                oloc = self._where(o.span)
                self._fn(w, f"e{uid}_label{k}", self.ex.template(o.label, Scope()), oloc)
                if o.iter is not None:
                    self._fn(w, f"e{uid}_items{k}", self._e(o.iter), oloc)
                if o.when is not None:
                    self._fn(w, f"e{uid}_when{k}", self._e(o.when), oloc)
            self.choose_collect(w, uid, node)
            self.choose_resolve(w, uid, node)
        elif isinstance(node, ir.Pick):
            self._fn(w, f"e{uid}_player", self._e(node.player), loc)
            self._fn(w, f"e{uid}_prompt", self.ex.template(node.prompt, Scope()), loc)
            self._fn(w, f"e{uid}_src", self._e(node.src), loc)
            if node.dest is not None:
                self._fn(w, f"e{uid}_dest", self.ex.zone_index(node.dest, Scope()), loc)
            self._fn(w, f"e{uid}_min", self._e(node.min), loc)
            if node.max is not None:
                self._fn(w, f"e{uid}_max", self._e(node.max), loc)
            if node.where is not None:
                self._fn(w, f"e{uid}_where", self._e(node.where), loc)
            self.pick_candidates(w, uid, node)
        elif isinstance(node, ir.Winner):
            self._fn(w, f"e{uid}_among", self._e(node.among), loc)
            self._fn(w, f"e{uid}_strength", self._e(node.strength), loc)
            if node.chooser is not None:
                self._fn(w, f"e{uid}_chooser", self._e(node.chooser), loc)
            self._fn(w, f"e{uid}_prompt", self.ex.template(node.prompt, Scope()), loc)

    def choose_collect(self, w: Writer, uid: int, node: ir.Choose) -> None:
        """ChooseOp.collect, specialized: conditions inline, option names as Python locals."""
        w.line(f"def collect_{uid}(st, env):  {self._where(node.span)}")
        # pure (it never writes env): each local it reads is read once, at entry (codegen/hoist)
        # no statement runs in it: a value its conditions compute twice is computed once
        with w.indent(), hoisted(self.ex, w, frozenset()) as w, region(self.ex):  # w: the body
            w.line("actions = []")
            w.line("values = []")
            w.line("idx = []")
            for k, o in enumerate(node.options):
                index = self.numbering.site_of[id(o)]
                base = self._const("site", str(index))
                if o.var is None:
                    if o.when is not None:
                        w.line(f"if {self._e(o.when)}:  {self._where(o.span)}")
                        w.level += 1
                    else:
                        w.line(f"{self._where(o.span)}: always offered")
                    w.line(f"actions.append({base})")
                    w.line("values.append(None)")
                    w.line(f"idx.append({k})")
                    if o.when is not None:
                        w.level -= 1
                    continue
                assert o.iter is not None
                x = self.names.fresh(o.var)
                scope = Scope({o.var: x})
                source = self.ex.items(o.iter, Scope())
                self.ex.facts.note(x, self.ex.facts.items_of(source))
                # conditions that do not name the option's variable are the same for every
                # item: tested once, before the loop (when there is an item to test them on)
                fixed, varying = split_invariant(o.when, o.var)
                if fixed:
                    items = self.names.fresh("items")
                    w.line(f"{items} = {source}  {self._where(o.span)}")
                    with branch(self.ex):  # (only when there are items)
                        tests = conjunction(self.ex, fixed, Scope())
                    w.line(f"if {items} and {tests}:")
                    w.level += 1
                    w.line(f"for {x} in {items}:")
                else:
                    w.line(f"for {x} in {source}:  {self._where(o.span)}")
                with w.indent(), branch(self.ex):  # (once per item)
                    if varying:
                        test = conjunction(self.ex, varying, scope)
                        w.line(f"if not ({test}):")
                        with w.indent():
                            w.line("continue")
                    domain = self.numbering.site_domains[index]
                    w.line(f"a = {action_id(domain, base, index, x)}")
                    w.line("if a not in actions:  # an identical card: the same choice")
                    with w.indent():
                        w.line("actions.append(a)")
                        w.line(f"values.append({x})")
                        w.line(f"idx.append({k})")
                if fixed:
                    w.level -= 1
            w.line("return actions, values, idx")

    def choose_resolve(self, w: Writer, uid: int, node: ir.Choose) -> None:
        """ChooseOp.resolve, specialized: a flat option body runs at once, inline."""
        w.line(f"def resolve_{uid}(st, dec, i):  {self._where(node.span)}")
        with w.indent():
            w.line("env = dec.env")
            w.line("k = dec.options[i]")
            for k, o in enumerate(node.options):
                w.line(f"{'if' if k == 0 else 'elif'} k == {k}:  {self._where(o.span)}")
                with w.indent():
                    if o.var is None:
                        self.block_start(w, o.body)
                        continue
                    x = self.names.fresh(o.var)  # (no fact: the values may come from a save)
                    w.line(f"{x} = env[{literal(o.var)}] = dec.values[i]")
                    with self.ex.facts.binding(o.var, x):  # a flat body reads x (codegen/facts)
                        self.block_start(w, o.body)

    def pick_candidates(self, w: Writer, uid: int, node: ir.Pick) -> None:
        """PickOp.candidates, specialized: the condition inline."""
        w.line(f"def cands_{uid}(st, env, picked):  {self._where(node.span)}")
        with w.indent():
            if node.where is None:
                w.line(f"return list({self._e(node.src)})")
                return
            x = self.names.fresh(node.var)
            cond = self.ex.emit(node.where, Scope({node.var: x, "picked": "picked"}))
            with iterable(self.ex):  # (no value computed in a comprehension's iterable)
                src = self._e(node.src)
            w.line(f"return [{x} for {x} in {src} if {cond}]")

    def _fn(self, w: Writer, name: str, body: str, loc: str) -> None:
        w.line(f"def {name}(st, env):  {loc}")
        with w.indent():
            w.line(f"return {body}")

    def op_construction(self, w: Writer, uid: int, node: Any) -> None:
        """``oN = ...``: the op with uid N (the statement or block ``node``), of the class the
        interpreter's Program makes for it."""
        span = self._span(node.span)
        o = f"o{uid}"
        if isinstance(node, ir.Block):
            w.line(f"{o} = Block({uid}, {span}, {len(node.stmts)}, step_{uid})")
            return
        if isinstance(node, ir.For):
            body, secret = self._op(node.body), _flag(node.secret)
            args = f"{span}, {literal(node.var)}, e{uid}_items, {body}, {secret}"
            if self.ex.type_of(node.iter) == "list:player":  # skips seats eliminated meanwhile
                args += ", seats=True"
            w.line(f"{o} = ForOp({args})")
        elif isinstance(node, (ir.Repeat, ir.While)):
            body, before = self._op(node.body), _flag(isinstance(node, ir.While))
            cond = node.test if isinstance(node, ir.While) else node.until
            cost, decides = self.checked.work.pass_cost(node), loop_decides(self, node, cond)
            w.line(
                f"{o} = RepeatOp({span}, {body}, e{uid}_cond, {before}, {cost}, {_flag(decides)})"
            )
        elif isinstance(node, ir.Choose):
            w.line(f"{o} = ChooseOp({span}, e{uid}_player, e{uid}_prompt, [")
            with w.indent():
                for k, o_ir in enumerate(node.options):
                    items = f"e{uid}_items{k}" if o_ir.iter is not None else "None"
                    when = f"e{uid}_when{k}" if o_ir.when is not None else "None"
                    index = self.numbering.site_of[id(o_ir)]
                    w.line(
                        f"OptionOp(site[{index}], e{uid}_label{k}, {literal(o_ir.var)}, "
                        f"{items}, {when}, {self._op(o_ir.body)}),"
                    )
            w.line(f"], {_flag(node.secret)})")
            w.line(f"{o}.collect = collect_{uid}")
            w.line(f"{o}.resolve = resolve_{uid}")
        elif isinstance(node, ir.Pick):
            dest = f"e{uid}_dest" if node.dest is not None else "None"
            hi = f"e{uid}_max" if node.max is not None else "None"
            where = f"e{uid}_where" if node.where is not None else "None"
            w.line(
                f"{o} = PickOp({span}, e{uid}_player, e{uid}_prompt, {literal(node.var)}, "
                f"e{uid}_src, "
                f"{dest}, e{uid}_min, {hi}, {where}, {literal(node.into)}, {_flag(node.secret)}, "
                f"site[{self.numbering.site_of[id(node)]}])"
            )
            w.line(f"{o}.candidates = cands_{uid}")
        elif isinstance(node, ir.Winner):
            chooser = f"e{uid}_chooser" if node.chooser is not None else "None"
            fmt = self._const("formatter", domain_of(self.ex.type_of(node.among)))
            w.line(
                f"{o} = WinnerOp({span}, {literal(node.var)}, e{uid}_among, e{uid}_strength, "
                f"{chooser}, {_flag(node.not_self)}, {literal(node.into)}, e{uid}_prompt, "
                f"site[{self.numbering.site_of[id(node)]}], {fmt})"
            )
        else:
            w.line(f"{o} = Stmt({uid}, {span})")
            return
        w.line(f"{o}.uid = {uid}")

    # ------------------------------------------------------------------ the module
    def module(self) -> str:
        g = self.game
        body = Writer(1)
        for f in g.functions.values():
            self._function(body, f)
        for name, p in g.procedures.items():
            if id(p.body) in self._flat_proc_named:
                body.line(f"def proc_{name}(st, env):  {self._where(p.span)}")
                start = len(body.lines)
                self.tally_proc = True  # (its moves of a card keep the owner counts)
                # its parameters, bound nowhere inside, read once (codegen/hoist)
                with body.indent(), hoisted(self.ex, body, bound_names(p.body)) as inner:
                    self.body_flat(inner, p.body)
                self.tally_proc = False
                if self.tally is not None:  # (direct code keeps the counts across its call)
                    self.tally.procedure(name, body.lines[start:])
                body.line()
        for uid, node in enumerate(self.numbering.nodes):
            if isinstance(node, ir.Block):
                self.block_step(body, node)
                body.line()
            else:
                self.op_functions(body, uid, node)
        direct = DirectEmitter(self)  # the playouts' code (codegen/direct.py)
        blocks = [n for n in self.numbering.nodes if isinstance(n, ir.Block) and not self.flat(n)]
        if self.tally is not None:  # owner counts kept in playouts (codegen/tally.py)
            first = g.zones[min(self.tally.zones)]
            self.tally.prelude(body, self._where(first.span))
            resume_wrappers(body, [(self._uid(b), self._where(b.span)) for b in blocks])
        for b in blocks:
            direct.block_function(body, b)
        direct.triggers.functions(body)  # the triggers those call (codegen/triggers.py)
        body.line()
        for i, t in enumerate(g.tie_breakers):
            self._fn(body, f"tie_{i}", self._e(t.key), self._where(t.span))
        for i, trig in enumerate(g.triggers.values()):
            if trig.when is not None:
                self._fn(body, f"trigger_{i}_when", self._e(trig.when), self._where(trig.span))
        for v in g.variables.values():
            self._fn(body, f"init_{v.name}", self._e(v.initial), self._where(v.initial.span))
        body.line()
        for uid, node in enumerate(self.numbering.nodes):
            self.op_construction(body, uid, node)
        body.line(resume_table(self, blocks))
        text = self.ex.reuse.resolve(self._assemble(body), self.names.fresh)
        return self.ex.loops.resolve(text)  # (values kept per item: codegen/memo)

    def _function(self, w: Writer, f: ir.Function) -> None:
        """``def fn_NAME(st, ...)``. One that may call functions is counted and traced as the
        interpreter's counted_call does: it takes the call's span (``at``) for the depth error."""
        scope = Scope({p: f"v_{p}" for p in f.params})
        params = "".join(f", v_{p}" for p in f.params)
        value = self.ex.emit(f.body, scope)
        if f.name in self.ex.inlinable:
            w.line(f"def {function_name(f.name)}(st{params}):  {self._where(f.span)}")
            with w.indent():
                w.line(f"return {value}")
            w.line()
            return
        w.line(f"def {function_name(f.name)}(st, at{params}):  {self._where(f.span)}")
        count = not self.never_deep  # (else no call is ever that deep: codegen/calls.py)
        with w.indent():
            if count:
                w.line("if st.calls >= MAX_CALL_DEPTH:")
                with w.indent():
                    w.line("raise too_deep(at)")
                write_call_charge(self, w, f"f:{f.name}", "at")  # (a call cycle's: budget)
                w.line("st.calls += 1")
            w.line("try:")
            with w.indent():
                w.line(f"result = {value}" if count else f"return {value}")
            w.line("except Exception as e:")
            with w.indent():
                if count:
                    w.line("st.calls -= 1")
                head = repr(f"function {f.name} (")
                w.line(f"traced(e, {head} + str({self._span(f.span)}) + ')')")
                w.line("raise")
            if count:
                w.line("st.calls -= 1")
                w.line("return result")
        w.line()

    def _assemble(self, body: Writer) -> str:
        t: Any  # a variable's type (str) in one loop below, a trigger in another
        g, numbering = self.game, self.numbering
        variables = [  # first: their spans may name a file (a variant's) not seen yet
            (v.name, v.type, v.per, self._span(v.initial.span), v.visibility)
            for v in g.variables.values()
        ]
        tie_spans = ", ".join(self._span(t.span) for t in g.tie_breakers)
        entries = ", ".join(  # the rules trace's names of procedures (spans: before SPANS)
            f"{self._op(p.body)}.uid: {f'procedure {n} ('!r} + str({self._span(p.span)}) + ')'"
            for n, p in g.procedures.items()
        )
        out = Writer()
        # No rule text in the docstring or in comments: the game's name, id and file names are
        # written only as literals (GAME_NAME, GAME_ID, FILES), so no rule file can end a string
        # or a comment and write code of its own.
        out.line('"""A game compiled by meeple\'s code generator: GAME_ID and GAME_NAME name it.')
        out.line("")
        out.line(f"Generated by meeple.codegen (generator version {GENERATOR_VERSION});")
        out.line("do not edit: `meeple compile GAME -o FILE` writes it again.")
        out.line("Each function and statement names its rule as a comment (file:line).")
        out.line('"""')
        out.line()
        out.line("# ruff: noqa")
        out.line("from meeple.runtime import *  # what both back ends run: State, frames, ops")
        out.line()
        out.line(f"GAME_ID = {literal(g.id)}")
        out.line(f"GAME_NAME = {literal(g.name)}")
        out.line(f"PLAYERS = ({literal(g.players_min)}, {literal(g.players_max)})")
        out.line(f"FILES = {literal(tuple(self.files))}")
        out.line("KINDS = (")
        for k in kind_specs(g):
            out.line(f"    {literal(k)},")
        out.line(")")
        out.line("ZONES = (")
        for z in zone_specs(g):
            out.line(f"    {literal(z)},")
        out.line(")")
        out.line(f"SITES = {literal(numbering.site_domains)}")
        out.line("SPANS = (")
        for key in self.spans:
            out.line(f"    {literal(key)},")
        out.line(")")
        out.line()
        out.line()
        out.line("def build(num_players, files):")
        with out.indent():
            out.line('"""The program for ``num_players`` seats; ``files``: the paths of FILES."""')
            out.line(
                f"P = CompiledProgram(GAME_ID, GAME_NAME, KINDS, ZONES, num_players, "
                f"{literal(g.players_max)})"
            )
            out.line("S = [SourceSpan(files[f], *rest) for f, *rest in SPANS]")
            local_types = self.checked.fixed_local_types()
            if local_types:  # the type of each local name: checked in a saved state
                out.line(f"P.local_types = {dict(local_types)!r}")
            zone_locals = self.checked.zone_locals()
            if zone_locals:  # the locals a copy or a save looks for a zone in
                out.line(f"P.zone_locals = frozenset({sorted(zone_locals)!r})")
            # how frames stack: checked likewise
            parents, fresh = numbering.frame_parents, numbering.fresh_frames
            out.line("P.frame_parents = {")
            for uid, below in parents.items():
                out.line(f"    {uid}: frozenset({sorted(below)!r}),")
            out.line("}")
            out.line(f"P.fresh_frames = frozenset({sorted(fresh)!r})")
            out.line("site = P.sites(SITES)")
            emit_spaces_table(self, out, before=True)
        out.extend(self.const_lines)
        out.line()
        out.extend(body)
        with out.indent():
            n = numbering.num_ops
            out.line("P.ops = [" + ", ".join(f"o{i}" for i in range(n)) + "]")
            out.line(f"P.setup = {self._op(g.setup)}")
            out.line(f"P.play = {self._op(g.play)}")
            out.line(f"P.scoring = {self._op(g.scoring)}")
            out.line(f"P.proc_names = {{{entries}}}")
            if self.uncounted:  # (direct code that leaves calls unchecked: codegen/calls.py)
                out.line(f"P.procedure_chain = {self.depth.bound}")
            out.line("P.var_specs = [")
            for name, t, per, span, vis in variables:
                args = ", ".join(literal(x) for x in (name, t, per))
                out.line(f"    VarSpec({args}, {span}, {literal(vis)}),")
            out.line("]")
            inits = ", ".join(f"{literal(v.name)}: init_{v.name}" for v in g.variables.values())
            out.line(f"P.var_initial = {{{inits}}}")
            ties = ", ".join(f"tie_{i}" for i in range(len(g.tie_breakers)))
            out.line(f"P.tie_breakers = [{ties}]")
            out.line(f"P.tie_breaker_spans = [{tie_spans}]")
            for i, t in enumerate(g.triggers.values()):
                when = f"trigger_{i}_when" if t.when is not None else "None"
                kind, var = literal(t.kind), literal(t.var)
                cost = self.checked.work.call_charge(f"t:{t.name}")  # (in a cycle: budget)
                more = "" if cost is None else f", {cost}"
                rule = f"TriggerRule({kind}, {var}, {when}, {self._op(t.body)}{more})"
                out.line(f"P.add_trigger({literal(t.zone)}, {rule})  {self._where(t.span)}")
            emit_spaces_table(self, out, before=False)
            out.line("return P")
        return out.text()


def _children(s: Any) -> list[Any]:
    if isinstance(s, ir.Block):
        return list(s.stmts)
    if isinstance(s, ir.If):
        return [s.then, *(b.then for b in s.elifs)] + ([s.orelse] if s.orelse is not None else [])
    if isinstance(s, (ir.For, ir.Repeat, ir.While)):
        return [s.body]
    if isinstance(s, ir.Choose):
        return [o.body for o in s.options]
    return []


def _flat_procedures(game: ir.Game) -> dict[str, bool]:
    """Procedures that may be called inline: not on a cycle of calls (recursion keeps frames,
    so the interpreter's depth limit applies as it does there)."""
    calls = {name: _calls_in(p.body) for name, p in game.procedures.items()}

    def reaches(start: str, target: str) -> bool:
        seen, todo = set(), list(calls[start])
        while todo:
            n = todo.pop()
            if n == target:
                return True
            if n not in seen:
                seen.add(n)
                todo.extend(calls.get(n, ()))
        return False

    return {n: not reaches(n, n) for n in game.procedures}


def relative(file: str, root: Path) -> str:
    """A rules file relative to the game's folder (a module must not name this machine's paths:
    the same rules give the same module everywhere)."""
    return Path(os.path.relpath(Path(file).resolve(), root.resolve())).as_posix()


def _calls_in(s: Any) -> set[str]:
    """Names of the procedures a statement calls (directly)."""
    found = {s.name} if isinstance(s, ir.CallProc) else set()
    for c in _children(s):
        found |= _calls_in(c)
    return found


def check_names(game: ir.Game) -> None:
    """Refuse a game with a name that is not a meeple name (``dsl.limits.is_name``) where the
    module could write it as code: the checker refuses such names already; this is the code
    generator's own guard, so rule text never becomes Python code even if one slips through.

    Raises MeepleError at the declaration of the bad name."""

    def need(name: object, what: str, span: ir.SourceSpan) -> None:
        if not isinstance(name, str) or not is_name(name):
            raise MeepleError(
                f"{literal_text(name)} is not a valid {what} name for the code generator",
                span,
                expected="letters, digits and '_', not starting with a digit",
            )

    for key, k in game.kinds.items():
        for n in {key, k.name}:
            need(n, "kind", k.span)
        for p in k.properties:
            need(p, "property", k.span)
        for item in k.items:
            need(item.key, "item key", item.span)
            for p in item.props:
                need(p, "property", item.span)
    spaces: list[tuple[str, dict[str, Any]]] = [
        ("zone", game.zones),
        ("variable", game.variables),
        ("table", game.tables),
        ("function", game.functions),
        ("procedure", game.procedures),
        ("trigger", game.triggers),
    ]
    for what, space in spaces:
        for key, decl in space.items():
            for n in {key, decl.name}:
                need(n, what, decl.span)
            for p in getattr(decl, "params", ()):
                need(p, "parameter", decl.span)


def _flag(value: object) -> str:
    """A boolean of the IR as Python text (anything else is refused, never written raw)."""
    if not isinstance(value, bool):
        raise MeepleError(f"the code generator expected a yes/no value, not {literal_text(value)}")
    return repr(value)


def generate(checked: Checked) -> str:
    """The Python source of the compiled module for ``checked`` (deterministic)."""
    return ModuleEmitter(checked).module()
