"""Spaces of a track with effects (issue 12, tracks): ``spaces:`` under a track, each
``reached: N`` or ``passed: N`` with a ``do`` block that runs, as a trigger's body does, after
the assignment that moved the marker up onto/past the space, once per space crossed, in the
order the marker meets them, with the seat of a per-player track named ``p`` (or ``as``).

Like tests/test_tracks.py: edits of the minimal game, played on both back ends, the meaning
pinned on its own, every misuse refused at its line and column, the sentence of ``meeple doc``
checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.cases import BASE
from test_language_v2 import edit, play_both, refused, write

import meeple
from meeple.dsl.errors import CheckError, MeepleError, RuleError, SchemaError
from meeple.dsl.loader import load_rules
from meeple.rulebook import render_markdown

# fame: per player, 0 to 6; reaching 3 lets the player discard a card (a decision inside the
# effect), passing 4 gives one more fame (an effect moving its own track). dial: 1 to 4, going
# round; each time it comes round to 1, a lap is counted.
SPACES = edit(
    BASE,
    "variables:\n",
    "tracks:\n"
    "  fame:\n"
    "    per: players\n"
    "    min: 0\n"
    "    max: 6\n"
    "    at_ends: clamp\n"
    "    source: Turn\n"
    "    spaces:\n"
    "      - reached: 3\n"
    "        source: Turn / Fame\n"
    "        do:\n"
    '          - log "{p} reaches 3"\n'
    "          - pick: Discard a card for fame\n"
    "            by: p\n"
    "            from: hand[p]\n"
    "            to: discard\n"
    "            min: 0\n"
    "            max: 1\n"
    "      - passed: 4\n"
    "        source: Turn / Fame\n"
    "        do:\n"
    '          - log "{p} passes 4"\n'
    "          - fame[p] += 1\n"
    "  dial:\n"
    "    min: 1\n"
    "    max: 4\n"
    "    at_ends: wrap\n"
    "    source: Play\n"
    "    spaces:\n"
    "      - reached: 1\n"
    "        source: Play / Dial\n"
    "        do: [laps += 1]\n"
    "\n"
    "variables:\n"
    "  laps: {type: int, initial: 0, source: Play}\n",
    "              - move 1 from deck to hand[p]\n",
    "              - move 1 from deck to hand[p]\n"
    "              - fame[p] += 2\n"
    "              - dial += 3\n",
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)",
    "        - score[p] = hand_points(p) + fame[p] + laps",
)

# t: per player, 0 to 9, clamped; each effect appends a digit to seq (the order the effects
# ran) and counts in who the seat it names. dial: 1 to 4, going round.
ORDER = edit(
    BASE,
    "variables:\n",
    "tracks:\n"
    "  t:\n"
    "    per: players\n"
    "    min: 0\n"
    "    max: 9\n"
    "    at_ends: clamp\n"
    "    source: Turn\n"
    "    spaces:\n"
    "      - {passed: 8, source: S, do: [seq = seq * 10 + 8]}\n"
    "      - {reached: 5, source: S, do: [seq = seq * 10 + 5]}\n"
    "      - {passed: 3, source: S, do: [seq = seq * 10 + 4]}\n"
    "      - {reached: 3, as: q, source: S, do: [seq = seq * 10 + 3, 'who[q] += 1']}\n"
    "  dial:\n"
    "    min: 1\n"
    "    max: 4\n"
    "    at_ends: wrap\n"
    "    source: Play\n"
    "    spaces:\n"
    "      - {reached: 1, source: S, do: [seq = seq * 10 + 1]}\n"
    "      - {passed: 4, source: S, do: [seq = seq * 10 + 7]}\n"
    "\n"
    "variables:\n"
    "  seq: {type: int, initial: 0, source: Play}\n"
    "  who: {type: int, per: players, source: Play}\n",
)


ONE = "      - {reached: 5, source: S, do: [seq = seq * 10 + 5]}\n"


def _after_setup(text: str, lines: str, tmp_path: Path, players: int = 4) -> dict[str, object]:
    """The variables once ``lines`` (statements, 4 spaces in) ran first in setup: equal on the
    interpreter and the generated module."""
    path = write(tmp_path, edit(text, "    - shuffle deck\n", lines + "    - shuffle deck\n"))
    out = []
    for backend in ("interpreter", "compiled"):
        game = meeple.load(str(path), players, backend=backend)
        out.append(game.new_initial_state(0).to_json()["vars"])
    assert out[0] == out[1]
    return out[0]


def test_space_effects_play_alike_on_both_back_ends(tmp_path: Path) -> None:
    path = write(tmp_path, SPACES)
    logs = [line for n in (2, 4) for log in play_both(path, n, range(4)) for line in log]
    # the effects ran, the decision inside one too (and play_both resumed states inside them)
    assert any(line.endswith("reaches 3") for line in logs)
    assert any("Discard a card for fame ->" in line for line in logs)
    result = meeple.play(meeple.load(str(path), 2, backend="compiled"), seed=1)
    assert result.state.to_json()["vars"]["laps"] == 2  # 1 + 3 + 3 + 3: round twice


@pytest.mark.parametrize(
    ("lines", "seq", "who", "t"),
    [
        # up across all of them: in the order the marker meets them, leaving 3 before 5
        ("    - t[2] += 9\n", 3458, [0, 0, 1, 0], 9),
        # down sets off nothing; up again sets them off again
        ("    - t[1] = 4\n    - t[1] -= 4\n    - t[1] += 3\n", 343, [0, 2, 0, 0], 3),
        # onto the space: reached; leaving it: passed
        ("    - t[0] = 3\n    - t[0] = 4\n", 34, [1, 0, 0, 0], 4),
        # clamped at 9: the marker stops on 9, so it did pass 8
        ("    - t[3] = 20\n", 3458, [0, 0, 0, 1], 9),
        # no crossing when it does not move, or moves within one space's span
        ("    - t[0] = 0\n    - t[0] = 5\n    - t[0] = 5\n    - t[0] += 3\n", 345, [1, 0, 0, 0], 8),
    ],
)
def test_spaces_run_once_per_crossing_in_order(
    tmp_path: Path, lines: str, seq: int, who: list[int], t: int
) -> None:
    got = _after_setup(ORDER, lines, tmp_path)
    assert (got["seq"], got["who"], max(got["t"])) == (seq, who, t)  # type: ignore[call-overload]


def test_leaving_a_space_comes_before_reaching_the_next(tmp_path: Path) -> None:
    # passed 3 and reached 4 are the same step (3 -> 4), listed the other way round
    text = edit(ORDER, ONE, "      - {reached: 4, source: S, do: [seq = seq * 10 + 6]}\n")
    assert _after_setup(text, "    - t[0] += 5\n", tmp_path)["seq"] == 346


def test_a_wrapping_marker_meets_its_spaces_each_time_round(tmp_path: Path) -> None:
    # 1 + 9 = 10: round twice (5 and 9 are space 1): leaving 4 before coming to 1
    assert _after_setup(ORDER, "    - dial += 9\n", tmp_path)["seq"] == 7171
    # down, even round the bottom, sets off nothing
    assert _after_setup(ORDER, "    - dial -= 5\n", tmp_path)["seq"] == 0
    # a jump of a billion laps: refused at the statement, without listing them all
    path = write(tmp_path, edit(ORDER, "    - shuffle deck\n", "    - dial += 1000000000\n"))
    for backend in ("interpreter", "compiled"):
        with pytest.raises(RuleError, match="nest more than"):
            meeple.load(str(path), 2, backend=backend).new_initial_state(0)
    # set to a value: the marker goes up to it the short way, no lap
    assert _after_setup(ORDER, "    - dial = 3\n    - dial = 4\n", tmp_path)["seq"] == 0


def test_an_effect_that_moves_its_track_runs_its_spaces_after_it(tmp_path: Path) -> None:
    text = edit(
        ORDER,
        "{reached: 5, source: S, do: [seq = seq * 10 + 5]}",
        "{reached: 5, source: S, do: ['t[p] += 4', seq = seq * 10 + 5]}",
    )
    # 0 -> 5: reached 3, passed 3, reached 5, whose first statement moves the marker on to 9:
    # passing 8 runs right after that statement, before the effect's next one (which adds 5)
    assert _after_setup(text, "    - t[1] += 5\n", tmp_path)["seq"] == 3485


def test_an_effect_that_sets_itself_off_without_end_is_a_rule_error(tmp_path: Path) -> None:
    text = edit(
        ORDER,
        "{reached: 5, source: S, do: [seq = seq * 10 + 5]}",
        "{reached: 5, source: S, do: ['t[p] -= 1', 't[p] += 1']}",
    )
    path = write(tmp_path, edit(text, "    - shuffle deck\n", "    - t[0] = 5\n"))
    for backend in ("interpreter", "compiled"):
        game = meeple.load(str(path), 2, backend=backend)
        with pytest.raises(RuleError, match="nest more than") as e:
            game.new_initial_state(0)
        assert (
            e.value.span is not None
            and e.value.span.line == text.count("\n", 0, text.index("t[p] += 1")) + 1
        )


@pytest.mark.parametrize(
    ("old", "new", "error", "at", "message"),
    [
        (
            ONE,
            "      - {reached: 10, source: S, do: []}\n",
            CheckError,
            "reached: |10",
            "space 10 is not on track 't', which runs from 0 to 9",
        ),
        (
            ONE,
            "      - {reached: -1, source: S, do: []}\n",
            CheckError,
            "reached: |-1",
            "space -1 is not on track 't'",
        ),
        (
            ONE,
            "      - {passed: 9, source: S, do: []}\n",
            CheckError,
            "passed: |9",
            "no marker ever goes past space 9, the last space of track 't'",
        ),
        (
            ONE,
            "      - {reached: 5, passed: 5, source: S, do: []}\n",
            CheckError,
            "|{reached: 5, p",
            "exactly one of 'reached' or 'passed', not both",
        ),
        (
            ONE,
            "      - {source: S, do: []}\n",
            CheckError,
            "|{source: S, do: []}",
            "exactly one of 'reached' or 'passed'",
        ),
        (
            ONE,
            "      - {reached: 3, source: S, do: []}\n",
            CheckError,
            "{reached: |3, as: q",
            "track 't' has two effects for reached 3",
        ),
        (
            ONE,
            "      - {when: reached, source: S, do: []}\n",
            SchemaError,
            "{|when: reached",
            "unknown key 'when'",
        ),
        (
            ONE,
            "      - {reached: five, source: S, do: []}\n",
            CheckError,
            "reached: |five",
            "must be a number or a number constant, not 'five'",
        ),
        (
            ONE,
            "      - {reached: 5, do: []}\n",
            CheckError,
            "|{reached: 5, do: []}",
            "the effect of reached 5 on track 't' does not cite its rulebook section",
        ),
        (ONE, "      - {reached: 5, as: seq, source: S, do: []}\n", CheckError, "as: |seq", "seq"),
        (
            "      - {reached: 1, source: S, do: [seq = seq * 10 + 1]}\n",
            "      - {reached: 1, as: q, source: S, do: []}\n",
            CheckError,
            "{reached: 1, as: |q",
            "track 'dial' has one marker for the whole game: no seat to name with 'as'",
        ),
        # the seat is a player: its effect cannot use it as a number
        (ONE, "      - {reached: 5, source: S, do: [seq = p]}\n", CheckError, "seq = |p", "player"),
        (
            "    per: players\n",
            "    per: cards\n",
            CheckError,
            "at_ends: clamp\n    source: Turn\n    |spaces:",
            "track 't' is per cards: a space's effect names the seat whose marker moved",
        ),
    ],
)
def test_space_misuse_is_refused_at_its_place(
    tmp_path: Path, old: str, new: str, error: type[MeepleError], at: str, message: str
) -> None:
    refused(tmp_path, edit(ORDER, old, new), error, at, message)


def test_space_effects_in_the_rulebook(tmp_path: Path) -> None:
    checked = load_rules(write(tmp_path, SPACES))
    md = render_markdown(checked.game, tmp_path, {})
    assert (
        "  - Reaching space 3 of `fame` (each time the marker of `p` moves up onto or past it) "
        "(rulebook: *Turn / Fame*):\n"
        "    - Announce “{p} reaches 3”.\n"
    ) in md
    assert "  - Passing space 4 of `fame` (each time the marker of `p` moves up beyond it)" in md
    assert (
        "  - Reaching space 1 of `dial` (each time the marker moves up onto or past it, also "
        "going round) (rulebook: *Play / Dial*):\n    - Add `1` to `laps`.\n"
    ) in md
