"""Saved states are verified, not trusted (issue 11, section 6).

A saved state carries its format version, and its pending decision is derived again from the
rules and the saved position when it is loaded, on both back ends: an edited player to act,
shifted action ids or another player's hand offered are refused with a MeepleError.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import strategies as hst
from sampling import fewer_examples

import meeple
from meeple.dsl.errors import MeepleError
from meeple.runtime.ops import ChooseOp, PickOp
from meeple.runtime.state import SAVE_FORMAT, State

BACKENDS = ["interpreter", "compiled"]
_games: dict[tuple[str, str], Any] = {}


def _game(game_id: str, backend: str) -> Any:
    key = (game_id, backend)
    if key not in _games:
        _games[key] = meeple.load(game_id, 4, backend=backend)
    return _games[key]


def _play_until(game: Any, seed: int, want: Any) -> State:
    """A random game of seed ``seed`` played until ``want(state)`` holds at a decision."""
    rng = random.Random(seed)
    st = game.new_initial_state(seed)
    while not st.is_terminal():
        if want(st):
            return st
        acts = st.legal_actions()
        st.apply_action(acts[rng.randrange(len(acts))])
    raise AssertionError("no such decision in this game")


def _hand_pick(st: State) -> bool:
    """A pick from the hand of its player, with another seat holding cards of other types."""
    d = st.pending
    if d is None or not isinstance(d.op, PickOp) or d.frame is None or d.frame.data:
        return False
    mine = st.prog.zone_base["hand"] + d.player
    offered = {v.type_id for v in d.values if v != "done"}
    return st.loc[d.values[0].id] == mine and any(
        {c.type_id for c in st.zones[st.prog.zone_base["hand"] + q]} - offered
        for q in st.players
        if q != d.player
    )


def _choice(st: State) -> bool:
    d = st.pending
    return d is not None and isinstance(d.op, ChooseOp) and len(st.players) > 1


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fmt", [None, 0, 2, "1", True, 1.0])
def test_another_format_is_refused_by_name(backend: str, fmt: object) -> None:
    game = _game("shadow-of-the-sun", backend)
    data = game.new_initial_state(1).to_json()
    assert data["format"] == SAVE_FORMAT == 1
    if fmt is None:
        del data["format"]
        said = "without a format version"
    else:
        data["format"] = fmt
        said = f"in format {fmt!r}"
    with pytest.raises(MeepleError, match="this meeple reads format 1") as e:
        game.state_from_json(data)
    assert f"this state was saved {said};" in e.value.message


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pick_offering_another_players_hand_is_refused(backend: str) -> None:
    game = _game("shadow-of-the-sun", backend)
    st = _play_until(game, 2, _hand_pick)
    d = st.pending
    assert d is not None and isinstance(d.op, PickOp)
    other = next(q for q in st.players if q != d.player)
    theirs = {c.type_id: c for c in st.zones[st.prog.zone_base["hand"] + other]}
    data = st.to_json()
    p = data["pending"]
    p["values"] = [{"card": c.id} for c in theirs.values()] + ["__done__"] * ("done" in d.values)
    p["actions"] = [d.op.site.base + t for t in theirs] + p["actions"][len(d.values) - 1 :][
        : int("done" in d.values)
    ]
    with pytest.raises(MeepleError, match="pending decision is not the one its rules ask"):
        game.state_from_json(data)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("want", [_hand_pick, _choice], ids=["pick", "choose"])
def test_a_swapped_player_to_act_is_refused(backend: str, want: Any) -> None:
    game = _game("shadow-of-the-sun", backend)
    st = _play_until(game, 2, want)
    data = st.to_json()
    acting = data["pending"]["player"]
    data["pending"]["player"] = next(q for q in st.players if q != acting)
    with pytest.raises(MeepleError, match=f"P{acting + 1}' is saved|saved to act") as e:
        game.state_from_json(data)
    assert f"the rules ask P{acting + 1}" in e.value.message


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("want", [_hand_pick, _choice], ids=["pick", "choose"])
@pytest.mark.parametrize("shift", [1, -1])
def test_shifted_action_ids_are_refused(backend: str, want: Any, shift: int) -> None:
    game = _game("shadow-of-the-sun", backend)
    st = _play_until(game, 2, want)
    data = st.to_json()
    acts = data["pending"]["actions"]
    if min(acts) + shift < 0:
        shift = 1
    data["pending"]["actions"] = [a + shift for a in acts]
    with pytest.raises(MeepleError, match="action ids .* are not the ids the rules offer"):
        game.state_from_json(data)


@pytest.mark.parametrize("backend", BACKENDS)
def test_other_edits_of_the_pending_decision_are_refused(backend: str) -> None:
    game = _game("shadow-of-the-sun", backend)
    st = _play_until(game, 2, _choice)
    good = st.to_json()
    edits = {
        "an option dropped": lambda p: [p[k].pop() for k in ("actions", "values", "options")],
        "options reordered": lambda p: [p[k].reverse() for k in ("actions", "values", "options")],
        "secrecy flipped": lambda p: p.update(secret=not p["secret"]),
        "asked with other names": lambda p: p.update(env=other_env),
    }
    top = good["frames"][-1]["env"]
    other_env = next((i for i in range(len(good["envs"])) if i != top), -1)
    for name, edit in edits.items():
        data = copy.deepcopy(good)
        edit(data["pending"])
        with pytest.raises(MeepleError, match="pending decision|damaged"):
            game.state_from_json(data)
            pytest.fail(name)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_seat_variable_out_of_range_is_refused(backend: str) -> None:
    game = _game("shadow-of-the-sun", backend)
    for seat in (4, 5, -1):
        data = game.new_initial_state(3).to_json()
        data["vars"]["supreme"] = seat
        with pytest.raises(MeepleError, match="damaged: variable 'supreme' holds .* not a player"):
            game.state_from_json(data)


# the quick loop plays the first game of each, the deep run both (the same random positions)
@pytest.mark.parametrize("games", [1, pytest.param(2, marks=pytest.mark.deep)])
@pytest.mark.parametrize(
    "game_id", ["shadow-of-the-sun", "louis-xiv", "sonnenkoenig", "shadow-of-the-emperor"]
)
def test_untampered_saves_load_and_play_on_identically(game_id: str, games: int) -> None:
    """Random positions saved through JSON text resume on both back ends and play on exactly as
    the original does."""
    interp, comp = _game(game_id, "interpreter"), _game(game_id, "compiled")
    rng = random.Random(game_id)
    loaded = 0
    for seed in range(games):
        st = interp.new_initial_state(seed)
        while not st.is_terminal():
            if rng.random() < 0.15:
                text = json.dumps(st.to_json())
                for g in (interp, comp):
                    copy_ = g.state_from_json(json.loads(text))
                    assert copy_.to_json() == st.to_json()
                    assert copy_.legal_action_labels() == st.legal_action_labels()
                    loaded += 1
                    if loaded % 7 == 0:  # and it plays on identically to the end
                        twin, r1, r2 = st.clone(), random.Random(loaded), random.Random(loaded)
                        while not twin.is_terminal():
                            a = twin.legal_actions()
                            b = copy_.legal_actions()
                            assert a == b
                            twin.apply_action(a[r1.randrange(len(a))])
                            copy_.apply_action(b[r2.randrange(len(b))])
                        assert copy_.to_json() == twin.to_json()
            acts = st.legal_actions()
            st.apply_action(acts[rng.randrange(len(acts))])
    assert loaded > 10


def _with_seat_local(st: State) -> bool:
    """A decision whose frames hold a local that is always a seat, and a loop over seats."""
    data = st.to_json()
    seat_locals = st.prog.seat_locals
    return any(n in seat_locals for e in data["envs"] for n in e) and st.pending is not None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("seat", [4, 5, -1, "P1", 1.0])
def test_a_seat_out_of_range_in_a_saved_local_is_refused(backend: str, seat: object) -> None:
    game = _game("shadow-of-the-sun", backend)
    st = _play_until(game, 2, _with_seat_local)
    data = st.to_json()
    env, name = next((e, n) for e in data["envs"] for n in sorted(e) if n in st.prog.seat_locals)
    env[name] = seat
    with pytest.raises(MeepleError, match="damaged: local name .* not a player in this 4-player"):
        game.state_from_json(data)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_seat_out_of_range_in_a_loop_over_seats_is_refused(backend: str) -> None:
    from meeple.runtime.ops import ForOp

    def in_seat_loop(st: State) -> bool:
        return any(
            isinstance(f.op, ForOp) and f.op.var in st.prog.seat_locals and f.pc < len(f.data)
            for f in st.frames
        )

    game = _game("shadow-of-the-sun", backend)
    st = _play_until(game, 2, in_seat_loop)
    data = st.to_json()
    k = next(
        i
        for i, f in enumerate(st.frames)
        if isinstance(f.op, ForOp) and f.op.var in st.prog.seat_locals
    )
    data["frames"][k]["data"][-1] = 5
    with pytest.raises(MeepleError, match="P6 \\(saved as 5\\), which is not a player"):
        game.state_from_json(data)


def _leaves(x: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every scalar of a saved state (the log excepted: it is free text)."""
    if path == ("log",):
        return []
    if isinstance(x, dict):
        return [p for k in sorted(x) for p in _leaves(x[k], (*path, k))]
    if isinstance(x, list):
        return [p for i, v in enumerate(x) for p in _leaves(v, (*path, i))]
    return [path]


_POSITIONS: dict[str, list[dict[str, Any]]] = {}


def _positions(game_id: str) -> list[dict[str, Any]]:
    """Saved states of a few random positions (each a decision) of a game."""
    if game_id not in _POSITIONS:
        game, rng, out = _game(game_id, "interpreter"), random.Random(7), []
        for seed in range(2):
            st = game.new_initial_state(seed)
            while not st.is_terminal():
                if rng.random() < 0.1:
                    out.append(st.to_json())
                acts = st.legal_actions()
                st.apply_action(acts[rng.randrange(len(acts))])
        _POSITIONS[game_id] = out
    return _POSITIONS[game_id]


def _a_mutated_save_is_refused_or_plays_on(
    game_id: str, backend: str, pick: int, where: int, value: Any
) -> None:
    """Fuzzing from_json: one scalar of a saved state replaced by another value. Either the
    state is refused with a MeepleError, or it is whole (every card in one place, its pending
    decision the one its rules ask) and plays on to the end with no Python error."""
    positions = _positions(game_id)
    data = copy.deepcopy(positions[pick % len(positions)])
    leaves = _leaves(data)
    path = leaves[where % len(leaves)]
    target = data
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    game = _game(game_id, backend)
    try:
        st = game.state_from_json(data)
    except MeepleError:
        return
    st.check_invariants()
    rng = random.Random(where)
    try:
        for _ in range(3000):
            if st.is_terminal():
                break
            acts = st.legal_actions()
            assert acts and st.current_player() in st.players
            st.apply_action(acts[rng.randrange(len(acts))])
            st.check_invariants()
    except MeepleError:
        pass  # a rule error at a rule's line (a tampered count that runs out...), not a crash


# the quick loop tries 50 mutations, the deep run 150 (random ones each run)
test_a_mutated_save_is_refused_or_plays_on, test_a_mutated_save_is_refused_or_plays_on_in_full = (
    fewer_examples(
        _a_mutated_save_is_refused_or_plays_on,
        50,
        150,
        derandomize=False,
        game_id=hst.sampled_from(["shadow-of-the-sun", "sonnenkoenig", "shadow-of-the-emperor"]),
        backend=hst.sampled_from(BACKENDS),
        pick=hst.integers(0, 10**6),
        where=hst.integers(0, 10**6),
        value=hst.one_of(
            hst.integers(-3, 12), hst.none(), hst.booleans(), hst.text(max_size=3), hst.just([])
        ),
    )
)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("kind", "bad"), [("card", 10**6), ("card", {"card": -1}), ("card", "x"), ("str", 3)]
)
def test_a_local_of_the_wrong_type_is_refused(backend: str, kind: str, bad: object) -> None:
    game = _game("shadow-of-the-sun", backend)
    types = game.new_initial_state(0).prog.local_types

    def has_local(st: State) -> bool:
        return any(types.get(n) == kind for e in st.to_json()["envs"] for n in e)

    st = _play_until(game, 2, has_local)
    data = st.to_json()
    env, name = next((e, n) for e in data["envs"] for n in sorted(e) if types.get(n) == kind)
    env[name] = bad
    with pytest.raises(MeepleError, match=f"damaged: local name '{name}' holds .* not a {kind}"):
        game.state_from_json(data)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_secret_counter_that_disagrees_with_the_frames_is_refused(backend: str) -> None:
    game = _game("shadow-of-the-sun", backend)
    data = game.new_initial_state(2).to_json()
    data["secret"] = data["secret"] + 1
    with pytest.raises(MeepleError, match="damaged: it records 1 secret .* its frames stand in 0"):
        game.state_from_json(data)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_saved_seat_count_no_game_could_have_is_damage(backend: str) -> None:
    """Not "load the game for -1 players": no game of these rules has that many seats."""
    game = _game("harbour-guilds", backend)  # 2 to 4 players
    data = game.new_initial_state(2).to_json()
    for seats in (-1, 0, 5, 10**30):
        with pytest.raises(MeepleError) as info:
            game.state_from_json({**data, "num_players": seats})
        assert info.value.message == (
            f"this saved state is damaged: it records {seats} players, "
            "and Harbour Guilds is played by 4 at most"
        )
    with pytest.raises(MeepleError, match="with 3 players, not 4; load the game for 3"):
        game.state_from_json({**data, "num_players": 3})


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key", ["move_number", "secret"])
def test_saved_counters_beyond_64_bits_are_damage(backend: str, key: str) -> None:
    game = _game("harbour-guilds", backend)
    data = game.new_initial_state(2).to_json()
    with pytest.raises(MeepleError, match="damaged"):
        game.state_from_json({**data, key: 10**30})


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_frame_its_rules_never_push_there_is_refused(backend: str) -> None:
    """A frame swapped for another block (resuming at a place the rules cannot be) is refused."""
    game = _game("shadow-of-the-sun", backend)
    st = _play_until(game, 2, lambda s: len(s.frames) > 3)
    data = st.to_json()
    k = len(data["frames"]) - 2
    here, pc = data["frames"][k]["op"], data["frames"][k]["pc"]
    blocks = [  # blocks (of statements) that could resume at this frame's place
        o.uid for o in st.prog.ops if getattr(o, "size", -1) >= pc and o.uid != here
    ]
    data["frames"][k]["op"] = blocks[-1]
    with pytest.raises(MeepleError, match="damaged: its rules never run"):
        game.state_from_json(data)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_frame_given_other_names_is_refused(backend: str) -> None:
    game = _game("shadow-of-the-sun", backend)
    fresh = game.new_initial_state(0).prog
    st = _play_until(game, 2, lambda s: len(s.frames) > 3)
    data = st.to_json()
    from meeple.runtime.state import frame_structure

    _, fresh_frames = (
        frame_structure(fresh)
        if fresh.frame_parents is None
        else (fresh.frame_parents, fresh.fresh_frames)
    )
    k = next(
        i
        for i in range(len(data["frames"]) - 1, 0, -1)
        if data["frames"][i]["op"] not in fresh_frames
    )
    data["envs"].append(dict(data["envs"][data["frames"][k]["env"]]))
    data["frames"][k]["env"] = len(data["envs"]) - 1
    with pytest.raises(MeepleError, match="damaged: the names of op"):
        game.state_from_json(data)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_frame_given_the_names_of_a_call_that_is_done_is_refused(backend: str) -> None:
    """A call's frames lie together on the stack (a clone shares the frames below the top
    call's): a frame running with the names of a call further down is refused."""
    game = _game("shadow-of-the-sun", backend)
    st = _play_until(game, 2, lambda s: len({id(f.env) for f in s.frames}) > 2)
    data = st.to_json()
    frames = data["frames"]
    k = max(i for i in range(1, len(frames)) if frames[i]["env"] != frames[i - 1]["env"])
    done = frames[0]["env"]
    assert done != frames[k - 1]["env"]
    for f in frames[k:]:
        f["env"] = done
    data["pending"]["env"] = done
    with pytest.raises(MeepleError, match="damaged: the names of op .* a call that is done"):
        game.state_from_json(data)


@pytest.mark.parametrize("game_id", ["shadow-of-the-sun", "sonnenkoenig"])
def test_generated_modules_carry_the_interpreters_save_tables(game_id: str) -> None:
    """The tables a generated module is given for checking saves are the interpreter's."""
    from meeple.runtime.state import frame_structure

    interp = _game(game_id, "interpreter").program
    comp = _game(game_id, "compiled").new_initial_state(0).prog
    assert (comp.frame_parents, comp.fresh_frames) == frame_structure(interp)
    assert dict(comp.local_types) == dict(interp.local_types)
    assert comp.seat_locals and comp.seat_locals == interp.seat_locals


def _pick_frame(st: State) -> bool:
    d = st.pending
    return d is not None and isinstance(d.op, PickOp) and d.frame is not None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "tamper",
    [
        pytest.param(lambda d, f: f.update(hi=10**9), id="pick-max-a-billion"),
        pytest.param(lambda d, f: f.update(lo=-1), id="pick-min-negative"),
        pytest.param(lambda d, f: f.update(lo=f["hi"] + 1), id="pick-min-above-max"),
        pytest.param(lambda d, f: d.update(rng=-1), id="rng-negative"),
        pytest.param(lambda d, f: d.update(rng=10**30), id="rng-beyond-64-bits"),
        pytest.param(lambda d, f: d["log"].append([99, "P100 peeks"]), id="log-seat-99"),
        pytest.param(lambda d, f: d.update(meeple="x" * 1000), id="version-1000-chars"),
        pytest.param(lambda d, f: d.update(players=[0]), id="others-gone-no-elimination"),
    ],
)
def test_out_of_range_fields_are_refused(backend: str, tamper: Any) -> None:
    # the trial's tampered saves: a count-1 pick given max 10**9 let its player pick on; one
    # seat left in a game that eliminates nobody won it alone
    game = _game("harbour-guilds", backend)
    st = _play_until(game, 3, _pick_frame)
    data = copy.deepcopy(st.to_json())
    frame = data["frames"][data["pending"]["frame"]]
    tamper(data, frame)
    with pytest.raises(MeepleError, match="damaged"):
        game.state_from_json(data)
    game.state_from_json(st.to_json())  # the save as written loads


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70])
def test_a_seed_beyond_64_bits_is_refused_not_wrapped(seed: int) -> None:
    game = _game("harbour-guilds", "interpreter")
    with pytest.raises(MeepleError, match="a seed is 0 to"):
        game.new_initial_state(seed)
    assert game.new_initial_state(2**64 - 1).to_json() != game.new_initial_state(0).to_json()
