"""The code generator: checked IR -> one plain Python module per game, equal to the interpreter.

``generate(checked)`` gives the module's text; ``compiled_program(checked, n)`` imports it (from
a cache keyed by the rules and the generator) and builds the program for ``n`` players.
"""

from .cache import compiled_program, load_module
from .emitter import GENERATOR_VERSION, generate

__all__ = ["GENERATOR_VERSION", "compiled_program", "generate", "load_module"]
