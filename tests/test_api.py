"""The OpenSpiel-style API: illegal actions, observations, labels, action ids."""

from __future__ import annotations

import pytest

import meeple
from meeple.interpreter.game import Game


def test_illegal_action_is_refused_and_changes_nothing(sun4: Game) -> None:
    state = sun4.new_initial_state(5)
    before = state.to_json()
    legal = set(state.legal_actions())
    bad = next(a for a in range(sun4.num_distinct_actions()) if a not in legal)
    with pytest.raises(meeple.IllegalActionError) as e:
        state.apply_action(bad)
    assert f"action {bad} is not legal for P1" in str(e.value)
    assert state.to_json() == before


def test_no_action_after_the_end(sun4: Game) -> None:
    state = meeple.play(sun4, seed=2).state
    with pytest.raises(meeple.IllegalActionError, match="game is over"):
        state.apply_action(0)


def test_first_decision_is_the_start_players_bonus(sun4: Game) -> None:
    state = sun4.new_initial_state(7)
    assert state.current_player() == 0
    assert state.prompt() == "Bonus"
    labels = [label for _, label in state.legal_action_labels()]
    assert labels == [
        "draw 2 cards",
        "add a marker to The Courtyard",
        "add a marker to The Boneyard",
        "add a marker to The Alley Maze",
        "add a marker to The Spires",
    ]


def test_action_ids_are_stable_across_games(sun4: Game) -> None:
    a = dict((label, act) for act, label in sun4.new_initial_state(1).legal_action_labels())
    b = dict((label, act) for act, label in sun4.new_initial_state(99).legal_action_labels())
    assert a == b


def test_observation_hides_other_hands_and_the_deck(sun4: Game) -> None:
    state = sun4.new_initial_state(3)
    obs = state.observation(1)
    assert isinstance(obs["zones"]["hand[P2]"], list) and len(obs["zones"]["hand[P2]"]) == 3
    assert obs["zones"]["hand[P1]"] == {"count": 5}  # P1 drew 2 at the start of his turn
    assert obs["zones"]["minion_deck"] == {"count": 44 - 3 * 4 - 2}
    assert "decision" not in obs
    assert "decision" in state.observation(0)


def test_secret_legion_picks_are_not_in_other_players_logs(sun4: Game) -> None:
    state = meeple.play(sun4, seed=11).state
    private = [(who, text) for who, text in state.log if who != -1]
    assert private, "expected face-down Legion picks in the log"
    who, text = private[0]
    other = (who + 1) % 4
    assert text not in state.observation(other)["log"]
    assert text in state.observation(who)["log"]


def test_unsupported_player_count_is_a_clear_error() -> None:
    with pytest.raises(meeple.MeepleError, match="for 3 to 4 players, not 2"):
        meeple.load("shadow-of-the-sun", players=2)


def test_unknown_game_suggests_a_name() -> None:
    with pytest.raises(meeple.MeepleError) as e:
        meeple.load("shadow-of-the-son")
    assert "did you mean 'shadow-of-the-sun'?" in str(e.value)


def test_action_labels_and_the_rule_that_asks(sun4: Game) -> None:
    state = sun4.new_initial_state(7)
    first, label = state.legal_action_labels()[0]
    assert state.action_to_string(first) == label == "draw 2 cards"
    assert "not legal" in state.action_to_string(sun4.num_distinct_actions() + 5)
    span = state.decision_span()
    assert span is not None and span.file.endswith("game.yaml")
    lines = open(span.file).read().splitlines()
    assert lines[span.line - 1].strip() == "- choose: Bonus"
