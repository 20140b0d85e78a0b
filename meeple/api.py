"""The public API: load a game, play one, simulate many."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from meeple.codegen import compiled_program
from meeple.dsl.checker import Checked
from meeple.dsl.errors import MeepleError, did_you_mean
from meeple.dsl.loader import load_rules, load_variant
from meeple.dsl.variant import Variant, find_variant, is_variant_file, variant_game_file
from meeple.dsl.yamlload import yaml_files
from meeple.interpreter.agents import RandomAgent
from meeple.interpreter.game import Game
from meeple.runtime.state import State
from meeple.runtime.values import player_name

from .registry import GamePath, game_name, rules_path

Agent = Callable[[State], int]


@lru_cache(maxsize=32)
def _checked(path: str, mtime: float) -> Checked:
    return load_rules(path)


@lru_cache(maxsize=32)
def _variant(path: str, mtimes: tuple[float, ...], game: str) -> tuple[Checked, Variant]:
    return load_variant(path, game)


def load_checked(game: GamePath, variant: GamePath | None = None) -> Checked:
    """The checked IR of a shipped game id or a rules path (cached while the file is unchanged),
    with the changes of ``variant`` (a variant id of the game, or a variant file) if given.
    Paths may be str or os.PathLike."""
    game, variant = game_and_variant(game, variant)
    p = rules_path(game)
    if variant is not None:
        return load_variant_checked(str(p), variant)[0]
    return _checked(str(p), Path(p).stat().st_mtime)


def game_and_variant(game: GamePath, variant: GamePath | None = None) -> tuple[str, str | None]:
    """``(game, variant)`` as given (as str), or, when ``game`` is a variant file (wherever it
    stands) and no variant is given, the game file it changes and that variant file. Raises
    MeepleError for an unknown game id or a missing rules path."""
    game = game_name(game)
    variant = game_name(variant, "variant") if variant is not None else None
    p = rules_path(game)
    if variant is None and is_variant_file(p):
        return str(variant_game_file(p)), str(p)
    return game, variant


def load_variant_checked(game: GamePath, variant: GamePath) -> tuple[Checked, Variant]:
    """The checked IR of ``game`` changed by ``variant``, and the Variant (its rationale...).
    Paths may be str or os.PathLike."""
    game, variant = game_name(game), game_name(variant, "variant")
    rules = rules_path(game)
    f = find_variant(rules, variant)
    folder = f.parent
    mtimes = tuple(sorted(x.stat().st_mtime for x in [*yaml_files(folder), rules]))
    # the variant changes the rules file it was asked for when its extends: names that game
    return _variant(str(f), mtimes, str(rules.resolve()))


BACKENDS = ("interpreter", "compiled")


def load(
    game: GamePath = "shadow-of-the-sun",
    players: int | None = None,
    variant: GamePath | None = None,
    backend: str = "interpreter",
) -> Game:
    """Load a game for ``players`` seats (default: 4, or the nearest count the game allows).
    Its states number the seats 0-based (``state.current_player()`` is 0 for P1, as in
    OpenSpiel); the log, the terminal and the rule files show them as P1..Pn.

    ``game`` is a shipped game id (see ``meeple list``) or a path to a rules folder or file
    (a str or an os.PathLike such as ``pathlib.Path``); ``variant`` a variant id of that game
    (``rules/<game>/variants/<id>.yaml``) or a variant file (str or os.PathLike).
    ``backend``: "interpreter" runs the checked rules directly; "compiled" runs the module the
    code generator made of them (cached; same states, same actions, faster).
    Raises MeepleError (with file:line:col) if the rules are broken or the count unsupported,
    and (without a position) if ``game`` or ``variant`` is neither a str nor an os.PathLike.
    """
    if backend not in BACKENDS:
        raise MeepleError(
            f"unknown back end '{backend}'",
            expected=" or ".join(BACKENDS),
            suggestion=did_you_mean(backend, BACKENDS),
        )
    game = game_name(game)  # a Path works like its text, and the origin below stays picklable
    variant = game_name(variant, "variant") if variant is not None else None
    checked = load_checked(game, variant)
    g = checked.game
    n = players if players is not None else max(g.players_min, min(4, g.players_max))
    if backend == "compiled" and isinstance(n, int) and g.players_min <= n <= g.players_max:
        loaded = Game(checked, n, compiled_program(checked, n))
    else:
        loaded = Game(checked, n)
    # how to load it again (a pickled state or game, in another process): ids as given, paths
    # made absolute so that a worker with another working directory finds the same files
    origin = (_portable(game), _portable(variant) if variant is not None else None, n, backend)
    loaded.program.origin = origin
    _LOADED[origin] = loaded
    return loaded


def _portable(name: str) -> str:
    """A game or variant id as given; a path made absolute."""
    if "/" in name or name.endswith((".yaml", ".yml")) or Path(name).exists():
        return str(Path(name).resolve())
    return name


# the games loaded in this process by how they were loaded, so that unpickling a state finds
# its game (the same Game in the process that pickled it) instead of loading it again
_LOADED: weakref.WeakValueDictionary[tuple[str, str | None, int, str], Game] = (
    weakref.WeakValueDictionary()
)


def game_of_origin(origin: tuple[str, str | None, int, str]) -> Game:
    """The game ``meeple.load`` made with these arguments (game, variant, players, back end):
    the one already loaded in this process, or loaded now. Used to unpickle states and games."""
    g = _LOADED.get(origin)
    if g is None:
        game, variant, n, backend = origin
        g = load(game, n, variant, backend)
        _KEEP.append(g)  # an unpickled state holds only its program: keep its game alive
    return g


_KEEP: list[Game] = []


@dataclass
class Result:
    """The outcome of one game.

    ``scores[seat]``: final scores; ``winners``: the winning seats; ``decisions``: how many
    actions were taken; ``state``: the final State; ``tie_broken``: the top score was shared and
    the tie-breakers decided; ``log``: the game's log, one line each, lines only one seat saw
    prefixed ``(P2 only)`` (empty when played with ``record_log=False``); ``end_reason``: why the
    game ended, in rule terms (see meeple.endings). Seats are 0-based here (0 is P1).
    """

    scores: list[int]
    winners: list[int]
    decisions: int
    state: State
    tie_broken: bool = False
    log: list[str] = field(default_factory=list)
    game: Game | None = field(default=None, repr=False)

    @property
    def end_reason(self) -> str:
        """Why the game ended: ``"count(house[p]) == 0 for p = P4 (Ending the Game, ...)"``."""
        from .endings import end_reason

        if self.game is None:
            raise MeepleError("this Result was made without its game: no end reason")
        return end_reason(self.game, self.state)


def log_lines(state: State) -> list[str]:
    """``state``'s whole log as text: a line only one seat may see is prefixed ``(P2 only)``."""
    return [text if who == -1 else f"({player_name(who)} only) {text}" for who, text in state.log]


def play(
    game: Game,
    seed: int = 0,
    agents: Sequence[Agent] | None = None,
    record_log: bool = True,
    check: bool = False,
) -> Result:
    """Play one complete game. ``agents[seat]`` (seats 0-based: ``agents[0]`` plays P1) chooses
    an action id for its seat given the state (default: random agents seeded from ``seed``).
    With ``check``, conservation is verified after every action. Raises MeepleError when the
    rules fail, IllegalActionError when an agent returns an action that is not legal."""
    if agents is None:
        agents = [RandomAgent(seed * 1000 + s) for s in range(game.num_players())]
    state = game.new_initial_state(seed, record_log=record_log)
    n = 0
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()](state))
        n += 1
        if check:
            state.check_invariants()
    scores = state.scores()
    return Result(scores, state.winners(), n, state, tie_broken(state), log_lines(state), game)


def tie_broken(state: State) -> bool:
    """Was the top score of this finished game shared by two or more seats still playing (so
    a tie-breaker, or the shared win, decided)?"""
    scores = state.scores()
    best = max(scores)
    return len([p for p in state.players if scores[p] == best]) > 1
