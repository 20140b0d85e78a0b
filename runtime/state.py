"""The game state and its OpenSpiel-style API.

A State is plain data (zones as ordered card lists, variables, the PRNG state, the frame stack,
the pending decision, the log) over a shared, immutable Program. It serializes to JSON and back,
and clones in time proportional to its size.
"""

from __future__ import annotations

import functools
import operator
import os
import random
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from meeple.dsl import builtins as builtins_module
from meeple.dsl.errors import (
    IllegalActionError,
    InternalError,
    MeepleError,
    RuleError,
    SourceSpan,
)
from meeple.dsl.limits import MAX_CALL_DEPTH, MAX_EXPR_DEPTH

from . import prng
from .helpers import not_a_seat
from .layout import ProgramBase
from .ops import (
    DONE,
    MAX_DEPTH,
    PICK_UNBOUNDED,
    ChooseOp,
    Decision,
    ForOp,
    Frame,
    GameEnded,
    Op,
    PickOp,
    WinnerOp,
)
from .position import position_line, saved_position_error
from .values import Card, card_label, decode, encode, log_text, player_name

TERMINAL = -4  # OpenSpiel's kTerminalPlayerId
# The version of the saved-state layout (to_json); bump it when the layout changes, so a state
# saved by another meeple is refused by name instead of being misread.
SAVE_FORMAT = 1


class State:
    """One position of a game. Create with ``Game.new_initial_state(seed)``.

    Seats are 0-based in this API (``current_player()`` is 0 for the first player, as in
    OpenSpiel); the log, prompts and the terminal show them as P1..Pn. ``log`` is a list of
    ``(visible_to, text)``: ``visible_to`` is -1 for a public line, else the only seat that may
    see it. ``ended_by`` is the uid of the `end game` statement that ended the game (None if the
    play ran to its end); ``meeple.endings.end_reason`` words it."""

    __slots__ = (
        "prog",
        "zones",
        "loc",
        "vars",
        "rng",
        "frames",
        "pending",
        "players",
        "secret",
        "phase",
        "log",
        "record_log",
        "at",
        "move_number",
        "calls",
        "inline",
        "ended_by",
        "ask_forced",
        "forced",
        "choose",
        "shared",
        "owned",
        "work",
        "work_move",
    )

    def __init__(
        self, prog: ProgramBase, seed: int = 0, record_log: bool = True, start: bool = True
    ) -> None:
        """A new game of ``prog``: its components in their start zones, its variables at their
        initial values; with ``start`` (the default) the setup runs at once, up to the first
        decision. A scenario that starts at setup passes ``start=False`` and calls advance()."""
        need_seed(seed)
        self._init_common(prog, record_log)
        # the layout's start piles copied (Layout.start_piles: each card in its start zone)
        self.zones: list[list[Card]] = list(map(list.copy, prog.start_piles))
        self.loc: list[int] = prog.start_loc.copy()
        self.players: list[int] = list(range(prog.num_players))
        self.rng = prng.seed_state(seed)
        self.secret = 0
        self.phase = "play"
        self.vars: dict[str, Any] = {}
        for v in prog.var_specs:
            init = prog.var_initial[v.name](self, {})
            if v.type == "player" and init is not None and init not in self.players:
                raise RuleError(
                    f"the initial value of '{v.name}' is seat {init}, but seats are 0 to "
                    f"{prog.num_players - 1} (P1 to P{prog.num_players})",
                    v.span,
                )
            if v.per is None:
                self.vars[v.name] = init
            else:  # one value per seat, or per component of a kind (by its ordinal)
                n = prog.num_players if v.per == "players" else len(prog.kind_cards[v.per])
                self.vars[v.name] = [init] * n
        self.frames: list[Frame] = [Frame(prog.play, {}), Frame(prog.setup, {})]
        if start:
            self._run()

    def _init_common(self, prog: ProgramBase, record_log: bool) -> None:
        self.prog = prog
        self.record_log = record_log
        self.log: list[tuple[int, str]] = []
        self.pending: Decision | None = None
        self.at: Op | None = None
        self.move_number = 0
        self.calls = 0  # rules functions running (see evaluate.counted_call)
        self.inline = 0  # procedures a generated module runs as Python functions
        # the work charged since the last decision (runtime/helpers.py charge, dsl/work.py),
        # counted from move ``work_move``: a charge at another move number starts it again
        self.work = 0
        self.work_move = -1
        # the uid of the `end game` statement that ended the game (None: the play block ran to
        # its end, or the game is not over); meeple.endings.end_reason words it
        self.ended_by: int | None = None
        # seats whose one-option decisions wait as pending decisions (the terminal shows a human
        # why the other options are not legal); the game and its log are the same either way
        self.ask_forced: frozenset[int] = frozenset()
        # (seat, prompt, label) of each decision with one legal option, which decide() takes
        # at once; None (the default) records nothing. Scenarios set a list to check them.
        self.forced: list[tuple[int, str, str]] | None = None
        # a random playout's chooser (see playout()): set only while one runs, so decisions
        # are taken where they arise instead of waiting as pending decisions
        self.choose: Callable[[int], int] | None = None
        # frames[:shared] are shared with clones (see clone): frozen, they and their locals are
        # changed by no state; the run loops copy them (_thaw) before running one
        self.shared = 0
        # piles shared with clones (see clone): owned[i] is 0 while pile i is also another
        # state's, which neither changes in place (_own_pair copies it first); None: all own
        self.owned: bytearray | None = None
        _room_for_calls()

    @classmethod
    def _blank(cls, prog: ProgramBase, record_log: bool) -> State:
        """A state without contents, for clone() and from_json() to fill."""
        s = cls.__new__(cls)
        s._init_common(prog, record_log)
        return s

    # ------------------------------------------------------------------ the run loop
    def advance(self) -> None:
        """Run the rules until the next decision or the end (used after editing frames)."""
        self._run()

    def _run(self) -> None:
        frames = self.frames
        try:
            if self.shared:  # frames shared with a clone: this loop until none is left
                while self.pending is None and self.shared:
                    if len(frames) <= self.shared:  # the top frame is shared: made own first
                        self._thaw()
                    fr = frames[-1]
                    fr.op.step(self, fr)
            while self.pending is None:  # (no check per step: nothing is shared now)
                if not frames:
                    if self.phase == "play":
                        self.phase = "scoring"
                        self.secret = 0
                        frames.append(Frame(self.prog.scoring, {}))
                        continue
                    self.phase = "over"
                    return
                fr = frames[-1]
                fr.op.step(self, fr)
        except Exception as e:
            self._fail(e)

    def _fail(self, e: Exception, span: SourceSpan | None = None) -> NoReturn:
        """Raise a failure while the rules ran as a MeepleError: a rule error at the statement
        that was running (or ``span``), with its rules trace; a fault of meeple's own code as an
        InternalError chaining the original exception."""
        err = self._located(e, span)
        self.calls = self.inline = 0  # the calls that were running are abandoned
        if isinstance(err, InternalError):
            raise err from e
        raise err from None

    def _located(self, e: Exception, span: SourceSpan | None = None) -> MeepleError:
        """A failure inside the rules as a MeepleError at the statement that was running."""
        if span is None and self.at is not None:
            span = self.at.span
        if isinstance(e, MeepleError):
            if e.span is None:
                e.span = span
            if not e.trace:
                e.trace = self._trace(e)
            return e
        if not isinstance(e, _RULE_FAILURES) or not _raised_by_rules(e):
            where = f" (while running {span})" if span is not None else ""
            return InternalError(f"{type(e).__name__}: {e}{where}")
        err = RuleError(f"the rules failed here: {_explain(e)}", span)
        err.trace = self._trace(e)
        return err

    def _trace(self, e: BaseException) -> list[str]:
        """The calls running when ``e`` was raised, outermost first: the procedures whose
        frames are on the stack, then those a generated module ran inline and the functions
        the exception came through."""
        names = self.prog.proc_names
        out = [names[f.op.uid] for f in self.frames if f.op.uid in names]
        out.extend(reversed(e.__dict__.get("meeple_calls", ())))
        return out

    def decide(self, dec: Decision) -> None:
        """Called by ops: ask for a decision, or take it at once when only one option exists."""
        p = dec.player
        if type(p) is not int or not 0 <= p < self.prog.num_players:  # `by: -1`, `by: 7`
            raise RuleError(not_a_seat(p, self.prog.num_players), dec.op.span)
        if p not in self.players:  # no decision is ever asked of an eliminated seat
            self.log_line(
                f"{player_name(p)} is out of the game: {dec.op.prompt(self, dec)} -> skipped", -1
            )
            dec.op.skip(self, dec)
            return
        if self.secret:
            dec.secret = True
        if self.choose is not None and len(dec.actions) > 1:  # a playout: taken at once
            i = self.choose(len(dec.actions))
            self.move_number += 1
            self.at = dec.op
            dec.op.resolve(self, dec, i)
            return
        if len(dec.actions) == 1 and p not in self.ask_forced:
            if self.forced is not None:
                self.forced.append((p, dec.op.prompt(self, dec), dec.label(self, 0)))
            if self.record_log:
                self._note(dec, 0, forced=True)
            dec.op.resolve(self, dec, 0)
        else:
            self.pending = dec

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        """The seat that must act now (0-based: 0 is P1), or TERMINAL (-4) when the game is
        over."""
        return self.pending.player if self.pending is not None else TERMINAL

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal action ids for the player to act (empty for anyone else or when over).

        Ids are stable: the same option of the same rule has the same id in every game of this
        game and player count (0 <= id < num_distinct_actions). Sorted ascending."""
        if player is not None:
            player = self._seat_arg(player)
        d = self.pending
        if d is None or (player is not None and player != d.player):
            return []
        # ascending, as OpenSpiel and the frameworks built on it expect (the rules list options
        # in their own order: legal_action_labels keeps that order for people)
        return sorted(d.actions)

    def action_to_string(self, action: int) -> str:
        """The label of a legal action, e.g. "Bolster The Boneyard"."""
        d = self._need_pending()
        try:
            return d.label(self, d.actions.index(action))
        except ValueError:
            return f"<action {action} is not legal now>"

    def legal_action_labels(self) -> list[tuple[int, str]]:
        """(action id, label) for every legal action, in the order the rules list them."""
        d = self.pending
        if d is None:
            return []
        return [(a, d.label(self, i)) for i, a in enumerate(d.actions)]

    def prompt(self) -> str:
        """What the current decision asks, e.g. "Action"."""
        d = self.pending
        return d.op.prompt(self, d) if d is not None else ""

    def decision_span(self) -> SourceSpan | None:
        """The rule (file:line) that asks the current decision."""
        return self.pending.op.span if self.pending is not None else None

    def apply_action(self, action: int) -> None:
        """Play ``action`` for the current player. Raises IllegalActionError (state unchanged)
        when the game is over or the action is not legal now."""
        d = self.pending
        if d is None:
            self._not_in_playout("apply an action to")
            raise IllegalActionError("the game is over; no action can be applied")
        if type(action) is not int:
            action = _action_id(action)
        try:
            i = d.actions.index(action)
        except ValueError:
            shown = ", ".join(str(a) for a in d.actions[:12])
            raise IllegalActionError(
                f"action {action} is not legal for {player_name(d.player)} now",
                expected=f"one of {shown}{', ...' if len(d.actions) > 12 else ''}",
            ) from None
        self.pending = None
        self.move_number += 1
        self.at = d.op
        try:
            if self.record_log:  # one action: a forced decision that waited (ask_forced)
                self._note(d, i, forced=len(d.actions) == 1)
            d.op.resolve(self, d, i)
        except Exception as e:
            self._fail(e)
        self._run()

    def playout(self, choose: Callable[[int], int] | random.Random | int | None = None) -> int:
        """Play on to the end of the game without a round trip through the API per decision:
        each decision with two or more legal actions is taken at once by ``choose(n)``, which
        returns the index (0 to n-1) of the option taken, in the order legal_action_labels()
        lists them; a decision with one legal action is taken without asking. ``choose`` may
        also be a ``random.Random`` or a seed (uniform choices, ``int(rng.random() * n)``);
        None is seed 0. The game is exactly the one apply_action() would give for the same
        choices. Returns the number of decisions taken (the forced ones not counted).

        A generated module runs its own direct code here (codegen/direct.py); the interpreter
        runs its frames with the decisions taken inline. With the log on, or a scenario's
        ``forced``/``ask_forced`` set, the decisions go through apply_action.

        Raises the RuleError of a rule that fails, as apply_action does; an exception the
        chooser raises comes out as it is; MeepleError for a bad index or seed. While it runs,
        the state cannot be cloned, saved or played on (from the chooser): MeepleError. A
        playout that fails half way leaves the state half run and refused from then on (play
        out a clone to keep the original); one whose chooser fails at the pending decision
        leaves the state as it was."""
        chooser, run_playout = _playout_functions()
        return run_playout(self, chooser(choose))

    def _not_in_playout(self, what: str) -> None:
        """Refuse to use a state that a playout is running on, or that a failed playout left
        half run (its frames are not a position any action can resume)."""
        if self.choose is None:
            return
        from .playout import FAILED  # noqa: PLC0415  (playout imports this module)

        if self.choose is FAILED:
            raise MeepleError(
                f"cannot {what} this state: a playout failed in it and left it half run",
                suggestion="play out a clone (state.clone().playout(...)) to keep the original",
            )
        raise MeepleError(
            f"cannot {what} this state while a playout is running on it (from its chooser)",
            suggestion="make a clone before the playout, or take decisions with apply_action",
        )

    def returns(self) -> list[float]:
        """1.0 for each winner (all tied winners share), 0.0 for the others; zeros until over."""
        if not self.is_terminal():
            return [0.0] * self.prog.num_players
        winners = set(self.winners())
        return [1.0 if p in winners else 0.0 for p in range(self.prog.num_players)]

    def scores(self) -> list[int]:
        """Each seat's final score (the game's ``score`` variable), or zeros; ``scores()[0]`` is
        P1's."""
        s = self.vars.get("score")
        return list(s) if isinstance(s, list) else [0] * self.prog.num_players

    def winners(self) -> list[int]:
        """The seats (0-based) with the best score after the tie-breakers, in seat order."""
        if not self.is_terminal() or not self.players:  # (all eliminated: nobody wins)
            return []
        keys = {p: self.tie_keys(p) for p in self.players}
        best = max(keys.values())
        return [p for p in self.players if keys[p] == best]

    def tie_keys(self, p: int) -> tuple[int, ...]:
        """(score, tie-breaker 1, tie-breaker 2, ...) for seat ``p``."""
        p = self._seat_arg(p)
        env = {"p": p}
        keys = [self.scores()[p]]
        for f, span in zip(self.prog.tie_breakers, self.prog.tie_breaker_spans, strict=True):
            try:
                keys.append(f(self, env))
            except Exception as e:
                self._fail(e, span)
        return tuple(keys)

    # Shared piles, why they are exact. After a clone both states hold the same pile lists,
    # ``owned`` all 0; neither may change a list whose ``owned`` is 0, and a name holding a
    # pile must hold the state's own list (a copy made later would leave it on the old one).
    # - Changed in place only by: State.move, move_count, refill, shuffle and
    #   runtime/moves.move_cards, which copy a shared pile first (_own_pair); a generated
    #   module's direct code (codegen/direct.py, its moves written out as list operations),
    #   which runs only in run_playout after own_all, with ``choose`` set, so no clone can share
    #   a pile again until it ends (owned stays None); meeple.ai.resample after own_all_piles;
    #   meeple/scenarios on a new state, never a clone. The stepping code calls State's moves.
    # - A copy replaces ``zones[i]`` only while owned[i] is 0 and sets it to 1; only clone()
    #   sets it back to 0, between steps. Held from one step to the next are only the locals
    #   (``env``) and a loop's list (frame data): a ``let``, a procedure's parameter and a loop
    #   over zones take their piles through own (both back ends; option, pick, trigger and
    #   track names hold cards, seats or numbers); at a clone the piles in the copied frames'
    #   and the decision's locals and lists are pinned (_pinned: the copy its own copy, the
    #   original its list, both owned), and frames whose locals or lists hold a pile are never
    #   shared (_may_share). Within a step the generated code holds a pile in a Python name
    #   only for one expression (``_r``, memos: no statement runs there) or reads it from such
    #   a local (hoisted ``_L_``): an expression changes no pile.
    # Frames shared below the running call are frozen: _run and own_all copy a call (_thaw)
    # before one of its frames runs; run_to (playouts) runs after own_all has copied them all.
    def clone(self) -> State:
        """An independent copy (the Program is shared), in time proportional to the state.

        It is the exact same position, down to the random-number state: the copy knows every
        hidden card (hands, deck order) and every future shuffle and draw. A search agent that
        plays on clones therefore cheats, as if it could see through the cards; an agent that
        must not see what its seat cannot see plays on ``meeple.ai.resample(state, seat, seed)``
        instead (hidden cards redrawn, random-number state reseeded). ``copy.deepcopy(state)``
        is this clone.

        The copy shares the piles, and the frames below the running call's, with this state
        until either changes them: moves, shuffles and the run loop copy what they change
        first (a pile, a call's frames). Code that changes a state's piles other than by
        playing it (a test arranging cards, meeple.ai.resample) calls own_all_piles() first.
        Why that is exact: the comment above this method."""
        if self.choose is not None:
            self._not_in_playout("copy")
        prog = self.prog
        # every slot is set here, not by _init_common: a clone is made at each node of a search
        s = _new_state(State)
        s.prog, s.record_log = prog, self.record_log
        # the piles are shared: a state copies one before it first changes it (_own_pair)
        zones = self.zones
        s.zones = zones.copy()
        s.owned = bytearray(len(zones))
        self.owned = bytearray(len(zones))
        s.loc = self.loc.copy()
        s.vars = vars_ = self.vars.copy()
        for k in _list_vars(prog):  # per-seat and per-component values are lists, changed in place
            v = vars_[k]
            if type(v) is list:
                vars_[k] = v.copy()
        s.rng, s.players, s.secret, s.phase = self.rng, self.players.copy(), self.secret, self.phase
        s.log, s.at, s.move_number = self.log.copy(), self.at, self.move_number
        s.ended_by, s.ask_forced = self.ended_by, self.ask_forced
        s.calls = s.inline = 0
        s.work, s.work_move = self.work, self.work_move
        s.forced = s.pending = s.choose = None
        # The frames of the running call (the top frames, with the top frame's locals) are
        # copied; those below are shared, frozen: neither state changes them or their locals
        # until it runs one again, when it copies that call's frames (_thaw). A copy that is
        # played on copies only the calls it returns to.
        frames = self.frames
        n = len(frames)
        below = 0
        if n:
            if n <= self.shared:
                self._thaw()  # (at rest the top frame has run: it is this state's own already)
            top = frames[-1].env
            if frames[0].env is not top:  # (else every frame runs in the one call)
                below = n - 1
                while frames[below - 1].env is top:  # (a call's frames lie together)
                    below -= 1
                below = self._may_share(below, top)
        copies = frames[:below] if below else []
        envs: dict[int, dict[str, Any]] = {}
        own_zones = prog.zone_locals  # locals that may hold a zone: made the copy's own
        last: object = None
        env: dict[str, Any] = {}
        for f in frames[below:] if below else frames:
            raw = f.env
            if raw is not last:  # (the frames of one call share its locals: one look-up)
                last = raw
                got = envs.get(id(raw))
                if got is None:
                    got = envs[id(raw)] = raw.copy()
                    if own_zones:
                        self._pin_locals(got, s)
                env = got
            # Frame.copy, inlined: a call per frame would cost a third of the copy
            g = _new_state(Frame)
            g.op = f.op
            g.env = env
            g.pc = f.pc
            data = f.data
            if type(data) is list:
                data = data.copy()
                if own_zones and _holds_lists(data):  # a loop over zones
                    data = self._pinned(data, s)
            g.data = data
            g.lo = f.lo
            g.hi = f.hi
            g.note = f.note
            copies.append(g)
        s.frames = copies
        s.shared = below
        if below > self.shared:  # (frames frozen by an earlier clone stay so)
            self.shared = below
        d = self.pending
        if d is not None:
            denv = envs.get(id(d.env))  # (an empty env is falsy: test for None, not truth)
            if denv is None:
                denv = d.env.copy()
                if own_zones:
                    self._pin_locals(denv, s)
            frame = copies[frames.index(d.frame)] if d.frame is not None else None
            s.pending = Decision(
                d.op, d.player, denv, frame, d.actions, d.values, d.options, d.secret
            )
        return s

    def _may_share(self, below: int, top: dict[str, Any]) -> int:
        """How many of the bottom ``below`` frames (those below the top call's, whose locals
        are ``top``) a clone may share with this state: none when the pending decision asks
        with other locals or another frame, or when the locals of a frame among them hold a
        zone (each state's locals hold its own piles)."""
        d = self.pending
        if d is not None and (d.env is not top or (d.frame is not None and d.frame.env is not top)):
            return 0  # (never so after a run: a decision is asked by the top frame)
        if self.prog.zone_locals:
            frames = self.frames
            last = None
            for i in range(self.shared, below):  # (those below shared were looked at before)
                f = frames[i]
                data = f.data
                if type(data) is list and _holds_lists(data):
                    return 0  # a loop over zones (rare, as below)
                if f.env is not last:
                    last = f.env
                    if self._holds_zone(last):
                        return 0  # (rare: few locals are zones, fewer set when a clone is made)
        return below

    def _holds_zone(self, env: dict[str, Any]) -> bool:
        """Does a local of ``env`` hold one of this state's piles (or a list of them)?"""
        for name in self.prog.zone_locals:
            v = env.get(name)
            if type(v) is list and (self._zone_at(v) is not None or _holds_lists(v)):
                return True
        return False

    def _thaw(self) -> None:
        """Make the top frame this state's own, with the frames of its call below it (they share
        its locals): copies of them and of those locals, and the pending decision moved onto
        them. Called before a frame shared with a clone (below ``shared``) runs."""
        frames = self.frames
        n = len(frames)
        env = frames[-1].env
        k = n - 1
        while k and frames[k - 1].env is env:
            k -= 1
        own = env.copy()  # (a frozen frame's locals hold no pile: _may_share)
        old = frames[k:]
        frames[k:] = _copied_frames(old, own)
        self.shared = min(self.shared, k)
        d = self.pending
        if d is not None:
            if d.env is env:
                d.env = own
            if d.frame is not None and d.frame in old:
                d.frame = frames[k + old.index(d.frame)]

    def _pin_locals(self, env: dict[str, Any], copy: State) -> None:
        """``env`` (a copy's locals, being made) with each local holding a pile of this state
        given ``copy``'s own (see _pinned)."""
        for name in self.prog.zone_locals:
            v = env.get(name)
            if type(v) is list:
                env[name] = self._pinned(v, copy)

    def _pinned(self, v: Any, copy: State) -> Any:
        """What ``copy`` (a clone being made) holds where this state holds ``v`` (in a local or
        a loop's list): for one of this state's piles, the copy's own copy of it, and the pile
        stays this state's own (a pile held outside ``zones`` is never shared: one state's
        moves would change it under the other's name); for a list of piles, a list of those;
        anything else as it is."""
        if type(v) is not list:
            return v
        i = self._zone_at(v)
        if i is None:
            return [self._pinned(z, copy) for z in v] if _holds_lists(v) else v
        owned = copy.owned
        assert owned is not None and self.owned is not None  # (clone shared the piles)
        if not owned[i]:
            copy.zones[i] = v.copy()
            owned[i] = self.owned[i] = 1
        return copy.zones[i]

    def own(self, v: Any) -> Any:
        """``v`` as a local may hold it: a pile this state shares with a clone made its own
        first (a copy), so that the name and ``zones`` hold the pile the moves change; a list
        of piles as a list of those; anything else as it is. Generated code and the ops call
        it where a value that may be a zone is given a name (a ``let``, a procedure's
        parameter) and on the list of a loop over zones (own_each)."""
        owned = self.owned
        if owned is None or type(v) is not list:
            return v
        i = self._zone_at(v)
        if i is None:
            return self.own_each(v)
        if not owned[i]:
            self.zones[i] = v.copy()
            owned[i] = 1
        return self.zones[i]

    def own_each(self, items: list[Any]) -> list[Any]:
        """``items`` (a loop's list) with each pile in it this state's own, as own() does."""
        if self.owned is None or not _holds_lists(items):
            return items
        return [self.own(x) for x in items]

    def own_locals(self, env: dict[str, Any]) -> dict[str, Any]:
        """``env`` with each local that may hold a zone given to own()."""
        if self.owned is not None:
            for name in self.prog.zone_locals:
                if name in env:
                    env[name] = self.own(env[name])
        return env

    def _zone_at(self, v: list[Any]) -> int | None:
        """The index of the zone that is the list ``v`` itself, or None."""
        if v:  # a pile's cards know where they lie: one look-up instead of a search
            c = v[0]
            if type(c) is not Card:
                return None  # (a pile holds cards only)
            i = self.loc[c.id]
            return i if self.zones[i] is v else None  # (the card's pile is not v)
        for i, z in enumerate(self.zones):
            if z is v:
                return i
        return None

    def __copy__(self) -> State:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """``copy.deepcopy(state)`` is ``clone()``: the Program (the compiled rules, shared by
        every state of the game) is never copied."""
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle a state as its saved data (``to_json()``) and the way to load its game again:
        the game id or rules path, the variant, the player count and the back end, as given to
        ``meeple.load`` (which records them). Unpickling in another process loads the game
        once (then reuses it) and rebuilds the state without re-checking it: a pickle is
        trusted data (unpickling anything runs code); a save from a stranger goes through
        ``Game.state_from_json``, which checks everything. Raises pickle.PicklingError for a
        state of a game not made by ``meeple.load``."""
        return (_unpickle_state, (program_origin(self.prog), self.to_json(), self.record_log))

    # ------------------------------------------------------------------ effects (used by ops)
    def move(self, card: Card, dest: int, bottom: bool) -> None:
        """Move one card from wherever it is to zone ``dest`` (on top, or at the bottom). A value
        that is not a card (``none``) is the rules' error, not the engine's."""
        if type(card) is not Card:
            shown = "none" if card is None else repr(card)
            raise RuleError(f"only a card can be moved, not {shown}")
        src = self.loc[card.id]
        if self.owned and not (self.owned[src] and self.owned[dest]):
            self._own_pair(src, dest)  # (shared with a clone: see clone)
        pile = self.zones[src]
        if pile[-1] is card:  # the top card (the most moved): no search from the bottom
            pile.pop()
        else:
            pile.remove(card)
        if bottom:
            self.zones[dest].insert(0, card)
        else:
            self.zones[dest].append(card)
        self.loc[card.id] = dest
        if self.record_log and self.prog.zone_vis[dest] == "owner":
            self._note_draw(src, dest, [card])

    def move_count(self, n: int, src: int, dest: int, bottom: bool, span: SourceSpan) -> None:
        """Move the top ``n`` cards of ``src``; an empty source with a refill zone is refilled
        (that zone shuffled in); with both empty the rest is skipped."""
        if type(n) is not int or n < 0:
            raise RuleError(f"cannot move {'none' if n is None else n} cards", span)
        if self.owned and not (self.owned[src] and self.owned[dest]):
            self._own_pair(src, dest)  # (shared with a clone: see clone)
        zones, loc = self.zones, self.loc
        s, d = zones[src], zones[dest]
        start = len(d)
        for _ in range(n):
            if not s:
                r = self.prog.refill_of[src]
                if r is None:
                    raise RuleError(
                        f"cannot take {n} from {self.prog.zone_names[src]}: it ran out", span
                    )
                self.refill(src, r)
                if not s:
                    break
            c = s.pop()
            if bottom:
                d.insert(0, c)
            else:
                d.append(c)
            loc[c.id] = dest
        if self.record_log and self.prog.zone_vis[dest] == "owner" and len(d) > start:
            self._note_draw(src, dest, d[: len(d) - start] if bottom else d[start:])

    def _note_draw(self, src: int, dest: int, cards: list[Card]) -> None:
        """A line only the drawing seat sees: which cards it took from a face-down zone into
        its own (the others see the zone's size change). Both back ends move cards here."""
        prog = self.prog
        owner = prog.zone_owner[dest]
        if owner is None or prog.zone_vis[src] not in ("hidden", "top"):
            return
        names = ", ".join(c.name for c in cards)
        self.log.append((owner, f"{player_name(owner)} draws {names} from {prog.zone_names[src]}"))

    def refill(self, zone: int, from_zone: int) -> None:
        if self.owned is not None:
            self._own_pair(zone, from_zone)
        src = self.zones[from_zone]
        if not src:
            return
        self.log_line(
            f"{self.prog.zone_names[from_zone]} is shuffled to form a new "
            f"{self.prog.zone_names[zone]}",
            -1,
        )
        for c in src:
            self.loc[c.id] = zone
        self.zones[zone].extend(src)
        src.clear()
        self.rng = prng.shuffle(self.rng, self.zones[zone])  # type: ignore[arg-type]

    def shuffle(self, zone: int) -> None:
        if self.owned is not None:
            self._own_pair(zone, zone)
        if self.record_log and len(self.zones[zone]) > 1:
            self.log.append((-1, f"{self.prog.zone_names[zone]} is shuffled"))
        self.rng = prng.shuffle(self.rng, self.zones[zone])  # type: ignore[arg-type]

    def _own_pair(self, a: int, b: int) -> None:
        """Make piles ``a`` and ``b`` this state's own (copies) if they are shared with a
        clone."""
        owned, zones = self.owned, self.zones
        assert owned is not None
        if not owned[a]:
            zones[a] = zones[a].copy()
            owned[a] = 1
        if not owned[b]:
            zones[b] = zones[b].copy()
            owned[b] = 1

    def own_all(self) -> None:
        """Make every pile and frame this state's own (copies of those shared with a clone):
        before a playout, which runs all the frames and changes most piles."""
        self.own_all_piles()
        below = self.shared
        if not below:
            return
        frames = self.frames
        d = self.pending
        if d is not None and below == len(frames):  # (at rest the top frame is own: clone)
            self._thaw()
            below = self.shared
        i = 0
        while i < below:  # call by call (a call's frames lie together and share its locals)
            env = frames[i].env
            j = i + 1
            while j < below and frames[j].env is env:
                j += 1
            # (a frozen frame's locals hold no pile: _may_share)
            frames[i:j] = _copied_frames(frames[i:j], env.copy())
            i = j
        self.shared = 0

    def own_all_piles(self) -> None:
        """Make every pile this state's own (copies of those shared with a clone): before code
        that changes piles other than by moves (a playout, a resample)."""
        owned = self.owned
        if owned is not None:
            zones = self.zones
            if 1 in owned:
                zones[:] = [z if o else z.copy() for z, o in zip(zones, owned, strict=True)]
            else:  # (all shared, as after a clone: the fastest copy)
                zones[:] = list(map(list.copy, zones))
            self.owned = None

    def end_game(self) -> None:
        """``end game``: play stops here and the scoring runs, as after the last round. Only
        ``end game`` inside the scoring itself ends the game at once. (A scenario runs its
        statement in the "scoring" phase, so that its normal end is the game's end without
        scoring; ``end game`` reached from it is not in the scoring, and is scored.)"""
        in_scoring = bool(self.frames) and self.frames[0].op is self.prog.scoring
        # both back ends set ``at`` to the `end game` statement (same uid) before calling this
        self.ended_by = self.at.uid if self.at is not None else None
        self.frames.clear()
        self.shared = 0
        self.secret = 0
        if self.phase == "scoring" and not in_scoring:
            self.phase = "play"  # _run then pushes the scoring, as when play ends
        if self.choose is not None:
            raise GameEnded  # a playout: unwind the Python calls of the rules that were running

    def zone_index(self, zone: list[Card]) -> int:
        i = self._zone_at(zone)
        if i is None:
            raise RuleError("expected a zone, got a computed list")
        return i

    def log_line(self, text: str, visible_to: int) -> None:
        if self.record_log:
            self.log.append((visible_to, log_text(text)))

    def _note(self, d: Decision, i: int, forced: bool) -> None:
        if not self.record_log or not d.op.logs_each_choice():
            return
        who = player_name(d.player)
        text = f"{who}: {d.op.prompt(self, d)} -> {d.label(self, i)}"
        if forced:
            text += " (forced)"
        self.log.append((d.player if d.secret else -1, log_text(text)))

    def _need_pending(self) -> Decision:
        if self.pending is None:
            raise IllegalActionError("the game is over")
        return self.pending

    # ------------------------------------------------------------------ invariants
    def check_invariants(self) -> None:
        """Raise RuleError unless every card is in exactly one zone and ``loc`` agrees."""
        seen = [0] * len(self.prog.cards)
        for zi, z in enumerate(self.zones):
            for c in z:
                seen[c.id] += 1
                if self.loc[c.id] != zi:
                    raise RuleError(f"{c.name} #{c.id} is misplaced in the location index")
        for cid, n in enumerate(seen):
            if n != 1:
                c = self.prog.cards[cid]
                raise RuleError(f"{c.name} #{cid} is in {n} places, not exactly one")

    # ------------------------------------------------------------------ observation
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see: hidden zones as counts, others' hands as counts, the log
        lines meant for everyone or for him, and his decision if he must act. Raises ValueError
        when ``player`` is not a seat of this game (0 to n-1)."""
        player = self._seat_arg(player)
        prog = self.prog
        zones: dict[str, Any] = {}
        for i, z in enumerate(self.zones):
            vis = prog.zone_vis[i]
            if vis == "public" or (vis == "owner" and prog.zone_owner[i] == player):
                zones[prog.zone_names[i]] = [card_label(c) for c in z]
            elif vis == "top":
                zones[prog.zone_names[i]] = {
                    "count": len(z),
                    "top": card_label(z[-1]) if z else None,
                }
            else:
                zones[prog.zone_names[i]] = {"count": len(z)}
        obs: dict[str, Any] = {
            "player": player,
            "current_player": self.current_player(),
            "zones": zones,
            "variables": {k: self._visible_var(k, v, player) for k, v in self.vars.items()},
            "log": [t for who, t in self.log if who in (-1, player)],
        }
        where = position_line(getattr(prog, "game", None), self.vars)
        if where is not None:  # rounds, phases and turns declared: "Round 3, phase X: P2's turn"
            obs["position"] = where
        if self.pending is not None and self.pending.player == player:
            obs["decision"] = {"prompt": self.prompt(), "options": self.legal_action_labels()}
        return obs

    def _seat_arg(self, player: Any) -> int:
        """``player`` given to a public method, checked: a seat 0..n-1 (any integer type, not a
        bool). Raises ValueError naming the valid seats."""
        n = self.prog.num_players
        try:
            p = None if isinstance(player, bool) else operator.index(player)
        except TypeError:
            p = None
        if p is None or not 0 <= p < n:
            raise ValueError(
                f"{player!r} is not a seat of this {n}-player game: seats are 0 to {n - 1} "
                f"(shown P1 to P{n})"
            )
        return int(p)

    def _visible_var(self, name: str, value: Any, player: int) -> Any:
        """A variable as ``player`` sees it: an owner-only one shows others' values as hidden."""
        if name not in self.prog.owner_only_vars:
            return encode(value)
        return [encode(v) if p == player else {"hidden": True} for p, v in enumerate(value)]

    # ------------------------------------------------------------------ JSON
    def _encode_local(self, name: str, v: Any) -> Any:
        """A local as JSON data; a zone held in a local (a procedure's zone parameter) is saved
        as ``{"zone": index}``, so that the resumed local is the zone, not a list of its cards."""
        if type(v) is list and name in self.prog.zone_locals:
            i = self._zone_at(v)
            if i is not None:
                return {"zone": i}
        return encode(v)

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-compatible data (see from_json)."""
        if self.choose is not None:
            self._not_in_playout("save")
        env_ids: dict[int, int] = {}
        envs: list[dict[str, Any]] = []

        def env_ref(env: dict[str, Any]) -> int:
            k = id(env)
            if k not in env_ids:
                env_ids[k] = len(envs)
                envs.append({n: self._encode_local(n, v) for n, v in env.items()})
            return env_ids[k]

        frames = [
            {
                "op": f.op.uid,
                "env": env_ref(f.env),
                "pc": f.pc,
                "data": encode(f.data),
                "lo": f.lo,
                "hi": f.hi,
                "note": f.note,
            }
            for f in self.frames
        ]
        pending = None
        d = self.pending
        if d is not None:
            pending = {
                "op": d.op.uid,
                "player": d.player,
                "env": env_ref(d.env),
                "frame": self.frames.index(d.frame) if d.frame is not None else None,
                "actions": list(d.actions),
                "values": [("__done__" if v is DONE else encode(v)) for v in d.values],
                "options": list(d.options),
                "secret": d.secret,
            }
        return {
            "format": SAVE_FORMAT,
            "game": self.prog.game_id,
            "rules": self.prog.game_name,
            "num_players": self.prog.num_players,
            "zones": [[c.id for c in z] for z in self.zones],
            "vars": {k: encode(v) for k, v in self.vars.items()},
            "rng": self.rng,
            "players": list(self.players),
            "secret": self.secret,
            "phase": self.phase,
            "move_number": self.move_number,
            "frames": frames,
            "envs": envs,
            "pending": pending,
            "at": self.at.uid if self.at is not None else None,
            "log": [list(e) for e in self.log],
            "ended_by": self.ended_by,
            "meeple": _meeple_version(),  # information only: the format is what is checked
        }

    @classmethod
    def from_json(
        cls, prog: ProgramBase, data: dict[str, Any], record_log: bool = True, advance: bool = True
    ) -> State:
        """Rebuild a state saved by to_json (for the same game and player count). A state saved
        between decisions is run on to the next one, unless ``advance`` is false. Raises
        MeepleError when the data is not a whole saved state of this game."""
        check_saved_game(prog, data)
        try:
            _check_saved(prog, data)
            s = cls._decode(prog, data, record_log)
            s.check_invariants()
        except _Damaged as e:
            raise MeepleError(f"this saved state is damaged: {e}") from None
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, RuleError):
            raise MeepleError("this saved state is damaged or from another version") from None
        if s.pending is not None:
            _verify_pending(s)
        if advance and s.pending is None and s.phase != "over":
            s.advance()  # saved between decisions: run on to the next one
        return s

    @classmethod
    def _decode(cls, prog: ProgramBase, data: dict[str, Any], record_log: bool) -> State:
        cards, ops = prog.cards, prog.ops
        s = cls._blank(prog, record_log)
        s.zones = [[cards[i] for i in z] for z in data["zones"]]
        s.loc = [0] * len(cards)
        for zi, z in enumerate(s.zones):
            for c in z:
                s.loc[c.id] = zi
        s.vars = {k: decode(v, cards) for k, v in data["vars"].items()}
        s.rng, s.players, s.secret = data["rng"], list(data["players"]), data["secret"]
        s.phase, s.move_number = data["phase"], data["move_number"]
        envs = [
            {n: s.zones[v["zone"]] if _is_zone_ref(v) else decode(v, cards) for n, v in e.items()}
            for e in data["envs"]
        ]
        s.frames = []
        for f in data["frames"]:
            fr = Frame(ops[f["op"]], envs[f["env"]], decode(f["data"], cards), f["lo"], f["hi"])
            fr.pc, fr.note = f["pc"], f.get("note", "")
            s.frames.append(fr)
        s.at = ops[data["at"]] if data.get("at") is not None else None
        s.log = [(int(w), str(t)) for w, t in data.get("log", [])]
        ended = data.get("ended_by")  # absent in states saved before it was recorded
        if ended is not None and not (type(ended) is int and 0 <= ended < len(ops)):
            raise _Damaged("ended_by is not a statement of these rules")
        s.ended_by = ended
        p = data.get("pending")
        if p is not None:
            values = [DONE if v == "__done__" else decode(v, cards) for v in p["values"]]
            frame = s.frames[p["frame"]] if p["frame"] is not None else None
            s.pending = Decision(
                ops[p["op"]],
                p["player"],
                envs[p["env"]],
                frame,
                list(p["actions"]),
                values,
                list(p["options"]),
                p["secret"],
            )
        return s

    def __str__(self) -> str:
        lines = []
        for i, z in enumerate(self.zones):
            lines.append(f"{self.prog.zone_names[i]}: {', '.join(c.name for c in z)}")
        return "\n".join(lines)


def need_seed(seed: object) -> None:
    """Refuse what is not a seed of a game: a whole number 0 to 2**64 - 1 (MeepleError)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise MeepleError(f"a seed is a whole number, not {seed!r}")
    if not 0 <= seed < prng.SEEDS:  # the PRNG takes 64 bits: a larger seed would wrap
        raise MeepleError(f"a seed is 0 to {prng.SEEDS - 1} (64 bits), not {seed}")


def _meeple_version() -> str:
    import meeple  # the package is imported before any of its modules: no cycle

    return meeple.__version__


def program_origin(prog: ProgramBase) -> tuple[str, str | None, int, str]:
    """How ``meeple.load`` made this program: (game id or rules path, variant, players, back
    end). Raises pickle.PicklingError when it was not made so (nothing to load it again by)."""
    origin = getattr(prog, "origin", None)
    if origin is None:
        import pickle  # noqa: PLC0415

        raise pickle.PicklingError(
            f"a state of {prog.game_name} can be pickled only if its game was loaded with "
            "meeple.load(...) (which records how to load it again in another process)"
        )
    return origin  # type: ignore[no-any-return]


def _unpickle_state(
    origin: tuple[str, str | None, int, str], data: dict[str, Any], record_log: bool
) -> State:
    """The state pickled by State.__reduce__ (its game loaded once per process)."""
    from meeple.api import game_of_origin  # noqa: PLC0415  (the API imports this module)

    prog = game_of_origin(origin).program
    s = State._decode(prog, data, record_log)
    return s


def _check_saved(prog: ProgramBase, data: dict[str, Any]) -> None:
    """Raise ValueError unless ``data`` has the shape of a saved state of ``prog``: every field
    of the right type and range, so that a damaged file fails here and not later in the rules."""

    def need(ok: bool) -> None:
        if not ok:
            raise ValueError("damaged")

    def whole(x: Any, lo: int = 0, hi: int | None = None) -> bool:
        return type(x) is int and x >= lo and (hi is None or x < hi)

    n = prog.num_players
    zones, players = data["zones"], data["players"]
    need(isinstance(zones, list) and len(zones) == len(prog.zone_names))
    need(all(type(z) is list for z in zones))
    ids = [c for z in zones for c in z]  # each in range and exactly once: check_invariants
    need(set(map(type, ids)) <= {int} and (not ids or min(ids) >= 0))
    need(isinstance(players, list) and all(whole(p, 0, n) for p in players))
    # every seat may have been eliminated only in a finished game
    need(players == sorted(set(players)) and (len(players) > 0 or data.get("phase") == "over"))
    need(whole(data["rng"], 0, prng.SEEDS) and whole(data["move_number"], 0, prng.SEEDS))
    need(whole(data["secret"], 0, MAX_DEPTH))  # (nested secret blocks: at most one per frame)
    log = data.get("log", [])
    need(isinstance(log, list))
    for entry in log:  # (seat that may read it, or -1 for everyone; text)
        need(type(entry) is list and len(entry) == 2 and whole(entry[0], -1, n))
        need(type(entry[1]) is str)
    version = data.get("meeple")
    need(version is None or (type(version) is str and len(version) <= 40))
    need(data["phase"] in ("play", "scoring", "over"))
    need(isinstance(data["vars"], dict) and set(data["vars"]) == {v.name for v in prog.var_specs})
    envs, frames, pending = data["envs"], data["frames"], data["pending"]
    need(isinstance(envs, list) and all(isinstance(e, dict) for e in envs))
    need(isinstance(frames, list))
    for f in frames:
        need(whole(f["op"], 0, len(prog.ops)) and whole(f["env"], 0, len(envs)))
        need(whole(f["pc"]) and type(f["lo"]) is int and type(f["hi"]) is int)
        size = getattr(prog.ops[f["op"]], "size", None)  # a block: at most past its end
        need(size is None or f["pc"] <= size)
    need(data.get("at") is None or whole(data["at"], 0, len(prog.ops)))
    for v in prog.var_specs:
        value = data["vars"][v.name]
        if v.type == "player":
            for x in value if v.per is not None and type(value) is list else [value]:
                _need_seat(x, n, f"variable '{v.name}'")
        need(_fits_variable(value, v, prog))
    why = saved_position_error(getattr(prog, "game", None), data["vars"])
    if why is not None:
        raise _Damaged(why)
    types = prog.local_types
    for e in envs:  # a zone held in a local names a zone that exists
        for x in e.values():
            if type(x) is dict and "zone" in x:
                need(set(x) == {"zone"} and whole(x["zone"], 0, len(data["zones"])))
    for e in envs:  # locals of a known type: a seat in range, a card that exists...
        for name, x in e.items():
            if name in types:
                _need_local(x, types[name], prog, f"local name '{name}'")
    secret_loops = 0
    for f in frames:  # what a loop has still to visit is of its variable's type
        op = prog.ops[f["op"]]
        if isinstance(op, ForOp):
            secret_loops += op.secret
            need(type(f["data"]) is list)
            if op.var in types:
                for y in f["data"]:  # items of a list: never none
                    need(y is not None)
                    _need_local(y, types[op.var], prog, f"the loop over '{op.var}'")
        elif isinstance(op, PickOp):  # the items picked so far
            need(type(f["data"]) is list and all(_fits(c, "card", prog) for c in f["data"]))
            need(None not in f["data"])
            # its bounds: a pick takes at most every card (no max: PICK_UNBOUNDED)
            lo, hi, most = f["lo"], f["hi"], len(prog.cards)
            need(0 <= lo <= hi and lo <= most and (hi <= most or hi == PICK_UNBOUNDED))
            need(len(f["data"]) <= hi)
    _check_frames(prog, frames)
    if data["secret"] != secret_loops:  # decisions are secret inside `simultaneous` blocks
        raise _Damaged(
            f"it records {data['secret']} secret (simultaneous) blocks around its decision, "
            f"but its frames stand in {secret_loops}"
        )
    need(pending is None or data["phase"] != "over")
    if pending is not None:
        actions, op = pending["actions"], prog.ops[pending["op"]]
        need(whole(pending["op"], 0, len(prog.ops)) and whole(pending["env"], 0, len(envs)))
        need(type(op).resolve is not Op.resolve)  # an op that asks decisions
        need(whole(pending["player"], 0, n) and pending["player"] in players)
        need(isinstance(actions, list) and len(actions) == len(pending["values"]) > 0)
        need(all(whole(a, 0, prog.num_distinct_actions) for a in actions))
        need(len(set(actions)) == len(actions))
        choices = len(getattr(op, "options", ())) or None
        need(all(whole(k, 0, choices) for k in pending["options"]) if choices else True)
        need(pending["frame"] is None or whole(pending["frame"], 0, len(frames)))


def frame_structure(prog: ProgramBase) -> tuple[dict[int, frozenset[int]], frozenset[int]]:
    """How frames can stack, from the interpreter's ops: (uid of a frame's op -> uids of the ops
    whose frame may be directly below it, uids of the blocks that start with names of their own:
    procedure and trigger bodies, setup, play, scoring). A trigger body may sit on any frame.
    Both back ends stack the same frames (the generated module is given this table)."""
    from .ops import BlockOp, CallOp, IfOp, RepeatOp  # noqa: PLC0415

    parents: dict[int, set[int]] = {}
    fresh = {prog.setup.uid, prog.play.uid, prog.scoring.uid}
    parents.setdefault(prog.setup.uid, set()).add(prog.play.uid)  # a new game: setup on play

    def pushes(s: Op) -> list[Op]:
        if isinstance(s, (BlockOp, ForOp, RepeatOp, PickOp)):
            return [s]
        if isinstance(s, IfOp):
            return list(s.blocks())
        if isinstance(s, CallOp):
            fresh.add(s.body.uid)
            return [s.body]
        if isinstance(s, ChooseOp):
            return [o.body for o in s.options]
        return []

    for op in prog.ops:
        if isinstance(op, BlockOp):
            for s in op.stmts:
                for child in pushes(s):
                    parents.setdefault(child.uid, set()).add(op.uid)
        elif isinstance(op, (ForOp, RepeatOp)):
            parents.setdefault(op.body.uid, set()).add(op.uid)
    triggers = getattr(prog, "triggers_at", {})
    for rules in triggers.values():
        for r in rules:
            fresh.add(r.body.uid)
    fresh |= space_bodies(prog)
    return {k: frozenset(v) for k, v in sorted(parents.items())}, frozenset(fresh)


def space_bodies(prog: ProgramBase) -> set[int]:
    """The uids of the bodies of tracks' spaces (runtime/tracks.py): each starts with
    names of its own and may sit on any frame, as a trigger body does."""
    spaces = getattr(prog, "spaces_of", {})
    return {r.body.uid for sp in spaces.values() for _, _, r in sp.edges}


def _check_frames(prog: ProgramBase, frames: list[dict[str, Any]]) -> None:
    """Each saved frame must be one its rules can push on the frame below it, with that frame's
    local names unless it starts a procedure or trigger (the bottom frame is free: a scenario
    starts from any statement)."""
    from .ops import BlockOp  # noqa: PLC0415

    # the frames of a call lie together (a call pushes its frames on top, and they are done
    # before its caller's run on): a clone shares the frames below the top call's (clone)
    ended: set[int] = set()
    for below, f in zip(frames, frames[1:], strict=False):
        if f["env"] != below["env"]:
            ended.add(below["env"])
            if f["env"] in ended:
                raise _Damaged(f"the names of op {f['op']} are those of a call that is done")
    if isinstance(prog.play, BlockOp):
        # the interpreter: derived from its ops, again when a scenario has compiled more
        if prog.frame_parents_for != len(prog.ops):
            prog.frame_parents, prog.fresh_frames = frame_structure(prog)
            prog.frame_parents_for = len(prog.ops)
    parents, fresh = prog.frame_parents, prog.fresh_frames
    if parents is None:
        return  # a generated module without the table (made by an older meeple)
    triggers = {r.body.uid for rs in getattr(prog, "triggers_at", {}).values() for r in rs}
    triggers |= space_bodies(prog)  # a track's space effect, like a trigger, runs anywhere
    for below, f in zip(frames, frames[1:], strict=False):
        op = f["op"]
        if op not in triggers and below["op"] not in parents.get(op, ()):
            raise _Damaged(
                f"its rules never run {prog.ops[op].span} (op {op}) from inside "
                f"{prog.ops[below['op']].span} (op {below['op']})"
            )
        if op not in fresh and f["env"] != below["env"]:
            raise _Damaged(f"the names of op {op} are not those of the statement that runs it")


def check_saved_game(prog: ProgramBase, data: Any) -> None:
    """Refuse what is not a saved state of ``prog``'s game, rules and seat count, saying which
    game it is of: by the ``game`` (id) and ``rules`` (name, with the variant's) it records,
    then by its seat count; a saved state of another game is never diagnosed by its seats.
    Raises MeepleError; the rest of the data is checked by ``State.from_json``."""
    if not isinstance(data, dict) or "zones" not in data or "frames" not in data:
        raise MeepleError("this is not a saved meeple state (expected the data of to_json())")
    _check_format(data)
    game, rules, seats = (
        data.get("game"),
        data.get("rules", prog.game_name),
        data.get("num_players"),
    )
    if type(game) is not str or type(rules) is not str:
        raise MeepleError("this saved state is damaged: it does not say which game it is of")
    if game != prog.game_id:
        raise MeepleError(
            f"this saved state is of {_said(game)} ({_said(rules)}), "
            f"not of {prog.game_id} ({prog.game_name})",
            suggestion=f"load it with the game it was saved with ({_said(game)})",
        )
    if rules != prog.game_name:  # the same game with another variant's changes
        raise MeepleError(
            f"this saved state is of {_said(rules)}, not of {prog.game_name}",
            suggestion="load it into the game with the variant it was saved with",
        )
    if seats != prog.num_players:
        shown = seats if type(seats) is int else _said(repr(seats))
        if type(seats) is not int or not 1 <= seats <= prog.players_max:
            raise MeepleError(
                f"this saved state is damaged: it records {shown} players, and "
                f"{prog.game_name} is played by {prog.players_max} at most"
            )
        raise MeepleError(
            f"this saved state is of {_said(rules)} with {shown} players, not {prog.num_players}",
            suggestion=f"load the game for {shown} players" if type(seats) is int else None,
        )


def _said(text: str) -> str:
    """A name read from a saved file, as the message shows it: as written when it is a short
    printable line, else quoted and cut (a file from anywhere may hold anything)."""
    if len(text) <= 80 and text.isprintable():
        return text
    return repr(text[:80]) + ("..." if len(text) > 80 else "")


def _check_format(data: dict[str, Any]) -> None:
    """Refuse a state saved in another layout, by its version (policy: saved states carry one)."""
    fmt = data.get("format")
    if fmt == SAVE_FORMAT and type(fmt) is int:
        return
    said = "without a format version" if fmt is None else f"in format {fmt!r}"
    raise MeepleError(
        f"this state was saved {said}; this meeple reads format {SAVE_FORMAT}",
        suggestion="resume it with the meeple that saved it, or start a new game",
    )


def _verify_pending(s: State) -> None:
    """Refuse a saved pending decision that is not the one its rule asks in the saved position.

    The decision is derived again from the rules: the op that asks it is run on the saved
    frames (a choose's options collected, a pick's next offer computed, a tie found again), and
    the player to act, the action ids, the offered values, the option indices and the secrecy
    must all be what was saved. Raises MeepleError naming the first difference."""
    d = s.pending
    assert d is not None
    op, frames = d.op, s.frames
    # a decision is asked by the statement running in the top frame, with that frame's names
    if not frames or d.env is not frames[-1].env:
        raise _tampered("it is not asked where the saved rules stand")
    secret = d.secret
    options: list[int]
    try:
        if isinstance(op, PickOp):
            if d.frame is not frames[-1] or d.frame.op is not op or d.options:
                raise _tampered("it is not the pick being played")
            offer = op.offer(s, d.frame)
            if offer is None:
                raise _tampered("the pick it continues is over")
            actions, values = offer
            player, options = op.player(s, d.env), []
            want_secret = op.secret or s.secret > 0
        elif isinstance(op, ChooseOp):
            if d.frame is not None:
                raise _tampered("a choice is not asked by a frame")
            actions, values, options = op.collect(s, d.env)
            player = op.player(s, d.env)
            want_secret = op.secret or s.secret > 0
        elif isinstance(op, WinnerOp):
            if d.frame is not None or d.options:
                raise _tampered("a tie-break is not asked by a frame")
            values, player, ask = op.contest(s, d.env)
            if not ask:
                raise _tampered("the rules find no tie to break here")
            actions, options = [op.site.action(x) for x in values], []
            want_secret = s.secret > 0
        else:
            raise _tampered("its statement asks no decision")
    except TamperedSaveError:
        raise
    except MeepleError as e:
        raise _tampered(f"the rules cannot ask it here ({e.message})") from None
    except _RULE_FAILURES as e:
        raise _tampered(f"the rules cannot ask it here ({_explain(e)})") from None
    if player != d.player:
        raise _tampered(
            f"{player_name(d.player)} is saved to act, but the rules ask "
            f"{player_name(player) if isinstance(player, int) else repr(player)}"
        )
    if len(actions) < 2:
        raise _tampered("the rules offer a single option here, which is taken, not asked")
    if list(actions) != d.actions or len(values) != len(d.values):
        raise _tampered(
            f"the saved action ids {_ids(d.actions)} are not the ids the rules offer, "
            f"{_ids(actions)}"
        )
    if any(a is not b and a != b for a, b in zip(values, d.values, strict=True)):
        raise _tampered("the saved options are not the ones the rules offer")
    if list(options) != d.options:
        raise _tampered("the saved option numbers are not the rule's")
    if bool(want_secret) != bool(secret):
        raise _tampered("its secrecy is not the rule's")


def _ids(actions: list[int]) -> str:
    shown = ", ".join(map(str, actions[:8]))
    return f"[{shown}{', ...' if len(actions) > 8 else ''}]"


class TamperedSaveError(MeepleError):
    """A saved state whose pending decision is not the one its rules ask."""


def _tampered(why: str) -> TamperedSaveError:
    return TamperedSaveError(
        f"this saved state's pending decision is not the one its rules ask: {why}",
        suggestion="the file was edited or damaged; resume from an untouched save",
    )


class _Damaged(ValueError):
    """A saved state that is not whole, with what is wrong (shown to the user)."""


def _need_seat(x: Any, n: int, where: str) -> None:
    """A saved value the rules always make a seat (or none) must be a seat of this game."""
    if x is None or (type(x) is int and 0 <= x < n):
        return
    if type(x) is int:
        shown = f"P{x + 1} (saved as {x})" if x >= 0 else f"seat {x}"
    else:
        shown = repr(x)
    raise _Damaged(
        f"{where} holds {shown}, which is not a player in this {n}-player game "
        f"(seats are P1 to P{n}, saved as 0 to {n - 1})"
    )


def _need_local(x: Any, t: str, prog: ProgramBase, where: str) -> None:
    """A saved local (or loop item) must fit the type the rules give its name; none is allowed
    (a winner nobody won, a card not yet chosen)."""
    if x is None:
        return
    if t == "player":
        _need_seat(x, prog.num_players, where)
    elif t.startswith("list:") and type(x) is list:
        for y in x:
            _need_local(y, t[5:], prog, where)
    elif not _fits(x, t, prog):
        raise _Damaged(f"{where} holds {x!r}, which is not a {t}")


def _fits_variable(value: Any, v: Any, prog: ProgramBase) -> bool:
    """Does a saved (encoded) value fit the variable's type, per seat or per component?"""
    if v.per is not None:
        n = prog.num_players if v.per == "players" else len(prog.kind_cards[v.per])
        return (
            type(value) is list and len(value) == n and all(_fits(x, v.type, prog) for x in value)
        )
    return _fits(value, v.type, prog)


def _fits(x: Any, t: str, prog: ProgramBase) -> bool:
    if x is None:
        return t in ("player", "card", "any") or t.startswith("list:")
    if t == "int":
        return type(x) is int
    if t == "bool":
        return type(x) is bool
    if t == "str":
        return type(x) is str
    if t == "player":
        return type(x) is int and 0 <= x < prog.num_players
    if t == "card":
        return type(x) is dict and type(x.get("card")) is int and 0 <= x["card"] < len(prog.cards)
    if t == "zone":  # a zone in a local is saved as {"zone": index} (checked in range apart)
        return type(x) is list or _is_zone_ref(x)
    if t.startswith("list:"):
        return type(x) is list
    return True


def _is_zone_ref(x: Any) -> bool:
    """A saved local that is a zone: ``{"zone": index}`` (see State._encode_local)."""
    return type(x) is dict and "zone" in x


def _action_id(action: Any) -> int:
    """Any integer type (a numpy integer from ``np.random.choice``...) as an int; not a bool."""
    try:
        if not isinstance(action, bool):
            return operator.index(action)
    except TypeError:
        pass
    raise IllegalActionError(f"an action is a whole number (an id), not {action!r}")


# Python errors that mean the rules asked for something impossible (an empty zone's top card, the
# smallest of no numbers...), when they are raised by the rules' own code (see _raised_by_rules)
_RULE_FAILURES = (
    IndexError,
    KeyError,
    AttributeError,
    TypeError,
    ValueError,
    NameError,
    ZeroDivisionError,
    OverflowError,
)

_HERE = os.path.dirname(os.path.abspath(__file__))
_PACKAGE = os.path.dirname(_HERE) + os.sep  # meeple's own code (dsl, interpreter, codegen...)
# meeple's files that run the rules' own expressions and statements: an error raised there (or in
# a generated module, or in a Python built-in they called) is the rules'
# (the built-ins' implementations too: first() of an empty list is the rules' error)
_RULES_CODE = {
    os.path.join(_HERE, "helpers.py"),  # the runtime's helpers the rules' code calls
    os.path.join(_HERE, "majority_counts.py"),  # a majority's counts, for generated code
    os.path.join(_HERE, "card_counts.py"),  # the same, of a card (codegen/cardeq)
    os.path.join(_HERE, "tops.py"),  # the top card of each row, for generated code
    os.path.join(_PACKAGE, "interpreter", "evaluate.py"),  # (a path: nothing imported)
    os.path.join(_PACKAGE, "interpreter", "program.py"),
    os.path.abspath(builtins_module.__file__),
}


def _raised_by_rules(e: BaseException) -> bool:
    """Was ``e`` raised by code that evaluates the rules (the interpreter's compiled closures or
    a generated module, directly or in a Python built-in or library function they called),
    rather than by the engine around them? Decided by the innermost frame of the traceback that
    is meeple's own code or a generated module."""
    frames = []
    tb = e.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        f = os.path.abspath(frame.f_code.co_filename)
        if f in _RULES_CODE or ("GAME_ID" in frame.f_globals and "build" in frame.f_globals):
            return True
        if f.startswith(_PACKAGE):
            return False
    return False


_new_state = object.__new__  # an instance without __init__ (clone sets every slot itself)


def _holds_lists(items: list[Any]) -> bool:
    """Does ``items`` hold a list (a pile, among the items of a list of zones)?"""
    return list in map(type, items)  # (a scan in C: no generator)


def _copied_frames(frames: list[Frame], env: dict[str, Any]) -> list[Frame]:
    """Copies of ``frames`` (of one call), with the locals ``env``."""
    out = []
    for f in frames:
        # Frame.copy, inlined: a call per frame would cost a third of the copy
        g = _new_state(Frame)
        g.op = f.op
        g.env = env
        g.pc = f.pc
        data = f.data
        g.data = data.copy() if type(data) is list else data
        g.lo = f.lo
        g.hi = f.hi
        g.note = f.note
        out.append(g)
    return out


def _list_vars(prog: ProgramBase) -> tuple[str, ...]:
    """The variables of ``prog`` that may hold a list (per-seat and per-component values,
    anything not a scalar): the ones clone() copies. Computed once per Program."""
    names: tuple[str, ...] | None = getattr(prog, "_clone_list_vars", None)
    if names is None:
        scalars = ("int", "bool", "str", "card", "player")
        names = tuple(v.name for v in prog.var_specs if v.per is not None or v.type not in scalars)
        setattr(prog, "_clone_list_vars", names)  # noqa: B010  (not a declared attribute)
    return names


@functools.cache
def _playout_functions() -> tuple[Callable[[Any], Callable[[int], int]], Callable[..., int]]:
    """runtime/playout.py's chooser and run_playout, imported once (it imports this module):
    an import statement run on every State.playout cost a few percent of a short game's."""
    from .playout import chooser, run_playout  # noqa: PLC0415

    return chooser, run_playout


def _room_for_calls() -> None:
    """Make sure Python's own recursion limit is never reached before MAX_CALL_DEPTH: each level
    of rules calls costs up to about two Python frames per level of expression nesting."""
    need = MAX_CALL_DEPTH * (2 * MAX_EXPR_DEPTH + 16) + 2_000
    if sys.getrecursionlimit() < need:
        sys.setrecursionlimit(need)


def _explain(e: Exception) -> str:
    if isinstance(e, IndexError):
        return "a zone or list has no item there (it is empty, or the position is past its end)"
    if isinstance(e, AttributeError):
        return f"a value has no such property ({e})"
    if isinstance(e, KeyError):  # a card without the property read (its own ``props``)
        return f"a value has no such property ({e.args[0] if e.args else e})"
    return f"{type(e).__name__}: {e}"


_room_for_calls()  # at import, so that it is done once and before any game runs
