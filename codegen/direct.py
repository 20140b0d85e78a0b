"""Direct code for playouts: each block of the rules as one Python function that runs the rest
of the block, decisions taken inline (State.playout, runtime/playout.py).

The frame-stepping code of a generated module stops at every decision, so that a state can wait
for an action, be saved and be resumed; a playout never waits. Its code is straight-line Python:
a choice is ``i = st.choose(n)`` followed by the chosen option's statements, loops are Python
loops, a procedure is a Python call (depth checked and counted only where a recursive procedure
may lie below it: codegen/calls.py), a pick is one loop (run_pick's, written out: pick.py).
``c_N(st, fr)`` runs the rest of a frame of block N (from its ``pc``); ``P.resume`` maps each
block's uid to it (a winner: codegen/contest.py). A statement without direct code here (a
track's spaces, a move that sets off triggers that must keep their frames: codegen/triggers.py,
where the others run as calls) starts as in the frame-stepping code and its frames are run at
once (``run_to``), decisions inline. Rule text reaches this code only as the ModuleEmitter
writes it: through ``repr()`` or as a validated name (``check_names``).
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from . import loopkeep
from .at import put
from .auction import write_auction
from .choice import write_ask, write_choice
from .contest import same_strength, write_contest
from .hoist import bound_names, hoisted
from .pick import write_pick
from .tally import KEPT, drops
from .triggers import TriggerCalls
from .writer import Writer, literal


class DirectEmitter:
    """The direct functions of one module, written with the ModuleEmitter ``em``'s helpers."""

    #: False: a pick calls run_pick instead of being written out (benchmarks/playout_steps.py
    #: measures what writing it out gains); the modules meeple runs always write them out.
    write_picks = True
    #: False: a choice collects its options as the frame-stepping code does (collect_N, ids and
    #: all) instead of only what a playout needs (codegen/choice.py); benchmarks/playout_steps.py
    #: measures what that gains.
    write_choices = True

    def __init__(self, em: Any) -> None:
        self.em = em
        self.triggers = TriggerCalls(em)  # a move's triggers run as calls (codegen/triggers.py)

    # ------------------------------------------------------------------ functions
    def block_function(self, w: Writer, b: ir.Block) -> None:
        """``c_N(st, env, pc)``: the statements of block N from ``pc`` on (a procedure's body
        called from direct code starts at 0). Only for a block that may stop: a flat block's
        frame-stepping function runs it whole already."""
        em = self.em
        w.line(f"def c_{em._uid(b)}(st, env, pc):  {em._where(b.span)}")
        # procedure calls checked and counted only where a playout needs it (codegen/calls.py)
        em.direct_block = b
        em.playout_only = True  # the log is off: moves are written without it (codegen/moves)
        em.ex.tally = em.tally  # owner counts read from a table (codegen/tally.py), or None
        out = Writer(w.level)
        try:
            with out.indent(), hoisted(em.ex, out, bound_names(b)) as body:  # locals read once
                for k, s in enumerate(b.stmts):
                    section = Writer(body.level + 1)  # (the next section runs next)
                    self.stmt(section, s, k + 1 < len(b.stmts))
                    if section.lines:  # (a log line, followed, is no code in a playout)
                        body.line(f"if pc <= {k}:")
                        body.extend(section)
        finally:
            em.direct_block = None
            em.playout_only = False
            em.ex.tally = None
        # the table dropped after whatever may move cards behind its back (codegen/tally)
        w.lines.extend(drops(out.lines) if em.tally is not None else out.lines)

    # ------------------------------------------------------------------ statements
    def body(self, w: Writer, b: ir.Block) -> None:
        if not b.stmts:
            w.line("pass")
        for k, s in enumerate(b.stmts):
            self.stmt(w, s, k + 1 < len(b.stmts))

    def stmt(self, w: Writer, s: ir.Stmt, followed: bool = False) -> None:
        """The direct code of ``s``; ``followed``: another statement of its block comes next
        (then ``st.at`` may be left to it: codegen/at.py)."""
        em = self.em
        if em.flat(s):
            em.stmt_flat(w, s, followed)
            return
        direct = getattr(self, "_d_" + type(s).__name__, None)
        if direct is None:
            self._started(w, s)
            return
        code = Writer(w.level)
        direct(code, s)
        put(em, w, s, code, followed)

    def _started(self, w: Writer, s: ir.Stmt) -> None:
        """Start ``s`` as the frame-stepping code does, then run the frames it pushed."""
        h = self.em.names.fresh("h")
        w.line(f"{h} = len(st.frames)")
        code = Writer(w.level)
        self.em.stmt_start(code, s)
        code.line(f"if len(st.frames) > {h}:")
        with code.indent():
            code.line(f"run_to(st, {h})")
        if self.em.tally is not None and isinstance(s, ir.Winner):  # (no card moves)
            code.lines = [f"{line}  {KEPT}" if "#" not in line else line for line in code.lines]
        w.extend(code)

    def _d_Block(self, w: Writer, s: ir.Block) -> None:
        self.body(w, s)

    def _d_Auction(self, w: Writer, s: ir.Auction) -> None:
        """Lowered by the front end (dsl/auction.py); an open auction's bidding is written as
        one loop (codegen/auction.py)."""
        if not write_auction(self, w, s):
            self._d_Block(w, s)

    def _d_If(self, w: Writer, s: ir.If) -> None:
        self.em._f_If(w, s, self.body)

    def _d_For(self, w: Writer, s: ir.For) -> None:
        if s.secret:  # (ForOp counts only a loop with items: the same when nothing runs)
            w.line("st.secret += 1")
        self.em._f_For(w, s, self.body)
        if s.secret:
            w.line("st.secret -= 1")

    def _d_Repeat(self, w: Writer, s: ir.Repeat) -> None:
        self.em._loop(w, s, s.until, False, self.body)

    def _d_While(self, w: Writer, s: ir.While) -> None:
        with loopkeep.carry(self.em, s) as c:  # (values kept for a choice: codegen/loopkeep)
            self.em._loop(w, s, s.test, True, self.body, c.condition if c else None)

    def _d_Move(self, w: Writer, s: ir.Move) -> None:
        """A move that may set off triggers: they run as calls (codegen/triggers.py) where they
        may, else their frames are pushed and run as the frame-stepping code does."""
        if not self.triggers.handles(s):
            self._started(w, s)
            return
        self.em.trigger_calls = self.triggers
        try:
            self.em._f_Move(w, s)
        finally:
            self.em.trigger_calls = None

    def _d_Pick(self, w: Writer, s: ir.Pick) -> None:
        if self.write_picks:
            write_pick(self.em, w, s)  # run_pick, written out (codegen/pick.py)
        else:
            w.line(f"run_pick(st, env, {self.em._op(s)})")

    def _d_Winner(self, w: Writer, s: ir.Winner) -> None:
        if same_strength(s):  # a majority's winner (codegen/contest.py)
            write_contest(self.em, w, s)
        else:
            self._started(w, s)

    def _d_EndGame(self, w: Writer, s: ir.EndGame) -> None:
        w.line("st.end_game()  # raises GameEnded during a playout")

    def _d_CallProc(self, w: Writer, s: ir.CallProc) -> None:
        em = self.em
        body = em.game.procedures[s.name].body
        if em.flat(body):  # (a procedure on a cycle of calls never has a flat body)
            self._started(w, s)
            return
        a = em.names.fresh("args")
        w.line(f"{a} = {em._call_env(s)}")
        em._inline_call(w, s, a, call=f"c_{em._uid(body)}(st, {a}, 0)")

    def _d_Choose(self, w: Writer, s: ir.Choose) -> None:
        """ChooseOp.exec, State.decide and ChooseOp.resolve in one: the option taken at once."""
        if self.write_choices:
            write_choice(self, w, s)  # only what a playout needs (codegen/choice.py)
            return
        em = self.em
        uid = em._uid(s)
        acts, vals, idx = (em.names.fresh(n) for n in ("actions", "values", "idx"))
        k = em.names.fresh("k")
        w.line(f"{acts}, {vals}, {idx} = collect_{uid}(st, env)")
        i = write_ask(em, w, s, f"len({acts})", em._span(s.span), uid)
        with w.indent():
            if len(s.options) > 1:
                w.line(f"{k} = {idx}[{i}]")
            for n, o in enumerate(s.options):
                if len(s.options) > 1:
                    w.line(f"{'if' if n == 0 else 'elif'} {k} == {n}:  {em._where(o.span)}")
                    w.level += 1
                if o.var is not None:
                    w.line(f"env[{literal(o.var)}] = {vals}[{i}]")
                self.body(w, o.body)
                if len(s.options) > 1:
                    w.level -= 1


def resume_table(em: Any, blocks: list[ir.Block]) -> str:
    """``P.resume = {...}``: the direct function of each block that may stop, by uid."""
    # (with owner counts: entered through r_N, which drops the table: codegen/tally.py)
    entry = "r" if em.tally is not None else "c"
    entries = ", ".join(f"{em._uid(b)}: {entry}_{em._uid(b)}" for b in blocks)
    return f"P.resume = {{{entries}}}"
