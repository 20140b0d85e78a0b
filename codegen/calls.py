"""May a generated module leave out the depth count of its rules functions?

The interpreter counts the calls of the rules functions that call functions (evaluate's
``counted_call``: ``st.calls``, one more while each runs) and refuses one made at
MAX_CALL_DEPTH calls deep, at the call. ``st.calls`` is read nowhere else, and only functions
raise it: a statement's expression starts at 0. While a function runs, every function below it
on the stack is a different one unless one calls itself, directly or not; so in a game where
no function does, and that has at most MAX_CALL_DEPTH functions, no call is ever that deep:
the check never refuses one and the count is never read. A generated function may then leave
both out (codegen/emitter.py's ``_function``); it still names itself in the rules trace of an
error inside it, as counted_call does.
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir
from meeple.dsl.limits import MAX_CALL_DEPTH


def never_deep(game: ir.Game) -> bool:
    """True when no rules function of ``game`` can be called MAX_CALL_DEPTH deep: none calls
    itself, directly or through others, and there are at most MAX_CALL_DEPTH of them (the
    deepest call then has the others below it: one less than the limit)."""
    if len(game.functions) > MAX_CALL_DEPTH:
        return False
    calls = {name: _called(f.body, game) for name, f in game.functions.items()}
    done: set[str] = set()
    for start in calls:  # a depth-first walk from each function; a name met on its own path
        if start in done:  # is a cycle
            continue
        path, todo = {start}, [(start, iter(calls[start]))]
        while todo:
            name, rest = todo[-1]
            nxt = next(rest, None)
            if nxt is None:
                todo.pop()
                path.discard(name)
                done.add(name)
            elif nxt in path:
                return False
            elif nxt not in done:
                path.add(nxt)
                todo.append((nxt, iter(calls[nxt])))
    return True


def _called(e: Any, game: ir.Game) -> set[str]:
    """The rules functions an expression calls (anywhere in it)."""
    found: set[str] = set()
    todo = [e]
    while todo:
        x = todo.pop()
        if isinstance(x, (list, tuple)):
            todo.extend(x)
        elif isinstance(x, ir.Expr):
            if isinstance(x, ir.Call) and x.func in game.functions:
                found.add(x.func)
            todo.extend(getattr(x, f) for f in x.__dataclass_fields__ if f != "span")
    return found
