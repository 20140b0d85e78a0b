"""The code of a ``move`` that sets off no trigger (ModuleEmitter._f_Move hands it here).

``move N from SRC to DEST`` is ``st.move_count``; a move of one card (by its checked type) is
``st.move``; a move of a zone or a list of cards, or of a value of no known type, is one call of
``move_cards`` (runtime/moves.py), which moves a whole pile in one operation, with the same pile
orders, ``loc`` and log lines as ``st.move`` card by card, and any other list card by card. The
items (or the count and the source) are evaluated before the destination, as the interpreter
does.

Direct code (``c_N``, written while ``em.playout_only`` is set: codegen/direct.py) runs only in
a playout, and a playout with the log on goes through apply_action instead (runtime/playout.py
``run_playout``), so there ``st.record_log`` is False and a move writes no log line. There a
move of one card and a ``move N from`` that needs no refill are written out, State.move's and
State.move_count's own steps without the log (``write_place``): the card taken off its pile (by
``pop`` when it is the top card, else by ``remove``), put on the destination, its ``loc`` set.
The check that the value is a card (none is the rules' error, raised by State.move itself) is
left out where the generator proves it: the top card of a zone named in the rules (``top``
raises on an empty one first), a card picked from a zone (codegen/pick.py). Anything else
(``move N from`` once the source runs short, a count that is no whole number) is State's call,
as in the stepping code. Rule text reaches this code only through the emitter's expression
writer.
"""

from __future__ import annotations

import re
from typing import Any

from meeple.dsl import ir
from meeple.dsl.errors import MeepleError

from .exprs import Scope
from .tally import KEPT, Tally
from .writer import Writer

#: the owner counts a move updates (codegen/tally.py): the module's Tally and whether the
#: source and the destination are tallied (True, False, None: unknown), or None
Kept = tuple[Tally | None, bool | None, bool | None] | None

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|[0-9]+")  # a name or a number: read twice freely


def write_move(em: Any, w: Writer, s: ir.Move) -> None:
    """The statement ``s`` (no ``where``, no trigger on its destination) as Python lines; ``em``
    is the ModuleEmitter, whose helpers write every expression and span."""
    bottom = _flag(s.bottom)
    dest = em.ex.zone_index(s.dest, Scope())
    if s.count is not None:
        assert s.src is not None
        src = em.ex.zone_index(s.src, Scope())
        if em.playout_only:
            _write_take(em, w, s, src, dest)
            return
        call = f"st.move_count({em._e(s.count)}, {src}, {dest}, {bottom}, {em._span(s.span)})"
        # (a procedure's: it keeps the owner counts where no zone it may touch is tallied)
        clean = em.tally is not None and em.tally_proc and _untallied(em, s.src, s.dest, True)
        w.line(call + (f"  {KEPT}" if clean else ""))
        return
    assert s.items is not None
    if em.ex.type_of(s.items) == "card":
        if em.playout_only:
            _write_card(em, w, s.items, dest, s.bottom, kept(em, None, s.dest))
            return
        if em.tally is not None and em.tally_proc:  # (its counts kept: codegen/tally.py)
            fresh = em.names.fresh
            c = fresh("c")
            w.line(f"{c} = {em._e(s.items)}")
            d = _held(w, dest, fresh)
            w.line(f"if type({c}) is Card:")
            with w.indent():
                em.tally.upkeep(w, c, None, None, d, em.tally.state(s.dest), fresh)
            w.line(f"st.move({c}, {d}, {bottom})  {KEPT}")
            return
        w.line(f"st.move({em._e(s.items)}, {dest}, {bottom})")
        return
    # (direct code: the owner counts are dropped after it, unless it moves between zones of
    # names no count by owner reads: codegen/tally.py)
    clean = (
        (em.playout_only or em.tally_proc)
        and em.tally is not None
        and not _may_tally(em, s.items, s.dest)
    )
    w.line(f"move_cards(st, {em._e(s.items)}, {dest}, {bottom}){'  ' + KEPT if clean else ''}")


def write_moved(em: Any, w: Writer, s: ir.Move, dest: str) -> str:
    """``move ITEMS to DEST`` into a zone that may have triggers (the emitter fires them after
    it), the destination's index already in the Python name ``dest``: the cards moved, card by
    card, and the name of the list of them (``cards_of``'s, for ``fire``). In direct code a
    card (by its checked type) is moved as ``_write_card`` moves it, its list made only then."""
    assert s.items is not None
    moved, c = em.names.fresh("moved"), em.names.fresh("c")
    bottom = _flag(s.bottom)
    card = em.playout_only and em.ex.type_of(s.items) == "card"
    if card:
        items = em.names.fresh("card")
        w.line(f"{items} = {em._e(s.items)}")
        w.line(f"if type({items}) is Card:")
        with w.indent():
            write_place(w, items, dest, s.bottom, em.names.fresh, kept=kept(em, None, None))
            w.line(f"{moved} = [{items}]")
        w.line("else:  # none: cards_of raises the rules' error")
        w.level += 1
    else:
        items = moved
        w.line(f"{moved} = {em._e(s.items)}")
    w.line(f"{moved} = cards_of({items})")
    w.line(f"for {c} in {moved}:")
    with w.indent():
        w.line(f"st.move({c}, {dest}, {bottom})")
    if card:
        w.level -= 1
    return moved


def write_place(
    w: Writer,
    card: str,
    dest: str,
    bottom: bool,
    fresh: Any,
    off: str | None = None,
    kept: Kept = None,
) -> None:
    """Direct code only (no log): State.move of the card held in the Python name ``card``, a
    card, to the zone index ``dest`` (a name or a number). ``off``: a name holding the pile the
    card is the top card of (popped), or "" if the card is off its pile already. ``kept``: the
    owner counts to update (codegen/tally.py), with whether the source and the destination are
    tallied (True, False, None: unknown), or None."""
    if kept is not None and kept[0] is not None:  # (first: ``st.loc`` still has the source)
        kept[0].upkeep(w, card, None, kept[1], dest, kept[2], fresh)
    if off:
        w.line(f"{off}.pop()")
    elif off is None:
        z = fresh("from")
        w.line(f"{z} = st.zones[st.loc[{card}.id]]")
        w.line(f"if {z}[-1] is {card}:  # the top card: no search from the bottom")
        with w.indent():
            w.line(f"{z}.pop()")
        w.line("else:")
        with w.indent():
            w.line(f"{z}.remove({card})")
    if bottom:
        w.line(f"st.zones[{dest}].insert(0, {card})")
    else:
        w.line(f"st.zones[{dest}].append({card})")
    w.line(f"st.loc[{card}.id] = {dest}")


def write_card_move(
    w: Writer,
    card: str,
    dest: str,
    bottom: bool,
    fresh: Any,
    proven: bool = False,
    kept: Kept = None,
) -> None:
    """Direct code only (no log): ``move CARD to DEST`` of the value held in the Python name
    ``card`` to the zone index ``dest`` (Python text, evaluated once, now); unless ``proven`` a
    card, a value that is none (or no card) goes to State.move, which raises the rules' error.
    ``kept``: as write_place's."""
    dest = _held(w, dest, fresh)
    if proven:
        write_place(w, card, dest, bottom, fresh, kept=kept)
        return
    w.line(f"if type({card}) is Card:")
    with w.indent():
        write_place(w, card, dest, bottom, fresh, kept=kept)
    w.line("else:  # not a card: State.move raises the rules' error")
    with w.indent():
        w.line(f"st.move({card}, {dest}, {_flag(bottom)})")


def _write_card(
    em: Any, w: Writer, items: ir.Expr, dest: str, bottom: bool, keep: Kept = None
) -> None:
    fresh = em.names.fresh
    pile = _top_of_zone(em, items)
    c = fresh("c")
    if pile is not None:  # top(ZONE): a card, or the IndexError top raises first
        z = fresh("z")
        w.line(f"{z} = {em._e(pile)}")
        w.line(f"{c} = {z}[-1]")
        if keep is not None:  # (the card comes from that zone)
            keep = (keep[0], em.tally.state(pile), keep[2])
        write_place(w, c, _held(w, dest, fresh), bottom, fresh, off=z, kept=keep)
        return
    w.line(f"{c} = {em._e(items)}")
    write_card_move(w, c, dest, bottom, fresh, kept=keep)


def _write_take(em: Any, w: Writer, s: ir.Move, src: str, dest: str) -> None:
    """``move N from SRC to DEST``: the count, the source, the destination evaluated as the
    arguments of State.move_count; with N a whole number the source holds, its loop (the top
    card first) written out; else State.move_count (the refill, the errors)."""
    assert s.count is not None
    fresh = em.names.fresh
    n = _held(w, em._e(s.count), fresh, "n")
    si = _held(w, src, fresh, "src")
    d = _held(w, dest, fresh)
    pile, c = fresh("pile"), fresh("c")
    keep = kept(em, s.src, s.dest)
    w.line(f"{pile} = st.zones[{si}]")
    if n.isdigit():  # a number written in the rules (a bool is no count: it is never digits)
        w.line(f"if len({pile}) >= {n}:")
    else:
        w.line(f"if type({n}) is int and 0 <= {n} <= len({pile}):")
    with w.indent():
        if n == "1":
            w.line(f"{c} = {pile}.pop()")
            write_place(w, c, d, s.bottom, fresh, off="", kept=keep)
        else:
            w.line(f"for _ in range({n}):")
            with w.indent():
                w.line(f"{c} = {pile}.pop()")
                write_place(w, c, d, s.bottom, fresh, off="", kept=keep)
    w.line("else:  # short of cards (a refill), or no count: State's")
    with w.indent():
        # (the owner counts dropped after it, unless no zone it may touch is tallied)
        clean = keep is not None and _untallied(em, s.src, s.dest, refill=True)
        call = f"st.move_count({n}, {si}, {d}, {_flag(s.bottom)}, {em._span(s.span)})"
        w.line(call + ("  " + KEPT if clean else ""))


def _top_of_zone(em: Any, e: ir.Expr) -> ir.Expr | None:
    """The zone of ``top(ZONE)``, ZONE named in the rules (a zone, or one of a zone per player
    or per component), whose value is its top card; else None."""
    from .pick import zone_name  # (here: codegen/pick.py imports this module)

    if (
        isinstance(e, ir.Call)
        and e.func == "top"
        and e.func not in em.game.functions
        and len(e.args) == 1
        and not e.kwargs
        and zone_name(e.args[0], em.layout) is not None
    ):
        return e.args[0]
    return None


def _held(w: Writer, value: str, fresh: Any, hint: str = "d") -> str:
    """``value`` itself if it is a plain name or number, else a fresh name assigned it."""
    if _PLAIN.fullmatch(value):
        return value
    name = fresh(hint)
    w.line(f"{name} = {value}")
    return name


def _flag(value: object) -> str:
    """A boolean of the IR as Python text (as the emitter's _flag: never written raw)."""
    if not isinstance(value, bool):
        raise MeepleError(f"the code generator expected a yes/no value, not {value!r:.40}")
    return repr(value)


def kept(em: Any, src: ir.Expr | None, dest: ir.Expr | None) -> Kept:
    """What a move written out in direct code from ``src`` (None: where the card lies) to
    ``dest`` updates of the owner counts (codegen/tally.py); None where none are kept."""
    if em.tally is None or not em.playout_only:
        return None
    return (em.tally, em.tally.state(src), em.tally.state(dest))


def _untallied(em: Any, src: ir.Expr | None, dest: ir.Expr, refill: bool = False) -> bool:
    """Are ``src`` and ``dest`` zones the rules name, neither tallied (nor, with ``refill``,
    the zone that refills the source)?"""
    t = em.tally
    if t.state(src) is not False or t.state(dest) is not False:
        return False
    if refill:
        from .pick import zone_name  # (here: codegen/pick.py imports this module)

        decl = em.game.zones.get((zone_name(src, em.layout) if src is not None else None) or "")
        r = getattr(decl, "refill", None)
        if r is not None and r in t.zones:
            return False
    return True


def _may_tally(em: Any, items: ir.Expr, dest: ir.Expr) -> bool:
    """May ``move ITEMS to DEST`` (``move_cards``) move a card into or out of a tallied zone?
    Not when ITEMS is a zone the rules name and neither it nor DEST is tallied."""
    return not _untallied(em, items, dest)
