"""Names, seats and statement keys the checker refuses (found by a new-user trial).

* A name may not be bound where it is already visible: both back ends keep one environment per
  procedure call, so an inner binding would outlive its block (docs/language.md, "Local names").
* ``by:`` and ``tie.chooser`` need a player, not any number.
* Reserved words, and names of zones, kinds and built-ins, are not names of locals or variables.

Each case is an edit of the minimal game (tests/fixtures/minimal/game.yaml); the error must be
positioned at the line of ``at`` (its first occurrence in the edited text, '|' marks the column).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hostile.cases import edit, position

from meeple import api
from meeple.cli import main
from meeple.dsl.errors import CheckError, MeepleError, SchemaError
from meeple.dsl.loader import load_rules

ROOT = Path(__file__).parent.parent
DRAW = "              - move 1 from deck to hand[p]\n"  # in turn(p), option "draw a card"
DISCARD = "                count: 1\n"  # the last key of turn's pick


def refused(tmp_path: Path, text: str, error: type[MeepleError], at: str) -> MeepleError:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MeepleError) as info:
        load_rules(path)
    e = info.value
    assert type(e) is error, e.render()
    assert e.span is not None and (e.span.line, e.span.col) == position(text, at), e.render()
    return e


def accepted(tmp_path: Path, text: str) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    load_rules(path)
    for backend in ("interpreter", "compiled"):
        assert api.play(api.load(str(path), 2, backend=backend), seed=1).state.is_terminal()


# ------------------------------------------------------------------ 1. no shadowing
SHADOWS = {
    # a loop over players inside turn(p): the loop's last seat would take p's place
    "for-hides-parameter": (
        edit(
            DRAW,
            DRAW + "              - for: p in players\n                do: ['log \"at {p}\"']\n",
        ),
        "              - |for: p in players",
        "a loop name 'p' would hide 'p', a parameter of 'turn' bound at line 62",
        "choose another name, e.g. p2",
    ),
    "let-in-if-hides-let": (
        edit(
            DRAW,
            DRAW + "              - let n = 1\n              - if: true\n"
            '                then: [let n = 2]\n              - log "{n}"\n',
        ),
        "then: [|let n = 2]",
        "a 'let' name 'n' would hide 'n', a 'let' name bound at line 72",
        "choose another name, e.g. n2",
    ),
    "let-hides-parameter": (
        edit(DRAW, DRAW + "              - let p = 0\n"),
        "              - |let p = 0",
        "would hide 'p', a parameter of 'turn'",
        None,
    ),
    "pick-as-parameter": (
        edit(DISCARD, DISCARD + "                as: p\n"),
        "              - |pick: Discard a card",
        "the 'as' name of a pick 'p' would hide 'p'",
        None,
    ),
    "pick-each-loop-name": (
        edit(DISCARD, DISCARD + "                each: p\n                where: true\n"),
        "                where: |true",
        "the 'each' name of a pick 'p' would hide 'p'",
        None,
    ),
    "picked-hides-let": (
        edit(
            "          - label: discard a card\n            when: count(hand[p]) > 0\n"
            "            do:\n",
            "          - label: discard a card\n            when: count(hand[p]) > 0\n"
            "            do:\n              - let picked = 0\n",
            DISCARD,
            DISCARD + "                where: count(picked) < 2\n",
        ),
        "                where: |count(picked) < 2",
        "the list of picked cards in a pick's where 'picked' would hide 'picked'",
        None,
    ),
    "option-for-hides-loop": (
        edit(
            "          - label: draw a card\n",
            "          - label: pass {p}\n            for: p in players\n"
            "          - label: draw a card\n",
        ),
        "          - |label: pass {p}",
        "an option's 'for' name 'p' would hide 'p'",
        None,
    ),
    "nested-loops-same-name": (
        edit(
            "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)\n",
            "        - for: p in players\n          do: ['log \"{p}\"']\n",
        ),
        "        - |for: p in players\n          do: [",
        "a loop name 'p' would hide 'p', a loop name bound at line 84",
        None,
    ),
    "duplicate-parameter": (
        edit("params: [p]\n    do", "params: [p, p]\n    do"),
        "  |turn:",
        "a parameter of 'turn' 'p' would hide 'p'",
        None,
    ),
}


@pytest.mark.parametrize("case", SHADOWS, ids=list(SHADOWS))
def test_a_name_may_not_be_bound_where_it_is_visible(case: str, tmp_path: Path) -> None:
    text, at, message, suggestion = SHADOWS[case]
    e = refused(tmp_path, text, CheckError, at)
    assert message in e.message, e.render()
    assert "a name may not be bound where it is already visible" in e.message
    if suggestion is not None:
        assert e.suggestion == suggestion


def test_the_new_user_leak_in_harbour_guilds_is_refused(tmp_path: Path) -> None:
    # the trial's repro: a loop over players just before the turn's final draw made every draw
    # go to the loop's last seat, on both back ends
    game = tmp_path / "leak"
    shutil.copytree(ROOT / "rules" / "harbour-guilds", game)
    draw = "            - if: count(draw_pile) > 0\n"
    text = (game / "game.yaml").read_text(encoding="utf-8")
    assert text.count(draw) == 1
    loop = (
        "            - for: p in players\n"
        "              do:\n"
        '                - log "looking at {p}"\n'
    )
    (game / "game.yaml").write_text(text.replace(draw, loop + draw), encoding="utf-8")
    with pytest.raises(CheckError) as info:
        load_rules(game)
    e = info.value
    assert e.span is not None and e.span.line == text[: text.index(draw)].count("\n") + 1
    # p is the seat of the phase's turns (its 'phase:' line)
    assert "'p' would hide 'p', a loop name bound at line 57" in e.message
    assert main(["check", str(game)]) != 0


def test_sibling_blocks_and_comprehensions_may_reuse_a_name(tmp_path: Path) -> None:
    # two loops one after the other, an if and its else, and a comprehension (whose name both
    # back ends restore when it ends) may each bind a name again
    text = edit(
        DRAW,
        DRAW
        + "              - for: q in players\n                do: ['log \"a {q}\"']\n"
        + "              - for: q in players\n                do: ['log \"b {q}\"']\n"
        + "              - if: true\n                then: [let k = 1]\n"
        + "                else: [let k = 2]\n"
        + "              - round += count(p for p in players if p != 0)\n",
    )
    accepted(tmp_path, text)


# ------------------------------------------------------------------ 2. who decides
TURN_BY = "      - choose: Draw or discard?\n        by: p\n"


@pytest.mark.parametrize(
    "by, message",
    [
        ("count(hand[p])", "'by' must name a player"),
        ("round + 1", "'by' must name a player"),
        ("num_players", "'by' must name a player"),
        ("7", "'by: 7' is not a seat of this game"),
        ("-1", "'by: -1' is not a seat of this game"),
    ],
)
def test_by_needs_a_player(by: str, message: str, tmp_path: Path) -> None:
    text = edit(TURN_BY, f"      - choose: Draw or discard?\n        by: {by}\n")
    e = refused(tmp_path, text, CheckError, f"by: |{by}")
    assert message in e.message


def test_a_pick_and_a_tie_chooser_need_a_player(tmp_path: Path) -> None:
    text = edit("                by: p\n", "                by: count(hand[p])\n")
    refused(tmp_path, text, CheckError, "                by: |count(hand[p])")
    text = edit(
        DRAW,
        DRAW + "              - winner: Best\n                of: best()\n                as: w\n",
    )
    text = text.replace(
        "procedures:\n",
        "majorities:\n  best:\n    source: Turn\n    count: 1\n    ties: {chooser: round}\n\n"
        "procedures:\n",
        1,
    )
    e = refused(tmp_path, text, CheckError, "ties: {chooser: |round}")
    assert "'ties.chooser' must name a player" in e.message


def test_a_literal_seat_and_player_expressions_still_decide(tmp_path: Path) -> None:
    # the documented literal seat (a seat is a number), and player-typed expressions
    text = edit(TURN_BY, "      - choose: Draw or discard?\n        by: left_of(right_of(p))\n")
    accepted(tmp_path, text)
    text = edit(
        "            - turn(p)\n",
        "            - turn(p)\n            - solo()\n",
        "procedures:\n",
        "procedures:\n  solo:\n    source: Turn\n    do:\n"
        "      - choose: Go\n        by: 1\n        options: [{label: a}, {label: b}]\n",
    )
    accepted(tmp_path, text)


# ------------------------------------------------------------------ 4. names that are not names
@pytest.mark.parametrize(
    "old, new, error, at, message",
    [
        (DRAW, DRAW + "              - let true = 5\n", CheckError, "- |let true = 5",
         "'true' is a reserved word"),
        (DRAW, DRAW + "              - let and = 5\n", CheckError, "- |let and = 5",
         "'and' is a reserved word"),
        ("params: [p]\n    do", "params: [p, and]\n    do", SchemaError, "[p, |and]",
         "'and' is a reserved word"),
        (DISCARD, DISCARD + "                as: not\n", SchemaError, "as: |not",
         "'not' is a reserved word"),
        ("  discard: {", "  none: {visibility: public}\n  discard: {", SchemaError, "  |none: {",
         "'none' is a reserved word"),
        (DRAW, DRAW + "              - let hand = 5\n", CheckError, "- |let hand = 5",
         "'hand' is already a name of the game (the zone declared at line 24)"),
        ("params: [p]\n    do", "params: [players]\n    do", CheckError, "  |turn:",
         "'players' is already a name of the game"),
        ("  round: {type", "  hand: {type: int}\n  round: {type", CheckError, "  |hand: {type",
         "variable 'hand' has the name of the zone 'hand' (declared at"),
        ("  round: {type", "  cards: {type: int}\n  round: {type", CheckError, "  |cards: {type",
         "variable 'cards' has the name of the component kind 'cards' (declared at"),
        ("  round: {type", "  players: {type: int}\n  round: {type", CheckError,
         "  |players: {type", "variable 'players' has the name of the built-in name 'players'"),
        ("  discard: {", "  num_players: {visibility: public}\n  discard: {", CheckError,
         "  |num_players: {", "zone 'num_players' has the name of the built-in name 'num_players'"),
    ],
)  # fmt: skip
def test_reserved_and_taken_names_are_refused(
    old: str, new: str, error: type[MeepleError], at: str, message: str, tmp_path: Path
) -> None:
    e = refused(tmp_path, edit(old, new), error, at)
    assert message in e.message, e.render()


# ------------------------------------------------------------------ 3. keys of a statement
IF_AT = DRAW + "              - if: round > 1\n                then: [end game]\n"


@pytest.mark.parametrize(
    "old, new, at, message, suggestion",
    [
        # the do: never ran: an if runs its then
        (DRAW, IF_AT + "                do: [end game]\n", "                |do: [end game]",
         "'do' does not belong to an if statement", None),
        (DRAW, IF_AT + "                by: right_of(p)\n", "                |by: right_of(p)",
         "'by' does not belong to an if statement", None),
        (DRAW, IF_AT + "                until: false\n", "                |until: false",
         "'until' does not belong to an if statement", None),
        (DRAW, IF_AT + "                els: [end game]\n", "                |els: [end game]",
         "unknown key 'els' in an if statement", "did you mean 'else'?"),
        (TURN_BY, TURN_BY + "        count: 2\n", "        |count: 2",
         "'count' does not belong to a choose statement", None),
        (DISCARD, DISCARD + "                until: false\n", "                |until: false",
         "'until' does not belong to a pick statement", "did you mean 'count'?"),
        (DRAW, DRAW + "              - do: [end game]\n                then: [end game]\n",
         "                |then: [end game]", "'then' does not belong to a do statement", None),
        ("      until: round > 3", "      until: round > 3\n      do: [end game]",
         "      |do: [end game]", "'do' does not belong to a repeat statement", None),
    ],
)  # fmt: skip
def test_a_key_that_does_not_belong_to_its_statement_is_refused(
    old: str, new: str, at: str, message: str, suggestion: str | None, tmp_path: Path
) -> None:
    e = refused(tmp_path, edit(old, new), SchemaError, at)
    assert message in e.message, e.render()
    assert e.expected is not None and e.expected.startswith("one of "), e.render()
    assert e.suggestion == suggestion, e.render()


def test_an_if_lists_the_keys_it_takes(tmp_path: Path) -> None:
    e = refused(tmp_path, edit(DRAW, IF_AT + "                do: [end game]\n"), SchemaError,
                "                |do: [end game]")  # fmt: skip
    assert e.expected == "one of if, then, elif, else, source, interpretation"
