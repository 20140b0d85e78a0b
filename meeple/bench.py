"""Throughput measured side by side in one process: the interpreter, the generated module, and
(for the games of REFERENCE_GAMES) the hand-written reference in ``benchmarks/``.

Each back end is measured twice: through the API (``legal_actions``/``apply_action`` per
decision, as a framework drives it) and as playouts (``Game.playout``: the decisions taken
inline, the generated module's direct code; what a search agent or a simulation uses).

Every figure is a rate over a fixed budget of this process's CPU time (``time.process_time``, so
other work on a shared machine does not count against it), after a warm-up; ratios between back
ends measured in the same run are the numbers to trust.
"""

from __future__ import annotations

import importlib.util
import json
import random
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from meeple.interpreter.game import Game

REFERENCE_GAME = "shadow-of-the-sun"
#: game id -> its hand-written speed reference in benchmarks/ (a plain-Python playout with the
#: rules file's decision structure and ``play_game(seed, players) -> (scores, decisions)``)
REFERENCE_GAMES = {
    REFERENCE_GAME: "reference_sun.py",
    "sonnenkoenig": "reference_sonnenkoenig.py",
}


@dataclass
class Rates:
    """Complete random games per second and decisions per second."""

    games: float
    decisions: float


@dataclass
class BenchResult:
    """One game at one player count: rates per back end, and state costs (µs, bytes)."""

    game: str
    players: int
    rates: dict[str, Rates] = field(default_factory=dict)
    costs: dict[str, dict[str, float]] = field(default_factory=dict)


def playouts(game: Game, seconds: float) -> Rates:
    """Random playouts (logging off) for ``seconds``; seeds 0, 1, 2..."""
    rng = random.Random(1)
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state(games, record_log=False)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            decisions += 1
        games += 1
    dt = time.process_time() - start
    return Rates(games / dt, decisions / dt)


def fast_playouts(game: Game, seconds: float) -> Rates:
    """Playouts (``Game.playout``, uniform choices) for ``seconds``; seeds 0, 1, 2..."""
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += game.playout(games).move_number
        games += 1
    dt = time.process_time() - start
    return Rates(games / dt, decisions / dt)


def reference_module(game_id: str = REFERENCE_GAME) -> ModuleType | None:
    """The hand-written reference of ``game_id`` (``benchmarks/<REFERENCE_GAMES[game_id]>`` of a
    source checkout), or None for a game without one or when not installed from a checkout."""
    name = REFERENCE_GAMES.get(game_id)
    if name is None:
        return None
    path = Path(__file__).resolve().parent.parent / "benchmarks" / name
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"meeple_{path.stem}", path)
    if spec is None or spec.loader is None:
        return None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def reference_playouts(players: int, seconds: float, game_id: str = REFERENCE_GAME) -> Rates | None:
    """The rates of ``game_id``'s hand-written reference, or None without one (no source
    checkout, or no reference for that game)."""
    ref = reference_module(game_id)
    if ref is None:
        return None
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        _, n = ref.play_game(games, players)
        decisions += n
        games += 1
    dt = time.process_time() - start
    return Rates(games / dt, decisions / dt)


def state_costs(game: Game, repeats: int = 1000, seconds: float = 0.5) -> dict[str, float]:
    """Microseconds per clone(), to_json(), from_json() (CPU time, the best of 5 batches of
    ``repeats``); bytes of the JSON; playouts per second to the end from a clone of the same
    state (``midgame_playouts``, ``seconds`` of them). The state is halfway through a random
    game of seed 5 (by its decisions)."""
    length = game.playout(5, random.Random(5)).move_number
    state = game.new_initial_state(5, record_log=False)
    rng = random.Random(5)
    for _ in range(length // 2):
        a = state.pending.actions if state.pending is not None else []
        state.apply_action(a[int(rng.random() * len(a))])
    data = state.to_json()

    def best_us(op: Callable[[], object]) -> float:
        # the best of 5 batches (timeit's advice), with the collector on as in a real run: one
        # batch takes a few ms, and a full collection landing in it doubled the figure
        batches = timeit.repeat(op, "gc.enable()", time.process_time, repeat=5, number=repeats)
        return min(batches) / repeats * 1e6

    out: dict[str, float] = {
        "clone_us": best_us(state.clone),
        "to_json_us": best_us(state.to_json),
        "from_json_us": best_us(lambda: game.state_from_json(data, record_log=False)),
        "json_bytes": len(json.dumps(data)),
    }
    state.record_log = False
    n, t = 0, time.process_time()
    while time.process_time() - t < seconds:
        state.clone().playout(n)
        n += 1
    out["midgame_playouts"] = n / (time.process_time() - t)
    return out


BENCH_STEPS = 8  # the calls bench() makes to ``step``: for a progress bar's total
PLAYOUT = " playouts"  # the suffix of a back end's row measured with Game.playout


def bench(
    game_id: str,
    players: int | None,
    seconds: float,
    step: Callable[[str], None] | None = None,
) -> BenchResult:
    """Measure one game on both back ends (and its hand-written reference, if it has one).
    ``step(what)`` is called BENCH_STEPS times, after each part, for a progress display."""
    from meeple import api

    done = step or (lambda what: None)
    games = {b: api.load(game_id, players, backend=b) for b in api.BACKENDS}
    n = games["interpreter"].num_players()
    result = BenchResult(game_id, n)
    done("loaded")
    for g in games.values():
        playouts(g, min(0.5, seconds / 4))  # warm-up
        fast_playouts(g, min(0.25, seconds / 8))
    done("warmed up")
    for name, g in games.items():
        result.rates[name] = playouts(g, seconds)
        done(name)
        result.rates[name + PLAYOUT] = fast_playouts(g, seconds)
        done(name + PLAYOUT)
    if game_id in REFERENCE_GAMES:
        ref = reference_module(game_id)
        if ref is not None:
            reference_playouts(n, min(0.5, seconds / 4), game_id)
            rates = reference_playouts(n, seconds, game_id)
            if rates is not None:
                result.rates["hand-written"] = rates
    done("hand-written reference")
    for name, g in games.items():
        result.costs[name] = state_costs(g, seconds=min(0.5, seconds / 4))
    done("state costs")
    return result
