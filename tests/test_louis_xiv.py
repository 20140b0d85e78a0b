"""Louis XIV: random games for 2, 3 and 4 players end, never dead-end and conserve everything;
the placement path refuses a fork with a reason; every rulebook example has a scenario."""

from __future__ import annotations

import random

import pytest
from conftest import BrokenGame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sampling import every_third

import meeple
from meeple.interpreter.game import Game
from meeple.registry import rules_root
from meeple.runtime.state import TERMINAL, State
from meeple.scenarios import run_scenario, scenario_files

# Thousands of games: on the compiled back end, which tests/test_codegen.py proves equal to the
# interpreter state by state (and which plays them about twice as fast).
GAMES = {n: meeple.load("louis-xiv", n, backend="compiled") for n in (2, 3, 4)}
MAX_DECISIONS = 3000
BANK = 72  # 22 one-gold and 10 five-gold coins
COATS = 60
HYPOTHESIS_GAMES = 150  # per player count, invariants checked after every decision
LOOP_GAMES = 2000 - HYPOTHESIS_GAMES  # per player count, conservation checked at the end


def _zone(game: Game, state: State, name: str, index: int = 0) -> list:
    return state.zones[game.program.zone_base[name] + index]


def _conserved(game: Game, state: State) -> None:
    state.check_invariants()  # markers, tokens, coats and cards: each in exactly one zone
    assert sum(state.vars["gold"]) + state.vars["bank"] == BANK, "Louis d'or created or lost"
    assert all(g >= 0 for g in state.vars["gold"]) and state.vars["bank"] >= 0


def _play(players: int, seed: int, agent_seed: int, every_step: bool) -> State:
    game = GAMES[players]
    state = game.new_initial_state(seed, record_log=False)
    rng = random.Random(agent_seed)
    n = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions, f"seat {state.current_player()} must act but has no legal action"
        assert len(set(actions)) == len(actions), "duplicate action ids"
        state.apply_action(actions[rng.randrange(len(actions))])
        if every_step:
            _conserved(game, state)
        n += 1
        assert n < MAX_DECISIONS, "game did not end"
    assert state.current_player() == TERMINAL
    _conserved(game, state)
    seats = range(players)
    assert state.vars["round"] == 4
    # the end-of-game conversion leaves no marker on a tile, no card or token in a hand
    assert not any(_zone(game, state, "markers_on", i) for i in range(12))
    assert not any(_zone(game, state, "tokens_held", p) for p in seats)
    assert not any(_zone(game, state, "influence_hand", p) for p in seats)
    held = sum(
        len(_zone(game, state, "coats_held", p)) + len(_zone(game, state, "bonus_coats", p))
        for p in seats
    )
    assert held + len(_zone(game, state, "coat_pile")) == COATS
    for p in seats:
        coats = (
            len(_zone(game, state, "coats_held", p))
            + len(_zone(game, state, "bonus_coats", p))
            + state.vars["extra_coats"][p]
        )
        assert state.vars["score"][p] == coats + 5 * len(_zone(game, state, "missions_done", p))
    assert state.winners()
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_few_random_games_checked_after_every_decision(players: int) -> None:
    """The quick loop's sample; the deep run plays 2,000 games per player count (below)."""
    for seed in range(2):
        _play(players, seed, seed + 7919, every_step=True)


@pytest.mark.deep
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_conserve_everything(players: int) -> None:
    for seed in range(LOOP_GAMES):
        _play(players, seed, seed + 7919, every_step=False)


@pytest.mark.deep
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_checked_after_every_decision(players: int) -> None:
    @settings(
        max_examples=HYPOTHESIS_GAMES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(seed=st.integers(0, 2**63), agent_seed=st.integers(0, 2**32))
    def run(seed: int, agent_seed: int) -> None:
        _play(players, seed, agent_seed, every_step=True)

    run()


def test_a_fork_from_le_grand_conde_is_refused_with_a_reason() -> None:
    outcome = run_scenario(rules_root() / "louis-xiv" / "scenarios" / "placement-no-fork.yaml")
    assert outcome.passed, outcome.failures
    state = outcome.state
    assert state is not None
    labels = {label: a for a, label in state.legal_action_labels()}
    assert "jump to Le Grand Dauphin" in labels and "jump to Anne of Austria" not in labels
    # the id "jump to Anne of Austria" has at this option (ids are per option and card type)
    types = {c.name: c.type_id for c in GAMES[4].program.cards}
    jump_anne = (
        labels["jump to Le Grand Dauphin"] - types["Le Grand Dauphin"] + types["Anne of Austria"]
    )
    with pytest.raises(meeple.IllegalActionError, match="is not legal for P1 now"):
        state.apply_action(jump_anne)


def test_every_rulebook_example_has_a_scenario() -> None:
    sources = " ".join(p.read_text() for p in scenario_files(rules_root() / "louis-xiv"))
    for example in (
        "Courtier influence cards (Example, figures 2-4)",
        "Courtier influence cards (Example, figure 5)",
        "Courtier influence cards (Example, figure 5 note)",
        "Examples of evaluation (first pair, first case)",
        "Examples of evaluation (first pair, second case)",
        "Examples of evaluation (second pair, first case)",
        "Examples of evaluation (second pair, second case)",
        "Examples of evaluation (third case)",
        "examples with Louis XIV, second pair, first case",
        "examples with Louis XIV, second pair, second case",
        "First, once, Example",
        "Phase 4 Missions (Example)",
        "End of the game (Example)",
    ):
        assert example in sources, example


# scenario, text in game.yaml, its broken replacement: the quick loop checks every third,
# the deep run the others (tests/sampling.py)
BROKEN_RULES = [
    # the path may no longer jump (or may fork back): the adjacency example fails
    (
        "placement-path",
        "adjacent: [anne, montespan], gift: conde",
        "adjacent: [montespan], gift: conde",
    ),
    (
        "placement-no-fork",
        "adjacent: [dauphin, conde], gift: crown",
        "adjacent: [dauphin, conde, anne], gift: crown",
    ),
    # Louis XIV without the crown for first place
    ("louis-gold", "          - take_token(leader, 'crown')\n", ""),
    # a tie for second still rewarded
    ("louis-tie-second", "most_influence\n    ties: nobody", "most_influence\n    ties: all"),
    # the leader's markers to the personal supply instead of the general one
    (
        "evaluation-gold-leader",
        "          - to_general(leader, t)\n          - flip = true\n",
        "          - flip = true\n",
    ),
    # a markers tile that needs one marker more
    (
        "evaluation-markers",
        'value: "faces[t, side_up(t)].need"',
        'value: "1 + faces[t, side_up(t)].need"',
    ),
    # gold traded one coat per 2 Louis d'or
    (
        "end-conversion",
        "gold_per_coat: {value: 3",
        "gold_per_coat: {value: 2",
    ),
    # the ability no longer gives first place
    ("first-once", '"first_left[q] -= 1", leader = q]', '"first_left[q] -= 1"]'),
    # issue 16 (docs/games/louis-xiv.md, first-once-second-place): the player with the next
    # count, not the players tied with the promoted leader, taken as the second place
    (
        "first-once-tie-for-second",
        "second_influence(t) if count(leaders) == 1\n"
        "            else [q for q in leaders if q != leader] if count(leaders) == 2 else []",
        "second_influence(t)",
    ),
    (
        "first-once-two-way-tie",
        "second_influence(t) if count(leaders) == 1\n"
        "            else [q for q in leaders if q != leader] if count(leaders) == 2 else []",
        "second_influence(t)",
    ),
    # ... or nobody second at all after the ability
    (
        "first-once-two-way-tie",
        "[q for q in leaders if q != leader] if count(leaders) == 2",
        "[] if count(leaders) == 2",
    ),
    # token-exchange-any-time: the exchange offered only in the owner's own mission turn
    ("token-exchange-any-time", "          - exchange_window(p)\n", ""),
]


@pytest.mark.parametrize(("scenario", "old", "new"), every_third(BROKEN_RULES))
def test_scenario_catches_a_broken_rule(
    broken_game: BrokenGame, scenario: str, old: str, new: str
) -> None:
    game_dir = broken_game("louis-xiv", old, new, once=True)
    outcome = run_scenario(game_dir / "scenarios" / f"{scenario}.yaml")
    assert not outcome.passed
