"""Agents against each other: ``meeple arena GAME --agents ismcts,random,random,random``.

Win rates per seat with 95% Wilson score intervals; deterministic given the seed."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from meeple.dsl.errors import MeepleError
from meeple.interpreter.game import Game

from .agents import make_agent, win_shares


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (95% for z = 1.96), as
    fractions in [0, 1]. ``wins`` may be fractional (a tie shared between k winners counts
    1/k). (0, 1) for n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class SeatResult:
    """One seat of an arena: its agent, its games, its share of the wins, mean score."""

    seat: int
    agent: str
    games: int = 0
    wins: float = 0.0
    score_total: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return self.score_total / self.games if self.games else 0.0


@dataclass
class ArenaResult:
    game: str
    players: int
    games: int
    seed: int
    seats: list[SeatResult] = field(default_factory=list)
    decisions: int = 0


def arena(
    game: Game,
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play ``games`` games of ``game`` with ``agents[seat]`` (agent specs, see make_agent)
    choosing for each seat (0-based; P1 is seat 0). Game ``i`` is dealt with seed
    ``seed + i``; the agent of seat ``p`` in game ``i`` is seeded ``(seed + i) * 1000 + p``.
    A win shared by k tied winners counts 1/k to each. Raises MeepleError when the number
    of agents is not the number of players or an agent is unknown."""
    n = game.num_players()
    if len(agents) != n:
        raise MeepleError(
            f"{len(agents)} agents for a {n}-player game",
            expected=f"{n} agent names separated by commas, one per seat (P1 first)",
            suggestion="e.g. --agents " + ",".join(["ismcts"] + ["random"] * (n - 1)),
        )
    for spec in agents:
        make_agent(spec, 0)  # an unknown name fails before any game is played
    if games < 1:
        raise MeepleError(f"the number of games is at least 1, not {games}")
    result = ArenaResult(game.id, n, games, seed, [SeatResult(p, a) for p, a in enumerate(agents)])
    for i in range(games):
        players = [make_agent(a, (seed + i) * 1000 + p) for p, a in enumerate(agents)]
        state = game.new_initial_state(seed + i, record_log=False)
        while not state.is_terminal():
            state.apply_action(players[state.current_player()](state))
            result.decisions += 1
        shares = win_shares(state)
        scores = state.scores()
        for p, r in enumerate(result.seats):
            r.games += 1
            r.wins += shares[p]
            r.score_total += scores[p]
        if progress is not None:
            progress(i + 1)
    return result
