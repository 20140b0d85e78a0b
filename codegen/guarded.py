"""Rules functions written inline in direct code, with the exact code kept for an error.

A rules function that calls another (Sonnenkönig's ``payable(c, p)``, which asks
``is_top(c, p)``) is not a leaf: it is named in the rules trace of an error raised inside it
(``function payable (...)``), so every call goes through ``fn_payable``, whose ``try`` adds that
entry. A pick's condition calls it once per candidate: a Python call per card, where the body is
two comparisons.

Here such a call is written inline, but only in a statement that is guarded as a whole::

    try:
        FOUND = [x for x in SOURCE if FAST]
    except Exception:  # the exact code again: its error, with the rules' trace
        FOUND = [x for x in SOURCE if EXACT]

FAST is the condition with the functions of ``guardable`` inlined, EXACT the condition as
written without this module. That is exact because:

- both compute the same value when neither raises: an inlined body is the function's body with
  its parameters put in (as for a leaf function, codegen/exprs.py), and its calls are of leaf
  functions only (inlined as usual), so inlining ends, and adds at most INLINE_MAX_DEPTH
  levels;
- the statement only evaluates expressions, which never write the state nor ``env`` (what they
  keep is a cache of values that do not change while no statement runs: runtime/tops.py,
  codegen/tally.py, codegen/memo.py's dicts, local to one comprehension), so evaluating it again
  from the start meets the same state, and the exact code raises the interpreter's error, at the
  same place with the same trace, or gives the value;
- the ``try`` costs nothing while nothing raises (Python 3.11's exception tables).

A condition that calls no ``guardable`` function is written once, unguarded. The inline text is
written in a region of its own (codegen/cse.py): it runs first, so it may not read a value the
exact text computes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from meeple.dsl import ir

from .cse import region
from .writer import Writer


def guardable(
    game: ir.Game, inlinable: set[str], depth: Callable[[object], int], limit: int
) -> set[str]:
    """Functions that are not ``inlinable`` but call only functions that are, whose body with
    the deepest of theirs put in is at most ``limit`` levels deep (``depth``: an expression's,
    codegen/exprs.expr_depth; the limit its INLINE_MAX_DEPTH)."""
    out = set()
    for name, f in game.functions.items():
        if name in inlinable:
            continue
        called = _called(f.body, game)
        if not called <= inlinable:
            continue
        inner = max((depth(game.functions[c].body) for c in called), default=0)
        if depth(f.body) + inner <= limit:
            out.add(name)
    return out


def _called(e: object, game: ir.Game) -> set[str]:
    """The rules functions called anywhere in ``e``."""
    out: set[str] = set()
    if isinstance(e, (list, tuple)):
        for x in e:
            out |= _called(x, game)
    elif isinstance(e, ir.Expr):
        if isinstance(e, ir.Call) and e.func in game.functions:
            out.add(e.func)
        for f in e.__dataclass_fields__:
            if f != "span":
                out |= _called(getattr(e, f), game)
    return out


@contextmanager
def inlined(ex: Any) -> Iterator[None]:
    """Expressions written inside by the ExprEmitter ``ex`` inline its ``guardable``
    functions: only for a statement written by ``write_guarded``."""
    saved, ex.guarded = ex.guarded, True
    try:
        yield
    finally:
        ex.guarded = saved


def conds(ex: Any, where: ir.Expr, scope: Any) -> tuple[str, str]:
    """The condition ``where`` written by the ExprEmitter ``ex`` in ``scope``: (fast, exact)
    (one text twice when it calls no ``guardable`` function)."""
    exact = ex.emit(where, scope)
    if not _called(where, ex.prog.game) & ex.guardable:
        return exact, exact
    # its own region (codegen/cse): it runs before the exact text, which it must not read
    with inlined(ex), region(ex):
        fast = ex.emit(where, scope)
    return fast, exact


def write_guarded(w: Writer, target: str, fast: str, exact: str) -> None:
    """``target = fast``, or the exact ``target = exact`` where ``fast`` raises (see the module
    docstring); one line when the two are the same text."""
    if fast == exact:
        w.line(f"{target} = {exact}")
        return
    w.line("try:")
    with w.indent():
        w.line(f"{target} = {fast}")
    w.line("except Exception:  # the exact code again: its error, with the rules' trace")
    with w.indent():
        w.line(f"{target} = {exact}")
