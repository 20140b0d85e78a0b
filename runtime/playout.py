"""Random playouts without an API round trip per decision (State.playout).

During a playout ``State.choose`` is set: ``State.decide`` takes a decision with two or more
legal actions at once (``choose(n)``: an index in the order the rules list the options) instead
of leaving it pending, and ``end game`` raises GameEnded to leave the Python calls that were
running. The frames run as in ``State._run``; a frame whose op has direct code (a generated
module's ``Program.resume``, codegen/direct.py) runs the rest of its statement in one Python
call instead of one step per statement.
"""

from __future__ import annotations

import _random
import operator
import random
from collections.abc import Callable
from typing import Any

from meeple.dsl.errors import MeepleError, RuleError
from meeple.dsl.limits import MAX_CALL_DEPTH
from meeple.wording import plural

from .helpers import not_a_seat
from .ops import PICK_UNBOUNDED, Frame, GameEnded, PickOp, procedure_depth
from .state import State, need_seed
from .values import Card

Chooser = Callable[[int], int]


def chooser(choose: Chooser | random.Random | int | None) -> Chooser:
    """A chooser from what State.playout accepts: a function ``n -> index``, a
    ``random.Random``, or a seed (as a game's, State.need_seed; None: 0) for uniform choices.
    Raises MeepleError for anything else."""
    if callable(choose) and not isinstance(choose, random.Random):
        return _checked(choose)
    if not isinstance(choose, random.Random):
        seed = 0 if choose is None else _index(choose)
        if seed is None:
            raise MeepleError(
                f"a playout chooses with a function of n, a random.Random or a seed, not "
                f"{repr(choose)[:40]}"
            )
        need_seed(seed)
        # the C generator random.Random is built on: the same numbers for a whole-number seed
        # (Random.seed hands it such a seed as it is), without Random's Python __init__ and
        # seed(), a sixth of seeding it; nothing but its random() is ever called
        rand = _random.Random(seed).random
        return lambda n: int(rand() * n)
    rand = choose.random
    return lambda n: int(rand() * n)


class ChooserFailed(Exception):
    """A playout's chooser raised ``__cause__`` (or returned no index): the playout re-raises
    it as it is (it is the caller's error, not the rules' nor meeple's)."""


def FAILED(n: int) -> int:  # noqa: N802  (a marker, named as a constant)
    """The chooser left on a state whose playout failed half way: it cannot be played on."""
    raise MeepleError("this state was left half run by a failed playout")


def _checked(choose: Chooser) -> Chooser:
    """``choose`` refusing an index out of range (a stranger's agent) with a clear error; any
    whole number type is taken (a numpy integer), not a bool."""

    def checked(n: int) -> int:
        try:
            got = choose(n)
        except Exception as e:
            raise ChooserFailed() from e
        i = _index(got)
        if i is None or not 0 <= i < n:
            bad = MeepleError(
                f"a playout's chooser must return an index 0 to {n - 1}, not {repr(got)[:40]}"
            )
            raise ChooserFailed() from bad
        return i

    return checked


def _index(x: object) -> int | None:
    """``x`` as a whole number (an int, or a type that is one, as numpy's), else None."""
    if type(x) is int:
        return x
    if isinstance(x, bool):
        return None
    try:
        return operator.index(x)  # type: ignore[arg-type]
    except TypeError:
        return None


def run_to(st: State, floor: int, resume: Any = None) -> None:
    """Run frames until the stack is back to ``floor`` frames (decisions are taken inline),
    with the direct code of ``resume`` (a Program.resume; None: the program's own)."""
    frames = st.frames
    if resume is None:
        resume = st.prog.resume
    while len(frames) > floor:  # (no frame is shared with a clone: run_playout, own_all)
        fr = frames[-1]
        direct = resume.get(fr.op.uid) if resume else None
        if direct is None:
            fr.op.step(st, fr)
        else:  # the rest of the frame's block, in one call; the frame is then done
            direct(st, fr.env, fr.pc)
            frames.pop()


def calls_stay_shallow(st: State) -> bool:
    """May a playout of ``st`` run direct code that leaves some procedure calls unchecked or
    uncounted (``prog.procedure_chain`` set: codegen/calls.py)? Only when no such call can be
    refused: the procedures running now (a saved state's frames may hold any number) and as
    many more as can run one inside the other in the game stay within MAX_CALL_DEPTH.
    Otherwise the frames are stepped, every call checked, as in the interpreter. (True when the
    direct code checks and counts every call.)"""
    chain = st.prog.procedure_chain
    return chain is None or procedure_depth(st) + chain <= MAX_CALL_DEPTH


def run_playout(st: State, choose: Chooser) -> int:
    """State.playout: play ``st`` to its end with ``choose``; the decisions taken (counted as
    apply_action counts them, in ``move_number``). A failure once the state has changed (a rule
    error, the chooser's error) leaves it marked half run (FAILED): it is then refused by
    apply_action, clone, to_json and playout."""
    st._not_in_playout("play out")
    start = st.move_number
    if st.record_log or st.forced is not None or st.ask_forced:
        _through_api(st, choose)  # the log and the scenario hooks are written by apply_action
        return st.move_number - start
    if st.phase == "over":
        return 0
    d = st.pending
    if d is not None:
        try:
            i = choose(len(d.actions))  # first: a chooser that fails leaves the state as it was
        except ChooserFailed as e:
            raise e.__cause__ from None  # type: ignore[misc]
    st.own_all()  # (a playout runs every frame and changes most piles: no checks on the way)
    st.choose = choose
    direct = st.prog.resume if calls_stay_shallow(st) else {}
    try:
        if d is not None:
            st.pending = None
            st.move_number += 1
            st.at = d.op
            d.op.resolve(st, d, i)
        while True:
            try:
                run_to(st, 0, direct)
            except GameEnded:
                pass  # the frames were cleared: on to the scoring, as _run does
            if st.phase == "play":
                st.phase = "scoring"
                st.secret = 0
                st.frames.append(Frame(st.prog.scoring, {}))
                continue
            st.phase = "over"
            break
    except ChooserFailed as e:
        st.choose = FAILED
        raise e.__cause__ from None  # type: ignore[misc]
    except Exception as e:
        st.choose = FAILED
        st._fail(e)
    except BaseException:  # KeyboardInterrupt: the state is half run all the same
        st.choose = FAILED
        raise
    st.choose = None
    return st.move_number - start


def _through_api(st: State, choose: Chooser) -> None:
    """The same playout, one apply_action per decision (the options in the rules' order)."""
    while st.pending is not None:
        actions: list[Any] = st.pending.actions
        try:
            i = choose(len(actions))
        except ChooserFailed as e:
            raise e.__cause__ from None  # type: ignore[misc]
        st.apply_action(actions[i])


def run_pick(st: State, env: dict[str, Any], op: PickOp) -> None:
    """A whole ``pick`` during a playout (PickOp's exec, offer, decide, resolve and finish in
    one loop): item by item, identical items one option, "done" once ``min`` are picked."""
    lo = op.lo(st, env)
    hi = op.hi(st, env) if op.hi is not None else PICK_UNBOUNDED
    if lo < 0 or hi < lo:
        raise RuleError(f"a pick of {lo} to {hi} items is impossible", op.span)
    candidates, dest, player = op.candidates, op.dest, op.player
    players, n_seats = st.players, st.prog.num_players
    picked: list[Card] = []
    while True:
        cands: list[Card] = []
        if len(picked) < hi:
            cands = candidates(st, env, picked)
            if picked:  # a card is picked once, even if the source still lists it
                cands = [c for c in cands if c not in picked]
        if len(cands) > 1:  # identical cards are one choice: the top-most of each
            last = {c.type_id: i for i, c in enumerate(cands)}
            if len(last) < len(cands):
                cands = [cands[i] for i in sorted(last.values())]
        can_stop = len(picked) >= lo
        if not cands:
            if not can_stop:
                raise RuleError(
                    f"a pick needs {plural(lo, 'item')} but only {len(picked)} could be picked",
                    op.span,
                )
            break
        p = player(st, env)
        if type(p) is not int or not 0 <= p < n_seats:
            raise RuleError(not_a_seat(p, n_seats), op.span)
        if p not in players:
            break  # the picker is out of the game: the pick ends with what was picked
        n = len(cands) + can_stop
        if n > 1:
            i = st.choose(n)  # type: ignore[misc]
            st.move_number += 1
            st.at = op
        else:
            i = 0
        if i == len(cands):
            break  # done
        c = cands[i]
        picked.append(c)
        if dest is not None:
            st.move(c, dest(st, env), False)
    if op.into:
        env[op.into] = list(picked)
