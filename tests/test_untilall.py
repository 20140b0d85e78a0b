"""A ``repeat``'s ``until: all(X for x in L)`` written as a ``for`` loop (codegen/untilall.py):
Harbour Guilds' play is written so, its games are the API games (tests/test_playout.py), and an
item that fails fails the playout where the API game fails, at the first item that is reached
(``all`` stops at the first false item: a later one is never evaluated)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import generated

import meeple
from meeple.api import load_checked
from meeple.dsl.errors import RuleError

UNTIL = "until: all(count(hand[p]) == 0 for p in players)"


def test_harbour_guilds_ends_its_play_with_a_loop() -> None:
    code = generated(load_checked("harbour-guilds"))
    assert re.search(
        r"if (_passes\d+) > 0:\n +for (_p\d+) in st\.players:\n +if not \(len\(st\.zones"
        r"\[\(Z_hand1 \+ \2\)\]\) == 0\):\n +break\n +else:\n +break\n",
        code,
    )
    assert "all((len(st.zones[(Z_hand1 + " in code  # (the frame-stepping code's RepeatOp)


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_an_item_that_fails_fails_the_playout_as_the_api_game(
    broken_game: Callable[..., Path], backend: str
) -> None:
    """An item divides by zero once its seat's hand is empty, reached only when the seats
    before it have empty hands too (at the end of the game): the playout and the API game fail
    with the same error."""
    folder = broken_game(
        "harbour-guilds",
        UNTIL,
        "until: all(count(hand[p]) == 0 and 1 // (count(stall[p]) - count(stall[p])) >= 0"
        " for p in players)",
    )
    game = meeple.load(str(folder / "game.yaml"), 3, backend=backend)
    errors = []
    for how in ("playout", "api"):
        state = game.new_initial_state(0, record_log=False)
        with pytest.raises(RuleError) as info:
            if how == "playout":  # from the start: the play's direct code tests the until
                game.playout(0, lambda n: 0)
            else:
                while not state.is_terminal():
                    state.apply_action(state.pending.actions[0])
        errors.append(str(info.value))
    assert errors[0] == errors[1]
    assert "zero" in errors[0]
