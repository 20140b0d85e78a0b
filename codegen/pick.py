"""Direct code for a ``pick`` (codegen/direct.py): the whole pick as straight-line Python.

runtime/playout.run_pick plays a pick during a playout through the PickOp's functions (bounds,
candidates, picker, destination: one Python call each, per item). Here the same loop is written
out for one pick statement, each expression inline, and with what the generator can prove left
out: a pick from a zone whose picked cards all move to a zone of another name never meets a
picked card among its candidates again (each card is in one place), so run_pick's filter of the
cards already picked is not written (nor for a pick of one: nothing is picked yet); a zone holds
only cards, so the identical cards of a zone, or of zones joined by ``+``, are merged in one pass
from the top down (run_pick's merge, by positions, is kept for any other list). A condition that
calls a rules function calling leaf functions only has it inline, guarded (codegen/guarded.py).
Everything else is run_pick's, step by step: the same expressions evaluated in the same order
(a value the bounds both compute is computed once: codegen/cse.py), the same errors with the
same messages and spans, the same ``st.choose`` calls and ``st.move_number`` updates (``st.at``
is the pick's from its start on, as after each of run_pick's decisions: codegen/at.py), so a
playout stays the API's game. Rule text reaches this code only through the emitter's
expression writer and ``literal``.
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir
from meeple.runtime.ops import PICK_UNBOUNDED

from . import guarded
from .cse import iterable, region
from .exprs import Scope, write_decider
from .moves import kept, write_card_move
from .writer import Writer, literal


def zone_name(e: ir.Expr, layout: Any) -> str | None:
    """The zone ``e`` names: a single zone by its name, or a zone per player or per component
    with an index (read as ``st.zones[...]``, its index within that zone's own range); else None
    (a local bound to a zone, a list of cards, a call, anything the checker would refuse)."""
    if isinstance(e, ir.Name) and e.id in layout.zone_base and layout.zone_per[e.id] is None:
        return e.id
    if (
        isinstance(e, ir.Index)
        and isinstance(e.obj, ir.Name)
        and e.obj.id in layout.zone_base
        and layout.zone_per[e.obj.id] is not None
    ):
        return e.obj.id
    return None


def picked_may_be_candidates(s: ir.Pick, layout: Any) -> bool:
    """Can a card already picked be among the source's items again? Not when the source is a
    zone and every picked card moves to a zone of another name (different zone names are
    different zones, and a card is in one zone). A destination held in a local (a procedure's
    zone parameter, a 'let') names no zone here: it may be the source itself."""
    if s.dest is None:
        return True
    src, dest = zone_name(s.src, layout), zone_name(s.dest, layout)
    return src is None or dest is None or src == dest


def write_pick(em: Any, w: Writer, s: ir.Pick) -> None:
    """run_pick(st, env, oN) for the pick ``s``, written out (see the module docstring); ``em``
    is the ModuleEmitter, whose helpers write every expression, name and span."""
    from .pickkeep import Kept, keeps  # noqa: PLC0415  (it imports this module)
    from .pickone import picks_one, write_pick_one  # noqa: PLC0415  (it imports this module)
    from .pickshrink import Shrink, shrinks  # noqa: PLC0415  (it imports this module)

    if picks_one(s):  # one pass of the loop, straight-line (codegen/pickone.py)
        write_pick_one(em, w, s, _candidates)
        return
    fresh = em.names.fresh
    span = em._span(s.span)
    lo, picked, cands, stop, p, n, i, c = (
        fresh(x) for x in ("lo", "picked", "cands", "stop", "p", "n", "i", "c")
    )
    with region(em.ex):  # one after the other: a value both compute is computed once
        w.line(f"{lo} = {em._e(s.min)}")
        if s.max is not None:
            hi = fresh("hi")
            w.line(f"{hi} = {em._e(s.max)}")
    if s.max is None:
        hi = literal(PICK_UNBOUNDED)
    w.line(f"if {lo} < 0 or {hi} < {lo}:")
    with w.indent():
        w.line(f"raise RuleError(f'a pick of {{{lo}}} to {{{hi}}} items is impossible', {span})")
    w.line(f"{picked} = []")
    kept_cands = Kept(em, s, cands) if keeps(s, em.layout) else None
    if kept_cands is not None:  # built once, as the first pass would (codegen/pickkeep.py)
        if s.max is not None:
            w.line(f"if 0 < {hi}:")
            with w.indent():
                kept_cands.build(w)
            w.line("else:")
            with w.indent():
                w.line(f"{cands} = []")
        else:
            kept_cands.build(w)
    shrink = Shrink(em, s, picked) if kept_cands is None and shrinks(s, em.layout) else None
    if shrink is not None:  # tested once, as the first pass would (codegen/pickshrink.py)
        if s.max is not None:
            w.line(f"if 0 < {hi}:")
            with w.indent():
                shrink.build(w)
        else:
            shrink.build(w)
    w.line("while True:")
    with w.indent():
        if kept_cands is not None:
            if s.max is not None:
                w.line(f"if len({picked}) >= {hi}:")
                with w.indent():
                    w.line(f"{cands} = []")
        elif shrink is not None:
            met = fresh("met")
            if s.max is not None:
                w.line(f"if len({picked}) < {hi}:")
                with w.indent():
                    shrink.passes(w, met)
                    _merge(w, met, cands, fresh, None)
                w.line("else:")
                with w.indent():
                    w.line(f"{cands} = []")
            else:
                shrink.passes(w, met)
                _merge(w, met, cands, fresh, None)
        elif s.max is not None:  # (without a max, fewer than PICK_UNBOUNDED are always picked)
            w.line(f"if len({picked}) < {hi}:")
            with w.indent():
                _candidates(em, w, s, picked, cands)
            w.line("else:")
            with w.indent():
                w.line(f"{cands} = []")
        else:
            _candidates(em, w, s, picked, cands)
        w.line(f"{stop} = len({picked}) >= {lo}")
        w.line(f"if not {cands}:")
        with w.indent():
            w.line(f"if not {stop}:")
            with w.indent():
                items = f'{{{lo}}} item{{"" if {lo} == 1 else "s"}}'  # "1 item", "2 items"
                w.line(
                    f"raise RuleError(f'a pick needs {items} but only "
                    f"{{len({picked})}} could be picked', {span})"
                )
            w.line("break")
        p = write_decider(w, em.ex, em._e(s.player), p, span)
        w.line(f"if {p} not in st.players:")
        with w.indent():
            w.line("break  # the picker is out of the game: the pick ends with what was picked")
        w.line(f"{n} = len({cands}) + {stop}")
        w.line(f"if {n} > 1:")
        with w.indent():
            w.line(f"{i} = st.choose({n})")
            w.line("st.move_number += 1")  # (st.at: still this statement, codegen/at.py)
            w.line(f"if {i} == len({cands}):")
            with w.indent():
                w.line("break  # done")
            w.line(f"{c} = {cands}[{i}]")
        w.line("else:  # one card and no stopping yet: it is picked")
        with w.indent():
            if kept_cands is not None:
                w.line(f"{i} = 0")
            w.line(f"{c} = {cands}[0]")
        w.line(f"{picked}.append({c})")
        if s.dest is not None:  # a card from a zone (a zone holds cards only), else checked
            d, proven = em.ex.zone_index(s.dest, Scope()), zone_name(s.src, em.layout) is not None
            write_card_move(w, c, d, False, fresh, proven, kept(em, s.src, s.dest))
        if kept_cands is not None:
            if s.max is not None:  # (none are wanted after the last)
                w.line(f"if len({picked}) < {hi}:")
                with w.indent():
                    kept_cands.update(w, c, i)
            else:
                kept_cands.update(w, c, i)
        if shrink is not None:
            if s.max is not None:  # (none are wanted after the last)
                w.line(f"if len({picked}) < {hi}:")
                with w.indent():
                    shrink.drop(w, c)
            else:
                shrink.drop(w, c)
    if s.into:
        w.line(f"env[{literal(s.into)}] = {picked}")


def _candidates(em: Any, w: Writer, s: ir.Pick, picked: str, cands: str, one: bool = False) -> None:
    """``cands`` = the items of the source that meet the condition (evaluated on every item, in
    order, as PickOp.candidates does), less those already picked (``one``: none is, the pick
    takes one item), identical cards one choice: the top-most of each (run_pick's candidates,
    in the same order)."""
    fresh = em.names.fresh
    x = fresh(s.var)
    with iterable(em.ex):  # (it may be a comprehension's)
        src = em._e(s.src)
    em.ex.facts.note(x, em.ex.facts.items_of(src))  # (its condition asks only of items)
    conds, fast = [], []  # the condition, and its fast text (codegen/guarded)
    if s.where is not None:
        f, e = guarded.conds(em.ex, s.where, Scope({s.var: x, "picked": picked}))
        conds.append(e)
        fast.append(f)
    # a pick of one computes its candidates once, with nothing picked yet (codegen/pickone)
    drop = picked_may_be_candidates(s, em.layout) and not one

    def found(terms: list[str]) -> str:
        if drop:
            terms = [*terms, f"{x} not in {picked}"]
        return f"[{x} for {x} in {src} if {' and '.join(terms)}]"

    if zone_cards(s.src, em.layout):
        # zones hold cards only: their cards are merged from the top down, in one pass
        if not conds:
            _merge(w, src, cands, fresh, picked if drop else None)
            return
        kept = fresh("found")
        guarded.write_guarded(w, kept, found(fast), found(conds))
        _merge(w, kept, cands, fresh, None)
        return
    # any list: run_pick's own steps (an item may be no card at all: merged only with another)
    if conds or drop:
        guarded.write_guarded(w, cands, found(fast), found(conds))
    else:
        w.line(f"{cands} = list({src})")
    last, j, y = fresh("last"), fresh("j"), fresh("y")
    w.line(f"if len({cands}) > 1:  # identical cards are one choice: the top-most of each")
    with w.indent():
        w.line(f"{last} = {{{y}.type_id: {j} for {j}, {y} in enumerate({cands})}}")
        w.line(f"if len({last}) < len({cands}):")
        with w.indent():
            w.line(f"{cands} = [{cands}[{j}] for {j} in sorted({last}.values())]")


def zone_cards(e: ir.Expr, layout: Any) -> bool:
    """Are the items of ``e`` the cards of zones: a zone (zone_name) or zones joined by
    ``+``?"""
    if isinstance(e, ir.BinOp) and e.op == "+":
        return zone_cards(e.left, layout) and zone_cards(e.right, layout)
    return zone_name(e, layout) is not None


def _merge(w: Writer, items: str, cands: str, fresh: Any, picked: str | None) -> None:
    """``cands`` = the cards of the list ``items`` (less those in the list ``picked``, if
    given), identical cards (one ``type_id``) one choice: the top-most of each, in the order of
    the list, as run_pick's merge leaves them. The list is read from its top down, keeping the
    first card of each type met; a picked card is passed over without hiding its type."""
    seen, y, t = fresh("seen"), fresh("y"), fresh("t")
    w.line(f"{cands} = []")
    w.line(f"{seen} = set()")
    w.line(f"for {y} in reversed({items}):")
    with w.indent():
        w.line(f"{t} = {y}.type_id")
        test = f"{t} not in {seen}" + (f" and {y} not in {picked}" if picked else "")
        w.line(f"if {test}:")
        with w.indent():
            w.line(f"{seen}.add({t})")
            w.line(f"{cands}.append({y})")
    w.line(f"{cands}.reverse()")
