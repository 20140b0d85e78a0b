"""Rendered rulebooks: docs/rulebooks/ matches rules/, and the writers cover every node kind
(with a source-text fallback for kinds added later)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from sampling import first_of_each_game

from meeple import api
from meeple.authoring import RULEBOOKS, SHIPPED_MERMAID_SRC, render_rulebook
from meeple.dsl import ir
from meeple.dsl.errors import SourceSpan
from meeple.dsl.parser import parse_expression
from meeple.dsl.render import ExprWriter, RuleWriter, walk
from meeple.dsl.variant import variant_files
from meeple.registry import game_ids, rules_root
from meeple.rulebook import ProseWriter, flow_diagram, interpretation_log

REGENERATE = "regenerate with: meeple doc --all"


@pytest.mark.parametrize("game", game_ids())
def test_rendered_rulebook_matches_the_rules(game: str) -> None:
    md, html = render_rulebook(game, mermaid_src=SHIPPED_MERMAID_SRC)
    for suffix, text in ((".md", md), (".html", html)):
        f = RULEBOOKS / f"{game}{suffix}"
        assert f.is_file(), f"docs/rulebooks/{game}{suffix} is missing; {REGENERATE}"
        assert f.read_text(encoding="utf-8") == text, f"{f} drifted from rules/; {REGENERATE}"


@pytest.mark.parametrize("game", game_ids())
def test_rulebook_has_every_part(game: str) -> None:
    g = api.load_checked(game).game
    md, html = render_rulebook(game)
    for k in g.kinds.values():
        assert f"### {k.name}" in md
        for it in k.items:
            assert f"| {it.count} | {it.name} |" in md
    for p in g.procedures.values():
        assert f'<a id="procedure-{p.name.replace("_", "-")}"></a>' in md
    for t in g.triggers.values():  # a trigger is a rule too: its heading, when it fires, its body
        assert f"### {t.name}\n" in md, f"trigger {t.name} is not in the rulebook"
        section = md.split(f"### {t.name}\n", 1)[1].split("\n### ", 1)[0]
        assert f"into `{t.zone}`" in section and f"{t.span.line}`." in section
        assert "- " in section, f"trigger {t.name} is rendered without its body"
    assert "```mermaid\nflowchart TD" in md and '<pre class="mermaid">' in html
    log = interpretation_log(rules_root().parent / "docs" / "games" / f"{game}.md")
    for key, entry in log.items():
        assert f"### {key}" in md and entry.text.splitlines()[0] in md
    assert "Not documented" not in md
    assert "<table>" in html


# The node kinds of the language when the writers were written: each has its own method. Kinds
# added later render through the source-text fallback until they get one.
STATEMENTS = ["Let", "Assign", "Move", "Shuffle", "EndGame", "Log", "CallProc", "Block", "If"]
STATEMENTS += ["For", "Repeat", "While", "Choose", "Pick", "Winner"]
EXPRESSIONS = ["Const", "Name", "Attr", "Index", "Call", "Comprehension", "ListLit", "BinOp"]
EXPRESSIONS += ["Unary", "Cond"]


def test_writers_have_a_method_for_every_known_node_kind() -> None:
    for kind in STATEMENTS:
        assert issubclass(getattr(ir, kind), ir.Stmt)
        assert hasattr(RuleWriter, f"stmt_{kind}") and hasattr(ProseWriter, f"stmt_{kind}")
    for kind in EXPRESSIONS:
        assert issubclass(getattr(ir, kind), ir.Expr) and hasattr(ExprWriter, f"expr_{kind}")


@pytest.mark.parametrize("game", ["shadow-of-the-sun", "harbour-guilds"])
def test_no_rule_of_these_games_falls_back_to_source_text(game: str) -> None:
    md, _ = render_rulebook(game)
    assert "statement, as written" not in md


@pytest.mark.parametrize(
    ("game", "variant"),
    # the quick loop renders each game's first variant, the deep run the others
    first_of_each_game([(g, f.stem) for g in game_ids() for f in variant_files(rules_root() / g)]),
)
def test_variant_rulebook_shows_the_rationale(game: str, variant: str) -> None:
    md, _ = render_rulebook(game, variant)
    _, v = api.load_variant_checked(game, variant)
    assert "## This variant" in md and v.rationale in md


def _shape(e: Any) -> Any:
    """An expression tree without positions."""
    if dataclasses.is_dataclass(e) and not isinstance(e, type):
        return (type(e).__name__,) + tuple(
            _shape(getattr(e, f.name)) for f in dataclasses.fields(e) if f.name != "span"
        )
    if isinstance(e, tuple):
        return tuple(_shape(x) for x in e)
    return e


def _expressions(game: ir.Game) -> list[ir.Expr]:
    roots: list[Any] = [game.setup, game.play, game.scoring]
    roots += [p.body for p in game.procedures.values()]
    # a majority's function is the front end's lowering (dsl/majorities.py), printed as a
    # sentence of its own expressions
    roots += [f.body for f in game.functions.values() if f.name not in game.majorities]
    for m in game.majorities.values():
        roots += [m.count, m.among, m.at_least, *m.tie_breakers]
    out = []
    for r in roots:
        out += [n for n in walk(r) if isinstance(n, ir.Expr)]
    return out


@pytest.mark.parametrize("game", game_ids())
def test_printed_expressions_parse_back_to_the_same_tree(game: str) -> None:
    w = ExprWriter()
    exprs = _expressions(api.load_checked(game).game)
    assert len(exprs) > 50
    for e in exprs:
        text = w.expr(e)
        assert _shape(parse_expression(text)) == _shape(e), text


def test_precedence_parentheses() -> None:
    w = ExprWriter()
    for text in (
        "(a + b) * c",
        "a - (b - c)",
        "a - b - c",
        "not (a and b)",
        "-(a + 1)",
        "a or (b and c)",
        "(x if a else y).name",
        "count(c for c in h if c.wild)",
    ):
        assert w.expr(parse_expression(text)) == text


@dataclasses.dataclass(frozen=True, slots=True)
class Teleport(ir.Stmt):
    """A statement kind the writers do not know (as after a merge adds one)."""

    who: ir.Expr


@dataclasses.dataclass(frozen=True, slots=True)
class Distance(ir.Expr):
    a: ir.Expr


def test_unknown_node_kinds_render_as_their_source_text(tmp_path: Path) -> None:
    f = tmp_path / "g.yaml"
    f.write_text("do:\n  - teleport p to the moon\n  - x\n")
    stmt = Teleport(SourceSpan(str(f), 2, 5, 2, 27), ir.Name(SourceSpan(str(f), 2, 14), "p"))
    lines = RuleWriter().stmt(stmt, 1)
    assert lines == ["  # a Teleport statement, as written:", "  teleport p to the moon"]
    prose = "\n".join(ProseWriter(tmp_path).stmt(stmt, 0))
    assert "a *Teleport* statement, as written (g.yaml:2)" in prose
    assert "teleport p to the moon" in prose
    e = Distance(SourceSpan(str(f), 2, 14, 2, 15), ir.Name(SourceSpan(str(f), 2, 14), "p"))
    assert ExprWriter().expr(ir.BinOp(SourceSpan(str(f), 1, 1), "+", e, e)) == "p + p"
    block = ir.Block(SourceSpan(str(f), 1, 1), (stmt,), "Test")
    assert "teleport" in "\n".join(RuleWriter().block(block))


def test_flow_diagram_labels_calls_with_their_loop() -> None:
    lines = flow_diagram(api.load_checked("shadow-of-the-sun").game)
    text = "\n".join(lines)
    # the days are rounds of phases (play: declares them): the turns, the struggle, the end
    assert re.search(r'play -->\|"for each p in clockwise_from\(supreme\)"\| p_turn', text)
    assert "play --> p_struggle[struggle]" in text
    assert 'play -->|"if not game_over()"| p_end_of_day[end_of_day]' in text
    assert 'p_end_of_day[end_of_day] -.->|"again until game_over()"| play' in text


# ---------------------------------------------------------------------------- published schemas
@pytest.mark.parametrize("variant", [False, True])
def test_published_schema_matches_dsl_schema_and_docs(variant: bool) -> None:
    from meeple.authoring import SCHEMAS
    from meeple.dsl.validate import game_schema
    from meeple.dsl.variant import variant_schema
    from meeple.schema_docs import published_schema, schema_text

    name = "variant.schema.json" if variant else "game.schema.json"
    f = SCHEMAS / name
    assert f.is_file() and f.read_text(encoding="utf-8") == schema_text(variant), (
        f"docs/schema/{name} drifted; {REGENERATE}"
    )

    def strip(node: Any) -> Any:  # the schema without descriptions validates the same
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k != "description"}
        return [strip(x) for x in node] if isinstance(node, list) else node

    original = variant_schema() if variant else game_schema()
    assert strip(published_schema(variant)) == strip(original)


def test_every_schema_description_names_an_existing_key() -> None:
    from meeple.schema_docs import DESCRIPTIONS, published_schema

    text = json.dumps(published_schema()) + json.dumps(published_schema(True))
    for (_, key), description in DESCRIPTIONS.items():
        assert f'"{key}"' in text and json.dumps(description)[1:-1] in text, key
    game = published_schema()
    for key, prop in game["$defs"]["compound"]["properties"].items():
        assert "description" in prop, key


@dataclasses.dataclass(frozen=True, slots=True)
class Switch(ir.Stmt):
    """A statement kind with blocks nested in pairs, as a later merge might add."""

    cases: tuple[tuple[ir.Expr, ir.Block], ...]


def test_walk_finds_calls_inside_unknown_statement_kinds(tmp_path: Path) -> None:
    span = SourceSpan(str(tmp_path / "g.yaml"), 1, 1)
    call = ir.CallProc(span, "turn", ())
    stmt = Switch(span, ((ir.Const(span, True), ir.Block(span, (call,))),))
    assert call in list(walk(stmt))
