"""meeple: a declarative rules language for modern tabletop games.

>>> import meeple
>>> game = meeple.load("shadow-of-the-sun", players=4)
>>> state = game.new_initial_state(seed=7)
>>> state.current_player()
0
"""

from meeple.dsl.errors import IllegalActionError, MeepleError, RuleError

from .api import Result, load, play

__all__ = ["load", "play", "Result", "MeepleError", "IllegalActionError", "RuleError"]
