"""Why a game ended, in rule terms: the rule that ended it and the part of its condition that
held (``count(house[p]) == 0 for p = P4``), with the rulebook section and file:line.

The state records which rule ended the game at the source (``State.ended_by``: the uid of the
`end game` statement, the same on both back ends; None when the play block ran to its end). The
wording is derived here from the checked rules and evaluated on the final state with the
interpreter (a compiled back end's state is read into an interpreter state first: same layout).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from meeple.dsl import ir
from meeple.dsl.errors import MeepleError, SourceSpan
from meeple.dsl.render import ExprWriter, children, relative_file
from meeple.interpreter.game import Game
from meeple.interpreter.program import Program
from meeple.runtime.state import State
from meeple.runtime.values import player_name

from .registry import rules_root

# a comprehension over one of these ranges over seats (ints in the state, P1..Pn when shown)
_SEAT_WORDS = ("players", "others", "clockwise", "seat")
_LOOPS = (ir.Repeat, ir.While, ir.For)
_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in")


def end_reason(game: Game, state: State) -> str:
    """Why the game of ``state`` (a state of ``game``, either back end) ended, as one line:
    ``"<what held> (<rulebook section>, <file>:<line>)"``. Raises MeepleError if it is not over."""
    if not state.is_terminal():
        raise MeepleError("the game is not over: it has no end reason yet")
    st = state
    if not isinstance(state.prog, Program):  # the compiled back end: evaluate on the interpreter
        st = State.from_json(Program(game.checked, state.prog.num_players), state.to_json())
    g = game.checked.game
    if state.ended_by is not None:
        span = st.prog.ops[state.ended_by].span
        path = _path_to(g, span)
        cond = next((n.test for n in reversed(path) if isinstance(n, ir.If)), None)
        section = next((n.source for n in reversed(path) if getattr(n, "source", None)), None)
        what = "`end game`" if cond is None else _Why(st).held(cond, {})
        return f"{what} ({_cite(section, span)})"
    if g.structure is not None and g.structure.rounds is not None:  # play: declares rounds
        cite = _cite(g.play.source, g.structure.rounds.span)
        return f"the last round, round {st.vars['round']}, was played ({cite})"
    loop = next((s for s in reversed(g.play.stmts) if isinstance(s, _LOOPS)), None)
    if loop is None:
        return f"the play ran to its end ({_cite(g.play.source, g.play.span)})"
    if isinstance(loop, ir.For):  # `for: r in 1..5`: its last pass was played
        cite = _cite(loop.body.source or g.play.source, loop.span)
        over = ExprWriter().expr(loop.iter)
        return f"the last pass of for {loop.var} in {over} was played ({cite})"
    if isinstance(loop, ir.Repeat):
        cond = loop.until
    else:  # a while loop ends when its test fails
        cond = ir.Unary(span=loop.span, op="not", operand=loop.test)
    why = _Why(st)
    what = why.held(cond, {})
    return f"{what} ({_cite(why.section or g.play.source, loop.span)})"


def _cite(section: str | None, span: SourceSpan) -> str:
    # the file as `meeple check` names it: from the current folder when inside it (a rules
    # folder given as rules/harbour-guilds), else from the shipped rules' folder
    here = Path.cwd().resolve()
    path = Path(span.file).resolve()
    shown = path.relative_to(here).as_posix() if path.is_relative_to(here) else None
    where = f"{shown or relative_file(span.file, rules_root())}:{span.line}"
    return f"{section}, {where}" if section else where


def _path_to(root: ir.Game, span: SourceSpan) -> list[Any]:
    """The IR nodes from a top block down to the statement at ``span`` (empty if none)."""
    tops: list[Any] = [root.setup, root.play, root.scoring, *root.procedures.values()]
    tops += list(root.triggers.values())
    tops += [s.body for v in root.variables.values() for s in v.spaces]  # tracks' spaces

    def down(node: Any, path: list[Any]) -> Iterator[list[Any]]:
        path = [*path, node]
        if isinstance(node, ir.EndGame) and node.span == span:
            yield path
        for c in children(node):
            yield from down(c, path)

    for t in tops:
        for found in down(t, []):
            return found
    return []


class _Why:
    """Which parts of a condition that is true made it true, with the values that did."""

    def __init__(self, st: State) -> None:
        self.st, self.w = st, ExprWriter()
        self.section: str | None = None  # the source of the rules function looked into

    def value(self, e: ir.Expr, env: dict[str, Any]) -> Any:
        prog = self.st.prog
        assert isinstance(prog, Program)
        return prog.ex.compile(e)(self.st, env)

    def held(self, e: ir.Expr, env: dict[str, Any]) -> str:
        try:
            parts = self._parts(e, env, 0)
        except Exception:  # a name of the rule is gone (a local): the condition as written
            parts = []
        return "; ".join(parts) or self.w.expr(e)

    def _parts(self, e: ir.Expr, env: dict[str, Any], depth: int) -> list[str]:
        g = self.st.prog.game
        if isinstance(e, ir.BinOp) and e.op == "or":
            out = []
            for side in (e.left, e.right):
                if self.value(side, env):
                    out += self._parts(side, env, depth)
            return out
        if (
            isinstance(e, ir.Call)
            and g is not None
            and e.func in g.functions
            and depth < 4
            and not e.kwargs
        ):
            f = g.functions[e.func]
            inner = dict(zip(f.params, (self.value(a, env) for a in e.args), strict=True))
            if self.section is None:
                self.section = f.source
            return self._parts(f.body, inner, depth + 1)
        if isinstance(e, ir.Call) and e.func == "any" and len(e.args) == 1:
            c = e.args[0]
            if isinstance(c, ir.Comprehension):
                seats = any(w in self.w.expr(c.iter) for w in _SEAT_WORDS)
                seen = []
                for x in self.value(c.iter, env):
                    inner = {**env, c.var: x}
                    if (c.cond is None or self.value(c.cond, inner)) and self.value(c.elt, inner):
                        shown = player_name(x) if seats and type(x) is int else _show(x)
                        seen.append(f"{self.w.expr(c.elt)} for {c.var} = {shown}")
                return seen
        text = self.w.expr(e)
        if isinstance(e, ir.BinOp) and e.op in _COMPARISONS:
            left, right = self.value(e.left, env), self.value(e.right, env)
            shown = f"{_show(left)} {e.op} {_show(right)}"
            if shown != text:
                text += f" (here {shown})"
        return [text]


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, int):
        return str(v)
    return str(getattr(v, "name", v))
