"""The authoring commands of the CLI: ``diff``, ``doc``, ``explain``, ``schema`` and the
``--compare`` of ``simulate``. Kept apart from cli.py so each stays small."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from rich.console import Console

from meeple.dsl.errors import MeepleError
from meeple.dsl.render import relative_file

from . import api
from .registry import DEFAULT_GAME, GamePath, game_ids, rules_path, rules_root
from .rulebook import MERMAID_FILE, MERMAID_LICENSE

out = Console(highlight=False, soft_wrap=True, emoji=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)

DOCS = rules_root().parent / "docs"
RULEBOOKS = DOCS / "rulebooks"
SCHEMAS = DOCS / "schema"


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register the authoring subcommands on the CLI's subparsers."""
    diff = sub.add_parser("diff", help="what a variant changes, rule by rule")
    diff.add_argument("game", help="game id or rules path")
    diff.add_argument("variant", help="variant id (rules/<game>/variants/<id>.yaml) or file")
    diff.add_argument("--rationale", action="store_true", help="also print the variant's rationale")
    diff.set_defaults(run=cmd_diff)

    doc = sub.add_parser("doc", help="render a game as a readable rulebook (Markdown + HTML)")
    doc.add_argument("game", nargs="?", default=DEFAULT_GAME, help="game id or rules path")
    doc.add_argument("--variant", help="render the game with this variant")
    doc.add_argument(
        "--all",
        action="store_true",
        help="regenerate the shipped rulebooks: every shipped game into docs/rulebooks/, and "
        "the schemas into docs/schema/",
    )
    doc.add_argument(
        "-o",
        "--output",
        help="folder to write to (default: the current folder; with --all, docs/rulebooks/)",
    )
    doc.set_defaults(run=cmd_doc)

    schema = sub.add_parser("schema", help="print or write the JSON Schema of rule files")
    schema.add_argument("--variant", action="store_true", help="the schema of variant files")
    schema.add_argument("--scenario", action="store_true", help="the schema of scenario files")
    schema.add_argument("-o", "--output", help="write to this file instead of printing")
    schema.set_defaults(run=cmd_schema)

    from .explain import add_command  # noqa: PLC0415

    add_command(sub)


# ---------------------------------------------------------------------------- diff
def cmd_diff(args: argparse.Namespace) -> int:
    from .diff import rule_changes  # noqa: PLC0415

    base = api.load_checked(args.game).game
    checked, variant = api.load_variant_checked(args.game, args.variant)
    # a unified diff of rules: --- the game, +++ the variant, one @@ section per changed rule
    # each side by its id and its name, as the rules say them (never a blank name)
    out.print(f"--- {base.id}: {base.name}", style="bold", markup=False)
    out.print(f"+++ {variant.id}: {variant.name or variant.id}", style="bold", markup=False)
    if args.rationale:
        out.print(variant.rationale, markup=False)
    changes = rule_changes(base, checked.game)
    if not changes:
        out.print("the variant changes no rule")
    for c in changes:
        out.print(f"@@ {c.rule} ({c.status}) @@", style="cyan", markup=False)
        for line in c.lines:
            style = {"+": "green", "-": "red"}.get(line[:1])
            out.print(line, style=style, markup=False)
    return 0


# ---------------------------------------------------------------------------- doc
def render_rulebook(
    game: GamePath, variant: GamePath | None = None, mermaid_src: str | None = None
) -> tuple[str, str]:
    """The rulebook of a game (with a variant) as (Markdown, HTML). ``mermaid_src``: where the
    HTML finds the vendored Mermaid script (default: beside it; see rulebook.render_html)."""
    from meeple.dsl.lint import find_interpretation_log  # noqa: PLC0415
    from meeple.dsl.variant import Variant  # noqa: PLC0415

    from .rulebook import interpretation_log, render_html, render_markdown  # noqa: PLC0415

    game, variant = api.game_and_variant(game, variant)  # a variant file given as the game
    v: Variant | None = None
    if variant is None:
        g = api.load_checked(game).game
    else:
        checked, v = api.load_variant_checked(game, variant)
        g = checked.game
    log_file = find_interpretation_log(g.file)
    log = interpretation_log(log_file) if log_file else {}
    md = render_markdown(g, rules_root(), log, v)
    return md, render_html(md, g.name, mermaid_src or MERMAID_FILE.name)


def rulebook_name(game: GamePath, variant: GamePath | None = None) -> str:
    """The file name (without suffix) of a rendered rulebook: the name of the game's folder
    (its id for a shipped game), also when the folder is given as ``.``."""
    game, variant = api.game_and_variant(game, variant)
    name = Path(rules_path(game)).resolve().parent.name
    return name + (f".{Path(variant).stem}" if variant else "")


#: How the shipped rulebooks in docs/rulebooks/ reach the one vendored Mermaid script of the
#: checkout (meeple/web/static/vendor/), so that the repository holds it once.
SHIPPED_MERMAID_SRC = "../../meeple/web/static/vendor/" + MERMAID_FILE.name


def cmd_doc(args: argparse.Namespace) -> int:
    # A user's `meeple doc rules/x` writes into his own folder, never into the checkout's
    # docs/rulebooks/: only --all (without -o) regenerates the shipped rulebooks.
    shipped = bool(args.all and not args.output)
    folder = RULEBOOKS if shipped else Path(args.output) if args.output else Path.cwd()
    mermaid_src = SHIPPED_MERMAID_SRC if shipped else MERMAID_FILE.name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise MeepleError(f"cannot create {folder}: {e.strerror}") from None
    targets = [(g, None) for g in game_ids()] if args.all else [(args.game, args.variant)]
    written = []
    for game, variant in targets:
        md, html = render_rulebook(game, variant, mermaid_src)
        name = rulebook_name(game, variant)
        for suffix, text in ((".md", md), (".html", html)):
            written.append((folder / (name + suffix), text))
    if not shipped:  # the diagram draws offline: the script and its licence beside the pages
        for f in (MERMAID_FILE, MERMAID_LICENSE):
            target = folder / f.name
            if not target.is_file() or target.read_bytes() != f.read_bytes():
                try:
                    shutil.copyfile(f, target)
                except OSError as e:
                    raise MeepleError(f"cannot write {target}: {e.strerror}") from None
                out.print(f"wrote {relative_file(str(target), Path.cwd())}", markup=False)
    if shipped:  # the published schemas are part of docs/ too
        from .schema_docs import schema_text  # noqa: PLC0415

        SCHEMAS.mkdir(exist_ok=True)
        written.append((SCHEMAS / "game.schema.json", schema_text(False)))
        written.append((SCHEMAS / "variant.schema.json", schema_text(True)))
        written.append((SCHEMAS / "scenario.schema.json", schema_text(scenario=True)))
    for f, text in written:
        try:
            f.write_text(text, encoding="utf-8")
        except OSError as e:
            raise MeepleError(f"cannot write {f}: {e.strerror}") from None
        out.print(f"wrote {relative_file(str(f), Path.cwd())}", markup=False)
    return 0


# ---------------------------------------------------------------------------- schema
def cmd_schema(args: argparse.Namespace) -> int:
    from .schema_docs import schema_text  # noqa: PLC0415

    text = schema_text(args.variant, args.scenario)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:
            raise MeepleError(f"cannot write {args.output}: {e.strerror}") from None
        out.print(f"wrote {args.output}", markup=False)
    else:
        print(text, end="")
    return 0
