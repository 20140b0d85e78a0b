"""pairs(xs, ys) (issue 12 point 6): two ordered lists paired item by item, on both back ends.

"The highest property takes the highest cheque": sort both lists, pair them. The minimal game
scores each hand's cards paired lowest with highest; lists of different lengths are a rule
error, never a silent drop.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.cases import BASE
from test_language_v2 import edit, play_both, refused, write

import meeple
from meeple.dsl.errors import CheckError, RuleError

SCORING = "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)\n"
GAME = edit(
    BASE,
    SCORING,
    "        - for: pr in pairs(sorted(c in hand[p], c.points), sorted(c in hand[p], -c.points))\n"
    "          do:\n"
    "            - score[p] += pr[0].points * pr[1].points\n"
    '            - log "{p} pairs {pr[0]} with {pr[1]}"\n'
    '        - log "{p} - {pairs([1, 2], [3, 4])}"\n',
)


def test_pairs_pairs_item_by_item_on_both_back_ends(tmp_path: Path) -> None:
    logs = play_both(write(tmp_path, GAME), 2, range(4))
    assert any("[[1, 3], [2, 4]]" in line for log in logs for line in log)
    points = {"Coin": 1, "Gem": 2, "Crown": 3}
    path = write(tmp_path, GAME)
    for backend in ("interpreter", "compiled"):
        result = meeple.play(meeple.load(str(path), 2, backend=backend), seed=5)
        for p in (0, 1):
            hand = [points[n] for n in result.state.observation(p)["zones"][f"hand[P{p + 1}]"]]
            want = sum(a * b for a, b in zip(sorted(hand), sorted(hand, reverse=True), strict=True))
            assert result.scores[p] == want, (backend, p, hand)


def test_lists_of_different_lengths_are_a_rule_error(tmp_path: Path) -> None:
    bad = edit(GAME, "pairs([1, 2], [3, 4])", "pairs([1, 2], [3, 4, 5])")
    for backend in ("interpreter", "compiled"):
        with pytest.raises(RuleError, match=r"two lists item by item, but they have 2 and 3"):
            meeple.play(meeple.load(str(write(tmp_path, bad)), 2, backend=backend), seed=1)


def test_pairs_takes_two_lists(tmp_path: Path) -> None:
    bad = edit(GAME, "pairs([1, 2], [3, 4])", "pairs([1, 2], 3)")
    refused(tmp_path, bad, CheckError, '3)}"', "this is not a zone or a list")
    bad = edit(GAME, "pairs([1, 2], [3, 4])", "pairs([1, 2])")
    refused(tmp_path, bad, CheckError, 'pairs([1, 2])}"', "takes 2 argument(s), got 1")


SEATS = edit(
    BASE,
    SCORING,
    SCORING + "    - for: pr in pairs(players, [count(hand[q]) for q in players])\n"
    "      do:\n"
    '        - log "{pr[0]} holds {pr[1]}; {pr}"\n',
)


def test_a_pair_of_two_types_keeps_each_type(tmp_path: Path) -> None:
    # a seat paired with a number is shown as a seat (it was shown as its 0-based number)
    for log in play_both(write(tmp_path, SEATS), 2, range(2)):
        held = [line for line in log if " holds " in line]
        assert [line.split(" ")[0] for line in held] == ["P1", "P2"]
        assert all(
            line.endswith(f"; [{line.split(' ')[0]}, {line.split(' ')[2][:-1]}]") for line in held
        )


def test_a_pair_is_read_at_0_or_1(tmp_path: Path) -> None:
    bad = edit(SEATS, '"{pr[0]} holds', '"{pr[2]} holds')
    refused(tmp_path, bad, CheckError, "{pr[|2]", "a pair of a player and a number is read as x[0]")
