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


PEEK = Path(__file__).parent / "fixtures" / "peek"


def test_explain_shows_a_seat_no_value_it_may_not_see() -> None:
    """A reason shown to the seat deciding never prints a value read from another seat's hand,
    a face-down pile or another seat's owner-only variable, and names none of those cards; what
    it may see (its own hand, counts, the top of a face-up pile, its own secret) keeps its
    values; a designer (viewer None) sees them all."""
    from meeple.explain import UNSEEN, explain, verdict

    st = meeple.load(str(PEEK)).new_initial_state(2)
    assert st.current_player() == 0
    zone = st.prog.zone_names.index
    theirs = sum(c.points for c in st.zones[zone("hand[P2]")])
    mine = sum(c.points for c in st.zones[zone("hand[P1]")])
    deck_top = st.zones[zone("deck")][-1].points
    assert len({theirs, mine}) == 2  # the seed tells the two hands apart
    every = {v.label: v.reason for v in explain(st)}
    seen = {v.label: v.reason for v in explain(st, viewer=0)}
    assert f"(here {theirs} > 100)" in every["peek"]
    assert f"(here {deck_top} > 100)" in every["deck top"]
    assert "(here 37 > 100)" in every["their secret"]
    assert any(label.startswith("take ") for label in every)  # P2's cards, named
    for label in ("peek", "deck top", "their secret"):
        assert "here" not in seen[label] and UNSEEN in seen[label], seen[label]
    assert not any(label.startswith("take ") for label in seen)  # P2's cards never named
    assert f"(here {mine} > 100)" in seen["mine"]
    assert "(here 3 > 100)" in seen["count"]  # a count is public
    assert "(here 37 > 100)" in seen["my secret"]
    assert "(here " in seen["discard top"]  # the discard pile shows its top card
    # which part of an "and" fails is not told when that would tell a hidden value
    in_deck = len(st.zones[zone("deck")])
    assert every["both"].count(" is false") == 2 and "count(deck) > 100 (here" in every["both"]
    assert seen["both"].endswith(f": count(deck) > 100 (here {in_deck} > 100) is false")
    assert seen["both"].count(" is false") == 1
    assert every["which"].endswith(f": top(deck).points > 100 (here {deck_top} > 100) is false")
    assert seen["which"].startswith("its condition fails: at least one of these is false: ")
    assert "here" not in seen["which"]
    why = verdict(st, "take Crown", viewer=0).reason
    assert UNSEEN in why and "here" not in why
    assert "(here 3 > 100)" in verdict(st, "take Crown").reason


def test_the_play_screen_shows_no_value_the_seat_may_not_see(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    main(["play", str(PEEK), "--seed", "2", "--human", "1"])
    out = capsys.readouterr().out
    st = meeple.load(str(PEEK)).new_initial_state(2)
    theirs = sum(c.points for c in st.zones[st.prog.zone_names.index("hand[P2]")])
    assert "not legal: peek: its condition fails" in out
    assert f"here {theirs} > 100" not in out and "not legal: take" not in out
    assert "here 37 > 100" in out  # his own secret
