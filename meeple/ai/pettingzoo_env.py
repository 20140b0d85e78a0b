"""A PettingZoo AEC environment for any meeple game (``pip install -e ".[ai]"``).

>>> from meeple.ai.pettingzoo_env import env
>>> e = env("harbour-guilds", players=3)
>>> e.reset(seed=7)
>>> e.agent_selection
'P1'

Agents are named P1..Pn (seat 0 is P1). Each observation is a dict: ``"observation"``, the
seat's view as a float32 vector (meeple.ai.observation_spec: bounds from the declarations) and
``"action_mask"``, int8, 1 for each legal action of that agent now (all zeros when another agent
acts). Actions are meeple's action ids (``Discrete(num_distinct_actions)``); an illegal one
raises IllegalActionError and changes nothing. Rewards arrive exactly once, when the game ends:
``State.returns()``, 1.0 for each winner after the rules' tie-breakers (tied winners all get
1.0), 0.0 for the others (eliminated seats included); every agent is then terminated. A game
always ends by its rules, so nothing is truncated.

``reset(seed=s)`` plays meeple's game ``s`` (the same as ``game.new_initial_state(s)``); a
reset without a seed plays the next seed (s+1, s+2, ...; 0 first), so a run is reproducible.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from meeple.dsl.errors import MeepleError
from meeple.registry import GamePath, game_name
from meeple.runtime.values import player_name

from ._adapters import GameKey, action_id, action_mask, seed_value
from .observation import observation_spec, observation_string


class MeepleAECEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment of one game, variant and seat count (see the module docstring).

    Raises MeepleError for broken rules, an unknown variant or an unsupported seat count."""

    metadata = {
        "render_modes": ["ansi"],
        "render_fps": 1,
        "name": "meeple_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: GamePath = "shadow-of-the-sun",
        players: int | None = None,
        variant: GamePath | None = None,
        backend: str = "compiled",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        variant = game_name(variant, "variant") if variant is not None else None  # a Path as text
        self.game = GameKey(game_name(game), players, variant, backend).load()
        self.spec_ = observation_spec(self.game)
        n, size = self.game.num_players(), self.game.num_distinct_actions()
        self._actions = size
        self.possible_agents = [player_name(p) for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        box = spaces.Box(self.spec_.low, self.spec_.high, self.spec_.shape, np.float32)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": box,
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        if render_mode not in (None, "ansi"):
            raise MeepleError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self._next_seed = 0
        self.game_seed: int | None = None  # meeple's seed of the game being played
        self.state: Any = None
        self.metadata = dict(self.metadata, name=f"meeple_{self.game.id}_v0")

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._next_seed = seed_value(seed)
        self.game_seed = self._next_seed
        self._next_seed += 1
        self.state = self.game.new_initial_state(self.game_seed, record_log=False)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def _started(self) -> None:
        if self.state is None:
            raise MeepleError("the environment has no game yet: call reset() first")

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._started()
        seat = self._seat[agent]
        return {
            "observation": self.spec_.encode(self.state, seat),
            "action_mask": action_mask(self.state, seat, self._actions),
        }

    def step(self, action: Any) -> None:
        self._started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = action_id(action)  # MeepleError for a non-integer: a caller's type mistake
        self.state.apply_action(action)  # IllegalActionError (state unchanged) if not legal
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: float(returns[self._seat[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With render_mode "ansi": the view of the agent to act (or P1's at the end), as text."""
        if self.render_mode is None or self.state is None:
            return None
        seat = self._seat.get(self.agent_selection, 0)
        return observation_string(self.state, seat)

    def close(self) -> None:
        self.state = None


def env(
    game: GamePath = "shadow-of-the-sun",
    players: int | None = None,
    variant: GamePath | None = None,
    backend: str = "compiled",
    render_mode: str | None = None,
) -> MeepleAECEnv:
    """The AEC environment of ``game`` (see MeepleAECEnv)."""
    return MeepleAECEnv(game, players, variant, backend, render_mode)
