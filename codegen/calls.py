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

Procedures likewise (``ProcedureDepth``): enter_procedure refuses a call when MAX_CALL_DEPTH
procedures run already (their frames, and those a module runs as Python calls: ``st.inline``).
A procedure runs inside the one that started it: called in its body, or in the body of a
trigger its moves set off or of a track space its assignments cross (pushed on its frames),
through any chain of those. Where no procedure below a call can have been started inside itself
that way, the procedures running below it are all different: a game started afresh has fewer
than it has procedures, and a state resumed from a save (whose trigger frames may sit anywhere)
adds at most the ones its frames hold. runtime/playout.py runs a playout's direct code only
when these two stay below the limit (``P.procedure_chain``); that code then checks only the
calls a recursive procedure may lie below, and counts only the calls such a check may count
(codegen/direct.py). The frame-stepping code counts and checks every call, as the interpreter.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from meeple.dsl import ir
from meeple.dsl.limits import MAX_CALL_DEPTH

#: a procedure, trigger or track space of a game: ("proc", name), ("trigger", name) or ("space",
#: variable, index of the space)
Unit = tuple[str, ...]


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


class ProcedureDepth:
    """Which procedure calls of a game's direct code must be checked and counted (see the
    module docstring). A *unit* is a procedure, trigger or track space: what runs in its own
    frame when started. A procedure that can be started inside itself is recursive; the units
    it can start, and it, are *deep*: there a call can be made at any depth. Elsewhere the
    procedures running below a call are all different (a repeated one would be recursive, the
    call's unit below it deep). So, in a playout that runtime/playout.py lets run the direct
    code (the procedures of the saved frames plus ``bound`` stay below MAX_CALL_DEPTH):

    - a call made in a block of a unit that is not deep (``checked`` False) is never refused,
      and needs no check;
    - a call of a procedure whose run can reach no check (no deep unit that calls a procedure
      runs inside it: ``counted`` False) need not be counted in ``st.inline``: every check is
      made where all the calls below it were counted, as the interpreter counts its frames."""

    def __init__(self, game: ir.Game) -> None:
        bodies: dict[Unit, ir.Block] = {("proc", n): p.body for n, p in game.procedures.items()}
        bodies.update({("trigger", n): t.body for n, t in game.triggers.items()})
        for v in game.variables.values():
            bodies.update({("space", v.name, str(i)): sp.body for i, sp in enumerate(v.spaces)})
        starts = {unit: _started(body, game) for unit, body in bodies.items()}
        reach = {unit: _reach(unit, starts) for unit in bodies}
        deep: set[Unit] = set()
        for unit in bodies:
            if unit[0] == "proc" and unit in reach[unit]:  # (a cycle of triggers alone adds
                deep |= {unit} | reach[unit]  # frames, not procedures)
        calling = {u for u in deep if any(v[0] == "proc" for v in starts[u])}
        #: how many procedures can run at once, one inside the other, below a call that is not
        #: checked (all different): the number of procedures
        self.bound = len(game.procedures)
        self._counted = {
            n for n in game.procedures if calling & (reach[("proc", n)] | {("proc", n)})
        }
        self._deep_blocks = {id(b) for u in deep for b in _blocks(bodies[u])}

    def checked(self, block: ir.Block) -> bool:
        """Must a call made in ``block`` (any block of the rules) be checked?"""
        return id(block) in self._deep_blocks

    def counted(self, proc: str) -> bool:
        """Must a call of the procedure ``proc`` be counted in ``st.inline``?"""
        return proc in self._counted


def _reach(unit: Unit, starts: dict[Unit, set[Unit]]) -> set[Unit]:
    """The units that ``unit`` may start, directly or through others (itself if on a cycle)."""
    seen: set[Unit] = set()
    todo = list(starts[unit])
    while todo:
        u = todo.pop()
        if u not in seen:
            seen.add(u)
            todo.extend(starts.get(u, ()))
    return seen


def _blocks(body: ir.Block) -> list[ir.Block]:
    """The blocks of a body: itself and every block inside it."""
    found, todo = [], [body]
    while todo:
        x = todo.pop()
        if isinstance(x, (list, tuple)):
            todo.extend(x)
        elif is_dataclass(x) and not isinstance(x, ir.Expr):
            if isinstance(x, ir.Block):
                found.append(x)
            todo.extend(getattr(x, f.name) for f in fields(x) if f.name != "span")
    return found


def _started(body: ir.Block, game: ir.Game) -> set[Unit]:
    """The procedures, triggers and track spaces a body may start while it runs: the procedures
    it calls, the triggers of the zones it moves cards to (all of them where a move's zone is
    a local: any zone), the spaces of the tracks it assigns. A trigger fires only on a move
    statement and a space only on an assignment (interpreter/program.py: fire, reach)."""
    found: set[Unit] = set()
    todo: list[Any] = [body]
    while todo:
        x = todo.pop()
        if isinstance(x, (list, tuple)):
            todo.extend(x)
            continue
        if isinstance(x, ir.Expr) or not is_dataclass(x):
            continue  # (an expression starts nothing: a rules function calls no procedure)
        if isinstance(x, ir.CallProc):
            found.add(("proc", x.name))
        elif isinstance(x, ir.Move):
            d = x.dest.obj if isinstance(x.dest, ir.Index) else x.dest
            zone = d.id if isinstance(d, ir.Name) and d.id in game.zones else None
            found |= {("trigger", n) for n, t in game.triggers.items() if zone in (None, t.zone)}
        elif isinstance(x, ir.Assign) and x.name in game.variables:
            spaces = game.variables[x.name].spaces
            found |= {("space", x.name, str(i)) for i in range(len(spaces))}
        todo.extend(getattr(x, f.name) for f in fields(x) if f.name != "span")
    return found


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
