"""Rule files are untrusted input (issue 11): names, YAML, sizes and nesting are bounded.

Each case edits the minimal game (tests/fixtures/minimal/game.yaml) and asserts the error class,
its line and column ('|' in ``at`` marks the column inside a unique piece of the edited text),
a fragment of the message and, where there is one, of the suggestion.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hostile.guard import time_limit

from meeple import api
from meeple.codegen import generate
from meeple.dsl import ir
from meeple.dsl.errors import CheckError, MeepleError, ParseError, SchemaError, YamlError
from meeple.dsl.limits import (
    MAX_BLOCK_DEPTH,
    MAX_EXPR_DEPTH,
    MAX_FILE_BYTES,
    MAX_YAML_DEPTH,
    RESERVED_PROPERTIES,
)
from meeple.dsl.lint import lint
from meeple.dsl.loader import load_rules, load_variant
from meeple.dsl.render import children
from meeple.dsl.yamlload import YList, YMap, load_yaml_text

FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "game.yaml"
BASE = FIXTURE.read_text(encoding="utf-8")
RULES = Path(__file__).parent.parent / "rules"


def edit(*pairs: str) -> str:
    """The minimal game with each ``old`` text (which must occur exactly once) replaced."""
    text = BASE
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert text.count(old) == 1, f"{old!r} is not unique in the minimal game"
        text = text.replace(old, new)
    return text


def position(text: str, at: str) -> tuple[int, int]:
    """Line and column of the only occurrence of ``at`` in ``text``; '|' marks the column."""
    skip = at.index("|") if "|" in at else 0
    at = at.replace("|", "")
    assert text.count(at) == 1, f"{at!r} is not unique"
    i = text.index(at) + skip
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def load_text(text: str, tmp_path: Path) -> object:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return load_rules(path)


@dataclass(frozen=True)
class Bad:
    text: str
    error: type[MeepleError]
    at: str  # a unique piece of the text, '|' before the error's column
    message: str
    suggestion: str | None = None


def check_bad(bad: Bad, tmp_path: Path) -> MeepleError:
    with pytest.raises(MeepleError) as info:
        load_text(bad.text, tmp_path)
    e = info.value
    shown = e.render()
    assert type(e) is bad.error, shown
    assert e.span is not None, shown
    assert e.span.file == str(tmp_path / "game.yaml"), shown
    assert (e.span.line, e.span.col) == position(bad.text, bad.at), shown
    assert bad.message in e.message, shown
    if bad.suggestion is not None:
        assert bad.suggestion in (e.suggestion or ""), shown
    return e


TRIGGER = 'triggers:\n  {name}:\n    source: Turn\n    to: discard\n    do:\n      - log "x"\n'
ZWSP, RLO = "\u200b", "\u202e"
USE = "is not a valid name: use letters, digits and '_'"  # the policy's words

# ------------------------------------------------------------------------------ names (policy 1)
# fmt: off
NAMES = {
    "function-key-with-python-code": Bad(
        edit("  hand_points:\n", '  "hand_points\\nimport os\\nos.system(\'echo pwned\')":\n'),
        SchemaError, '|"hand_points\\nimport os',
        f"'hand_points\\nimport os\\nos.system(\\'echo pwned\\')' {USE} (it names a function)",
        suggestion="call it 'hand_points_import_os_os_system_echo_pwned'"),
    "procedure-key-with-python-code": Bad(
        edit("  turn:\n", '  "turn\\nimport os":\n'),
        SchemaError, '|"turn\\nimport os"', f"{USE} (it names a procedure)",
        suggestion="call it 'turn_import_os'"),
    "variable-key-with-python-code": Bad(
        edit("  round: {", '  "round\\nx = 1": {'),
        SchemaError, '|"round\\nx = 1"', f"{USE} (it names a variable)"),
    "look-alike-zone-zero-width-space": Bad(
        edit("  discard: {", f"  de{ZWSP}ck: {{visibility: hidden, source: Setup}}\n  discard: {{"),
        SchemaError, f"|de{ZWSP}ck", f"'de\\u200bck' {USE} (it names a zone)",
        suggestion="call it 'deck'"),
    "look-alike-zone-escaped-zero-width-space": Bad(
        edit("  discard: {", '  "de\\u200bck": {visibility: hidden, source: Setup}\n  discard: {'),
        SchemaError, '|"de\\u200bck"', f"'de\\u200bck' {USE} (it names a zone)",
        suggestion="call it 'deck'"),
    "bidi-control-in-a-variable": Bad(
        edit("  round: {", f"  ro{RLO}und: {{"),
        SchemaError, f"|ro{RLO}und", f"'ro\\u202eund' {USE} (it names a variable)",
        suggestion="call it 'round'"),
    "kind-with-an-accent": Bad(
        edit("  cards:\n", "  cärds:\n"),
        SchemaError, "|cärds:",
        f"'cärds' {USE}; 'ä' (U+00E4) is not ASCII (it names a component kind)",
        suggestion="call it 'cards'"),
    "function-parameter": Bad(
        edit("    params: [p]\n    value:", "    params: [p q]\n    value:"),
        SchemaError, "[|p q]", f"'p q' {USE} (it names a parameter of 'hand_points')",
        suggestion="call it 'p_q'"),
    "procedure-parameter-starting-with-a-digit": Bad(
        edit("    params: [p]\n    do:", "    params: [1p]\n    do:"),
        SchemaError, "[|1p]", f"'1p' {USE} (it names a parameter of 'turn')",
        suggestion="call it '_1p'"),
    "table": Bad(
        edit("  sets:\n", "  my sets:\n"),
        SchemaError, "|my sets:", f"'my sets' {USE} (it names a table)",
        suggestion="call it 'my_sets'"),
    "property": Bad(
        edit("properties: {points: int}", "properties: {points: int, points-2: int}"),
        SchemaError, "|points-2", f"'points-2' {USE} (it names a property of 'cards')",
        suggestion="call it 'points_2'"),
    "trigger": Bad(
        edit("procedures:\n", TRIGGER.format(name="on discard") + "procedures:\n"),
        SchemaError, "|on discard:", f"'on discard' {USE} (it names a trigger)"),
    "trigger-as": Bad(
        edit("procedures:\n", TRIGGER.format(name="seen").replace(
            "    to: discard\n", "    to: discard\n    as: the card\n") + "procedures:\n"),
        SchemaError, "as: |the card",
        f"'the card' {USE} (it names the 'as' of trigger 'seen')"),
    "item-key": Bad(
        edit("{name: Gem, count: 6, points: 2}", "{key: gem 2, name: Gem, count: 6, points: 2}"),
        SchemaError, "key: |gem 2", f"'gem 2' {USE} (it names the key of an item of 'cards')",
        suggestion="call it 'gem_2'"),
    "pick-each": Bad(
        edit("                count: 1\n", "                count: 1\n                each: c c\n"),
        SchemaError, "each: |c c", f"'c c' {USE} (it names 'each')",
        suggestion="call it 'c_c'"),
    "too-long": Bad(
        edit("  round: {", "  " + "r" * 65 + ": {"),
        SchemaError, "|" + "r" * 65, "longer than 64 characters"),
    "game-id-with-a-newline": Bad(
        edit("  id: minimal\n", '  id: "minimal\\n"\n'),
        SchemaError, 'id: |"minimal', "'minimal\\n' is not a valid id ('game.id')"),
    "let-name-too-long": Bad(
        edit("        - round += 1", "        - let " + "x" * 65 + " = 1"),
        ParseError, "let |xxx", "is 65 characters long"),
}
# fmt: on


@pytest.mark.parametrize("bad", NAMES.values(), ids=NAMES.keys())
def test_names_are_identifiers(bad: Bad, tmp_path: Path) -> None:
    check_bad(bad, tmp_path)


def test_two_look_alike_zones_are_refused_at_the_second(tmp_path: Path) -> None:
    text = edit(
        "  discard: {", f"  de{ZWSP}ck: {{visibility: public, source: Setup}}\n  discard: {{"
    )
    e = check_bad(Bad(text, SchemaError, f"|de{ZWSP}ck", "not a valid name"), tmp_path)
    assert "\\u200b" in str(e)  # the invisible character is shown, not hidden


@pytest.mark.parametrize("prop", sorted(RESERVED_PROPERTIES | {"__class__", "_hidden"}))
def test_reserved_property_names_are_refused(prop: str, tmp_path: Path) -> None:
    text = edit("properties: {points: int}", f"properties: {{points: int, {prop}: int}}")
    e = check_bad(
        Bad(text, SchemaError, f"points: int, |{prop}", "a name the engine keeps for itself"),
        tmp_path,
    )
    assert e.suggestion and "call it 'cards_" in e.suggestion


# ------------------------------------------------------------------------------ YAML (policies 2-5)
BOMB = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 10)
)

# fmt: off
YAML = {
    "anchor": Bad(
        edit("  deck: {visibility", "  deck: &d {visibility"),
        YamlError, "|&d {", "'&d' is a YAML anchor"),
    "alias": Bad(
        edit("  discard: {visibility: public, source: Turn}", "  discard: *d"),
        YamlError, "discard: |*d", "'*d' is a YAML alias"),
    "merge-key": Bad(
        edit("  discard: {visibility: public, source: Turn}",
             "  discard: {<<: {visibility: public}, source: Turn}"),
        YamlError, "{|<<:", "'<<' is a YAML merge key", suggestion="write the keys out in full"),
    "alias-bomb": Bad(
        edit("game:\n", BOMB + "game:\n"), YamlError, "a0: |&a0", "'&a0' is a YAML anchor"),
    "sexagesimal-is-text": Bad(
        edit("variables:\n  round: {type: int, initial: 1, source: Play}\n",
             "tracks:\n  round:\n    min: 1\n    max: 1:30\n    at_ends: clamp\n"
             "    source: Play\nvariables:\n"),
        SchemaError, "max: |1:30", "'tracks.round.max' has the wrong type",
        suggestion="'1:30' is text (not a number in base 60)"),
    "yes-is-text": Bad(
        edit("    start: deck\n", "    start: deck\n    per_player: yes\n"),
        SchemaError, "per_player: |yes", "'components.cards.per_player' has the wrong type",
        suggestion="'yes' is text: write true or false"),
    "leading-zero": Bad(
        edit("{name: Coin, count: 10,", "{name: Coin, count: 010,"),
        YamlError, "count: |010",
        "'010' has a leading zero, which YAML 1.1 readers take as octal (8)",
        suggestion="write 10, or quote it"),
    "float-where-an-integer-is-needed": Bad(
        edit("{name: Coin, count: 10,", "{name: Coin, count: 10.0,"),
        SchemaError, "count: |10.0", "10.0 is not a whole number", suggestion="write 10"),
    "fraction-as-a-property-value": Bad(
        edit("{name: Gem, count: 6, points: 2}", "{name: Gem, count: 6, points: 2.5}"),
        SchemaError, "points: |2.5", "2.5 is not a whole number"),
    "5000-digit-integer-in-yaml": Bad(
        edit("{name: Coin, count: 10,", "{name: Coin, count: " + "9" * 5000 + ","),
        YamlError, "count: |999", "the number 999999999999... (5000 characters) is too large"),
    "5000-digit-integer-in-an-expression": Bad(
        edit("      until: round > 3", "      until: round > " + "7" * 5000),
        ParseError, "round > |777", "the number 777777777777... (5000 digits) is too large"),
    "yaml-too-deep": Bad(
        edit("      until: round > 3",
             "      until: round > 3\n      note: " + "[" * 70 + "]" * 70),
        YamlError, "note: " + "[" * (MAX_YAML_DEPTH - 4) + "|[",
        f"the YAML nests deeper than {MAX_YAML_DEPTH} levels"),
    "two-documents": Bad(
        edit("game:\n", "x: 1\n---\ngame:\n"), YamlError, "|---", "more than one YAML document"),
}
# fmt: on


@pytest.mark.parametrize("bad", YAML.values(), ids=YAML.keys())
def test_yaml_is_bounded(bad: Bad, tmp_path: Path) -> None:
    check_bad(bad, tmp_path)


def test_yaml_1_2_core_scalars() -> None:
    doc = load_yaml_text("a: 1:30\nb: yes\nc: off\nd: 1.5\ne: 12\nf: 1e3\ng: ~\nh: 0x1F\ni: 0\n")
    assert doc == {
        "a": "1:30", "b": "yes", "c": "off", "d": 1.5, "e": 12, "f": 1000.0, "g": None,
        "h": 31, "i": 0,
    }  # fmt: skip
    assert isinstance(doc["d"], float) and isinstance(doc["e"], int)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_bytes(b"\xff" * (MAX_FILE_BYTES + 1))  # not even UTF-8: it is never decoded
    with pytest.raises(YamlError) as e:
        load_rules(path)
    assert e.value.span is not None
    assert (e.value.span.file, e.value.span.line, e.value.span.col) == (str(path), 1, 1)
    assert f"{MAX_FILE_BYTES:,} bytes (MAX_FILE_BYTES)" in e.value.message


def test_yaml_node_count_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("meeple.dsl.yamlload.MAX_YAML_NODES", 50)
    with pytest.raises(YamlError) as e:
        load_yaml_text("a: [" + ", ".join(["1"] * 60) + "]\n")
    assert "more than 50 YAML values (MAX_YAML_NODES)" in e.value.message
    assert e.value.span is not None and (e.value.span.line, e.value.span.col) == (1, 146)


def test_the_alias_bomb_is_refused_by_meeple_check(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(BOMB + BASE, encoding="utf-8")
    code = f"from meeple.cli import main; raise SystemExit(main(['check', {str(path)!r}]))"
    # a hang guard only: the file is refused at its first anchor
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 2, run.stderr
    assert f"{path}:1:5: error: '&a0' is a YAML anchor" in run.stderr
    assert "Traceback" not in run.stderr


def test_scenario_files_use_the_same_loader(tmp_path: Path) -> None:
    from meeple.scenarios import run_scenario

    path = tmp_path / "s.yaml"
    path.write_text("scenario: x\nplayers: &n 2\nseed: *n\n", encoding="utf-8")
    with pytest.raises(YamlError, match="'&n' is a YAML anchor"):
        run_scenario(path)


# --------------------------------------------------------------------- control characters in text
# fmt: off
CONTROL = {
    # the trial's name: retitles the terminal window and turns the log red
    "escape-sequences-in-the-game-name": Bad(
        edit("  name: Minimal\n", '  name: "Weav\\e]0;PWNED\\a\\e[31mers"\n'),
        YamlError, '"Weav|\\e]0', "the control character U+001B"),
    "nul-in-a-label": Bad(
        edit("- label: draw a card\n", '- label: "draw\\u0000 a card"\n'),
        YamlError, '"draw|\\u0000', "the control character U+0000"),
    "bell-in-a-log-text": Bad(
        edit("        - round += 1\n", "        - round += 1\n        - \"log 'ding\\a'\"\n"),
        YamlError, "ding|\\a", "the control character U+0007"),
    "c1-control-in-a-prompt": Bad(
        edit("- choose: Draw or discard?\n", '- choose: "Draw\\x9b2J"\n'),
        YamlError, '"Draw|\\x9b', "the control character U+009B"),
    "carriage-return-in-a-source": Bad(
        edit("  source: Overview\n", '  source: "Overview\\rHidden"\n'),
        YamlError, "Overview|\\r", "the control character U+000D"),
    "delete-in-a-key": Bad(
        edit("  discard: {", '  "dis\\x7fcard": {visibility: public}\n  discard: {'),
        YamlError, '"dis|\\x7f', "the control character U+007F"),
}
# fmt: on


@pytest.mark.parametrize("bad", CONTROL.values(), ids=CONTROL.keys())
def test_control_characters_in_text_are_refused(bad: Bad, tmp_path: Path) -> None:
    check_bad(bad, tmp_path)


def test_a_newline_and_a_tab_are_text(tmp_path: Path) -> None:
    load_text(edit("  name: Minimal\n", '  name: "Mini\\tmal"\n',
                   "- label: draw a card\n", '- label: "draw\\na card"\n'), tmp_path)  # fmt: skip


def test_control_characters_are_refused_in_variants_and_scenarios(tmp_path: Path) -> None:
    from meeple.scenarios import run_scenario

    game = tmp_path / "minimal"
    game.mkdir()
    (game / "game.yaml").write_text(BASE, encoding="utf-8")
    (game / "variants").mkdir()
    variant = game / "variants" / "v.yaml"
    variant.write_text(
        'variant: v\nname: "V\\e[2J"\nextends: minimal\nrationale: a test\nsource: here\n'
        "changes: []\n",
        encoding="utf-8",
    )
    with pytest.raises(YamlError, match="control character U\\+001B") as e:
        load_variant(variant)
    assert e.value.span is not None and (e.value.span.line, e.value.span.col) == (2, 9)
    scenario = tmp_path / "s.yaml"
    scenario.write_text('scenario: "x\\e[2J"\nplayers: 2\nseed: 1\n', encoding="utf-8")
    with pytest.raises(YamlError, match="control character U\\+001B"):
        run_scenario(scenario)


def test_meeple_play_prints_no_escape_from_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(edit("  name: Minimal\n", '  name: "Weav\\e]0;PWNED\\a\\e[31mers"\n'))
    code = f"from meeple.cli import main; raise SystemExit(main(['play', {str(path)!r}]))"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode != 0 and "\x1b" not in run.stdout + run.stderr
    assert "control character U+001B" in run.stderr and "Traceback" not in run.stderr


# ------------------------------------------------------------------------------ depth (policy 6)
def _nested_ifs(levels: int) -> str:
    """``levels`` if-blocks inside one another, in place of the minimal game's round counter."""
    lines, pad = [], "        "
    for _ in range(levels):
        lines += [f"{pad}- if: round > 0", f"{pad}  then:"]
        pad += "    "
    lines.append(f"{pad}- round += 1")
    return edit("        - round += 1\n", "\n".join(lines) + "\n")


def _sum(terms: int) -> str:
    return " + ".join(["round"] * terms)


# fmt: off
DEPTH = {
    "300-term-sum": Bad(
        edit("      until: round > 3", f"      until: {_sum(300)} > 3"),
        ParseError, "until: |round + ",
        f"the expression has more than {MAX_EXPR_DEPTH} levels here: a row of operators",
        suggestion="sum([...])"),
    "500-term-sum-in-a-function": Bad(
        edit("    value: sum(c.points for c in hand[p])", f"    value: {_sum(500)}"),
        ParseError, "value: |round + ",
        f"the expression has more than {MAX_EXPR_DEPTH} levels here: a row of operators"),
    "nested-parentheses": Bad(
        edit("      until: round > 3", "      until: " + "(" * 70 + "round" + ")" * 70 + " > 3"),
        ParseError, "until: " + "(" * MAX_EXPR_DEPTH + "|(",
        f"brackets nest deeper than {MAX_EXPR_DEPTH} levels here"),
    "nested-calls": Bad(
        edit("      until: round > 3", "      until: " + "abs(" * 70 + "round" + ")" * 70 + " > 3"),
        ParseError, "until: " + "abs(" * MAX_EXPR_DEPTH + "abs|(",
        f"brackets nest deeper than {MAX_EXPR_DEPTH} levels here"),
    "deep-negation": Bad(
        edit("      until: round > 3", "      until: " + "not " * 70 + "round > 3"),
        ParseError, "until: " + "not " * MAX_EXPR_DEPTH + "|not ",
        f"the expression nests deeper than {MAX_EXPR_DEPTH} levels here"),
    "100-nested-if-blocks": Bad(
        _nested_ifs(100), YamlError,
        "        " + "    " * 29 + "  then:\n" + "        " + "    " * 30 + "|- if",
        f"the YAML nests deeper than {MAX_YAML_DEPTH} levels"),
    "25-nested-if-blocks": Bad(
        _nested_ifs(MAX_BLOCK_DEPTH + 1), CheckError,
        "        " + "    " * (MAX_BLOCK_DEPTH - 2) + "  then:\n"
        + "        " + "    " * (MAX_BLOCK_DEPTH - 1) + "|- if",
        f"statement blocks nest deeper than {MAX_BLOCK_DEPTH} levels here"),
}
# fmt: on


@pytest.mark.parametrize("bad", DEPTH.values(), ids=DEPTH.keys())
def test_nesting_is_bounded(bad: Bad, tmp_path: Path) -> None:
    check_bad(bad, tmp_path)


def test_the_deepest_accepted_rules_check_and_render(tmp_path: Path) -> None:
    """At the limits the front end's recursive passes (build, checker, renderer) still work."""
    from meeple.dsl.render import rule_texts

    text = _nested_ifs(MAX_BLOCK_DEPTH - 2).replace(
        "      until: round > 3", f"      until: {_sum(MAX_EXPR_DEPTH - 2)} > 3"
    )
    text = text.replace(
        "    value: sum(c.points for c in hand[p])",
        "    value: "
        + "abs(" * (MAX_EXPR_DEPTH - 8)
        + "count(hand[p])"
        + ")" * (MAX_EXPR_DEPTH - 8),
    )
    checked = load_text(text, tmp_path)
    assert rule_texts(checked.game)  # type: ignore[attr-defined]
    # what the front end accepts compiles and runs (policy 6); the compiled module is not run
    # here because that goes through the module cache
    compile(generate(checked), "deepest", "exec")  # type: ignore[arg-type]
    assert api.play(api.load(str(tmp_path / "game.yaml"), 2), seed=1).state.is_terminal()


def _depths(node: object) -> tuple[int, int]:
    """(deepest expression, deepest block nesting) under ``node``, without recursion."""
    expr_depth = block_depth = 0
    todo: list[tuple[object, int, int]] = [(node, 0, 0)]
    while todo:
        n, e, b = todo.pop()
        e = e + 1 if isinstance(n, ir.Expr) else 0
        b = b + 1 if isinstance(n, ir.Block) else b
        expr_depth, block_depth = max(expr_depth, e), max(block_depth, b)
        todo += [(c, e, b) for c in children(n)]
    return expr_depth, block_depth


def _yaml_depth(doc: object) -> int:
    deepest, todo = 0, [(doc, 1)]
    while todo:
        node, d = todo.pop()
        if isinstance(node, (YMap, YList)):
            deepest = max(deepest, d)
            todo += [(v, d + 1) for v in (node.values() if isinstance(node, YMap) else node)]
    return deepest


# The shipped games' deepest expression, block nesting and YAML nesting (measured when the limits
# were set); a game that goes past half a limit should make us look at the limit again.
SHIPPED_DEPTHS = {
    "harbour-guilds": (7, 6, 12),
    "louis-xiv": (7, 7, 14),
    "shadow-of-the-emperor": (13, 6, 14),
    "shadow-of-the-sun": (8, 4, 12),
    "sonnenkoenig": (7, 6, 16),
}


@pytest.mark.parametrize("game", sorted(SHIPPED_DEPTHS))
def test_shipped_games_stay_well_within_the_limits(game: str) -> None:
    from meeple.dsl.yamlload import load_yaml_file

    g = load_rules(RULES / game).game
    roots: list[object] = [g.setup, g.play, g.scoring]
    roots += [p.body for p in g.procedures.values()] + [f.body for f in g.functions.values()]
    roots += [t.body for t in g.triggers.values()] + [t.key for t in g.tie_breakers]
    roots += [v.initial for v in g.variables.values()]
    depths = [_depths(r) for r in roots]
    expr_depth = max(d[0] for d in depths)
    block_depth = max(d[1] for d in depths)
    yaml_depth = _yaml_depth(load_yaml_file(RULES / game / "game.yaml"))
    assert (expr_depth, block_depth, yaml_depth) == SHIPPED_DEPTHS[game]
    assert expr_depth <= MAX_EXPR_DEPTH // 2
    assert block_depth <= MAX_BLOCK_DEPTH // 2
    assert yaml_depth <= MAX_YAML_DEPTH // 2


# ---------------------------------------------------------------------- section 9 (policy 10)
# fmt: off
SMALLER = {
    "track-min-above-max": Bad(
        edit("variables:\n  round: {type: int, initial: 1, source: Play}\n",
             "tracks:\n  round: {initial: 1, min: 10, max: 0, at_ends: clamp, source: Play}\n"
             "variables:\n"),
        CheckError, "max: |0, at_ends", "track 'round' has min 10 above its max 0",
        suggestion="swap min and max"),
    "initial-outside-min-max": Bad(
        edit("variables:\n  round: {type: int, initial: 1, source: Play}\n",
             "tracks:\n  round: {initial: 1, min: 2, max: 9, at_ends: clamp, source: Play}\n"
             "variables:\n"),
        CheckError, "initial: |1, min", "the initial value 1 of 'round' is outside 2..9"),
    "pick-min-above-max": Bad(
        edit("                count: 1\n", "                min: 10\n                max: 0\n"),
        CheckError, "max: |0\n", "a pick of at least 10 and at most 0 items is impossible"),
    "empty-range-of-options": Bad(
        edit("          - label: draw a card\n",
             "          - label: take {n}\n            for: n in 10..0\n"
             "          - label: draw a card\n"),
        CheckError, "for: n in |10..0", "the range 10..0 is empty", suggestion="write 0..10"),
    "zone-refills-from-itself": Bad(
        edit("  deck: {visibility: hidden, source: Setup}",
             "  deck: {visibility: hidden, refill: deck, source: Setup}"),
        CheckError, "refill: |deck", "zone 'deck' names itself as its refill"),
    "zones-refill-from-each-other": Bad(
        edit("  deck: {visibility: hidden, source: Setup}",
             "  deck: {visibility: hidden, refill: discard, source: Setup}",
             "  discard: {visibility: public, source: Turn}",
             "  discard: {visibility: public, refill: deck, source: Turn}"),
        CheckError, "refill: |discard",
        "zone 'deck' refills from itself (deck -> discard -> deck)"),
}
# fmt: on


@pytest.mark.parametrize("bad", SMALLER.values(), ids=SMALLER.keys())
def test_smaller_kinds(bad: Bad, tmp_path: Path) -> None:
    check_bad(bad, tmp_path)


def test_a_copied_game_accepts_its_own_variants(tmp_path: Path) -> None:
    copy = tmp_path / "my-copy"
    shutil.copytree(RULES / "harbour-guilds", copy)
    for variant in sorted((copy / "variants").glob("*.yaml")):
        checked, v = load_variant(variant)
        assert v.extends == "harbour-guilds"
        assert checked.game.id == "harbour-guilds"


VARIANT = """variant: bad
name: Bad
extends: harbour-guilds
rationale: A variant that tries a name the rules would refuse in the game file itself.
changes:
"""


@pytest.mark.parametrize(
    ("change", "at", "message"),
    [
        pytest.param(
            "  - add: procedures.new rule\n    value: {source: x, do: [end game]}\n",
            "procedures.|new rule",
            f"'new rule' {USE} (it names a procedure)",
            id="added-procedure-name",
        ),
        pytest.param(
            "  - set: components.guilds.items[name=Weavers].bonus\n    to: &b 12\n",
            "to: |&b",
            "'&b' is a YAML anchor",
            id="anchor-in-a-variant",
        ),
        pytest.param(
            "  - set: game.players.max\n    to: 0010\n",
            "to: |0010",
            "'0010' has a leading zero",
            id="leading-zero-in-a-variant",
        ),
    ],
)
def test_variants_are_held_to_the_same_rules(
    change: str, at: str, message: str, tmp_path: Path
) -> None:
    copy = tmp_path / "harbour-guilds"
    shutil.copytree(RULES / "harbour-guilds", copy)
    path = copy / "variants" / "bad.yaml"
    text = VARIANT + change
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MeepleError) as e:
        load_variant(path)
    assert message in e.value.message, str(e.value)
    assert e.value.span is not None and e.value.span.file == str(path), str(e.value)
    assert (e.value.span.line, e.value.span.col) == position(text, at), str(e.value)


def test_a_variant_id_with_a_newline_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "harbour-guilds"
    shutil.copytree(RULES / "harbour-guilds", copy)
    path = copy / "variants" / "bad.yaml"
    text = VARIANT.replace("variant: bad", 'variant: "bad\\n"') + "  - remove: game.source\n"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SchemaError, match=r"'bad\\n' is not a valid id \('variant'\)"):
        load_variant(path)


# ------------------------------------------------------------------------------ recursion
def test_recursive_functions_check_and_lint(tmp_path: Path) -> None:
    """A function may call itself, directly or through another (it may end): every pass over
    function bodies terminates."""
    text = edit(
        "functions:\n",
        "functions:\n"
        "  countdown:\n    source: Scoring\n    params: [n]\n"
        "    value: 0 if n <= 0 else countdown(n - 1)\n"
        "  even:\n    source: Scoring\n    params: [n]\n"
        "    value: true if n == 0 else odd(n - 1)\n"
        "  odd:\n    source: Scoring\n    params: [n]\n"
        "    value: false if n == 0 else even(n - 1)\n",
        "      until: round > 3",
        "      until: round > countdown(3) + 3 and even(2)",
    )
    checked = load_text(text, tmp_path)
    lint(checked.game)  # type: ignore[attr-defined]


def test_long_call_chains_settle_in_a_few_checker_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parameter types flow down a chain of calls and result types back up; the checker must not
    need one pass per link (300 links took 300 passes, 3000 links about a minute)."""
    from meeple.dsl import checker

    n = 300
    procs = "".join(  # declared last-called first: the hard order for a pass in file order
        f"  p{i}:\n    source: Turn\n    params: [x]\n    do:\n"
        + (f"      - p{i + 1}(x)\n" if i + 1 < n else '      - log "{x}"\n')
        for i in reversed(range(n))
    )
    funcs = "".join(
        f"  f{i}:\n    source: Scoring\n    params: [x]\n"
        f"    value: {f'f{i + 1}(x)' if i + 1 < n else 'x'}\n"
        for i in reversed(range(n))
    )
    text = edit(
        "procedures:\n",
        "procedures:\n" + procs,
        "functions:\n",
        "functions:\n" + funcs,
        "            - turn(p)",
        "            - turn(p)\n            - p0(f0(p))",
    )
    passes: list[int] = []
    run = checker._Checker.run

    def counted(self: checker._Checker, *args: object, **kwargs: object) -> None:
        passes.append(1)
        run(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(checker._Checker, "run", counted)
    checked = load_text(text, tmp_path)
    assert len(passes) <= 6
    log = checked.game.procedures[f"p{n - 1}"].body.stmts[0]  # type: ignore[attr-defined]
    assert isinstance(log, ir.Log)
    x = next(p for p in log.parts if isinstance(p, ir.Expr))
    assert checked.types[id(x)] == "player"  # type: ignore[attr-defined]


def test_meeple_check_lints_a_long_chain_of_procedures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lint's 'is every call guarded' walk over callers is a worklist, not a recursion: a
    chain of 2000 procedures ending in an unguarded pick overflowed the stack."""
    from meeple.cli import main

    n = 2000
    procs = "".join(
        f"  p{i}:\n    source: Turn\n    params: [x]\n    do:\n      - p{i + 1}(x)\n"
        for i in range(n - 1)
    ) + (
        f"  p{n - 1}:\n    source: Turn\n    params: [x]\n    do:\n"
        "      - pick: Discard a card\n        by: x\n        from: hand[x]\n        count: 1\n"
    )
    text = edit(
        "procedures:\n", "procedures:\n" + procs, "            - turn(p)", "            - p0(p)"
    )
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    err = capsys.readouterr()
    assert "Traceback" not in err.err + err.out
    line = text.count("\n", 0, text.index("      - pick: Discard a card\n        by: x")) + 1
    assert f"{path}:{line}:9: warning: this pick can have no legal option" in err.err + err.out


def test_a_long_chain_of_variants_is_followed_without_recursion(tmp_path: Path) -> None:
    copy = tmp_path / "harbour-guilds"
    shutil.copytree(RULES / "harbour-guilds", copy)
    n = 1100  # more than Python's default recursion limit
    for i in range(n):
        extends = "harbour-guilds" if i == 0 else f"v{i - 1}"
        (copy / "variants" / f"v{i}.yaml").write_text(
            VARIANT.replace("variant: bad", f"variant: v{i}").replace(
                "extends: harbour-guilds", f"extends: {extends}"
            )
            + f"  - set: game.source\n    to: step {i}\n",
            encoding="utf-8",
        )
    checked, variant = load_variant(copy / "variants" / f"v{n - 1}.yaml")
    assert len(variant.chain()) == n
    assert variant.chain()[0].id == "v0"


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("round", "round = round * round + 2"),  # a variable
        ("round", "round += round"),  # doubling: 60 passes reach the limit
        ("score", "score[p] = score[p] * 999999999999 + 1"),  # a variable per player
    ],
)
def test_a_number_that_grows_without_end_is_refused(
    tmp_path: Path, backend: str, name: str, rule: str
) -> None:
    """A rule that keeps multiplying a variable stops at MAX_NUMBER with a rule error naming
    it, on both back ends; unchecked, ``round * round`` took minutes a step and its number
    could not be printed or saved (more than 4,300 digits)."""
    path = tmp_path / "game.yaml"
    loop = f"    - for: p in players\n      do:\n        - while: true\n          do: ['{rule}']\n"
    path.write_text(edit("    - shuffle deck\n", "    - shuffle deck\n" + loop), encoding="utf-8")
    game = api.load(str(path), 2, backend=backend)
    with pytest.raises(MeepleError) as err, time_limit(30):  # (unchecked: a hang, not a failure)
        game.new_initial_state(0)
    assert f"'{name}' would hold a number beyond 1,000,000,000,000,000,000" in err.value.message
    assert err.value.span is not None and err.value.span.line == 50, err.value  # the rule
