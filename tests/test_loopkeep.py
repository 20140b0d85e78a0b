"""A ``while`` condition's values kept per item and read by the choice its body starts with
(codegen/loopkeep.py).

tests/fixtures/loopkeep tests, in two loops, whether a player holds a colour's majority: in the
condition, for each colour up to the first held one, and in the options of the choice inside,
for every colour. In ``use`` only a log line and a ``let`` run in between: the options read the
values the condition kept. In ``shed`` a move in between may take the majority away (the game
then offers only ``stop``): there the options compute every value again. The interpreter
computes every value each time: every playout of the compiled game is the interpreter's game
for the same choices, and reading a value kept before the move offers a colour the interpreter
does not offer.
"""

from __future__ import annotations

import re

from conftest import generated
from test_playout import FIXTURES, playouts_are_api_games

from meeple.api import load_checked

LOOPKEEP = FIXTURES / "loopkeep" / "game.yaml"


def test_every_playout_is_the_interpreters_game() -> None:
    """60 playouts of the compiled fixture, each the interpreter's API game (and the compiled
    one) for the same choices; between them a move takes the majority the condition found
    away (only ``stop`` is left), and the values kept in ``use`` are read."""
    _, log = playouts_are_api_games(LOOPKEEP, 3, range(60))
    assert any(line.endswith("Shed -> stop (forced)") for line in log)
    assert any(re.search(r"Shed -> shed \w+$", line) for line in log)
    assert any("Use -> use" in line for line in log)


def _loops() -> list[str]:
    """The ``while`` loops of the fixture's direct code (its playouts), in the rules' order:
    each from its ``while True:`` to the ``st.choose`` of its choice."""
    text = generated(load_checked(str(LOOPKEEP)))
    code = text[text.index("def c_0(") :]
    loops = re.findall(r"\n( *)while True:\n(.*?)st\.choose\(", code, re.S)
    return [body for _, body in loops if "if not any(" in body]


def test_the_options_read_the_values_the_condition_kept() -> None:
    """In ``use``, the dict is made at the top of each pass, the condition keeps each colour's
    value in it, and the options' condition reads it; in ``shed`` (a move in between) nothing
    is kept: the options compute the majority again."""
    use, shed = _loops()[:2]
    made = re.search(r"(_kept\d+) = \{\}\n *if not any\(", use)
    assert made, use
    kept = made[1]
    reads = re.findall(rf"{kept}\[(_\w+)\] if \1 in {kept} else {kept}\.setdefault\(\1, ", use)
    assert len(reads) == 2, use  # the condition's comprehension, then the options' loop
    assert reads[0] != reads[1]  # (two loops' items, one value per colour)
    assert "_kept" not in shed
    assert shed.count("majority_has") == 2
