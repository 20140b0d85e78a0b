"""``meeple doc``: a game's rules rendered as a readable rulebook (Markdown, and HTML from it).

The rulebook lists the components and their counts, the zones, the setup, the flow of play as a
Mermaid diagram, every procedure in words with its rulebook citation and its place in the rules
file, the scoring, and every interpretation (question, choice, reason) from the game's
interpretation log. ``ProseWriter`` has one method per statement kind; a kind it does not know
yet is shown as its source text (see dsl/render.py).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meeple.dsl import auction, cardkinds, datatable, ir
from meeple.dsl.errors import SourceSpan
from meeple.dsl.majorities import sentence as majority_sentence
from meeple.dsl.render import ExprWriter, relative_file, source_text, walk
from meeple.dsl.tracks import describe as describe_track
from meeple.dsl.tracks import describe_space
from meeple.dsl.variant import Variant
from meeple.rulebook_play import scoring_without_end_hook, structure_prose

#: Mermaid (MIT licence, beside it as mermaid.LICENSE), vendored from the npm package so that
#: the flow diagram draws offline: no page meeple writes or serves loads anything from the web.
MERMAID_FILE = Path(__file__).parent / "web" / "static" / "vendor" / "mermaid.min.js"
MERMAID_LICENSE = MERMAID_FILE.with_name("mermaid.LICENSE")


def _code(text: str) -> str:
    """Inline code that survives backticks in the text."""
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def anchor(kind: str, name: str) -> str:
    """The HTML id of a rulebook entry (a procedure, an interpretation...)."""
    return f"{kind}-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


class ProseWriter(ExprWriter):
    """Statements as nested Markdown bullet lists in plain words; expressions as inline code."""

    def __init__(self, root: Path | None) -> None:
        self.root = root  # the rules folder: citations show file paths relative to it

    def where(self, span: SourceSpan) -> str:
        return f"{relative_file(span.file, self.root)}:{span.line}"

    def citation(self, node: Any) -> str:
        parts = []
        source = getattr(node, "source", None)
        interp = getattr(node, "interpretation", None)
        if source:
            parts.append(f"rulebook: *{source}*")
        if interp:
            parts.append(f"interpretation [{interp}](#{anchor('interpretation', interp)})")
        return " (" + "; ".join(parts) + ")" if parts else ""

    def c(self, e: ir.Expr) -> str:
        return _code(self.expr(e))

    def quote(self, parts: tuple[str | ir.Expr, ...]) -> str:
        return "“" + self.template(parts) + "”"

    # ---------------------------------------------------------------- blocks
    def block(self, b: ir.Block, depth: int = 0) -> list[str]:
        lines = []
        for s in b.stmts:
            lines.extend(self.stmt(s, depth))
        if not lines:
            lines.append("  " * depth + "- nothing happens.")
        return lines

    def stmt(self, s: ir.Stmt, depth: int) -> list[str]:
        method = getattr(self, "stmt_" + type(s).__name__, None)
        if method is None:
            return self.stmt_fallback(s, depth)
        out: list[str] = method(s, depth)
        return out

    def _item(self, depth: int, text: str) -> str:
        return "  " * depth + "- " + text

    def stmt_fallback(self, s: ir.Stmt, depth: int) -> list[str]:
        """A statement kind this writer does not know: its source text, as written."""
        pad = "  " * (depth + 1)
        text = source_text(s.span) or repr(s)
        head = self._item(
            depth, f"a *{type(s).__name__}* statement, as written ({self.where(s.span)}):"
        )
        return [head, "", pad + "```yaml", *(pad + x for x in text.splitlines()), pad + "```", ""]

    def stmt_Let(self, s: ir.Let, depth: int) -> list[str]:  # noqa: N802
        return [self._item(depth, f"Let **{s.name}** be {self.c(s.value)}.")]

    def stmt_Assign(self, s: ir.Assign, depth: int) -> list[str]:  # noqa: N802
        if s.position and s.name == "passed":  # the statement `pass` (dsl/structure.py)
            return [self._item(depth, "The seat whose turn it is passes.")]
        target = _code(s.name + (f"[{self.expr(s.index)}]" if s.index is not None else ""))
        v = self.c(s.value)
        text = {"+=": f"Add {v} to {target}.", "-=": f"Subtract {v} from {target}."}
        return [self._item(depth, text.get(s.op, f"Set {target} to {v}."))]

    def stmt_Move(self, s: ir.Move, depth: int) -> list[str]:  # noqa: N802
        dest = ("the bottom of " if s.bottom else "") + self.c(s.dest)
        if s.count is not None and s.src is not None and s.where is not None:
            n, src, cond = self.c(s.count), self.c(s.src), self.c(s.where)
            card = _code(ir.MOVE_VAR)
            text = f"Move {n} from {src} to {dest}: the top-most cards {card} such that {cond}."
            return [self._item(depth, text)]
        if s.count is not None and s.src is not None:
            return [self._item(depth, f"Move {self.c(s.count)} from {self.c(s.src)} to {dest}.")]
        items = self.c(s.items) if s.items is not None else "?"
        return [self._item(depth, f"Move {items} to {dest}.")]

    def stmt_Shuffle(self, s: ir.Shuffle, depth: int) -> list[str]:  # noqa: N802
        return [self._item(depth, f"Shuffle {self.c(s.zone)}.")]

    def stmt_EndGame(self, s: ir.EndGame, depth: int) -> list[str]:  # noqa: N802
        return [self._item(depth, "The game ends.")]

    def stmt_Log(self, s: ir.Log, depth: int) -> list[str]:  # noqa: N802
        return [self._item(depth, f"Announce {self.quote(s.parts)}.")]

    def stmt_CallProc(self, s: ir.CallProc, depth: int) -> list[str]:  # noqa: N802
        args = ", ".join(self.expr(a) for a in s.args)
        link = f"[{s.name}](#{anchor('procedure', s.name)})"
        return [self._item(depth, f"Do {link}" + (f" for {_code(args)}." if args else "."))]

    def stmt_Block(self, s: ir.Block, depth: int) -> list[str]:  # noqa: N802
        return [self._item(depth, "Together" + self.citation(s) + ":"), *self.block(s, depth + 1)]

    def stmt_If(self, s: ir.If, depth: int) -> list[str]:  # noqa: N802
        out = [self._item(depth, f"If {self.c(s.test)}{self.citation(s)}:")]
        out += self.block(s.then, depth + 1)
        for b in s.elifs:
            out.append(self._item(depth, f"Otherwise, if {self.c(b.test)}{self.citation(b)}:"))
            out += self.block(b.then, depth + 1)
        if s.orelse is not None:
            out += [self._item(depth, "Otherwise:"), *self.block(s.orelse, depth + 1)]
        return out

    def stmt_For(self, s: ir.For, depth: int) -> list[str]:  # noqa: N802
        how = "At the same time and in secret, for" if s.secret else "For"
        head = f"{how} each {_code(s.var)} in {self.c(s.iter)}{self.citation(s.body)}:"
        return [self._item(depth, head), *self.block(s.body, depth + 1)]

    def stmt_Repeat(self, s: ir.Repeat, depth: int) -> list[str]:  # noqa: N802
        head = f"Repeat until {self.c(s.until)} (checked after each pass){self.citation(s.body)}:"
        return [self._item(depth, head), *self.block(s.body, depth + 1)]

    def stmt_While(self, s: ir.While, depth: int) -> list[str]:  # noqa: N802
        head = f"As long as {self.c(s.test)}{self.citation(s.body)}:"
        return [self._item(depth, head), *self.block(s.body, depth + 1)]

    def stmt_Choose(self, s: ir.Choose, depth: int) -> list[str]:  # noqa: N802
        secret = " in secret" if s.secret else ""
        head = f"{self.c(s.player)} chooses{secret} one option, {self.quote(s.prompt)}"
        out = [self._item(depth, head + self.citation(s) + ":")]
        for o in s.options:
            label = f"*{self.template(o.label)}*"
            if o.var is not None and o.iter is not None:
                label += f", one option for each {_code(o.var)} in {self.c(o.iter)}"
            if o.when is not None:
                label += f", allowed only if {self.c(o.when)}"
            out.append(self._item(depth + 1, label + self.citation(o.body) + ":"))
            out += self.block(o.body, depth + 2)
        return out

    def stmt_Pick(self, s: ir.Pick, depth: int) -> list[str]:  # noqa: N802
        if s.max is s.min:
            how_many = f"exactly {self.c(s.min)}"
        elif s.max is None:
            how_many = f"at least {self.c(s.min)}"
        else:
            how_many = f"{self.c(s.min)} to {self.c(s.max)}"
        text = f"{self.c(s.player)} picks {how_many} of {self.c(s.src)}"
        if s.where is not None:
            text += f", each {_code(s.var)} such that {self.c(s.where)}"
        if s.dest is not None:
            text += f", putting them in {self.c(s.dest)}"
        if s.secret:
            text += ", in secret"
        text += f" ({self.quote(s.prompt)})"
        if s.into:
            text += f"; the picked cards are called **{s.into}**"
        return [self._item(depth, text + self.citation(s) + ".")]

    def stmt_Auction(self, s: ir.Auction, depth: int) -> list[str]:  # noqa: N802
        text = auction.sentence(s, self.c, self.quote)
        if isinstance(s.pay, ir.CallProc):
            link = f"[{s.pay.name}](#{anchor('procedure', s.pay.name)})"
            args = ", ".join(self.expr(a) for a in s.pay.args)
            text += f"; the winner pays as {link} says, for {_code(args)}"
        out = [self._item(depth, text + self.citation(s) + ".")]
        if s.won is not None and s.won.stmts:
            out += [self._item(depth + 1, "Then:"), *self.block(s.won, depth + 2)]
        if s.none is not None:
            out += [self._item(depth + 1, "If everyone passes:"), *self.block(s.none, depth + 2)]
        return out

    def stmt_Winner(self, s: ir.Winner, depth: int) -> list[str]:  # noqa: N802
        if s.majority is not None:  # the tie rule is the majority's, said where it is declared
            text = (
                f"The holder of the majority {self.c(s.among)} wins ({self.quote(s.prompt)}); "
                "a tie goes by its tie rule, and without a holder nobody wins (**none**)"
            )
            return [self._item(depth, text + f"; the winner is **{s.into}**{self.citation(s)}.")]
        text = (
            f"Of each {_code(s.var)} in {self.c(s.among)}, the one with the largest "
            f"{self.c(s.strength)} wins ({self.quote(s.prompt)}); "
        )
        if s.chooser is not None:
            own = ", never in their own favour" if s.not_self else ""
            text += f"a tie is decided by {self.c(s.chooser)}{own}"
        else:
            text += "a tie means nobody wins (**none**)"
        return [self._item(depth, text + f"; the winner is **{s.into}**{self.citation(s)}.")]


# ---------------------------------------------------------------------------- flow diagram
def _label(text: str) -> str:
    """A Mermaid label: quoted, with quotes and markup characters as Mermaid entity codes, so
    rule text can neither end the label nor become HTML in the drawn diagram."""
    text = text if len(text) <= 60 else text[:57] + "..."
    for ch, code in _MERMAID_ESCAPES:
        text = text.replace(ch, code)
    return '"' + text + '"'


# "#" first: the codes themselves start with it
_MERMAID_ESCAPES = (
    ("#", "#35;"),
    ('"', "#quot;"),
    ("<", "#lt;"),
    (">", "#gt;"),
    ("&", "#amp;"),
    ("`", "#96;"),
)


def flow_diagram(game: ir.Game) -> list[str]:
    """A Mermaid flowchart: setup, play, scoring and which procedure starts which, each arrow
    labelled with the loop, condition or option under which the call happens; a dashed arrow
    goes back from the last procedure of a repeated block to the one that repeats it."""
    w = ExprWriter()
    edges: list[tuple[str, str, str, bool]] = []  # from, to, label, dashed (a loop back)

    def visit(node: Any, owner: str, ctx: str) -> None:
        if isinstance(node, ir.CallProc):
            edges.append((owner, node.name, ctx, False))
            return
        here = ctx
        if isinstance(node, ir.For):
            here = f"for each {node.var} in {w.expr(node.iter)}"
        elif isinstance(node, (ir.Repeat, ir.While)):
            before = len(edges)
            for c in _stmt_children(node):
                visit(c, owner, ctx)
            if len(edges) > before:
                again = (
                    f"again until {w.expr(node.until)}"
                    if isinstance(node, ir.Repeat)
                    else f"again while {w.expr(node.test)}"
                )
                edges.append((edges[-1][1], owner, again, True))
            return
        elif isinstance(node, ir.If):
            for s in node.then.stmts:
                visit(s, owner, f"if {w.expr(node.test)}")
            for b in node.elifs:
                for s in b.then.stmts:
                    visit(s, owner, f"otherwise if {w.expr(b.test)}")
            otherwise = "otherwise" if node.elifs else f"if not ({w.expr(node.test)})"
            for s in node.orelse.stmts if node.orelse else ():
                visit(s, owner, otherwise)
            return
        elif isinstance(node, ir.Option):
            # the outermost option names the choice a player makes in this procedure
            here = ctx if ctx.startswith("option ") else "option " + w.template(node.label)
        for c in _stmt_children(node):
            visit(c, owner, here)

    for name, block in (("setup", game.setup), ("play", game.play), ("scoring", game.scoring)):
        visit(block, name, "")
    for p in game.procedures.values():
        visit(p.body, p.name, "")
    lines = ["```mermaid", "flowchart TD"]
    lines.append('  setup(["Setup"]) --> play["Play"]')
    lines.append('  play --> scoring(["Scoring"])')
    seen = set()
    for a, b, ctx, dashed in edges:
        if (a, b, ctx) in seen:
            continue
        seen.add((a, b, ctx))
        line = "-.->" if dashed else "-->"
        arrow = f" {line}|{_label(ctx)}| " if ctx else f" {line} "
        lines.append(f"  {_node(a)}{arrow}{_node(b)}")
    lines.append("```")
    return lines


def _node(name: str) -> str:
    fixed = {"setup": "setup", "play": "play", "scoring": "scoring"}
    if name in fixed:
        return fixed[name]
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):  # what the checker lets names be
        return f"p_{name}[{name}]"
    # anything else: an id of safe characters, the name shown as a quoted, escaped label
    return "p_" + re.sub(r"[^A-Za-z0-9_]", "_", name) + f"[{_label(name)}]"


def _stmt_children(node: Any) -> list[Any]:
    from meeple.dsl.render import children  # noqa: PLC0415

    if isinstance(node, ir.Auction):  # the declaration, not its lowered statements
        return [b for b in (node.pay, node.won, node.none) if b is not None]
    return [c for c in children(node) if isinstance(c, (ir.Stmt, ir.Option))]


# ---------------------------------------------------------------------------- interpretations
@dataclass(frozen=True)
class Interpretation:
    key: str
    text: str  # the entry's Markdown, without its heading


def interpretation_log(file: Path) -> dict[str, Interpretation]:
    """The ``## key`` entries of an interpretation log (docs/games/<game>.md)."""
    if not file.is_file():
        return {}
    out = {}
    for part in re.split(r"^## ", file.read_text(encoding="utf-8"), flags=re.M)[1:]:
        head, _, body = part.partition("\n")
        key = head.strip()
        if re.fullmatch(r"[a-z0-9-]+", key):
            out[key] = Interpretation(key, body.strip())
    return out


def interpretations_used(files: list[str]) -> dict[str, list[SourceSpan]]:
    """Every interpretation key the rules files name (``interpretation: key``), with where, in
    file order. Read from the text, so keys on declarations the IR does not keep count too."""
    used: dict[str, list[SourceSpan]] = {}
    for file in files:
        text = Path(file).read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            for m in _INTERP_KEY.finditer(line.split(" #")[0]):
                used.setdefault(m.group(1), []).append(SourceSpan(file, n, m.start(1) + 1))
    return used


_INTERP_KEY = re.compile(r"\binterpretation:\s*([a-z0-9-]+)")


# ---------------------------------------------------------------------------- the rulebook
def render_markdown(
    game: ir.Game,
    root: Path | None,
    log: dict[str, Interpretation],
    variant: Variant | None = None,
) -> str:
    """The rulebook of ``game`` as Markdown. ``root`` is the rules folder (citations are relative
    to it); ``log`` the game's interpretation entries."""
    w = ProseWriter(root)
    md: list[str] = []
    add = md.append
    add(f"# {game.name}")
    add("")
    add(
        f"*Rendered by `meeple doc` from `{relative_file(game.file, root)}`; do not edit by hand. "
        f"Rulebook encoded: {game.rulebook}. Players: {game.players_min} to {game.players_max}.*"
    )
    add("")
    if variant is not None:
        add("## This variant")
        add("")
        for v in variant.chain():
            add(f"**{v.name}** (`{v.id}`, extends `{v.extends}`). {v.rationale}")
            add("")
            for ch in v.changes:
                add(f"- {ch.op} `{ch.path}`")
            add("")
    add("## Contents")
    add("")
    for title in ("Components", "Zones", "Variables and tables", "Setup", "Flow of play"):
        add(f"- [{title}](#{anchor('section', title)})")
    if game.triggers:
        add(f"- [Triggers](#{anchor('section', 'Triggers')})")
    add(f"- [Procedures](#{anchor('section', 'Procedures')})")
    for p in _procedure_order(game):
        add(f"  - [{p.name}](#{anchor('procedure', p.name)})")
    add(f"- [Scoring](#{anchor('section', 'Scoring')})")
    add(f"- [Interpretations](#{anchor('section', 'Interpretations')})")
    add("")

    _section(md, "Components")
    for k in game.kinds.values():
        total = sum(it.count for it in k.items)
        each = " for each player" if k.per_player else ""
        add(f"### {k.name}")
        add("")
        start = f", starting in {_code(k.start)}" if k.start else ""
        add(f"{total} components{each}{start}{w.citation(k)}; `{w.where(k.span)}`.")
        add("")
        props = list(k.properties)
        add("| count | name | " + " | ".join(props) + (" |" if props else ""))
        add("|---:|---|" + "---|" * len(props))
        for it in k.items:
            cells = [str(it.props[p]) for p in props]
            add(f"| {it.count} | {it.name} | " + " | ".join(cells) + (" |" if props else ""))
        add("")

    _section(md, "Zones")
    add("| zone | one per | who sees it | refilled from |")
    add("|---|---|---|---|")
    vis = {
        "public": "everyone",
        "owner": "its owner",
        "hidden": "nobody",
        "top": "everyone sees the top card",
    }
    for z in game.zones.values():
        row = [_code(z.name), z.per or "", vis.get(z.visibility, z.visibility), z.refill or ""]
        add("| " + " | ".join(row) + " |")
    add("")

    _section(md, "Variables and tables")
    for const in game.constants.values():
        value = _code(w.expr(ir.Const(const.span, const.value)))
        add(f"- {_code(const.name)} is always {value}: no rule changes it{w.citation(const)}.")
    for var in game.variables.values():
        if auction.is_hidden(var.name):
            continue  # an auction's own state: its sentence says what it holds
        per = " per player" if var.per else ""
        if var.is_track:
            add(f"- {describe_track(var, _code(var.name))} It starts at {w.c(var.initial)}.")
            for sp in var.spaces:  # its spaces with effects, in the order the marker meets them
                add(f"  - {describe_space(var, sp, _code(var.name))}{w.citation(sp.body)}:")
                md += w.block(sp.body, 2)
            continue
        add(f"- {_code(var.name)}: {cardkinds.declared(var)}{per}, starting at {w.c(var.initial)}.")
    for f in game.functions.values():
        if f.name in game.majorities:  # said as a sentence below
            continue
        sig = f"{f.name}({cardkinds.signature(f)})"
        add(f"- {_code(sig)} is {w.c(f.body)}{w.citation(f)}.")
    for m in game.majorities.values():
        sig = f"{m.name}({', '.join(m.params)})"
        text = majority_sentence(m, w.c).rstrip(".")
        add(f"- Majority {_code(sig)}: {text}{w.citation(m)}.")
    add("")
    for t in game.tables.values():
        add(f"### Table {t.name}")
        add("")
        group = f", groups of identical {_code(t.group_by)}" if t.group_by else ""
        add(f"Ranked weakest first{group}{w.citation(t)}.")
        add("")
        add("| rank | label | group sizes |")
        add("|---:|---|---|")
        for i, (label, pat) in enumerate(zip(t.labels, t.patterns, strict=True)):
            add(f"| {i + 1} | {label} | {' + '.join(map(str, pat))} |")
        add("")

    for dt in game.data_tables.values():
        add(f"### Table {dt.name}")
        add("")
        md += datatable.markdown(dt, game.kinds, w.citation(dt))
        add("")

    _section(md, "Setup")
    md += [*_cited(w, game.setup), *w.block(game.setup), ""]

    _section(md, "Flow of play")
    add("Who starts which procedure, and under which loop, condition or option.")
    add("")
    md += flow_diagram(game)
    add("")
    play = w.block(game.play) if game.structure is None else structure_prose(w, game)
    md += [*_cited(w, game.play), *play, ""]

    if game.triggers:
        _section(md, "Triggers")
        add("Rules that run whenever a move puts a component into a zone, at any point of play.")
        add("")
        for trig in game.triggers.values():
            add(f'<a id="{anchor("trigger", trig.name)}"></a>')
            add("")
            add(f"### {trig.name}")
            add("")
            add(f"{trigger_sentence(trig, w.c)}:")
            add("")
            md += [*_cited(w, trig.body, trig.span), *w.block(trig.body), ""]

    _section(md, "Procedures")
    for p in _procedure_order(game):
        params = f" ({', '.join(_code(x) for x in cardkinds.parameters(p))})" if p.params else ""
        add(f'<a id="{anchor("procedure", p.name)}"></a>')
        add("")
        add(f"### {p.name}{params}")
        add("")
        md += [*_cited(w, p.body, p.span), *w.block(p.body), ""]

    _section(md, "Scoring")
    scoring = scoring_without_end_hook(game)
    md += [*_cited(w, scoring), *w.block(scoring), ""]
    for i, tb in enumerate(game.tie_breakers):
        label = f" ({tb.label})" if tb.label else ""
        add(f"Tie-breaker {i + 1}{label}: the larger {w.c(tb.key)} wins{w.citation(tb)}.")
        add("")

    _section(md, "Interpretations")
    files = [game.file] + ([v.file for v in variant.chain()] if variant else [])
    used = interpretations_used(files)
    add(
        "Where the rulebook is silent or ambiguous, the rules make a choice and name it. "
        "Each entry gives the question, the choice and the reason, and where the rules use it."
    )
    add("")
    if not used:
        add("The rules name no interpretation.")
        add("")
    for key, spans in used.items():
        add(f'<a id="{anchor("interpretation", key)}"></a>')
        add("")
        add(f"### {key}")
        add("")
        add("Used at " + ", ".join(f"`{w.where(s)}`" for s in spans) + ".")
        add("")
        entry = log.get(key)
        add(entry.text if entry else "**Not documented in the interpretation log.**")
        add("")
    for key, entry in log.items():  # e.g. a reading a scenario of the rulebook's example needs
        if key in used:
            continue
        add(f'<a id="{anchor("interpretation", key)}"></a>')
        add("")
        add(f"### {key}")
        add("")
        add("Not named by a rule block (it is named by a scenario or explains the rules file).")
        add("")
        add(entry.text)
        add("")
    return "\n".join(md).rstrip() + "\n"


def trigger_sentence(t: ir.Trigger, c: Callable[[ir.Expr], str]) -> str:
    """When trigger ``t`` fires, in words: "Whenever a move puts a component of `kind` into
    `zone` (called `card` below), if ..."; ``c`` writes an expression as inline code."""
    kind = f" of {_code(t.kind)}" if t.kind else ""
    when = f", if {c(t.when)}" if t.when is not None else ""
    return (
        f"Whenever a move puts a component{kind} into {_code(t.zone)} (called {_code(t.var)} "
        f"below){when}"
    )


def _section(md: list[str], title: str) -> None:
    md += [f'<a id="{anchor("section", title)}"></a>', "", f"## {title}", ""]


def _cited(w: ProseWriter, b: ir.Block, span: SourceSpan | None = None) -> list[str]:
    where = f"`{w.where(span or b.span)}`"
    cite = w.citation(b).strip()
    text = cite[1:-1] if cite else "no citation"
    return [f"{text[:1].upper()}{text[1:]}; {where}.", ""]


def _procedure_order(game: ir.Game) -> list[ir.Procedure]:
    """Procedures in the order play reaches them (depth first from setup, play, scoring), then
    any the rules never call."""
    order: list[str] = []

    def visit(node: Any) -> None:
        for n in walk(node):
            if isinstance(n, ir.CallProc) and n.name in game.procedures and n.name not in order:
                order.append(n.name)
                visit(game.procedures[n.name].body)

    for b in (game.setup, game.play, game.scoring, *(t.body for t in game.triggers.values())):
        visit(b)
    order += [n for n in game.procedures if n not in order]
    return [game.procedures[n] for n in order]


def render_html(markdown_text: str, title: str, mermaid_src: str = MERMAID_FILE.name) -> str:
    """A standalone HTML page from the rulebook's Markdown; Mermaid draws the flow diagram.

    ``mermaid_src`` is the URL of the vendored ``mermaid.min.js`` as the page will find it
    (default: beside the page; ``meeple doc`` copies it there). Mermaid starts on load with its
    default ``securityLevel: 'strict'`` (labels are text, never HTML or script)."""
    body = markdown_body(markdown_text)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n"
        "<style>body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em;"
        "line-height:1.45}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
        "padding:2px 6px}code{background:#f4f4f4}</style>\n"
        f"</head>\n<body>\n{body}\n"
        f'<script src="{html.escape(mermaid_src)}"></script>\n</body>\n</html>\n'
    )


def markdown_body(markdown_text: str) -> str:
    """The rulebook's Markdown as an HTML fragment, rendered as CommonMark (markdown-it-py) so
    that lists nested by two spaces stay nested; tables as in GitHub's Markdown.

    Rule text is untrusted: raw HTML in the Markdown never passes through (it is shown as text),
    and links go only to pages, mail or anchors, never to javascript: and the like. The
    rulebook's own anchors are plain Markdown lines, restored below from their escaped form (ids
    of safe characters only). The Mermaid block becomes ``<pre class="mermaid">`` (its text
    stays escaped)."""
    from markdown_it import MarkdownIt  # noqa: PLC0415  (only the rulebooks need it)

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    # every link becomes a link, so that one policy (_safe_link below) decides what it may reach
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    body = md.render(markdown_text)
    body = re.sub(
        r"<p>&lt;a id=&quot;([a-z0-9-]+)&quot;&gt;&lt;/a&gt;</p>",
        lambda m: f'<p><a id="{m.group(1)}"></a></p>',
        body,
    )
    body = re.sub(r'(href|src)="([^"]*)"', _safe_link, body)
    return re.sub(
        r'<pre><code class="language-mermaid">(.*?)</code></pre>',
        r'<pre class="mermaid">\1</pre>',
        body,
        flags=re.S,
    )


def _safe_link(m: re.Match[str]) -> str:
    """An href/src kept when it goes to a web page, a mail address, an anchor or a relative
    path; anything else (javascript:, data:, vbscript:...) becomes "#"."""
    attr, url = m.group(1), m.group(2)
    target = html.unescape(url).strip().lower()
    scheme = re.match(r"[a-z][a-z0-9+.-]*:", re.sub(r"[\x00-\x20]", "", target))
    if scheme and scheme.group(0) not in ("http:", "https:", "mailto:"):
        url = "#"
    return f'{attr}="{url}"'
