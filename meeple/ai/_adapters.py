"""What the framework adapters (pettingzoo_env, gymnasium_env, openspiel_game) share: the game
they wrap, loaded once per process, and the legal-action mask. No framework is imported here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from meeple.interpreter.game import Game
from meeple.interpreter.state import State


@dataclass(frozen=True)
class GameKey:
    """Which game an adapter wraps: a game id or rules path, the seat count (None: the game's
    default), a variant id or file (None: the rules as printed), the back end ("compiled" by
    default: same games as the interpreter's, faster). Small and picklable: a saved state names
    its game by it."""

    game: str = "shadow-of-the-sun"
    players: int | None = None
    variant: str | None = None
    backend: str = "compiled"

    def load(self) -> Game:
        """The Game (loaded once per process). Raises MeepleError for broken rules, an unknown
        variant or a seat count the game does not support."""
        return _load(self)


@lru_cache(maxsize=64)
def _load(key: GameKey) -> Game:
    from meeple import api  # noqa: PLC0415  (the loader: lark, yaml, jsonschema)

    return api.load(key.game, key.players, key.variant, backend=key.backend)


def action_mask(state: State | None, seat: int, size: int) -> np.ndarray:
    """int8 vector of ``size`` entries: 1 for each action ``seat`` may take now (all zeros when
    another seat acts, the game is over or ``state`` is None)."""
    mask = np.zeros(size, dtype=np.int8)
    if state is not None:
        d = state.pending
        if d is not None and d.player == seat:
            mask[d.actions] = 1
    return mask


def sorted_legal_actions(state: State) -> list[int]:
    """The legal actions of the seat to act, ascending (frameworks such as OpenSpiel require
    it; meeple lists them in the order the rules give)."""
    return sorted(state.legal_actions())
