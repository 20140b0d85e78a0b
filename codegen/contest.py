"""Direct code for a ``winner:`` contest (codegen/direct.py): a few lines, its tie asked inline.

The frame-stepping code runs a winner through its op, WinnerOp (runtime/ops.py): ``exec`` calls
``contest``, which calls its closures (the candidates ``among``, the ``strength`` once per
candidate with the candidate bound in ``env``, the tie's ``chooser``), and a tie the chooser
must break goes through a Decision and State.decide. A playout only needs the winner bound.

The front end writes every winner as ``of: MAJORITY(...)`` (dsl/build.py): the candidates are
the majority's holders, each of strength 0, so all of them lead (``same_strength``; the op's
scores, ``max`` and comparisons, all true, are left out). Here such a winner is written as
WinnerOp.exec, WinnerOp.contest, State.decide and WinnerOp.resolve (or ``skip``) run it in a
playout, step by step:

- the leaders: ``list(among)``, in its order;
- two or more lead and the winner has a chooser: the chooser's expression; ``not_self`` drops
  him from the leaders; two or more left: the tie is his. Each leader's action id is computed
  as WinnerOp.exec computes it for the decision (for its error: a none among the leaders); the
  text of the op's log line, made before them, is left out: a formatter fails on no value of
  the leaders' type (a seat, a card, a number, none) where an action id does not. The chooser
  is checked as State.decide checks a decider (its message, the op's span); a chooser out of
  the game leaves the tie unbroken (none wins, after the prompt's text is made, as
  State.decide's log line makes it); else ``st.choose`` over the leaders (the Decision's
  values, in the op's order), ``st.move_number`` counted, and the leader chosen wins;
- otherwise the one leader wins, or none.

``env`` ends as the op leaves it (the op puts the candidate's name back): only the winner's name
is written. ``st.at`` is the winner's op from its start on (codegen/at.py), as after
State.decide. No card moves: owner counts stay (codegen/tally.py). A winner of another strength
(an IR the front end never writes) keeps its op. The frame-stepping code is unchanged, so a
saved state asks and resumes a tie exactly as before; only a playout runs this code, and it is
never saved while it runs. Rule text reaches this code only through the emitter's expression
writer and ``literal``. tests/test_contest.py plays it against the interpreter and breaks it.
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from .exprs import Scope, write_seat_check
from .writer import Writer, literal


def same_strength(s: ir.Winner) -> bool:
    """Is the strength of ``s`` one whole number for every candidate (the front end's 0 for a
    majority's winner: its holders), so that every candidate leads?"""
    e = s.strength
    return isinstance(e, ir.Const) and type(e.value) is int


def write_contest(em: Any, w: Writer, s: ir.Winner) -> None:
    """The winner ``s`` in direct code (see the module docstring); ``em``: the ModuleEmitter,
    which writes every expression, name and span."""
    assert same_strength(s)
    into = f"env[{literal(s.into)}]"
    lead = em.names.fresh("lead")
    one = f"{into} = {lead}[0] if len({lead}) == 1 else None"  # (WinnerOp.exec)
    w.line(f"{lead} = list({em._e(s.among)})")
    if s.chooser is None:
        w.line(one)
        return
    w.line(f"if len({lead}) > 1:  # a tie: its chooser's")
    with w.indent():
        _tie(em, w, s, lead, into, one)
    w.line("else:")
    with w.indent():
        w.line(one)


def _tie(em: Any, w: Writer, s: ir.Winner, lead: str, into: str, one: str) -> None:
    """Two or more lead and ``s`` has a chooser: WinnerOp.contest's rest, exec's decision,
    State.decide and resolve (or skip), with the leaders in the Python local ``lead``; ``one``
    the line that binds the one leader, or none."""
    assert s.chooser is not None
    fresh, span = em.names.fresh, em._span(s.span)
    ch, x, i = fresh("ch"), fresh("x"), fresh("i")
    w.line(f"{ch} = {em._e(s.chooser)}")
    if s.not_self:  # (one leader may be left, or none)
        w.line(f"{lead} = [{x} for {x} in {lead} if {x} != {ch}]")
        w.line(f"if len({lead}) < 2:")
        with w.indent():
            w.line(one)
        w.line("else:")
        w.level += 1
    # what WinnerOp.exec computes though a playout reads none: their errors
    w.line(f"for {x} in {lead}:  # the action ids")
    with w.indent():
        w.line(f"site[{em.numbering.site_of[id(s)]}].action({x})")
    write_seat_check(w, ch, span)  # State.decide's
    w.line(f"if {ch} in st.players:")
    with w.indent():
        w.line(f"{i} = st.choose(len({lead}))")
        w.line("st.move_number += 1")  # (st.at: still this statement, codegen/at.py)
        w.line(f"{into} = {lead}[{i}]")
    w.line("else:  # out of the game: the tie stays unbroken")
    with w.indent():
        if not all(isinstance(p, str) for p in s.prompt):  # (State.decide's log line's)
            w.line(em.ex.template(s.prompt, Scope()))
        w.line(f"{into} = None")
    if s.not_self:
        w.level -= 1
