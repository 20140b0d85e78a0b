"""OpenSpiel games for meeple's games, registered with ``pyspiel`` (``pip install -e ".[ai]"``).

>>> import pyspiel
>>> from meeple.ai import openspiel_game
>>> game = pyspiel.load_game("meeple_harbour_guilds", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

Importing this module registers one game per shipped game, ``meeple_<id>`` with ``-`` read
as ``_`` (``meeple_shadow_of_the_sun``...); ``register(path)`` registers a rules folder of your
own. Parameters: ``players`` (default: the game's usual count), ``variant`` (a variant id; ""
for the rules as printed), ``backend`` ("compiled" or "interpreter"; same games) and ``deals``.

Chance: meeple's games draw from a seeded PRNG inside the state. OpenSpiel sees that as one
explicit chance node at the start whose outcome ``s`` (uniform over ``range(deals)``, default
1000) is the seed of the game: it fixes the deal and every later shuffle, and no player observes
it. After it the state is ``game.new_initial_state(s)``, so a history (seed, actions...) is a
whole game and replaying it gives the same state.

Returns: 0.0 until the end, then ``State.returns()``: 1.0 for each winner after the rules'
tie-breakers (tied winners all get 1.0), 0.0 for the others (eliminated seats included); so
the game is general-sum with utilities in [0, 1], paid at the terminal state only. Legal
actions are meeple's action ids, ascending. Observations: ``observation_tensor`` is
meeple.ai's ``encode`` (the seat's view), ``observation_string`` its text form,
``information_state_string`` the seat's whole history (perfect recall); no information-state
tensor. ``clone()`` copies the meeple state with ``State.clone()`` (the program is shared);
serialization pickles it as ``State.to_json()``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from meeple.dsl.errors import IllegalActionError
from meeple.runtime.state import State
from meeple.runtime.values import player_name

from ._adapters import GameKey, sorted_legal_actions
from .actions import action_labels, max_game_length
from .observation import information_state_string, observation_spec, observation_string

DEFAULT_DEALS = 1000
PREFIX = "meeple_"


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a meeple game id: ``meeple_`` + the id with ``-`` as ``_``."""
    return PREFIX + game_id.replace("-", "_")


class _Held:
    """The meeple state inside an OpenSpiel state. OpenSpiel's Python states clone by
    deep-copying their attributes and serialize by pickling them: this copies with
    State.clone() (never the program) and pickles as (game, State.to_json())."""

    __slots__ = ("key", "state")

    def __init__(self, key: GameKey, state: State) -> None:
        self.key, self.state = key, state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.key, self.state.clone())

    def __getstate__(self) -> tuple[GameKey, dict[str, Any]]:
        return (self.key, self.state.to_json())

    def __setstate__(self, data: tuple[GameKey, dict[str, Any]]) -> None:
        key, saved = data
        self.key = key
        self.state = key.load().state_from_json(saved, record_log=True, advance=False)


class MeepleSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game of one meeple game, variant and seat count."""

    # set on the subclass that register() makes for each meeple game
    _game_type: Any = None
    _source = ""  # the game id or rules path
    _default_players = 0

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        key = GameKey(
            self._source,
            int(params.get("players", self._default_players)),
            str(params.get("variant", "")) or None,
            str(params.get("backend", "compiled")),
        )
        self.key = key
        self.meeple = key.load()
        self.deals = int(params.get("deals", DEFAULT_DEALS))
        if self.deals < 1:
            raise ValueError(f"deals is at least 1, not {self.deals}")
        self.spec_ = observation_spec(self.meeple)
        self.labels = action_labels(self.meeple)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.meeple.num_distinct_actions(),
            max_chance_outcomes=self.deals,
            num_players=self.meeple.num_players(),
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_game_length(self.meeple),
        )
        super().__init__(self._game_type, info, params)

    def new_initial_state(self) -> MeepleSpielState:
        return MeepleSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self, perfect_recall)


class MeepleSpielState(pyspiel.State):  # type: ignore[misc]
    """Before the deal: a chance node over the seeds; then meeple's state, one decision at a
    time (the seat to act is the current player)."""

    def __init__(self, game: MeepleSpielGame) -> None:
        super().__init__(game)
        self._key = game.key
        self._deals = game.deals
        self._labels = game.labels
        self._held: _Held | None = None  # None until the chance node picks the seed
        self._seed = -1

    @property
    def meeple_state(self) -> State | None:
        """The meeple State (None before the deal)."""
        return self._held.state if self._held is not None else None

    def current_player(self) -> int:
        if self._held is None:
            return int(pyspiel.PlayerId.CHANCE)
        s = self._held.state
        return int(pyspiel.PlayerId.TERMINAL) if s.is_terminal() else s.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        assert self._held is not None
        s = self._held.state
        return sorted_legal_actions(s) if player == s.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self._deals
        return [(seed, p) for seed in range(self._deals)]

    def _apply_action(self, action: int) -> None:
        if self._held is None:
            if not 0 <= int(action) < self._deals:  # only the chance outcomes offered
                raise IllegalActionError(
                    f"chance outcome {action} is not a seed of this game",
                    expected=f"0 to {self._deals - 1} (deals={self._deals})",
                )
            self._seed = int(action)
            game = self._key.load()
            self._held = _Held(self._key, game.new_initial_state(self._seed, record_log=True))
        else:
            self._held.state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        if 0 <= action < len(self._labels):
            return self._labels[action]
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self._held is not None and self._held.state.is_terminal()

    def returns(self) -> list[float]:
        if self._held is None:
            return [0.0] * self.get_game().num_players()
        return [float(r) for r in self._held.state.returns()]

    def __str__(self) -> str:
        if self._held is None:
            return "before the deal (chance picks the seed)"
        s = self._held.state
        to_act = "over" if s.is_terminal() else player_name(s.current_player())
        lines = [f"seed {self._seed}; move {s.move_number}; to act: {to_act}", str(s)]
        lines += [f"{k} = {v!r}" for k, v in sorted(s.vars.items())]
        return "\n".join(lines)


class _Observer:
    """OpenSpiel's Python observer: the seat's view as meeple.ai's tensor and text, or, for
    perfect recall, the information-state string (no tensor)."""

    def __init__(self, game: MeepleSpielGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.spec = game.spec_
        if perfect_recall:
            self.tensor: np.ndarray | None = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            self.tensor = np.zeros(game.spec_.shape, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        if self.tensor is None:
            return
        s = state.meeple_state
        if s is None:
            self.tensor.fill(0.0)  # before the deal nothing is on the table
        else:
            self.tensor[:] = self.spec.encode(s, player)

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        s = state.meeple_state
        if s is None:
            return ""
        if self.perfect_recall:
            return information_state_string(s, player)
        return observation_string(s, player)


def register(game: str, name: str | None = None) -> str:
    """Register the meeple game ``game`` (a shipped id or a rules path) with pyspiel under
    ``name`` (default ``meeple_<id>``); returns the name. Registering a name twice is a no-op.
    Raises MeepleError for broken rules."""
    from meeple import api  # noqa: PLC0415  (the loader: lark, yaml, jsonschema)

    g = api.load_checked(game).game  # the rules only: the program is built on first load
    name = name or short_name(g.id)
    if name in pyspiel.registered_names():
        return name
    default_players = max(g.players_min, min(4, g.players_max))  # as meeple.load chooses
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"meeple: {g.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.players_max,
        min_num_players=g.players_min,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": default_players,
            "variant": "",
            "backend": "compiled",
            "deals": DEFAULT_DEALS,
        },
    )

    # the creator is a class, as in OpenSpiel's own Python games: pyspiel keeps it until the
    # interpreter has finalized, and a class (unlike a closure) is never freed by that last
    # release (freeing it then, without the GIL, aborts the process at exit)
    creator = type(
        f"MeepleSpielGame_{name}",
        (MeepleSpielGame,),
        {"_game_type": game_type, "_source": game, "_default_players": default_players},
    )
    pyspiel.register_game(game_type, creator)
    return name


def register_shipped() -> list[str]:
    """Register every shipped game (done on import); returns their OpenSpiel names."""
    from meeple.registry import game_ids  # noqa: PLC0415

    return [register(gid) for gid in game_ids()]


SHIPPED = register_shipped()
