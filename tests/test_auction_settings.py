"""An auction's settings that break its rules (docs/language.md, 21; dsl/auction_values.py), and
seats that are no seats in play: a bid, a price and a seat's means are 0 or more, an increment 1
or more, a Dutch start price at least its lowest, the lowest bid at most ``most``, each bidder
named once. Written as a constant, each is a check error where it is written; computed, a rule
error at the auction's line, the same on both back ends (the direct code of a playout and the
API's stepping code of the interpreter and of the generated module). Also: a chooser of a tie
that is ``none``, and rules that go on once every player is eliminated."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.cases import position
from test_auction import game
from test_language_v2 import edit, refused, write
from test_playout import FIXTURES
from test_rows import _first_failure, edited

import meeple
from meeple.dsl.errors import CheckError
from meeple.dsl.loader import load_rules

MOST = "        most: 4 * count(cards)\n"
OPEN_MEANS = "        means: gold[p]\n"

#: (kind, the edit of test_auction's game, where the error is, its message)
CONSTANT = {
    "most-negative": (
        "open", (MOST, "        most: -1\n"), "most: |-1",
        "the auction's 'most' is -1: a bid is 0 or more",
    ),
    "min_bid-and-increment-negative": (
        "open", (MOST, MOST + "        min_bid: -5\n        increment: -1\n"), "min_bid: |-5",
        "the auction's 'min_bid' is -5: a bid is 0 or more",
    ),
    "increment-zero": (
        "open", (MOST, MOST + "        increment: 0\n"), "increment: |0",
        "the auction's 'increment' is 0: each bid must beat the last by 1 or more",
    ),
    "increment-a-negative-constant": (
        "once_around", (MOST, MOST + "        increment: 1 - step\n"), "increment: |1 - step",
        "the auction's 'increment' is -1: each bid must beat the last by 1 or more",
    ),
    "min_bid-above-most": (
        "open", (MOST, "        most: 20\n        min_bid: 30\n"), "min_bid: |30",
        "the auction's 'min_bid' (30) is above its 'most' (20)",
    ),
    "dutch-increment-zero": (
        "dutch", ("        price: 4\n", "        price: 4\n        increment: 0\n"),
        "increment: |0",
        "the auction's 'increment' is 0: the price must fall by 1 or more at each step",
    ),
    "dutch-price-below-min_bid": (
        "dutch", ("        price: 4\n", "        price: 2\n        min_bid: 5\n"), "price: |2",
        "the auction's start 'price' is 2, below its 'min_bid' (5): the price only falls",
    ),
    "fixed-price-negative": (
        "fixed_price", ("price: 2 + round", "price: -3"), "price: |-3",
        "the auction's 'price' is -3: a price is 0 or more",
    ),
    "means-negative": (
        "open", (OPEN_MEANS, "        means: -3\n"), "means: |-3",
        "the auction's 'means' is -3: a seat's means are 0 or more",
    ),
    "duplicate-bidders": (
        "open", ("bidders: clockwise_from(r)", 'bidders: "[r, left_of(r), r]"'),
        "left_of(r), |r]",
        "the auction's 'bidders' name this seat twice; each seat bids once in each round",
    ),
    "sealed-increment": (
        "sealed", (MOST, MOST + "        increment: 2\n"), "increment: 2",
        "'increment' has no meaning in a sealed auction",
    ),
}  # fmt: skip

#: a constant of the game (the increment's ``1 - step`` above)
STEP = ("constants:\n", "constants:\n  step: {value: 2, source: Auction}\n")


@pytest.mark.parametrize(("kind", "change", "at", "message"), CONSTANT.values(), ids=CONSTANT)
def test_a_constant_setting_is_refused_where_it_is_written(
    tmp_path: Path, kind: str, change: tuple[str, str], at: str, message: str
) -> None:
    text = edit(game(kind), *change)
    if "step" in change[1]:
        text = _with_constant(text)
    refused(tmp_path, text, CheckError, at, message)


def _with_constant(text: str) -> str:
    if "constants:\n" in text:
        return edit(text, *STEP)
    return edit(text, "zones:\n", "constants:\n  step: {value: 2, source: Auction}\n\nzones:\n")


def test_the_check_names_the_place_and_a_fix(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """``meeple check`` prints the error as file:line:col with its suggestion, exit status 2."""
    from meeple.cli import main

    text = edit(game("open"), MOST, MOST + "        increment: 0\n")
    path = write(tmp_path, text)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    line, col = position(text, "increment: |0")
    assert f"{path}:{line}:{col}: error: the auction's 'increment' is 0" in err
    assert "make it 1 or more" in err


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_min_bid_above_a_most_of_the_components_is_refused_as_the_game_is_made(
    tmp_path: Path, backend: str
) -> None:
    """``most`` reads the components: the lowest bid is compared with it for the player count
    when the game is made (4 * 20 cards: 80)."""
    text = edit(game("open"), MOST, MOST + "        min_bid: 90\n")
    path = write(tmp_path, text)
    load_rules(path)  # (the check cannot know the cards' count)
    with pytest.raises(CheckError) as info:
        meeple.load(str(path), 2, backend=backend)
    e = info.value
    assert "the auction's 'min_bid' (90) is above its 'most' (80 with 2 players)" in str(e)
    assert e.span is not None and (e.span.line, e.span.col) == position(text, "min_bid: |90")


#: (kind, the edit of test_auction's game, players, the message of the rule error)
COMPUTED = {
    "min_bid": (
        "open", (MOST, MOST + "        min_bid: round - 5\n"), 2,
        "the auction's 'min_bid' is -4: a bid is 0 or more",
    ),
    "increment": (
        "open", (MOST, MOST + "        increment: round - 1\n"), 2,
        "the auction's 'increment' is 0: each bid must beat the last by 1 or more",
    ),
    "increment-once-around": (
        "once_around", (MOST, MOST + "        increment: round - 1\n"), 3,
        "the auction's 'increment' is 0: each bid must beat the last by 1 or more",
    ),
    "dutch-increment": (
        "dutch", ("        price: 4\n", "        price: 4\n        increment: round - 1\n"), 2,
        "the auction's 'increment' is 0: the price must fall by 1 or more at each step",
    ),
    "dutch-price-below-min_bid": (
        "dutch", ("        price: 4\n", "        price: round + 1\n        min_bid: 3\n"), 2,
        "the auction's start 'price' is 2, below its 'min_bid' (3): the price only falls",
    ),
    "fixed-price": (
        "fixed_price", ("price: 2 + round", "price: 2 - 5 * round"), 2,
        "the auction's 'price' is -3: a price is 0 or more",
    ),
    "means": (
        "open", (OPEN_MEANS, "        means: gold[p] - 7\n"), 2,
        "the auction's 'means' of P1 is -1: a seat's means are 0 or more",
    ),
    "means-dutch": (
        "dutch", (OPEN_MEANS, "        means: gold[p] - 7\n"), 2,
        "the auction's 'means' of P1 is -1: a seat's means are 0 or more",
    ),
    "duplicate-bidders": (
        "open", ("bidders: clockwise_from(r)", 'bidders: "[r, left_of(left_of(r))]"'), 2,
        "the auction's 'bidders' hold P1 twice; each seat bids once in each round",
    ),
}  # fmt: skip


@pytest.mark.parametrize(("kind", "change", "players", "message"), COMPUTED.values(), ids=COMPUTED)
def test_a_computed_setting_is_a_rule_error_at_the_auction_on_both_back_ends(
    tmp_path: Path, kind: str, change: tuple[str, str], players: int, message: str
) -> None:
    """The playout's error is the API games' on both back ends, message and place
    (test_rows._first_failure); the place is the auction's line."""
    text = edit(game(kind), *change)
    path = write(tmp_path, text)
    failed = _first_failure(path, players)
    assert message in str(failed)
    assert failed.span is not None and failed.span.line == _line(text, "- auction:")


def _line(text: str, part: str) -> int:
    return text[: text.index(part)].count("\n") + 1


# ------------------------------------------------------------------ seats that are no seats
CONTEST = FIXTURES / "contest" / "game.yaml"
BOSS = "  boss: {type: player, initial: 0, source: Play}\n"


def test_a_tie_chooser_left_of_none_is_refused_where_it_is_written(tmp_path: Path) -> None:
    text = CONTEST.read_text(encoding="utf-8")
    text = edit(text, "{chooser: boss, not_self: true}", "{chooser: left_of(none)}")
    refused(tmp_path, text, CheckError, "left_of(|none)", "left_of() needs a player, not none")


def test_a_seat_of_none_computed_is_named_as_players_are(tmp_path: Path) -> None:
    """``left_of(nobody)`` with a variable that is none: the message says none and the seats
    P1..P3 (never Python's None, nor only 0-based seats), at the winner, on both back ends."""
    path = edited(
        CONTEST,
        tmp_path,
        (BOSS, BOSS + "  nobody: {type: player, initial: none, source: Play}\n"),
        ("{chooser: boss, not_self: true}", "{chooser: left_of(nobody)}"),
    )
    failed = _first_failure(path)
    assert str(failed.message).startswith(
        "none is not a player in this 3-player game (seats are P1..P3, numbered 0 to 2"
    ), failed.message
    assert failed.span is not None
    assert failed.span.line == _line(path.read_text(encoding="utf-8"), 'winner: "Most cards')


HARBOUR = Path(__file__).resolve().parent.parent / "rules" / "harbour-guilds" / "game.yaml"


def test_rules_that_go_on_once_every_player_is_eliminated_fail_clearly(tmp_path: Path) -> None:
    """Harbour Guilds whose first turn eliminates everyone, four rounds: the next round's
    turns have no seat to start from; the error says so and what to write, at the phase, on
    both back ends (never "0 is not a seat in play (seats are 0 to -1)")."""
    path = edited(
        HARBOUR,
        tmp_path,
        ("  until: all(count(hand[p]) == 0 for p in players)\n", "  rounds: 4\n"),
        (
            "            - if: count(draw_pile) > 0\n",
            "            - {for: q in players, do: [eliminate q]}\n"
            "            - if: count(draw_pile) > 0\n",
        ),
    )
    failed = _first_failure(path)
    assert str(failed.message).startswith(
        "every player is out of the game (all were eliminated), so no seat follows or precedes "
        "another: the rules must end the game ('end game') when the last player is eliminated"
    ), failed.message
    assert failed.span is not None
    assert failed.span.line == _line(path.read_text(encoding="utf-8"), "- phase: Turns")
