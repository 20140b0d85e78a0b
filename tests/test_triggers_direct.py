"""Triggers run as Python calls in a playout's direct code (codegen/triggers.py) play the
interpreter's game: the same options in the same order, the same chooser draws, the same state.

tests/fixtures/triggers sets triggers off in every way the direct code runs as calls (see its
header); its `echo` sets itself off through triggers alone, so its zone keeps its frames, and
with it a move to a pile not known while generating is started as before: the fixture is played
with `echo` and without it (then such a move calls the zone's function from a table).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_playout import playouts_are_api_games

import meeple
from meeple.api import load_checked
from meeple.codegen.emitter import ModuleEmitter
from meeple.dsl.errors import RuleError
from meeple.runtime.ops import MAX_DEPTH, Frame

FIXTURE = Path(__file__).parent / "fixtures" / "triggers" / "game.yaml"
ECHO = FIXTURE.read_text().split("  echo:\n")[1].split("\nsetup:")[0]


def _rules(tmp_path: Path, echo: bool) -> Path:
    """The fixture, or a copy without its `echo` trigger."""
    if echo:
        return FIXTURE
    path = tmp_path / "game.yaml"
    path.write_text(FIXTURE.read_text().replace("  echo:\n" + ECHO, ""))
    return path


def _direct(rules: Path) -> str:
    """The direct code of a generated module (its c_N functions and what they call)."""
    src = ModuleEmitter(load_checked(str(rules))).module()
    return src[src.index("    def c_") : src.index("P.resume = ")]


@pytest.mark.parametrize("echo", [True, False])
def test_the_triggers_of_a_zone_are_called_where_no_frame_is_needed(
    tmp_path: Path, echo: bool
) -> None:
    direct = _direct(_rules(tmp_path, echo))
    # the zones with calls, from every kind of move (a card, a list, a count, at the bottom,
    # with where); a body that cannot stop is a function of its own
    assert "def t_table1(st, _cards, _span):" in direct
    assert "def t_hand1(st, _cards, _span):" in direct
    assert direct.count("t_table1(st, ") >= 6 and "def tb_" in direct
    assert "t_pool" not in direct
    # the pool's triggers keep their frames: a move there (and, with echo, to a pile not known
    # while generating) is started as the frame-stepping code does
    assert ("fire_arrivals(st, " in direct) is echo
    assert ("TCALLS" in direct) is not echo


@pytest.mark.parametrize("echo", [True, False])
@pytest.mark.parametrize("players", [2, 3])
def test_playouts_with_triggers_as_calls_are_the_interpreters_games(
    tmp_path: Path, echo: bool, players: int
) -> None:
    finals, _ = playouts_are_api_games(_rules(tmp_path, echo), players, range(40))
    # the games differ (the triggers' statements run in many orders and numbers)
    assert len({(s.to_json()["vars"]["seq"], s.to_json()["vars"]["seen"]) for s in finals}) > 30


def test_a_trigger_that_sets_itself_off_without_end_keeps_the_interpreters_error(
    tmp_path: Path,
) -> None:
    # echo moving its card to its own zone: set off again by triggers alone, frame after frame
    text = FIXTURE.read_text().replace(
        ECHO,
        ECHO.replace("count(pool) < 3 and count(deck) > 0", "true").replace(
            "move 1 from deck to pool", "move top(pool) to pool"
        ),
    )
    assert text.count("move top(pool) to pool") == 1
    path = tmp_path / "game.yaml"
    path.write_text(text)
    errors = []
    for backend in ("interpreter", "compiled"):
        game = meeple.load(str(path), 2, backend=backend)
        with pytest.raises(RuleError, match="nest more than 5200 deep") as e:
            game.playout(0, lambda n: n - 1)  # (the last option: a card to the pool)
        errors.append((str(e.value), e.value.trace))
    assert errors[0] == errors[1]


def test_a_trigger_called_past_the_frames_limit_is_refused_as_its_frame_would_be() -> None:
    # a stack of finished frames (as a save may hold) up to MAX_DEPTH: the first trigger set
    # off is one frame too many for the interpreter, and its call is refused the same way
    errors = []
    for backend in ("interpreter", "compiled"):
        game = meeple.load(str(FIXTURE), 2, backend=backend)
        state = game.new_initial_state(0, record_log=False)  # (a playout of its own)
        done = []
        for _ in range(MAX_DEPTH - len(state.frames)):
            frame = Frame(state.prog.scoring, {})
            frame.pc = state.prog.scoring.size
            done.append(frame)
        state.frames[:0] = done
        # the pending turn gives back an empty hand (resolved by the frame-stepping code: no
        # trigger), the next one moves a card to the table in the direct code
        choices = iter([5])
        with pytest.raises(RuleError, match="nest more than 5200 deep") as e:
            state.playout(lambda n, taken=choices: next(taken, 0))
        errors.append((str(e.value), e.value.trace))
    assert errors[0] == errors[1]


def test_a_trigger_called_through_the_table_keeps_the_owner_counts(tmp_path: Path) -> None:
    # tests/fixtures/tally sweeps a spot's pawns into the box (a trigger there moves one out in
    # a body that cannot stop, keeping no owner count) here to a zone not known while
    # generating: the function of the box's triggers drops the counts after each body it runs
    # (codegen/tally.py), so the next read counts afresh and the games stay the API's
    tally = Path(__file__).parent / "fixtures" / "tally" / "game.yaml"
    text = tally.read_text().replace(
        '"move at[s] to box"', '"move at[s] to (box if round > 0 else discard)"'
    )
    assert text.count("else discard") == 1
    path = tmp_path / "game.yaml"
    path.write_text(
        text.replace("  box: {", "  discard: {visibility: public, source: Turn}\n  box: {")
    )
    assert "TCALLS" in _direct(path)
    playouts_are_api_games(path, 3, range(40))
