"""Direct code for a pick of exactly one item (``count: 1``), straight-line (codegen/pick.py).

pick.py writes run_pick's loop for every pick: the bounds evaluated and checked, a list of the
cards picked, then per item the candidates, "done" once ``min`` are picked, the chooser, the
move. When ``min`` and ``max`` are both the number 1 written in the rules, that loop runs its
body once and stops at its second pass without asking anything (one picked, no more wanted):
the bounds cannot fail their check, "done" is never offered, and the second pass computes no
candidates (``len(picked) < max`` is false). So the pick is written as that one pass: the
candidates, the rules' error when there are none, the picker checked, one ``st.choose`` over
the candidates when there are two or more, the move. The same expressions are evaluated in the
same order, with the same errors, messages and spans and the same ``st.choose`` calls and
``st.move_number`` updates as the loop, so a playout stays the API's game
(tests/test_pick_one.py plays tests/fixtures/pickone against the API).
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from .exprs import Scope, write_decider
from .moves import kept, write_card_move
from .pick import picked_may_be_candidates, zone_name
from .writer import Writer, literal


def is_one(e: ir.Expr | None) -> bool:
    """Is ``e`` the number 1 written in the rules (not a name, not a yes/no)?"""
    return isinstance(e, ir.Const) and type(e.value) is int and e.value == 1


def picks_one(s: ir.Pick) -> bool:
    """Does the pick ``s`` take exactly one item, by its written bounds?"""
    return is_one(s.min) and is_one(s.max)


def write_pick_one(em: Any, w: Writer, s: ir.Pick, candidates: Any) -> None:
    """The pick ``s`` (picks_one) in direct code, one pass of run_pick's loop. ``candidates``
    is pick.py's writer of the candidates (``(em, w, s, picked, cands, one)``, with ``picked``
    empty here)."""
    fresh = em.names.fresh
    span = em._span(s.span)
    picked, cands, p, n, i, c = (fresh(x) for x in ("picked", "cands", "p", "n", "i", "c"))
    if s.into or s.where is not None or picked_may_be_candidates(s, em.layout):
        w.line(f"{picked} = []")  # (read by the condition or the merge: empty, as at first)
    candidates(em, w, s, picked, cands, one=True)  # (nothing is picked yet)
    w.line(f"if not {cands}:")
    with w.indent():
        w.line(f"raise RuleError('a pick needs 1 item but only 0 could be picked', {span})")
    p = write_decider(w, em.ex, em._e(s.player), p, span)
    # the picker out of the game: the pick ends with nothing picked
    w.line(f"if {p} in st.players:")
    with w.indent():
        w.line(f"{n} = len({cands})")
        w.line(f"if {n} > 1:")
        with w.indent():
            w.line(f"{c} = {cands}[st.choose({n})]")
            w.line("st.move_number += 1")  # (st.at: still this statement, codegen/at.py)
        w.line("else:  # one candidate: it is picked")
        with w.indent():
            w.line(f"{c} = {cands}[0]")
        if s.into:
            w.line(f"{picked}.append({c})")
        if s.dest is not None:  # a card from a zone (a zone holds cards only), else checked
            d, proven = em.ex.zone_index(s.dest, Scope()), zone_name(s.src, em.layout) is not None
            write_card_move(w, c, d, False, fresh, proven, kept(em, s.src, s.dest))
    if s.into:
        w.line(f"env[{literal(s.into)}] = {picked}")
