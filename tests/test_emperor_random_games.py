"""In the Shadow of the Emperor, 2 to 4 players: random games end, never dead-end, keep every
piece on exactly one space or in a supply, and keep thalers within 0..12.

The deep run (``pytest -m deep``) plays 2,000 games per player count in all: a hypothesis test
per count (varied seeds, every check at every decision) plus a plain seeded loop (the game's
checks at every decision, the engine's every-card check at the end of each game). The quick loop
plays three seeded games per count."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.interpreter.game import Game
from meeple.runtime.state import TERMINAL, State

GAME_ID = "shadow-of-the-emperor"
# Thousands of games: on the compiled back end, which tests/test_codegen.py proves equal to the
# interpreter state by state (and which plays them about twice as fast).
GAMES: dict[int, Game] = {n: meeple.load(GAME_ID, n, backend="compiled") for n in (2, 3, 4)}
HYPOTHESIS_GAMES = 150
LOOP_GAMES = 2000 - HYPOTHESIS_GAMES
MAX_DECISIONS = 2000
PIECES = ("aristocrats", "knights", "cities", "empire_cities")


# which pieces may stand on which type of space
ALLOWED = {
    "elector": {"aristocrats"},
    "beside": {"aristocrats"},
    "aristocrat": {"aristocrats", "knights"},
    "castle": {"knights"},
    "city": {"cities", "empire_cities"},
}
STAGES = {15, 25, 35, 45}


class Layout:
    """Zone indexes of one game: which zones are spaces, which are supplies."""

    def __init__(self, game: Game) -> None:
        prog = game.program
        self.prog = prog
        base, spaces = prog.zone_base, prog.kind_cards["spaces"]
        self.spaces = [
            (base["at"] + s.ordinal, s, ALLOWED[s.type], s.electorate.ordinal) for s in spaces
        ]
        self.throne = base["throne"]
        self.aside = base["aside"]
        self.empire_supply = base["empire_supply"]
        self.supply = [(base["supply"] + p, p) for p in range(prog.num_players)]
        self.pieces = [c for k in PIECES for c in prog.kind_cards[k]]


LAYOUTS = {n: Layout(g) for n, g in GAMES.items()}


def check_position(state: State, lay: Layout, every_card: bool = True) -> None:
    """Every piece on exactly one space (or the throne) or in its supply; one piece a space, of a
    kind that may stand there; thalers within the track; life stages on the board; Barons only on
    spiritual elector spaces; closed electorates empty.

    The pieces in those places are counted: with the engine's check that every card lies in
    exactly one zone (``every_card``), the count proves that no piece is anywhere else."""
    if every_card:
        state.check_invariants()
    v, zones = state.vars, state.zones
    thalers, closed, couple, age = v["thalers"], v["closed"], v["couple"], v["age"]
    assert min(thalers) >= 0 and max(thalers) <= 12, thalers
    placed = 0
    for zi, s, allowed, e in lay.spaces:
        z = zones[zi]
        if not z:
            continue
        assert len(z) == 1, f"{s.name} holds {len(z)} pieces"
        x = z[0]
        placed += 1
        assert x.kind in allowed, f"{x.name} on {s.name}"
        assert not closed[e], f"a piece stands in the closed electorate {s.electorate.name}"
        if x.kind == "aristocrats":
            assert age[x.ordinal] in STAGES, f"{x.name} aged {age[x.ordinal]}"
            if s.type == "elector" and s.electorate.spiritual:
                assert not couple[x.ordinal], f"a Couple is elector of {s.electorate.name}"
    throne, aside = zones[lay.throne], zones[lay.aside]
    assert len(throne) <= 1
    assert all(x.kind == "aristocrats" and age[x.ordinal] in STAGES for x in throne)
    # 'aside' holds a piece only while its new place is being chosen
    assert len(aside) <= (1 if state.pending is not None else 0)
    assert all(x.kind == "aristocrats" for x in aside)
    assert all(x.kind == "empire_cities" for x in zones[lay.empire_supply])
    placed += len(throne) + len(aside) + len(zones[lay.empire_supply])
    for zi, p in lay.supply:
        for x in zones[zi]:
            assert x.owner == p and x.kind in PIECES, f"{x.name} in the supply of P{p + 1}"
            if x.kind == "aristocrats":
                assert age[x.ordinal] == 0 and not couple[x.ordinal]
        placed += len(zones[zi])
    assert placed == len(lay.pieces), f"{len(lay.pieces) - placed} pieces are elsewhere"


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


test_two_player_random_games = pytest.mark.deep(_hypothesis_test(2))
test_three_player_random_games = pytest.mark.deep(_hypothesis_test(3))
test_four_player_random_games = pytest.mark.deep(_hypothesis_test(4))


@pytest.mark.parametrize(
    ("players", "games"),
    [(n, 3) for n in (2, 3, 4)]
    + [pytest.param(n, LOOP_GAMES, marks=pytest.mark.deep) for n in (2, 3, 4)],
)
def test_seeded_random_games(players: int, games: int) -> None:
    """The engine's every-card check runs at the end of each game here (it is the costly part);
    the game's own position check still runs after every decision."""
    for seed in range(games):
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
    space = next(zi for zi, s, _, _ in lay.spaces if s.type == "city")
    state.move(knight, space, False)  # a knight on a city space
    with pytest.raises(AssertionError, match="on "):
        check_position(state, lay)
    state.move(knight, lay.prog.zone_base["box"], False)  # a knight in the box
    with pytest.raises(AssertionError, match="elsewhere"):
        check_position(state, lay)


def test_votes_are_secret_until_revealed() -> None:
    """The vote variable is owner-only: another player's vote shows as hidden."""
    state = GAMES[3].new_initial_state(1, record_log=False)
    state.vars["vote"] = [0, 2, 1]
    seen = state.observation(1)["variables"]["vote"]
    assert seen[1] == 2 and seen[0] == {"hidden": True} and seen[2] == {"hidden": True}
