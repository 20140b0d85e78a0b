"""Re-deal what a seat cannot see: a state consistent with that seat's view, for search.

``state.clone()`` is the true position, random-number state included, so an agent searching on
clones sees every hidden card and every future shuffle. ``resample(state, seat, seed)`` is a
position the seat cannot tell from the true one: the cards hidden from it are dealt again at
random into the places it cannot see, and the random-number state is reseeded, so future
shuffles and draws are unknown too. See docs/ai.md (Copying and resampling).
"""

from __future__ import annotations

import operator
import random
from typing import Any

from meeple.dsl.errors import MeepleError
from meeple.runtime import prng
from meeple.runtime.ops import ChooseOp, Decision, PickOp, WinnerOp
from meeple.runtime.state import State
from meeple.runtime.values import Card

#: mixed into the seed so that a resampled state's random numbers are not a new game's
_RESEED = 0x5EED_0F_A1


def hidden_places(state: State, seat: int) -> list[tuple[int, int]]:
    """(pile, position) of every card ``seat`` cannot see now (0-based seat): all of a hidden
    pile or of another seat's ``owner`` pile, all but the top card of a ``top`` pile."""
    prog = state.prog
    out: list[tuple[int, int]] = []
    for i, z in enumerate(state.zones):
        vis = prog.zone_vis[i]
        if vis == "public" or (vis == "owner" and prog.zone_owner[i] == seat):
            continue
        n = len(z) - 1 if vis == "top" else len(z)
        out.extend((i, k) for k in range(n))
    return out


def resample(state: State, seat: int, seed: int) -> State:
    """A new state that seat ``seat`` (0-based; P1 is 0) cannot tell from ``state``, with what
    it cannot see dealt again at random and the random-number state reseeded from ``seed``.

    Kept: every pile's count, every card the seat sees where it sees it (public piles, its
    own ``owner`` piles, the top of ``top`` piles), the variables, the decision being made,
    and the log lines the seat has seen (the lines meant for other seats alone are dropped).
    Redrawn: the cards in the places the seat cannot see (hidden piles, the other seats'
    hands, what lies under a top card) are dealt again among those places, uniformly, each
    pile keeping how many cards of each kind of component it holds (a hand of minions stays
    a hand of minions; see docs/ai.md for what this assumes), in a new order. Cards the rules
    are holding on to (named by a variable, a loop, a pick in progress) stay where they are.

    Not redrawn: secret values of the other seats' ``owner``-only variables (a vote cast in
    secret) are kept as they are; resample re-deals cards, not choices.

    The result has no record of other seats' secret decisions and plays on like any state;
    ``seed`` (a whole number) makes it deterministic. Raises ValueError for a seat not of this
    game, MeepleError for a seed that is not a whole number or when the game is over.
    """
    seat = state._seat_arg(seat)
    try:
        whole = None if isinstance(seed, bool) else operator.index(seed)
    except TypeError:
        whole = None
    if whole is None:
        raise MeepleError(
            f"a seed is a whole number, not {seed!r}", suggestion="e.g. resample(state, 0, 7)"
        )
    seed = whole
    if state.is_terminal():
        raise MeepleError("the game is over: there is nothing hidden left to resample")
    places = hidden_places(state, seat)
    held = _held_cards(state)
    d = state.pending
    if d is not None and d.player == seat:  # the seat's own decision: it sees what it offers
        held |= {id(v) for v in d.values if isinstance(v, Card)}
    attempts = [held]
    if d is not None and d.player != seat:
        # another seat is in the middle of its decision, whose options (and what the rules
        # still need of it, the rest of a pick) come from what it holds: if the re-deal
        # leaves it unable to go on as the rules began, the cards it is offered stay put;
        # failing that, every card in its own piles
        attempts.append(held | {id(v) for v in d.values if isinstance(v, Card)})
        own = {
            id(c)
            for i, z in enumerate(state.zones)
            if state.prog.zone_owner[i] == d.player
            for c in z
        }
        attempts.append(attempts[-1] | own)
    for k, pinned in enumerate(attempts):
        s = state.clone()
        s.own_all_piles()  # the cards are dealt again in place: not in piles shared with state
        s.log = [(who, t) for who, t in s.log if who == -1 or who == seat]
        s.rng = prng.seed_state(seed ^ _RESEED)
        if _redeal(s, places, pinned, random.Random(seed), check=k < len(attempts) - 1):
            return s
    raise AssertionError("unreachable: the last attempt is not checked")


def _held_cards(s: State) -> set[int]:
    """ids (Python's) of the cards the running rules refer to: variables, local names,
    loop and pick lists."""
    out: set[int] = set()

    def note(v: Any) -> None:
        if isinstance(v, Card):
            out.add(id(v))
        elif isinstance(v, (list, tuple)):
            for x in v:
                note(x)

    for v in s.vars.values():
        note(v)
    for f in s.frames:
        note(f.data)
        for v in f.env.values():
            note(v)
    return out


def _redeal(
    s: State,
    places: list[tuple[int, int]],
    held: set[int],
    rng: random.Random,
    check: bool = True,
) -> bool:
    """Shuffle the cards at ``places`` (those not ``held``) among their places, kind by kind
    (and owner by owner for per-player components). Then derive the pending decision again;
    False (state half-changed: discard it) when ``check`` and it is not a decision any more."""
    zones, loc = s.zones, s.loc
    groups: dict[tuple[str, int | None], list[tuple[int, int]]] = {}
    for zi, k in places:
        c = zones[zi][k]
        if id(c) in held:
            continue
        groups.setdefault((c.kind, c.owner), []).append((zi, k))
    for spots in groups.values():
        if len(spots) < 2:
            continue
        # in a fixed order first, so that the deal depends only on which cards are hidden, not
        # on where they truly are: two states the seat cannot tell apart resample alike
        cards = sorted((zones[zi][k] for zi, k in spots), key=lambda c: c.id)
        rng.shuffle(cards)
        for (zi, k), c in zip(spots, cards, strict=True):
            zones[zi][k] = c
            loc[c.id] = zi
    # then each pile's order, whatever the kinds: a deck that mixes kinds does not keep the
    # order its kinds truly come in (again from a fixed order)
    piles: dict[int, list[int]] = {}
    for spots in groups.values():
        for zi, k in spots:
            piles.setdefault(zi, []).append(k)
    for zi, ks in piles.items():
        if len(ks) < 2:
            continue
        z = zones[zi]
        cards = sorted((z[k] for k in ks), key=lambda c: c.id)
        rng.shuffle(cards)
        for k, c in zip(sorted(ks), cards, strict=True):
            z[k] = c
    return _rederive_pending(s, check)


def _rederive_pending(s: State, check: bool) -> bool:
    """Ask the pending decision's rule again in the re-dealt position (its options may come
    from cards that moved). False when ``check`` and the rule no longer asks it of the same
    seat with at least two options."""
    if check and not _picks_can_go_on(s):
        return False
    d = s.pending
    if d is None:
        return True
    op = d.op
    try:
        if isinstance(op, PickOp):
            assert d.frame is not None
            offer = op.offer(s, d.frame)
            if offer is None:
                return not check
            actions, values = offer
            player = op.player(s, d.env)
            options: list[Any] = []
        elif isinstance(op, ChooseOp):
            actions, values, options = op.collect(s, d.env)
            player = op.player(s, d.env)
        elif isinstance(op, WinnerOp):
            values, player, ask = op.contest(s, d.env)
            if not ask:
                return not check
            actions, options = [op.site.action(x) for x in values], []
        else:
            return True
    except Exception:
        if check:
            return False
        raise
    if player != d.player or len(actions) < 2:
        return not check
    s.pending = Decision(op, d.player, d.env, d.frame, actions, values, options, d.secret)
    return True


def _picks_can_go_on(s: State) -> bool:
    """Can every pick in progress still be completed as the rules began it (enough
    candidates left for its minimum)?"""
    for f in s.frames:
        op = f.op
        if isinstance(op, PickOp):
            try:
                cands = op.candidates(s, f.env, f.data)
            except Exception:
                return False
            left = [c for c in cands if c not in f.data]
            if len(left) < f.lo - len(f.data):
                return False
    return True
