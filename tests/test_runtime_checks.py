"""Run-time checks on both back ends (issue 11, sections 4, 5, 8, 9 and call depth): seats out of
range, eliminated seats, call depth, card properties, engine faults and the rules trace.

Each test writes a small game to tmp_path and runs it on the interpreter and on the generated
module; both must give the same result or the same error at the same rule line.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple
from meeple.dsl.errors import InternalError, MeepleError, RuleError
from meeple.dsl.limits import MAX_CALL_DEPTH, MAX_EXPR_DEPTH, RESERVED_PROPERTIES
from meeple.interpreter.game import Game
from meeple.runtime import prng
from meeple.runtime.values import Card

BACKENDS = ("interpreter", "compiled")

# A small game: SETUP, PLAY and the other upper-case words are replaced by each test.
GAME = """\
game:
  id: checks
  name: Checks
  players: {min: 2, max: 4}
  source: Overview
components:
  cards:
    source: Components
    properties: {points: int}
    start: draw_pile
    items:
      - {name: Coin, count: 12, points: 1}
zones:
  draw_pile: {visibility: hidden}
  hand: {per: players, visibility: owner}
variables:
  first: {type: player, initial: 0, source: Turn}
  chosen: {type: card, initial: none, source: Turn}
  nobody: {type: player, initial: none, source: Turn}
  result: {type: int, initial: 0, source: Turn}
  turns: {type: int, per: players, source: Turn}
  score: {type: int, per: players, source: Scoring}
FUNCTIONS
PROCEDURES
setup:
  source: Setup
  do:
SETUP
play:
  source: Play
  do:
PLAY
scoring: {source: Scoring, do: []}
"""

NOTHING = '    - log "nothing"'


def _write(
    tmp_path: Path,
    setup: str = NOTHING,
    play: str = NOTHING,
    functions: str = "",
    procedures: str = "",
) -> Path:
    text = (
        GAME.replace("FUNCTIONS", functions)
        .replace("PROCEDURES", procedures)
        .replace("SETUP", setup)
        .replace("PLAY", play)
    )
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _game(path: Path, backend: str, players: int = 4) -> Game:
    return meeple.load(str(path), players, backend=backend)


def _line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line of ``path`` that contains ``text``."""
    for i, line in enumerate(path.read_text().splitlines(), 1):
        if text in line:
            return i
    raise AssertionError(f"{text!r} is not in {path}")


def _errors(path: Path, players: int = 4) -> list[MeepleError]:
    """The error each back end raises while setting the game up and playing it (first actions)."""
    found = []
    for backend in BACKENDS:
        with pytest.raises(MeepleError) as e:
            st = _game(path, backend, players).new_initial_state(0)
            while not st.is_terminal():
                st.apply_action(st.legal_actions()[0])
        found.append(e.value)
    assert str(found[0]) == str(found[1]), "the back ends report different errors"
    return found


# ---------------------------------------------------------------------------- seats (section 4)
@pytest.mark.parametrize(
    ("stmt", "seat"),
    [
        ("move top(draw_pile) to hand[num_players]", 4),
        ("move top(draw_pile) to hand[-1]", -1),
        ("score[-1] += 100", -1),
        ("score[num_players] = 3", 4),
        ("result = count(hand[5])", 5),
        ("result = turns[-1]", -1),
        ("eliminate 7", 7),
    ],
)
def test_a_seat_out_of_range_is_a_rule_error_at_its_line(
    tmp_path: Path, stmt: str, seat: int
) -> None:
    path = _write(tmp_path, setup=f"    - {stmt}")
    for e in _errors(path):
        assert isinstance(e, RuleError)
        assert e.span is not None and e.span.line == _line_of(path, stmt)
        assert f"seat {seat} is not a player in this 4-player game" in e.message
        assert "P1..P4" in e.message


# A literal seat out of range is a check error (tests/test_scope_and_keys.py); a player variable
# can still hold a number that is no seat when the game runs.
@pytest.mark.parametrize("seat", ["-1", "7", "num_players"])
def test_a_decision_by_a_seat_out_of_range_is_a_rule_error(tmp_path: Path, seat: str) -> None:
    play = f"""\
    - first = {seat}
    - choose: Go
      by: first
      options: [{{label: left}}, {{label: right}}]"""
    path = _write(tmp_path, play=play)
    for e in _errors(path):
        assert isinstance(e, RuleError)
        assert e.span is not None and e.span.line == _line_of(path, "choose: Go")
        assert "is not a player in this 4-player game" in e.message


@pytest.mark.parametrize(("value", "shown"), [("nobody", "none"), ("9", "seat 9")])
def test_an_option_for_a_value_that_is_no_seat_is_a_rule_error(
    tmp_path: Path, value: str, shown: str
) -> None:
    """An option over seats takes its action id from the seat: a list of seats holding none or
    a number past the seats (a player variable can hold one) is the rules' error on both back
    ends, through the API and in a playout (it was an internal error on the interpreter, and a
    number past the seats took another option's action id)."""
    play = f"""\
    - first = {value}
    - choose: Hit whom
      by: 0
      options:
        - {{label: "hit {{q}}", for: "q in [first]"}}
        - {{label: pass}}"""
    path = _write(tmp_path, play=play)
    errors = _errors(path)
    for backend in BACKENDS:
        with pytest.raises(RuleError) as e:
            _game(path, backend).new_initial_state(0).playout(0)
        errors.append(e.value)
    for e in errors:
        assert isinstance(e, RuleError)
        assert e.span is not None and e.span.line == _line_of(path, "choose: Hit whom")
        assert f"an option over seats cannot be offered: {shown} is not a player" in e.message


def test_a_pick_by_a_seat_out_of_range_is_a_rule_error(tmp_path: Path) -> None:
    play = """\
    - first = 9
    - pick: Take one
      by: first
      from: draw_pile
      min: 1
      max: 1"""
    path = _write(tmp_path, play=play)
    for e in _errors(path):
        assert e.span is not None and e.span.line == _line_of(path, "pick: Take one")
        assert "seat 9 is not a player" in e.message


@pytest.mark.parametrize("backend", BACKENDS)
def test_public_methods_refuse_a_bad_seat_naming_the_valid_ones(
    tmp_path: Path, backend: str
) -> None:
    play = """\
    - choose: Go
      by: 1
      options: [{label: left}, {label: right}]"""
    st = _game(_write(tmp_path, play=play), backend).new_initial_state(0)
    for bad in (99, -1, 4, "x", None, 1.0, True):
        with pytest.raises(ValueError, match="seats are 0 to 3"):
            st.observation(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="seats are 0 to 3"):
            st.tie_keys(bad)  # type: ignore[arg-type]
        if bad is not None:
            with pytest.raises(ValueError, match="seats are 0 to 3"):
                st.legal_actions(bad)  # type: ignore[arg-type]
    assert st.observation(1)["decision"]["prompt"] == "Go"
    assert st.legal_actions(1) == st.legal_actions() and st.legal_actions(0) == []


# ---------------------------------------------------------------------- eliminated seats (8)
ROUND = """\
    - for: p in clockwise_from(first)
      do:
        - choose: "Turn of {p}"
          by: p
          options:
            - label: eliminate the next
              do: [eliminate left_of(p)]
            - label: pass"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_seat_eliminated_during_a_round_does_not_act(tmp_path: Path, backend: str) -> None:
    st = _game(_write(tmp_path, play=ROUND), backend, 3).new_initial_state(0)
    assert st.current_player() == 0
    st.apply_action(st.legal_actions()[0])  # P1 eliminates P2
    assert st.players == [0, 2]
    assert st.current_player() == 2  # P3, not the eliminated P2
    st.apply_action(st.legal_actions()[1])  # P3 passes
    assert st.is_terminal()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_flat_loop_over_seats_skips_a_seat_eliminated_in_it(tmp_path: Path, backend: str) -> None:
    setup = """\
    - for: p in players
      do:
        - if: p == 0
          then: [eliminate 1]
        - turns[p] += 1"""
    st = _game(_write(tmp_path, setup=setup), backend, 3).new_initial_state(0)
    assert st.vars["turns"] == [1, 0, 1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_loop_over_a_list_made_after_an_elimination_still_names_that_seat(
    tmp_path: Path, backend: str
) -> None:
    # only seats eliminated since the loop began are skipped
    setup = """\
    - eliminate 1
    - for: p in [1, 2]
      do:
        - turns[p] += 1"""
    st = _game(_write(tmp_path, setup=setup), backend, 3).new_initial_state(0)
    assert st.vars["turns"] == [0, 1, 1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_decision_is_asked_of_an_eliminated_seat(tmp_path: Path, backend: str) -> None:
    play = """\
    - eliminate 1
    - choose: Go
      by: 1
      options:
        - label: left
          do: [result = 1]
        - label: right
          do: [result = 2]
    - pick: Take cards
      by: 1
      from: draw_pile
      to: hand[1]
      min: 1
      max: 3
    - choose: Last
      by: 2
      options: [{label: take}, {label: leave}]"""
    st = _game(_write(tmp_path, play=play), backend, 3).new_initial_state(0)
    assert st.current_player() == 2 and st.prompt() == "Last"
    assert st.vars["result"] == 0 and st.zones[st.prog.zone_base["hand"] + 1] == []
    log = [t for _, t in st.log]
    assert "P2 is out of the game: Go -> skipped" in log


def test_both_back_ends_agree_on_random_games_with_eliminations(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        play="    - repeat:\n"
        + _indent(ROUND, 4)
        + "\n      until: count(players) <= 1 or first == 2",
    )
    games = [_game(path, b, 4) for b in BACKENDS]
    for seed in range(20):
        rng = random.Random(seed)
        a, b = (g.new_initial_state(seed) for g in games)
        for _ in range(200):
            assert a.to_json() == b.to_json()
            if a.is_terminal():
                break
            assert a.current_player() in a.players
            act = rng.choice(a.legal_actions())
            a.apply_action(act)
            b.apply_action(act)


def _indent(text: str, n: int) -> str:
    return "\n".join(" " * n + line for line in text.splitlines())


# ---------------------------------------------------------------------------- call depth (3)
def _down(body: str) -> str:
    return f"""\
functions:
  down:
    source: Rules
    params: [n]
    value: {body}"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_function_ending_at_depth_150_works(tmp_path: Path, backend: str) -> None:
    path = _write(
        tmp_path,
        setup="    - result = down(150)",
        functions=_down("0 if n <= 0 else 1 + down(n - 1)"),
    )
    assert _game(path, backend).new_initial_state(0).vars["result"] == 150


def test_a_function_recursing_to_depth_3000_is_a_rule_error_at_the_call(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        setup="    - result = down(3000)",
        functions=_down("0 if n <= 0 else 1 + down(n - 1)"),
    )
    for e in _errors(path):
        assert isinstance(e, RuleError) and not isinstance(e.__cause__, RecursionError)
        assert f"more than {MAX_CALL_DEPTH} deep" in e.message
        assert e.span is not None and e.span.line == _line_of(path, "value: 0 if n")
        assert len(e.trace) == MAX_CALL_DEPTH and e.trace[0].startswith("function down (")
        assert f"function down ({path}:" in e.render() and f"x{MAX_CALL_DEPTH}" in e.render()


def test_functions_recursing_through_each_other_stop_at_the_limit(tmp_path: Path) -> None:
    functions = """\
functions:
  ping:
    source: Rules
    params: [n]
    value: 0 if n <= 0 else pong(n - 1)
  pong:
    source: Rules
    params: [n]
    value: 1 + ping(n)"""
    path = _write(tmp_path, setup="    - result = ping(100000)", functions=functions)
    for e in _errors(path):
        assert f"more than {MAX_CALL_DEPTH} deep" in e.message


def test_the_deepest_expression_inside_the_deepest_calls_runs(tmp_path: Path) -> None:
    # each level: an expression nested MAX_EXPR_DEPTH - 4 deep around the recursive call, some
    # of it inside comprehensions (which Python runs as nested calls)
    levels = (MAX_EXPR_DEPTH - 4) // 2  # a sum(... for ...) level costs the front end two
    inner = "down(n - 1)"
    for k in range(levels):
        inner = f"sum(x for x in [{inner}])" if k % 8 == 0 else f"(1 + {inner})"
    path = _write(
        tmp_path,
        setup=f"    - result = down({MAX_CALL_DEPTH - 1})",
        functions=_down(f"0 if n <= 0 else {inner}"),
    )
    per_level = sum(1 for k in range(levels) if k % 8)
    results = {b: _game(path, b).new_initial_state(0).vars["result"] for b in BACKENDS}
    assert results == {b: (MAX_CALL_DEPTH - 1) * per_level for b in BACKENDS}


def test_nested_any_generators_inside_the_deepest_calls_run(tmp_path: Path) -> None:
    # any(... for ...) is a generator run by a Python built-in: the C stack nests too
    inner = "down(n - 1) >= 0"
    for _ in range((MAX_EXPR_DEPTH - 4) // 4):
        inner = f"any(x == 0 and {inner} for x in [0])"
    path = _write(
        tmp_path,
        setup=f"    - result = down({MAX_CALL_DEPTH - 1})",
        functions=_down(f"0 if n <= 0 else (1 if {inner} else 0)"),
    )
    for b in BACKENDS:
        assert _game(path, b).new_initial_state(0).vars["result"] == 1


PROCS = """\
procedures:
  descend:
    source: Rules
    params: [n]
    do:
      - if: n > 0
        then:
          - result += 1
          - descend(n - 1)"""


@pytest.mark.parametrize("depth", [150, 3000])
def test_procedures_have_the_same_call_depth_limit(tmp_path: Path, depth: int) -> None:
    path = _write(tmp_path, setup=f"    - descend({depth})", procedures=PROCS)
    if depth < MAX_CALL_DEPTH:
        for b in BACKENDS:
            assert _game(path, b).new_initial_state(0).vars["result"] == depth
        return
    for e in _errors(path):
        assert f"more than {MAX_CALL_DEPTH} deep" in e.message
        assert e.span is not None and e.span.line == _line_of(path, "- descend(n - 1)")


# ------------------------------------------------------------------ card properties (section 5)
@pytest.mark.parametrize("name", [*sorted(RESERVED_PROPERTIES), "__class__", "_x", "a b"])
def test_a_card_refuses_a_property_named_like_an_engine_field(name: str) -> None:
    with pytest.raises(MeepleError, match="reserved for the engine"):
        Card(0, "cards", "coin", "Coin", None, 0, {name: 1})


def test_property_access_reads_only_the_cards_own_properties(tmp_path: Path) -> None:
    from meeple.codegen.exprs import ExprEmitter, Scope
    from meeple.dsl import ir
    from meeple.dsl.errors import SourceSpan
    from meeple.interpreter.evaluate import ExprCompiler

    game = _game(_write(tmp_path), "interpreter")
    card = game.program.cards[0]
    span = SourceSpan("x", 1, 1)
    for name in ("__class__", "ordinal", "type_id", "props", "id"):
        e = ir.Attr(span, ir.Const(span, card), name)  # what a checker bug could let through
        f = ExprCompiler(game.program).compile(e)  # type: ignore[arg-type]
        with pytest.raises(KeyError):
            f(None, {})
        on_name = ir.Attr(span, ir.Name(span, "c"), name)  # a Card is no literal of a module
        emitter = ExprEmitter(game.program, lambda k, v: "X", lambda s: "S", str)  # type: ignore[arg-type]
        text = emitter.emit(on_name, Scope({"c": "c"}))
        assert text.endswith(f".props[{name!r}]")
    points = ir.Attr(span, ir.Const(span, card), "points")
    assert ExprCompiler(game.program).compile(points)(None, {}) == 1  # type: ignore[arg-type]


# ------------------------------------------------------- engine faults and rules trace (9)
TRACED = """\
procedures:
  turn:
    source: Rules
    params: [p]
    do:
      - result = outer(p)"""

TRACED_FUNCTIONS = """\
functions:
  outer:
    source: Rules
    params: [p]
    value: inner(p) + inner(p)
  inner:
    source: Rules
    params: [p]
    value: 10 // (p - p) + leaf(p)
  leaf:
    source: Rules
    params: [p]
    value: p"""


def test_a_rule_error_names_the_calls_it_happened_in_outermost_first(tmp_path: Path) -> None:
    path = _write(tmp_path, setup="    - turn(1)", procedures=TRACED, functions=TRACED_FUNCTIONS)
    for e in _errors(path):
        assert isinstance(e, RuleError) and "division by zero" in e.message
        assert e.span is not None and e.span.line == _line_of(path, "value: 10 //")
        assert [t.split(" (")[0] for t in e.trace] == [
            "procedure turn",
            "function outer",
            "function inner",
        ]
        assert e.trace[1] == f"function outer ({path}:{_line_of(path, '  outer:')}:3)"
        rendered = e.render()
        assert "rules trace (outermost first):" in rendered
        assert rendered.index("procedure turn") < rendered.index("function inner")


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_error_in_the_rules_stays_a_rule_error(tmp_path: Path, backend: str) -> None:
    path = _write(tmp_path, setup="    - result = min([c.points for c in hand[0]])")
    with pytest.raises(RuleError, match="the rules failed here"):
        _game(path, backend).new_initial_state(0)


@pytest.mark.parametrize(
    ("stmt", "message"),
    [
        ("move chosen to hand[0]", "only a card can be moved, not none"),
        ("move top(hand[0]) to draw_pile", "the rules failed here"),
        ("move top(draw_pile) to hand[nobody]", "none is not a player in this 4-player game"),
    ],
)
def test_a_none_or_missing_value_in_a_rule_is_a_rule_error_not_an_internal_one(
    tmp_path: Path, stmt: str, message: str
) -> None:
    path = _write(tmp_path, setup=f"    - {stmt}")
    for e in _errors(path):
        assert isinstance(e, RuleError) and message in e.message
        assert e.span is not None and e.span.line == _line_of(path, stmt)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_fault_in_the_engine_is_an_internal_error_not_a_rule_error(
    tmp_path: Path, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the engine's shuffle then fails inside the engine's own code (state.py)
    monkeypatch.setattr(prng, "shuffle", None)
    path = _write(tmp_path, setup="    - shuffle draw_pile")
    with pytest.raises(MeepleError) as e:
        _game(path, backend).new_initial_state(0)
    assert isinstance(e.value, InternalError) and not isinstance(e.value, RuleError)
    assert isinstance(e.value.__cause__, TypeError)
    assert str(e.value).startswith("internal error, please report: TypeError: 'NoneType'")
    assert "the rules failed" not in str(e.value)
