"""The command line, as a user runs it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from meeple.cli import main
from meeple.registry import rules_root

SUN = "shadow-of-the-sun"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_without_arguments_plays_a_full_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys)
    assert code == 0
    assert "Shadow of the Sun · 4 players · seed 0" in out
    assert "Day 1 begins" in out
    assert "Final scores" in out and "(winner)" in out


def test_play_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    first = _run(capsys, "play", "--seed", "3")[1]
    second = _run(capsys, "play", "--seed", "3")[1]
    assert first == second
    assert first != _run(capsys, "play", "--seed", "4")[1]


def test_play_three_players_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "play", "shadow-of-the-sun", "--players", "3", "-q")
    assert code == 0
    assert "Day 1" not in out and "P3" in out and "P4" not in out


def test_human_seat_sees_numbered_options_and_bad_input_is_explained(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("banana\n99\n1\nq\n"))
    code, out, err = _run(capsys, "play", "--seed", "1", "--human", "1")
    assert code == 3  # quit before the end: not the status of a finished game
    assert "P1 to act" in out and "Bonus" in out and "1. draw 2 cards" in out
    assert "P1 to act · Round 1, phase Player Turns: P1's turn" in out  # the position
    assert "'banana' is not an option; type a number from 1 to" in out
    assert "'99' is not an option" in out
    assert "P1: Bonus -> draw 2 cards" in out
    assert "game abandoned before its end" in err


def test_human_view_hides_other_hands(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    _, out, _ = _run(capsys, "play", "--seed", "1", "--human", "2")
    assert "hand[P2]:" in out
    assert (
        "hand[P1]: 3 card(s) face down" in out
        or "hand[P1]: 4 card(s)" in out
        or "hand[P1]: " in out
        and "face down" in out
    )


def test_bad_seat_and_bad_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "play", "--human", "7")
    assert code == 2 and "seats are 1 to 4" in err
    code, _, err = _run(capsys, "play", "shadow-of-the-son")
    assert code == 2 and "did you mean 'shadow-of-the-sun'?" in err and "Traceback" not in err
    code, _, err = _run(capsys, "play", "--players", "7")
    assert code == 2 and "3 to 4 players, not 7" in err


def test_check_ok_and_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "check", "rules/shadow-of-the-sun")
    assert code == 0 and "ok: Shadow of the Sun (3-4 players)" in out
    code, out, _ = _run(capsys, "list")
    assert code == 0 and "shadow-of-the-sun" in out


def test_check_reports_position_with_caret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (Path("rules/shadow-of-the-sun/game.yaml")).read_text()
    bad = tmp_path / "game.yaml"
    bad.write_text(
        text.replace(
            "move 2 from minion_deck to hand[p]\n      - bonus(p)",
            "move 2 from minion_dek to hand[p]\n      - bonus(p)",
        )
    )
    code, _, err = _run(capsys, "check", str(bad))
    assert code == 2
    first, source, caret = err.splitlines()[:3]
    assert first.startswith(f"{bad}:")
    line, col = (int(x) for x in first.split(":")[1:3])
    assert "unknown name 'minion_dek'" in first and "did you mean 'minion_deck'?" in first
    assert source.strip().startswith("- move 2 from minion_dek")
    assert caret.index("^") == source.index("minion_dek")
    assert text.splitlines()[line - 1].index("minion_deck") == col - 1


def test_simulate_reports_wins_scores_and_length(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "simulate", "-n", "20", "--players", "3")
    assert code == 0
    assert "20 games of Shadow of the Sun, 3 players" in out
    assert "win rate" in out and "mean score" in out
    assert "mean length:" in out and "decisions per game" in out


def test_scenarios_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "scenarios", "shadow-of-the-sun")
    assert code == 0
    assert "pass usurp.yaml" in out and " 0 failed" in out


@pytest.mark.parametrize(
    "text",
    ["²", "١", "9" * 5000, "-1", "1.0", " "],
    ids=["superscript", "arabic-indic", "5000 digits", "negative", "decimal", "blank"],
)
def test_a_number_the_prompt_cannot_read_is_asked_again(
    text: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A superscript or Arabic-Indic digit (str.isdigit() accepts it, int() does not) or a
    5000-digit number re-prompts with a message, never a traceback."""
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{text}\n1\nq\n"))
    code, out, err = _run(capsys, "play", "--seed", "1", "--human", "1")
    assert code == 3 and "Traceback" not in out + err
    assert "is not an option; type a number from 1 to" in out
    assert "P1: Bonus -> draw 2 cards" in out and "game abandoned" in err


# ---------------------------------------------------------------------------- the play screen
@pytest.mark.parametrize("stdin", ["q\n", ""], ids=["q", "ctrl-d"])
def test_quitting_exits_non_zero_with_a_message(
    stdin: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code, _, err = _run(capsys, "play", "--seed", "1", "--human", "1")
    assert code == 3 and "game abandoned before its end (exit status 3)" in err


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_the_play_screen_shows_draws_why_not_and_the_table(
    backend: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 0, P1: draws in the log, a forced Preen shown with why Bolster and Usurp are not
    legal (explain's reasons), districts with their minions, the variables."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nq\n"))
    code, out, _ = _run(capsys, "play", "--seed", "0", "--human", "1", "--backend", backend)
    assert code == 3
    assert "  P1 draws Courtesan, Alchemist, Darkened from minion_deck" in out
    assert "P2 draws" not in out  # another seat's draw is not shown to P1
    assert "minion_deck is shuffled" in out
    assert "district_row: The Courtyard (Courtesan), The Boneyard (Ghoul)" in out
    assert "  score: P1 0, P2 0, P3 0, P4 0" in out and "  supreme: P1" in out
    assert "1. Preen (forced: the only legal option)" in out
    assert (
        "not legal: Bolster The Courtyard: its condition fails: markers_of(p, d) >= 1 "
        "(here 0 >= 1) is false" in out
    )
    assert "not legal: Usurp P2: its condition fails:" in out
    assert "P1: Action -> Preen (forced)" in out


def test_harbour_guilds_shows_the_coins_during_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    _, out, _ = _run(capsys, "play", "harbour-guilds", "--players", "2", "--human", "1")
    assert "  score: P1 0, P2 0" in out


def test_the_end_of_a_game_says_why_and_shows_empty_zones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, "play", "--seed", "0")
    assert code == 0
    play = (rules_root() / SUN / "game.yaml").read_text(encoding="utf-8").splitlines()
    line = play.index("play:") + 1  # the end is told where the play that ended begins
    assert (
        "The game ended: count(house[p]) == 0 for p = P4 (Ending the Game, "
        f"rules/shadow-of-the-sun/game.yaml:{line})" in out
    )
    assert "  house[P4]: empty" in out
