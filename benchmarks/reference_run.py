"""The command line of the hand-written references (``python benchmarks/reference_sun.py [N]``):
throughput over a few seconds of wall-clock time, then a sanity check of the rules (mean score
per seat and mean decisions per game, to compare with ``meeple simulate``). Standard library
only, as the references themselves."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

PlayGame = Callable[[int, int], tuple[list[int], int]]


def throughput(play_game: PlayGame, players: int, batch: int, seconds: float = 5.0) -> None:
    """Games and decisions per second of ``play_game(seed, players)``, seeds 0, 1, 2..."""
    games = decisions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(batch):
            decisions += play_game(games, players)[1]
            games += 1
        elapsed = time.perf_counter() - start
    print(
        f"{players} players: {games} games in {elapsed:.2f} s: {games / elapsed:.0f} games/s, "
        f"{decisions / elapsed:,.0f} decisions/s, {decisions / games:.1f} decisions/game"
    )


def sanity(play_game: PlayGame, players: int, n: int) -> None:
    """Mean score per seat and mean decisions per game over seeds 0..n-1."""
    totals = [0] * players
    decisions = 0
    for seed in range(n):
        scores, d = play_game(seed, players)
        decisions += d
        for p in range(players):
            totals[p] += scores[p]
    means = ", ".join(f"P{p + 1} {totals[p] / n:.1f}" for p in range(players))
    print(
        f"{n} games, {players} players: mean score {means}; "
        f"mean length {decisions / n:.1f} decisions per game"
    )


def main(play_game: PlayGame, batch: int, sanity_games: int) -> None:
    """``script.py [players]``: throughput, then the sanity check."""
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    throughput(play_game, players, batch)
    sanity(play_game, players, sanity_games)
