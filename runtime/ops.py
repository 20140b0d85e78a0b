"""Statements as ops on an explicit frame stack, so a game can stop at any decision, be saved
as data, and resume.

A frame is (op, env, pc, data, lo, hi): the op that owns it, the local names of the procedure
call it belongs to, and a cursor. ``Op.exec`` starts a statement; ``Op.step`` advances the frame
it pushed. A choice sets ``state.pending`` (a Decision) and the run loop stops until an action
resolves it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meeple.dsl.errors import RuleError, SourceSpan
from meeple.dsl.limits import MAX_BLOCK_DEPTH, MAX_CALL_DEPTH
from meeple.wording import plural

from .helpers import (  # noqa: F401  (re-exported)
    MISSING,
    charge,
    not_a_seat,
    option_seat,
    restore_local,
    too_deep,
    traced,
)
from .layout import site_size
from .values import Card, player_name

if TYPE_CHECKING:
    from .state import State

Env = dict[str, Any]
Fn = Callable[[Any, Env], Any]
DONE = "done"
PICK_UNBOUNDED = 1 << 30  # the upper bound of a pick without max (more than every card)
# frames: procedure calls nest at most MAX_CALL_DEPTH deep, each with at most MAX_BLOCK_DEPTH
# nested blocks, so only triggers setting each other off can go deeper (see fire)
MAX_DEPTH = MAX_CALL_DEPTH * (MAX_BLOCK_DEPTH + 2)
MAX_PASSES = 100_000  # of one loop


def procedure_depth(st: State) -> int:
    """How many procedure calls are running: their frames, and (in a generated module) the
    ones run inline as Python functions."""
    bodies = st.prog.proc_names
    return st.inline + sum(1 for f in st.frames if f.op.uid in bodies)


def enter_procedure(st: State, span: SourceSpan) -> None:
    """Refuse a procedure call that would nest deeper than MAX_CALL_DEPTH (RuleError at the
    call). Counting frames costs only when the stack is already that deep."""
    if len(st.frames) + st.inline >= MAX_CALL_DEPTH and procedure_depth(st) >= MAX_CALL_DEPTH:
        raise too_deep(span)


def too_long(span: SourceSpan) -> RuleError:
    """The error for a loop whose condition never changes."""
    return RuleError(f"a loop ran {MAX_PASSES} times; its condition never changes", span)


class GameEnded(Exception):
    """Raised by ``end game`` during a playout (State.playout) to leave the rules' Python calls
    that were running; the frames were cleared already, and the playout goes on to scoring."""


class Frame:
    __slots__ = ("op", "env", "pc", "data", "lo", "hi", "note")

    def __init__(self, op: Op, env: Env, data: Any = None, lo: int = 0, hi: int = 0) -> None:
        self.op, self.env, self.pc, self.data, self.lo, self.hi = op, env, 0, data, lo, hi
        self.note = ""  # text fixed when the statement began (a pick's prompt, for its log line)

    def copy(self, env: Env) -> Frame:
        f = Frame(
            self.op,
            env,
            list(self.data) if isinstance(self.data, list) else self.data,
            self.lo,
            self.hi,
        )
        f.pc, f.note = self.pc, self.note
        return f


class Decision:
    """A pending choice: who decides, the legal actions, and how to resume.

    ``actions[i]`` is a stable action id; ``values[i]`` the chosen thing (a card, a seat, an
    option index, or DONE); ``options[i]`` the index of the option of a choose statement.
    """

    __slots__ = ("op", "player", "env", "frame", "actions", "values", "options", "secret")

    def __init__(
        self,
        op: Op,
        player: int,
        env: Env,
        frame: Frame | None,
        actions: list[int],
        values: list[Any],
        options: list[int],
        secret: bool,
    ) -> None:
        self.op, self.player, self.env, self.frame = op, player, env, frame
        self.actions, self.values, self.options, self.secret = actions, values, options, secret

    def label(self, st: State, i: int) -> str:
        return self.op.label(st, self, i)


class Op:
    """A compiled statement. ``uid`` is its index in Program.ops (stable across processes)."""

    uid: int = -1
    span: SourceSpan

    def exec(self, st: State, env: Env) -> None:
        raise NotImplementedError

    def step(self, st: State, fr: Frame) -> None:
        st.frames.pop()

    # decisions
    def resolve(self, st: State, dec: Decision, i: int) -> None:
        raise NotImplementedError

    def label(self, st: State, dec: Decision, i: int) -> str:
        raise NotImplementedError

    def prompt(self, st: State, dec: Decision) -> str:
        return ""

    def skip(self, st: State, dec: Decision) -> None:
        """The decider of ``dec`` is out of the game: go on as if nothing was chosen (a choose
        runs none of its options)."""

    def logs_each_choice(self) -> bool:
        """False for ops that log one summary line when they finish (pick)."""
        return True


class BlockOp(Op):
    def __init__(self, span: SourceSpan, source: str | None) -> None:
        self.span, self.source = span, source
        self.stmts: list[Op] = []

    @property
    def size(self) -> int:
        """How many statements (an empty block pushes no frame)."""
        return len(self.stmts)

    def exec(self, st: State, env: Env) -> None:
        if self.stmts:
            st.frames.append(Frame(self, env))

    def step(self, st: State, fr: Frame) -> None:
        pc = fr.pc
        if pc < len(self.stmts):
            fr.pc = pc + 1
            op = self.stmts[pc]
            st.at = op
            op.exec(st, fr.env)
        else:
            st.frames.pop()


class SimpleOp(Op):
    """A one-line statement: a closure run for its effect."""

    def __init__(self, span: SourceSpan, run: Callable[[State, Env], None]) -> None:
        self.span = span
        self.exec = run  # type: ignore[method-assign, assignment]  # saves a call per statement


class CallOp(Op):
    """A procedure call; one of a call cycle charges ``cost`` (dsl/work.py) as it enters."""

    def __init__(
        self,
        span: SourceSpan,
        body: BlockOp,
        params: tuple[str, ...],
        args: list[Fn],
        cost: int | None = None,
    ) -> None:
        self.span, self.body, self.params, self.args = span, body, params, args
        self.cost = cost

    def exec(self, st: State, env: Env) -> None:
        new = {p: a(st, env) for p, a in zip(self.params, self.args, strict=True)}
        if st.owned is not None:  # (a zone given a name: see State.own)
            st.own_locals(new)
        if self.body.stmts:
            enter_procedure(st, self.span)
            if self.cost is not None:
                charge(st, self.cost, self.span)
            st.frames.append(Frame(self.body, new))


class TriggerRule:
    """A compiled trigger: run ``body`` with ``var`` bound to an arriving card of ``kind``;
    one that can set itself off again (a cycle of triggers, track spaces and calls: dsl/work.py)
    charges ``cost`` each time it is set off, else ``cost`` is None."""

    __slots__ = ("kind", "var", "when", "body", "cost")

    def __init__(
        self, kind: str | None, var: str, when: Fn | None, body: BlockOp, cost: int | None = None
    ) -> None:
        self.kind, self.var, self.when, self.body = kind, var, when, body
        self.cost = cost


def fire(st: State, rules: list[TriggerRule], cards: list[Card], span: SourceSpan) -> None:
    """Push the bodies of the triggers these arrivals set off, so that they run next, before the
    statement after the move, card by card in move order and rule by rule in file order."""
    hits = []
    for c in cards:
        for r in rules:
            if r.kind is not None and c.kind != r.kind:
                continue
            env = {r.var: c}
            if r.body.size and (r.when is None or r.when(st, env)):
                if r.cost is not None:  # (a trigger in a cycle: dsl/work.py)
                    charge(st, r.cost, span)
                hits.append(Frame(r.body, env))
    push_bodies(st, hits, span)


def push_bodies(st: State, hits: list[Frame], span: SourceSpan) -> None:
    """Push the frames of rule bodies set off at ``span`` (triggers, a track's spaces) so the
    first runs next; refused past MAX_DEPTH frames (a rule that sets itself off without end)."""
    if hits and len(st.frames) + len(hits) > MAX_DEPTH:
        raise nest_too_deep(span)
    st.frames.extend(reversed(hits))


def nest_too_deep(span: SourceSpan) -> RuleError:
    """The error for rule bodies set off past MAX_DEPTH frames (push_bodies; a generated
    module's triggers run as calls make the same check: codegen/triggers.py)."""
    return RuleError(
        f"triggers and procedures nest more than {MAX_DEPTH} deep; "
        "does a trigger set itself off without end?",
        span,
    )


def fire_arrivals(
    st: State, rules: list[TriggerRule], zone: int, before: int, bottom: bool, span: SourceSpan
) -> None:
    """Fire the triggers of the cards that a counted move just brought to ``zone`` (which held
    ``before`` cards), in the order they were moved."""
    z = st.zones[zone]
    k = len(z) - before
    fire(st, rules, z[:k][::-1] if bottom else z[before:], span)


def eliminate(st: State, p: Any, span: SourceSpan) -> None:
    """Seat ``p`` leaves the game: out of ``st.players`` (once), with a line in the log."""
    if not (isinstance(p, int) and 0 <= p < st.prog.num_players):
        raise RuleError(f"cannot eliminate: {not_a_seat(p, st.prog.num_players)}", span)
    if p in st.players:
        st.players.remove(p)
        st.log_line(f"{player_name(p)} is eliminated", -1)


class IfOp(Op):
    """if / elif ... / else: the block of the first test that holds runs, else ``orelse``."""

    def __init__(
        self,
        span: SourceSpan,
        test: Fn,
        then: BlockOp,
        orelse: BlockOp | None,
        elifs: list[tuple[Fn, BlockOp]] | None = None,
    ) -> None:
        self.span, self.test, self.then, self.orelse = span, test, then, orelse
        self.elifs = elifs or []

    def exec(self, st: State, env: Env) -> None:
        if self.test(st, env):
            self.then.exec(st, env)
            return
        for test, block in self.elifs:
            if test(st, env):
                block.exec(st, env)
                return
        if self.orelse is not None:
            self.orelse.exec(st, env)

    def blocks(self) -> list[BlockOp]:
        """Every block it may run: then, each elif's, else."""
        out = [self.then, *(b for _, b in self.elifs)]
        return out + ([self.orelse] if self.orelse is not None else [])


def cards_of(what: Any) -> list[Card]:
    """What a ``move`` moves: one card, or the cards of a zone or list (copied). ``none`` is the
    rules' error."""
    if isinstance(what, Card):
        return [what]
    if what is None:
        raise RuleError(_NOT_A_CARD)
    return list(what)


_NOT_A_CARD = "only a card can be moved, not none"


def take_where(
    st: State, zone: int, n: Any, test: Callable[[Card], Any], span: SourceSpan
) -> list[Card]:
    """The cards ``move N where COND from ZONE`` moves: the ``n`` top-most cards of ``zone``
    for which ``test`` holds, top first (the condition is asked card by card from the top, and
    no further once ``n`` fit). Fewer than ``n`` is the rules' error (no refill: a refilled
    pile could hold any cards)."""
    if type(n) is not int or n < 0:
        raise RuleError(f"cannot move {'none' if n is None else n} cards", span)
    chosen: list[Card] = []
    if n:
        for c in reversed(st.zones[zone]):
            if test(c):
                chosen.append(c)
                if len(chosen) == n:
                    break
    if len(chosen) < n:
        raise RuleError(
            f"cannot take {n} from {st.prog.zone_names[zone]}: only {len(chosen)} of its cards "
            "fit the condition",
            span,
        )
    return chosen


def live_mask(st: State) -> int:
    """The seats in the game now, as a bit mask (bit p for seat p)."""
    mask = 0
    for p in st.players:
        mask |= 1 << p
    return mask


def gone(st: State, mask: int, x: Any) -> bool:
    """Was seat ``x`` in the game when ``mask`` was taken, and is it eliminated now? A loop over
    seats skips such a seat: an eliminated player never takes his turn."""
    return type(x) is int and x >= 0 and (mask >> x) & 1 == 1 and x not in st.players


class ForOp(Op):
    """``for var in items``. Over seats (``seats``), a seat eliminated since the loop began is
    skipped; the frame's ``lo`` holds the seats in play when it began (see live_mask)."""

    def __init__(
        self,
        span: SourceSpan,
        var: str,
        items: Fn,
        body: BlockOp,
        secret: bool,
        seats: bool = False,
    ) -> None:
        self.span, self.var, self.items, self.body, self.secret = span, var, items, body, secret
        self.seats = seats

    def exec(self, st: State, env: Env) -> None:
        items = list(self.items(st, env))
        if st.owned is not None and self.var in st.prog.zone_locals:  # (a loop over zones)
            items = st.own_each(items)  # (see State.own)
        if items:
            st.frames.append(Frame(self, env, items, live_mask(st) if self.seats else 0))
            if self.secret:
                st.secret += 1

    def step(self, st: State, fr: Frame) -> None:
        data = fr.data
        while fr.pc < len(data):
            x = data[fr.pc]
            fr.pc += 1
            if self.seats and gone(st, fr.lo, x):
                continue
            fr.env[self.var] = x
            self.body.exec(st, fr.env)
            return
        st.frames.pop()
        if self.secret:
            st.secret -= 1


class RepeatOp(Op):
    """repeat BODY until COND (checked after each pass); ``while`` when ``before`` is set.

    A pass that asked no decision charges ``cost`` (dsl/work.py) to the work since the last
    decision, before the condition is asked again; ``fr.lo`` is the move number the pass began
    at (``decides``: the body may ask one; else every pass charges)."""

    def __init__(
        self,
        span: SourceSpan,
        body: BlockOp,
        cond: Fn,
        before: bool,
        cost: int = 0,
        decides: bool = True,
    ) -> None:
        self.span, self.body, self.cond, self.before = span, body, cond, before
        self.cost, self.decides = cost, decides

    def exec(self, st: State, env: Env) -> None:
        st.frames.append(Frame(self, env))

    def step(self, st: State, fr: Frame) -> None:
        st.at = self  # a failure in the condition is this loop's
        if fr.pc and (not self.decides or fr.lo == st.move_number):
            charge(st, self.cost, self.span)
        if self.before:
            stop = not self.cond(st, fr.env)
        else:
            stop = fr.pc > 0 and self.cond(st, fr.env)
        if stop:
            st.frames.pop()
            return
        fr.pc += 1
        if fr.pc > MAX_PASSES:
            raise too_long(self.span)
        fr.lo = st.move_number
        st.frames.append(Frame(self.body, fr.env))


class Site:
    """A range of stable action ids: one per fixed option, or one per possible value."""

    def __init__(self, base: int, domain: str) -> None:
        self.base, self.domain = base, domain
        self.index = -1  # order among the program's sites
        # a number site's count of values (its ids are base .. base + values - 1)
        self.values = site_size(domain, 0, 0) if domain.startswith("int") else 0

    def action(self, value: Any) -> int:
        """The action id of option ``value``. Raises RuleError for a value the site cannot
        number: none (or a number) as a card or a player, a number out of range."""
        try:
            if self.domain == "card":
                return self.base + value.type_id
            if self.domain == "player":
                return self.base + value
        except (AttributeError, TypeError):  # the rules offered none (or a number) as one
            what = "none" if value is None else f"the {type(value).__name__} {value!r}"
            raise RuleError(f"an option is {what}, not a {self.domain}") from None
        if self.values:
            n = self.values
            if not 0 <= value < n:
                if self.domain != "int":
                    raise RuleError(
                        f"a bid of {value} is beyond the auction's 'most' ({n - 1}), the most "
                        "any seat could ever bid: raise 'most' so it covers every seat's means"
                    )
                raise RuleError(
                    f"an option value must be 0..{n - 1} to have an action id, not {value}"
                )
            return self.base + value
        return self.base


class OptionOp:
    def __init__(
        self,
        site: Site,
        label: Callable[[State, Env], str],
        var: str | None,
        items: Fn | None,
        when: Fn | None,
        body: BlockOp,
    ) -> None:
        self.site, self.label, self.var, self.items, self.when, self.body = (
            site,
            label,
            var,
            items,
            when,
            body,
        )


class ChooseOp(Op):
    def __init__(
        self,
        span: SourceSpan,
        player: Fn,
        prompt: Callable[[State, Env], str],
        options: list[OptionOp],
        secret: bool,
    ) -> None:
        self.span, self.player, self.prompt_fn, self.options, self.secret = (
            span,
            player,
            prompt,
            options,
            secret,
        )

    def exec(self, st: State, env: Env) -> None:
        actions, values, idx = self.collect(st, env)
        if not actions:
            raise RuleError("a choice has no legal option", self.span)
        st.decide(
            Decision(self, self.player(st, env), env, None, actions, values, idx, self.secret)
        )

    def collect(self, st: State, env: Env) -> tuple[list[int], list[Any], list[int]]:
        """The legal options now: (action ids, chosen values, option indices), identical
        cards once. (A generated module replaces this with specialized code.)"""
        actions: list[int] = []
        values: list[Any] = []
        idx: list[int] = []
        for k, o in enumerate(self.options):
            if o.var is None:
                if o.when is None or o.when(st, env):
                    actions.append(o.site.base)
                    values.append(None)
                    idx.append(k)
                continue
            var, when = o.var, o.when
            saved = env.get(var, MISSING)
            for x in o.items(st, env):  # type: ignore[misc]
                env[var] = x
                if when is None or when(st, env):
                    if o.site.domain == "player":  # a seat: checked (a list may hold none)
                        a = o.site.base + option_seat(x, st.prog.num_players)
                    else:
                        a = o.site.action(x)
                    if a in actions:
                        continue  # an identical card: the same choice
                    actions.append(a)
                    values.append(x)
                    idx.append(k)
            restore_local(env, var, saved)
        return actions, values, idx

    def resolve(self, st: State, dec: Decision, i: int) -> None:
        o = self.options[dec.options[i]]
        if o.var is not None:
            dec.env[o.var] = dec.values[i]
        o.body.exec(st, dec.env)

    def label(self, st: State, dec: Decision, i: int) -> str:
        o = self.options[dec.options[i]]
        if o.var is None:
            return o.label(st, dec.env)
        env = dict(dec.env)
        env[o.var] = dec.values[i]
        return o.label(st, env)

    def prompt(self, st: State, dec: Decision) -> str:
        return self.prompt_fn(st, dec.env)


class PickOp(Op):
    """Pick items one at a time; see ir.Pick. Frame: data = picked list, lo/hi = bounds."""

    def __init__(
        self,
        span: SourceSpan,
        player: Fn,
        prompt: Callable[[State, Env], str],
        var: str,
        src: Fn,
        dest: Fn | None,
        lo: Fn,
        hi: Fn | None,
        where: Fn | None,
        into: str | None,
        secret: bool,
        site: Site,
    ) -> None:
        self.span, self.player, self.prompt_fn, self.var = span, player, prompt, var
        self.src, self.dest, self.lo, self.hi, self.where = src, dest, lo, hi, where
        self.into, self.secret, self.site = into, secret, site

    def exec(self, st: State, env: Env) -> None:
        lo = self.lo(st, env)
        hi = self.hi(st, env) if self.hi is not None else PICK_UNBOUNDED
        if lo < 0 or hi < lo:
            raise RuleError(f"a pick of {lo} to {hi} items is impossible", self.span)
        fr = Frame(self, env, [], lo, hi)
        if st.record_log:
            fr.note = self.prompt_fn(st, env)
        st.frames.append(fr)

    def candidates(self, st: State, env: Env, picked: list[Card]) -> list[Card]:
        """The items of the source that fit ``where`` now. (A generated module replaces this
        with specialized code.)"""
        where, var = self.where, self.var
        if where is None:
            return list(self.src(st, env))
        cands = []
        saved = env.get(var, MISSING)
        env["picked"] = picked
        for c in self.src(st, env):
            env[var] = c
            if where(st, env):
                cands.append(c)
        restore_local(env, var, saved)
        env.pop("picked", None)
        return cands

    def step(self, st: State, fr: Frame) -> None:
        offer = self.offer(st, fr)
        if offer is None:
            self._finish(st, fr)
            return
        actions, values = offer
        env = fr.env
        st.decide(Decision(self, self.player(st, env), env, fr, actions, values, [], self.secret))

    def offer(self, st: State, fr: Frame) -> tuple[list[int], list[Any]] | None:
        """(action ids, items or DONE) offered next, or None when the pick is over. Also used
        to verify the pending pick of a saved state."""
        env, picked = fr.env, fr.data
        cands: list[Card] = []
        if len(picked) < fr.hi:
            cands = self.candidates(st, env, picked)
            if picked:  # a card is picked once, even if the source still lists it
                cands = [c for c in cands if c not in picked]
        can_stop = len(picked) >= fr.lo
        if len(cands) > 1:  # identical cards are one choice; offer the top-most of each
            last = {c.type_id: i for i, c in enumerate(cands)}
            if len(last) < len(cands):
                cands = [cands[i] for i in sorted(last.values())]
        if not cands:
            if not can_stop:
                raise RuleError(
                    f"a pick needs {plural(fr.lo, 'item')} but only {len(picked)} could be picked",
                    self.span,
                )
            return None
        actions = [self.site.base + c.type_id for c in cands]
        values: list[Any] = list(cands)
        if can_stop:
            actions.append(self.site.base + st.prog.num_card_types)
            values.append(DONE)
        return actions, values

    def _finish(self, st: State, fr: Frame) -> None:
        st.frames.pop()
        if self.into:
            fr.env[self.into] = list(fr.data)
        if st.record_log:  # one line for the whole pick, not one per item
            who = self.player(st, fr.env)
            items = ", ".join(c.name for c in fr.data) or "nothing"
            # secrecy follows the zones: a line naming cards moved where not everyone sees
            # them (a face-down zone, a hand) is the picker's alone, as if `secret: true`
            secret = self.secret or st.secret > 0 or not _seen_by_all(st, fr.data)
            prompt = fr.note or self.prompt_fn(st, fr.env)
            st.log_line(f"{player_name(who)}: {prompt} -> {items}", who if secret else -1)

    def logs_each_choice(self) -> bool:
        return False

    def skip(self, st: State, dec: Decision) -> None:
        """The picker is out of the game: the pick ends with what was picked so far."""
        assert dec.frame is not None
        self._finish(st, dec.frame)

    def resolve(self, st: State, dec: Decision, i: int) -> None:
        fr = dec.frame
        assert fr is not None
        v = dec.values[i]
        if v is DONE:
            self._finish(st, fr)
            return
        fr.data.append(v)
        if self.dest is not None:
            st.move(v, self.dest(st, fr.env), False)

    def label(self, st: State, dec: Decision, i: int) -> str:
        v = dec.values[i]
        return "done" if v is DONE else v.name

    def prompt(self, st: State, dec: Decision) -> str:
        fr = dec.frame
        text = self.prompt_fn(st, dec.env)
        if fr is not None and fr.data:
            text += " (so far: " + ", ".join(c.name for c in fr.data) + ")"
        return text


def _seen_by_all(st: State, cards: list[Card]) -> bool:
    """Does every player see each of these cards where it is now (a public zone, or the top of
    a zone that shows its top card)?"""
    prog = st.prog
    for c in cards:
        z = st.loc[c.id]
        vis = prog.zone_vis[z]
        if vis == "public" or (vis == "top" and st.zones[z][-1] is c):
            continue
        return False
    return True


class WinnerOp(Op):
    def __init__(
        self,
        span: SourceSpan,
        var: str,
        among: Fn,
        strength: Fn,
        chooser: Fn | None,
        not_self: bool,
        into: str,
        prompt: Callable[[State, Env], str],
        site: Site,
        fmt: Callable[[Any], str],
    ) -> None:
        self.span, self.var, self.among, self.strength = span, var, among, strength
        self.chooser, self.not_self, self.into, self.prompt_fn = chooser, not_self, into, prompt
        self.site, self.fmt = site, fmt

    def exec(self, st: State, env: Env) -> None:
        leaders, ch, ask = self.contest(st, env)
        if ask:
            st.log_line(f"tie between {', '.join(map(self.fmt, leaders))}", -1)
            actions = [self.site.action(x) for x in leaders]
            st.decide(Decision(self, ch, env, None, actions, leaders, [], False))
            return
        env[self.into] = leaders[0] if len(leaders) == 1 else None

    def contest(self, st: State, env: Env) -> tuple[list[Any], Any, bool]:
        """(the leaders, the chooser, whether the chooser is asked to break their tie). Also
        used to verify the pending tie-break of a saved state."""
        cands = list(self.among(st, env))
        if not cands:
            return [], None, False
        saved = env.get(self.var, MISSING)
        scores = []
        for x in cands:
            env[self.var] = x
            scores.append(self.strength(st, env))
        restore_local(env, self.var, saved)
        if None in scores:
            raise RuleError("a strength is none; it must be a number", self.span)
        best = max(scores)
        leaders = [x for x, s in zip(cands, scores, strict=True) if s == best]
        if len(leaders) > 1 and self.chooser is not None:
            ch = self.chooser(st, env)
            if self.not_self:
                leaders = [x for x in leaders if x != ch]
            if len(leaders) > 1:
                return leaders, ch, True
        return leaders, None, False

    def resolve(self, st: State, dec: Decision, i: int) -> None:
        dec.env[self.into] = dec.values[i]

    def skip(self, st: State, dec: Decision) -> None:
        """The chooser is out of the game: the tie stays unbroken (nobody), as without one."""
        dec.env[self.into] = None

    def label(self, st: State, dec: Decision, i: int) -> str:
        return self.fmt(dec.values[i])

    def prompt(self, st: State, dec: Decision) -> str:
        return f"{self.prompt_fn(st, dec.env)}: break the tie"
