"""Triggers, elimination and list concatenation: the language features Im Schatten des
Sonnenkönigs added, tested on a small made-up game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from meeple.dsl.errors import CheckError, MeepleError
from meeple.dsl.loader import load_rules
from meeple.dsl.parser import parse_expression
from meeple.interpreter.game import Game
from meeple.runtime.state import State

# A made-up game: players reveal cards in turn. A Bomb revealed makes its revealer reveal one more
# card at once (a chain); a player whose newest card is a Coin eliminates the seat to his left.
# A Gem reaching a hand asks its revealer whether to keep it. Cards reach 'revealed' by move only.
TINY = """
game:
  id: tiny
  name: Tiny
  players: {min: 2, max: 4}
  source: Overview
components:
  cards:
    source: Components
    properties: {points: int}
    start: deck
    items:
      - {name: Coin, count: 8, points: 1}
      - {name: Bomb, count: 4, points: 0}
      - {name: Gem, count: 4, points: 2}
zones:
  deck: {visibility: hidden}
  revealed: {visibility: public}
  hand: {per: players, visibility: public}
variables:
  revealer: {type: player, initial: 0, source: Turn}
  bombs: {type: int, initial: 0, source: Turn}
  score: {type: int, per: players, source: Scoring}
triggers:
  bomb:
    source: Bombs
    to: revealed
    kind: cards
    as: b
    when: b.name == 'Bomb'
    do:
      - bombs += 1
      - log "bomb {b} by {revealer}"
      - reveal(revealer)
  gem:
    source: Gems
    to: hand
    when: card.name == 'Gem'
    do:
      - choose: Keep the gem?
        by: card_holder()
        options:
          - label: keep it
          - label: give it back
            do:
              - move card to deck
functions:
  card_holder:
    source: Gems
    value: revealer
setup:
  source: Setup
  do:
    - shuffle deck
play:
  source: Play
  do:
    - repeat:
        - for: p in players
          do:
            - reveal(p)
            - if: count(hand[p]) > 0 and top(hand[p]).name == 'Coin' and count(players) > 1
              then:
                - eliminate left_of(p)
      until: count(deck) < 3 or count(players) <= 1
procedures:
  reveal:
    source: Turn
    params: [p]
    do:
      - revealer = p
      - if: count(deck) > 0
        then:
          - let c = top(deck)
          - log "{p} reveals {c}"
          - move c to revealed
          - move c to hand[p]
scoring:
  source: Scoring
  do:
    - for: p in players
      do:
        - score[p] = sum(c.points for c in hand[p] + revealed)
"""


def _load(tmp_path: Path, text: str = TINY, players: int = 3) -> Game:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return Game(load_rules(path), players)


def _play(game: Game, seed: int) -> State:
    st = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not st.is_terminal():
        a = st.legal_actions()
        st.apply_action(a[rng.randrange(len(a))])
        st.check_invariants()
    return st


def test_triggers_fire_on_arrival_nest_and_filter(tmp_path: Path) -> None:
    game = _load(tmp_path)
    bombs_seen = 0
    for seed in range(30):
        st = _play(game, seed)
        log = [t for _, t in st.log]
        reveals = [t for t in log if " reveals " in t]
        bombs = [i for i, t in enumerate(log) if t.startswith("bomb ")]
        assert st.vars["bombs"] == len(bombs)
        bombs_seen += len(bombs)
        for i in bombs:
            # the bomb's line comes right after its reveal, and the chained reveal right after it
            assert log[i - 1].endswith("reveals Bomb")
            if i + 1 < len(log) and "reveals" in log[i + 1]:
                assert log[i + 1].split()[0] == log[i - 1].split()[0]  # same revealer
        assert len(reveals) >= len(bombs)
    assert bombs_seen > 0


def test_a_trigger_can_ask_a_decision_and_the_state_saves_inside_it(tmp_path: Path) -> None:
    game = _load(tmp_path)
    for seed in range(40):
        st = game.new_initial_state(seed)
        if not st.is_terminal() and st.prompt() == "Keep the gem?":
            copy = game.state_from_json(st.to_json())
            for s in (st, copy):
                s.apply_action(s.legal_actions()[1])  # give it back
            assert st.to_json() == copy.to_json()
            return
    raise AssertionError("no seed reached the gem decision")


def test_eliminated_seats_leave_players_turn_order_and_the_win(tmp_path: Path) -> None:
    game = _load(tmp_path, players=4)
    eliminations = 0
    for seed in range(30):
        st = _play(game, seed)
        out = [p for p in range(4) if p not in st.players]
        eliminations += len(out)
        assert set(st.winners()) <= set(st.players)
        for p in out:
            assert st.returns()[p] == 0.0
            assert f"P{p + 1} is eliminated" in [t for _, t in st.log]
    assert eliminations > 0


def test_seat_builtins_skip_eliminated_seats(tmp_path: Path) -> None:
    game = _load(tmp_path, players=4)
    st = game.new_initial_state(0)
    st.players.remove(2)  # seat P3 is out
    ex = game.program.ex

    def ev(text: str) -> object:
        return ex.compile(parse_expression(text, None))(st, {})

    assert ev("left_of(1)") == 3
    assert ev("right_of(3)") == 1
    assert ev("left_of(2)") == 3  # from an eliminated seat: his live neighbour
    assert ev("right_of(2)") == 1
    assert ev("clockwise_from(2)") == [3, 0, 1]
    assert ev("others(0)") == [1, 3]
    assert ev("num_players") == 3


@pytest.mark.parametrize(
    ("old", "new", "at", "message"),
    [
        (
            "    to: revealed\n    kind: cards\n",
            "    to: reveled\n    kind: cards\n",
            "reveled",
            "zone",
        ),
        ("    kind: cards\n", "    kind: card\n", "card\n", "not a kind"),
        ("    source: Bombs\n", "", "bomb:", "does not cite"),
        ("    when: b.name == 'Bomb'", "    when: b.name", "b.name\n", "wrong type"),
        ("    as: b\n", "    as: deck\n", "deck\n", "already a name"),
        ("- eliminate left_of(p)", "- eliminate deck", "deck\n", "wrong type"),
        (
            "c.points for c in hand[p] + revealed",
            "c.points for c in 1 + revealed",
            "revealed)",
            "+",
        ),
    ],
    ids=["unknown-zone", "unknown-kind", "no-source", "when-not-bool", "as-global", "elim", "plus"],
)
def test_bad_triggers_and_eliminations_are_positioned_errors(
    tmp_path: Path, old: str, new: str, at: str, message: str
) -> None:
    assert TINY.count(old) == 1
    text = TINY.replace(old, new)
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MeepleError) as e:
        load_rules(path)
    assert isinstance(e.value, CheckError)
    assert message in e.value.message, e.value.message
    # the error points at the offending text: the first place after the edit where `at` occurs
    start = text.index(new.strip().splitlines()[0]) if new.strip() else text.index(at)
    i = text.index(at, start) if new.strip() else start
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    assert e.value.span is not None
    assert (e.value.span.line, e.value.span.col) == (line, col), str(e.value)
