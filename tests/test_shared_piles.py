"""A clone shares its original's piles until one of them changes one (State.clone): the first
to move a card into or out of a pile, or to shuffle it, copies it. A pile given a name (a
zone parameter, a ``let``, a loop or option over zones) is made the state's own first, so that
the name and the state's ``zones`` hold the same pile while the moves change it.

Each test clones a game at every decision, plays the clone on along other choices, and checks
both against states that never shared anything (saved and loaded again): the same actions give
the same positions (``to_json``), and neither state's play shows in the other."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hostile.cases import BASE
from test_language_v2 import edit, write
from test_playout import Recorder, replay

import meeple
from meeple.interpreter.game import Game
from meeple.runtime.state import State

BACKENDS = ("interpreter", "compiled")

YES = '{label: "yes", do: [{if: "count(deck) > 0", then: ["move 1 from deck to hand[p]"]}]}'

# (the deck is refilled from the discard pile: the turns below draw more than the base game)
# Each turn shuffles the deck and calls a procedure given the discard pile: it asks (in another
# procedure) whether to go on, moves a card into the pile and reads it back. Nine rounds: the
# deck runs out and is refilled.
PARAMETER = edit(
    BASE,
    "deck: {visibility: hidden,",
    "deck: {visibility: hidden, refill: discard,",
    "variables:\n",
    "variables:\n  seen: {type: int, initial: 0, source: Turn}\n",
    "until: round > 3",
    "until: round > 9",
    "procedures:\n",
    "procedures:\n"
    "  stock:\n"
    "    source: Turn\n"
    "    params: [p, z]\n"
    "    do:\n"
    "      - ask(p)\n"
    "      - if: count(deck) > 0\n"
    "        then: [move 1 from deck to z]\n"
    "      - seen = count(z)\n"
    "  ask:\n"
    "    source: Turn\n"
    "    params: [p]\n"
    "    do:\n"
    "      - choose: Go on?\n"
    "        by: p\n"
    "        options: [{label: 'yes'}, {label: 'no'}]\n",
    "    do:\n      - choose: Draw or discard?",
    "    do:\n      - shuffle deck\n      - stock(p, discard)\n      - choose: Draw or discard?",
)

# Loops over zones: each pass moves a card into the pile of the next; one asks in each pass; the
# last asks in a procedure, and its list begins with a number.
LOOP = edit(
    BASE,
    "deck: {visibility: hidden,",
    "deck: {visibility: hidden, refill: discard,",
    "variables:\n",
    "variables:\n  seen: {type: int, initial: 0, source: Turn}\n",
    "    do:\n      - choose: Draw or discard?",
    "    do:\n"
    "      - for: z in [hand[p], discard]\n"
    "        do:\n"
    "          - if: count(deck) > 1\n"
    "            then: [move 1 from deck to discard, move 1 from deck to z]\n"
    "          - seen = seen + count(z)\n"
    "      - for: z in [discard, hand[p]]\n"
    "        do:\n"
    "          - choose: Keep going?\n"
    "            by: p\n"
    "            options:\n"
    f"              - {YES}\n"
    '              - {label: "no"}\n'
    "          - if: count(deck) > 0\n"
    "            then: [move 1 from deck to z]\n"
    "          - seen = count(z)\n"
    "      - for: z in [5, discard, hand[p]]\n"
    "        do:\n"
    "          - ask(p)\n"
    "          - if: z != 5 and count(deck) > 0\n"
    "            then: [move 1 from deck to z, seen = count(z)]\n"
    "      - choose: Draw or discard?",
    "procedures:\n",
    "procedures:\n"
    "  ask:\n"
    "    source: Turn\n"
    "    params: [p]\n"
    "    do:\n"
    "      - choose: Go on?\n"
    "        by: p\n"
    "        options: [{label: 'yes'}, {label: 'no'}]\n",
)

# a loop over a list of zones and numbers, the only statement to change its pile (which is
# shared with a clone made at the choice before, when the loop's name holds a number)
MIXED = edit(
    BASE,
    "  discard: {visibility: public, source: Turn}\n",
    "  discard: {visibility: public, source: Turn}\n  bin: {visibility: public, source: Turn}\n",
    "variables:\n",
    "variables:\n  seen: {type: int, initial: 0, source: Turn}\n",
    "    do:\n      - choose: Draw or discard?",
    "    do:\n"
    "      - for: z in [5, bin, 6]\n"
    "        do:\n"
    "          - if: z != 5 and z != 6 and count(deck) > 0\n"
    "            then: [move 1 from deck to z, seen = count(z)]\n"
    "      - choose: Draw or discard?",
)

# a list of zones held across a choice, then looped over
LISTED = edit(
    BASE,
    "deck: {visibility: hidden,",
    "deck: {visibility: hidden, refill: discard,",
    "variables:\n",
    "variables:\n  seen: {type: int, initial: 0, source: Turn}\n",
    "    do:\n      - choose: Draw or discard?",
    "    do:\n"
    "      - let zs = [discard, hand[p]]\n"
    "      - choose: Draw first?\n"
    "        by: p\n"
    "        options:\n"
    f"          - {YES}\n"
    '          - {label: "no"}\n'
    "      - for: z in zs\n"
    "        do:\n"
    "          - if: count(deck) > 0\n"
    "            then: [move 1 from deck to z]\n"
    "          - seen = seen + count(z)\n"
    "      - choose: Draw or discard?",
)


def _saved(state: State, log: bool = True) -> str:
    data = state.to_json()
    if not log:
        del data["log"]
    return json.dumps(data, sort_keys=True)


def _act(state: State, rng: random.Random) -> int:
    actions = state.legal_actions()
    a = actions[rng.randrange(len(actions))]
    state.apply_action(a)
    return a


def _clones_everywhere(game: Game, seed: int, apart: int = 6, limit: int = 400) -> int:
    """Play a game of ``seed``, cloning it at every decision; each clone plays ``apart``
    actions of its own. Every state, the original included, must stay the position its
    actions give a state that shared nothing (a new game given the same actions: a save
    would not do, as one cannot hold a list of zones). Returns the number of clones made."""
    state, twin = game.new_initial_state(seed), game.new_initial_state(seed)
    rng = random.Random(seed)
    played: list[int] = []
    clones = 0
    while not state.is_terminal() and clones < limit:
        c = state.clone()
        clones += 1
        alone = game.new_initial_state(seed)
        for a in played:
            alone.apply_action(a)
        r = random.Random(rng.random())
        for _ in range(apart):
            if c.is_terminal():
                break
            alone.apply_action(_act(c, r))
            assert _saved(c) == _saved(alone), "a clone's play differs from a lone state's"
        if clones % 5 == 0:  # a playout of a clone: the game the API gives the same choices
            p = state.clone()
            p.record_log = False
            rec = Recorder(clones)
            p.playout(rec)
            alone = game.new_initial_state(seed, record_log=False)
            for a in played:
                alone.apply_action(a)
            replay(alone, rec.taken)
            assert _saved(p, log=False) == _saved(alone, log=False), "playouts differ"
        played.append(_act(state, rng))
        twin.apply_action(played[-1])
        assert _saved(state) == _saved(twin), "a clone's play showed in its original"
    c = state.clone()
    assert _saved(c) == _saved(state)
    return clones


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "text", [PARAMETER, LOOP, MIXED, LISTED], ids=["parameter", "loop", "mixed", "listed"]
)
def test_piles_given_names_after_a_clone(tmp_path: Path, backend: str, text: str) -> None:
    game = meeple.load(str(write(tmp_path, text)), 2, backend=backend)
    assert game.new_initial_state(0).prog.zone_locals  # (the names that may hold a zone)
    for seed in range(3):
        assert _clones_everywhere(game, seed) > 5


@pytest.mark.deep  # (the quick loop clones the shipped games in tests/test_clone_sharing.py)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("game_id", ["harbour-guilds", "shadow-of-the-emperor", "louis-xiv"])
def test_shipped_games_cloned_at_every_decision(game_id: str, backend: str) -> None:
    assert _clones_everywhere(meeple.load(game_id, 4, backend=backend), 3, limit=120) > 20


@pytest.mark.parametrize("backend", BACKENDS)
def test_shared_piles_change_in_neither(backend: str) -> None:
    """The piles a clone shares with its original (owned by neither) keep their cards while
    both play on, by actions and by a playout."""
    game = meeple.load("shadow-of-the-sun", 4, backend=backend)
    state = game.new_initial_state(4)
    for _ in range(40):
        _act(state, random.Random(4))
    c = state.clone()
    assert state.owned is not None and c.owned is not None
    shared = [(z, list(z)) for i, z in enumerate(state.zones) if z is c.zones[i]]
    assert len(shared) == len(state.zones)  # all of them, to begin with
    rng = random.Random(5)
    for _ in range(30):
        _act(state, rng)
        _act(c, rng)
    played = c.clone()
    played.record_log = False
    played.playout(1)
    assert [list(z) for z, _ in shared] == [cards for _, cards in shared]
    assert any(z is c.zones[i] for i, z in enumerate(state.zones))  # some never changed


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_variable_never_holds_a_pile(tmp_path: Path, backend: str) -> None:
    """A variable is given a value whose type the checker cannot fix (``first`` of a list of a
    pile and a number): a number is kept; a pile, which a clone would share and a save would
    not keep, is refused with the variable's name, on both back ends alike."""

    def play(first: str) -> State:
        text = edit(
            BASE,
            "variables:\n",
            "variables:\n  held: {type: int, initial: 0, source: Turn}\n",
            "          - label: draw a card\n            do:\n",
            f"          - label: draw a card\n            do:\n              - held = {first}\n",
        )
        game = meeple.load(str(write(tmp_path, text)), 2, backend=backend)
        state = game.new_initial_state(0)
        state.apply_action(state.legal_actions()[0])  # draw a card
        return state

    assert play("first([7, hand[p]])").vars["held"] == 7
    with pytest.raises(meeple.RuleError, match="'held' holds a number; this value is a zone"):
        play("first([hand[p], 7])")
