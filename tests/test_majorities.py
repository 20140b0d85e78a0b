"""Majorities (issue 12, language v2): "who has the most X in Y", declared once and called like
a function (docs/language.md, "20. Majorities"). The construct is checked as the other language-v2
constructs: an edit of the minimal game played on both back ends, its meaning pinned on its own,
every misuse refused at its line and column, and its sentence in ``meeple doc``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from hostile.cases import BASE
from hypothesis import given
from hypothesis import strategies as st_
from test_language_v2 import edit, play_both, refused, write

from meeple.dsl.errors import CheckError, SchemaError
from meeple.dsl.loader import load_rules
from meeple.dsl.render import rule_texts
from meeple.rulebook import render_markdown
from meeple.runtime.majorities import majority_has, majority_holders

MAJ = edit(
    BASE,
    "  score: {type: int, per: players, source: Scoring}\n",
    "  score: {type: int, per: players, source: Scoring}\n"
    "  best: {type: player, initial: none, source: Scoring}\n",
    "procedures:\n",
    "majorities:\n"
    "  most_gems:\n"
    "    source: Scoring / Gems\n"
    "    count: count(c for c in hand[p] if c.points == 2)\n"
    "    ties: {2..3: nobody, 4..4: all}\n"
    "  second_gems:\n"
    "    source: Scoring / Gems\n"
    "    second_of: most_gems\n"
    "    ties: all\n"
    "  richest:\n"
    "    source: Scoring / Crowns\n"
    "    params: [k]\n"
    "    each: q\n"
    "    count: count(c for c in hand[q] if c.points == k)\n"
    "    among: others(first(players))\n"
    "    at_least: 0\n"
    "    tie_breakers:\n"
    "      - hand_points(q)\n"
    "      - -count(hand[q])\n"
    "  strongest:\n"
    "    source: Scoring / Strongest\n"
    "    count: hand_points(p)\n"
    "    ties: {chooser: first(players), not_self: true}\n"
    "\n"
    "procedures:\n",
    "      until: round > 3\n",
    "      until: round > 3\n"
    "    - winner: Strongest hand\n"
    "      of: strongest()\n"
    "      as: w\n"
    "    - best = w\n"
    "    - 'log \"gems {most_gems()} then {second_gems()}, crowns {richest(3)}\"'\n",
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)\n",
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)"
    " + (5 if p in most_gems() else 0) + (1 if p in second_gems() else 0)"
    " + (3 if p == best else 0)\n",
)


def st(players: int) -> SimpleNamespace:
    return SimpleNamespace(players=list(range(players)))


def test_the_holders_follow_the_declared_rule() -> None:
    """The run-time half both back ends call: threshold, tie modes per player count,
    tie-breakers in order, second place below the whole first place."""
    nobody_all = "2-3:nobody,4-4:all"
    assert majority_holders(st(2), [0, 1], 1, nobody_all, 1, [2, 1]) == [0]
    assert majority_holders(st(1), [0, 1], 1, nobody_all, 1, [2, 2]) == []  # after eliminations
    assert majority_holders(st(3), [0, 1, 2], 1, nobody_all, 1, [2, 2, 1]) == []
    assert majority_holders(st(4), [0, 1, 2, 3], 1, nobody_all, 1, [2, 2, 1, 2]) == [0, 1, 3]
    assert majority_holders(st(2), [0, 1], 1, "2-4:all", 1, [0, 0]) == []  # at least 1
    assert majority_holders(st(2), [0, 1], 0, "2-4:all", 1, [0, 0]) == [0, 1]
    # the holders keep the order of 'among'
    assert majority_holders(st(3), [2, 0, 1], 1, "2-4:all", 1, [3, 1, 3]) == [2, 1]
    # a tie-breaker decides only among the tied; the next one only if it ties again
    assert majority_holders(st(3), [0, 1, 2], 1, "2-4:nobody", 1, [2, 2, 5], [1, 3, 0]) == [2]
    assert majority_holders(st(3), [0, 1, 2], 1, "2-4:nobody", 1, [2, 2, 1], [1, 3, 9]) == [1]
    tied = ([2, 2, 1], [1, 1, 9], [0, 4, 0])
    assert majority_holders(st(3), [0, 1, 2], 1, "2-4:nobody", 1, *tied) == [1]
    # second place: the best below every player of the first place
    assert majority_holders(st(4), [0, 1, 2, 3], 1, "2-4:all", 2, [3, 3, 2, 2]) == [2, 3]
    assert majority_holders(st(4), [0, 1, 2, 3], 1, "2-4:nobody", 2, [3, 2, 2, 1]) == []
    assert majority_holders(st(4), [0, 1, 2, 3], 1, "2-4:nobody", 2, [3, 0, 2, 0]) == [2]
    assert majority_holders(st(4), [0, 1, 2, 3], 1, "2-4:nobody", 2, [3, 0, 0, 0]) == []


@given(
    counts=st_.lists(st_.integers(0, 3), min_size=1, max_size=5),
    at_least=st_.integers(0, 2),
    ties=st_.sampled_from(["1-6:all", "1-6:nobody", "2-3:nobody,4-6:all"]),
    eliminated=st_.integers(0, 2),
)
def test_asking_one_seat_agrees_with_the_holders(
    counts: list[int], at_least: int, ties: str, eliminated: int
) -> None:
    """``x in M(..)`` is asked seat first (majority_has: the others' counts only when the seat's
    own reaches the threshold); it must answer as membership of the holders, for every seat,
    also one not among the candidates."""
    among = list(range(len(counts)))
    state = st(max(1, len(counts) - eliminated))
    holders = majority_holders(state, among, at_least, ties, 1, counts)
    for who in [*among, len(counts)]:
        asked = majority_has(state, who, among, at_least, ties, lambda x: counts[x])
        assert asked == (who in holders), (who, holders)


def test_majorities_run_alike_on_both_back_ends(tmp_path: Path) -> None:
    path = write(tmp_path, MAJ)
    lines = []
    for players in (2, 3, 4):
        for log in play_both(path, players, range(4)):
            lines += [x for x in log if x.startswith("gems ")]
    assert len(lines) == 12
    assert any("gems [] " in x for x in lines)  # a tie, or nobody with a gem
    assert any(x.startswith("gems [P") for x in lines)


def test_a_chooser_decides_a_tied_winner(tmp_path: Path) -> None:
    """All players tie (everyone counts 1): the first player, who may not pick himself, is
    asked to choose between the others."""
    import meeple

    text = edit(MAJ, "    count: hand_points(p)\n", "    count: 1\n")
    game = meeple.load(str(write(tmp_path, text)), 3)
    s = game.new_initial_state(0)
    while [x[1] for x in s.legal_action_labels()] != ["P2", "P3"]:
        assert not s.is_terminal()
        s.apply_action(s.legal_actions()[0])
    assert s.current_player() == 0
    before = s.to_json()
    s.apply_action(s.legal_actions()[1])
    assert s.is_terminal()
    after_p3 = s.scores()
    s = game.state_from_json(before)
    s.apply_action(s.legal_actions()[0])
    assert [a - b for a, b in zip(after_p3, s.scores(), strict=True)] == [0, -3, 3]


def test_the_rulebook_says_each_majority_as_a_sentence(tmp_path: Path) -> None:
    checked = load_rules(write(tmp_path, MAJ))
    md = render_markdown(checked.game, tmp_path, {})
    assert (
        "- Majority `most_gems()`: the most `count(c for c in hand[p] if c.points == 2)`, "
        "at least 1; with 2–3 players a tie gives nobody the majority, with 4 players all tied "
        "players hold it (rulebook: *Scoring / Gems*)." in md
    )
    assert "second place of `most_gems`" in md and "all tied players hold second place" in md
    assert "a tie is broken by `hand_points(q)`, then `-count(hand[q])`" in md
    assert "`first(players)` chooses among the tied players, never in their own favour" in md
    assert "The holder of the majority `strongest()` wins (“Strongest hand”); a tie goes by" in md
    assert "function most_gems()" not in md
    texts = rule_texts(checked.game)
    assert "majority most_gems()" in texts
    assert any('winner "Strongest hand" of strongest()' in x for x in texts["play"])


@pytest.mark.parametrize(
    ("old", "new", "error", "at", "message"),
    [
        (
            "    ties: all\n",
            "    ties: alll\n",
            SchemaError,
            "ties: |alll",
            "",
        ),
        (
            "    ties: {2..3: nobody, 4..4: all}\n",
            "    ties: {2..3: nobody, 4..4: everyone}\n",
            SchemaError,
            "4..4: |everyone",
            "",
        ),
        (
            "    ties: {2..3: nobody, 4..4: all}\n",
            "    ties: {2..3: nobody}\n",
            CheckError,
            "ties: |{2..3: nobody}",
            "does not say what a tie gives with 4 players",
        ),
        (
            "    ties: {2..3: nobody, 4..4: all}\n",
            "    ties: {2..3: nobody, 3..5: all}\n",
            CheckError,
            "|3..5: all",
            "the tie rule for 3 players is given twice",
        ),
        (
            "    ties: {2..3: nobody, 4..4: all}\n",
            "    ties: {2..3: nobody, 4..5: all}\n",
            CheckError,
            "|4..5: all",
            "the game is for 2 to 4 players, not 5",
        ),
        (
            "    second_of: most_gems\n",
            "    second_of: most_gem\n",
            CheckError,
            "second_of: |most_gem",
            "'second_of' names no first-place majority",
        ),
        (
            "    second_of: most_gems\n",
            "    second_of: most_gems\n    count: 1\n",
            CheckError,
            "|count: 1\n    ties: all",
            "it takes its 'count' from there",
        ),
        (
            "    count: count(c for c in hand[p] if c.points == 2)\n",
            "    count: hand[p]\n",
            CheckError,
            "count: |hand[p]",
            "a majority counts whole numbers",
        ),
        (
            "    - best = w\n",
            "    - best = first(strongest())\n",
            CheckError,
            "best = first(|strongest())",
            "lets a chooser break a tie, which is a decision",
        ),
        (
            "      of: strongest()\n",
            "      of: hand_points(0)\n",
            CheckError,
            "of: |hand_points(0)",
            "a winner's 'of' must call a majority",
        ),
        (
            "      of: strongest()\n",
            "      of: strongest()\n      among: p in players\n",
            SchemaError,
            "|among: p in players",
            "unknown key 'among' in a winner statement",
        ),
        (
            "    each: q\n",
            "    each: k\n",
            CheckError,
            "each: |k",
            "names its candidate 'k', which is also a parameter",
        ),
        (
            "  second_gems:\n",
            "  hand_points:\n",
            CheckError,
            "|hand_points:\n    source: Scoring / Gems",
            "majority 'hand_points' has the name of a function",
        ),
    ],
)
def test_misuse_is_refused_where_it_is(
    tmp_path: Path, old: str, new: str, error: type, at: str, message: str
) -> None:
    text = edit(MAJ, old, new)
    if "hand_points:\n    source: Scoring / Gems" in text:
        text = text.replace("second_of: most_gems\n    ties: all", "count: 1")
    refused(tmp_path, text, error, at, message)


def test_a_winner_needs_a_majority(tmp_path: Path) -> None:
    """The old spelling (among/strength/tie) is gone: one spelling, and the error says how."""
    text = edit(MAJ, "      of: strongest()\n", "")
    refused(tmp_path, text, SchemaError, "- |winner: Strongest hand", "'of'")
    text = edit(MAJ, "      of: strongest()\n", "      among: q in players\n      strength: 1\n")
    with pytest.raises(SchemaError) as info:
        load_rules(write(tmp_path, text))
    assert "write 'of: NAME(...)'" in str(info.value.suggestion)


@pytest.mark.parametrize(
    ("game", "variant", "majority"),
    [
        ("sonnenkoenig", "sole-majorities", "colour_majority"),
        ("louis-xiv", "sole-coat-bonus", "coat_majority"),
        ("louis-xiv", "shared-second-place", "second_influence"),
        ("shadow-of-the-sun", "bloodless-ties", "strongest_legion"),
    ],
)
def test_a_shipped_tie_rule_variant_changes_one_majority(
    game: str, variant: str, majority: str
) -> None:
    """Each of these variants is one 'set:' of a tie rule, and the diff names that majority
    alone: every rule that uses it follows."""
    from meeple import api
    from meeple.diff import rule_changes

    base = api.load_checked(game).game
    changed = api.load_checked(game, variant).game
    (c,) = rule_changes(base, changed)
    assert c.rule.startswith(f"majority {majority}(") and c.status == "changed"
    assert base.majorities[majority].ties != changed.majorities[majority].ties
