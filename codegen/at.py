"""Where generated code may leave out ``st.at = oN``, the statement an error is reported at.

Both back ends set ``st.at`` to each statement as it starts (the interpreter's BlockOp.step).
What reads it: State._located, for an error raised without a span of its own (a Python error in
the rules, a RuleError of a helper that knows no rule); ``end game`` (``ended_by``); a saved
state or a clone (``at``); and whatever runs after the block's last statement. A write that is
written over before any of these can happen changes nothing, and is left out here when the
generator proves it (``written`` False):

- a block of statements (or an auction, lowered to one): its first statement writes it at once,
  or is itself left out for one of these reasons, down to one that writes it;
- a repeat or while loop: each pass writes it before the loop's condition is evaluated;
- a call of a procedure with statements, its arguments plain values (a local, a literal, a
  variable's value: ``PLAIN``, which cannot fail): the procedure's first statement writes it
  (the depth check before the call fails with its own span);
- a statement that can neither fail nor read it, when another statement of the same block
  comes next (which writes it before anything can read it): a log line (with the log on it
  writes ``st.at`` itself, inside its ``if st.record_log:``, before its text is made), a
  ``let`` or a plain assignment of a plain value (the line of a new turn, for ``turn_player``,
  inside its ``if st.record_log:`` likewise), a call of a procedure without statements with
  plain arguments.

The last statement of a block always writes it (what runs next may read it). The decision
code of a playout (codegen/choice.py, pick.py) writes it only at the statement's start: the
interpreter's State.decide sets ``at`` to the deciding op again after the choice, but nothing
between the statement's start and there writes it (expressions, the chooser, a pick's moves).
"""

from __future__ import annotations

import re
from typing import Any

from meeple.dsl import ir

from .writer import Writer

#: a value whose evaluation cannot fail: a Python name (a local, a constant of the module, None,
#: True, False), a number, a plain string literal, a variable (``st.vars`` has every one)
PLAIN = r"(?:[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+|'[A-Za-z0-9_ ]*'|st\.vars\['[A-Za-z0-9_]+'\])"
#: such a value given a name: st.own cannot fail either (State.own: a pile of a clone's copied)
_OWN = rf"(?:{PLAIN}|st\.own\({PLAIN}\))"
_ARGS = re.compile(rf"(?:_args[0-9]+ = )?\{{(?:'[A-Za-z0-9_]+': {_OWN}(?:, |(?=\}})))*\}}")
_LET = re.compile(rf"env\['[A-Za-z0-9_]+'\] = {_OWN}")
_ASSIGN = re.compile(rf"st\.vars\['[A-Za-z0-9_]+'\] = {PLAIN}")


def put(em: Any, w: Writer, s: ir.Stmt, code: Writer, followed: bool) -> None:
    """Write ``code``, the lines of ``s``, to ``w``, after ``st.at = oN`` unless ``written``
    leaves it out. ``em``: the ModuleEmitter."""
    if written(em, s, code.lines, followed):
        w.line(f"st.at = {em._op(s)}  {em._where(s.span)}")
    w.extend(code)


def written(em: Any, s: ir.Stmt, code: list[str], followed: bool) -> bool:
    """Must ``st.at`` be set to ``s`` before ``code``, its lines (without that write)?
    ``followed``: another statement of its block comes next. ``em``: the ModuleEmitter."""
    first = code[0].strip() if code else ""
    if isinstance(s, ir.Block):
        return not s.stmts
    if isinstance(s, (ir.Repeat, ir.While)):
        return False
    if isinstance(s, ir.CallProc):
        if not _ARGS.fullmatch(first):
            return True
        return not (em.game.procedures[s.name].body.stmts or followed)
    if not followed:
        return True
    if isinstance(s, ir.Log):
        return False
    if isinstance(s, ir.Let):
        return not (len(code) == 1 and _LET.fullmatch(first))
    if isinstance(s, ir.Assign):
        if s.op != "=" or s.index is not None or em.game.variables[s.name].is_track:
            return True
        if not _ASSIGN.fullmatch(first):
            return True
        # the line of a new turn: under ``if st.record_log:``, which writes st.at first
        return not (len(code) == 1 or code[1].strip() == "if st.record_log:")
    return True
