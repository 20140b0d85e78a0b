"""Throughput of random playouts: complete games per second and decisions per second.

Measures, in one process, side by side: the meeple interpreter, the hand-written plain-Python
reference (benchmarks/reference_sun.py, when present), the cost of clone() and of
to_json()/from_json(), and the size of a saved state. Reports ratios, because these machines are
noisy. Not a test: run it by hand.

    python benchmarks/throughput.py [--game shadow-of-the-sun] [--players 4] [--seconds 5]

Without --game it reports every game that ships with meeple, each at --players (or the nearest
count the game allows).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import meeple
from meeple.interpreter.game import Game
from meeple.registry import game_ids


def interpreter_playouts(game: Game, seconds: float) -> tuple[float, float]:
    """(games per second, decisions per second) of random playouts, logging off."""
    rng = random.Random(1)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(games, record_log=False)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            decisions += 1
        games += 1
    dt = time.perf_counter() - start
    return games / dt, decisions / dt


def reference_playouts(players: int, seconds: float) -> tuple[float, float] | None:
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        import reference_sun  # type: ignore[import-not-found]
    except ImportError:
        return None
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, n = reference_sun.play_game(games, players)
        decisions += n
        games += 1
    dt = time.perf_counter() - start
    return games / dt, decisions / dt


def state_costs(game: Game, repeats: int = 2000) -> dict[str, float]:
    """Microseconds per clone(), to_json(), from_json(); bytes of the JSON, mid-game."""
    state = game.new_initial_state(5, record_log=False)
    rng = random.Random(5)
    for _ in range(150):
        if state.is_terminal():
            break
        a = state.legal_actions()
        state.apply_action(a[rng.randrange(len(a))])
    out: dict[str, float] = {}
    t = time.perf_counter()
    for _ in range(repeats):
        state.clone()
    out["clone_us"] = (time.perf_counter() - t) / repeats * 1e6
    t = time.perf_counter()
    for _ in range(repeats):
        data = state.to_json()
    out["to_json_us"] = (time.perf_counter() - t) / repeats * 1e6
    t = time.perf_counter()
    for _ in range(repeats):
        game.state_from_json(data, record_log=False)
    out["from_json_us"] = (time.perf_counter() - t) / repeats * 1e6
    out["json_bytes"] = len(json.dumps(data))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default=None, help="a game id (default: every shipped game)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    for game_id in [args.game] if args.game else game_ids():
        report(game_id, args.players, args.seconds)


def report(game_id: str, players: int, seconds: float) -> None:
    """Print the throughput and state costs of one game."""
    info = meeple.load(game_id).info
    players = max(info["min_players"], min(info["max_players"], players))
    game = meeple.load(game_id, players=players)
    interpreter_playouts(game, 0.5)  # warm-up
    g, d = interpreter_playouts(game, seconds)
    print(f"{game.name}, {players} players, random playouts, one core")
    print(f"  interpreter:  {g:8.1f} games/s  {d:10.0f} decisions/s")
    if game_id == "shadow-of-the-sun":
        ref = reference_playouts(players, seconds)
        if ref is not None:
            print(f"  hand-written: {ref[0]:8.1f} games/s  {ref[1]:10.0f} decisions/s")
            print(f"  ratio interpreter / hand-written: {g / ref[0]:.3f} (games/s)")
    c = state_costs(game)
    print(
        f"  clone {c['clone_us']:.1f} us, to_json {c['to_json_us']:.1f} us, "
        f"from_json {c['from_json_us']:.1f} us, saved state {c['json_bytes']:.0f} bytes"
    )


if __name__ == "__main__":
    main()
