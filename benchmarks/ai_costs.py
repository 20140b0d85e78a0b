"""What meeple.ai costs: clone, resample, observation encoding, pickling (µs) on both back ends,
and ISMCTS iterations per second, for every seed game. Prints a Markdown table (docs/ai.md).

    python benchmarks/ai_costs.py [--repeats 300] [--iterations 100]

CPU time of this process (time.process_time), as meeple bench measures, on a mid-game state:
halfway (in decisions) through the random game of seed 5.
"""

from __future__ import annotations

import argparse
import pickle
import random
import time
from collections.abc import Callable

import meeple
import meeple.ai as ai
from meeple.ai.agents import ISMCTSAgent

GAMES = ["shadow-of-the-sun", "sonnenkoenig", "shadow-of-the-emperor", "louis-xiv"]


def mid_game(game: meeple.api.Game) -> meeple.api.State:
    """The state halfway through the random game of seed 5 (in decisions)."""
    rng = random.Random(5)
    state = game.new_initial_state(5)
    actions = []
    while not state.is_terminal():
        a = state.legal_actions()
        actions.append(a[rng.randrange(len(a))])
        state.apply_action(actions[-1])
    state = game.new_initial_state(5)
    for a in actions[: len(actions) // 2]:
        state.apply_action(a)
    return state


def per_call_us(f: Callable[[int], object], repeats: int) -> float:
    f(0)  # warm up
    t = time.process_time()
    for i in range(repeats):
        f(i)
    return (time.process_time() - t) / repeats * 1e6


def measure(
    game: meeple.api.Game, n: int, iterations: int
) -> tuple[float, float, float, float, float, float]:
    """(clone, resample, encode, pickle, unpickle µs; ISMCTS iterations/s) mid-game."""
    spec = ai.observation_spec(game)
    s = mid_game(game)
    seat = s.current_player()
    clone = per_call_us(lambda i: s.clone(), n)
    res = per_call_us(lambda i: ai.resample(s, (seat + i) % 4, i), n)
    enc = per_call_us(lambda i: spec.encode(s, i % 4), n)
    blob = pickle.dumps(s)
    dumps = per_call_us(lambda i: pickle.dumps(s), n)
    loads = per_call_us(lambda i: pickle.loads(blob), n)
    agent = ISMCTSAgent(0, iterations=iterations)
    t = time.process_time()
    agent(s)
    its = iterations / (time.process_time() - t)
    return clone, res, enc, dumps, loads, its


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeats", type=int, default=300)
    p.add_argument("--iterations", type=int, default=100)
    args = p.parse_args()
    print(
        "| game (4 players) | back end | clone µs | resample µs | encode µs | pickle µs "
        "| unpickle µs | ISMCTS iterations/s |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for gid in GAMES:
        for backend in ("interpreter", "compiled"):
            game = meeple.load(gid, players=4, backend=backend)
            clone, res, enc, dumps, loads, its = measure(game, args.repeats, args.iterations)
            print(
                f"| {game.name} | {backend} | {clone:.0f} | {res:.0f} | {enc:.0f} | {dumps:.0f} "
                f"| {loads:.0f} | {its:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
