"""A game is fully determined by rules, players, seed and actions; saving never changes it."""

from __future__ import annotations

import json
import random

from hypothesis import strategies as st
from sampling import fewer_examples

import meeple
from meeple.interpreter.game import Game
from meeple.runtime.state import State


def _actions_for(game: Game, seed: int, agent_seed: int) -> list[int]:
    state = game.new_initial_state(seed)
    rng = random.Random(agent_seed)
    out = []
    while not state.is_terminal():
        a = state.legal_actions()
        out.append(a[rng.randrange(len(a))])
        state.apply_action(out[-1])
    return out


def _replay(game: Game, seed: int, actions: list[int]) -> State:
    state = game.new_initial_state(seed)
    for a in actions:
        state.apply_action(a)
    return state


def test_same_seed_same_game(sun4: Game) -> None:
    a = meeple.play(sun4, seed=3)
    b = meeple.play(sun4, seed=3)
    assert a.state.log == b.state.log
    assert a.state.to_json() == b.state.to_json()


def test_different_seeds_differ(sun4: Game) -> None:
    a = meeple.play(sun4, seed=3).state.to_json()
    b = meeple.play(sun4, seed=4).state.to_json()
    assert a["zones"] != b["zones"]


def _save_and_resume_anywhere_continues_identically(seed: int, agent_seed: int, cut: float) -> None:
    game = meeple.load("shadow-of-the-sun", players=4)
    actions = _actions_for(game, seed, agent_seed)
    k = int(cut * len(actions))
    state = _replay(game, seed, actions[:k])
    saved = json.loads(json.dumps(state.to_json()))  # through real JSON text
    resumed = game.state_from_json(saved)
    assert resumed.to_json() == state.to_json()
    assert resumed.legal_action_labels() == state.legal_action_labels()
    for a in actions[k:]:
        resumed.apply_action(a)
    assert resumed.is_terminal()
    assert resumed.to_json() == _replay(game, seed, actions).to_json()


# the quick loop runs a few examples of each property, the deep run the full number
(
    test_save_and_resume_anywhere_continues_identically,
    test_save_and_resume_anywhere_continues_identically_in_full,
) = fewer_examples(
    _save_and_resume_anywhere_continues_identically,
    8,
    25,
    seed=st.integers(0, 10**9),
    agent_seed=st.integers(0, 10**9),
    cut=st.floats(0, 1),
)


def _save_at_every_decision_of_a_game(seed: int) -> None:
    game = meeple.load("shadow-of-the-sun", players=3)
    actions = _actions_for(game, seed, seed + 1)
    state = game.new_initial_state(seed)
    for a in actions:
        state = game.state_from_json(json.loads(json.dumps(state.to_json())))
        state.apply_action(a)
    assert state.to_json() == _replay(game, seed, actions).to_json()


test_save_at_every_decision_of_a_game, test_save_at_every_decision_of_a_game_in_full = (
    fewer_examples(_save_at_every_decision_of_a_game, 3, 10, seed=st.integers(0, 10**9))
)


def _clone_is_independent_and_equal(seed: int, cut: float) -> None:
    game = meeple.load("shadow-of-the-sun", players=4)
    actions = _actions_for(game, seed, 7)
    k = int(cut * len(actions))
    state = _replay(game, seed, actions[:k])
    copy = state.clone()
    assert copy.to_json() == state.to_json()
    for a in actions[k:]:
        copy.apply_action(a)
    assert state.to_json() == _replay(game, seed, actions[:k]).to_json()  # original untouched
    assert copy.to_json() == _replay(game, seed, actions).to_json()


test_clone_is_independent_and_equal, test_clone_is_independent_and_equal_in_full = fewer_examples(
    _clone_is_independent_and_equal, 6, 20, seed=st.integers(0, 10**9), cut=st.floats(0, 1)
)
