"""The structure of play (issue 12, language v2): ``play:`` declared as rounds, phases and turns
(dsl/structure.py). Tested as the other constructs of tests/test_language_v2.py: an edit of the
minimal game played on both back ends, its meaning, its misuse, its sentence in ``meeple doc``;
and the position (round, phase, turn) in the state, the log, the observation and saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile.cases import BASE
from test_language_v2 import edit, play_both, refused, write

import meeple
from meeple.dsl.errors import CheckError, MeepleError, SchemaError
from meeple.dsl.loader import load_rules
from meeple.rulebook import render_markdown

PLAY = """play:
  source: Play
  rounds: 3
  start_player: left_of(first(players))
  pass_start: left
  start: ['log "the game starts in round {round}"']
  round_start: ['log "round {round}: {start_player} starts"']
  round_end: ['log "round {round} ends"']
  end: ['log "the end in round {round}, phase {phase}, turn of {turn_player}"']
  phases:
    - phase: Draw
      source: Turn
      turns: clockwise
      turn: [turn(p)]
    - phase: Bonus
      when: round > 1
      do: ['log "bonus in round {round}"']
"""

OLD_PLAY = BASE[BASE.index("play:\n") : BASE.index("procedures:")]
STRUCTURED = edit(
    BASE,
    "  round: {type: int, initial: 1, source: Play}\n",
    "",
    OLD_PLAY,
    PLAY + "\n",
)
# `end game` in the middle of a turn of round 2 (after the choice of the second seat to play)
ENDING = edit(
    STRUCTURED,
    "                count: 1\n",
    "                count: 1\n"
    "      - if: round == 2 and p == left_of(start_player)\n"
    "        then: [end game]\n",
)


def test_rounds_phases_and_turns_on_both_back_ends(tmp_path: Path) -> None:
    logs = play_both(write(tmp_path, STRUCTURED), 3, range(4))
    for log in logs:
        rounds = [x for x in log if x.endswith("starts") and x.startswith("round ")]
        # P2 starts round 1, and the start passes to the left each round
        assert rounds == ["round 1: P2 starts", "round 2: P3 starts", "round 3: P1 starts"]
        turns = [x for x in log if x.endswith("'s turn")]
        assert turns[:4] == [
            "Round 1, phase Draw: P2's turn",
            "Round 1, phase Draw: P3's turn",
            "Round 1, phase Draw: P1's turn",
            "Round 2, phase Draw: P3's turn",
        ]
        assert len(turns) == 9
        # the phase with `when: round > 1` is played in rounds 2 and 3 only
        assert [x for x in log if x.startswith("bonus")] == ["bonus in round 2", "bonus in round 3"]
        assert log.count("Round 2, phase Bonus") == 1
        assert "the game starts in round 0" in log
        assert log.count("the end in round 3, phase , turn of nobody") == 1


def test_end_game_in_a_turn_runs_the_end_hook_once(tmp_path: Path) -> None:
    for log in play_both(write(tmp_path, ENDING), 3, range(4)):
        ends = [x for x in log if x.startswith("the end")]
        # round 2 goes P3, P1, P2: play stops in P1's turn, and the end hook runs once there
        assert ends == ["the end in round 2, phase Draw, turn of P1"], ends
        assert not any(x.startswith("round 2 ends") or x.startswith("round 3") for x in log)


def test_position_in_state_observation_and_save(tmp_path: Path) -> None:
    for backend in ("interpreter", "compiled"):
        game = meeple.load(str(write(tmp_path, STRUCTURED)), 2, backend=backend)
        st = game.new_initial_state(0)
        assert (st.vars["round"], st.vars["phase"], st.vars["turn_player"]) == (1, "Draw", 1)
        obs = st.observation(0)
        assert obs["position"] == "Round 1, phase Draw: P2's turn"
        assert obs["variables"]["round"] == 1
        from meeple.ai import observation_string

        assert "position: Round 1, phase Draw: P2's turn" in observation_string(st, 0)
        data = st.to_json()
        assert game.state_from_json(data).vars["phase"] == "Draw"
        bad = json.loads(json.dumps(data))
        bad["vars"]["phase"] = "Lunch"
        with pytest.raises(MeepleError, match="'Lunch', which is not a phase of these rules"):
            game.state_from_json(bad)
        bad["vars"]["phase"], bad["vars"]["round"] = "Draw", 4
        with pytest.raises(MeepleError, match="the round is 4, but the game has 3"):
            game.state_from_json(bad)


def test_eliminated_seats_leave_the_turn_order(tmp_path: Path) -> None:
    text = edit(
        STRUCTURED,
        "      turn: [turn(p)]\n",
        "      until: count(deck) <= 14 - 3 * round\n"
        "      turn:\n"
        "        - if: round == 1 and p == start_player and count(players) == 3\n"
        "          then: [eliminate left_of(p)]\n"
        "        - turn(p)\n",
        "  rounds: 3\n",
        "  rounds: 2\n",
    )
    for log in play_both(write(tmp_path, text), 3, range(3)):
        assert "P3 is eliminated" in log
        turns = [x for x in log if x.endswith("'s turn")]
        assert "Round 1, phase Draw: P3's turn" not in turns
        assert not any("P3's turn" in x for x in turns)
        # with `until`, turns go round and round within the phase while it does not hold
        assert len([x for x in turns if x.startswith("Round 2")]) >= 2


def test_rulebook_sentence(tmp_path: Path) -> None:
    md = render_markdown(load_rules(write(tmp_path, STRUCTURED)).game, tmp_path, {})
    assert "The game lasts `3` rounds." in md
    assert "The start player, `left_of(first(players))`, starts round 1." in md
    assert "After each round the start player becomes `left_of(start_player)`." in md
    assert "- Phase 1, **Draw** (rulebook: *Turn*):" in md
    assert "Turns clockwise from the start player, one turn each; eliminated seats" in md
    assert "- Phase 2, **Bonus**, only in rounds where `round > 1`:" in md
    assert "before the scoring:" in md
    scoring = md[md.index("## Scoring") :]
    assert "the end in round" not in scoring  # the end hook is shown once, with the play


@pytest.mark.parametrize(
    ("old", "new", "error", "at", "message"),
    [
        ("  rounds: 3\n", "  rounds: 3\n  until: round > 2\n", CheckError, "|until: round > 2",
         "either 'rounds' (how many) or 'until'"),
        ("  rounds: 3\n", "", CheckError, "|play:", "needs 'rounds' (how many rounds) or 'until'"),
        ("      turn: [turn(p)]\n", "", CheckError, "|turns: clockwise",
         "has 'turns' but no 'turn'"),
        ("      do: ['log \"bonus in round {round}\"']\n",
         "      do: ['log \"bonus in round {round}\"']\n      as: q\n", CheckError, "|as: q",
         "'as' belongs to a phase of turns"),
        ("    - phase: Bonus\n", "    - phase: Draw\n", CheckError, "|phase: Draw\n      when",
         "two phases are called 'Draw'"),
        ("      turns: clockwise\n", "      turns: deck\n", CheckError, "turns: |deck",
         "not a list of seats"),
        ("  rounds: 3\n", "  rounds: deck\n", CheckError, "rounds: |deck",
         "'rounds' must be a number"),
        ("  end: ['log", "  end: ['end game', 'log", CheckError, "|end game'",
         "'end game' in the end hook"),
        ("  round_end: ['log", "  round_end: ['phase = \"x\"', 'log", CheckError, "|phase = ",
         "the structure of play sets it, no rule can"),
        ("  score: {type:", "  round: {type: int, source: Play}\n  score: {type:", CheckError,
         "|round: {type: int, source", "has the name of the built-in 'round'"),
        ("      turns: clockwise\n", "      turns: clockwise\n      tunr: x\n", SchemaError,
         "|tunr", "tunr"),
        ("      turn: [turn(p)]\n", "      until: all(passed[q] for q in players)\n"
         "      turn: [turn(p)]\n", CheckError, "all(|passed",
         "'passed' exists only when a phase's turns go on 'until: all_passed'"),
    ],
)  # fmt: skip
def test_misuse_is_refused_where_it_is(
    tmp_path: Path, old: str, new: str, error: type[MeepleError], at: str, message: str
) -> None:
    refused(tmp_path, edit(STRUCTURED, old, new), error, at, message)


def test_loops_still_work_beside_it() -> None:
    # the minimal game's play: is a block of loops; `round` is its own variable there
    checked = load_rules(Path(__file__).parent / "fixtures" / "minimal" / "game.yaml")
    assert checked.game.structure is None and "round" in checked.game.variables


# --------------------------------------------------------------------------- until: all_passed
PASSING = edit(
    STRUCTURED,
    "      turns: clockwise\n      turn: [turn(p)]\n",
    "      turns: clockwise\n"
    "      until: all_passed\n"
    "      turn:\n"
    "        - choose: Draw or pass?\n"
    "          by: p\n"
    "          options:\n"
    "            - label: draw a card\n"
    "              when: count(deck) > 0\n"
    '              do: ["move 1 from deck to hand[p]"]\n'
    "            - {label: pass, do: [pass]}\n",
)


def test_turns_go_round_until_every_seat_has_passed(tmp_path: Path) -> None:
    for log in play_both(write(tmp_path, PASSING), 3, range(6)):
        for rnd in (1, 2, 3):
            turns = [x for x in log if x.startswith(f"Round {rnd}, phase Draw: ")]
            seats = {t.split(": ")[1].split("'")[0] for t in turns}
            assert seats == {"P1", "P2", "P3"}
        # after a seat passes it takes no other turn in that phase
        rnd, out = 0, set()
        for x in log:
            if x.startswith("Round ") and " begins" in x:
                rnd, out = rnd + 1, set()
            elif x.startswith(f"Round {rnd}, phase Draw: "):
                seat = x.split(": ")[1].split("'")[0]
                assert seat not in out, (rnd, seat)
            elif x.endswith("-> pass"):
                out.add(x.split(":")[0])
        assert len(out) == 3  # everyone passed in the last round


def test_pass_needs_a_phase_until_all_passed(tmp_path: Path) -> None:
    text = edit(STRUCTURED, "            do:\n              - move 1 from deck to hand[p]\n",
                "            do:\n              - pass\n")  # fmt: skip
    refused(tmp_path, text, CheckError, "- |pass\n", "this game has no such phase")
    text = edit(PASSING, '["move 1 from deck to hand[p]"]', '["passed[p] = true"]')
    refused(tmp_path, text, CheckError, '|passed[p] = true"', "end a seat's turns with 'pass'")
    md = render_markdown(load_rules(write(tmp_path, PASSING)).game, tmp_path, {})
    assert "round and round until every seat has passed" in md
    assert "The seat whose turn it is passes." in md


def test_turn_order_by_rank_on_a_track(tmp_path: Path) -> None:
    # turns by track order (issue 12: "track order usable as a turn order"): highest first, ties
    # in seat order; the order is taken when the phase begins, so a gain during the phase counts
    # from the next round on
    text = edit(
        STRUCTURED,
        "variables:\n",
        "tracks:\n  gold: {per: players, min: 0, max: 9, at_ends: clamp, source: Play}\n\n"
        "variables:\n",
        "  start: ['log \"the game starts in round {round}\"']\n",
        "  start: ['gold[left_of(first(players))] = 2', 'gold[first(players)] = 1']\n",
        "      turns: clockwise\n      turn: [turn(p)]\n",
        "      turns: track_order(gold)\n"
        "      turn: [turn(p), 'gold[p] += 3 if p == left_of(left_of(first(players))) else 0']\n",
    )
    for log in play_both(write(tmp_path, text), 3, range(3)):
        turns = [x.split(": ")[1] for x in log if x.endswith("'s turn")]
        # round 1: P2 (2 gold), P1 (1), P3 (0); then P3 leads with 3 and more
        assert turns[:3] == ["P2's turn", "P1's turn", "P3's turn"]
        assert turns[3:6] == ["P3's turn", "P2's turn", "P1's turn"]
