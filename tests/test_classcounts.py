"""Counts by name read from a pile's class counts (codegen/classcounts.py, runtime/classcounts.py).

A count of a hand's cards by name, by ``wild`` or by a name or ``wild`` is read from the hand's
cards counted by class, once for the options of one choice. Every playout must be the
interpreter's game for the same choices: a slot mixed up, a Masqued counted twice, a coin (no
``wild``) left out of a count, or counts kept past a move change an option, and the game.
"""

from __future__ import annotations

import re

import pytest
from conftest import generated
from test_playout import FIXTURES, playouts_are_api_games

from meeple.api import load_checked
from meeple.codegen.classcounts import classes_of
from meeple.codegen.layout import GenLayout

FIXTURE = FIXTURES / "classcounts" / "game.yaml"


@pytest.mark.parametrize("players", [2, 3])
def test_playouts_are_the_interpreters_games(players: int) -> None:
    """40 playouts of tests/fixtures/classcounts, each the interpreter's (and the compiled
    API's) game for the same choices; between them every kind of count decides an option taken:
    by a name written in the rules (coin, pair), by a goal's name with and without ``wild``
    (claim, match), a goal wanting coins (no ``wild``: read by scanning, claim Rich)."""
    _, log = playouts_are_api_games(FIXTURE, players, range(40))
    taken = {line.split(" -> ")[1] for line in log if " -> " in line}
    wanted = {"coin", "spend", "claim Red", "claim White", "claim Rich", "match White"}
    assert wanted | {"pair rubies", "pair opals"} <= taken, taken


def test_the_classes_of_sun() -> None:
    """Sun's minions are the good names (each declares ``wild``); every other card (a
    district, a day card, a marker) is of LACK; a Bolster count by name or ``wild`` reads the
    Masqued once (its name's slot ZERO: it is counted as wild)."""
    checked = load_checked("rules/shadow-of-the-sun/game.yaml")
    classes = classes_of(checked.game, GenLayout(checked))
    assert classes is not None
    assert classes.good == {"Darkened": 0, "Ghoul": 1, "Courtesan": 2, "Alchemist": 3, "Masqued": 4}
    assert (classes.lack, classes.zero, classes.any_lack) == (5, 6, True)
    assert classes.truth == {"wild": ["Masqued"]}


def test_sun_counts_a_hand_once_per_choice() -> None:
    """The Special Ability's four ``can_pay_pair`` guards read one count of the hand (the
    first computes it; wild's count, shared by codegen/cse, once), and Bolster's guard counts
    the hand once for the four districts."""
    text = generated(load_checked("rules/shadow-of-the-sun/game.yaml"))
    direct = [f for f in text.split("\n    def ") if f.startswith("c_")]  # (playouts' code)
    ability = next(f for f in direct if "# game.yaml:161" in f)  # (the Ghoul option's line)
    assert ability.count("class_counts(") == 1
    first = re.search(r"\(_r(\d+) := class_counts\(st\.zones\[\(Z_hand1 ", ability)
    assert first is not None
    # (Ghoul's slot where it is computed; then Darkened's, Alchemist's, Courtesan's, wild's)
    assert re.findall(rf"_r{first[1]}\[([0-4])\]", ability) == ["4", "0", "3", "2"]
    action = next(f for f in direct if "# game.yaml:206" in f)  # (Bolster's line)
    bolster = next(line for line in action.splitlines() if line.endswith("# game.yaml:206"))
    assert "setdefault(None, class_counts(" in bolster
