"""Clones share piles and frames with their original (State.clone): a property test over the
shipped games on both back ends.

Random games; at every decision of a window of the game the state is cloned, and the states
alive (the original, its clones, clones of clones) are played on in a random interleaving: a
random action on one of them, a new clone of one of them, and (``playouts``) a playout of a
clone or of a clone itself. After every step each live state's ``to_json()`` must equal its
twin's: a state that shared nothing (a new game replayed with the same actions when the clone
was made, then given the same actions). The original's twin is a game never cloned. A playout's
final state must equal a new game replayed with the playout's choices through the API. So a
move, shuffle or refill that changes a pile it shares, or a name left holding a pile another
state changes (or that its own moves no longer change), shows as a difference.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sampling import alternate_backends
from test_language_v2 import write
from test_playout import Recorder, cached_game, replay
from test_shared_piles import LISTED, LOOP, MIXED, PARAMETER

import meeple
from meeple.interpreter.game import Game
from meeple.runtime.state import State

BACKENDS = ("interpreter", "compiled")
GAMES = {  # the seat counts each game is played with
    "harbour-guilds": (2, 3, 4),
    "louis-xiv": (2, 3, 4),
    "shadow-of-the-emperor": (2, 3, 4),
    "shadow-of-the-sun": (3, 4),
    "sonnenkoenig": (2, 4, 6),
}
SKIP = {"harbour-guilds": 15}  # at most this many decisions left out first (else 120)
MAX_LIVE = 5  # states alive at once (the oldest clone is dropped past it)


def _saved(state: State, log: bool = True) -> str:
    data = state.to_json()
    if not log:
        del data["log"]
    return json.dumps(data, sort_keys=True)


@dataclass
class Tracked:
    """A live state, the actions that made it (from the game's start) and its twin."""

    state: State
    twin: State
    actions: list[int] = field(default_factory=list)
    saved: str = ""  # the twin's to_json, kept while the twin does not change

    def act(self, rng: random.Random) -> None:
        legal = self.state.legal_actions()
        a = legal[rng.randrange(len(legal))]
        self.state.apply_action(a)
        self.twin.apply_action(a)
        self.actions.append(a)
        self.saved = _saved(self.twin)


def _replayed(game: Game, seed: int, actions: list[int], log: bool = True) -> State:
    """A new game of ``seed`` given ``actions`` through the API: shares nothing."""
    s = game.new_initial_state(seed, record_log=log)
    for a in actions:
        s.apply_action(a)
    return s


def _check_playout(game: Game, seed: int, t: Tracked, state: State, rng: random.Random) -> None:
    """Play ``state`` (``t``'s state or a clone of it) out; it must be the API game of its
    choices."""
    state.record_log = False
    rec = Recorder(rng.randrange(1 << 30))
    state.playout(rec)
    api = _replayed(game, seed, t.actions, log=False)
    replay(api, rec.taken)
    assert _saved(state, log=False) == _saved(api, log=False), "a playout is not the API game"


def play_with_clones(
    game: Game, seed: int, window: int | None, playouts: bool, rng: random.Random
) -> int:
    """One game of ``seed``: its first decisions played unchecked (to reach any point of the
    game), then ``window`` decisions of the original (None: to the end) with clones made and
    played as the module docstring says. Returns the number of clones made."""
    root = Tracked(game.new_initial_state(seed), game.new_initial_state(seed))
    if window is not None:  # start anywhere in the game
        for _ in range(rng.randrange(SKIP.get(game.id, 120))):
            if root.state.is_terminal():
                break
            root.act(rng)
    live = [root]
    clones = 0
    steps = 0
    while not root.state.is_terminal() and (window is None or steps < window):
        # at every decision of the original: a clone of it, then a random interleaving
        c = root.state.clone()
        live.append(Tracked(c, _replayed(game, seed, root.actions), list(root.actions)))
        clones += 1
        for _ in range(rng.randrange(1, 8)):
            t = live[rng.randrange(len(live))]
            k = rng.random()
            if k < 0.2 and not t.state.is_terminal():  # a clone of any live state
                live.append(
                    Tracked(t.state.clone(), _replayed(game, seed, t.actions), list(t.actions))
                )
                clones += 1
            elif playouts and k < 0.3 and not t.state.is_terminal():
                if t is not root and rng.random() < 0.5:
                    _check_playout(game, seed, t, t.state, rng)  # a clone played out itself
                    live.remove(t)
                else:
                    _check_playout(game, seed, t, t.state.clone(), rng)
            elif not t.state.is_terminal():
                t.act(rng)
            for u in live:  # every state alive: its own position, whoever played
                u.saved = u.saved or _saved(u.twin)
                assert _saved(u.state) == u.saved, (
                    "the original differs from a state never cloned"
                    if u is root
                    else "a clone differs from a new game given the same actions"
                )
        if not root.state.is_terminal():  # (it may have been played to its end above)
            root.act(rng)
        steps += 1
        assert _saved(root.state) == root.saved, "the original differs from a state never cloned"
        while len(live) > MAX_LIVE:
            live.pop(1)  # the oldest clone
    for u in live:
        u.state.check_invariants()
    return clones


def _cases() -> list[tuple[str, int]]:
    return [(g, n[-1]) for g, n in GAMES.items()]


# the quick loop plays each game on one back end, alternately (the other one than
# test_clone.py's clones along a game), the deep run on the other
@pytest.mark.parametrize(
    ("game_id", "players", "backend"), alternate_backends(_cases(), BACKENDS[::-1])
)
def test_clones_share_nothing_they_change(game_id: str, players: int, backend: str) -> None:
    game = cached_game(game_id, players, backend)
    rng = random.Random(f"{game_id} {backend}")
    assert play_with_clones(game, 1, 8, False, rng) >= 8
    assert play_with_clones(game, 2, 5, True, rng) >= 5


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "text", [PARAMETER, LOOP, MIXED, LISTED], ids=["parameter", "loop", "mixed", "listed"]
)
def test_named_piles_cloned_anywhere(tmp_path: Path, text: str, backend: str) -> None:
    """Rules that hold piles in names (procedure parameters, loops over zones, a let of a list
    of zones) across decisions, shuffle a pile and refill one (test_shared_piles)."""
    game = meeple.load(str(write(tmp_path, text)), 2, backend=backend)
    rng = random.Random(backend)
    for seed in range(2):
        assert play_with_clones(game, seed, None, seed == 1, rng) > 5


@pytest.mark.deep
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_clones_share_nothing_they_change_deep(game_id: str, backend: str) -> None:
    rng = random.Random(f"deep {game_id} {backend}")
    for seed in range(12):
        players = GAMES[game_id][seed % len(GAMES[game_id])]
        game = cached_game(game_id, players, backend)
        play_with_clones(game, seed, None if seed % 3 == 0 else 40, seed % 2 == 1, rng)
