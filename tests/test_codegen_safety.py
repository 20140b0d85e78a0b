"""The code generator never turns rule text into code (issue 11, sections 1 and 3).

Hostile strings (quotes, triple quotes, backslashes, CR, NUL, U+2028/U+2029, braces) go through
every place rule text reaches a generated module: the game's name (also set by a variant), item
names, table labels, prompts, option labels, log texts, and the file names of the rules. Each
payload would create a marker file if it ever ran; the module must compile, play like the
interpreter, keep the text as data, and never create the marker. Hostile *names* are refused by
the checker; the emitter refuses them too (its own guard), tested by patching the checked IR.
Section 3: everything the front end accepts compiles, at exactly the nesting limits.
"""

from __future__ import annotations

import builtins
import io
import json
import random
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.codegen import cache, compiled_program, generate
from meeple.codegen.emitter import check_names
from meeple.codegen.exprs import _inlinable, expr_depth, function_name
from meeple.codegen.writer import Names, comment_path, literal
from meeple.dsl import ir
from meeple.dsl.checker import Checked
from meeple.dsl.errors import MeepleError, YamlError
from meeple.dsl.limits import MAX_BLOCK_DEPTH, MAX_EXPR_DEPTH
from meeple.dsl.loader import load_rules, load_variant
from meeple.interpreter.game import Game

MINIMAL = Path(__file__).parent / "fixtures" / "minimal" / "game.yaml"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MEEPLE_CACHE", str(tmp_path / "cache"))
    cache.forget()
    yield
    cache.forget()


def _code(marker: Path) -> str:
    """Python that leaves a trace if it ever runs."""
    return f"__import__('pathlib').Path({str(marker)!r}).touch()"


def _payloads(marker: Path) -> list[str]:
    code = _code(marker)
    return [
        f'"""; {code}; """',
        f"'''; {code}; '''",
        f'\\"""\\; {code}; #',
        f"x\r{code}\r#",
        f"x\n{code}\n#",
        f"\x00{code}\x00",
        f"\u2028{code}\u2029",
        f"}}{{ %s %(x)s {code}",  # ({} and {0} are holes in rule text: see the IR test)
    ]


def _q(text: str) -> str:
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


def _game_yaml(name: str, text: str, log_text: str) -> str:
    return f"""\
game:
  id: hostile
  name: {_q(name)}
  players: {{min: 2, max: 3}}
  source: Overview
components:
  cards:
    source: Components
    properties: {{points: int}}
    start: deck
    items:
      - {{name: {_q(text)}, count: 3, points: 1}}
      - {{name: Gem, count: 3, points: 2}}
zones:
  deck: {{visibility: hidden, source: Setup}}
  hand: {{per: players, visibility: public, source: Setup}}
variables:
  score: {{type: int, per: players, source: Scoring}}
tables:
  sets:
    source: Scoring
    group_by: name
    patterns:
      - {{label: {_q(text)}, pattern: [2]}}
setup:
  source: Setup
  do:
    - shuffle deck
play:
  source: Play
  do:
    - for: p in players
      do:
        - choose: {_q(text)}
          by: p
          options:
            - label: {_q(text)}
              do:
                - move 1 from deck to hand[p]
                - {_q("log " + log_text[:-1] + " {p}" + log_text[-1])}
            - label: {_q("pass " + text)}
              do: []
scoring:
  source: Scoring
  do:
    - for: p in players
      do:
        - score[p] = sum(c.points for c in hand[p]) + pattern_rank(hand[p], sets)
        - {_q("log " + log_text)}
"""


def _log_texts(marker: Path) -> list[str]:
    """Log texts (a statement's string: one line, one kind of quote inside)."""
    code = _code(marker).replace("'", '"')
    return [f'\'"""; {code}; """\'', f"\"'''; {_code(marker)}; '''\"", "'}{ \\ %s'"]


def _play(game: Game, seed: int) -> tuple[Any, ...]:
    s = game.new_initial_state(seed, record_log=True)
    rng = random.Random(seed)
    while not s.is_terminal():
        acts = s.legal_actions()
        s.apply_action(acts[rng.randrange(len(acts))])
    return s.to_json(), s.returns(), list(s.log)


def _both(checked: Checked, players: int = 2, seeds: int = 3) -> list[tuple[Any, ...]]:
    """Play ``checked`` on both back ends; assert they agree; return the interpreter's runs."""
    interp = Game(checked, players)
    comp = Game(checked, players, compiled_program(checked, players))
    runs = []
    for seed in range(seeds):
        a, b = _play(interp, seed), _play(comp, seed)
        assert a == b
        runs.append(a)
    return runs


def _code_names(text: str) -> set[str]:
    """The names a module's code uses (outside strings and comments)."""
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return {t.string for t in tokens if t.type == tokenize.NAME}


def _compiles_and_runs_nothing(checked: Checked, marker: Path) -> str:
    text = generate(checked)
    assert "__import__" not in _code_names(text)  # the payloads' code is only ever in strings
    code = compile(text, "<hostile>", "exec")
    exec(code, {"__name__": "hostile_module"})  # defining the module runs no rule text
    assert not marker.exists(), "rule text ran as code"
    assert not hasattr(builtins, "MEEPLE_PWNED"), "rule text ran as code"
    return text


@pytest.mark.parametrize("k", range(8))
def test_hostile_text_in_rules_stays_text(tmp_path: Path, k: int) -> None:
    marker = tmp_path / "marker"
    payload = _payloads(marker)[k]
    log_text = _log_texts(marker)[k % 3]
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "game.yaml").write_text(_game_yaml(payload, payload, log_text), encoding="utf-8")
    if re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", payload):
        # a control character (CR, NUL) is refused in rule text; the IR test below still
        # checks that the module would keep it as data
        with pytest.raises(YamlError, match="control character"):
            load_rules(folder)
        return
    checked = load_rules(folder)
    _compiles_and_runs_nothing(checked, marker)
    runs = _both(checked)
    assert not marker.exists(), "rule text ran as code"
    module = cache.load_module(checked)
    assert module.GAME_NAME == payload
    logs = "\n".join(t for _, t in runs[0][2])
    assert log_text[1:-1] in logs  # the log keeps the text, braces and all
    game = meeple.load(str(folder), 2, backend="compiled")
    assert meeple.play(game, seed=1).scores == meeple.play(meeple.load(str(folder), 2), 1).scores
    assert not marker.exists()


def test_hostile_name_set_by_a_variant_stays_text(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    folder = tmp_path / "hostile"
    (folder / "variants").mkdir(parents=True)
    (folder / "game.yaml").write_text(_game_yaml("Plain", "Coin", "'text'"), encoding="utf-8")
    payload = _payloads(marker)[0]
    variant = f"""\
variant: evil
name: {_q(payload)}
extends: hostile
rationale: A variant whose name and changed game name are code.
changes:
  - set: game.name
    to: {_q(payload)}
"""
    (folder / "variants" / "evil.yaml").write_text(variant, encoding="utf-8")
    checked, _ = load_variant(folder / "variants" / "evil.yaml")
    assert payload in checked.game.name
    _compiles_and_runs_nothing(checked, marker)
    _both(checked)
    assert cache.load_module(checked).GAME_NAME == checked.game.name
    assert not marker.exists()


def test_a_rules_file_name_with_a_newline_keeps_the_module_whole(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    folder = tmp_path / "hostile"
    folder.mkdir()
    code = "__import__('builtins').__dict__.__setitem__('MEEPLE_PWNED', 1)"  # no '/' in it
    file = folder / f"game\n{code}\n#.yaml"
    file.write_text(_game_yaml("Plain", "Coin", "'text'"), encoding="utf-8")
    checked = load_rules(file)
    text = _compiles_and_runs_nothing(checked, marker)
    assert all("\n" not in line for line in text.split("\n"))
    assert '# "game\\n__import__' in text  # the comment shows the name as an escaped literal
    runs = _both(checked)
    assert runs and not marker.exists()


def test_hostile_text_patched_into_the_ir_stays_text(tmp_path: Path) -> None:
    """Strings the front end may refuse one day (NUL, CR, U+2028, ``{}`` in a log) written
    straight into the checked IR: the module still keeps them as data."""
    marker = tmp_path / "marker"
    checked = load_rules(MINIMAL)
    texts = _payloads(marker)
    object.__setattr__(checked.game, "name", texts[0] + texts[5])
    logs = [ir.Log(ir.SourceSpan(str(MINIMAL), 1, 1), tuple(texts) + ("{}", "{0}", "%s", "\\"))]
    play = checked.game.play
    object.__setattr__(play, "stmts", tuple(logs) + tuple(play.stmts))
    cache.forget()
    _compiles_and_runs_nothing(checked, marker)
    runs = _both(checked)
    assert "".join(texts) + "{}{0}%s\\" in [t for _, t in runs[0][2]]
    assert cache.load_module(checked).GAME_NAME == texts[0] + texts[5]
    assert not marker.exists()


@pytest.mark.parametrize("prop", ["class", "from", "not", "match", "None"])
def test_a_property_named_like_a_python_keyword_plays_on_both_back_ends(
    tmp_path: Path, prop: str
) -> None:
    text = MINIMAL.read_text(encoding="utf-8").replace("points", prop)
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    checked = load_rules(tmp_path / "game.yaml")
    compile(generate(checked), "kw.py", "exec")
    _both(checked, 2, seeds=2)


BAD_NAMES = ['x"""\nimport os\n"""', "a b", "x\ny", "caf\u00e9", "1x", "x" * 65, "", "x{y}"]


def _rename(d: dict[str, Any], old: str, new: str) -> None:
    decl = d.pop(old)
    object.__setattr__(decl, "name", new)
    d[new] = decl


def _patchers() -> dict[str, Any]:
    def kind(g: ir.Game, bad: str) -> None:
        _rename(g.kinds, "cards", bad)

    def item_key(g: ir.Game, bad: str) -> None:
        object.__setattr__(g.kinds["cards"].items[0], "key", bad)

    def prop(g: ir.Game, bad: str) -> None:
        g.kinds["cards"].properties[bad] = "int"

    def param(g: ir.Game, bad: str) -> None:
        object.__setattr__(g.functions["hand_points"], "params", (bad,))

    def proc_param(g: ir.Game, bad: str) -> None:
        object.__setattr__(g.procedures["turn"], "params", (bad,))

    def space(attr: str, key: str) -> Any:
        return lambda g, bad: _rename(getattr(g, attr), key, bad)

    return {
        "kind": kind,
        "item key": item_key,
        "property": prop,
        "zone": space("zones", "deck"),
        "variable": space("variables", "round"),
        "table": space("tables", "sets"),
        "function": space("functions", "hand_points"),
        "parameter": param,
        "procedure": space("procedures", "turn"),
        "procedure parameter": proc_param,
    }


@pytest.mark.parametrize("where", list(_patchers()))
@pytest.mark.parametrize("bad", BAD_NAMES)
def test_the_emitter_refuses_a_name_that_is_not_an_identifier(where: str, bad: str) -> None:
    checked = load_rules(MINIMAL)
    _patchers()[where](checked.game, bad)
    with pytest.raises(MeepleError, match="not a valid"):
        generate(checked)


def test_the_emitter_refuses_a_bad_trigger_name() -> None:
    checked = load_rules(MINIMAL)
    span = ir.SourceSpan(str(MINIMAL), 1, 1)
    body = ir.Block(span, ())
    checked.game.triggers["x\ny"] = ir.Trigger("x\ny", span, "deck", None, "c", None, body)
    with pytest.raises(MeepleError, match="not a valid trigger name"):
        check_names(checked.game)


def test_function_names_and_literals_are_guarded() -> None:
    with pytest.raises(MeepleError):
        function_name("f(); import os")

    class Sneaky(str):
        def __repr__(self) -> str:
            return "__import__('os')"

    with pytest.raises(MeepleError):
        literal(Sneaky("x"))
    with pytest.raises(MeepleError):
        literal(("ok", object()))
    with pytest.raises(MeepleError, match="too large|this large"):
        literal(10**5000)
    assert eval(literal(float("nan"))) != eval(literal(float("nan")))  # a float, not a name
    assert comment_path("rules/game.yaml") == "rules/game.yaml"
    assert "\n" not in comment_path("a\nb.yaml") and "\u2028" not in comment_path("a\u2028")


def test_fresh_names_are_unique_and_ascii() -> None:
    names = Names()
    got = [names.fresh("c") for _ in range(11)] + [names.fresh("c1"), names.fresh("x\u00b2")]
    assert len(set(got)) == len(got)
    assert all(n.isidentifier() and n.isascii() for n in got)


# ---------------------------------------------------------------- section 3: the limits


def _sum(n: int) -> str:
    return " + ".join(["1"] * n)


def _nested_calls(n: int) -> str:
    """abs(-(abs(-(...1...)))), ``n`` deep."""
    text = "1"
    for k in range(n - 1):
        text = f"abs({text})" if k % 2 else f"-({text})"
    return text


def _maxes(n: int, leaf: str, first: str) -> str:
    """max(first, max(first, ... leaf)), ``n`` deep: two brackets a level in Python
    (``max((a, b,))``), the most any expression takes."""
    text = leaf
    for _ in range(n - 1):
        text = f"max({first}, {text})"
    return text


def _deep_game(d: int, block_depth: int) -> str:
    """A game with expressions exactly ``d`` deep (sums, nested calls, a deep function inlined
    at a deep call site) inside if-blocks nested ``block_depth`` deep."""
    ifs = ["- if: round > 0"]
    indent = "  "
    for _ in range(block_depth - 1):
        ifs.append(f"{indent}then:")
        ifs.append(f"{indent}  - if: round > 0")
        indent += "    "
    ifs.append(f"{indent}then:")
    ifs.append(f"{indent}  - round = deep(round) + {_sum(d - 3)}")
    body = "\n".join("    " + line for line in ifs)
    return f"""\
game: {{id: deep, name: Deep, players: {{min: 2, max: 2}}, source: Overview}}
components:
  cards:
    source: Components
    start: deck
    items: [{{name: Coin, count: 4}}]
zones:
  deck: {{visibility: hidden, source: Setup}}
  hand: {{per: players, visibility: public, source: Setup}}
variables:
  round: {{type: int, initial: 1, source: Play}}
  score: {{type: int, per: players, source: Scoring}}
functions:
  deep:
    source: Play
    params: [x]
    value: x - x + {_sum(d - 2)}
  nested:
    source: Play
    params: [x]
    value: {_nested_calls(d)}
  maxes:
    source: Play
    params: [x]
    value: {_maxes(d, "x", "x")}
setup: {{source: Setup, do: []}}
play:
  source: Play
  do:
    - round = {_maxes(d - 2, "maxes(round)", "1")}
{body}
    - for: p in players
      do:
        - choose: Take a card?
          by: p
          options:
            - label: take
              when: deep(round) + {_sum(d - 4)} > 0
              do: ["move 1 from deck to hand[p]"]
            - label: pass
              do: []
        - score[p] = count(hand[p]) + nested(p) + round
scoring: {{source: Scoring, do: []}}
"""


def test_the_generator_compiles_everything_at_the_nesting_limits(tmp_path: Path) -> None:
    folder = tmp_path / "deep"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        _deep_game(MAX_EXPR_DEPTH, MAX_BLOCK_DEPTH - 1), "utf-8"
    )  # play is a block too
    checked = load_rules(folder)
    g = checked.game
    depths = [expr_depth(f.body) for f in g.functions.values()]
    assert depths == [MAX_EXPR_DEPTH] * 3, depths
    compile(generate(checked), "deep.py", "exec")  # Python's own limits: 200 (, 100 indents
    assert not {"deep", "maxes"} & _inlinable(g)  # too big to inline at call sites as deep
    runs = _both(checked, 2, seeds=2)
    assert runs[0][1] is not None


def _walk(x: Any) -> Iterator[Any]:
    yield x
    if isinstance(x, (list, tuple)):
        for y in x:
            yield from _walk(y)
    elif isinstance(x, ir.Expr):
        for f in x.__dataclass_fields__:
            yield from _walk(getattr(x, f))


def test_recursive_functions_do_not_hang_the_generator(tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    folder.mkdir()
    text = _deep_game(6, 1).replace(
        f"    value: x - x + {_sum(4)}\n",
        "    value: 0 if x <= 0 else odd(x - 1)\n"
        "  odd:\n    source: Play\n    params: [x]\n    value: 1 if x <= 0 else deep(x - 1)\n"
        "  selfish:\n    source: Play\n    params: [x]\n    value: 0 if x <= 0 else selfish(x)\n",
    )
    (folder / "game.yaml").write_text(text, "utf-8")
    checked = load_rules(folder)
    assert {"deep", "odd", "selfish"} <= set(checked.game.functions)
    assert not {"deep", "odd", "selfish"} & _inlinable(checked.game)
    compile(generate(checked), "rec.py", "exec")
    _both(checked, 2, seeds=2)
