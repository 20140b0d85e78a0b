"""A Gymnasium single-agent environment for any meeple game (``pip install -e ".[ai]"``): the
learner plays one seat, given agents play the others.

>>> from meeple.ai.gymnasium_env import MeepleEnv
>>> env = MeepleEnv("harbour-guilds", players=3, seat=1)
>>> obs, info = env.reset(seed=7)
>>> sorted(obs)
['action_mask', 'observation']

Observation: a dict of ``"observation"``, the learner's view as a float32 vector
(meeple.ai.observation_spec: bounds from the declarations) and ``"action_mask"``, int8, 1 for
each legal action now (also ``env.action_masks()``, as MaskablePPO of sb3-contrib expects).
Actions are meeple's action ids (``Discrete(num_distinct_actions)``).

Reward: 0.0 until the game ends, then once ``State.returns()[seat]``: 1.0 if the learner's seat
is among the winners after the rules' tie-breakers (tied winners all get 1.0), else 0.0. A
game always ends by its rules, so nothing is truncated.

An illegal action (Gymnasium has no masks of its own, and a policy may pick one): with
``illegal_action="raise"`` it raises IllegalActionError and changes nothing; with "terminate"
(the default, as PettingZoo's classic games do) the episode ends there with reward
``illegal_reward`` (-1.0) and ``info["illegal_action"]`` set, and its final observation's
mask (and ``action_masks()``) holds no legal action.

Seeds: ``reset(seed=s)`` plays meeple's game ``s`` (``game.new_initial_state(s)``) with the
other seats' agents made for that seed; ``reset()`` without a seed draws the next game's seed
from the environment's ``np_random``, so a seeded run is reproducible.

Other seats: ``opponents`` is None (random players, seeded from the game's seed as in
``meeple simulate``), or one agent name of ``meeple arena`` (``"greedy"``, ``"ismcts:50"``):
every other seat plays that agent, seeded from the game's seed, or a factory
``(seat, game_seed) -> agent`` called at each reset, or a sequence of agents (or agent names)
by seat (the learner's entry is ignored). An agent is a callable ``agent(state) -> action``
(meeple.interpreter.agents, meeple.ai's agents).

Actions and seeds are integers (Python or numpy); anything else ('0', 1.5, None) is refused
with a MeepleError, a caller's mistake rather than an illegal move. After an episode ends, by
the game's end or an illegal action, ``step`` raises until ``reset()``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from meeple.dsl.errors import IllegalActionError, MeepleError
from meeple.interpreter.agents import RandomAgent
from meeple.registry import GamePath, game_name
from meeple.runtime.state import State

from ._adapters import GameKey, action_id, action_mask, seed_value
from .agents import make_agent
from .observation import observation_spec, observation_string

Agent = Callable[[State], int]
Opponents = str | Callable[[int, int], Agent] | Sequence[Agent | str | None] | None

ILLEGAL_ACTION = ("terminate", "raise")


class MeepleEnv(gym.Env):  # type: ignore[misc]
    """The learner plays ``seat`` (0-based: 0 is P1) of ``game``; see the module docstring.

    Raises MeepleError for broken rules, an unknown variant, an unsupported seat count, a seat
    not of the game or a bad ``illegal_action``."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: GamePath = "shadow-of-the-sun",
        players: int | None = None,
        variant: GamePath | None = None,
        seat: int = 0,
        opponents: Opponents = None,
        backend: str = "compiled",
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        variant = game_name(variant, "variant") if variant is not None else None  # a Path as text
        self.game = GameKey(game_name(game), players, variant, backend).load()
        n = self.game.num_players()
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise MeepleError(
                f"seat {seat!r} is not a seat of this {n}-player game",
                expected=f"0 to {n - 1} (P1 to P{n})",
            )
        if illegal_action not in ILLEGAL_ACTION:
            raise MeepleError(
                f"illegal_action is {illegal_action!r}", expected=" or ".join(ILLEGAL_ACTION)
            )
        if render_mode not in (None, "ansi"):
            raise MeepleError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.seat, self.opponents = seat, opponents
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.render_mode = render_mode
        self.spec_ = observation_spec(self.game)
        self._actions = self.game.num_distinct_actions()
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    self.spec_.low, self.spec_.high, self.spec_.shape, np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self._actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self._actions)
        self.state: State | None = None
        self.game_seed: int | None = None  # meeple's seed of the game being played
        self._agents: list[Agent | None] = []
        self._ended = False  # the episode was ended by an illegal action (the game was not)
        if isinstance(opponents, str):
            make_agent(opponents, 0)  # an unknown name or bad budget fails here, not at reset()
        elif opponents is not None and not callable(opponents):
            for a in opponents:
                if isinstance(a, str):
                    make_agent(a, 0)

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is not None:
            seed = seed_value(seed)  # MeepleError for "x" or 1.5, not a truncated seed
        super().reset(seed=seed)
        self._ended = False
        if seed is not None:
            self.game_seed = seed
        else:
            self.game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.state = self.game.new_initial_state(self.game_seed, record_log=False)
        self._agents = self._make_agents(self.game_seed)
        self._play_others()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self._need_state()
        if state.is_terminal() or self._ended:
            raise IllegalActionError("the game is over; call reset()")
        action = action_id(action)  # MeepleError for '0', 1.5, None: a type mistake, not a move
        try:
            state.apply_action(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._ended = True  # the episode ended here: no further step until reset()
            info = self._info()
            info["illegal_action"] = action
            return self._obs(), self.illegal_reward, True, False, info
        self._play_others()
        done = state.is_terminal()
        reward = float(state.returns()[self.seat]) if done else 0.0
        return self._obs(), reward, done, False, self._info()

    def render(self) -> str | None:
        """With render_mode "ansi": the learner's view of the table, as text."""
        if self.render_mode is None or self.state is None:
            return None
        return observation_string(self.state, self.seat)

    def action_masks(self) -> np.ndarray:
        """The legal-action mask now, as bools (sb3-contrib's MaskablePPO calls this); all
        False once the episode has ended, by the game's end or an illegal action."""
        return self._mask().astype(bool)

    # ------------------------------------------------------------------ inside
    def _make_agents(self, game_seed: int) -> list[Agent | None]:
        n = self.game.num_players()
        o = self.opponents
        if o is None:  # as meeple simulate seats them: same seed, same opponents
            return [None if p == self.seat else RandomAgent(game_seed * 1000 + p) for p in range(n)]
        if isinstance(o, str):  # one agent name: every other seat plays it
            return [
                None if p == self.seat else make_agent(o, game_seed * 1000 + p) for p in range(n)
            ]
        if callable(o):
            return [None if p == self.seat else o(p, game_seed) for p in range(n)]
        agents = list(o)
        if len(agents) != n:
            raise MeepleError(
                f"opponents: {len(agents)} agents given for a {n}-player game",
                expected=f"{n} agents by seat, one agent name for every other seat, "
                "a factory (seat, game_seed) -> agent, or None",
            )
        return [
            None
            if p == self.seat
            else make_agent(a, game_seed * 1000 + p)
            if isinstance(a, str)
            else a
            for p, a in enumerate(agents)
        ]

    def _play_others(self) -> None:
        """Let the other seats act until the learner must act or the game is over."""
        state = self._need_state()
        while not state.is_terminal() and state.current_player() != self.seat:
            agent = self._agents[state.current_player()]
            assert agent is not None
            state.apply_action(agent(state))

    def _obs(self) -> dict[str, np.ndarray]:
        state = self._need_state()
        return {"observation": self.spec_.encode(state, self.seat), "action_mask": self._mask()}

    def _mask(self) -> np.ndarray:
        """The legal-action mask of the learner's seat; no action is legal in an episode that
        an illegal action ended (``step`` refuses them all until ``reset()``)."""
        mask = action_mask(self.state, self.seat, self._actions)
        if self._ended:
            mask[:] = 0
        return mask

    def _info(self) -> dict[str, Any]:
        return {"game_seed": self.game_seed}

    def _need_state(self) -> State:
        if self.state is None:
            raise MeepleError("call reset() before step()")
        return self.state


def register() -> None:
    """Register ``meeple/Game-v0`` with Gymnasium: ``gymnasium.make("meeple/Game-v0",
    game="harbour-guilds", players=3, seat=0)`` (idempotent)."""
    if "meeple/Game-v0" not in gym.registry:
        gym.register(
            "meeple/Game-v0",
            entry_point="meeple.ai.gymnasium_env:MeepleEnv",
            disable_env_checker=True,
        )


register()
