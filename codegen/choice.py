"""Direct code for a ``choose`` (codegen/direct.py): the options collected for a playout only.

The frame-stepping code collects a choice's options as ChooseOp.collect does (``collect_N``):
three lists, the action id of each option, its value and its option index, identical cards
merged by a search of the ids collected so far. A playout needs none of the ids: only how many
distinct options there are and, for the chosen one, its option and its value. Here each option
builds just that: an option without a name counts 0 or 1, an option ``for`` items builds the list
of its values. The merge of identical ids is left out where no two items of an option can have
the same id (see ``repeats``): then a list is built by one comprehension, or is the items' list
itself when the option has no condition. Where an id may repeat, ids are kept as collect_N
keeps them: each option with a name, from the first whose items may repeat an id on, tests its
ids against every id before it, of any option, so every option up to the last that tests keeps
its ids (in a set: their order is never read, and a search does not grow with a long zone).

Everything else is collect_N's and _d_Choose's, step by step: the same expressions evaluated in
the same order (the conditions that do not name the option's variable tested once before its
loop, when it has items; a value the conditions compute again read where no statement ran in
between: codegen/cse.py), each offered number checked as ``site.action`` checks it (the call
made for its error), the options in the same order, the same errors with the same messages and
spans, the same ``st.choose`` calls and ``st.move_number`` updates (``st.at`` is the choice's
from its start on, as after State.decide: codegen/at.py), so a playout stays the API's game.
Rule text reaches this code only through the emitter's expression writer and ``literal``.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from meeple.dsl import ir
from meeple.runtime.layout import site_size

from . import anyloop, loopkeep, statics, tablelocal
from .cse import branch, conjunction, iterable, region
from .exprs import Scope, action_id, split_invariant, write_decider
from .numbers import consecutive, write_range
from .writer import Writer, literal

#: built-ins whose list of seats never holds a seat twice (dsl/builtins.py): the seats in play
SEAT_LISTS = ("others", "clockwise_from")


def repeats(em: Any, o: ir.Option) -> bool:
    """May two items of option ``o`` (with a name) have the same action id? Not for a kind's
    cards when every item line of the kind has one copy (each has a type id of its own), the
    seats in play (``players``, others(), clockwise_from()), a range ``a..b`` of numbers; an
    arbitrary list may repeat a value, and the cards of one item line share a type id."""
    e, g, lay = o.iter, em.game, em.layout
    domain = em.numbering.site_domains[em.numbering.site_of[id(o)]]
    if isinstance(e, ir.Name) and e.id in g.constants:  # (a constant's value is written out)
        return True
    if domain == "card":
        # a name of a kind reads its cards (the ExprEmitter's _Name: constants come first)
        if isinstance(e, ir.Name) and e.id in g.kinds and e.id not in lay.pattern_tables:
            return any(item.count != 1 for item in g.kinds[e.id].items)
        return True
    if domain == "player":
        if isinstance(e, ir.Name):  # ``players`` unless a name of the game's takes it first
            taken = lay.static_names | lay.zone_base.keys() | g.variables.keys()
            return e.id != "players" or e.id in taken
        if isinstance(e, ir.Call):
            return e.func not in SEAT_LISTS or e.func in g.functions
        return True
    if domain.startswith("int"):
        return not (isinstance(e, ir.BinOp) and e.op == "..")
    return True


def write_choice(d: Any, w: Writer, s: ir.Choose) -> None:
    """The choice ``s`` in direct code: its options collected (see the module docstring), the
    chooser checked, ``st.choose`` asked and the chosen option's body written by ``d`` (the
    DirectEmitter), whose ModuleEmitter writes every expression, name and span."""
    em = d.em
    fresh = em.names.fresh
    uid, span = em._uid(s), em._span(s.span)
    opts = s.options
    # an option tests its ids from the first option whose items may repeat an id on; every
    # option up to the last that tests keeps its ids (a test looks at all the ids before it)
    first = next((k for k, o in enumerate(opts) if o.var is not None and repeats(em, o)), len(opts))
    tested = [o.var is not None and k >= first for k, o in enumerate(opts)]
    last = max((k for k, t in enumerate(tested) if t), default=-1)
    acts = fresh("actions") if last >= 0 else ""
    if acts:
        w.line(f"{acts} = set()  # (the ids' order is never read)")
    counts: list[str] = []  # per option: how many it offers (Python text)
    values: list[str] = []  # per option with a name: the list of its values
    body = Writer(w.level)
    carried = loopkeep.resume(em, s)  # (a while's region, its dicts made: codegen/loopkeep)
    with region(em.ex):  # no statement runs: a value two conditions compute is computed once
        # (and a value of an item, kept by codegen/memo, once for the options' loops)
        with em.ex.loops.loop("", host=True, region=True, frame=carried) as loop:
            _collect(em, body, opts, acts, last, tested, counts, values)
    mark = em.ex.loops.made(loop, line=True) if carried is None else ""
    if mark:
        w.line(mark)
    if em.tally is not None:  # the owner counts' table read once (codegen/tablelocal)
        tablelocal.hoist(w, body, fresh)
    w.extend(body)
    write_dispatch(d, w, s, counts, values, span, uid)


def _collect(
    em: Any,
    w: Writer,
    opts: tuple[ir.Option, ...],
    acts: str,
    last: int,
    tested: list[bool],
    counts: list[str],
    values: list[str],
) -> None:
    """The options' counts and lists of values, appended to ``counts`` and ``values`` (see
    write_choice)."""
    fresh = em.names.fresh
    for k, o in enumerate(opts):
        index = em.numbering.site_of[id(o)]
        base = em._const("site", str(index))
        track = k <= last
        if o.var is None:
            values.append("")
            if o.when is None:
                w.line(f"{em._where(o.span)}: always offered")
                if track:
                    w.line(f"{acts}.add({base})")
                counts.append("1")
                continue
            f = fresh("f")
            w.line(f"if {em._e(o.when)}:  {em._where(o.span)}")
            with w.indent():
                w.line(f"{f} = 1")
                if track:
                    w.line(f"{acts}.add({base})")
            w.line("else:")
            with w.indent():
                w.line(f"{f} = 0")
            counts.append(f)
            continue
        v = fresh("v")
        values.append(v)
        counts.append(f"len({v})")
        _write_items(em, w, o, index, base, v, acts if track else "", tested[k])


def _write_items(
    em: Any, w: Writer, o: ir.Option, index: int, base: str, v: str, acts: str, test: bool
) -> None:
    """``v = [...]``: the values option ``o`` offers, in the items' order; with ``acts``, each
    one's id appended there too, and with ``test``, an item whose id is there already left out
    (an identical card: the same choice)."""
    assert o.iter is not None and o.var is not None
    x = em.names.fresh(o.var)
    scope = Scope({o.var: x})
    fixed, varying = split_invariant(o.when, o.var)
    domain = em.numbering.site_domains[index]
    numbers = domain not in ("card", "player")  # site.action checks each offered number
    with ExitStack() as tested:
        if fixed:
            items = em.names.fresh("items")
            source = em.ex.items(o.iter, Scope())
            known = em.ex.facts.items_of(source)  # the items' fact: the variable's, the values'
            w.line(f"{items} = {source}  {em._where(o.span)}")
            tested.enter_context(branch(em.ex))  # the rest: only when there are items
            tests = conjunction(em.ex, fixed, Scope())
            w.line(f"if {items} and {tests}:")
            w.level += 1
            source, loc = items, ""
        else:
            with iterable(em.ex):  # (it may be a comprehension's)
                source, loc = em.ex.items(o.iter, Scope()), f"  {em._where(o.span)}"
            known = em.ex.facts.items_of(source)
        # a kind's cards that pass the condition's static terms, when it has some (statics)
        moved = statics.split(em.ex, o.iter, o.var, varying, scope) if varying else None
        if moved is not None:
            source = moved[0]
        em.ex.facts.note(x, known)
        em.ex.facts.note_items(v, known)
        # ``any(...)`` as an inner loop (codegen/anyloop), where only the condition is per item
        looped = moved is None and not acts and not numbers and anyloop.applies(em, varying)
        # (once per item; a value of an inner loop kept across this one: codegen/memo)
        with branch(em.ex), em.ex.loops.loop(x, host=True):
            if looped:
                inner = anyloop.parts(em, varying[0], scope)
                cond = ""
            elif moved is not None:
                cond = statics.write_rest(em.ex, moved[1], conjunction)
            else:
                cond = conjunction(em.ex, varying, scope)
    if looped:
        anyloop.write(w, v, x, source, loc, inner)
    elif consecutive(em, o, domain, acts, cond):  # a range of numbers: only its ends checked
        check = action_id(domain, base, index, x)
        write_range(w, v, x, source, loc, check, site_size(domain, 0, 0))
    elif not acts and not numbers:  # nothing per item but the condition
        if cond:
            w.line(f"{v} = [{x} for {x} in {source} if ({cond})]{loc}")
        else:
            w.line(f"{v} = {source}{loc}")
    else:
        w.line(f"{v} = []")
        w.line(f"for {x} in {source}:{loc}")
        with w.indent():
            if cond:
                w.line(f"if not ({cond}):")
                with w.indent():
                    w.line("continue")
            a = action_id(domain, base, index, x)
            n = site_size(domain, 0, 0) if domain.startswith("int") else 0
            if not acts and n:  # Site.action's range check, its call only for its error
                w.line(f"if not 0 <= {x} < {n}:  # a number out of the site's range")
                with w.indent():
                    w.line(f"{a}  # (its error)")
                w.line(f"{v}.append({x})")
            elif not acts:
                w.line(f"{a}  # a number out of the site's range is an error")
                w.line(f"{v}.append({x})")
            else:
                y = em.names.fresh("a")
                w.line(f"{y} = {a}")
                if test:
                    w.line(f"if {y} not in {acts}:  # an identical card: the same choice")
                    w.level += 1
                w.line(f"{acts}.add({y})")
                w.line(f"{v}.append({x})")
                if test:
                    w.level -= 1
    if fixed:
        w.level -= 1
        w.line("else:")
        with w.indent():
            w.line(f"{v} = []")


def write_ask(em: Any, w: Writer, s: ir.Choose, n: str, span: str, uid: int) -> str:
    """ChooseOp.exec and State.decide for the choice ``s`` with ``n`` options (Python text):
    no option is the rules' error, the chooser is checked, and if he is still in the game (the
    block under ``if`` the caller writes next, one level in) the index of the option taken is
    asked when there are two or more. Returns the index's Python local."""
    p, i = em.names.fresh("p"), em.names.fresh("i")
    fixed = int(n) if n.isdigit() else None  # options always offered: their number is known
    if fixed is None:
        w.line(f"if not {n}:")
        with w.indent():
            w.line(f"raise RuleError('a choice has no legal option', {span})")
    p = write_decider(
        w, em.ex, em._e(s.player), p, span
    )  # (what e{uid}_player(st, env) gives, read here)
    w.line(f"if {p} in st.players:  # else out of the game: no option runs")
    with w.indent():
        if fixed is not None and fixed > 1:
            w.line(f"{i} = st.choose({n})")
            w.line("st.move_number += 1")
            return i
        w.line(f"if {n} > 1:")
        with w.indent():
            w.line(f"{i} = st.choose({n})")
            w.line("st.move_number += 1")  # (st.at: still this statement, codegen/at.py)
        w.line("else:")
        with w.indent():
            w.line(f"{i} = 0")
    return i


def write_dispatch(
    d: Any, w: Writer, s: ir.Choose, counts: list[str], values: list[str], span: str, uid: int
) -> None:
    """The chooser checked, ``st.choose`` asked when more than one option is offered, and the
    chosen option run: option k holds the numbers from the end of option k-1 to its own end."""
    em = d.em
    fresh = em.names.fresh
    ends: list[str] = []
    for k, c in enumerate(counts):
        if c.isdigit() and (k == 0 or ends[k - 1].isdigit()):  # options always offered
            ends.append(str(int(c) + (int(ends[k - 1]) if k else 0)))
            continue
        ends.append(fresh("end"))
        w.line(f"{ends[k]} = {c}" if k == 0 else f"{ends[k]} = {ends[k - 1]} + {c}")
    i = write_ask(em, w, s, ends[-1], span, uid)
    with w.indent():
        many = len(s.options) > 1
        for k, o in enumerate(s.options):
            if many:
                where = em._where(o.span)
                if k == 0:
                    w.line(f"if {i} < {ends[0]}:  {where}")
                elif k < len(s.options) - 1:
                    w.line(f"elif {i} < {ends[k]}:  {where}")
                else:
                    w.line(f"else:  {where}")
                w.level += 1
            if o.var is None:
                d.body(w, o.body)
            else:
                at = i if k == 0 else f"{i} - {ends[k - 1]}"
                x = fresh(o.var)  # the value, an item of the option's list (codegen/facts)
                em.ex.facts.note(x, em.ex.facts.items_of(values[k]))
                w.line(f"{x} = env[{literal(o.var)}] = {values[k]}[{at}]")
                with em.ex.facts.binding(o.var, x):  # the body reads x
                    d.body(w, o.body)
            if many:
                w.level -= 1
