"""``move ITEMS to ZONE`` of a zone or a list in one call (runtime/moves.py ``move_cards``, which
the generated modules call): the same game as the card-by-card moves the statement means.

The interpreter still moves card by card (interpreter/program.py), so it is the reference:
tests/fixtures/moves moves cards in every shape move_cards treats its own way (a whole pile to
another zone, on top and at the bottom, to itself both ways, from an empty pile, through zone
parameters, a local, a zone chosen by a condition, from a face-down pile into a seat's own zone
with the log on, lists that are not a pile), and its games must be the same on both back ends,
state by state with their logs, and as playouts (the compiled back end's direct code). Then
move_cards itself is checked against a frozen copy of the card-by-card loop on random piles.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from test_language_v2 import play_both
from test_playout import BACKENDS, _fails_as_the_api_game, _plays_out_as_the_api_games

import meeple
from meeple.dsl.errors import RuleError
from meeple.runtime.moves import move_cards
from meeple.runtime.ops import cards_of
from meeple.runtime.state import State

MOVES = Path(__file__).parent / "fixtures" / "moves" / "game.yaml"

#: every option of the fixture's turn, each taken at least once in the games played
OPTIONS = (
    "draw",
    "refill the reserve",
    "take the reserve",
    "take the reserve under your hand",
    "sweep the discard",
    "turn your hand over",
    "tidy your hand",
    "bury your hand",
    "discard your hand",
    "stash your hand",
    "unstash",
    "shuffle your stash in place",
    "pile up",
    "lay out",
    "bank the good cards",
    "throw two piles away",
    "spill the deck",
    r"play \w+",
    "deal the reserve's top card",
    "play the best card",
    r"mark \w+",
    "bank the marked card",
    "draw up to five",
    "cut your hand",
    "give two cards away",
)


def _drawn_one_by_one(log: list[str]) -> bool:
    """Has the log (meeple.api.log_lines) two "draws" lines in a row from the reserve for one
    seat: a whole face-down pile of two cards or more taken into a seat's own zone, one line
    per card?"""
    seats = [re.fullmatch(r"\((P\d) only\) \1 draws \w+ from reserve", x) for x in log]
    return any(a and b and a[1] == b[1] for a, b in zip(seats, seats[1:], strict=False))


def test_the_moves_fixture_is_the_same_game_on_both_back_ends() -> None:
    """State by state (the saved state, with the log, at every decision) and resumed on the
    other back end: the compiled module's moves are the interpreter's card-by-card moves."""
    logs = play_both(MOVES, 3, range(30))
    lines = [line for log in logs for line in log]
    for option in OPTIONS:
        assert any(re.search(f"Your turn -> {option}$", x) for x in lines), option
    assert any(_drawn_one_by_one(log) for log in logs)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_moves_fixture_plays_out_as_the_api_games(backend: str) -> None:
    """Playouts (the compiled module's direct code) are the API games of the same choices."""
    _plays_out_as_the_api_games(MOVES, backend, tuple(f"Your turn -> {o}$" for o in OPTIONS))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            ("when: marked != none", "when: true"),
            "only a card can be moved, not none",
        ),
        (
            ("when: count(reserve) > 0", "when: true"),
            "a zone or list has no item there",
        ),
        (("when: count(hand[p]) < 5", "when: count(hand[p]) < 9"), r"cannot move -\d cards"),
        (
            ("when: count(hand[p]) >= 2 and count(stash[p]) >= 1", "when: count(stash[p]) >= 1"),
            r"cannot take 2 from hand\[P\d\]: it ran out",
        ),
    ],
)
def test_a_move_that_cannot_be_made_fails_a_playout_as_it_fails_the_api_game(
    tmp_path: Path, edit: tuple[str, str], message: str, backend: str
) -> None:
    """A card that is none, the top card of an empty zone, a count below 0, a source short of
    cards without a refill: the same rule error, at the same place, in a playout (direct code)
    as in the API game."""
    _fails_as_the_api_game(MOVES, tmp_path, edit, message, backend)


#: the fixture with a trigger on every vault: a move there is written with its triggers fired
#: after it (a card, in direct code, moved as a card is moved there; see codegen/moves.py
#: write_moved), and so is every move to a zone held in a parameter (it may be a vault)
TRIGGER = (
    "\ntriggers:\n  banked:\n    to: vault\n    kind: cards\n    as: got\n"
    "    source: Turn\n    do: ['banked += got.points', 'log \"{got} is banked\"']\n"
)


def _with_a_trigger(tmp_path: Path) -> Path:
    path = tmp_path / "triggered" / "game.yaml"
    path.parent.mkdir()
    path.write_text(MOVES.read_text(encoding="utf-8") + TRIGGER, encoding="utf-8")
    return path


@pytest.mark.parametrize("backend", BACKENDS)
def test_moves_that_set_off_triggers_play_out_as_the_api_games(
    tmp_path: Path, backend: str
) -> None:
    rules = _with_a_trigger(tmp_path)
    shapes = ("Your turn -> bank the marked card$", r"^\w+ is banked$", "Your turn -> unstash$")
    _plays_out_as_the_api_games(rules, backend, shapes)
    logs = play_both(rules, 3, range(6))  # and the back ends agree
    assert any("is banked" in line for log in logs for line in log)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_card_that_is_none_fails_a_move_with_triggers_as_in_the_api_game(
    tmp_path: Path, backend: str
) -> None:
    rules = _with_a_trigger(tmp_path)
    edit = ("when: marked != none", "when: true")
    _fails_as_the_api_game(rules, tmp_path, edit, "only a card can be moved, not none", backend)


# ------------------------------------------------------------------ move_cards itself


def card_by_card(st: State, items: Any, dest: int, bottom: bool) -> None:
    """What ``move ITEMS to dest`` means (frozen: the interpreter's loop, as it was written)."""
    for c in cards_of(items):
        st.move(c, dest, bottom)


def _snapshot(st: State) -> tuple[Any, ...]:
    return ([[c.id for c in z] for z in st.zones], list(st.loc), list(st.log))


def _shuffled_state(game: Any, rng: random.Random, log: bool) -> State:
    """A new game whose cards are then thrown about at random (each move a State.move), so
    that piles of every size, empty ones too, meet."""
    st: State = game.new_initial_state(rng.randrange(1000), record_log=log)
    cards = st.prog.cards
    for _ in range(rng.randrange(0, 60)):
        st.move(cards[rng.randrange(len(cards))], rng.randrange(len(st.zones)), rng.random() < 0.5)
    st.log.clear()
    return st


def _items(st: State, rng: random.Random) -> Any:
    """What a rule may move: a pile (often empty), a card, a list of cards from several piles
    (in any order, maybe with a card twice), a list with a card that is not one, none."""
    zones, cards = st.zones, st.prog.cards
    k = rng.randrange(9)
    if k < 4:
        return zones[rng.randrange(len(zones))]
    if k == 4:
        return cards[rng.randrange(len(cards))]
    if k == 5:
        return rng.sample(cards, rng.randrange(0, 6))
    if k == 6:
        z = zones[rng.randrange(len(zones))]
        return list(z) + [cards[rng.randrange(len(cards))]]  # a copy of a pile, and then some
    if k == 7:
        return [cards[rng.randrange(len(cards))], None, cards[rng.randrange(len(cards))]]
    return None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("log", [True, False])
def test_move_cards_is_the_card_by_card_move(backend: str, log: bool) -> None:
    """On random piles, moved to random zones (the pile itself too), on top or at the bottom:
    the same piles, ``loc`` and log lines as card by card, or the same rule error with the same
    cards moved before it."""
    game = meeple.load(str(MOVES), 3, backend=backend)
    rng = random.Random(log)
    met = set()
    for _ in range(600):
        st = _shuffled_state(game, rng, log)
        ref = st.clone()  # (the piles are shared with st until either moves a card)
        items = _items(st, rng)
        named = rng.random() < 0.5
        if named:  # the items held in a name: a pile of st's own (State.own), as a rule holds it
            items = st.own(items)
        # the same items in the clone: the same pile (by index) or the same cards
        pile = next((i for i, z in enumerate(st.zones) if z is items), None)
        dest, bottom = rng.randrange(len(st.zones)), rng.random() < 0.5
        if pile is not None and rng.random() < 0.3:
            dest = pile
        ref_items = ref.zones[pile] if pile is not None else items
        empty = pile is not None and not items
        outcome = []
        for state, what, move in ((ref, ref_items, card_by_card), (st, items, move_cards)):
            try:
                move(state, what, dest, bottom)
                outcome.append(None)
            except RuleError as e:
                outcome.append(str(e))
        assert outcome[0] == outcome[1]
        assert _snapshot(st) == _snapshot(ref)
        if pile is not None:
            if named:  # a pile a name holds is still its list (else it was copied first)
                assert st.zones[pile] is items
            met.add((pile == dest, bottom, empty))
        if outcome[0] is None:
            st.check_invariants()
    # every case of a whole pile was met: to itself or not, bottom or top, empty or not
    assert len(met) == 8, sorted(met)


def test_a_whole_face_down_pile_into_a_seats_zone_logs_a_line_per_card() -> None:
    """The log on: one "draws" line per card, in the order of the moves, seen by the seat."""
    game = meeple.load(str(MOVES), 3, backend="compiled")
    st = game.new_initial_state(4)
    reserve = st.zones[st.prog.zone_base["reserve"]]
    names = [c.name for c in reserve]
    assert len(names) == 3
    st.log.clear()
    move_cards(st, reserve, st.prog.zone_base["hand"] + 1, True)
    assert st.log == [(1, f"P2 draws {n} from reserve") for n in names]
