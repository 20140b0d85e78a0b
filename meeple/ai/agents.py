"""Computer players for game-AI work: random, greedy on the score one step ahead, flat Monte
Carlo and information-set Monte Carlo tree search.

Every agent is a callable ``agent(state) -> action`` (meeple.api.Agent), seeded, so a game
played by agents is fully determined by its seeds. Agents that look ahead do so on
``resample(state, seat, seed)``, never on ``clone()``: they cannot see the cards their seat
cannot see nor the future shuffles. Use them on the generated back end (``backend="compiled"``);
they work on both.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from typing import Any

from meeple.dsl.errors import MeepleError, did_you_mean
from meeple.interpreter.agents import RandomAgent
from meeple.runtime.state import State

from .resample import resample

__all__ = [
    "AGENTS",
    "FlatMonteCarloAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "RandomAgent",
    "make_agent",
    "win_shares",
]


def win_shares(state: State) -> list[float]:
    """Each seat's share of the win of a finished game: 1/k for each of k tied winners (ties
    as the rules break them: ``state.winners()``), 0 for the others."""
    winners = state.winners()
    n = state.prog.num_players
    if not winners:
        return [0.0] * n
    share = 1.0 / len(winners)
    return [share if p in winners else 0.0 for p in range(n)]


def _playout(state: State, rng: random.Random) -> None:
    """Uniform random play to the end (the rules' order of options; logging off): a playout
    (State.playout, the decisions taken inline), the same game as one apply_action each."""
    state.playout(rng.randrange)


def _determinized(state: State, seat: int, rng: random.Random) -> State:
    """A resampled state for ``seat``, without a log (faster to play on)."""
    s = resample(state, seat, rng.getrandbits(63))
    s.record_log = False
    s.log = []
    return s


class GreedyAgent:
    """Takes the legal action after which its own score (the game's ``score`` variable) is
    highest, one step ahead on one resampled state (the same for every action); ties and
    scores that do not move (games that score only at the end) are decided at random."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: State) -> int:
        seat = state.current_player()
        acts = state.legal_actions()
        if len(acts) == 1:
            return acts[0]
        base = _determinized(state, seat, self.rng)
        best: list[int] = []
        top = -math.inf
        for a in acts:
            s = base.clone()
            s.apply_action(a)
            v = s.scores()[seat]
            if v > top:
                top, best = v, [a]
            elif v == top:
                best.append(a)
        return best[self.rng.randrange(len(best))]


class FlatMonteCarloAgent:
    """For each legal action, ``playouts`` random games to the end from resampled states
    (a new deal for each playout); takes the action with the best mean share of the win."""

    def __init__(self, seed: int = 0, playouts: int = 10) -> None:
        if playouts < 1:
            raise MeepleError(
                f"flat Monte Carlo needs at least 1 playout per action, not {playouts}"
            )
        self.rng = random.Random(seed)
        self.playouts = playouts

    def __call__(self, state: State) -> int:
        seat = state.current_player()
        acts = state.legal_actions()
        if len(acts) == 1:
            return acts[0]
        best, top = acts[0], -1.0
        for a in acts:
            total = 0.0
            for _ in range(self.playouts):
                s = _determinized(state, seat, self.rng)
                s.apply_action(a)
                _playout(s, self.rng)
                total += win_shares(s)[seat]
            if total > top:
                best, top = a, total
        return best


class _Node:
    __slots__ = ("mover", "children", "visits", "avail", "reward")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose action led here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class ISMCTSAgent:
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012).

    Each of ``iterations`` iterations deals a new determinization (``resample`` for the
    agent's seat, random-number state reseeded), walks the one tree of action histories
    (UCB1 over the actions legal in this determinization, with availability counts, constant
    ``c``), adds one node, plays at random to the end and backs up each seat's share of the
    win to the nodes of that seat's actions. Plays the root action visited most."""

    def __init__(self, seed: int = 0, iterations: int = 200, c: float = 0.7) -> None:
        if iterations < 1:
            raise MeepleError(f"ISMCTS needs at least 1 iteration, not {iterations}")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.c = c

    def __call__(self, state: State) -> int:
        seat = state.current_player()
        acts = state.legal_actions()
        if len(acts) == 1:
            return acts[0]
        rng, c = self.rng, self.c
        root = _Node(-1)
        for _ in range(self.iterations):
            s = _determinized(state, seat, rng)
            node = root
            path = [root]
            while True:
                d = s.pending
                if d is None:
                    break
                legal = d.actions
                children = node.children
                fresh = [a for a in legal if a not in children]
                for a in legal:
                    ch = children.get(a)
                    if ch is not None:
                        ch.avail += 1
                if fresh:
                    a = fresh[rng.randrange(len(fresh))]
                    child = children[a] = _Node(d.player)
                    child.avail = 1
                    s.apply_action(a)
                    path.append(child)
                    break
                best_a, best_v = legal[0], -math.inf
                for a in legal:
                    ch = children[a]
                    v = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if v > best_v:
                        best_a, best_v = a, v
                node = children[best_a]
                s.apply_action(best_a)
                path.append(node)
            _playout(s, rng)
            shares = win_shares(s)
            for n in path:
                n.visits += 1
                if n.mover >= 0:
                    n.reward += shares[n.mover]
        return max(acts, key=lambda a: root.children[a].visits if a in root.children else -1)


#: agent names for ``make_agent`` and ``meeple arena --agents``; the optional number after a
#: colon is the budget (flatmc: playouts per action, ismcts: iterations per decision)
AGENTS: dict[str, Callable[..., Any]] = {
    "random": lambda seed, budget: RandomAgent(seed),
    "greedy": lambda seed, budget: GreedyAgent(seed),
    "flatmc": lambda seed, budget: FlatMonteCarloAgent(seed, budget or 10),
    "ismcts": lambda seed, budget: ISMCTSAgent(seed, budget or 200),
}
#: the agents that take a budget after a colon, and what it counts
BUDGETS = {"flatmc": "playouts per action", "ismcts": "iterations per decision"}
#: the largest budget: ISMCTS takes tens of seconds a game at 200 iterations, so a budget
#: beyond this is a typo (or a run of weeks), not a plan
MAX_BUDGET = 100_000
_DIGITS = re.compile(
    r"[0-9]+"
)  # ASCII digits only: str.isdigit() also takes '²', which int() refuses


def make_agent(spec: str, seed: int) -> Callable[[State], int]:
    """An agent from its name, e.g. ``"ismcts"`` or ``"ismcts:500"`` (a budget after the
    colon, for the agents in :data:`BUDGETS`), seeded. Raises MeepleError for an unknown name,
    a budget given to an agent that takes none, or a budget that is not a whole number from 1
    to :data:`MAX_BUDGET`."""
    name, colon, budget = spec.strip().partition(":")
    if name not in AGENTS:
        raise MeepleError(
            f"unknown agent '{name}'",
            expected="one of " + ", ".join(AGENTS),
            suggestion=did_you_mean(name, list(AGENTS)),
        )
    if not colon:
        return AGENTS[name](seed, None)  # type: ignore[no-any-return]
    takes = ", ".join(f"{a}:N ({what})" for a, what in BUDGETS.items())
    if name not in BUDGETS:
        raise MeepleError(
            f"agent '{name}' takes no budget, but '{spec.strip()}' gives one",
            expected=f"'{name}' alone; only these take a number: {takes}",
        )
    if not _DIGITS.fullmatch(budget) or not 1 <= int(budget) <= MAX_BUDGET:
        raise MeepleError(
            f"the budget of agent '{spec.strip()}' is {repr(budget) if budget else 'empty'}",
            expected=f"a whole number from 1 to {MAX_BUDGET:,} ({BUDGETS[name]})",
            suggestion=f"e.g. {name}:100, or '{name}' alone for the default",
        )
    return AGENTS[name](seed, int(budget))  # type: ignore[no-any-return]
