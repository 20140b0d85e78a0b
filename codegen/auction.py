"""Direct code for an open auction's bidding (codegen/direct.py): one straight Python loop.

The front end lowers ``auction:`` into ordinary statements (dsl/auction.py); for an open auction
whose pass is final (``kind: open``, no ``reenter``) the bidding is::

    while active > (1 if leader != none else 0):
        for p in order:
            if in[p] and p != leader and active > (1 if leader != none else 0):
                choose by p: bid amount in (high + INC if leader != none else MIN)..MEANS
                    (high = amount; leader = p)  or  pass (in[p] = false; active -= 1)

Written statement by statement, each pass reads the hidden variables from ``st.vars`` again and
again, calls ``gone`` per seat, copies ``order``, builds the list of every bid (``span_list``)
and evaluates MEANS for every turn. Here the loop is written as one piece of direct code with:

- the hidden variables ``high``, ``leader`` and ``active`` held in Python locals, every write
  still made to ``st.vars`` too (so the state is the same at each decision and after);
- no eliminated-seat test and no copy of ``order``: nothing in the loop eliminates a seat or
  changes the list (its statements are only the lowered ones above);
- the bids counted, not listed: the offered numbers are ``lo..means``, the chosen one is
  ``lo + i``; only where an end is outside the bid site's range (or the range is too long) is
  the list made, by ``span_list``, and each number checked in order for its error, as before;
- MEANS evaluated once per seat per auction, where it can read nothing the bidding changes (no
  hidden variable of an auction, not the bid's name, through the rules functions it calls):
  nothing else changes during the bidding, and a rules function has no side effect.

``st.at`` is the choice's before MEANS is evaluated and while the chooser is asked, as in the
statement-by-statement code; the loop's other writes are left out (codegen/at.py: the next
statements after the loop, plain ``let``s, cannot fail, and the ``if`` after them writes it).
The same errors are raised with the same spans: a seat index that is no seat (the ``in[p]``
test's), a decider that is no seat, a bid out of the site's range, too many passes. Any other
shape of auction (and every auction in the frame-stepping code) runs its lowered statements.
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir
from meeple.dsl.auction import is_hidden
from meeple.runtime.helpers import MAX_RANGE
from meeple.runtime.layout import site_size

from .at import put
from .budget import write_charge
from .exprs import action_id, write_decider
from .writer import Writer, literal


def write_auction(d: Any, w: Writer, s: ir.Auction) -> bool:
    """The direct code of the auction ``s`` with its bidding written as one loop (see the module
    docstring), by the DirectEmitter ``d``; False, writing nothing, for any other auction."""
    parts = _bidding(d.em, s)
    if parts is None:
        return False
    loop = s.stmts.index(parts.loop)
    for k, x in enumerate(s.stmts):
        followed = k + 1 < len(s.stmts)
        if k != loop:
            d.stmt(w, x, followed)
            continue
        code = Writer(w.level)
        _write_loop(d.em, code, s, parts)
        put(d.em, w, x, code, followed)  # (a while loop: no st.at of its own, at.written)
    return True


class _Parts:
    """The nodes of the lowered bidding that its code is written from."""

    def __init__(self, loop: ir.While, turn: ir.Choose, seat: ir.Index, h: str) -> None:
        self.loop, self.turn, self.seat, self.h = loop, turn, seat, h


def _bidding(em: Any, s: ir.Auction) -> _Parts | None:
    """The bidding loop of an open auction without reentry, as dsl/auction.py lowers it, or
    None where the statements are not that shape (or the bid site has no range)."""
    if s.kind != "open" or s.reenter or s.means is None or s.most is None:
        return None
    loops = [x for x in s.stmts if isinstance(x, ir.While)]
    if len(loops) != 1 or len(loops[0].body.stmts) != 1:
        return None
    loop = loops[0]
    each = loop.body.stmts[0]
    if not (isinstance(each, ir.For) and each.var == s.each and len(each.body.stmts) == 1):
        return None
    test = each.body.stmts[0]
    if not (isinstance(test, ir.If) and test.orelse is None and not test.elifs):
        return None
    if len(test.then.stmts) != 1 or not isinstance(test.then.stmts[0], ir.Choose):
        return None
    turn = test.then.stmts[0]
    if len(turn.options) != 2 or turn.secret or turn.options[0].when is not None:
        return None
    bid = turn.options[0]
    if not (isinstance(bid.iter, ir.BinOp) and bid.iter.op == ".." and bid.var is not None):
        return None
    low = bid.iter.left  # (high + INC if leader != none else MIN)
    if not (isinstance(low, ir.Cond) and isinstance(low.then, ir.BinOp)):
        return None
    h = next((x.name for x in s.stmts if isinstance(x, ir.Let) and is_hidden(x.name)), None)
    if h is None or not h.endswith("_order"):
        return None
    h = h[: -len("_order")]
    seat = next(
        (x for x in _walk(test.test) if isinstance(x, ir.Index) and _named(x.obj, f"{h}_in")),
        None,
    )
    index = em.numbering.site_of[id(bid)]
    domain = em.numbering.site_domains[index]
    if seat is None or not domain.startswith("int") or site_size(domain, 0, 0) <= 0:
        return None
    return _Parts(loop, turn, seat, h)


def _write_loop(em: Any, w: Writer, s: ir.Auction, parts: _Parts) -> None:
    """The bidding loop (see the module docstring): the lowered ``while`` as one loop."""
    fresh, h = em.names.fresh, parts.h
    bid, passing = parts.turn.options
    assert bid.var is not None and bid.iter is not None and s.means is not None
    hi, lead, act, inn = (literal(f"{h}_{n}") for n in ("high", "leader", "active", "in"))
    order, ins, high, leader, active = (fresh(n) for n in ("order", "in", "high", "lead", "act"))
    means, n, x = fresh("means"), fresh("passes"), fresh(s.each)
    lo, m, end, i = (fresh(n) for n in ("lo", "m", "end", "i"))
    memo = not _reads_bidding(s.means, em.game, bid.var, set())
    w.line(f"{order} = {em._e(ir.Name(s.span, f'{h}_order'))}")
    w.line(f"{ins} = st.vars[{inn}]")
    w.line(f"{high} = st.vars[{hi}]")
    w.line(f"{leader} = st.vars[{lead}]")
    w.line(f"{active} = st.vars[{act}]")
    if memo:
        w.line(f"{means} = {{}}  # MEANS of each seat: nothing the bidding changes reads it")
    going = f"{active} > (1 if {leader} is not None else 0)"
    mark = fresh("move")  # (the work budget: a pass that asked no decision is charged)
    w.line(f"{n} = 0")
    w.line(f"while {going}:")
    with w.indent():
        w.line(f"{n} += 1")
        w.line(f"if {n} > MAX_PASSES:")
        with w.indent():
            w.line(f"raise too_long({em._span(parts.loop.span)})")
        w.line(f"{mark} = st.move_number")
        w.line(f"for {x} in {order}:")
        with w.indent(), em.ex.facts.binding(s.each, x):
            k = fresh("k")
            w.line(f"{k} = {em.ex.seat(x, parts.seat.index.span)}")
            w.line(f"if not ({ins}[{k}] and {x} != {leader} and {going}):")
            with w.indent():
                w.line("continue")
            _write_turn(em, w, s, parts, x, (high, leader, lo, m, end, i, means if memo else ""))
            w.line(f"if {i} < {end}:  {em._where(bid.span)}")
            with w.indent():
                w.line(f"{high} = st.vars[{hi}] = env[{literal(bid.var)}] = {lo} + {i}")
                w.line(f"{leader} = st.vars[{lead}] = {x}")
            w.line(f"else:  {em._where(passing.span)}")
            with w.indent():
                w.line(f"{ins}[{k}] = False")
                w.line(f"{active} = st.vars[{act}] = {active} - 1")
        # (the pass's charge, where the interpreter's loop makes it: before its condition)
        w.line(f"if {mark} == st.move_number:")
        with w.indent():
            cost = em.checked.work.pass_cost(parts.loop)
            write_charge(w, cost, em._span(parts.loop.span))


def _write_turn(
    em: Any, w: Writer, s: ir.Auction, parts: _Parts, x: str, names: tuple[str, ...]
) -> None:
    """One seat's turn up to the chosen index (``names``: the locals of the high bid, the
    leader, the lowest bid, the seat's MEANS, the number of bids, the index, and the memo of
    MEANS or "")."""
    high, leader, lo, m, end, i, means = names
    fresh, bid = em.names.fresh, parts.turn.options[0]
    assert isinstance(bid.iter, ir.BinOp) and s.means is not None
    index = em.numbering.site_of[id(bid)]
    size = site_size(em.numbering.site_domains[index], 0, 0)
    w.line(f"st.at = {em._op(parts.turn)}  {em._where(parts.turn.span)}")
    # (the lowest bid as dsl/auction.py lowers it, from the locals: high + INC, or MIN; INC and
    # MIN as lowered, a computed one with its check, dsl/auction.checked_settings)
    low = bid.iter.left
    assert isinstance(low, ir.Cond) and isinstance(low.then, ir.BinOp)
    inc, least = em._e(low.then.right), em._e(low.orelse)
    w.line(f"{lo} = ({high} + {inc}) if {leader} is not None else {least}")
    value = em._e(bid.iter.right)
    if means:
        w.line(f"{m} = {means}.get({x})")
        w.line(f"if {m} is None:")
        with w.indent():
            w.line(f"{m} = {means}[{x}] = {value}")
    else:
        w.line(f"{m} = {value}")
    w.line(f"{end} = {m} - {lo} + 1 if {m} >= {lo} else 0")
    # the list of bids made only where span_list or the site's check raises for one of them
    long = f" or {m} - {lo} >= {MAX_RANGE}" if size > MAX_RANGE else ""
    w.line(f"if {end} and not (0 <= {lo} and {m} < {size}){long}:  # an end out of range")
    with w.indent():
        y = fresh(bid.var)
        w.line(f"for {y} in span_list({lo}, {m}, {em._span(bid.iter.span)}):")
        with w.indent():
            w.line(f"if not 0 <= {y} < {size}:")
            with w.indent():
                w.line(f"{action_id('int', '', index, y)}  # (its error)")
    p = write_decider(w, em.ex, em._e(parts.turn.player), fresh("p"), em._span(parts.turn.span))
    w.line(f"if {p} not in st.players:  # out of the game: no option runs")
    with w.indent():
        w.line("continue")
    w.line(f"if {end}:")
    with w.indent():
        w.line(f"{i} = st.choose({end} + 1)")
        w.line("st.move_number += 1")
    w.line("else:")
    with w.indent():
        w.line(f"{i} = 0")


def _reads_bidding(e: Any, game: ir.Game, var: str, seen: set[str]) -> bool:
    """May ``e`` read what the bidding changes: an auction's hidden variable or the bid's name
    ``var``, itself or in a rules function it calls (``seen``: the functions looked at)?"""
    for x in _walk(e):
        if isinstance(x, ir.Name) and (x.id == var or is_hidden(x.id)):
            return True
        if isinstance(x, ir.Call) and x.func in game.functions and x.func not in seen:
            seen.add(x.func)
            if _reads_bidding(game.functions[x.func].body, game, var, seen):
                return True
    return False


def _walk(e: Any) -> list[Any]:
    """``e`` and every node inside it (expressions and their parts)."""
    out = [e]
    if isinstance(e, tuple):
        out = []
        for y in e:
            out += _walk(y)
        return out
    fields = getattr(e, "__dataclass_fields__", None)
    if fields is not None and not isinstance(e, type):
        for f in fields:
            if f != "span":
                out += _walk(getattr(e, f))
    return out


def _named(e: Any, name: str) -> bool:
    return isinstance(e, ir.Name) and e.id == name
