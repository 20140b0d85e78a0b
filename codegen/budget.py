"""The work budget in generated code (dsl/work.py): the charges the interpreter makes with
``runtime.helpers.charge``, written inline as a few lines of the same meaning, so that both back
ends stop a runaway loop or recursion with the same RuleError at the same point.

- A ``while``/``repeat`` pass that asked no decision charges the loop's pass cost before the
  condition is asked again (``RepeatOp.step``). Where the body may ask a decision (direct code,
  ``st.choose`` inline), the pass keeps the move number it began at and charges only when that
  is still the move number; a body that cannot ask charges every pass.
- A call of a function or procedure of a call cycle charges its body's bound as it enters,
  after the depth check (``counted_call``, ``CallOp.exec``).

Nothing is written for the shipped games' loops over items (``for``, comprehensions): their
work is bounded by the front end. A charge costs a few attribute reads and an addition.
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from .writer import Writer


def write_charge(w: Writer, cost: int, span: str) -> None:
    """``runtime.helpers.charge(st, cost, span)`` inline (``span``: the span's text)."""
    w.line("if st.work_move == st.move_number:")
    with w.indent():
        w.line(f"st.work += {cost}")
        w.line("if st.work > MAX_STEP_WORK:")
        with w.indent():
            w.line(f"raise too_much_work({span})")
    w.line("else:")
    with w.indent():
        w.line("st.work_move = st.move_number")
        w.line(f"st.work = {cost}")


def loop_decides(em: Any, s: ir.Repeat | ir.While, cond: ir.Expr) -> bool:
    """May a pass of ``s`` (its condition or its body) ask a decision?"""
    work = em.checked.work
    return bool(work.may_decide(cond) or work.may_decide(s.body))


def write_pass_start(w: Writer, mark: str | None) -> None:
    """At a pass's start: keep the move number it begins at (``mark``: its local, None where
    the body cannot ask a decision)."""
    if mark is not None:
        w.line(f"{mark} = st.move_number")


def write_pass_end(w: Writer, cost: int, span: str, passes: str, mark: str | None) -> None:
    """At the top of a loop, before its condition: charge the pass that just ended (none
    before the first, ``passes`` 0), unless it asked a decision (``mark``)."""
    if mark is None:
        w.line(f"if {passes}:")
    else:
        w.line(f"if {passes} and {mark} == st.move_number:")
    with w.indent():
        write_charge(w, cost, span)


def write_call_charge(em: Any, w: Writer, key: str, span: str) -> None:
    """The charge of a call of ``key`` (``f:NAME``, ``p:NAME``) where it is part of a call
    cycle; nothing otherwise."""
    cost = em.checked.work.call_charge(key)
    if cost is not None:
        write_charge(w, cost, span)
