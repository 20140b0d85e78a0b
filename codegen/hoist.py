"""Locals of the rules read once, into Python locals, where the generator proves it exact.

A direct function ``c_N(st, env, pc)`` (codegen/direct.py) reads a local ``p`` of the rules as
``env['p']`` at every use, three times in a seat check. A name that no statement of block N's
subtree binds keeps one value in ``env`` while c_N runs, so c_N may read it once at entry:

- the checker binds names lexically and refuses a read of an unbound name, and no name may be
  bound again where it is visible (dsl/checker.py ``_bind``); so a name read in block N and
  bound nowhere inside it was bound before block N began, resumed at ``pc > 0`` or not (a
  saved state restores ``env`` as it was);
- only statements write ``env`` (let, loop, option, pick and winner names, an auction's; a
  comprehension's or ``move ... where``'s name is put back when it ends, and is a Python local
  in generated code); a statement started through frames (``run_to``) runs its own subtree in
  the same ``env``, and procedures and triggers run with their own dicts;
- every name that any statement of the subtree might bind is counted as bound (``bound_names``
  reads every name-valued field of every statement, option and auction in it), so a name is
  read from a Python local only when nothing in the function can change it.

A hoisted local used as a seat, or as a card of a kind (an index of a zone or variable per
player or per component), is also tested once at entry (``Hoist.checked``): each use reads the
result and calls the check only when the test failed, so the error is the interpreter's, at the
first use that meets it (never at entry, where the interpreter has not used the value yet).

``env`` keeps every value (saves, ``run_to``, the collect and candidates functions read it).
collect_N and the other (st, env) functions never write ``env``: every name they read is read
once. Rule text reaches the code only as a validated name (``literal``), as in the emitter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields, is_dataclass
from typing import Any

from meeple.dsl import ir

from .writer import Writer, literal

#: the fields of a statement (or option, auction, majority) that name a local it binds; other
#: fields of these names (an assignment's variable, a called procedure) are no locals, and
#: counting them as bound only leaves them in ``env``
_BINDING_FIELDS = ("name", "var", "into", "winner", "price_name", "each")


class Hoist:
    """The Python locals of one function: language name -> identifier, made on first read;
    and the checks of some of them made once at entry (``checked``)."""

    def __init__(self, bound: frozenset[str], fresh: Callable[[str], str]) -> None:
        self.bound, self.fresh = bound, fresh
        self.locals: dict[str, str] = {}
        # (identifier, check) -> (local, its value at entry): see checked()
        self.checks: dict[tuple[str, str], tuple[str, str]] = {}

    def local(self, name: str) -> str | None:
        """The Python local that holds ``name`` here, or None if it must be read from env."""
        if name in self.bound:
            return None
        py = self.locals.get(name)
        if py is None:
            py = self.locals[name] = self.fresh("L_" + name)
        return py

    def checked(self, py: str, kind: str | None = None) -> str | None:
        """For the hoisted local ``py``: a local holding, from the function's entry on, its
        value when it is a seat (``kind`` None) or else its ordinal when it is a card of
        ``kind``, and None otherwise; None if ``py`` is no hoisted local. A use then reads
        that local, and only when it is None calls the check (seat(), ordinal()), which fails
        there with its own message and span, as the interpreter's does at that use. The value
        at entry is the value at every use: nothing in the function binds the name (see the
        module docstring), and the test at entry raises nothing (``type`` first)."""
        name = next((n for n, local in self.locals.items() if local == py), None)
        if name is None:
            return None
        key = (py, "" if kind is None else kind)
        found = self.checks.get(key)
        if found is None:
            if kind is None:
                local = self.fresh("S_" + name)
                value = f"{py} if type({py}) is int and 0 <= {py} < num_players else None"
            else:
                local = self.fresh("O_" + name)
                test = f"type({py}) is Card and {py}.kind == {literal(kind)}"
                value = f"{py}.ordinal if {test} else None"
            found = self.checks[key] = (local, value)
        return found[0]


def bound_names(node: Any) -> frozenset[str]:
    """Every local name a statement (a block, an option...) and what it contains might bind:
    an over-approximation (any name-valued field of any statement), never an expression's
    names (a comprehension's is put back when it ends)."""
    found: set[str] = set()
    todo = [node]
    while todo:
        x = todo.pop()
        if isinstance(x, (list, tuple)):
            todo.extend(x)
            continue
        if isinstance(x, ir.Expr) or not is_dataclass(x):
            continue
        if isinstance(x, ir.Pick):
            found.add("picked")  # bound while a pick's condition runs (ops.PickOp)
        for f in fields(x):
            v = getattr(x, f.name)
            if f.name in _BINDING_FIELDS and isinstance(v, str):
                found.add(v)
            elif f.name != "span":
                todo.append(v)
    return frozenset(found)


@contextmanager
def hoisted(ex: Any, w: Writer, bound: frozenset[str]) -> Iterator[Writer]:
    """Write a function body (into the Writer yielded) whose reads of the locals not in
    ``bound`` use Python locals; on exit, ``w`` gets ``LOCAL = env['name']`` for each local
    read, then the body. ``ex`` is the ExprEmitter, whose ``_Name`` asks ``ex.hoist``."""
    body = Writer(w.level)
    before, ex.hoist = ex.hoist, Hoist(bound, ex.fresh)
    try:
        with ex.facts.function():  # (no statement's name is bound around a function)
            yield body
        for name, py in ex.hoist.locals.items():
            w.line(f"{py} = env[{literal(name)}]")
        for local, value in ex.hoist.checks.values():
            w.line(f"{local} = {value}")
    finally:
        ex.hoist = before
    w.extend(body)
