"""meeple.ai: observations, the action table, sorted legal actions, copying and pickling."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys

import pytest

import meeple
from meeple.runtime.ops import PickOp

np = pytest.importorskip("numpy")
ai = pytest.importorskip("meeple.ai")

SUN = "shadow-of-the-sun"


def _play(state: meeple.api.State, n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    done = []
    for _ in range(n):
        if state.is_terminal():
            break
        a = state.legal_actions()
        x = a[rng.randrange(len(a))]
        state.apply_action(x)
        done.append(x)
    return done


@pytest.fixture(scope="module")
def sun_c() -> meeple.api.Game:
    return meeple.load(SUN, players=4, backend="compiled")


@pytest.fixture(scope="module")
def sun_i() -> meeple.api.Game:
    return meeple.load(SUN, players=4)


# ------------------------------------------------------------------ observations
def test_observation_in_bounds_and_equal_on_both_back_ends(sun_c, sun_i) -> None:
    spec_c, spec_i = ai.observation_spec(sun_c), ai.observation_spec(sun_i)
    assert spec_c.shape == spec_i.shape and (spec_c.low == spec_i.low).all()
    assert (spec_c.high == spec_i.high).all()
    a, b = sun_c.new_initial_state(3), sun_i.new_initial_state(3)
    rng = random.Random(3)
    steps = 0
    while not a.is_terminal():
        for seat in range(4):
            x = spec_c.encode(a, seat)
            assert x.shape == spec_c.shape and x.dtype == np.float32
            assert (x >= spec_c.low).all() and (x <= spec_c.high).all()
            assert (x == spec_i.encode(b, seat)).all()
        acts = a.legal_actions()
        act = acts[rng.randrange(len(acts))]
        a.apply_action(act)
        b.apply_action(act)
        steps += 1
    assert steps > 50
    x = spec_c.encode(a, 0)
    assert x[spec_c.field("over").slice][0] == 1


def test_observation_shows_own_hand_and_hides_others(sun_c) -> None:
    spec = ai.observation_spec(sun_c)
    s = sun_c.new_initial_state(1)
    prog = s.prog
    hand2 = prog.zone_base["hand"] + 1  # P2's hand
    deck = prog.zone_base["minion_deck"]
    # a different minion from the (hidden) deck swapped into P2's hand: P1 cannot tell
    c = s.zones[hand2][0]
    j = next(i for i, d in enumerate(s.zones[deck]) if d.type_id != c.type_id)
    t = s.clone()
    t.own_all_piles()  # (the piles are changed in place below: not those shared with s)
    d = t.zones[deck][j]
    t.zones[hand2][0], t.zones[deck][j] = d, c
    t.loc[c.id], t.loc[d.id] = deck, hand2
    t.check_invariants()
    assert (spec.encode(s, 0) == spec.encode(t, 0)).all()
    assert (spec.encode(s, 2) == spec.encode(t, 2)).all()
    assert not (spec.encode(s, 1) == spec.encode(t, 1)).all()  # P2 sees his own hand
    own = spec.field("zone hand[P2] cards").slice
    x = spec.encode(s, 1)[own]
    assert x.sum() == len(s.zones[hand2]) == 3
    assert spec.encode(s, 0)[own].sum() == 0
    assert spec.encode(s, 0)[spec.field("zone hand[P2] count").slice][0] == 3


def test_observation_and_information_state_strings(sun_c) -> None:
    s = sun_c.new_initial_state(2)
    _play(s, 30, 2)
    text = ai.observation_string(s, 0)
    hand = s.prog.zone_base["hand"]
    assert "hand[P1]: " + ", ".join(c.name for c in s.zones[hand]) in text
    assert f"hand[P2]: {len(s.zones[hand + 1])} cards, unseen" in text
    info0, info1 = ai.information_state_string(s, 0), ai.information_state_string(s, 1)
    public = {t for who, t in s.log if who == -1}
    secret = [t for who, t in s.log if who == 1 and t not in public]
    assert secret and all(t in info1 for t in secret)
    assert not any(t in info0.split("\n") for t in secret)
    assert info1.endswith(ai.observation_string(s, 1))
    quiet = sun_c.new_initial_state(2, record_log=False)
    with pytest.raises(meeple.MeepleError, match="no log"):
        ai.information_state_string(quiet, 0)


# ------------------------------------------------------------------ actions
def test_action_table_labels_every_id_and_legal_actions_sorted(sun_c, sun_i) -> None:
    labels = ai.action_labels(sun_c)
    assert labels == ai.action_labels(sun_i)
    assert len(labels) == sun_c.num_distinct_actions() == ai.num_distinct_actions(sun_c)
    assert len(set(labels)) == len(labels)
    s = sun_c.new_initial_state(4)
    rng = random.Random(4)
    unsorted = 0  # decisions whose rules list their options out of id order
    while not s.is_terminal():
        acts = s.legal_actions()
        assert acts == sorted(acts) and len(set(acts)) == len(acts)
        shown = dict(s.legal_action_labels())
        unsorted += list(shown) != acts
        assert sorted(shown) == acts
        for a in acts:  # the table names the same rule and option as the state does
            assert s.prompt().startswith(labels[a].split(":")[0].split("{")[0])
            if isinstance(s.pending.op, PickOp) or shown[a] == "done":
                assert labels[a].endswith(": " + shown[a])
        mask = ai.legal_action_mask(s)
        assert mask.sum() == len(acts) and all(mask[a] == 1 for a in acts)
        s.apply_action(acts[rng.randrange(len(acts))])
    assert unsorted > 0


def test_max_game_length_bounds_random_games(sun_c) -> None:
    bound = ai.max_game_length(sun_c)
    assert bound == ai.MEASURED_MAX_LENGTH[(SUN, "Shadow of the Sun", 4)]
    for seed in range(500, 505):  # seeds the measurement did not use
        s = sun_c.new_initial_state(seed, record_log=False)
        assert len(_play(s, 10_000, seed)) <= bound // 2 * 1.5


# ------------------------------------------------------------------ copying and pickling
@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_pickled_state_resumes_to_the_same_game(backend: str) -> None:
    game = meeple.load(SUN, players=4, backend=backend)
    s = game.new_initial_state(11)
    _play(s, 70, 11)
    t = pickle.loads(pickle.dumps(s))
    assert t is not s and t.prog is s.prog and t.to_json() == s.to_json()
    u = copy.deepcopy(s)
    assert u.prog is s.prog and u.to_json() == s.to_json()
    v = copy.copy(s)
    assert v.zones is not s.zones and v.to_json() == s.to_json()
    rest = _play(s, 10_000, 12)
    for other in (t, u, v):
        for a in rest:
            other.apply_action(a)
        assert other.to_json() == s.to_json() and other.is_terminal()
    assert pickle.loads(pickle.dumps(game)) is game


def test_copy_is_independent(sun_c) -> None:
    s = sun_c.new_initial_state(5)
    before = s.to_json()
    t = copy.deepcopy(s)
    _play(t, 20, 5)
    assert s.to_json() == before


def test_state_of_a_game_not_from_load_refuses_to_pickle(sun_c) -> None:
    game = meeple.api.Game(sun_c.checked, 4)
    with pytest.raises(pickle.PicklingError, match="meeple.load"):
        pickle.dumps(game.new_initial_state(0))


@pytest.mark.deep
def test_pickle_resumes_in_another_process(sun_c) -> None:
    s = sun_c.new_initial_state(21)
    _play(s, 40, 21)
    data = pickle.dumps(s)
    rest = _play(s.clone(), 10_000, 22)
    code = (
        "import pickle, sys\n"
        "s = pickle.loads(sys.stdin.buffer.read())\n"
        f"for a in {rest!r}: s.apply_action(a)\n"
        "print(s.scores(), s.winners())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], input=data, capture_output=True, timeout=120, check=True
    )
    end = s.clone()
    for a in rest:
        end.apply_action(a)
    assert out.stdout.decode().strip() == f"{end.scores()} {end.winners()}"


def test_encode_without_asking_for_the_spec_first() -> None:
    game = meeple.load("harbour-guilds", players=3, backend="compiled")
    s = game.new_initial_state(0)
    x = ai.encode(s, 2)
    assert (x == ai.observation_spec(game).encode(s, 2)).all()


@pytest.mark.deep
def test_max_game_length_of_a_variant_is_measured() -> None:
    game = meeple.load("harbour-guilds", players=2, variant="two-guilds", backend="compiled")
    assert (game.id, game.name, 2) not in ai.MEASURED_MAX_LENGTH
    bound = ai.max_game_length(game)
    assert bound == 2 * ai.actions.longest_random_game(game, ai.actions.MEASURE_GAMES)
    s = game.new_initial_state(1000, record_log=False)
    assert len(_play(s, 10_000, 1000)) <= bound
