"""Parse expression and statement strings with the Lark grammar into IR nodes.

Positions are mapped from the string back into the YAML file, so a syntax error or a later check
error points at the true line and column.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from . import ir
from .builtins import PASSED
from .errors import ParseError, SourceSpan
from .limits import MAX_EXPR_DEPTH, MAX_INT, MAX_NAME_LENGTH
from .yamlload import YStr

_TOKEN_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted string",
    "COMP_OP": "a comparison",
    "ASSIGN_OP": "'=', '+=' or '-='",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "STAR": "'*'",
    "PERCENT": "'%'",
    "EQUAL": "'='",
    "$END": "end of text",
    "<END-OF-FILE>": "end of text",
}


@lru_cache(maxsize=1)
def _lark() -> Lark:
    text = resources.files("meeple.dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", start=["expression", "statement"], propagate_positions=True)


def _words(expected: set[str]) -> str:
    names = []
    for tok in sorted(expected):
        if tok in _TOKEN_WORDS:
            names.append(_TOKEN_WORDS[tok])
        elif tok.isupper() and not tok.startswith("__"):
            names.append(f"'{tok.lower()}'")
        elif tok.startswith("__ANON") or tok.startswith("_"):
            continue
        else:
            names.append(f"'{tok.lower()}'")
    names = sorted(set(names))
    if len(names) > 8:
        names = names[:8] + ["..."]
    return ", ".join(names) if names else "something else"


class _Locator:
    """Turns positions inside a parsed string into file spans."""

    def __init__(self, text: str, origin: SourceSpan | YStr | None) -> None:
        self.text = text
        self.origin = origin
        self.line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def offset(self, line: int, col: int) -> int:
        return self.line_starts[line - 1] + col - 1

    def span(self, start: int, end: int | None = None) -> SourceSpan:
        o = self.origin
        if isinstance(o, YStr):
            return o.span_at(start, end)
        if isinstance(o, SourceSpan):
            return SourceSpan(o.file, o.line, o.col + start, o.line, o.col + (end or start + 1))
        return SourceSpan("<string>", 1, start + 1, 1, (end or start + 1) + 1)


def parse_expression(text: str, origin: SourceSpan | YStr | None = None) -> ir.Expr:
    """Parse an expression string. ``origin`` (a YStr from the loader, or a span) places it in
    its file. Raises ParseError at the offending character."""
    return _parse(text, "expression", origin)  # type: ignore[no-any-return]


def parse_statement(text: str, origin: SourceSpan | YStr | None = None) -> ir.Stmt:
    """Parse a single statement string (see parse_expression)."""
    return _parse(text, "statement", origin)  # type: ignore[no-any-return]


def _parse(text: str, start: str, origin: SourceSpan | YStr | None) -> Any:
    loc = _Locator(
        text, origin if origin is not None else (text if isinstance(text, YStr) else None)
    )
    _check_brackets(text, loc)
    try:
        tree = _lark().parse(text, start=start)
    except UnexpectedInput as e:
        raise _syntax_error(e, text, start, loc) from None
    _check_tree(tree, loc)  # before the transformer, which recurses once per level
    try:
        return _ToIR(loc).transform(tree).children[0]
    except VisitError as e:  # an error raised inside a transformer method: ours, unwrapped
        if isinstance(e.orig_exc, ParseError):
            raise e.orig_exc from None
        raise


_DEPTH_HINT = "give a part a name with 'let' (or a function), or add many terms with sum([...])"
# Helper rules of the grammar that add no level of their own to an expression.
_FLAT_RULES = frozenset(
    {"expression", "statement", "arglist", "kwarg", "comp_for", "target", "dest_top", "dest_bottom"}
)


def _brackets(text: str) -> Iterator[tuple[int, str]]:
    """The position and character of each bracket of ``text`` outside quoted text (a quote ends
    at its closing quote or at the end of the line)."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote or ch == "\n":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "()[]":
            yield i, ch


def _check_brackets(text: str, loc: _Locator) -> None:
    """Refuse brackets nested deeper than MAX_EXPR_DEPTH (each one is a level), before Lark."""
    depth = 0
    for i, ch in _brackets(text):
        if ch in "([":
            depth += 1
            if depth > MAX_EXPR_DEPTH:
                raise ParseError(
                    f"brackets nest deeper than {MAX_EXPR_DEPTH} levels here (MAX_EXPR_DEPTH)",
                    loc.span(i, i + 1),
                    suggestion=_DEPTH_HINT,
                )
        else:
            depth = max(depth - 1, 0)


def _check_tree(tree: Tree, loc: _Locator) -> None:  # type: ignore[type-arg]
    """Refuse, without recursion, an expression nested deeper than MAX_EXPR_DEPTH, a name longer
    than MAX_NAME_LENGTH and a number beyond MAX_INT; each at its place."""
    # each entry: a node, its depth, and the length of the row of operators it ends or hangs
    # from (a + b + c ...: the grammar nests each '+' in the one before it; see _ROWS)
    todo: list[tuple[Any, int, int]] = [(tree, 0, 0)]
    while todo:
        node, depth, row = todo.pop()  # row: of the operator it is, or else of its parent
        if isinstance(node, Token):
            if node.type == "NAME" and len(node) > MAX_NAME_LENGTH:
                a = loc.offset(node.line or 1, node.column or 1)
                raise ParseError(
                    f"the name '{node[:20]}...' is {len(node)} characters long",
                    loc.span(a, a + len(node)),
                    expected=f"a name of at most {MAX_NAME_LENGTH} characters (MAX_NAME_LENGTH)",
                )
            if node.type == "INT" and len(node) > len(str(MAX_INT)):
                a = loc.offset(node.line or 1, node.column or 1)
                more = f"{node[:12]}... ({len(node)} digits)" if len(node) > 20 else str(node)
                raise ParseError(
                    f"the number {more} is too large",
                    loc.span(a, a + len(node)),
                    expected=f"a number from -{MAX_INT} to {MAX_INT} (MAX_INT)",
                )
            continue
        if not isinstance(node, Tree):
            continue
        if node.data not in _FLAT_RULES:
            depth += 1
            if depth > MAX_EXPR_DEPTH:
                meta = node.meta
                a = 0 if getattr(meta, "empty", True) else loc.offset(meta.line, meta.column)
                if row > MAX_EXPR_DEPTH // 2:
                    # flat to its author, but the transformer recurses once per operator
                    message = (
                        f"the expression has more than {MAX_EXPR_DEPTH} levels here: a row of "
                        "operators (a + b + c ...) counts one level per operator "
                        "(MAX_EXPR_DEPTH)"
                    )
                else:
                    message = (
                        f"the expression nests deeper than {MAX_EXPR_DEPTH} levels here "
                        "(MAX_EXPR_DEPTH)"
                    )
                raise ParseError(message, loc.span(a, a + 1), suggestion=_DEPTH_HINT)
        # the first child is taken first: a too-long left-nested sum is reported at its start
        family = _row_of(node)
        for i in reversed(range(len(node.children))):
            child = node.children[i]
            # the left operand continues the row when it is an operator of the same family
            own = _row_of(child) if isinstance(child, Tree) else frozenset()
            if own:
                todo.append((child, depth, row + 1 if i == 0 and own == family else 1))
            else:  # an operand: it hangs from its parent's row
                todo.append((child, depth, row if family else 0))


#: Operators an author writes in a row (a + b - c, a * b // c, a and b and c): the grammar
#: nests each one in the one before it, a level each.
_ROWS = ({"add", "sub"}, {"mul", "floordiv", "mod"}, {"and_"}, {"or_"})


def _row_of(node: Tree) -> frozenset[str]:  # type: ignore[type-arg]
    """The family of row operators ``node`` is one of (see _ROWS); empty if none."""
    for family in _ROWS:
        if node.data in family:
            return frozenset(family)
    return frozenset()


def _syntax_error(e: UnexpectedInput, text: str, start: str, loc: _Locator) -> ParseError:
    what = "an expression" if start == "expression" else "a statement"
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        off = len(text.rstrip())
        expected = _words(_fit_closers(set(e.expected), text))
        return ParseError(f"{what} ends too early", loc.span(max(off - 1, 0)), expected=expected)
    if isinstance(e, UnexpectedToken):
        off = loc.offset(e.line, e.column)
        misspelt = _misspelt_keyword(text, off) if start == "statement" else None
        if misspelt is not None:
            a, b, guess = misspelt
            return ParseError(
                f"'{text[a:b]}' does not begin a statement",
                loc.span(a, b),
                expected="a statement: let, move, shuffle, log, end game, eliminate, an "
                "assignment or a procedure call",
                suggestion=f"did you mean '{guess}'?",
            )
        tok = str(e.token)
        word = _WORD.match(text, off)
        if word and len(word.group()) > len(tok):  # 'form' lexed as the keyword 'for'
            tok = word.group()
        power = tok == "*" and text[off - 1 : off] == "*"  # x ** 2: the second '*' fails
        return ParseError(
            f"unexpected '{tok}' in {what}",
            loc.span(off, off + len(tok)),
            expected=_words(_fit_closers(set(e.expected), text[:off])),
            suggestion=_POWER_HINT if power else _hint(tok),
        )
    assert isinstance(e, UnexpectedCharacters)
    off = loc.offset(e.line, e.column)
    ch = text[off] if off < len(text) else "?"
    return ParseError(
        f"unexpected character '{ch}' in {what}",
        loc.span(off, off + 1),
        expected=_words(_fit_closers(set(e.allowed), text[:off])) if e.allowed else None,
        suggestion=_hint(ch),
    )


_STATEMENT_WORDS = ("let", "move", "shuffle", "log", "end", "eliminate")


def _misspelt_keyword(text: str, off: int) -> tuple[int, int, str] | None:
    """(start, end, keyword) when the statement fails right after a first word that is a near
    miss of a statement keyword (``shufle draw_pile``)."""
    first = _WORD.match(text, len(text) - len(text.lstrip()))
    if first is None or first.group() in _STATEMENT_WORDS:
        return None
    if text[first.end() : off].strip():  # the failure is further on: not about the first word
        return None
    close = difflib.get_close_matches(first.group(), _STATEMENT_WORDS, n=1, cutoff=0.7)
    return (first.start(), first.end(), close[0]) if close else None


def _fit_closers(expected: set[str], before: str) -> set[str]:
    """The tokens Lark expects, without the closing brackets that cannot come here: its LALR
    states are shared between ``(...)`` and ``[...]``, so after ``sum(x for x in y`` it also
    offers ']'. Only the closer of the innermost bracket still open in ``before`` is kept."""
    opened: list[str] = []
    for _, ch in _brackets(before):
        if ch in "([":
            opened.append(ch)
        elif opened:
            opened.pop()
    keep = {"(": "RPAR", "[": "RSQB"}[opened[-1]] if opened else None
    return {t for t in expected if t not in ("RPAR", "RSQB") or t == keep}


#: meeple's numbers are whole numbers (docs/language.md, "Arithmetic"): no '/' and no '**'.
_DIVISION_HINT = (
    "numbers are whole numbers: divide with '//' (rounding down: 7 // 2 is 3) "
    "and take the remainder with '%'"
)
_POWER_HINT = "there is no power operator: multiply (x * x)"


def _hint(tok: str) -> str | None:
    hints = {
        "/": _DIVISION_HINT,
        "&&": "use 'and'",
        "&": "use 'and'",
        "||": "use 'or'",
        "|": "use 'or'",
        "!": "use 'not' or '!='",
        "=": "use '==' to compare",
        "{": "braces are only for {expr} inside log and label text",
    }
    return hints.get(tok)


_INTERP = re.compile(r"\{([^{}]*)\}")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parse_template(text: str, origin: YStr | SourceSpan | None = None) -> tuple[str | ir.Expr, ...]:
    """Split text with ``{expr}`` holes into literal strings and parsed expressions."""
    parts: list[str | ir.Expr] = []
    pos = 0
    for m in _INTERP.finditer(text):
        if m.start() > pos:
            parts.append(text[pos : m.start()])
        inner = m.group(1)
        sub: YStr | SourceSpan | None = None
        if isinstance(origin, YStr):
            sub = _substr(origin, m.start(1), m.end(1))
        parts.append(_parse(inner, "expression", sub))
        pos = m.end()
    if pos < len(text):
        parts.append(text[pos:])
    return tuple(parts)


def _substr(s: YStr, a: int, b: int) -> YStr:
    out = YStr(s[a:b])
    out.source, out.span = s.source, s.span_at(a, b)
    out.offsets = s.offsets[a:b]
    return out


@v_args(meta=True)
class _ToIR(Transformer):  # type: ignore[type-arg]
    """Lark tree -> IR, one method per aliased rule."""

    def __init__(self, loc: _Locator) -> None:
        super().__init__()
        self.loc = loc

    def _span(self, meta: Any) -> SourceSpan:
        if getattr(meta, "empty", True):
            return self.loc.span(0)
        a = self.loc.offset(meta.line, meta.column)
        b = self.loc.offset(meta.end_line, meta.end_column)
        return self.loc.span(a, b)

    def _tok_span(self, tok: Token) -> SourceSpan:
        a = self.loc.offset(tok.line or 1, tok.column or 1)
        return self.loc.span(a, a + len(tok))

    # -- start rules
    def expression(self, meta: Any, ch: list[Any]) -> Tree:  # type: ignore[type-arg]
        return Tree("expression", ch)

    def statement(self, meta: Any, ch: list[Any]) -> Tree:  # type: ignore[type-arg]
        return Tree("statement", ch)

    # -- statements
    def let_stmt(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        return ir.Let(self._span(meta), str(ch[0]), ch[1])

    def target(self, meta: Any, ch: list[Any]) -> tuple[str, ir.Expr | None]:
        return str(ch[0]), (ch[1] if len(ch) > 1 else None)

    def assign_stmt(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        (name, index), op, value = ch
        return ir.Assign(self._span(meta), name, index, str(op), value)

    def dest_top(self, meta: Any, ch: list[Any]) -> tuple[ir.Expr, bool]:
        return ch[0], False

    def dest_bottom(self, meta: Any, ch: list[Any]) -> tuple[ir.Expr, bool]:
        return ch[0], True

    def move_items(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        dest, bottom = ch[1]
        return ir.Move(self._span(meta), ch[0], None, None, dest, bottom)

    def move_count(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        dest, bottom = ch[2]
        return ir.Move(self._span(meta), None, ch[0], ch[1], dest, bottom)

    def move_where(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        dest, bottom = ch[3]
        return ir.Move(self._span(meta), None, ch[0], ch[2], dest, bottom, where=ch[1])

    def shuffle_stmt(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        return ir.Shuffle(self._span(meta), ch[0])

    def end_stmt(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        return ir.EndGame(self._span(meta))

    def pass_stmt(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        # the seat whose turn it is passes: see dsl/structure.py (until: all_passed)
        sp = self._span(meta)
        turn = ir.Name(sp, "turn_player")
        return ir.Assign(sp, PASSED, turn, "=", ir.Const(sp, True), position=True)

    def eliminate_stmt(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        return ir.Eliminate(self._span(meta), ch[0])

    def log_stmt(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        tok: Token = ch[0]
        a = self.loc.offset(tok.line or 1, tok.column or 1) + 1
        raw = str(tok)[1:-1]
        origin = self.loc.origin
        sub: YStr | None = _substr(origin, a, a + len(raw)) if isinstance(origin, YStr) else None
        return ir.Log(self._span(meta), parse_template(raw, sub))

    def call_stmt(self, meta: Any, ch: list[Any]) -> ir.Stmt:
        args, kwargs = ch[1] if len(ch) > 1 and ch[1] is not None else ((), ())
        if kwargs:
            raise ParseError("procedure calls take no named arguments", self._span(meta))
        return ir.CallProc(self._span(meta), str(ch[0]), args)

    # -- expressions
    def conditional(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Cond(self._span(meta), ch[1], ch[0], ch[2])

    def _bin(op: str) -> Any:  # type: ignore[misc]  # noqa: N805
        def method(self: _ToIR, meta: Any, ch: list[Any]) -> ir.Expr:
            return ir.BinOp(self._span(meta), op, ch[0], ch[-1])

        return method

    or_ = _bin("or")
    and_ = _bin("and")
    in_ = _bin("in")
    not_in = _bin("not in")
    span = _bin("..")
    add = _bin("+")
    sub = _bin("-")
    mul = _bin("*")
    floordiv = _bin("//")
    mod = _bin("%")

    def compare(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.BinOp(self._span(meta), str(ch[1]), ch[0], ch[2])

    def not_(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Unary(self._span(meta), "not", ch[0])

    def neg(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Unary(self._span(meta), "-", ch[0])

    def attr(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Attr(self._span(meta), ch[0], str(ch[1]))

    def index(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Index(self._span(meta), ch[0], ch[1])

    def index_keys(self, meta: Any, ch: list[Any]) -> ir.Expr:
        # a data table's row by several keys, deal[num_players, s]: the keys are a list, so
        # deal[[num_players, s]] is the same tree (and prints back as deal[num_players, s])
        span = self._span(meta)
        return ir.Index(span, ch[0], ir.ListLit(span, tuple(ch[1:])))

    def arglist(self, meta: Any, ch: list[Any]) -> tuple[tuple[ir.Expr, ...], tuple[Any, ...]]:
        args = tuple(c for c in ch if not isinstance(c, tuple))
        kwargs = tuple(c for c in ch if isinstance(c, tuple))
        return args, kwargs

    def kwarg(self, meta: Any, ch: list[Any]) -> tuple[str, ir.Expr]:
        return str(ch[0]), ch[1]

    def call(self, meta: Any, ch: list[Any]) -> ir.Expr:
        args, kwargs = ch[1] if len(ch) > 1 and ch[1] is not None else ((), ())
        return ir.Call(self._span(meta), str(ch[0]), args, kwargs)

    def comp_for(self, meta: Any, ch: list[Any]) -> tuple[str, ir.Expr, ir.Expr | None]:
        return str(ch[0]), ch[1], (ch[2] if len(ch) > 2 else None)

    def call_gen(self, meta: Any, ch: list[Any]) -> ir.Expr:
        var, it, cond = ch[2]
        comp = ir.Comprehension(self._span(meta), ch[1], var, it, cond)
        return ir.Call(self._span(meta), str(ch[0]), (comp,))

    def listcomp(self, meta: Any, ch: list[Any]) -> ir.Expr:
        var, it, cond = ch[1]
        return ir.Comprehension(self._span(meta), ch[0], var, it, cond)

    def list_(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.ListLit(self._span(meta), tuple(c for c in ch if c is not None))

    def number(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Const(self._span(meta), int(ch[0]))

    def string(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Const(self._span(meta), str(ch[0])[1:-1])

    def true(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Const(self._span(meta), True)

    def false(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Const(self._span(meta), False)

    def none(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Const(self._span(meta), None)

    def name(self, meta: Any, ch: list[Any]) -> ir.Expr:
        return ir.Name(self._tok_span(ch[0]), str(ch[0]))
