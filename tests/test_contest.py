"""A winner's contest written inline in direct code (codegen/contest.py), on tests/fixtures/contest.

The fixture has three contests each round: a tie broken by the boss never in his own favour
(``not_self``), a tie broken by the boss among candidates that may hold him, and a contest
without a chooser; the boss may leave the game before them, so that his ties stay unbroken.
Every playout of the compiled fixture is the interpreter's API game (and the compiled one) for
the same choices; the generated module's direct code runs no winner's op; edits of the rules
that make a count, the chooser or the prompt of an unbroken tie fail, fail with the
interpreter's error at its place, in the same rules functions.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_playout import FIXTURES, Recorder, playouts_are_api_games
from test_rows import _first_failure, _games, edited

from meeple.api import load_checked
from meeple.codegen.emitter import generate
from meeple.dsl.errors import MeepleError, RuleError

CONTEST = FIXTURES / "contest" / "game.yaml"

#: What the interpreter's games of the fixture must show between them, per player count (and
#: with four, a tie of three: ``^tie between P\d, P\d, P\d$``).
SHAPES = (
    r"^tie between P\d, P\d$",
    r"Most cards in round \d: break the tie -> P\d",
    r"Most points: break the tie -> P\d",
    r"is out of the game: Most cards in round \d: break the tie -> skipped",
    r"P\d is eliminated",
)


@pytest.mark.parametrize("players", [3, 4])
def test_every_playout_is_the_interpreters_game(players: int) -> None:
    """40 playouts of the compiled fixture per player count, each the interpreter's API game
    (and the compiled one) for the same choices, state for state at the end; between them the
    games ask ties of two and of more leaders of both contests with a chooser, and skip the tie
    of a boss out of the game."""
    _, log = playouts_are_api_games(CONTEST, players, range(40))
    three = (r"^tie between P\d, P\d, P\d$",) if players == 4 else ()
    for shape in SHAPES + three:
        assert any(re.search(shape, line) for line in log), shape


def test_no_winner_runs_its_op_in_direct_code() -> None:
    """The direct functions (``c_N``) write each of the three contests out: none calls a
    winner's op, and each binds its winner from its leaders (the two with a chooser by
    ``st.choose`` too)."""
    code = generate(load_checked(str(CONTEST)))
    ops = re.findall(r"(o\d+) = WinnerOp\(", code)
    assert len(ops) == 3
    direct = re.findall(r"\n    def c_\d+\(st, env, pc\):.*?(?=\n    def |\n\S)", code, re.S)
    assert direct
    for body in direct:
        assert not any(f"{o}.exec(" in body for o in ops)
    text = "".join(direct)
    for name in ("w", "v"):  # a tie asked inline
        assert re.search(rf"env\['{name}'\] = _lead\d+\[_i\d+\]", text), name
    for name in ("w", "v", "m"):
        assert f"env['{name}'] = _lead" in text, name


def _line(path: Path, text: str) -> int:
    """The line (1-based) of ``path`` that holds ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def _edit(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    return edited(CONTEST, tmp_path, *edits)


def test_a_count_that_fails_fails_in_the_majority(tmp_path: Path) -> None:
    """A count dividing by zero in round 3: the interpreter's error, at the count."""
    path = _edit(tmp_path, ("count: sum(c.points for c in hand[p])", "count: 6 // (3 - round)"))
    failed = _first_failure(path)
    assert "division by zero" in str(failed)
    assert failed.span is not None and failed.span.line == _line(path, "count: 6 //")


BOSS = "  boss: {type: player, initial: 0, source: Play}\n"
#: a variable ``nobody``, a player that is none
NOBODY = (BOSS, BOSS + "  nobody: {type: player, initial: none, source: Play}\n")


@pytest.mark.parametrize("not_self", ["true", "false"])
def test_a_chooser_who_is_no_seat_is_refused(tmp_path: Path, not_self: str) -> None:
    """A tie whose chooser is none: State.decide's error, at the winner."""
    path = _edit(
        tmp_path,
        NOBODY,
        ("{chooser: boss, not_self: true}", f"{{chooser: nobody, not_self: {not_self}}}"),
    )
    failed = _first_failure(path)
    assert "none is not a player" in str(failed)
    assert failed.span is not None and failed.span.line == _line(path, 'winner: "Most cards')


def test_the_prompt_of_a_skipped_tie_is_made(tmp_path: Path) -> None:
    """A boss out of the game: State.decide's log line makes the prompt's text, though the log
    is off; a prompt that divides by zero then fails, as in the interpreter."""
    path = _edit(
        tmp_path, ('"Most cards in round {round}"', '"Most cards in round {6 // (round - 4)}"')
    )
    failed = _first_failure(path)
    assert "division by zero" in str(failed)


def test_a_tie_with_none_fails_as_the_op_fails(tmp_path: Path) -> None:
    """A tie between a seat and none (a list of the rules holding none, each counting 1):
    WinnerOp.exec refuses none as a player's option (a rule error at the winner, not an
    internal error), and the playout fails with the same error, after the same choices."""
    path = _edit(
        tmp_path,
        NOBODY,
        ("count: sum(c.points for c in hand[p])", "count: 1"),
        ('"most_points(others(left_of(boss)))"', '"most_points([left_of(boss), nobody])"'),
    )
    compiled, interpreter = _games(path, 3)  # (the first seed's playout meets such a tie)
    rec = Recorder(0)
    with pytest.raises(MeepleError) as played:
        compiled.playout(0, rec)
    assert isinstance(played.value, RuleError), played.value
    assert "an option is none, not a player" in str(played.value)
    for game in (interpreter, compiled):
        api = game.new_initial_state(0, record_log=False)
        with pytest.raises(MeepleError) as applied:
            for _, i in rec.taken:
                api.apply_action(api.pending.actions[i])
        assert type(applied.value) is type(played.value)
        assert str(applied.value) == str(played.value)
