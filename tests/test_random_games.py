"""Property tests over many random games: they end, conserve every card, never dead-end."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.runtime.state import TERMINAL

# Thousands of games: on the compiled back end, which tests/test_codegen.py proves equal to the
# interpreter state by state (and which plays them about twice as fast).
GAMES = {n: meeple.load("shadow-of-the-sun", n, backend="compiled") for n in (3, 4)}
MAX_DECISIONS = 5000


def _play_checked(players: int, seed: int, agent_seed: int) -> int:
    game = GAMES[players]
    state = game.new_initial_state(seed, record_log=False)
    rng = random.Random(agent_seed)
    n = 0
    state.check_invariants()
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions, f"seat {state.current_player()} must act but has no legal action"
        assert state.current_player() in state.players
        assert len(set(actions)) == len(actions), "duplicate action ids"
        assert all(0 <= a < game.num_distinct_actions() for a in actions)
        state.apply_action(actions[rng.randrange(len(actions))])
        state.check_invariants()
        n += 1
        assert n < MAX_DECISIONS, "game did not end"
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    # supplies never negative, the game ended by one of the two rulebook conditions
    day_deck = state.zones[game.program.zone_base["day_deck"]]
    houses = [state.zones[game.program.zone_base["house"] + p] for p in state.players]
    assert not day_deck or any(not h for h in houses)
    assert state.winners()
    assert sum(state.returns()) >= 1
    return n


@pytest.mark.deep
@settings(
    max_examples=1000, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=st.integers(0, 2**63), agent_seed=st.integers(0, 2**32))
def test_four_player_random_games_end_and_conserve_cards(seed: int, agent_seed: int) -> None:
    _play_checked(4, seed, agent_seed)


@pytest.mark.deep
@settings(
    max_examples=1000, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=st.integers(0, 2**63), agent_seed=st.integers(0, 2**32))
def test_three_player_random_games_end_and_conserve_cards(seed: int, agent_seed: int) -> None:
    _play_checked(3, seed, agent_seed)


@pytest.mark.parametrize("players", [3, 4])
def test_a_few_random_games_end_and_conserve_cards(players: int) -> None:
    """The quick loop's sample; the deep run plays 1,000 per player count (above)."""
    for seed in range(3):
        _play_checked(players, seed, seed + 1)


def test_invariant_check_catches_a_lost_card(sun4) -> None:
    state = sun4.new_initial_state(1)
    hand = state.zones[sun4.program.zone_base["hand"]]
    hand.pop()  # a card vanishes
    try:
        state.check_invariants()
    except meeple.RuleError as e:
        assert "in 0 places" in str(e)
    else:
        raise AssertionError("a lost card went unnoticed")
