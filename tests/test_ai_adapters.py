"""The framework adapters pass their frameworks' own conformance tests (PettingZoo's api_test and
seed_test, Gymnasium's check_env, OpenSpiel's random_sim_test with serialization): one game in
the quick loop, every shipped game and variant in the deep run. Plus the facts the conformance
tests do not check: rewards once, at the end, equal to State.returns(); masks are the legal
actions; an illegal action is refused."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

from meeple import api
from meeple.dsl.errors import IllegalActionError, MeepleError
from meeple.dsl.variant import variant_files
from meeple.registry import game_ids, rules_root

pytest.importorskip("numpy")

QUICK = "harbour-guilds"  # the cheapest shipped game: ~30 decisions
MATRIX = [(g, None) for g in game_ids()] + [
    (g, f.stem) for g in game_ids() for f in variant_files(rules_root() / g)
]
IDS = [f"{g}:{v or 'printed'}" for g, v in MATRIX]


def _players(game: str, variant: str | None) -> int:
    """The seat count a variant is played with by default (two-players seats two)."""
    return api.load(game, None, variant).num_players()


# ---------------------------------------------------------------------------- PettingZoo
def _pettingzoo(game: str, variant: str | None) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from meeple.ai.pettingzoo_env import env

    players = _players(game, variant)
    with warnings.catch_warnings():
        # PettingZoo's advice on names (P1..Pn: meeple shows seats so) and on dict
        # observations (the mask must travel with them) are not failures
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(game, players, variant), num_cycles=1000)
        seed_test(lambda: env(game, players, variant), num_cycles=500)


def test_pettingzoo_conformance_quick() -> None:
    _pettingzoo(QUICK, None)


@pytest.mark.deep
@pytest.mark.parametrize(("game", "variant"), MATRIX, ids=IDS)
def test_pettingzoo_conformance(game: str, variant: str | None) -> None:
    _pettingzoo(game, variant)


def test_pettingzoo_rewards_once_at_the_end_and_masks_are_legal_actions() -> None:
    pytest.importorskip("pettingzoo")
    from meeple.ai.pettingzoo_env import env

    e = env(QUICK, 3)
    e.reset(seed=4)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    nonzero_steps = 0
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term:
            e.step(None)
            continue
        legal = e.state.legal_actions()
        assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == sorted(legal)
        other = e.possible_agents[(e.possible_agents.index(agent) + 1) % 3]
        assert not e.observe(other)["action_mask"].any()  # not his turn: no legal action
        e.step(int(rng.choice(legal)))
        nonzero_steps += any(r != 0 for r in e.rewards.values())
    assert nonzero_steps == 1  # one step pays: the last
    assert list(totals.values()) == [float(r) for r in e.state.returns()]
    assert sum(totals.values()) >= 1.0  # someone won


def test_pettingzoo_refuses_an_illegal_action() -> None:
    pytest.importorskip("pettingzoo")
    from meeple.ai.pettingzoo_env import env

    e = env(QUICK, 3)
    e.reset(seed=1)
    legal = set(e.state.legal_actions())
    bad = next(a for a in range(e.game.num_distinct_actions()) if a not in legal)
    before = e.state.to_json()
    with pytest.raises(IllegalActionError):
        e.step(bad)
    assert e.state.to_json() == before


def test_pettingzoo_step_or_observe_before_reset_is_refused() -> None:
    pytest.importorskip("pettingzoo")
    from meeple.ai.pettingzoo_env import env

    e = env(QUICK, 3)
    with pytest.raises(MeepleError, match="call reset"):
        e.step(0)
    with pytest.raises(MeepleError, match="call reset"):
        e.observe("P1")


# ---------------------------------------------------------------------------- Gymnasium
def _gymnasium(game: str, variant: str | None) -> None:
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    import meeple.ai.gymnasium_env  # noqa: F401  (registers meeple/Game-v0)

    players = _players(game, variant)
    for seat in (0, players - 1):
        # made through the registry, so check_env also tries every declared render mode
        env = gym.make(
            "meeple/Game-v0", game=game, players=players, variant=variant, seat=seat,
            render_mode="ansi",
        )  # fmt: skip
        check_env(env.unwrapped)


def test_gymnasium_conformance_quick() -> None:
    _gymnasium(QUICK, None)


@pytest.mark.deep
@pytest.mark.parametrize(("game", "variant"), MATRIX, ids=IDS)
def test_gymnasium_conformance(game: str, variant: str | None) -> None:
    _gymnasium(game, variant)


def test_gymnasium_reward_once_opponents_seeded_and_illegal_actions() -> None:
    pytest.importorskip("gymnasium")
    from meeple.ai.gymnasium_env import MeepleEnv

    env = MeepleEnv(QUICK, 3, seat=1)
    rewards = []
    for _ in range(2):  # the same seed twice: the same game, opponents included
        obs, _ = env.reset(seed=9)
        rng = np.random.default_rng(1)
        got, done = [], False
        while not done:
            assert env.state is not None and env.state.current_player() == 1
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, done, trunc, _ = env.step(a)
            got.append(r)
            assert not trunc
        rewards.append(got)
        assert env.state is not None and got[-1] == env.state.returns()[1]
    assert rewards[0] == rewards[1] and all(r == 0.0 for r in rewards[0][:-1])
    env.reset(seed=2)
    assert env.state is not None
    bad = next(a for a in range(env.action_space.n) if a not in env.state.legal_actions())
    _, r, done, _, info = env.step(bad)
    assert (r, done, info["illegal_action"]) == (-1.0, True, bad)
    strict = MeepleEnv(QUICK, 3, seat=0, illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError):
        strict.step(bad if bad not in strict.action_masks().nonzero()[0] else -1)
    with pytest.raises(MeepleError, match="not a seat"):
        MeepleEnv(QUICK, 3, seat=3)


# ---------------------------------------------------------------------------- OpenSpiel
def _openspiel(game: str, variant: str | None, sims: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from meeple.ai import openspiel_game

    name = openspiel_game.short_name(api.load_checked(game).game.id)
    params = {"players": _players(game, variant), "variant": variant or "", "deals": 50}
    pyspiel.random_sim_test(
        pyspiel.load_game(name, params), num_sims=sims, serialize=True, verbose=False
    )


def test_openspiel_conformance_quick() -> None:
    _openspiel(QUICK, None, 3)


@pytest.mark.deep
@pytest.mark.parametrize(("game", "variant"), MATRIX, ids=IDS)
def test_openspiel_conformance(game: str, variant: str | None) -> None:
    _openspiel(game, variant, 3)


def test_openspiel_chance_picks_the_seed_and_returns_come_at_the_end() -> None:
    pyspiel = pytest.importorskip("pyspiel")

    game = pyspiel.load_game("meeple_harbour_guilds", {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    state.apply_action(17)
    ours = api.load(QUICK, 3, backend="compiled").new_initial_state(17)
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(ours.legal_actions())  # ascending, the same set
        assert state.rewards() == [0.0, 0.0, 0.0]
        a = int(rng.choice(legal))
        state.apply_action(a)
        ours.apply_action(a)
    assert state.returns() == ours.returns() and state.rewards() == ours.returns()
    copy = pickle.loads(pickle.dumps(state))  # OpenSpiel's pickling, through to_json
    assert str(copy) == str(state) and copy.history() == state.history()


def test_gymnasium_opponents_from_a_factory_or_a_list() -> None:
    pytest.importorskip("gymnasium")
    from meeple.ai.agents import GreedyAgent
    from meeple.ai.gymnasium_env import MeepleEnv

    made: list[tuple[int, int]] = []

    def factory(seat: int, seed: int) -> GreedyAgent:
        made.append((seat, seed))
        return GreedyAgent(seed * 1000 + seat)

    env = MeepleEnv(QUICK, 3, seat=1, opponents=factory)
    obs, _ = env.reset(seed=5)
    assert made == [(0, 5), (2, 5)]  # the learner's seat gets no agent
    done = False
    while not done:
        obs, reward, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.state is not None and reward == env.state.returns()[1]
    with pytest.raises(MeepleError, match="2 agents given for a 3-player game"):
        MeepleEnv(QUICK, 3, opponents=[GreedyAgent(), GreedyAgent()]).reset(seed=0)


def test_openspiel_rl_environment_plays_a_game() -> None:
    pytest.importorskip("pyspiel")
    from open_spiel.python import rl_environment

    from meeple.ai import openspiel_game  # noqa: F401  (registers the games)

    env = rl_environment.Environment("meeple_harbour_guilds", players=3)
    ts = env.reset()
    rng = np.random.default_rng(0)
    steps = 0
    while not ts.last():
        p = ts.observations["current_player"]
        ts = env.step([int(rng.choice(ts.observations["legal_actions"][p]))])
        steps += 1
    assert steps > 10 and sorted(ts.rewards)[-1] == 1.0 and set(ts.rewards) <= {0.0, 1.0}


# ---------------------------------------------------------------------------- API misuse
def test_gymnasium_episode_ended_by_an_illegal_action_takes_no_more_steps() -> None:
    pytest.importorskip("gymnasium")
    from meeple.ai.gymnasium_env import MeepleEnv

    env = MeepleEnv(QUICK, 3, seat=0)
    env.reset(seed=2)
    assert env.state is not None
    legal = env.state.legal_actions()
    bad = next(a for a in range(env.action_space.n) if a not in legal)
    obs, r, done, _, _ = env.step(bad)
    assert (r, done) == (-1.0, True)
    # no action is legal any more: the final observation's mask and action_masks() say so
    assert not obs["action_mask"].any() and not env.action_masks().any()
    before = env.state.to_json()
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.step(legal[0])
    assert env.state.to_json() == before
    obs, _ = env.reset(seed=2)  # a new episode plays again
    assert obs["action_mask"][legal].all() and env.action_masks()[legal].all()
    env.step(legal[0])


def test_gymnasium_refuses_actions_that_are_not_integers() -> None:
    pytest.importorskip("gymnasium")
    from meeple.ai.gymnasium_env import MeepleEnv

    env = MeepleEnv(QUICK, 3, seat=0)
    env.reset(seed=2)
    assert env.state is not None
    legal = env.state.legal_actions()
    before = env.state.to_json()
    for wrong in (str(legal[0]), float(legal[0]) + 0.5, None, True):
        with pytest.raises(MeepleError, match="an action is an integer action id"):
            env.step(wrong)
        assert env.state.to_json() == before  # refused, not played as an illegal move
    _, r, _, _, info = env.step(np.int64(legal[0]))  # a numpy integer is an action
    assert "illegal_action" not in info and env.state.to_json() != before


def test_gymnasium_opponents_by_agent_name() -> None:
    pytest.importorskip("gymnasium")
    from meeple.ai.gymnasium_env import MeepleEnv
    from meeple.interpreter.agents import RandomAgent

    by_name = MeepleEnv(QUICK, 3, seat=1, opponents="random")
    by_name.reset(seed=4)
    assert [type(a).__name__ for a in by_name._agents] == ["RandomAgent", "NoneType", "RandomAgent"]
    default = MeepleEnv(QUICK, 3, seat=1)  # None: the same random players, the same seeds
    default.reset(seed=4)
    assert by_name.state is not None and default.state is not None
    assert by_name.state.to_json() == default.state.to_json()
    mixed = MeepleEnv(QUICK, 3, seat=0, opponents=[None, "greedy", RandomAgent(1)])
    mixed.reset(seed=4)
    assert [type(a).__name__ for a in mixed._agents] == ["NoneType", "GreedyAgent", "RandomAgent"]
    with pytest.raises(MeepleError, match="unknown agent 'randon'"):
        MeepleEnv(QUICK, 3, opponents="randon")


def test_pettingzoo_refuses_seeds_and_actions_that_are_not_integers() -> None:
    pytest.importorskip("pettingzoo")
    from meeple.ai.pettingzoo_env import env

    e = env(QUICK, 3)
    for wrong in ("x", 1.5, True):
        with pytest.raises(MeepleError, match="a seed is a whole number"):
            e.reset(seed=wrong)
    e.reset(seed=np.int64(7))
    assert e.game_seed == 7
    before = e.state.to_json()
    with pytest.raises(MeepleError, match="an action is an integer action id"):
        e.step("0")
    assert e.state.to_json() == before


def test_gymnasium_refuses_seeds_that_are_not_integers() -> None:
    pytest.importorskip("gymnasium")
    from meeple.ai.gymnasium_env import MeepleEnv

    env = MeepleEnv(QUICK, 3)
    for wrong in ("x", 1.5):
        with pytest.raises(MeepleError, match="a seed is a whole number"):
            env.reset(seed=wrong)


def test_openspiel_refuses_a_chance_outcome_that_is_not_offered() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from meeple.ai import openspiel_game  # noqa: F401  (registers the games)

    game = pyspiel.load_game("meeple_harbour_guilds", {"players": 3, "deals": 1000})
    for outcome in (5000, 1000, -2):  # -1 is kInvalidAction, which OpenSpiel refuses itself
        state = game.new_initial_state()
        with pytest.raises(Exception, match=f"chance outcome {outcome} is not a seed"):
            state.apply_action(outcome)
        assert state.is_chance_node()
    state.apply_action(999)
    assert not state.is_chance_node()
