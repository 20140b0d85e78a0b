"""The straight-line code of short games (issue 13): what a playout of Harbour Guilds pays
besides its turns, cut where the generator or the runtime proves the game unchanged.

- A pick of exactly one card (``count: 1``) is one pass of run_pick's loop (codegen/pickone.py).
- A choice whose options are all always offered knows their number (codegen/choice.py): no
  test of none or one, ``st.choose(N)`` with N written in.
- A majority of one count and first place is found by list methods (majorities.majority_top).
- A playout's uniform chooser seeds the C generator of random.Random directly, a new State
  copies its start piles (Layout.start_piles), a shuffle of five or more items computes its
  draws together (runtime/prng.py, checked in tests/test_prng.py).

tests/fixtures/short uses each of them in every shape (a pick of one from a zone to another,
to a zone of the same name, to none with a condition reading ``picked``, from a list, from a
zone without owner, by a picker out of the game; choices of three and one options always
offered; a scoring that moves, calls and hands out majorities with a threshold and both tie
modes). Its playouts must be the API's games, the two back ends the same game state by state,
and its failures the API's.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st_
from test_language_v2 import play_both
from test_playout import BACKENDS, _fails_as_the_api_game, _plays_out_as_the_api_games

import meeple
from meeple.api import load_checked
from meeple.codegen import generate
from meeple.dsl.errors import RuleError
from meeple.registry import game_ids
from meeple.runtime.majorities import majority_holders, majority_top
from meeple.runtime.state import State

SHORT = Path(__file__).parent / "fixtures" / "short" / "game.yaml"

#: what the API games of the fixture must show between them (their logs): every pick of one,
#: each option of the choices always offered, and the majorities of the scoring
SHAPES = (
    r"Mood -> calm$",
    r"Mood -> bold$",
    r"Mood -> grim$",
    r"Your turn -> stash$",
    r"Stash a card -> \w+$",  # a zone to a zone of another name
    r"Sell a card -> \w+$",  # as: the list of the one card
    r"Put a card on top of your hand -> \w+$",  # to a zone of the same name
    r"Show a good card -> \w+$",  # no destination; its condition reads picked
    r"Lay out a card from your hand or the discard -> \w+$",  # a list
    r"Bank a card from the table -> \w+$",  # a zone without owner
    r"is out of the game: P\d takes a card of yours -> skipped$",  # the picker is out
    r"^P\d: P\d takes a card of yours -> \w+$",
    r"^P\d has the most cards of 1 points$",
    r"^P\d has the most cards of 2 points$",
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_short_game_plays_out_as_the_api_games(backend: str) -> None:
    """40 playouts, each the API's game for the same choices (the compiled back end runs the
    straight-line code), and between them every shape of the fixture taken."""
    _plays_out_as_the_api_games(SHORT, backend, SHAPES)


def test_the_short_game_is_the_same_game_on_both_back_ends() -> None:
    """State by state (the saved state, with the log, at every decision), and resumed on the
    other back end."""
    logs = play_both(SHORT, 3, range(12))
    assert any("has the most cards" in line for log in logs for line in log)


def test_the_fixture_meets_the_straight_line_code() -> None:
    """The generated module writes each of the fixture's picks of one as one pass, its choices
    always offered with their number, its majorities with majority_top: else the tests above
    prove nothing about them."""
    source = generate(load_checked(str(SHORT)))
    assert source.count("raise RuleError('a pick needs 1 item but only 0 could be picked'") >= 7
    assert "st.choose(3)" in source  # Mood: three options always offered
    assert "majority_top(st, st.players, 2, '3-3:nobody'" in source


#: the stash offered with an empty hand: a pick of one with nothing to pick
NO_STASH = "when: true\n            do:\n              - {pick: Stash"
NONE = "a pick needs 1 item but only 0 could be picked"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            ("when: count(hand[p]) > 0\n            do:\n              - {pick: Stash", NO_STASH),
            NONE,
        ),
        (("where: k.points <= 3\n", "where: k.points <= 3 + 0 * (1 // (round - 2))\n"), "by zero"),
        (("taxer = left_of(p)", "taxer = round + 9"), "seat 12 is not a player"),
        (("until: round > 5", "until: round > 5 and mood == mood // (round - 6)"), "division by"),
        (("used[p]\n", "used[p] // (3 - round + 3)\n"), "division by zero"),
        (("at_least: 2", "at_least: 2 // (round - 6)"), "division by zero"),
    ],
)
def test_a_short_game_that_fails_fails_a_playout_as_it_fails_the_api_game(
    tmp_path: Path, edit: tuple[str, str], message: str, backend: str
) -> None:
    """A pick of one with no card to pick, a condition of its candidates that raises, a picker
    that is no seat, and failures in the play loop's condition and in the scoring (a majority's
    threshold): the same rule error, at the same place, as in the API game of the same
    choices."""
    _fails_as_the_api_game(SHORT, tmp_path, edit, message, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_setup_that_fails_fails_a_playout_as_it_fails_a_new_game(
    tmp_path: Path, backend: str
) -> None:
    """A playout's setup (run from the new State's frames) raises the API's error, at the same
    place, with the same trace (here inside the procedure it calls)."""
    text = SHORT.read_text(encoding="utf-8")
    assert "move 3 from deck to hand[p]" in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace("move 3 from deck to hand[p]", "move 5 from deck to hand[p]"))
    game = meeple.load(str(path), 3, backend=backend)
    with pytest.raises(RuleError) as played:
        game.playout(4)
    with pytest.raises(RuleError) as started:
        game.new_initial_state(4, record_log=False)
    assert "it ran out" in str(played.value)
    assert str(played.value) == str(started.value)
    assert played.value.span == started.value.span
    assert played.value.trace == started.value.trace


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_seeded_playout_chooses_with_random_random_of_the_seed(backend: str) -> None:
    """``playout(seed)`` draws its choices as ``random.Random(seed)`` would (the C generator is
    seeded directly: the same numbers), for seeds small and as large as a seed can be."""
    game = meeple.load(str(SHORT), 3, backend=backend)
    for seed in (0, 7, 2**32 + 1, 2**64 - 1):
        assert game.playout(seed).to_json() == game.playout(seed, random.Random(seed)).to_json()


@given(
    counts=st_.lists(st_.one_of(st_.integers(-1, 3), st_.none()), min_size=0, max_size=5),
    at_least=st_.integers(-1, 2),
    ties=st_.sampled_from(["1-6:all", "1-6:nobody", "2-3:nobody,4-6:all"]),
    seats=st_.integers(1, 6),
    order=st_.randoms(use_true_random=False),
)
def test_majority_top_is_majority_holders_of_one_count(
    counts: list[int | None], at_least: int, ties: str, seats: int, order: random.Random
) -> None:
    """The same holders, in the same order, or the same error, for any counts (none among them),
    threshold, tie mode and number of players left, with the candidates in any order and as
    any iterable."""
    among = list(range(len(counts)))
    order.shuffle(among)
    state = type("S", (), {"players": list(range(seats))})()
    try:
        want: object = majority_holders(state, among, at_least, ties, 1, counts)
    except RuleError as e:
        want = str(e)
    for given_among in (among, tuple(among), iter(among)):
        try:
            got: object = majority_top(state, given_among, at_least, ties, counts)
        except RuleError as e:
            got = str(e)
        assert got == want


@pytest.mark.parametrize("game_id", [*game_ids(), str(SHORT)])
def test_a_new_state_has_every_card_in_its_start_zone(game_id: str) -> None:
    """A new State copies the layout's start piles (Layout.start_piles): each card in its start
    zone, in card order, and ``loc`` saying so, as placing the cards one by one gives; and
    after games have been played from it the next new State still starts so (its piles are
    copies, not the layout's own lists)."""
    game = meeple.load(game_id, 3 if game_id == str(SHORT) else 4, backend="compiled")
    prog = game.program
    piles: list[list[object]] = [[] for _ in prog.zone_names]
    for c in prog.cards:
        piles[prog.start_zone(c)].append(c)
    where = [prog.start_zone(c) for c in prog.cards]
    for seed in range(3):
        game.playout(seed)
        state = State(prog, seed, record_log=False, start=False)
        assert state.zones == piles and state.loc == where
        state.check_invariants()
