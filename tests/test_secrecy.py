"""Hidden information stays hidden (issue 11, section 7): hot-seat play hands the screen over
filtered for the seat about to act, and a pick into a face-down zone names its cards only to
those who may see them, on both back ends."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

import meeple
import meeple.interpreter.game
from meeple.cli import main


def _hot_seat(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    answers = "2\n1\n" * 150  # the game ends (0), or EOF after that abandons it (3)
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", "--seed", "1", "--human", "1", "--human", "2"]) in (0, 3)
    return capsys.readouterr().out


def test_hot_seat_never_shows_p1_secrets_while_p2_decides(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _hot_seat(capsys, monkeypatch)
    # what only P1 may know: his private log lines (shown indented, to him: his decisions and
    # his draws) and his hand
    secrets = {m.group(1) for m in re.finditer(r"  (P1(?::| draws) [^\n]*)", out)}
    hands = {m.group(0) for m in re.finditer(r"hand\[P1\]: [^\n]*", out)}
    assert secrets and any("Legion" in s for s in secrets)
    assert any(s.startswith("P1 draws ") for s in secrets)
    screens = out.split("Hand the screen to ")
    p2_screens = [s for s in screens if "P2 to act" in s]
    assert len(screens) > 4 and p2_screens  # the screen changed hands, both ways
    for screen in p2_screens:
        assert "P1 to act" not in screen  # one seat's view per screen
        for s in secrets:
            assert s not in screen, s
        for h in hands:
            assert h not in screen or re.fullmatch(r"hand\[P1\]: \d+ cards? face down", h), h
    assert any("  P2: " in screen for screen in p2_screens)  # P2 sees his own secrets


def test_hot_seat_quits_at_the_hand_over(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 9 + "q\n"))
    assert main(["play", "--seed", "1", "--human", "1", "--human", "2"]) == 3
    out, err = capsys.readouterr()
    assert "Hand the screen to P2" in out and "game abandoned" in err


FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "game.yaml"


def _minimal(tmp_path: Path, discard: str) -> Path:
    """The minimal game, its discard pile with the given visibility (picks put cards there)."""
    text = FIXTURE.read_text(encoding="utf-8")
    old = "  discard: {visibility: public, source: Turn}"
    assert old in text
    folder = tmp_path / "minimal"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        text.replace(old, f"  discard: {{visibility: {discard}, source: Turn}}")
    )
    return folder


def _discard_lines(game: meeple.interpreter.game.Game) -> list[tuple[int, str]]:
    """The log lines of every discard pick in a few random games."""
    lines = []
    for seed in range(4):
        rng = random.Random(seed)
        st = game.new_initial_state(seed)
        while not st.is_terminal():
            labels = st.legal_action_labels()
            discard = [a for a, label in labels if label == "discard a card"]
            st.apply_action(discard[0] if discard else labels[rng.randrange(len(labels))][0])
        lines += [(who, t) for who, t in st.log if "Discard a card ->" in t]
    return lines


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
@pytest.mark.parametrize("discard", ["hidden", "owner"])
def test_a_pick_into_a_face_down_zone_names_the_card_to_the_picker_only(
    tmp_path: Path, backend: str, discard: str
) -> None:
    game = meeple.load(str(_minimal(tmp_path, discard)), 3, backend=backend)
    lines = _discard_lines(game)
    assert lines
    for who, text in lines:  # "P2: Discard a card -> Gem" is P2's line alone
        assert text.startswith(f"P{who + 1}: "), (who, text)
    st = game.new_initial_state(0)
    for who, text in lines[:1]:
        other = (who + 1) % 3
        st.log = [(who, text)]
        assert text not in st.observation(other)["log"]
        assert text in st.observation(who)["log"]


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
@pytest.mark.parametrize("discard", ["public", "top"])
def test_a_pick_into_a_zone_everyone_sees_stays_public(
    tmp_path: Path, backend: str, discard: str
) -> None:
    game = meeple.load(str(_minimal(tmp_path, discard)), 3, backend=backend)
    lines = _discard_lines(game)
    assert lines and all(who == -1 for who, _ in lines)
