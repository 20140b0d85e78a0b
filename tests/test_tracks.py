"""Tracks (issue 12, language v2 step 2): bounded counters declared under ``tracks:``, read and
assigned like variables, with what an assignment past each end does (clamp, refuse, wrap), and
``track_order`` to rank the players by a track.

Like tests/test_language_v2.py: a small edit of the minimal game, played on both back ends, its
meaning checked on its own, its misuse refused at the right line and column, its sentence in
``meeple doc`` checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.cases import BASE
from test_language_v2 import edit, play_both, refused, write

import meeple
from meeple.api import log_lines
from meeple.dsl.errors import CheckError, MeepleError, RuleError, SchemaError
from meeple.dsl.loader import load_rules
from meeple.dsl.render import rule_texts
from meeple.rulebook import render_markdown

ROOT = Path(__file__).resolve().parent.parent

# coins: clamped at 5 (gains beyond are lost), refused below 0; dial: 1 to 4, going round
TRACKS = edit(
    BASE,
    "variables:\n",
    "tracks:\n"
    "  coins: {per: players, min: 0, max: 5, at_ends: {min: refuse, max: clamp}, source: Turn}\n"
    "  dial: {min: 1, max: 4, at_ends: wrap, source: Play}\n"
    "\n"
    "variables:\n",
    "              - move 1 from deck to hand[p]\n",
    "              - move 1 from deck to hand[p]\n"
    "              - coins[p] += 2\n"
    "              - dial += 3\n",
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)",
    "        - score[p] = hand_points(p) + coins[p] + dial",
)


def _setup(text: str, lines: str) -> str:
    """``text`` with ``lines`` (statements, 4 spaces in) run first in setup."""
    return edit(text, "    - shuffle deck\n", lines + "    - shuffle deck\n")


def _vars(path: Path, players: int = 4) -> list[dict[str, object]]:
    """The saved variables after setup, on the interpreter and the generated module."""
    out = []
    for backend in ("interpreter", "compiled"):
        game = meeple.load(str(path), players, backend=backend)
        out.append(game.new_initial_state(0).to_json()["vars"])
    return out


def test_tracks_play_alike_on_both_back_ends(tmp_path: Path) -> None:
    path = write(tmp_path, TRACKS)
    for players in (2, 4):
        play_both(path, players, range(3))
    result = meeple.play(meeple.load(str(path), 2), seed=1)
    vars_ = result.state.to_json()["vars"]
    assert all(0 <= c <= 5 for c in vars_["coins"]) and 1 <= vars_["dial"] <= 4


def test_clamp_and_wrap(tmp_path: Path) -> None:
    text = _setup(
        TRACKS,
        "    - coins[0] += 7\n"  # 7 > 5: stops at 5, the excess is lost
        "    - coins[1] = 4\n"
        "    - coins[1] += 1\n"  # exactly the end: 5
        "    - dial += 6\n"  # 1 + 6 = 7: round the 4 spaces to 3
        "    - dial -= 5\n"  # 3 - 5 = -2: round the other way to 2
        "    - dial = 4\n"
        "    - dial += 1\n",  # 5: back to 1
    )
    a, b = _vars(write(tmp_path, text))
    assert a == b
    assert a["coins"] == [5, 5, 0, 0] and a["dial"] == 1
    wrap = _setup(TRACKS, "    - dial += 6\n    - dial -= 5\n")
    a, b = _vars(write(tmp_path, wrap))
    assert a["dial"] == b["dial"] == 2


@pytest.mark.parametrize(
    ("lines", "message", "at"),
    [
        ("    - coins[2] -= 1\n", "'coins' would fall to -1, below its minimum 0", "coins[2] -= 1"),
        # a refusing top end: the same error, above
        ("    - score[0] = 6\n", "'score' would rise to 6, above its maximum 5", "score[0] = 6"),
    ],
)
def test_a_refusing_end_is_a_rule_error_on_both_back_ends(
    tmp_path: Path, lines: str, message: str, at: str
) -> None:
    text = edit(
        _setup(TRACKS, lines),
        "  score: {type: int, per: players, source: Scoring}\n",
        "",
        "  dial: {",
        "  score: {per: players, min: 0, max: 5, at_ends: refuse, source: Scoring}\n  dial: {",
    )
    path = write(tmp_path, text)
    for backend in ("interpreter", "compiled"):
        game = meeple.load(str(path), 4, backend=backend)
        with pytest.raises(RuleError) as e:
            game.new_initial_state(0)
        assert e.value.message == message, backend
        assert (
            e.value.span is not None and e.value.span.line == text[: text.index(at)].count("\n") + 1
        ), backend


def test_a_track_starts_at_its_min_unless_told(tmp_path: Path) -> None:
    a, _ = _vars(write(tmp_path, TRACKS))
    assert a["coins"] == [0, 0, 0, 0] and a["dial"] == 1
    text = edit(TRACKS, "  dial: {min: 1,", "  dial: {initial: 3, min: 1,")
    a, b = _vars(write(tmp_path, text))
    assert a["dial"] == b["dial"] == 3


def test_track_order_ranks_players_highest_first(tmp_path: Path) -> None:
    text = _setup(
        TRACKS,
        "    - coins[0] = 3\n"
        "    - coins[1] = 5\n"
        "    - coins[2] = 3\n"
        "    - coins[3] = 1\n"
        '    - log "seat order {track_order(coins)}"\n'
        '    - log "from P3 {track_order(coins, clockwise_from(2))}"\n'
        '    - log "others {track_order(coins, others(1))}"\n',
    )
    path = write(tmp_path, text)
    logs = []
    for backend in ("interpreter", "compiled"):
        game = meeple.load(str(path), 4, backend=backend)
        logs.append([x for x in log_lines(game.new_initial_state(0, record_log=True)) if "P" in x])
    assert logs[0] == logs[1]
    assert "seat order [P2, P1, P3, P4]" in logs[0]  # P1 and P3 tied: seat order
    assert "from P3 [P2, P3, P1, P4]" in logs[0]  # tied: P3 first, clockwise from P3
    assert "others [P3, P1, P4]" in logs[0]  # only the players listed, tied: P3 first after P2


@pytest.mark.parametrize(
    ("old", "new", "error", "at", "message"),
    [
        (  # one spelling: a bounded variable is a track
            "  round: {type: int, initial: 1, source: Play}",
            "  round: {type: int, initial: 1, max: 9, source: Play}",
            SchemaError, "|max: 9", "unknown key 'max' in 'variables.round'",
        ),
        (
            "  dial: {min: 1, max: 4, at_ends: wrap,",
            "  dial: {min: 1, at_ends: wrap,",
            CheckError, "at_ends: |wrap", "track 'dial' wraps but has no max",
        ),
        (
            "at_ends: {min: refuse, max: clamp}",
            "at_ends: {min: refuse, max: wrap}",
            CheckError, "at_ends: |{min", "track 'coins' wraps at one end only",
        ),
        (
            "min: 0, max: 5, at_ends: {min: refuse, max: clamp}",
            "min: 0, at_ends: {min: refuse, max: clamp}",
            CheckError, "|max: clamp", "track 'coins' says what happens above its max",
        ),
        (
            "at_ends: wrap,", "at_ends: bounce,", SchemaError, "at_ends: |bounce", "",
        ),
        (
            "at_ends: wrap, source: Play}", "source: Play}", SchemaError, "  |dial:", "at_ends",
        ),
        (
            "  dial: {min: 1, max: 4,", "  dial: {min: 1, max: four,", CheckError, "max: |four",
            "the max of a track must be a number or a number constant, not 'four'",
        ),
        (
            "  dial: {min: 1, max: 4,", "  dial: {min: 4, max: 1,", CheckError, "max: |1",
            "track 'dial' has min 4 above its max 1",
        ),
        (
            "  dial: {", "  round: {min: 1, at_ends: clamp}\n  dial: {", CheckError,
            "  |round: {min", "'round' is declared both as a variable and as a track",
        ),
        (
            "score[p] = hand_points(p) + coins[p] + dial",
            "score[p] = count(track_order(dial))",
            CheckError, "track_order(|dial)", "track_order() takes the name of a per-player track",
        ),
        (
            "score[p] = hand_points(p) + coins[p] + dial",
            "score[p] = count(track_order(coins, [true]))",
            CheckError, "coins, |[true]", "wrong type",
        ),
        (
            "              - dial += 3\n", "              - dial += true\n",
            CheckError, "dial += |true", "",
        ),
    ],
)  # fmt: skip
def test_track_misuse_is_refused_at_its_place(
    tmp_path: Path, old: str, new: str, error: type[MeepleError], at: str, message: str
) -> None:
    refused(tmp_path, edit(TRACKS, old, new), error, at, message)


def test_a_bounded_variable_is_told_to_be_a_track(tmp_path: Path) -> None:
    text = edit(TRACKS, "{type: int, initial: 1,", "{type: int, min: 1, initial: 1,")
    with pytest.raises(SchemaError) as e:
        load_rules(write(tmp_path, text))
    assert "declare it under 'tracks:'" in (e.value.suggestion or "")


def test_tracks_in_the_rule_language_and_the_rulebook(tmp_path: Path) -> None:
    checked = load_rules(write(tmp_path, TRACKS))
    texts = rule_texts(checked.game)
    assert texts["variable coins"] == [
        "int per players = 0, min 0, max 5, at ends refuse at min, clamp at max"
    ]
    assert texts["variable dial"] == ["int = 1, min 1, max 4, at ends wrap"]
    md = render_markdown(checked.game, tmp_path, {})
    assert (
        "- `coins`: a track from 0 to 5 per player; gains beyond 5 are lost; "
        "it may never fall below 0 (a rule error). It starts at `0`." in md
    )
    assert (
        "- `dial`: a track from 1 to 4; it goes round: past 4 it comes back to 1, "
        "and the other way. It starts at `1`." in md
    )


def test_the_emperor_thaler_track_and_its_variant() -> None:
    """The shipped game declares its thalers as a track; the variant moves the cap in one line
    and both back ends follow it."""
    md = render_markdown(
        load_rules(ROOT / "rules" / "shadow-of-the-emperor" / "game.yaml").game, ROOT, {}
    )
    assert "- `thalers`: a track from 0 to 12 per player; gains beyond 12 are lost;" in md
    for backend in ("interpreter", "compiled"):
        game = meeple.load(
            str(ROOT / "rules" / "shadow-of-the-emperor"), 4, variant="tight-purse", backend=backend
        )
        assert game.checked.game.variables["thalers"].max == 8, backend
        result = meeple.play(game, seed=0)
        assert max(result.state.to_json()["vars"]["thalers"]) <= 8, backend


def test_a_scenario_cannot_put_a_marker_off_its_track(tmp_path: Path) -> None:
    from meeple.scenarios import ScenarioError, run_scenario

    game = ROOT / "rules" / "shadow-of-the-emperor"
    text = (game / "scenarios" / "income.yaml").read_text(encoding="utf-8")
    scenario = tmp_path / "off.yaml"
    scenario.write_text(text.replace("thalers: [3, 1, 0]", "thalers: [3, 13, 0]"), "utf-8")
    with pytest.raises(ScenarioError) as e:
        run_scenario(scenario, meeple.load(str(game), 3))
    assert e.value.message == "13 is off the track 'thalers'"
    assert e.value.expected == "a value from 0 to 12"


def test_observation_bounds_are_the_track_ends() -> None:
    from meeple.ai.observation import observation_spec

    spec = observation_spec(meeple.load(str(ROOT / "rules" / "shadow-of-the-emperor"), 3))
    field = next(f for f in spec.fields if f.name == "var thalers")
    assert list(spec.low[field.start : field.stop]) == [0, 0, 0]
    assert list(spec.high[field.start : field.stop]) == [12, 12, 12]
    assert "thalers" not in spec.clipped
