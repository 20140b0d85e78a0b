# ruff: noqa: E501 -- a case table laid out by hand, one case per paragraph
"""The hostile corpus: malformed or hostile rule files and variants, each with its outcome.

Every case is an edit of the minimal game (tests/fixtures/minimal/game.yaml), optionally with a
variant file beside it, and says what must happen (issue 11 and the shared policies):

* ``error`` set, ``run`` false: loading (``load_rules``, or ``load_variant`` when there is a
  variant) raises exactly that MeepleError subclass, at the line and column that ``at`` marks
  ('|' before the column, inside a unique piece of the file the error is in).
* ``error`` set, ``run`` true: the file loads, and playing it on each back end raises that error
  at the line of ``at`` (the rule's line) -- never RecursionError, IndexError or a hang.
* ``error`` None: the file loads and checks, and its compiled module runs without executing any
  rule text (the payloads set ``builtins.MEEPLE_PWNED``; the test asserts it stays unset).

``at`` None means only the class is asserted (no position is defined, e.g. a file too big to read
is at 1:1, given as "|" on the first character).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from meeple.dsl.errors import CheckError, MeepleError, ParseError, RuleError, SchemaError, YamlError
from meeple.dsl.limits import (
    MAX_BLOCK_DEPTH,
    MAX_CALL_DEPTH,
    MAX_EXPR_DEPTH,
    MAX_INT,
    MAX_NAME_LENGTH,
    MAX_YAML_DEPTH,
    RESERVED_PROPERTIES,
)

FIXTURE = Path(__file__).parent.parent / "fixtures" / "minimal" / "game.yaml"
BASE = FIXTURE.read_text(encoding="utf-8")


def edit(*pairs: str, text: str = BASE) -> str:
    """The minimal game with each ``old`` text (which must occur exactly once) replaced."""
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


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # the section: "1 codegen", "3 limits", ...
    text: str  # the game.yaml
    error: type[MeepleError] | None
    at: str | None = None  # in the variant when there is one, else in game.yaml
    message: str = ""  # a fragment of e.message
    variant: str | None = None  # a variant file's text (extends: minimal)
    run: bool = False  # the error comes while the game runs, on both back ends
    alt: str | None = None  # another acceptable line for a run-time error (the outer call)
    players: int = 2
    folder: str = "minimal"  # the game folder's name
    file_name: str = "game.yaml"
    extra: dict[str, str] = field(default_factory=dict)  # other files beside game.yaml
    big: bool = False  # runs in the memory-bounded subprocess


# ----------------------------------------------------------------------------- payloads
# Python that, if it ever ran, would set builtins.MEEPLE_PWNED. Each is wrapped in a different
# way of escaping from a string literal, a docstring or a comment.
PWN = "__import__('builtins').__setattr__('MEEPLE_PWNED', 1)"
TEXT_PAYLOADS = {
    "triple-quotes": f'"""\n{PWN}\n"""',
    "triple-single-quotes": f"'''\n{PWN}\n'''",
    "quote-newline": f"'\n{PWN}\n#",
    "backslash-quote": f'\\"\n{PWN}\n#',
    "carriage-return": f"x\r{PWN}\r#",
    "line-separator": f"x\u2028{PWN}\u2028#",
    "braces": "{__import__('builtins').__setattr__('MEEPLE_PWNED', 1)}",
    "nul": f"x\0{PWN}",
}
NAME_PAYLOADS = {
    "newline-code": f"f\n{PWN}\n#",
    "space": "a b",
    "triple-quote": '"""',
    "zero-width": "de\u200bck",
    "bidi": "ro\u202eund",
    "digit-first": "1abc",
    "too-long": "n" * (MAX_NAME_LENGTH + 1),
    "accented": "naïve",
    "dash": "a-b",
    "empty": "",
}


def q(s: str) -> str:
    """``s`` as a YAML double-quoted scalar (JSON escapes are YAML escapes)."""
    return json.dumps(s, ensure_ascii=True)


CASES: list[Case] = []


def add(*cases: Case) -> None:
    CASES.extend(cases)


# ------------------------------------------------------------------ 1. rule text never runs
# Texts reach the generated module (docstring, labels, log lines, prompts, sources): loaded fine,
# compiled, and nothing runs.
TEXT_PLACES = {
    "game-name": ("  name: Minimal\n", "  name: {}\n"),
    "prompt": ("      - choose: Draw or discard?\n", "      - choose: {}\n"),
    "label": ("          - label: draw a card\n", "          - label: {}\n"),
    "log": ("        - round += 1\n", "        - round += 1\n        - {}\n"),
    "source": ("  source: Overview\n", "  source: {}\n"),
}


def log_statement(payload: str) -> str:
    """``log`` with the payload as a meeple string (one line, no escapes: quote with the kind of
    quote it does not hold)."""
    text = payload.replace("\n", " ")
    if '"' in text and "'" in text:
        text = text.replace("'", '"')
    quote = "'" if '"' in text else '"'
    return f"log {quote}{text}{quote}"


TEMPLATES = ("prompt", "label", "log")  # texts where braces hold expressions
for place, (old, new) in TEXT_PLACES.items():
    for pname, payload in TEXT_PAYLOADS.items():
        if place in TEMPLATES and pname == "braces":
            continue
        text = log_statement(payload) if place == "log" else payload
        control = re.search("[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]", text)
        if control is None:
            add(Case(f"text-{place}-{pname}", "1 codegen", edit(old, new.format(q(text))), None))
            continue
        # a control character (but a newline or a tab) is refused where its escape stands
        quoted = q(text)
        i = len(q(text[: control.start()])) - 1  # the escape's place in the quoted text
        add(Case(f"text-{place}-{pname}", "1 codegen", edit(old, new.format(quoted)), YamlError,
                 quoted[:i] + "|" + quoted[i:i + 8], message="control character"))  # fmt: skip

VARIANT_HEAD = (
    "variant: hostile\nname: Hostile\nextends: minimal\n"
    "rationale: a hostile variant of the minimal game, written to test that meeple refuses it\n"
    "source: tests/hostile/cases.py\n"
    "changes:\n"
)
add(
    Case(
        "variant-sets-game-name-to-code",
        "1 codegen",
        BASE,
        None,
        variant=VARIANT_HEAD + f"  - set: game.name\n    to: {q(TEXT_PAYLOADS['triple-quotes'])}\n",
    ),
    Case(
        "variant-sets-a-label-to-code",
        "1 codegen",
        BASE,
        None,
        variant=VARIANT_HEAD
        + "  - set: procedures.turn.do[0].options[0].label\n"
        + f"    to: {q(TEXT_PAYLOADS['quote-newline'])}\n",
    ),
    Case(
        "variant-adds-a-function-with-code-in-its-name",
        "1 codegen",
        BASE,
        SchemaError,
        at="|" + q(NAME_PAYLOADS["newline-code"]),
        variant=VARIANT_HEAD
        + "  - set: functions\n"
        + f"    to: {{{q(NAME_PAYLOADS['newline-code'])}: {{source: x, value: 1}}}}\n",
    ),
    # a rules file whose file name holds a newline and code (the '# file:line' comments)
    Case(
        "file-name-with-newline-and-code", "1 codegen", BASE, None, file_name=f"game\n{PWN}\n.yaml"
    ),  # fmt: skip
    Case(
        "folder-name-with-newline-and-code", "1 codegen", BASE, None, folder=f"minimal\n{PWN}\n#"
    ),  # fmt: skip
)

# Names in every namespace: each hostile name is refused at its key (SchemaError, policy 1).
NAME_PLACES = {
    # namespace: (old, new with {} for the quoted name, where the error points)
    "kind": ("  cards:\n", "  {}:\n"),
    "zone": ("  discard: {visibility", "  {}: {{visibility: public, source: Turn}}\n  discard: {{visibility"),
    "variable": ("  round: {", "  {}: {{type: int, source: Play}}\n  round: {{"),
    "function": ("  hand_points:\n", "  {}:\n    source: Scoring\n    value: 1\n  hand_points:\n"),
    "procedure": ("  turn:\n", "  {}:\n    source: Turn\n    do: []\n  turn:\n"),
    "table": ("  sets:\n", "  {}:\n    source: Scoring\n    group_by: name\n    patterns: [{{label: x, pattern: [2]}}]\n  sets:\n"),
    "property": ("properties: {points: int}", "properties: {{points: int, {}: int}}"),
    "function-param": ("    params: [p]\n    value:", "    params: [p, {}]\n    value:"),
    "procedure-param": ("    params: [p]\n    do:", "    params: [p, {}]\n    do:"),
    "item-key": ("{name: Gem, count: 6, points: 2}", "{{key: {}, name: Gem, count: 6, points: 2}}"),
}  # fmt: skip
for ns, (old, new) in NAME_PLACES.items():
    for pname, name in NAME_PAYLOADS.items():
        quoted = q(name)
        text = edit(old, new.format(quoted))
        at = "|" + quoted if text.count(quoted) == 1 else None
        add(Case(f"name-{ns}-{pname}", "1 names", text, SchemaError, at=at))

# ------------------------------------------------------------------ 2. the folder beside the rules
add(
    Case("folder-named-notes-yaml-beside-game", "2 cache", BASE, None, extra={"notes.yaml/": ""}),
    Case("dangling-symlink-beside-game", "2 cache", BASE, None, extra={"gone.yaml@": "nowhere"}),
)

# ------------------------------------------------------------------ 3. limits
BOMB = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 10)
)


def nested_ifs(levels: int) -> str:
    lines, pad = [], "        "
    for _ in range(levels):
        lines += [f"{pad}- if: round > 0", f"{pad}  then:"]
        pad += "    "
    lines.append(f"{pad}- round += 1")
    return edit("        - round += 1\n", "\n".join(lines) + "\n")


def terms(n: int, op: str = " + ") -> str:
    return op.join(["round"] * n)


UNTIL = "      until: round > 3"
VALUE = "    value: sum(c.points for c in hand[p])"
FUNCS = "functions:\n"


def recursive(body: str, call: str) -> str:
    """The minimal game with functions ``body`` and ``call`` in place of its loop's condition."""
    return edit(FUNCS, FUNCS + body, UNTIL, f"      until: {call}")


add(
    Case("alias-bomb", "3 limits", edit("game:\n", BOMB + "game:\n"), YamlError, "a0: |&a0",
         "anchor", big=True),
    Case("50-mb-file", "3 limits", "", YamlError, None, "MAX_FILE_BYTES", big=True),
    Case("one-byte-over-the-size-limit", "3 limits", "", YamlError, None, "MAX_FILE_BYTES",
         big=True),
    Case("anchor-alone", "3 limits", edit("  deck: {visibility", "  deck: &d {visibility"),
         YamlError, "|&d {", "anchor"),
    Case("alias-of-a-mapping", "3 limits",
         edit("  deck: {visibility", "  deck: &d {visibility",
              "  discard: {visibility: public, source: Turn}", "  discard: *d"),
         YamlError, "|&d {", "anchor"),
    Case("500-term-sum", "3 limits", edit(VALUE, f"    value: {terms(500)}"), ParseError,
         "value: |round + "),
    Case("300-term-sum", "3 limits", edit(UNTIL, f"      until: {terms(300)} > 3"), ParseError,
         "until: |round + "),
    Case("300-term-product", "3 limits", edit(UNTIL, f"      until: {terms(300, ' * ')} > 3"),
         ParseError, "until: |round * "),
    Case("300-term-and", "3 limits",
         edit(UNTIL, f"      until: {' and '.join(['round > 3'] * 300)}"), ParseError,
         "until: |round > 3 and"),
    Case("sum-at-the-limit-plus-one", "3 limits",
         edit(UNTIL, f"      until: {terms(MAX_EXPR_DEPTH + 1)} > 3"), ParseError,
         "until: |round + "),
    Case("100-nested-ifs", "3 limits", nested_ifs(100), YamlError,
         "        " + "    " * 29 + "  then:\n" + "        " + "    " * 30 + "|- if"),
    Case("nested-ifs-past-the-block-limit", "3 limits", nested_ifs(MAX_BLOCK_DEPTH + 1),
         CheckError, "        " + "    " * (MAX_BLOCK_DEPTH - 2) + "  then:\n"
         + "        " + "    " * (MAX_BLOCK_DEPTH - 1) + "|- if"),
    Case("nested-parentheses", "3 limits",
         edit(UNTIL, "      until: " + "(" * 70 + "round" + ")" * 70 + " > 3"), ParseError,
         "until: " + "(" * MAX_EXPR_DEPTH + "|("),
    Case("nested-calls", "3 limits",
         edit(UNTIL, "      until: " + "abs(" * 70 + "round" + ")" * 70 + " > 3"), ParseError,
         "until: " + "abs(" * MAX_EXPR_DEPTH + "abs|("),
    Case("nested-lists", "3 limits",
         edit(UNTIL, "      until: round in " + "[" * 70 + "1" + "]" * 70),
         ParseError, "until: round in " + "[" * MAX_EXPR_DEPTH + "|["),
    Case("deep-negation", "3 limits", edit(UNTIL, "      until: " + "not " * 70 + "round > 3"),
         ParseError, "until: " + "not " * MAX_EXPR_DEPTH + "|not "),
    Case("deep-minus", "3 limits", edit(UNTIL, "      until: 0 > " + "- " * 70 + "round"),
         ParseError, "until: 0 > " + "- " * (MAX_EXPR_DEPTH - 1) + "|- "),
    Case("yaml-nested-lists", "3 limits",
         edit(UNTIL, UNTIL + "\n      note: " + "[" * 70 + "]" * 70), YamlError,
         "note: " + "[" * (MAX_YAML_DEPTH - 4) + "|["),
    Case("yaml-nested-mappings", "3 limits",
         edit(UNTIL, UNTIL + "\n      note: " + "{a: " * 70 + "1" + "}" * 70), YamlError,
         "note: " + "{a: " * (MAX_YAML_DEPTH - 4) + "|{a: "),
    Case("5000-digit-int-in-yaml", "3 limits",
         edit("{name: Coin, count: 10,", "{name: Coin, count: " + "9" * 5000 + ","), YamlError,
         "count: |999"),
    Case("5000-digit-negative-int-in-yaml", "3 limits",
         edit("{type: int, initial: 1, source: Play}",
              "{type: int, initial: 1, min: -" + "9" * 5000 + ", source: Play}"), YamlError,
         "min: |-999"),
    Case("5000-digit-int-in-an-expression", "3 limits",
         edit(UNTIL, "      until: round > " + "7" * 5000), ParseError, "round > |777"),
    Case("5000-digit-int-in-a-statement", "3 limits",
         edit("        - round += 1", "        - round += " + "7" * 5000), ParseError,
         "round += |777"),
    Case("int-just-past-max-int-in-yaml", "3 limits",
         edit("{name: Coin, count: 10,", f"{{name: Coin, count: {MAX_INT + 1},"), YamlError,
         "count: |1000"),
    Case("int-just-past-max-int-in-an-expression", "3 limits",
         edit(UNTIL, f"      until: round > {MAX_INT + 1}"), ParseError, "round > |1000"),
    Case("int-at-max-int-in-an-expression-loads", "3 limits",
         edit(UNTIL, f"      until: round > {MAX_INT} or round > 3"), None),
    Case("huge-float-in-yaml", "3 limits",
         edit("{name: Coin, count: 10,", "{name: Coin, count: 1e400,"), SchemaError,
         "count: |1e400"),
    Case("name-too-long-in-an-expression", "3 limits",
         edit("        - round += 1", "        - let " + "x" * 65 + " = 1"), ParseError,
         "let |xxx"),
    # recursion while the game runs: a rule error at the call, on both back ends
    Case("function-recursion-to-depth-3000", "3 limits",
         recursive("  down:\n    source: Play\n    params: [n]\n"
                   "    value: 0 if n <= 0 else down(n - 1)\n",
                   "round > 3 + down(3000)"),
         RuleError, "value: 0 if n <= 0 else |down", run=True, alt="until: |round > 3 + down"),
    Case("function-recursion-without-end", "3 limits",
         recursive("  loop:\n    source: Play\n    params: [n]\n    value: loop(n + 1)\n",
                   "round > loop(0)"),
         RuleError, "value: |loop(n + 1)", run=True, alt="until: |round > loop"),
    Case("mutual-function-recursion", "3 limits",
         recursive("  ping:\n    source: Play\n    params: [n]\n    value: pong(n + 1)\n"
                   "  pong:\n    source: Play\n    params: [n]\n    value: ping(n + 1)\n",
                   "round > ping(0)"),
         RuleError, "value: |pong(n + 1)", run=True, alt="value: |ping(n + 1)"),
    Case("procedure-recursion-without-end", "3 limits",
         edit("procedures:\n", "procedures:\n  again:\n    source: Play\n    do:\n"
              "      - again()\n",
              "        - round += 1\n", "        - round += 1\n        - again()\n"),
         RuleError, "    do:\n      - |again()\n", run=True, alt="        - round += 1\n        - |again()"),
    Case("function-recursion-within-the-limit-plays", "3 limits",
         recursive("  down:\n    source: Play\n    params: [n]\n"
                   "    value: 0 if n <= 0 else down(n - 1)\n",
                   f"round > 3 + down({MAX_CALL_DEPTH // 2})"), None),
)  # fmt: skip

# ------------------------------------------------------------------ 4. seats checked at run time
SEAT = "is not a player in this"  # "seat 5 is not a player in this 2-player game" (policy 8)
TURN_BY = "      - choose: Draw or discard?\n        by: p\n"
MOVE1 = "              - move 1 from deck to hand[p]\n"


def by(seat: str) -> str:
    return edit(TURN_BY, f"      - choose: Draw or discard?\n        by: {seat}\n")


def stmt(line: str) -> str:
    """The minimal game with ``line`` run once per round."""
    return edit("        - round += 1\n", f"        - round += 1\n        - {line}\n")


add(
    Case("move-to-hand-num-players", "4 seats",
         stmt("move top(deck) to hand[num_players]"), RuleError,
         "        - |move top(deck) to hand[num_players]", message=SEAT, run=True),
    Case("move-to-hand-minus-one", "4 seats", stmt("move top(deck) to hand[-1]"), RuleError,
         "        - |move top(deck) to hand[-1]", message=SEAT, run=True),
    Case("move-from-hand-99", "4 seats", stmt("move 1 from hand[99] to deck"), RuleError,
         "        - |move 1 from hand[99] to deck", message=SEAT, run=True),
    Case("score-minus-one", "4 seats", stmt("score[-1] += 100"), RuleError,
         "        - |score[-1] += 100", message=SEAT, run=True),
    Case("score-num-players", "4 seats", stmt("score[num_players] = 1"), RuleError,
         "        - |score[num_players] = 1", message=SEAT, run=True),
    Case("read-score-of-seat-7", "4 seats", stmt("round += score[7]"), RuleError,
         "        - |round += score[7]", message=SEAT, run=True),
    Case("count-hand-of-seat-minus-one", "4 seats", stmt("round += count(hand[-1])"), RuleError,
         "        - |round += count(hand[-1])", message=SEAT, run=True),
    # who decides must be a player: a literal seat out of range, or a number that is not a
    # literal seat, is refused by the checker (a computed number would make another seat decide)
    Case("choose-by-minus-one", "4 seats", by("-1"), CheckError, "by: |-1",
         message="is not a seat of this game"),
    Case("choose-by-7-of-2", "4 seats", by("7"), CheckError, "by: |7",
         message="is not a seat of this game"),
    Case("choose-by-num-players", "4 seats", by("num_players"), CheckError, "by: |num_players",
         message="'by' must name a player"),
    Case("choose-by-count", "4 seats", by("count(hand[p])"), CheckError, "by: |count(hand[p])",
         message="'by' must name a player"),
    Case("pick-by-minus-one", "4 seats",
         edit("                by: p\n", "                by: -1\n"), CheckError,
         "                by: |-1", message="is not a seat of this game"),
    Case("pick-from-hand-of-seat-9", "4 seats",
         edit("                from: hand[p]\n", "                from: hand[9]\n"), RuleError,
         "                from: |hand[9]", message=SEAT, run=True, alt="              - |pick: Discard"),
    # a parameter its calls pass numbers to is a number, not a player: it cannot decide
    Case("turn-of-seat-5", "4 seats", edit("            - turn(p)\n", "            - turn(5)\n"),
         CheckError, "      - choose: Draw or discard?\n        by: |p\n",
         message="'by' must name a player"),
)  # fmt: skip

# ------------------------------------------------------------------ 5. reserved properties
for prop in sorted(RESERVED_PROPERTIES | {"__class__", "_hidden", "__dict__"}):
    add(Case(f"reserved-property-{prop}", "5 properties",
             edit("properties: {points: int}", f"properties: {{points: int, {prop}: int}}"),
             SchemaError, f"points: int, |{prop}"))  # fmt: skip

# ------------------------------------------------------------------ 9. smaller kinds
ROUND = "  round: {type: int, initial: 1, source: Play}"
add(
    Case("merge-key", "9 yaml",
         edit("  discard: {visibility: public, source: Turn}",
              "  discard: {<<: {visibility: public}, source: Turn}"),
         YamlError, "{|<<:"),
    Case("merge-key-block", "9 yaml",
         edit("  discard: {visibility: public, source: Turn}",
              "  discard:\n    <<: {visibility: public}\n    source: Turn"),
         YamlError, "    |<<:"),
    Case("leading-zero-010", "9 yaml", edit("{name: Coin, count: 10,", "{name: Coin, count: 010,"),
         YamlError, "count: |010"),
    Case("leading-zero-in-initial", "9 yaml",
         edit(ROUND, "  round: {type: int, initial: 01, source: Play}"), YamlError,
         "initial: |01"),
    Case("sexagesimal-1-30", "9 yaml",
         edit("variables:\n" + ROUND, "tracks:\n  round: {min: 1, max: 1:30, at_ends: clamp}\n"
              "variables:"), SchemaError, "max: |1:30"),
    Case("yes-is-text", "9 yaml", edit("    start: deck\n", "    start: deck\n    per_player: yes\n"),
         SchemaError, "per_player: |yes"),
    Case("off-is-text", "9 yaml", edit("    start: deck\n", "    start: deck\n    per_player: off\n"),
         SchemaError, "per_player: |off"),
    Case("tag", "9 yaml", edit(UNTIL, "      until: !!python/object:os.system x"), YamlError,
         "until: |!!python"),
    Case("two-documents", "9 yaml", edit("game:\n", "x: 1\n---\ngame:\n"), YamlError, "|---"),
    Case("zero-width-zone", "9 names",
         edit("  discard: {", "  de\u200bck: {visibility: hidden, source: Setup}\n  discard: {"),
         SchemaError, "|de\u200bck"),
    Case("bidi-variable", "9 names", edit("  round: {", "  ro\u202eund: {"), SchemaError,
         "|ro\u202eund"),
    Case("cyrillic-look-alike-zone", "9 names",
         edit("  discard: {", "  d\u0435ck: {visibility: hidden, source: Setup}\n  discard: {"),
         SchemaError, "|d\u0435ck"),
    Case("min-above-max", "9 checks",
         edit("variables:\n" + ROUND, "tracks:\n  round: {initial: 1, min: 10, max: 0, "
              "at_ends: clamp, source: Play}\nvariables:"), CheckError, "max: |0, at_ends"),
    Case("pick-min-above-max", "9 checks",
         edit("                count: 1\n", "                min: 10\n                max: 0\n"),
         CheckError, "max: |0\n"),
    Case("self-refill", "9 checks",
         edit("  deck: {visibility: hidden, source: Setup}",
              "  deck: {visibility: hidden, refill: deck, source: Setup}"),
         CheckError, "refill: |deck"),
    Case("refill-cycle", "9 checks",
         edit("  deck: {visibility: hidden, source: Setup}",
              "  deck: {visibility: hidden, refill: discard, source: Setup}",
              "  discard: {visibility: public, source: Turn}",
              "  discard: {visibility: public, refill: deck, source: Turn}"),
         CheckError, "refill: |discard"),
    Case("copied-game-keeps-its-variants", "9 variants", BASE, None,
         variant=VARIANT_HEAD + "  - set: game.name\n    to: Copy\n", folder="my-copy"),
    Case("variant-extends-an-unknown-game", "9 variants", BASE, SchemaError,
         at="extends: |nowhere",
         variant=VARIANT_HEAD.replace("extends: minimal", "extends: nowhere")
         + "  - set: game.name\n    to: X\n"),
    Case("variant-alias", "9 variants", BASE, YamlError, at="to: |&x",
         variant=VARIANT_HEAD + "  - set: game.name\n    to: &x Copy\n"
         + "  - set: game.source\n    to: *x\n"),
    Case("variant-leading-zero", "9 variants", BASE, YamlError, at="to: |07",
         variant=VARIANT_HEAD + "  - set: game.players.max\n    to: 07\n"),
    Case("variant-sets-a-reserved-property", "9 variants", BASE, SchemaError,
         at="{points: int, |owner: int}",
         variant=VARIANT_HEAD + "  - set: components.cards.properties\n"
         + "    to: {points: int, owner: int}\n"),
    Case("variant-deep-sum", "9 variants", BASE, ParseError, at="to: |round + ",
         variant=VARIANT_HEAD + f"  - set: play.do[0].until\n    to: {terms(300)} > 3\n"),
)  # fmt: skip


def count_by_kind() -> dict[str, int]:
    out: dict[str, int] = {}
    for c in CASES:
        out[c.kind] = out.get(c.kind, 0) + 1
    return out
