"""meeple for game-AI work: observations, the action table, hidden-information resampling,
agents (``pip install -e ".[ai]"``). See docs/ai.md.

>>> import meeple, meeple.ai
>>> game = meeple.load("shadow-of-the-sun", players=4, backend="compiled")
>>> spec = meeple.ai.observation_spec(game)
>>> state = game.new_initial_state(seed=7)
>>> spec.encode(state, 0).shape == spec.shape
True

Seats are 0-based here (P1 is seat 0), as everywhere in the Python API.
"""

from .actions import (
    MEASURED_MAX_LENGTH,
    action_labels,
    legal_action_mask,
    max_game_length,
    num_distinct_actions,
)
from .observation import (
    INT_BOUND,
    Field,
    ObservationSpec,
    encode,
    information_state_string,
    observation_spec,
    observation_string,
)
from .resample import hidden_places, resample

__all__ = [
    "INT_BOUND",
    "MEASURED_MAX_LENGTH",
    "Field",
    "ObservationSpec",
    "action_labels",
    "encode",
    "information_state_string",
    "legal_action_mask",
    "max_game_length",
    "num_distinct_actions",
    "observation_spec",
    "observation_string",
    "hidden_places",
    "resample",
]
