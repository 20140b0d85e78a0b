"""A loop's ``env[name] = x`` left out of direct code where nothing reads it (codegen/unread.py):
Harbour Guilds' turns loop writes no ``env['p']`` in a playout, its frame-stepping code still
does, and a loop whose body hands ``env`` on (an op's ``exec``) still writes it, so that the
playout is the API game."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import generated
from test_playout import playout_is_the_api_game

import meeple
from meeple.api import load_checked
from meeple.codegen.emitter import generate

DRAW = "                - move 1 from draw_pile to hand[p]\n"
#: each turn, a winner of each guild's majority (a statement run by its op: ``exec(st, env)``,
#: which reads ``g`` from ``env``) scores a point when it is the player whose turn it is
LEADS = (
    "            - for: g in guilds\n"
    "              do:\n"
    "                - winner: Lead\n"
    "                  of: guild_majority(g)\n"
    "                  as: w\n"
    "                - if: w == p\n"
    "                  then:\n"
    "                    - score[p] += 1\n"
)


def test_the_turns_loop_of_a_playout_writes_no_env() -> None:
    code = generated(load_checked("harbour-guilds"))
    direct = code[code.index("    def c_10(") : code.index("    def c_11(")]
    assert re.search(r"for (_p\d+) in .*:\n +st\.vars\['turn_player'\] = \1\n", direct)
    assert "env['p'] = " not in direct
    assert "env['p'] = _p" in code  # (the setup's loop, stepped: a state may be saved after it)


@pytest.mark.parametrize("players", [2, 4])
def test_a_loop_whose_body_hands_env_on_writes_it(
    broken_game: Callable[..., Path], players: int
) -> None:
    folder = broken_game("harbour-guilds", DRAW, DRAW + LEADS, once=True)
    code = generate(load_checked(str(folder / "game.yaml")))
    assert re.search(
        r"for (_g\d+) in .*:\n +env\['g'\] = \1\n +st\.at = o\d+ .*\n +o\d+\.exec\(st, env\)", code
    )
    game = meeple.load(str(folder / "game.yaml"), players, backend="compiled")
    scored = 0
    for seed in range(6):
        final, _ = playout_is_the_api_game(game, seed)
        scored += sum(final.vars["score"])
    assert scored > 0
