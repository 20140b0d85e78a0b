"""What the framework adapters (pettingzoo_env, gymnasium_env, openspiel_game) share: the game
they wrap, loaded once per process, and the legal-action mask. No framework is imported here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from meeple.dsl.errors import MeepleError
from meeple.interpreter.game import Game
from meeple.runtime.state import State


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


def _whole(value: Any) -> int | None:
    """``value`` as an int if it is a Python or numpy integer (or a one-element integer
    array), else None. A bool is not one: True as action 1 is a bug in the caller."""
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "iu":
        return int(value.reshape(()))
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return int(value)
    return None


def action_id(action: Any) -> int:
    """``action`` as meeple's action id. Raises MeepleError for a value that is not an integer
    ('0', 1.5, None, True): a type mistake in the caller, refused as such rather than played
    as an illegal move of the game."""
    n = _whole(action)
    if n is None:
        raise MeepleError(
            f"an action is an integer action id, not {action!r} ({type(action).__name__})",
            suggestion="pass an int (or a numpy integer) from the action space",
        )
    return n


def seed_value(seed: Any) -> int:
    """``seed`` as meeple's game seed. Raises MeepleError for a value that is not an integer
    ("x", 1.5, True): a seed silently truncated or coerced would not be the game asked for."""
    n = _whole(seed)
    if n is None:
        raise MeepleError(
            f"a seed is a whole number, not {seed!r} ({type(seed).__name__})",
            suggestion="reset(seed=7), or reset() for the next game's seed",
        )
    return n
