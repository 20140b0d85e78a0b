"""meeple: a declarative rules language for modern tabletop games.

>>> import meeple
>>> game = meeple.load("shadow-of-the-sun", players=4)
>>> state = game.new_initial_state(seed=7)
>>> state.current_player()
0

The API:

- ``load(game, players=None, variant=None, backend="interpreter") -> Game``: a shipped game id
  or a rules path, ready to play;
- ``play(game, seed=0, agents=None) -> Result``: one complete game (``Result.log`` is its log);
- ``Result``: scores, winners, decisions, the final state, the log, why the game ended;
- ``MeepleError`` (every error meeple reports), ``RuleError``, ``IllegalActionError``;
- ``__version__``: this meeple's version (also in saved states and ``meeple --version``).

Seats are 0-based in the Python API (``state.current_player()`` is 0 for the first player) and
shown as P1..Pn everywhere else (the log, the terminal, the rule files' ``P1``).
"""

from typing import TYPE_CHECKING, Any

from meeple.dsl.errors import IllegalActionError, MeepleError, RuleError

__version__ = "0.2.0"  # the single source: pyproject.toml reads it (tool.setuptools.dynamic)

if TYPE_CHECKING:
    from .api import Result, load, play

__all__ = [
    "load",
    "play",
    "Result",
    "MeepleError",
    "IllegalActionError",
    "RuleError",
    "__version__",
]

_LAZY = ("load", "play", "Result")


def __getattr__(name: str) -> Any:
    # The API (and with it the rules loader: lark, yaml, jsonschema) is imported on first use,
    # so a generated module can import meeple's small runtime without them.
    if name in _LAZY:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'meeple' has no attribute {name!r}")


def __dir__() -> list[str]:
    # dir() and help(meeple) list the lazy names too (help imports them when it shows them)
    return sorted({*globals(), *_LAZY})
