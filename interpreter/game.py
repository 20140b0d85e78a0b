"""Game: a loaded rule set for one player count, the factory of States (OpenSpiel's Game)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from meeple.dsl.checker import Checked
from meeple.dsl.errors import MeepleError
from meeple.dsl.render import eliminates
from meeple.runtime.layout import ProgramBase
from meeple.runtime.playout import chooser, run_playout
from meeple.runtime.state import State, check_saved_game, program_origin

from .program import Program


class Game:
    """A game ready to play: ``new_initial_state(seed)`` starts one.

    ``program`` is a program built by a generated module (the compiled back end); by default
    the interpreter compiles the checked IR itself.

    ``num_players()``, ``num_distinct_actions()`` and ``info`` describe it for adapters.
    Raises MeepleError for a player count the game does not support.
    """

    def __init__(
        self, checked: Checked, num_players: int, program: ProgramBase | None = None
    ) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise MeepleError(f"the number of players is a whole number, not {num_players!r}")
        self.checked = checked
        g = checked.game
        if not g.players_min <= num_players <= g.players_max:
            raise MeepleError(
                f"{g.name} is for {g.players_min} to {g.players_max} players, not {num_players}"
            )
        self.program: ProgramBase = program or Program(checked, num_players)
        self.backend = "interpreter" if program is None else "compiled"
        self.id, self.name = g.id, g.name
        self.info = {
            "id": g.id,
            "name": g.name,
            "rulebook": g.rulebook,
            "min_players": g.players_min,
            "max_players": g.players_max,
            "num_players": num_players,
            "chance": "explicit seeded PRNG in the state",
            "information": "imperfect",
            "simultaneous": "secret commitments, decided in turn",
            "num_distinct_actions": self.program.num_distinct_actions,
            "backend": self.backend,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle a game as the way ``meeple.load`` made it (see State.__reduce__); in the
        same process the same Game comes back."""
        from meeple.api import game_of_origin  # noqa: PLC0415  (the API imports this module)

        return (game_of_origin, (program_origin(self.program),))

    def new_initial_state(self, seed: int = 0, record_log: bool = True) -> State:
        """A new game, set up and advanced to its first decision. Same seed, same game."""
        return State(self.program, seed, record_log)

    def playout(
        self, seed: int = 0, choose: Callable[[int], int] | random.Random | int | None = None
    ) -> State:
        """A whole game from ``seed``, its decisions taken by ``choose`` (see State.playout;
        None: uniform choices seeded with ``seed``), the log off; returns the final state. The
        same game as ``new_initial_state(seed, record_log=False)`` then ``playout(choose)``;
        here the setup runs as direct code too."""
        state = State(self.program, seed, record_log=False, start=False)
        # (State.playout's own steps, without its import on every call)
        run_playout(state, chooser(seed if choose is None else choose))
        return state

    def num_players(self) -> int:
        return self.program.num_players

    def num_distinct_actions(self) -> int:
        """Size of the action space: every action id is in range(num_distinct_actions())."""
        return self.program.num_distinct_actions

    def state_from_json(
        self, data: dict[str, Any], record_log: bool = True, advance: bool = True
    ) -> State:
        """A state saved by ``State.to_json()``; MeepleError if it is not one of this game."""
        check_saved_game(self.program, data)  # which game it is of, before its seats
        players = data.get("players") if isinstance(data, dict) else None
        if (
            isinstance(players, list)
            and len(players) != self.num_players()
            and not self._eliminates
        ):
            raise MeepleError(
                f"this saved state is damaged: only {len(players)} of {self.num_players()} seats "
                f"are still playing, but the rules of {self.name} eliminate nobody"
            )
        return State.from_json(self.program, data, record_log, advance)

    @functools.cached_property
    def _eliminates(self) -> bool:
        """Can a seat leave the game (an ``eliminate`` statement anywhere in the rules)?"""
        return eliminates(self.checked.game)
