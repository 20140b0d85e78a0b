"""State.clone() is an independent copy of the exact position, on both back ends (they share
State): no later move, shuffle, assignment, decision or frame step of one is seen by the other.
clone() copies each part by hand (for speed: a search clones at every node), so these tests pin
every part: a part left shared fails them."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import alternate_backends
from test_language_v2 import write
from test_playout import random_moves
from test_zone_locals import GAME as ZONE_LOCAL_GAME

import meeple
from meeple.interpreter.game import Game
from meeple.registry import game_ids
from meeple.runtime.ops import Decision, Frame, PickOp
from meeple.runtime.state import State

BACKENDS = ("interpreter", "compiled")
_GAMES: dict[tuple[str, str], Game] = {}


def _game(game_id: str, backend: str) -> Game:
    key = (game_id, backend)
    if key not in _GAMES:
        _GAMES[key] = meeple.load(game_id, 4, backend=backend)
    return _GAMES[key]


_play = random_moves  # up to n random actions through the API


def _saved(state: State) -> str:
    """The whole position as text (to_json: zones, variables, rng, log, frames, decision)."""
    return json.dumps(state.to_json(), sort_keys=True)


def _check_apart(a: State, b: State, rng: random.Random, steps: int, steps_b: int = 0) -> None:
    """Play ``a`` on, then ``b``: neither sees the other's play."""
    before_b = _saved(b)
    _play(a, rng, steps)
    assert _saved(b) == before_b, "playing one copy changed the other"
    before_a = _saved(a)
    _play(b, random.Random(rng.random()), steps_b or steps)
    assert _saved(a) == before_a, "playing one copy changed the other"
    a.check_invariants()
    b.check_invariants()


# the quick loop clones each game on one back end, alternately; the deep run on the other
@pytest.mark.parametrize(("game_id", "backend"), alternate_backends([(g,) for g in game_ids()]))
def test_clones_along_a_game_are_equal_and_independent(game_id: str, backend: str) -> None:
    game = _game(game_id, backend)
    state = game.new_initial_state(7)
    rng = random.Random(game_id)
    clones = 0
    while not state.is_terminal():
        if rng.random() < 0.3:  # a clone every few decisions: each played apart for a while
            c = state.clone()
            assert _saved(c) == _saved(state)
            assert c.legal_action_labels() == state.legal_action_labels()
            _check_apart(c, state, random.Random(clones), 12, 2)  # the original goes on
            clones += 1
        _play(state, rng, 1)
    assert clones >= 4
    # the end too: a finished game clones to a finished game
    c = state.clone()
    assert c.is_terminal() and _saved(c) == _saved(state)


def _sharing(a: State, b: State) -> list[str]:
    """The mutable parts ``a`` and ``b`` hold in common (they must hold none but the frames
    frozen below ``shared`` and the piles neither owns, which neither changes:
    test_frozen_frames_change_in_neither, test_shared_piles.py)."""
    pairs: list[tuple[str, Any, Any]] = [
        ("zones", a.zones, b.zones),
        ("loc", a.loc, b.loc),
        ("vars", a.vars, b.vars),
        ("players", a.players, b.players),
        ("log", a.log, b.log),
        ("frames", a.frames, b.frames),
    ]
    shared = [
        not (a.owned and a.owned[i]) and not (b.owned and b.owned[i]) for i in range(len(a.zones))
    ]
    pairs += [  # (a pile both share is copied by the first to change it: State._own_piles)
        (f"zone {i}", x, y)
        for i, (x, y) in enumerate(zip(a.zones, b.zones, strict=True))
        if not (shared[i] and a.owned is not None and b.owned is not None)
    ]
    pairs += [(f"variable {k}", v, b.vars[k]) for k, v in a.vars.items() if type(v) is list]
    for i, (f, g) in enumerate(zip(a.frames, b.frames, strict=True)):
        if f is g and i < min(a.shared, b.shared):
            continue  # frozen: copied by the state that runs it first (State._thaw)
        pairs += [(f"frame {i}", f, g), (f"frame {i} env", f.env, g.env)]
        if type(f.data) is list:
            pairs.append((f"frame {i} data", f.data, g.data))
    if a.pending is not None and b.pending is not None:
        pairs += [
            ("decision", a.pending, b.pending),
            ("decision env", a.pending.env, b.pending.env),
        ]
    return [name for name, x, y in pairs if x is y]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("game_id", game_ids())
def test_a_clone_shares_no_mutable_part(game_id: str, backend: str) -> None:
    state = _game(game_id, backend).new_initial_state(5)
    _play(state, random.Random(5), 15)
    assert state.frames and state.pending is not None
    c = state.clone()
    assert _sharing(state, c) == []
    # every slot set, to an equal value (a slot clone() forgets raises here; clone() copies a
    # frame and the decision slot by slot too)
    for name in State.__slots__:
        assert getattr(c, name) == getattr(state, name) or name in ("pending", "frames")
    for f, g in zip(state.frames, c.frames, strict=True):
        assert [getattr(f, n) for n in Frame.__slots__] == [getattr(g, n) for n in Frame.__slots__]
    d, e = state.pending, c.pending
    assert d is not None and e is not None
    same = [n != "frame" or d.frame is None for n in Decision.__slots__]  # (a frame: by id)
    assert [getattr(d, n) == getattr(e, n) for n in Decision.__slots__] == same
    # the decision's locals are its frame's locals, in the copy as in the original
    assert [d.env is f.env for f in state.frames] == [e.env is f.env for f in c.frames]
    assert [f.env is g.env for f, g in zip(state.frames, state.frames[1:], strict=False)] == [
        f.env is g.env for f, g in zip(c.frames, c.frames[1:], strict=False)
    ]


def _frozen(state: State) -> list[tuple[Any, ...]]:
    """The frames frozen below ``shared``: each one's slots, its locals' items and its list."""
    return [
        (f, *[getattr(f, n) for n in Frame.__slots__], sorted(f.env.items()), _listed(f.data))
        for f in state.frames[: state.shared]
    ]


def _listed(data: Any) -> Any:
    return list(data) if type(data) is list else data


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("game_id", game_ids())
def test_frozen_frames_change_in_neither(game_id: str, backend: str) -> None:
    """A clone shares the frames below the top call's with its original: playing either on, by
    actions or by a playout, copies a frame before it runs it, so they never change."""
    game = _game(game_id, backend)
    calls = frozen_seen = 0  # positions with frames of two calls or more; with frozen frames
    for seed in range(4):
        state = game.new_initial_state(seed)
        _play(state, random.Random(seed), 25 + 20 * seed)
        if state.is_terminal():
            continue
        c = state.clone()
        calls += len({id(f.env) for f in state.frames}) > 1
        frozen_seen += state.shared > 0
        frozen = _frozen(state)
        assert frozen == _frozen(c)
        assert [f.env is g.env for f, g in zip(state.frames, c.frames, strict=True)] == [
            i < state.shared for i in range(len(state.frames))
        ]
        other = c.clone()
        _play(c, random.Random(seed), 30)
        played = state.clone()
        played.record_log = False  # (with the log, a playout goes through apply_action)
        played.playout(seed)
        _play(state, random.Random(seed + 1), 30)
        assert _frozen(other) == frozen, "a frozen frame or its locals changed"
    assert frozen_seen == calls  # (every game but Harbour Guilds calls procedures that ask)


def _mid_pick(backend: str, game: Game | None = None) -> State:
    """Shadow of the Sun in the middle of a pick: one card picked, more to pick."""
    game = game or _game("shadow-of-the-sun", backend)
    for seed in range(50):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        for _ in range(300):
            d = state.pending
            if d is None:
                break
            if isinstance(d.op, PickOp) and d.frame is not None and d.frame.data:
                return state
            _play(state, rng, 1)
    raise AssertionError("no pick with a card picked and more to pick in 50 games")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_clone_in_the_middle_of_a_pick(backend: str) -> None:
    state = _mid_pick(backend)
    c = state.clone()
    assert _saved(c) == _saved(state)
    assert c.pending is not None and c.pending.frame is c.frames[-1]
    assert c.pending.frame.data == state.frames[-1].data
    assert c.pending.frame.data is not state.frames[-1].data
    _check_apart(c, state, random.Random(1), 20)


@pytest.mark.parametrize("backend", BACKENDS)
def test_deepcopy_copy_and_pickle_are_clones(backend: str) -> None:
    # a pickle loads the game meeple.load made last for its arguments (while it is alive): this
    # one, loaded here (a game cached by another test may have been loaded again since)
    game = meeple.load("shadow-of-the-sun", 4, backend=backend)
    state = _mid_pick(backend, game)
    for c in (copy.deepcopy(state), copy.copy(state), pickle.loads(pickle.dumps(state))):
        assert type(c) is State and c.prog is state.prog
        assert _saved(c) == _saved(state)
        assert _sharing(state, c) == []
        _check_apart(c, state.clone(), random.Random(2), 10)
    c = state.clone()
    assert _saved(pickle.loads(pickle.dumps(c))) == _saved(state)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_zone_in_a_local_is_each_copys_own(tmp_path: Path, backend: str) -> None:
    game = meeple.load(str(write(tmp_path, ZONE_LOCAL_GAME)), 2, backend=backend)
    state = game.new_initial_state(3)
    assert state.prompt() == "Stock up?"
    discard = state.prog.zone_base["discard"]
    c = state.clone()
    (z,) = [v for f in c.frames for v in f.env.values() if type(v) is list]
    assert z is c.zones[discard]  # the local is the copy's pile, not the original's
    c.apply_action(c.legal_actions()[0])  # "yes": a card into the copy's discard pile
    assert (len(c.zones[discard]), len(state.zones[discard])) == (1, 0)
    state.apply_action(state.legal_actions()[1])  # "no" in the original
    assert (len(c.zones[discard]), len(state.zones[discard])) == (1, 0)
    c.check_invariants()
    state.check_invariants()


@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    game_id=st.sampled_from(game_ids()),
    backend=st.sampled_from(BACKENDS),
    seed=st.integers(0, 10**6),
    cut=st.integers(0, 150),
)
def test_a_clone_plays_as_the_original_would(
    game_id: str, backend: str, seed: int, cut: int
) -> None:
    """The same actions from a clone and from its original give the same positions (the rng
    included), and leave the other untouched."""
    state = _game(game_id, backend).new_initial_state(seed)
    _play(state, random.Random(seed), cut)
    c = state.clone()
    saved = _saved(state)
    rng = random.Random(seed + 1)
    actions = []
    while not c.is_terminal() and len(actions) < 40:
        a = c.legal_actions()[rng.randrange(len(c.legal_actions()))]
        c.apply_action(a)
        actions.append(a)
    assert _saved(state) == saved
    for a in actions:
        state.apply_action(a)
    assert _saved(state) == _saved(c)
