"""Bad input never gives a traceback, a hang or a runaway: each is a clear, positioned error."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple import api
from meeple.cli import main
from meeple.dsl.errors import MeepleError, RuleError, YamlError
from meeple.dsl.loader import load_rules

SUN = Path(__file__).resolve().parent.parent / "rules" / "shadow-of-the-sun" / "game.yaml"


def _sun_with(tmp_path: Path, old: str, new: str) -> Path:
    text = SUN.read_text()
    assert text.count(old) == 1, old
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(old, new))
    return path


def _play(path: Path) -> None:
    api.play(api.load(str(path), players=4), seed=1, record_log=False)


def test_a_procedure_calling_itself_forever_is_stopped(tmp_path: Path) -> None:
    path = _sun_with(tmp_path, "      - bonus(p)\n", "      - bonus(p)\n      - turn(p)\n")
    with pytest.raises(RuleError, match="calls nest more than 200 deep") as e:
        _play(path)
    body = SUN.read_text().splitlines().index("      - bonus(p)") + 1  # turn(p) comes next
    assert e.value.span is not None and e.value.span.line in (body, body + 1)


def test_a_huge_range_is_refused(tmp_path: Path) -> None:
    path = _sun_with(
        tmp_path,
        "    - for: p in players\n      do:\n        - move 3",
        "    - for: p in 1..1000000000\n      do:\n        - move 3",
    )
    with pytest.raises(RuleError, match="has more than 10000 numbers"):
        _play(path)


def test_a_huge_card_count_is_a_schema_error(tmp_path: Path) -> None:
    path = _sun_with(tmp_path, "{name: Ghoul, count: 10,", "{name: Ghoul, count: 100000000,")
    with pytest.raises(MeepleError, match="count"):
        load_rules(path)


def test_a_seat_out_of_range_is_named(tmp_path: Path) -> None:
    path = _sun_with(
        tmp_path, "supreme: {type: player, initial: 0,", "supreme: {type: player, initial: 7,"
    )
    with pytest.raises(RuleError, match="seat 7, but seats are 0 to 3") as e:
        _play(path)
    assert e.value.span is not None and e.value.span.col > 1


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("group_by: name", "group_by: nam", "groups by 'nam', which no component has"),
        ("players: {min: 3, max: 4}", "players: {min: 5, max: 3}", "min is above max"),
        (
            'value: "count(m for m in markers_on[d] if m.owner == p)"',
            "value: \"count(m for m in markers_on[d] if m.owner == 'p')\"",
            "compares a player with a text",
        ),
    ],
)
def test_mistakes_found_by_check(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(MeepleError, match=message):
        load_rules(_sun_with(tmp_path, old, new))


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe\x00garbage",
        b"game: caf\xe9\n",
        b"game: x\n\x00\n",
        b"",
        b"null\n",
        b"- a\n",
        b"game: [\n",
    ],
)
def test_unreadable_files_are_errors_not_tracebacks(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.yaml"
    path.write_bytes(content)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:" in err and "error:" in err and "Traceback" not in err


def test_unclosed_bracket_points_at_its_opening(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("game: [\n")
    with pytest.raises(YamlError) as e:
        load_rules(path)
    assert e.value.span is not None and (e.value.span.line, e.value.span.col) == (1, 7)


def test_api_type_mistakes_are_meeple_errors(sun4: meeple.interpreter.game.Game) -> None:
    for seed in (None, "abc", 1.5):
        with pytest.raises(MeepleError, match="a seed is a whole number"):
            sun4.new_initial_state(seed)  # type: ignore[arg-type]
    with pytest.raises(MeepleError, match="number of players is a whole number"):
        meeple.load("shadow-of-the-sun", players="4")  # type: ignore[arg-type]
    for data in (
        "x",
        {},
        {"zones": [], "frames": []},
        {"zones": 1, "frames": 2, "game": "shadow-of-the-sun", "num_players": 4},
    ):
        with pytest.raises(MeepleError):
            sun4.state_from_json(data)  # type: ignore[arg-type]
    state = sun4.new_initial_state(1)
    with pytest.raises(meeple.IllegalActionError, match="whole number"):
        state.apply_action("0")  # type: ignore[arg-type]
    assert sun4.num_players() == 4


def test_scenarios_command_counts_a_broken_scenario_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    game = tmp_path / "sun"
    shutil.copytree(SUN.parent, game)
    (game / "scenarios" / "aaa-broken.yaml").write_text(
        "scenario: broken\nplayers: 4\ngiven:\n  variables: {supreme: P7}\n"
    )
    assert main(["scenarios", str(game)]) == 2  # bad input, as other commands exit
    out, err = capsys.readouterr()
    assert "FAIL aaa-broken.yaml" in out and "pass usurp.yaml" in out
    assert "'P7' is not a seat of this game" in err


DAMAGE = {
    "players not seats": lambda d: d.update(players="x"),
    "players nested": lambda d: d.update(players=[[1]]),
    "a zone missing": lambda d: d["zones"].pop(),
    "a zone too many": lambda d: d["zones"].append([]),
    "move number not a number": lambda d: d.update(move_number=None),
    "rng not a number": lambda d: d.update(rng="x"),
    "an unknown phase": lambda d: d.update(phase="lunch"),
    "variables missing": lambda d: d.update(vars={}),
    "an action id out of range": lambda d: d["pending"]["actions"].__setitem__(0, 10**6),
    "a frame of no op": lambda d: d["frames"][0].update(op=10**6),
    "a block resumed past its end": lambda d: d["frames"][0].update(pc=10**4),
    "a decision asked by a block": lambda d: d["pending"].update(op=d["frames"][0]["op"]),
    "a variable of the wrong type": lambda d: d["vars"].update(supreme="2"),
    "a seat that does not exist": lambda d: d["vars"].update(supreme=7),
    "scores one seat short": lambda d: d["vars"]["score"].pop(),
    "an option that does not exist": lambda d: d["pending"].update(options=[99] * 9),
}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_damaged_saved_state_is_refused(backend: str, damage: object) -> None:
    game = meeple.load("shadow-of-the-sun", 4, backend=backend)
    data = game.new_initial_state(3).to_json()
    damage(data)  # type: ignore[operator]
    with pytest.raises(MeepleError, match="damaged"):
        game.state_from_json(data)


class _NumpyLikeInt:
    """An integer type that is not int (like numpy.int64): it has __index__."""

    def __init__(self, v: int) -> None:
        self.v = v

    def __index__(self) -> int:
        return self.v


def test_any_integer_type_is_an_action(sun4: meeple.interpreter.game.Game) -> None:
    a, b = sun4.new_initial_state(2), sun4.new_initial_state(2)
    action = a.legal_actions()[-1]
    a.apply_action(action)
    b.apply_action(_NumpyLikeInt(action))  # type: ignore[arg-type]
    assert a.to_json() == b.to_json()
    with pytest.raises(meeple.IllegalActionError):
        b.apply_action(True)


@pytest.mark.parametrize(
    ("text", "guess"), [("shufle deck", "shuffle"), ("mvoe top(deck) to discard", "move")]
)
def test_a_misspelt_statement_keyword_is_named(text: str, guess: str) -> None:
    from meeple.dsl.errors import ParseError
    from meeple.dsl.parser import parse_statement

    with pytest.raises(ParseError) as e:
        parse_statement(text)
    assert e.value.suggestion == f"did you mean '{guess}'?"
    assert e.value.span is not None and e.value.span.col == 1


def test_a_state_of_a_variant_is_not_resumed_under_the_printed_rules() -> None:
    data = meeple.load("louis-xiv", 3, "three-rounds").new_initial_state(1).to_json()
    with pytest.raises(MeepleError, match="variant: Three rounds"):
        meeple.load("louis-xiv", 3).state_from_json(data)


LOOPING = """\
game: {id: looping, name: Looping, players: {min: 2, max: 2}, source: Overview}
components:
  tokens:
    source: Components
    start: supply
    properties: {value: int}
    items: [{name: Token, count: 2, value: 1}]
zones:
  supply: {visibility: public, source: Setup}
  empty: {visibility: public, source: Setup}
variables:
  score: {type: int, per: players, initial: 0, source: Scoring}
setup: {source: Setup, do: []}
play:
  source: Play
  do:
    - repeat:
        - move top(supply) to empty
      until: top(supply).value > 5
scoring:
  source: Scoring
  do: []
  tie_breakers:
    - {key: top(empty).value, source: Ties}
"""


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_failing_loop_condition_is_reported_at_the_loop(tmp_path: Path, backend: str) -> None:
    rules = tmp_path / "game.yaml"
    rules.write_text(LOOPING)
    with pytest.raises(RuleError) as e:
        meeple.load(str(rules), 2, backend=backend).new_initial_state(0)
    assert e.value.span is not None and e.value.span.line == 17  # the repeat, not the move


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_failing_tie_breaker_is_reported_at_its_line(tmp_path: Path, backend: str) -> None:
    rules = tmp_path / "game.yaml"
    rules.write_text(LOOPING.replace("until: top(supply).value > 5", "until: count(supply) == 0"))
    state = meeple.load(str(rules), 2, backend=backend).new_initial_state(0)
    assert state.is_terminal()
    state.zones[state.prog.zone_base["empty"]].clear()
    with pytest.raises(RuleError) as e:
        state.winners()
    assert e.value.span is not None and e.value.span.line == 24  # the tie-breaker
