"""Game: a loaded rule set for one player count, the factory of States (OpenSpiel's Game)."""

from __future__ import annotations

from typing import Any

from meeple.dsl.checker import Checked

from .program import Program
from .state import State


class Game:
    """A game ready to play: ``new_initial_state(seed)`` starts one.

    ``num_players``, ``num_distinct_actions()`` and ``info`` describe it for adapters.
    """

    def __init__(self, checked: Checked, num_players: int) -> None:
        self.checked = checked
        self.program = Program(checked, num_players)
        self.num_players = num_players
        g = checked.game
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
        }

    def new_initial_state(self, seed: int = 0, record_log: bool = True) -> State:
        """A new game, set up and advanced to its first decision. Same seed, same game."""
        return State(self.program, seed, record_log)

    def num_distinct_actions(self) -> int:
        return self.program.num_distinct_actions

    def state_from_json(self, data: dict[str, Any], record_log: bool = True) -> State:
        return State.from_json(self.program, data, record_log)
