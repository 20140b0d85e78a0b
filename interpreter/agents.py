"""Computer players. Each is a callable ``agent(state) -> action`` with its own seeded RNG, so a
game with agents is still fully determined by its seed."""

from __future__ import annotations

import random

from meeple.runtime.state import State


class RandomAgent:
    """Picks a uniformly random legal action."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: State) -> int:
        # drawn from the decision's options in the rules' order (legal_actions() is sorted), so
        # that every seeded game recorded before legal actions were sorted replays unchanged
        d = state.pending
        actions = d.actions if d is not None else []
        return actions[self.rng.randrange(len(actions))]


class FirstAgent:
    """Always takes the first legal action (useful for reproducible smoke tests)."""

    def __call__(self, state: State) -> int:
        return state.legal_actions()[0]
