"""Rules back as text: the rule language (for ``meeple diff``) and readable prose (for
``meeple doc``), both generic over the IR.

Each writer has one method per IR node kind, named after the class (``stmt_Move``,
``expr_BinOp``...). A node kind a writer does not know yet (a statement added to the language
after this file) is not an error: the writer falls back to the node's own source text, read from
the rules file at the node's span, and says which kind it was, so nothing is silently dropped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import cardkinds, datatable, ir
from .errors import SourceSpan, _source_line
from .majorities import sentence as majority_sentence

# Binding strength of binary operators, loosest first (parentheses are added from this).
_PREC = {
    "or": 1,
    "and": 2,
    "==": 4,
    "!=": 4,
    "<": 4,
    "<=": 4,
    ">": 4,
    ">=": 4,
    "in": 4,
    "not in": 4,
    "..": 5,
    "+": 6,
    "-": 6,
    "*": 7,
    "//": 7,
    "%": 7,
}


def source_text(span: SourceSpan) -> str:
    """The text of the rules file at ``span`` (whole lines for a span over several lines)."""
    if span.line <= 0:
        return ""
    first = _source_line(span.file, span.line)
    if first is None:
        return ""
    if span.end_line in (0, span.line):
        end = span.end_col - 1 if span.end_col > span.col else len(first)
        return first[span.col - 1 : end].strip()
    lines = [first[span.col - 1 :]]
    for n in range(span.line + 1, span.end_line + 1):
        line = _source_line(span.file, n)
        if line is None:
            break
        lines.append(line[: span.end_col - 1] if n == span.end_line else line)
    indent = min((len(x) - len(x.lstrip()) for x in lines[1:] if x.strip()), default=0)
    return "\n".join([lines[0].rstrip()] + [x[indent:].rstrip() for x in lines[1:]]).strip()


def children(node: Any) -> Iterator[Any]:
    """The IR nodes directly inside ``node`` (statements, blocks, options, expressions), found
    through its dataclass fields so that node kinds added later are walked too."""
    if not dataclasses.is_dataclass(node):
        return
    for f in dataclasses.fields(node):
        if f.name != "span":
            yield from _nodes_in(getattr(node, f.name))


def _nodes_in(v: Any) -> Iterator[Any]:
    """IR nodes in a field's value: the value itself, or inside (nested) tuples and lists."""
    if isinstance(v, (ir.Expr, ir.Stmt, ir.Option)):
        yield v
    elif isinstance(v, (tuple, list)):
        for x in v:
            yield from _nodes_in(x)


def walk(node: Any) -> Iterator[Any]:
    """``node`` and every IR node inside it, depth first in source order."""
    yield node
    for c in children(node):
        yield from walk(c)


def statement_blocks(game: ir.Game) -> list[ir.Block]:
    """Every block of statements of the rules: setup, play, scoring, then each procedure's and
    each trigger's body (functions are expressions, not statements)."""
    blocks = [game.setup, game.play, game.scoring]
    blocks += [p.body for p in game.procedures.values()]
    blocks += [t.body for t in game.triggers.values()]
    blocks += [s.body for v in game.variables.values() for s in v.spaces]  # tracks' spaces
    return blocks


def eliminates(game: ir.Game) -> bool:
    """Can a seat leave the game (an ``eliminate`` statement anywhere in the rules)?"""
    return any(isinstance(n, ir.Eliminate) for b in statement_blocks(game) for n in walk(b))


# ------------------------------------------------------------------------------ expressions
class ExprWriter:
    """Expressions in the rule language's own syntax, with only the needed parentheses."""

    def expr(self, e: ir.Expr, outer: int = 0) -> str:
        method = getattr(self, "expr_" + type(e).__name__, None)
        if method is None:
            return self.expr_fallback(e)
        return str(method(e, outer))

    def expr_fallback(self, e: ir.Expr) -> str:
        return source_text(e.span) or f"<{type(e).__name__}>"

    def expr_Const(self, e: ir.Const, outer: int) -> str:  # noqa: N802
        if e.value is None:
            return "none"
        if isinstance(e.value, bool):
            return "true" if e.value else "false"
        if isinstance(e.value, str):
            return "'" + e.value + "'" if '"' in e.value else '"' + e.value + '"'
        return str(e.value)

    def expr_Name(self, e: ir.Name, outer: int) -> str:  # noqa: N802
        return e.id

    def expr_Attr(self, e: ir.Attr, outer: int) -> str:  # noqa: N802
        return f"{self.expr(e.obj, 9)}.{e.name}"

    def expr_Index(self, e: ir.Index, outer: int) -> str:  # noqa: N802
        if isinstance(e.index, ir.ListLit) and len(e.index.items) > 1:  # a table's keys
            return f"{self.expr(e.obj, 9)}[{', '.join(self.expr(k) for k in e.index.items)}]"
        return f"{self.expr(e.obj, 9)}[{self.expr(e.index)}]"

    def expr_Call(self, e: ir.Call, outer: int) -> str:  # noqa: N802
        if len(e.args) == 1 and isinstance(e.args[0], ir.Comprehension) and not e.kwargs:
            return f"{e.func}({self._comp(e.args[0])})"
        args = [self.expr(a) for a in e.args] + [f"{k}={self.expr(v)}" for k, v in e.kwargs]
        return f"{e.func}({', '.join(args)})"

    def _comp(self, c: ir.Comprehension) -> str:
        text = f"{self.expr(c.elt)} for {c.var} in {self.expr(c.iter, 1)}"
        return text + (f" if {self.expr(c.cond, 1)}" if c.cond is not None else "")

    def expr_Comprehension(self, e: ir.Comprehension, outer: int) -> str:  # noqa: N802
        return f"[{self._comp(e)}]"

    def expr_ListLit(self, e: ir.ListLit, outer: int) -> str:  # noqa: N802
        return "[" + ", ".join(self.expr(x) for x in e.items) + "]"

    def expr_BinOp(self, e: ir.BinOp, outer: int) -> str:  # noqa: N802
        p = _PREC.get(e.op, 4)
        right_p = p + 1 if p >= 4 else p  # comparisons and arithmetic are left-associative
        text = f"{self.expr(e.left, p)} {e.op} {self.expr(e.right, right_p)}"
        # an "and" inside an "or" gets parentheses it does not need, for the reader
        return f"({text})" if p < outer or (e.op == "and" and outer == 1) else text

    def expr_Unary(self, e: ir.Unary, outer: int) -> str:  # noqa: N802
        if e.op == "not":
            text = f"not {self.expr(e.operand, 3)}"
            return f"({text})" if outer > 3 else text
        return f"-{self.expr(e.operand, 8)}"

    def expr_Cond(self, e: ir.Cond, outer: int) -> str:  # noqa: N802
        text = f"{self.expr(e.then, 1)} if {self.expr(e.test, 1)} else {self.expr(e.orelse)}"
        return f"({text})" if outer > 0 else text

    def template(self, parts: tuple[str | ir.Expr, ...]) -> str:
        """A text with ``{expr}`` holes, as written in the rules."""
        return "".join(p if isinstance(p, str) else "{" + self.expr(p) + "}" for p in parts)


# ------------------------------------------------------------------------------ rule language
class RuleWriter(ExprWriter):
    """Statements in the rule language, one statement per line, nested by indentation.

    Compound statements read like their YAML (``choose "Bonus" by p:`` ...), so a reviewer sees
    the rules as written, without YAML punctuation or positions."""

    indent = "  "

    def block(self, b: ir.Block, depth: int = 0) -> list[str]:
        out = []
        if b.source or b.interpretation:
            out.append(self.indent * depth + "# " + self.citation(b))
        for s in b.stmts:
            out.extend(self.stmt(s, depth))
        return out

    def citation(self, node: Any) -> str:
        parts = []
        if getattr(node, "source", None):
            parts.append(f"source: {node.source}")
        if getattr(node, "interpretation", None):
            parts.append(f"interpretation: {node.interpretation}")
        return "; ".join(parts)

    def stmt(self, s: ir.Stmt, depth: int = 0) -> list[str]:
        method = getattr(self, "stmt_" + type(s).__name__, None)
        if method is None:
            return self.stmt_fallback(s, depth)
        lines: list[str] = method(s, depth)
        return lines

    def stmt_fallback(self, s: ir.Stmt, depth: int) -> list[str]:
        pad = self.indent * depth
        text = source_text(s.span) or repr(s)
        lines = [f"{pad}# a {type(s).__name__} statement, as written:"]
        return lines + [pad + line for line in text.splitlines()]

    def _head(self, depth: int, text: str, node: Any) -> str:
        cite = self.citation(node)
        return self.indent * depth + text + (f"  # {cite}" if cite else "")

    def _body(self, b: ir.Block, depth: int) -> list[str]:
        return [line for s in b.stmts for line in self.stmt(s, depth)]

    def stmt_Let(self, s: ir.Let, depth: int) -> list[str]:  # noqa: N802
        return [f"{self.indent * depth}let {s.name} = {self.expr(s.value)}"]

    def stmt_Assign(self, s: ir.Assign, depth: int) -> list[str]:  # noqa: N802
        target = s.name + (f"[{self.expr(s.index)}]" if s.index is not None else "")
        return [f"{self.indent * depth}{target} {s.op} {self.expr(s.value)}"]

    def stmt_Move(self, s: ir.Move, depth: int) -> list[str]:  # noqa: N802
        dest = ("bottom of " if s.bottom else "") + self.expr(s.dest)
        if s.count is not None and s.src is not None and s.where is not None:
            what = f"{self.expr(s.count)} where {self.expr(s.where)} from {self.expr(s.src)}"
        elif s.count is not None and s.src is not None:
            what = f"{self.expr(s.count)} from {self.expr(s.src)}"
        else:
            what = self.expr(s.items) if s.items is not None else "?"
        return [f"{self.indent * depth}move {what} to {dest}"]

    def stmt_Shuffle(self, s: ir.Shuffle, depth: int) -> list[str]:  # noqa: N802
        return [f"{self.indent * depth}shuffle {self.expr(s.zone)}"]

    def stmt_EndGame(self, s: ir.EndGame, depth: int) -> list[str]:  # noqa: N802
        return [f"{self.indent * depth}end game"]

    def stmt_Log(self, s: ir.Log, depth: int) -> list[str]:  # noqa: N802
        return [f'{self.indent * depth}log "{self.template(s.parts)}"']

    def stmt_CallProc(self, s: ir.CallProc, depth: int) -> list[str]:  # noqa: N802
        return [f"{self.indent * depth}{s.name}({', '.join(self.expr(a) for a in s.args)})"]

    def stmt_Block(self, s: ir.Block, depth: int) -> list[str]:  # noqa: N802
        return [self._head(depth, "do:", s), *self._body(s, depth + 1)]

    def stmt_If(self, s: ir.If, depth: int) -> list[str]:  # noqa: N802
        out = [self._head(depth, f"if {self.expr(s.test)}:", s), *self._body(s.then, depth + 1)]
        for b in s.elifs:
            out.append(self._head(depth, f"elif {self.expr(b.test)}:", b))
            out += self._body(b.then, depth + 1)
        if s.orelse is not None:
            out += [self.indent * depth + "else:", *self._body(s.orelse, depth + 1)]
        return out

    def stmt_For(self, s: ir.For, depth: int) -> list[str]:  # noqa: N802
        word = "simultaneous" if s.secret else "for"
        head = f"{word} {s.var} in {self.expr(s.iter)}:"
        return [self._head(depth, head, s.body), *self._body(s.body, depth + 1)]

    def stmt_Repeat(self, s: ir.Repeat, depth: int) -> list[str]:  # noqa: N802
        return [
            self._head(depth, "repeat:", s.body),
            *self._body(s.body, depth + 1),
            f"{self.indent * depth}until {self.expr(s.until)}",
        ]

    def stmt_While(self, s: ir.While, depth: int) -> list[str]:  # noqa: N802
        head = f"while {self.expr(s.test)}:"
        return [self._head(depth, head, s.body), *self._body(s.body, depth + 1)]

    def stmt_Choose(self, s: ir.Choose, depth: int) -> list[str]:  # noqa: N802
        secret = " secretly" if s.secret else ""
        head = f'choose "{self.template(s.prompt)}" by {self.expr(s.player)}{secret}:'
        out = [self._head(depth, head, s)]
        for o in s.options:
            out.extend(self.option(o, depth + 1))
        return out

    def option(self, o: ir.Option, depth: int) -> list[str]:
        head = f'option "{self.template(o.label)}"'
        if o.var is not None and o.iter is not None:
            head += f" for {o.var} in {self.expr(o.iter)}"
        if o.when is not None:
            head += f" when {self.expr(o.when)}"
        return [self._head(depth, head + ":", o.body), *self._body(o.body, depth + 1)]

    def stmt_Pick(self, s: ir.Pick, depth: int) -> list[str]:  # noqa: N802
        count = (
            f"count {self.expr(s.min)}"
            if s.max is s.min
            else f"min {self.expr(s.min)}" + (f" max {self.expr(s.max)}" if s.max else "")
        )
        parts = [f'pick "{self.template(s.prompt)}" by {self.expr(s.player)}']
        parts.append(f"each {s.var} from {self.expr(s.src)}")
        if s.dest is not None:
            parts.append(f"to {self.expr(s.dest)}")
        parts.append(count)
        if s.where is not None:
            parts.append(f"where {self.expr(s.where)}")
        if s.into:
            parts.append(f"as {s.into}")
        if s.secret:
            parts.append("secretly")
        return [self._head(depth, " ".join(parts), s)]

    def stmt_Auction(self, s: ir.Auction, depth: int) -> list[str]:  # noqa: N802
        from .auction import rule_lines  # noqa: PLC0415  (auction imports this module's users)

        lines = rule_lines(s, self.expr, self.template)
        out = [self._head(depth, lines[0], s), *(self.indent * depth + x for x in lines[1:])]
        for word, b in (("won", s.won), ("none", s.none)):
            if b is not None:
                out += [self.indent * depth + f"  {word}:", *self._body(b, depth + 2)]
        return out

    def stmt_Winner(self, s: ir.Winner, depth: int) -> list[str]:  # noqa: N802
        text = (
            f'winner "{self.template(s.prompt)}" of {self.expr(s.among)}'
            if s.majority is not None
            else f'winner "{self.template(s.prompt)}" among {s.var} in {self.expr(s.among)} '
            f"by {self.expr(s.strength)}"
        )
        if s.majority is not None:
            pass  # the tie rule is the majority's, said where it is declared
        elif s.chooser is not None:
            text += f"; tie chosen by {self.expr(s.chooser)}" + (" not self" if s.not_self else "")
        else:
            text += "; tie: none"
        return [self._head(depth, f"{text} as {s.into}", s)]


# ------------------------------------------------------------------------------ rules by name
def rule_texts(game: ir.Game, writer: RuleWriter | None = None) -> dict[str, list[str]]:
    """Every rule of a game as rule-language lines, keyed ``section name`` (e.g.
    ``procedure turn``, ``zone hand``), in the order a rulebook reads them."""
    w = writer or RuleWriter()
    out: dict[str, list[str]] = {}
    out["game"] = [
        f"name: {game.name}",
        f"players: {game.players_min} to {game.players_max}",
        f"rulebook: {game.rulebook}",
    ]
    for k in game.kinds.values():
        lines = [f"# {w.citation(k)}"] if k.source or k.interpretation else []
        if k.properties:
            lines.append("properties: " + ", ".join(f"{n}: {t}" for n, t in k.properties.items()))
        if k.start:
            lines.append(f"starts in: {k.start}" + (" (each player's own)" if k.per_player else ""))
        for it in k.items:
            props = ", ".join(f"{n}={v!r}" for n, v in it.props.items())
            lines.append(f"{it.count} x {it.name}" + (f" ({props})" if props else ""))
        out[f"components {k.name}"] = lines
    for z in game.zones.values():
        desc = z.visibility + (f", one per {z.per}" if z.per else "")
        desc += f", refilled from {z.refill}" if z.refill else ""
        out[f"zone {z.name}"] = [desc]
    for c in game.constants.values():
        lines = [f"# {w.citation(c)}"] if c.source or c.interpretation else []
        out[f"constant {c.name}"] = lines + [f"{c.type} = {w.expr(ir.Const(c.span, c.value))}"]
    for v in game.variables.values():
        if v.name.startswith("_auction"):
            continue  # an auction's hidden state (dsl/auction.py): its statement says it all
        bounds = "".join(f", {n} {x}" for n, x in (("min", v.min), ("max", v.max)) if x is not None)
        if v.is_track:
            ends = v.at_min if v.at_min == v.at_max else f"{v.at_min} at min, {v.at_max} at max"
            bounds += f", at ends {ends}"
        per = f" per {v.per}" if v.per else ""
        out[f"variable {v.name}"] = [f"{cardkinds.declared(v)}{per} = {w.expr(v.initial)}{bounds}"]
    for t in game.tables.values():
        lines = [f"# source: {t.source}"] if t.source else []
        lines += [f"group by: {t.group_by}"] if t.group_by else []
        lines += [
            f"{i + 1}. {lab}: {list(p)}"
            for i, (lab, p) in enumerate(zip(t.labels, t.patterns, strict=True))
        ]
        out[f"table {t.name}"] = lines
    for dt in game.data_tables.values():
        lines = [f"# {w.citation(dt)}"] if dt.source or dt.interpretation else []
        out[f"table {dt.name}"] = lines + datatable.describe(dt)
    for f in game.functions.values():
        if f.name in game.majorities:
            m = game.majorities[f.name]
            lines = [f"# source: {f.source}"] if f.source else []
            out[f"majority {f.name}({', '.join(f.params)})"] = lines + [
                majority_sentence(m, w.expr)
            ]
            continue
        lines = [f"# source: {f.source}"] if f.source else []
        out[f"function {f.name}({cardkinds.signature(f)})"] = lines + [w.expr(f.body)]
    out["setup"] = w.block(game.setup)
    out["play"] = w.block(game.play)
    for p in game.procedures.values():
        out[f"procedure {p.name}({cardkinds.signature(p)})"] = w.block(p.body)
    out["scoring"] = w.block(game.scoring)
    for i, tb in enumerate(game.tie_breakers):
        lines = [f"# source: {tb.source}"] if tb.source else []
        label = f" ({tb.label})" if tb.label else ""
        out[f"tie-breaker {i + 1}"] = lines + [f"larger wins: {w.expr(tb.key)}{label}"]
    return out


def relative_file(file: str, root: Path | None) -> str:
    """``file`` relative to ``root`` (the rules folder) when inside it, else as given."""
    if root is not None:
        try:
            return Path(file).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return Path(file).as_posix()
