"""Hidden information stays hidden (issue 11, section 7): hot-seat play hands the screen over
filtered for the seat about to act, and a pick into a face-down zone names its cards only to
those who may see them, on both back ends."""

from __future__ import annotations

import io
import re

import pytest

from meeple.cli import main


def _hot_seat(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    answers = "2\n1\n" * 150  # EOF after that abandons the game
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", "--seed", "1", "--human", "1", "--human", "2"]) == 0
    return capsys.readouterr().out


def test_hot_seat_never_shows_p1_secrets_while_p2_decides(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _hot_seat(capsys, monkeypatch)
    # what only P1 may know: his private log lines (shown indented, to him) and his hand
    secrets = {m.group(1) for m in re.finditer(r"  (P1: [^\n]*)", out)}
    hands = {m.group(0) for m in re.finditer(r"hand\[P1\]: [^\n]*", out)}
    assert secrets and any("Legion" in s for s in secrets)
    screens = out.split("Hand the screen to ")
    p2_screens = [s for s in screens if "P2 to act" in s]
    assert len(screens) > 4 and p2_screens  # the screen changed hands, both ways
    for screen in p2_screens:
        assert "P1 to act" not in screen  # one seat's view per screen
        for s in secrets:
            assert s not in screen, s
        for h in hands:
            assert h not in screen or h.endswith("card(s) face down"), h


def test_hot_seat_quits_at_the_hand_over(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 9 + "q\n"))
    assert main(["play", "--seed", "1", "--human", "1", "--human", "2"]) == 0
    out = capsys.readouterr().out
    assert "Hand the screen to P2" in out and "game abandoned" in out
