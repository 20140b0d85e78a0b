"""In the Shadow of the Emperor, 2 to 4 players: random games end, never dead-end, keep every
piece on exactly one space or in a supply, and keep thalers within 0..12.

2,000 games per player count in all: a hypothesis test per count (varied seeds, every check at
every decision) plus a plain seeded loop (the game's checks at every decision, the engine's
every-card check at the end of each game)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.interpreter.game import Game
from meeple.interpreter.state import TERMINAL, State

GAME_ID = "shadow-of-the-emperor"
GAMES: dict[int, Game] = {n: meeple.load(GAME_ID, players=n) for n in (2, 3, 4)}
HYPOTHESIS_GAMES = 150
LOOP_GAMES = 2000 - HYPOTHESIS_GAMES
MAX_DECISIONS = 2000
PIECES = ("aristocrats", "knights", "cities", "empire_cities")


class Layout:
    """Zone indexes of one game: which zones are spaces, which are supplies."""

    def __init__(self, game: Game) -> None:
        prog = game.program
        self.prog = prog
        base, spaces = prog.zone_base, prog.kind_cards["spaces"]
        self.space_zone = {base["at"] + s.ordinal: s for s in spaces}
        self.throne = base["throne"]
        self.aside = base["aside"]
        self.empire_supply = base["empire_supply"]
        self.supply = {base["supply"] + p: p for p in range(prog.num_players)}
        self.pieces = [c for k in PIECES for c in prog.kind_cards[k]]


LAYOUTS = {n: Layout(g) for n, g in GAMES.items()}


def check_position(state: State, lay: Layout, every_card: bool = True) -> None:
    """Every piece on exactly one space (or the throne) or in its supply; one piece a space;
    thalers within the track; life stages on the board; Barons only on spiritual elector seats;
    closed electorates empty. ``every_card`` also runs the engine's check of every card."""
    if every_card:
        state.check_invariants()
    v = state.vars
    assert all(0 <= t <= 12 for t in v["thalers"]), v["thalers"]
    for zi, s in lay.space_zone.items():
        z = state.zones[zi]
        assert len(z) <= 1, f"{s.name} holds {len(z)} pieces"
        if z and v["closed"][s.electorate.ordinal]:
            raise AssertionError(f"a piece stands in the closed electorate {s.electorate.name}")
        if z and s.type == "elector":
            x = z[0]
            assert x.kind == "aristocrats", f"{x.name} on an elector space"
            assert not (s.electorate.spiritual and v["couple"][x.ordinal]), "a Couple elector"
    assert len(state.zones[lay.throne]) <= 1
    if state.pending is not None:  # 'aside' holds a piece only while its place is being chosen
        assert len(state.zones[lay.aside]) <= 1
    else:
        assert not state.zones[lay.aside]
    for c in lay.pieces:
        zi = state.loc[c.id]
        if zi in lay.supply:
            assert lay.supply[zi] == c.owner, f"{c.name} in another player's supply"
            if c.kind == "aristocrats":
                assert v["age"][c.ordinal] == 0 and not v["couple"][c.ordinal]
        elif zi == lay.empire_supply:
            assert c.kind == "empire_cities"
        else:
            assert zi in lay.space_zone or zi in (lay.throne, lay.aside), (
                f"{c.name} lies in {state.prog.zone_names[zi]}"
            )
            if c.kind == "aristocrats" and zi != lay.aside:
                assert v["age"][c.ordinal] in (15, 25, 35, 45), v["age"][c.ordinal]
            if c.kind in ("knights", "aristocrats") and zi in lay.space_zone:
                assert lay.space_zone[zi].type != "city"
            if c.kind in ("cities", "empire_cities"):
                assert lay.space_zone[zi].type == "city"


def play_checked(players: int, seed: int, agent_seed: int, every_card: bool = True) -> int:
    """One random game, the position checked after every decision; the number of decisions."""
    game, lay = GAMES[players], LAYOUTS[players]
    state = game.new_initial_state(seed, record_log=False)
    rng = random.Random(agent_seed)
    n = 0
    check_position(state, lay)
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions, f"seat {state.current_player()} must act but has no legal action"
        assert state.current_player() in state.players
        state.apply_action(actions[rng.randrange(len(actions))])
        check_position(state, lay, every_card)
        n += 1
        assert n < MAX_DECISIONS, "game did not end"
    check_position(state, lay)
    assert state.current_player() == TERMINAL
    assert state.vars["round"] == 5  # the game ends after phase VII of round 5
    assert state.winners()
    return n


def _hypothesis_test(players: int):  # type: ignore[no-untyped-def]
    @settings(
        max_examples=HYPOTHESIS_GAMES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(seed=st.integers(0, 2**63), agent_seed=st.integers(0, 2**32))
    def test(seed: int, agent_seed: int) -> None:
        play_checked(players, seed, agent_seed)

    return test


test_two_player_random_games = _hypothesis_test(2)
test_three_player_random_games = _hypothesis_test(3)
test_four_player_random_games = _hypothesis_test(4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_random_games(players: int) -> None:
    """The engine's every-card check runs at the end of each game here (it is the costly part);
    the game's own position check still runs after every decision."""
    for seed in range(LOOP_GAMES):
        play_checked(players, seed, seed + 7919, every_card=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_cli_completes(players: int) -> None:
    """`meeple play shadow-of-the-emperor --players N --seed S` completes."""
    from meeple.cli import main

    assert main(["play", GAME_ID, "--players", str(players), "--seed", "3", "--quiet"]) in (0, None)


def test_the_check_catches_a_piece_out_of_place() -> None:
    game, lay = GAMES[3], LAYOUTS[3]
    state = game.new_initial_state(4, record_log=False)
    knight = next(c for c in lay.pieces if c.kind == "knights")
    space = next(zi for zi, s in lay.space_zone.items() if s.type == "city")
    state.move(knight, space, False)  # a knight on a city space
    with pytest.raises(AssertionError):
        check_position(state, lay)


def test_votes_are_secret_until_revealed() -> None:
    """The vote variable is owner-only: another player's vote shows as hidden."""
    state = GAMES[3].new_initial_state(1, record_log=False)
    state.vars["vote"] = [0, 2, 1]
    seen = state.observation(1)["variables"]["vote"]
    assert seen[1] == 2 and seen[0] == {"hidden": True} and seen[2] == {"hidden": True}
