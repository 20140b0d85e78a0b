"""Saved states are untrusted input (issue 11, section 6): ``from_json`` over mutated saves.

Saves are taken at random positions of random games of the shipped games (and the minimal game),
then mutated by hypothesis: numbers changed, players swapped, action ids shifted, keys deleted or
duplicated, values retyped, a card moved to another zone, the format version changed. Each
mutation is refused with a MeepleError, or the state it loads is one the rules could reach:

* every card is in exactly one place and ``check_invariants()`` passes;
* a state whose saved position is untouched (only its pending decision was edited) has the
  pending decision the rules ask there -- the player, action ids, values and options of the
  untouched save (the rules derive the decision from the position, so it cannot differ);
* the player to act is a seat still in the game;
* the game plays on to its end with seeded random moves, with no exception but a MeepleError.

The handwritten cases below are the examples of the issue (another player's hand offered, the
player to act swapped, action ids shifted, a seat-valued variable set to 5, another format).
The quick loop runs 20 mutations of 4 saves per game; the deep run (``pytest -m deep``) 400 of 12
per game, and shrinks a failure.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hostile.guard import time_limit
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import meeple
from meeple.dsl.errors import MeepleError
from meeple.interpreter.game import Game
from meeple.registry import game_ids
from meeple.runtime.state import State

MINIMAL = str(Path(__file__).parent / "fixtures" / "minimal")
GAMES = [*game_ids(), MINIMAL]
MAX_MOVES = 3000  # a hang guard for playing on; every shipped game ends far sooner


@cache
def game(game_id: str, players: int) -> Game:
    return meeple.load(game_id, players=players)


def players_of(game_id: str) -> list[int]:
    rules = meeple.load(game_id).checked.game
    return list(range(rules.players_min, min(rules.players_max, 5) + 1))


@cache
def saves(per_game: int = 4) -> list[tuple[str, int, str]]:
    """(game, players, JSON text of a save) at random positions, pending decisions and between."""
    rnd = random.Random(2026)
    out = []
    for game_id in GAMES:
        for _ in range(per_game):
            players = rnd.choice(players_of(game_id))
            g = game(game_id, players)
            s = g.new_initial_state(rnd.randrange(10**6))
            stop = rnd.randrange(0, 120)
            for _ in range(stop):
                if s.is_terminal():
                    break
                s.apply_action(rnd.choice(s.legal_actions()))
            out.append((game_id, players, json.dumps(s.to_json())))
    return out


# ------------------------------------------------------------------------------ mutations
def paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, (*prefix, i))


def at(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


OTHER_VALUES: list[Any] = [None, True, -1, 0, 1, 5, 99, 2**63, 1.5, "x", "0", [], {}, [0], {"a": 1}]
OPS = (
    "number",
    "swap-player",
    "shift-ids",
    "delete",
    "duplicate",
    "retype",
    "move-card",
    "format",
    "pending-player",
    "pending-values",
    "pending-options",
    "swap-hands",
)


def mutate(data: dict[str, Any], op: str, rnd: random.Random, n: int) -> str:
    """Mutate ``data`` in place; return what was changed ("pending" when only the pending
    decision, "format" when only the format version, else "position")."""
    pending = data.get("pending")
    if op in ("pending-player", "pending-values", "pending-options", "shift-ids", "swap-player"):
        if not isinstance(pending, dict):
            op = "number"
        elif op == "pending-player" or op == "swap-player":
            pending["player"] = rnd.choice([p for p in range(-1, n + 2) if p != pending["player"]])
            return "pending"
        elif op == "shift-ids":
            k = rnd.choice([-2, -1, 1, 2, 64])
            pending["actions"] = [a + k for a in pending["actions"]]
            return "pending"
        elif op == "pending-values":
            vals = pending["values"]
            if vals:
                i = rnd.randrange(len(vals))
                vals[i] = rnd.choice([0, 1, 5, None, "__done__", vals[-1]])
            if rnd.random() < 0.5 and len(pending["actions"]) > 1:
                del pending["actions"][-1]
                del pending["values"][-1]
            return "pending"
        else:
            pending["options"] = [o + rnd.choice([1, 2]) for o in pending["options"]] or [0]
            return "pending"
    if op == "format":
        choice = rnd.choice(["delete", 0, 2, 99, "1", None, 1.0])
        if choice == "delete":
            data.pop("format", None)
            if "format" not in data and rnd.random() < 0.5:
                data["format"] = 999
        else:
            data["format"] = choice
        return "format"
    if op == "move-card":
        zones = [z for z in data["zones"] if z]
        if zones:
            src = rnd.choice(zones)
            card = src.pop(rnd.randrange(len(src)))
            rnd.choice(data["zones"]).insert(0, card)
        return "position"
    if op == "swap-hands":
        zones = data["zones"]
        i, j = rnd.randrange(len(zones)), rnd.randrange(len(zones))
        zones[i], zones[j] = zones[j], zones[i]
        return "position"
    every = [p for p in paths(data) if p]
    if op == "number":
        ints = [p for p in every if type(at(data, p)) is int]
        path = rnd.choice(ints or every)
        parent, last = at(data, path[:-1]), path[-1]
        old = parent[last]
        parent[last] = rnd.choice([old + 1, old - 1, -old, n, n + 3, -1, 0, 10**12])
    elif op == "delete":
        path = rnd.choice(every)
        del at(data, path[:-1])[path[-1]]
    elif op == "duplicate":
        lists = [p for p in every if isinstance(at(data, p), list) and at(data, p)]
        if lists:
            lst = at(data, rnd.choice(lists))
            lst.insert(rnd.randrange(len(lst) + 1), copy.deepcopy(rnd.choice(lst)))
    elif op == "retype":
        path = rnd.choice(every)
        at(data, path[:-1])[path[-1]] = copy.deepcopy(rnd.choice(OTHER_VALUES))
    return "position"


def decision(s: State) -> tuple[Any, ...] | None:
    d = s.pending
    if d is None:
        return None
    return (d.player, list(d.actions), list(d.options), [repr(v) for v in d.values])


def check_reachable(g: Game, s: State, seed: int) -> None:
    """The loaded state is sound and plays on to its end (MeepleErrors allowed)."""
    s.check_invariants()
    cards = len(g.program.cards)
    where = sorted(c.id for z in s.zones for c in z)
    assert where == list(range(cards)), "a card is missing or in two places"
    if not s.is_terminal():
        p = s.current_player()
        assert p in s.players and 0 <= p < g.num_players(), f"seat {p} is asked to act"
    rnd = random.Random(seed)
    try:
        for _ in range(MAX_MOVES):
            if s.is_terminal():
                break
            p = s.current_player()
            assert p in s.players, f"eliminated or unknown seat {p} is asked to act"
            s.apply_action(rnd.choice(s.legal_actions()))
    except MeepleError:
        pass


def run_mutation(index: int, op: str, seed: int, per_game: int = 4) -> None:
    game_id, players, text = saves(per_game)[index % len(saves(per_game))]
    g = game(game_id, players)
    original = json.loads(text)
    data = json.loads(text)
    changed = mutate(data, op, random.Random(seed), players)
    with time_limit():
        try:
            s = g.state_from_json(data)
        except MeepleError:
            return
        assert changed != "format" or data.get("format") == original.get("format"), (
            "a state of another format version was accepted"
        )
        if changed == "pending" and data != original:
            # the position is the untouched save's: the rules ask the same decision there
            assert decision(s) == decision(g.state_from_json(original)), (
                "an edited pending decision was accepted"
            )
        check_reachable(g, s, seed)


@pytest.mark.parametrize("deep", [False, pytest.param(True, marks=pytest.mark.deep)])
def test_a_mutated_save_is_refused_or_reachable(deep: bool) -> None:
    @settings(
        max_examples=400 if deep else 20,
        deadline=None,
        derandomize=not deep,
        phases=list(Phase) if deep else [Phase.explicit, Phase.reuse, Phase.generate],
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(index=st.integers(0, 10**6), op=st.sampled_from(OPS), seed=st.integers(0, 2**32))
    def one(index: int, op: str, seed: int) -> None:
        run_mutation(index, op, seed, 12 if deep else 4)

    one()


def test_untouched_saves_load_and_play_on() -> None:
    for game_id, players, text in saves():
        g = game(game_id, players)
        s = g.state_from_json(json.loads(text))
        assert json.dumps(s.to_json()) == text or s.pending is None
        check_reachable(g, s, 1)


# ------------------------------------------------------------------------------ the cases
def _pick_position(game_id: str = MINIMAL, players: int = 2) -> tuple[Game, dict[str, Any]]:
    """A save of the minimal game where a player must pick a card of his hand to discard."""
    g = game(game_id, players)
    for seed in range(50):
        s = g.new_initial_state(seed)
        rnd = random.Random(seed)
        while not s.is_terminal():
            if s.pending is not None and "Discard" in s.prompt():
                return g, s.to_json()
            s.apply_action(rnd.choice(s.legal_actions()))
    raise AssertionError("no pick found")


def _refused(g: Game, data: dict[str, Any]) -> MeepleError:
    with pytest.raises(MeepleError) as info:
        g.state_from_json(data)
    return info.value


def test_a_pick_offering_another_players_hand_is_refused() -> None:
    g, data = _pick_position()
    hands = [i for i, n in enumerate(g.program.zone_names) if n.startswith("hand")]
    assert len(hands) == 2, g.program.zone_names  # hand of P1, hand of P2
    me = data["pending"]["player"]
    mine, other = hands[me], hands[1 - me]
    data["zones"][mine], data["zones"][other] = data["zones"][other], data["zones"][mine]
    _refused(g, data)


def test_the_player_to_act_swapped_is_refused() -> None:
    g, data = _pick_position()
    data["pending"]["player"] = 1 - data["pending"]["player"]
    _refused(g, data)


@pytest.mark.parametrize("shift", [-1, 1, 7])
def test_shifted_action_ids_are_refused(shift: int) -> None:
    g, data = _pick_position()
    data["pending"]["actions"] = [a + shift for a in data["pending"]["actions"]]
    _refused(g, data)


@pytest.mark.parametrize("value", [5, -2, 4])
def test_a_seat_valued_variable_out_of_range_is_refused(value: int) -> None:
    g = game("shadow-of-the-emperor", 4)
    s = g.new_initial_state(3)
    s.apply_action(s.legal_actions()[0])
    data = s.to_json()
    assert "emperor" in data["vars"]
    data["vars"]["emperor"] = value
    _refused(g, data)


@pytest.mark.parametrize("version", ["delete", 0, 2, "1", None])
def test_another_format_version_is_refused_by_name(version: object) -> None:
    g, data = _pick_position()
    if version == "delete":
        data.pop("format", None)
    else:
        data["format"] = version
    e = _refused(g, data)
    assert "format" in e.message
