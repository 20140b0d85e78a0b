"""A corpus of broken rules files and the exact diagnostics they must produce.

Every case is a small textual edit of the minimal game (tests/fixtures/minimal/game.yaml), written
to a temporary file and loaded with ``load_rules``. Each case names the error class, the 1-based
line and column the error must point at, a fragment of the message and, where there is one, the
suggestion. The comment above each case shows the broken line with a caret under that column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from meeple import api
from meeple.cli import main
from meeple.dsl import validate
from meeple.dsl.errors import CheckError, MeepleError, ParseError, SchemaError, YamlError
from meeple.dsl.loader import load_rules

FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "game.yaml"
BASE = FIXTURE.read_text(encoding="utf-8")


def edit(*pairs: str) -> str:
    """The minimal game with each ``old`` text (which must occur exactly once) replaced."""
    assert len(pairs) % 2 == 0
    text = BASE
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        n = text.count(old)
        if n != 1:
            raise ValueError(f"{old!r} occurs {n} times in the minimal game, not once")
        text = text.replace(old, new)
    return text


@dataclass(frozen=True)
class Bad:
    text: str
    error: type[MeepleError]
    line: int
    col: int
    message: str  # a fragment of e.message
    suggestion: str | None = None  # the whole of e.suggestion
    expected: str | None = None  # a fragment of e.expected


def case(id: str, bad: Bad) -> object:
    return pytest.param(bad, id=id)


# The case table is laid out by hand (one case per paragraph, carets aligned under the text).
# fmt: off
CASES = [
    # ------------------------------------------------------------------ broken YAML
    case("yaml-tab-indent", Bad(
        # 7: <TAB>name: Minimal
        #    ^
        edit("  name: Minimal\n", "\tname: Minimal\n"),
        YamlError, 7, 1, "found character '\\t' that cannot start any token")),
    case("yaml-bad-indent", Bad(
        # 14:    properties: {points: int}      (3 spaces instead of 4)
        #        ^
        edit("    properties: {points: int}", "   properties: {points: int}"),
        YamlError, 14, 4, "indent")),
    case("yaml-unclosed-brace", Bad(
        # 8:   players: {min: 2, max: 4
        # 9:   source: Overview
        #            ^
        edit("  players: {min: 2, max: 4}", "  players: {min: 2, max: 4"),
        YamlError, 9, 9, "expected ',' or '}', but got ':'")),
    case("yaml-unclosed-bracket", Bad(
        # 35:       - {label: a pair, pattern: [2}
        #                                        ^
        edit("pattern: [2]}", "pattern: [2}"),
        YamlError, 35, 36, "expected ',' or ']', but got '}'")),
    case("yaml-unclosed-quote", Bad(
        # 59:       until: "round > 3
        #                  ^
        edit("      until: round > 3", '      until: "round > 3'),
        YamlError, 59, 14, "quote")),
    case("yaml-duplicate-key", Bad(
        # 24:   deck: {visibility: public, source: Turn}
        #       ^
        edit("  discard: {visibility: public, source: Turn}\n",
             "  discard: {visibility: public, source: Turn}\n"
             "  deck: {visibility: public, source: Turn}\n"),
        YamlError, 24, 3, "duplicate key 'deck'")),
    case("yaml-on-key-is-text-in-yaml-1.2", Bad(
        # 22:   deck: {visibility: hidden, on: empty, source: Setup}
        #                                  ^
        edit("  deck: {visibility: hidden, source: Setup}",
             "  deck: {visibility: hidden, on: empty, source: Setup}"),
        SchemaError, 22, 30, "unknown key 'on' in 'zones.deck'")),
    case("yaml-number-key-is-not-a-name", Bad(
        # 22:   deck: {visibility: hidden, 12: empty, source: Setup}
        #                                  ^
        edit("  deck: {visibility: hidden, source: Setup}",
             "  deck: {visibility: hidden, 12: empty, source: Setup}"),
        YamlError, 22, 30, "key '12' is not read as a name (YAML reads it as 12)",
        suggestion="quote it: '\"12\"', or choose another name")),
    case("yaml-tag-instead-of-not", Bad(
        # 59:       until: !done
        #                  ^
        edit("      until: round > 3", "      until: !done"),
        YamlError, 59, 14, "tag")),
    # ------------------------------------------------------------------ schema violations
    case("schema-missing-required-key", Bad(
        # 23:   discard: {source: Turn}
        #       ^
        edit("  discard: {visibility: public, source: Turn}", "  discard: {source: Turn}"),
        SchemaError, 23, 3, "'zones.discard' is missing the required key 'visibility'")),
    case("schema-unknown-key", Bad(
        # 40:     parms: [p]
        #         ^
        edit("    params: [p]\n    value:", "    parms: [p]\n    value:"),
        SchemaError, 40, 5, "unknown key 'parms' in 'functions.hand_points'",
        suggestion="did you mean 'params'?", expected="one of params, value, source")),
    case("schema-unknown-top-level-key", Bad(
        # 61: procedure:
        #     ^
        edit("procedures:\n", "procedure:\n"),
        SchemaError, 61, 1, "unknown key 'procedure' in the game file",
        suggestion="did you mean 'procedures'?")),
    case("schema-wrong-type", Bad(
        # 8:   players: {min: 2, max: four}
        #                             ^
        edit("{min: 2, max: 4}", "{min: 2, max: four}"),
        SchemaError, 8, 26, "'game.players.max' has the wrong type", expected="not a string")),
    case("schema-wrong-type-list", Bad(
        # 64:     params: p
        #                 ^
        edit("    params: [p]\n    do:", "    params: p\n    do:"),
        SchemaError, 64, 13, "'procedures.turn.params' has the wrong type",
        expected="a list, not a string")),
    case("schema-bad-enum", Bad(
        # 24:   hand: {per: players, visibility: secret, source: Setup}
        #                                        ^
        edit("visibility: owner", "visibility: secret"),
        SchemaError, 24, 36, "'zones.hand.visibility' cannot be 'secret'",
        expected="one of public, owner, hidden, top")),
    case("schema-bad-enum-did-you-mean", Bad(
        # 27:   round: {type: integer, initial: 1, source: Play}
        #                     ^
        edit("{type: int, initial: 1", "{type: integer, initial: 1"),
        SchemaError, 27, 17, "'variables.round.type' cannot be 'integer'",
        suggestion="did you mean 'int'?")),
    case("stmt-mapping-misspelled-head", Bad(
        # 66:       - chose: Draw or discard?
        #             ^
        edit("      - choose: Draw", "      - chose: Draw"),
        SchemaError, 66, 9, "unknown key 'chose'", suggestion="did you mean 'choose'?")),
    case("stmt-mapping-without-head", Bad(
        # 66:       - by: p          (the 'choose:' line is gone)
        #             ^
        edit("      - choose: Draw or discard?\n        by: p\n", "      - by: p\n"),
        CheckError, 66, 9, "a statement mapping needs one of if, for, simultaneous, repeat")),
    case("stmt-unknown-key", Bad(
        # 79:                 cout: 1
        #                     ^
        edit("                count: 1\n", "                cout: 1\n"),
        SchemaError, 79, 17, "unknown key 'cout'", suggestion="did you mean 'count'?")),
    case("stmt-missing-key", Bad(
        # 66:       - choose: Draw or discard?      (no 'by:')
        #             ^
        edit("        by: p\n        options:", "        options:"),
        SchemaError, 66, 9, "missing the required key 'by'")),
    # ------------------------------------------------------------------ grammar errors
    case("expr-unexpected-token", Bad(
        # 59:       until: round > > 3
        #                          ^
        edit("      until: round > 3", "      until: round > > 3"),
        ParseError, 59, 22, "unexpected '>' in an expression", expected="a name, a number")),
    case("expr-ends-too-early", Bad(
        # 59:       until: round >
        #                        ^
        edit("      until: round > 3", "      until: round >"),
        ParseError, 59, 20, "an expression ends too early")),
    case("expr-unclosed-paren", Bad(
        # 41:     value: sum(c.points for c in hand[p]
        #                                            ^
        edit("in hand[p])\n", "in hand[p]\n"),
        ParseError, 41, 40, "an expression ends too early", expected="')'")),
    case("expr-double-ampersand", Bad(
        # 73:             when: count(hand[p]) > 0 && round < 3
        #                                          ^
        edit("            when: count(hand[p]) > 0",
             "            when: count(hand[p]) > 0 && round < 3"),
        ParseError, 73, 38, "unexpected character '&' in an expression",
        suggestion="use 'and'")),
    case("expr-folded-block-second-line", Bad(
        # 41:     value: >-
        # 42:       sum(c.points for c in hand[p])
        # 43:       + count(c for c in hand[p] if c.points = 3)
        #                                                  ^
        edit("    value: sum(c.points for c in hand[p])",
             "    value: >-\n      sum(c.points for c in hand[p])\n"
             "      + count(c for c in hand[p] if c.points = 3)"),
        ParseError, 43, 46, "unexpected '=' in an expression", suggestion="use '==' to compare")),
    case("expr-folded-block-extra-paren", Bad(
        # 43:       + count(c for c in hand[p] if c.points == 3))
        #                                                       ^
        edit("    value: sum(c.points for c in hand[p])",
             "    value: >-\n      sum(c.points for c in hand[p])\n"
             "      + count(c for c in hand[p] if c.points == 3))"),
        ParseError, 43, 51, "unexpected ')' in an expression", expected="end of text")),
    case("expr-folded-block-line-start", Bad(
        # 42:       sum(c.points for c in hand[p]) +
        # 43:       + count(c for c in hand[p])
        #           ^
        edit("    value: sum(c.points for c in hand[p])",
             "    value: >-\n      sum(c.points for c in hand[p]) +\n"
             "      + count(c for c in hand[p])"),
        ParseError, 43, 7, "unexpected '+' in an expression")),
    case("expr-literal-block", Bad(
        # 43:         + count(c for c in hand[p] if c.points == 3) 3
        #                                                          ^
        edit("    value: sum(c.points for c in hand[p])",
             "    value: |\n      sum(c.points for c in hand[p])\n"
             "        + count(c for c in hand[p] if c.points == 3) 3"),
        ParseError, 43, 54, "unexpected '3' in an expression")),
    case("expr-double-quoted", Bad(
        # 59:       until: "round >> 3"
        #                          ^
        edit("      until: round > 3", '      until: "round >> 3"'),
        ParseError, 59, 22, "unexpected '>' in an expression")),
    case("expr-single-quoted", Bad(
        # 59:       until: 'round > 3 &&'
        #                             ^
        edit("      until: round > 3", "      until: 'round > 3 &&'"),
        ParseError, 59, 25, "unexpected character '&'", suggestion="use 'and'")),
    case("expr-double-quoted-after-escape", Bad(
        # 59:       until: "round\t> 3 ! 2"
        #                              ^
        edit("      until: round > 3", r'      until: "round\t> 3 ! 2"'),
        ParseError, 59, 26, "unexpected character '!'", suggestion="use 'not' or '!='")),
    case("stmt-double-quoted", Bad(
        # 58:         - "round += 1 && 2"
        #                           ^
        edit("        - round += 1", '        - "round += 1 && 2"'),
        ParseError, 58, 23, "unexpected character '&' in a statement", suggestion="use 'and'")),
    case("stmt-escaped-quotes", Bad(
        # 58:         - "log \"round {round} ends\" x"
        #                                           ^
        edit("        - round += 1", r'        - "log \"round {round} ends\" x"'),
        ParseError, 58, 39, "unexpected 'x' in a statement")),
    case("stmt-ends-too-early", Bad(
        # 71:               - move 1 from deck to
        #                                       ^
        edit("              - move 1 from deck to hand[p]", "              - move 1 from deck to"),
        ParseError, 71, 35, "a statement ends too early", expected="'bottom'")),
    case("stmt-misspelled-keyword", Bad(
        # 71:               - move 1 form deck to hand[p]
        #                            ^
        edit("              - move 1 from deck to hand[p]",
             "              - move 1 form deck to hand[p]"),
        ParseError, 71, 24, "unexpected 'form' in a statement", expected="'from', 'to'")),
    case("template-in-label", Bad(
        # 69:           - label: draw a card ({count(deck) +} left)
        #                                                  ^
        edit("          - label: draw a card",
             "          - label: draw a card ({count(deck) +} left)"),
        ParseError, 69, 46, "an expression ends too early")),
    case("template-in-log-statement", Bad(
        # 58:         - log "round {round +} ends"
        #                                 ^
        edit("        - round += 1", '        - log "round {round +} ends"'),
        ParseError, 58, 29, "an expression ends too early")),
    case("procedure-call-named-argument", Bad(
        # 57:             - turn(who=p)
        #                   ^
        edit("            - turn(p)", "            - turn(who=p)"),
        ParseError, 57, 15, "procedure calls take no named arguments")),
    # ------------------------------------------------------------------ unknown names
    case("unknown-zone", Bad(
        # 71:               - move 1 from dek to hand[p]
        #                                 ^
        edit("move 1 from deck to hand[p]", "move 1 from dek to hand[p]"),
        CheckError, 71, 29, "unknown name 'dek'", suggestion="did you mean 'deck'?")),
    case("unknown-start-zone", Bad(
        # 15:     start: dek
        #                ^
        edit("    start: deck", "    start: dek"),
        CheckError, 15, 12, "unknown zone 'dek'", suggestion="did you mean 'deck'?")),
    case("unknown-refill-zone", Bad(
        # 22:   deck: {visibility: hidden, refill: discrd, source: Setup}
        #                                          ^
        edit("  deck: {visibility: hidden, source: Setup}",
             "  deck: {visibility: hidden, refill: discrd, source: Setup}"),
        CheckError, 22, 38, "unknown zone 'discrd'", suggestion="did you mean 'discard'?")),
    case("unknown-variable", Bad(
        # 58:         - rounds += 1
        #               ^
        edit("        - round += 1", "        - rounds += 1"),
        CheckError, 58, 11, "unknown variable 'rounds'", suggestion="did you mean 'round'?")),
    case("unknown-name-in-expression", Bad(
        # 59:       until: rund > 3
        #                  ^
        edit("      until: round > 3", "      until: rund > 3"),
        CheckError, 59, 14, "unknown name 'rund'", suggestion="did you mean 'round'?")),
    case("unknown-function", Bad(
        # 86:         - score[p] = hand_point(p) + 2 * pattern_rank(hand[p], sets)
        #                          ^
        edit("= hand_points(p) +", "= hand_point(p) +"),
        CheckError, 86, 22, "unknown function 'hand_point'",
        suggestion="did you mean 'hand_points'?")),
    case("unknown-procedure", Bad(
        # 57:             - trun(p)
        #                   ^
        edit("            - turn(p)", "            - trun(p)"),
        CheckError, 57, 15, "unknown procedure 'trun'", suggestion="did you mean 'turn'?")),
    case("unknown-property", Bad(
        # 41:     value: sum(c.point for c in hand[p])
        #                    ^
        edit("sum(c.points for", "sum(c.point for"),
        CheckError, 41, 16, "no component has a property 'point'",
        suggestion="did you mean 'points'?")),
    case("unknown-table", Bad(
        # 86:         - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], set)
        #                                                                     ^
        edit("pattern_rank(hand[p], sets)", "pattern_rank(hand[p], set)"),
        CheckError, 86, 65, "unknown name 'set'", suggestion="did you mean 'sets'?")),
    case("not-a-table", Bad(
        # 86:         - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], deck)
        #                                                                     ^
        edit("pattern_rank(hand[p], sets)", "pattern_rank(hand[p], deck)"),
        CheckError, 86, 65, "expected a table")),
    case("item-undeclared-property", Bad(
        # 18:       - {name: Gem, count: 6, point: 2}
        #                                   ^
        edit("{name: Gem, count: 6, points: 2}", "{name: Gem, count: 6, point: 2}"),
        CheckError, 18, 31, "item 'Gem' has property 'point', which kind 'cards' does not declare",
        suggestion="did you mean 'points'?")),
    case("property-unknown-type", Bad(
        # 14:     properties: {points: integer}
        #                              ^
        edit("properties: {points: int}", "properties: {points: integer}"),
        CheckError, 14, 26, "property 'points' of 'cards' has unknown type 'integer'",
        suggestion="did you mean 'int'?")),
    case("list-property-not-a-list", Bad(
        # 17:       - {name: Coin, count: 10, points: 1}
        #             ^
        edit("properties: {points: int}", "properties: {points: list:int}"),
        CheckError, 17, 9, "item 'Coin': property 'points' is list:int, but the value is 1",
        expected="a YAML list")),
    case("list-property-bad-item", Bad(
        # 17:       - {name: Coin, count: 10, points: [1, two]}
        #                                               ^
        edit("properties: {points: int}", "properties: {points: list:int}",
             "points: 1}", "points: [1, two]}"),
        CheckError, 17, 45, "item 'Coin': property 'points' is int, but the value is 'two'")),
    # ------------------------------------------------------------------ wrong types
    case("count-of-a-number", Bad(
        # 73:             when: count(round) > 0
        #                             ^
        edit("when: count(hand[p]) > 0", "when: count(round) > 0"),
        CheckError, 73, 25, "this is not a zone or a list", expected="not a number")),
    case("if-on-a-number", Bad(
        # 58:         - if: round + 1
        #                   ^
        edit("        - round += 1",
             "        - if: round + 1\n          then:\n            - round += 1"),
        CheckError, 58, 15, "has the wrong type",
        expected="a condition (true/false), not a number")),
    case("while-on-a-number", Bad(
        # 58:         - while: count(deck)
        #                      ^
        edit("        - round += 1",
             "        - while: count(deck)\n          do:\n            - round += 1"),
        CheckError, 58, 18, "has the wrong type",
        expected="a condition (true/false), not a number")),
    case("move-to-a-number", Bad(
        # 71:               - move 1 from deck to round
        #                                         ^
        edit("move 1 from deck to hand[p]", "move 1 from deck to round"),
        CheckError, 71, 37, "this is not a zone", expected="a zone, not a number")),
    case("move-to-a-player", Bad(
        # 71:               - move 1 from deck to p
        #                                         ^
        edit("move 1 from deck to hand[p]", "move 1 from deck to p"),
        CheckError, 71, 37, "this is not a zone", expected="a zone, not a player")),
    case("plus-equals-on-a-player-variable", Bad(
        # 60:         - leader += 1
        #               ^
        edit("  round: {type: int, initial: 1, source: Play}\n",
             "  round: {type: int, initial: 1, source: Play}\n"
             "  leader: {type: player, initial: 0, source: Play}\n",
             "        - round += 1", "        - round += 1\n        - leader += 1"),
        CheckError, 60, 11, "'+=' needs a number variable; 'leader' is player")),
    case("per-player-variable-without-index", Bad(
        # 59:         - score += 1
        #               ^
        edit("        - round += 1", "        - round += 1\n        - score += 1"),
        CheckError, 59, 11, "variable 'score' is one per player", expected="'score[p]'")),
    case("variable-per-unknown-kind", Bad(
        # 29:   worn: {type: int, per: card, source: Play}
        #                              ^
        edit("  score: {type: int, per: players, source: Scoring}\n",
             "  score: {type: int, per: players, source: Scoring}\n"
             "  worn: {type: int, per: card, source: Play}\n"),
        CheckError, 29, 26, "variable 'worn' is per 'card', which is neither 'players' nor a kind",
        suggestion="did you mean 'cards'?")),
    case("owner-only-variable-not-per-player", Bad(
        # 27:   round: {type: int, initial: 1, visibility: owner, source: Play}
        #                                                  ^
        edit("  round: {type: int, initial: 1, source: Play}\n",
             "  round: {type: int, initial: 1, visibility: owner, source: Play}\n"),
        CheckError, 27, 46, "variable 'round' is visible to its owner only",
        expected="'per: players'")),
    case("per-kind-variable-indexed-by-a-number", Bad(
        # 59:         - worn[round] += 1
        #                    ^
        edit("  score: {type: int, per: players, source: Scoring}\n",
             "  score: {type: int, per: players, source: Scoring}\n"
             "  worn: {type: int, per: cards, source: Play}\n",
             "        - round += 1", "        - worn[round] += 1"),
        CheckError, 59, 16, "this has the wrong type", expected="a card, not a number")),
    case("single-variable-with-index", Bad(
        # 58:         - round[p] += 1
        #               ^
        edit("        - round += 1", "        - round[p] += 1"),
        CheckError, 58, 11, "variable 'round' is a single value",
        expected="'round' without an index")),
    case("per-player-zone-without-index", Bad(
        # 77:                 from: hand
        #                           ^
        edit("                from: hand[p]", "                from: hand"),
        CheckError, 77, 23, "zone 'hand' is one per player; say which", expected="'hand[...]'")),
    case("single-zone-with-index", Bad(
        # 71:               - move 1 from deck[p] to hand[p]
        #                                 ^
        edit("move 1 from deck to hand[p]", "move 1 from deck[p] to hand[p]"),
        CheckError, 71, 29, "zone 'deck' is a single zone; it takes no index")),
    # ------------------------------------------------------------------ arity
    case("procedure-too-many-arguments", Bad(
        # 57:             - turn(p, 1)
        #                   ^
        edit("            - turn(p)", "            - turn(p, 1)"),
        CheckError, 57, 15, "procedure 'turn' takes 1 argument(s), got 2", expected="(p)")),
    case("function-too-few-arguments", Bad(
        # 86:         - score[p] = hand_points() + 2 * pattern_rank(hand[p], sets)
        #                          ^
        edit("= hand_points(p) +", "= hand_points() +"),
        CheckError, 86, 22, "function 'hand_points' takes 1 argument(s)", expected="(p)")),
    case("builtin-too-many-arguments", Bad(
        # 73:             when: count(hand[p], deck) > 0
        #                       ^
        edit("when: count(hand[p]) > 0", "when: count(hand[p], deck) > 0"),
        CheckError, 73, 19, "'count' takes 1 argument(s), got 2")),
    case("builtin-too-few-arguments", Bad(
        # 86:         - score[p] = hand_points(p) + 2 * pattern_rank(hand[p])
        #                                               ^
        edit("pattern_rank(hand[p], sets)", "pattern_rank(hand[p])"),
        CheckError, 86, 43, "'pattern_rank' takes 2 argument(s), got 1")),
    # ------------------------------------------------------------------ rule blocks without source
    case("no-source-game", Bad(
        # 5: game:
        #    ^
        edit("  source: Overview\n", ""),
        SchemaError, 5, 1, "'game' is missing the required key 'source'")),
    case("no-source-component-kind", Bad(
        # 12:   cards:
        #       ^
        edit("    source: Components\n", ""),
        CheckError, 12, 3, "component kind 'cards' does not cite its rulebook section",
        expected="a 'source:' key")),
    case("no-source-procedure", Bad(
        # 62:   turn:
        #       ^
        edit("    source: Turn\n", ""),
        CheckError, 62, 3, "procedure 'turn' does not cite its rulebook section")),
    case("no-source-setup", Bad(
        # 43: setup:
        #     ^
        edit("setup:\n  source: Setup\n", "setup:\n"),
        CheckError, 43, 1, "'setup' does not cite its rulebook section")),
    case("no-source-play", Bad(
        # 51: play:
        #     ^
        edit("play:\n  source: Play\n", "play:\n"),
        CheckError, 51, 1, "'play' does not cite its rulebook section")),
    case("no-source-scoring", Bad(
        # 81: scoring:
        #     ^
        edit("scoring:\n  source: Scoring\n", "scoring:\n"),
        CheckError, 81, 1, "'scoring' does not cite its rulebook section")),
    case("no-source-table", Bad(
        # 31:   sets:
        #       ^
        edit("  sets:\n    source: Scoring\n", "  sets:\n"),
        CheckError, 31, 3, "table 'sets' does not cite its rulebook section")),
    case("no-source-function", Bad(
        # 38:   hand_points:
        #       ^
        edit("  hand_points:\n    source: Scoring\n", "  hand_points:\n"),
        CheckError, 38, 3, "function 'hand_points' does not cite its rulebook section")),
    # ------------------------------------------------------------------ other declaration rules
    case("component-kind-without-start-zone", Bad(
        # 12:   cards:
        #       ^
        edit("    start: deck\n", ""),
        CheckError, 12, 3, "component kind 'cards' has no start zone",
        expected="a 'start:' key")),
]
# fmt: on


def test_minimal_game_is_valid_and_completes() -> None:
    checked = load_rules(FIXTURE.parent)
    assert checked.game.name == "Minimal"
    for players in (2, 4):
        result = api.play(api.load(str(FIXTURE.parent), players), seed=1)
        assert result.state.is_terminal()
        assert len(result.winners) >= 1


@pytest.mark.parametrize("bad", CASES)
def test_bad_rules(bad: Bad, tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(bad.text, encoding="utf-8")
    with pytest.raises(MeepleError) as info:
        load_rules(path)
    e = info.value
    shown = e.render()
    assert type(e) is bad.error, shown
    assert e.span is not None, shown
    assert (e.span.file, e.span.line, e.span.col) == (str(path), bad.line, bad.col), shown
    assert bad.message in e.message, shown
    if bad.suggestion is not None:
        assert e.suggestion == bad.suggestion, shown
    if bad.expected is not None:
        assert bad.expected in (e.expected or ""), shown


def test_zone_parameter_is_accepted_and_plays(tmp_path: Path) -> None:
    text = edit(
        "            - turn(p)",
        "            - turn(p)\n            - refill(discard)",
        "procedures:\n",
        "procedures:\n  refill:\n    source: Turn\n    params: [z]\n    do:\n"
        "      - move 1 from deck to z\n",
    )
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    load_rules(path)
    result = api.play(api.load(str(path), players=2), seed=1, check=True)
    assert result.winners


@pytest.mark.parametrize(
    "old, new, where",
    [
        pytest.param(
            "      until: round > 3",
            "      until: round > > 3",
            "59:22: error: ",
            id="syntax-error",
        ),
        pytest.param(
            "        - round += 1",
            '        - log "round {round +} ends"',
            "58:29: error: ",
            id="error-in-log-template",
        ),
    ],
)
def test_cli_check_reports_position_and_caret(
    old: str, new: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(edit(old, new), encoding="utf-8")
    status = main(["check", str(path)])
    err = capsys.readouterr().err
    assert status == 2, err
    assert f"{path}:{where}" in err, err
    lines = err.splitlines()
    first = next(i for i, line in enumerate(lines) if f"{path}:{where}" in line)
    col = int(where.split(":")[1])
    assert lines[first + 1].strip() == new.strip(), err
    assert re.fullmatch(r" {4}" + " " * (col - 1) + r"\^+", lines[first + 2]), err
    assert "Traceback" not in err


# ---------------------------------------------------------------------- declaration and type checks
def _position(text: str, at: str) -> tuple[int, int]:
    """Line and column of the only occurrence of ``at`` in ``text``; '|' marks the column."""
    skip = at.index("|") if "|" in at else 0
    at = at.replace("|", "")
    assert text.count(at) == 1, f"{at!r} is not unique"
    i = text.index(at) + skip
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


# (old text, new text, where the error must point ('|' marks the column), message fragment)
DECLARATIONS = {
    "item-value-of-the-wrong-type": (
        "{name: Gem, count: 6, points: 2}",
        "{name: Gem, count: 6, points: two}",
        "|two}",
        "property 'points' is int, but the value is 'two'",
    ),
    "duplicate-item-key": (
        "{name: Gem, count: 6, points: 2}",
        "{key: cards_0, name: Gem, count: 6, points: 2}",
        "{key: cards_0",
        "two items of 'cards' have the key 'cards_0'",
    ),
    "start-zone-per-player-for-a-shared-kind": (
        "    start: deck",
        "    start: hand",
        "start: |hand",
        "is not per player, so its start zone must be a single zone",
    ),
    "initial-value-of-the-wrong-type": (
        "round: {type: int, initial: 1,",
        "round: {type: int, initial: \"'one'\",",
        "\"|'one'\"",
        "the initial value of 'round' has the wrong type",
    ),
    "function-hides-a-builtin": (
        "  hand_points:\n",
        "  count:\n",
        "count:\n",
        "function 'count' would hide a built-in",
    ),
    "kind-and-zone-share-a-name": (
        "  discard: {visibility: public, source: Turn}\n",
        "  discard: {visibility: public, source: Turn}\n"
        "  cards: {visibility: public, source: Turn}\n",
        "  |cards: {visibility",
        "zone 'cards' has the name of the component kind 'cards'",
    ),
    "variable-and-zone-share-a-name": (
        "  round: {type: int, initial: 1, source: Play}",
        "  round: {type: int, initial: 1, source: Play}\n  deck: {type: int, source: Play}",
        "  |deck: {type: int",
        "variable 'deck' has the name of the zone 'deck'",
    ),
    "zone-hides-a-built-in-name": (
        "  discard: {visibility: public, source: Turn}\n",
        "  discard: {visibility: public, source: Turn}\n"
        "  players: {visibility: public, source: Turn}\n",
        "  |players: {visibility",
        "zone 'players' has the name of the built-in name 'players'",
    ),
    "min-of-one-number": (
        "      until: round > 3",
        "      until: min(round) > 3",
        "min(|round)",
        "this is not a zone or a list",
    ),
    "top-of-players-is-a-player": (
        "      until: round > 3",
        "      until: top(players).name == 'x'",
        "top(players).name",
        "'.name' needs a card",
    ),
}


@pytest.mark.parametrize(
    ("old", "new", "at", "message"), DECLARATIONS.values(), ids=DECLARATIONS.keys()
)
def test_declaration_and_type_checks(
    tmp_path: Path, old: str, new: str, at: str, message: str
) -> None:
    text = edit(old, new)
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MeepleError) as e:
        load_rules(path)
    assert e.value.span is not None
    assert message in e.value.message, str(e.value)
    assert (e.value.span.line, e.value.span.col) == _position(text, at), str(e.value)


def test_options_over_text_are_refused(tmp_path: Path) -> None:
    text = edit(
        "          - label: draw a card\n",
        "          - label: say {w}\n            for: w in ['a', 'b']\n"
        "          - label: draw a card\n",
    )
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CheckError) as e:
        load_rules(path)
    assert "options can range over cards, players or numbers only" in e.value.message
    assert e.value.span is not None
    assert (e.value.span.line, e.value.span.col) == _position(text, "['a', 'b']")


def test_a_range_on_the_right_of_in_needs_no_parentheses(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(edit("      until: round > 3", "      until: round in 4..9"), encoding="utf-8")
    load_rules(path)


def test_of_equally_relevant_schema_errors_the_first_in_the_file_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two zones each missing 'visibility': the error names the first, whatever order
    jsonschema finds them in (its order follows the hash seed; here it is reversed)."""
    path = tmp_path / "game.yaml"
    path.write_text(
        edit(
            "  discard: {visibility: public, source: Turn}",
            "  discard: {source: Turn}\n  spare: {source: Turn}",
        ),
        encoding="utf-8",
    )
    real = validate._validator()

    class Reversed:
        def iter_errors(self, doc: object) -> list[object]:
            return list(reversed(list(real.iter_errors(doc))))

    for validator in (real, Reversed()):
        monkeypatch.setattr(validate, "_validator", lambda v=validator: v)
        with pytest.raises(SchemaError) as err:
            load_rules(path)
        assert (err.value.span.line, err.value.span.col) == (23, 3), err.value
        assert "'zones.discard'" in err.value.message
