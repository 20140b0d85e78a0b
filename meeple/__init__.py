"""meeple: a declarative rules language for modern tabletop games.

>>> import meeple
>>> game = meeple.load("shadow-of-the-sun", players=4)
>>> state = game.new_initial_state(seed=7)
>>> state.current_player()
0
"""

from typing import TYPE_CHECKING, Any

from meeple.dsl.errors import IllegalActionError, MeepleError, RuleError

if TYPE_CHECKING:
    from .api import Result, load, play

__all__ = ["load", "play", "Result", "MeepleError", "IllegalActionError", "RuleError"]


def __getattr__(name: str) -> Any:
    # The API (and with it the rules loader: lark, yaml, jsonschema) is imported on first use,
    # so a generated module can import meeple's small runtime without them.
    if name in ("load", "play", "Result"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'meeple' has no attribute {name!r}")
