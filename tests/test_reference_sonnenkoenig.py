"""The hand-written speed reference of Im Schatten des Sonnenkönigs plays the rules file's game.

``benchmarks/reference_sonnenkoenig.py`` claims the same rules, interpretations and decision
structure as ``rules/sonnenkoenig/game.yaml``. This pins it exactly, not statistically: for each
seed, meeple's interpreter plays a game with random option indices, and the reference replays
the same indices; both must offer the same number of options at every decision (in the rules
file's order, or the replayed indices would take other options and the games would part), ask
the same number of decisions and end with the same scores and the same piles, card by card in
the same order (the draw and discard piles, the power areas, the chips, the supplies and the
colour markers). Skipped when ``benchmarks/`` is not there (meeple installed from a wheel).
"""

from __future__ import annotations

import random
from functools import cache
from types import ModuleType
from typing import Any

import pytest

import meeple
from meeple.bench import reference_module
from meeple.interpreter.game import Game
from meeple.runtime.state import State

REF = reference_module("sonnenkoenig")
pytestmark = pytest.mark.skipif(REF is None, reason="benchmarks/ is not in this checkout")
PLAYER_COUNTS = (2, 3, 4, 5, 6)


@cache
def _game(players: int) -> Game:
    return meeple.load("sonnenkoenig", players, backend="interpreter")


def _ref() -> ModuleType:
    assert REF is not None
    return REF


LEANS = ("uniform", "first", "last")


def _compare(seed: int, players: int, lean: str = "uniform") -> int:
    """Play ``seed`` on meeple with random indices, replay them on the reference, and assert the
    same options count at every decision, the same decisions, scores and final piles. ``lean``
    "first" or "last" takes that option at 40% of the decisions (else a uniform one), which
    reaches other states than uniform play (higher bids, more chips paid, ...). Returns the
    number of decisions."""
    state = _game(players).new_initial_state(seed, record_log=False)
    rng = random.Random(seed * 10 + players)
    asked: list[tuple[int, int, str, list[str]]] = []  # (options, index, who/prompt, labels)
    while not state.is_terminal():
        labels = state.legal_action_labels()
        i = rng.randrange(len(labels))
        if lean != "uniform" and rng.random() < 0.4:
            i = 0 if lean == "first" else len(labels) - 1
        who = f"P{state.current_player() + 1}: {state.prompt()}"
        asked.append((len(labels), i, who, [label for _, label in labels]))
        state.apply_action(labels[i][0])

    def where(k: int) -> str:
        lines = [f"seed {seed}, {players} players, {lean} choices, decision {k}:"]
        for j in range(max(0, k - 3), min(k + 1, len(asked))):
            n, i, who, labels = asked[j]
            lines.append(f"  #{j} meeple {who}: {n} options {labels}, took {i}")
        return "\n".join(lines)

    taken = 0

    def choose(n: int) -> int:
        nonlocal taken
        k = taken
        taken += 1
        if k >= len(asked):
            raise AssertionError(f"{where(k)}\n  the reference asks more: {n} options")
        if n != asked[k][0]:
            raise AssertionError(f"{where(k)}\n  the reference offers {n} options")
        return asked[k][1]

    piles: dict[str, Any] = {}
    scores, decisions = _ref().play_game(seed, players, choose, piles)
    assert decisions == taken == len(asked), where(taken)
    game = f"seed {seed}, {players} players, {lean} choices"
    assert scores == state.scores(), f"{game}: scores differ"
    assert _named(piles, players) == _meeple_piles(state, players), f"{game}: final piles differ"
    return decisions


def _meeple_piles(state: State, players: int) -> dict[str, Any]:
    """The piles the reference reports, as meeple's card names, bottom first."""
    base, zones = state.prog.zone_base, state.zones

    def names(zone: str, seat: int = 0) -> list[str]:
        return [c.name for c in zones[base[zone] + seat]]

    power = names("power_supply")
    out: dict[str, Any] = {
        z: names(z)
        for z in ("draw_pile", "discard", "on_display", "unused_properties", "used_properties")
    }
    out.update(
        {z: [names(z, p) for p in range(players)] for z in ("area", "auction_area", "chips")}
    )
    out["supply"] = [len(names("gold_supply")), power.count("Power 1"), power.count("Power 2")]
    return out


def _named(piles: dict[str, Any], players: int) -> dict[str, Any]:
    """The reference's final piles with meeple's names for its card ints."""
    ref = _ref()
    cards, chips, markers = ref.CARD_NAMES, ref.CHIP_NAMES, ref.MARKER_NAMES
    out: dict[str, Any] = {
        z: [cards[c] for c in piles[z]] for z in ("draw_pile", "discard", "on_display")
    }
    for z in ("unused_properties", "used_properties"):
        out[z] = [markers[c] for c in piles[z]]
    for z in ("area", "auction_area"):
        out[z] = [[cards[c] for c in piles[z][p]] for p in range(players)]
    out["chips"] = [[chips[c] for c in piles["chips"][p]] for p in range(players)]
    out["supply"] = list(piles["supply"])
    return out


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_reference_plays_meeples_game_decision_for_decision(players: int) -> None:
    total = sum(_compare(seed, players, LEANS[seed % 3]) for seed in range(8))
    assert total > 8 * 20  # real games, not a few forced moves


@pytest.mark.deep
@pytest.mark.parametrize("lean", LEANS)
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_reference_plays_meeples_game_over_many_seeds(players: int, lean: str) -> None:
    for seed in range(100, 300):
        _compare(seed, players, lean)


def test_the_reference_alone_is_deterministic_and_refuses_bad_player_counts() -> None:
    ref = _ref()
    first = ref.play_game(7, 4)
    assert first == ref.play_game(7, 4)
    assert first[1] > 0 and len(first[0]) == 4
    for bad in (1, 7):
        with pytest.raises(ValueError, match="2 to 6 players"):
            ref.play_game(0, bad)
