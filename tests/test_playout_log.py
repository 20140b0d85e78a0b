"""A generated module's direct code (``c_N(st, env, pc)``, codegen/direct.py) runs only in a
playout with the log off (runtime/playout.py ``run_playout``), so it writes no log line and no
``if st.record_log:`` test: a ``log`` statement and the line of a new turn are no code there
(and a section of a direct function that held only a log line is left out, its ``pc`` falling
through to the next). The stepping code the API runs keeps them.

Pinned here: no direct function of a shipped game or of the fixtures with log lines tests the
log, while the stepping code does; and playouts, from a new game and resumed at every depth
of a turn (a direct function entered at a ``pc`` past a left-out log line: tests/fixtures/calls
with a log line first in ``note``, before its decision and the call after it), are the API's
games; a ``pc`` off by one after a left-out section fails there.
tests/test_at.py pins the errors (a log line that fails only with the log on).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import generated
from test_playout import _check_from, playout_is_the_api_game, random_moves

import meeple
from meeple.api import load_checked

FIXTURES = Path(__file__).parent / "fixtures"
GAMES = [
    "harbour-guilds",
    "shadow-of-the-sun",
    "sonnenkoenig",
    "louis-xiv",
    "shadow-of-the-emperor",
    str(FIXTURES / "calls" / "game.yaml"),
]
_DIRECT = re.compile(r"( *)def c_\d+\(st, env, pc\):")


def direct_functions(text: str) -> list[str]:
    """The source of each direct function ``c_N(st, env, pc)`` of a generated module."""
    found: list[str] = []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        m = _DIRECT.match(line)
        if m is None:
            continue
        body = [line]
        for nxt in lines[k + 1 :]:
            if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= len(m.group(1)):
                break
            body.append(nxt)
        found.append("\n".join(body))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_direct_code_writes_no_log_line(game: str) -> None:
    text = generated(load_checked(game))
    functions = direct_functions(text)
    assert functions
    for f in functions:
        assert "record_log" not in f and "log_line" not in f, f
    assert "if st.record_log:" in text  # the stepping code logs (the API's games)


def _log_before_a_decision(tmp_path: Path) -> str:
    """tests/fixtures/calls with a log line first in ``note``, before its decision and the
    call after it: a playout resumed after the decision enters the direct function at a
    ``pc`` past the left-out section."""
    text = (FIXTURES / "calls" / "game.yaml").read_text()
    old = '      - choose: "Keep {c}?"'
    assert old in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(old, '      - log "noting {c}"\n' + old))
    return str(path)


@pytest.mark.parametrize("game", ["harbour-guilds", "calls", "log-first"])
def test_playouts_past_left_out_log_lines_are_the_api_games(game: str, tmp_path: Path) -> None:
    if game == "calls":
        game = str(FIXTURES / "calls" / "game.yaml")
    elif game == "log-first":
        game = _log_before_a_decision(tmp_path)
    g = meeple.load(game, 3, backend="compiled")
    rng = random.Random(5)
    for seed in range(6):
        playout_is_the_api_game(g, seed)
        for k in (1, 2, 3, 5, 8, 13):  # decisions at every depth of a round
            state = g.new_initial_state(seed, record_log=False)
            random_moves(state, rng, k)
            _check_from(g, state.clone(), seed + k)
            _check_from(g, g.state_from_json(state.to_json(), record_log=False), seed)
