"""Counts of a pile's cards by name, one pass over the pile for all the counts of one region.

Shadow of the Sun's Special Ability asks of a hand, for each option, whether its owner can pay
a pair: ``count(c for c in hand[p] if c.name == minion) + min(1, count(c for c in hand[p] if
c.wild))``, for four names; Bolster asks ``count(c for c in hand[p] if c.name == d.minion or
c.wild)``. Each is a scan of the hand. The hand-written playout keeps a count per card name.
Here such a count is read from the hand's cards counted by *class* (``class_counts``, one pass),
and codegen/cse.py's regions (no statement runs inside one) share that list between the counts
of one option collection: the first computes it (``(_rN := class_counts(...))``), the others
read ``_rN``. No table is kept across moves: the hands change about 400 times a game, and
keeping a count per move costs about what it saves (docs/performance.md).

- **Classes.** A card never changes (runtime/values.Card). The yes/no properties B that the
  rules' counts below test (``c.wild``) split the card names in two: a *good* name, each of
  whose cards (of every kind) declares every such B ``bool``, with one value for all of them,
  has a class (a slot) of its own; every other card is of the class LACK (a card without
  ``wild``: the scan raises on it, the counts cannot say). Slot ZERO is never counted (a name
  no card has). With no B every name is good.
- **Which counts.** ``count(X for X in ZONE if COND)``, ZONE named in the rules (a zone holds
  cards only), COND one of ``X.name == E`` (either side), ``X.B``, or ``X.name == E or X.B``
  (either order), E not reading X, of a hashable checked type (statics.HASHABLE: a dict finds
  a name exactly when ``==`` does), written as a literal, a Python name, or a declared property
  of a card of a known kind (``d.minion`` of a district): a read that never raises, so it is
  read once, after the pile, instead of per card. The count is the sum of the slots where COND
  holds: ``X.name == E`` the slot of E (``CNAME.get(E, ZERO)``; for ``or X.B``, CNOT_B, where
  the names with B are ZERO: B's slots count them), ``X.B`` the slots of the good names with B.
  Where a card of LACK may change it (a B, or an E that is no good name written in the rules)
  the read tests LACK's slot and scans the pile as before when it is not 0.
- **Errors.** The zone is evaluated first, as the scan evaluates it; counting its cards never
  raises; E never raises. So a count raises where, and what, the scan raises.
"""

from __future__ import annotations

import ast
import copy
import re
from typing import Any

from meeple.dsl import ir
from meeple.runtime.values import CARD_FIELDS

from .cse import NESTED_VALUES, branch
from .facts import card_of
from .statics import HASHABLE
from .tally import counted_comprehensions, reads_name
from .writer import literal

#: the tag of a zone's class counts among codegen/cse's values and codegen/memo's
TAG = "class counts"

#: a Python name, or a declared property of a card held in one (``_d29.props['minion']``)
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_STR = re.compile(r"'[A-Za-z0-9_ ]*'")
_PROP = re.compile(r"([A-Za-z_][A-Za-z_0-9]*)\.props\['([A-Za-z_][A-Za-z_0-9]*)'\]")


def _var_attr(e: ir.Expr, var: str) -> str | None:
    """The attribute name of ``X.a`` (X the comprehension's variable), else None."""
    if isinstance(e, ir.Attr) and isinstance(e.obj, ir.Name) and e.obj.id == var:
        return e.name
    return None


def form(c: ir.Comprehension) -> tuple[ir.Expr | None, str | None] | None:
    """(E, B) of a comprehension whose condition is ``X.name == E``, ``X.B`` or ``X.name == E
    or X.B`` (either order; the missing part None), X its variable, E not reading X, B no card
    field; else None."""
    cond, var = c.cond, c.var
    if cond is None:
        return None
    parts = [cond.left, cond.right] if isinstance(cond, ir.BinOp) and cond.op == "or" else [cond]
    name: ir.Expr | None = None
    prop: str | None = None
    for p in parts:
        b = _var_attr(p, var)
        if b is not None and b not in CARD_FIELDS and prop is None:
            prop = b
            continue
        if not (isinstance(p, ir.BinOp) and p.op == "==") or name is not None:
            return None
        for mine, other in ((p.left, p.right), (p.right, p.left)):
            if _var_attr(mine, var) == "name" and not reads_name(other, var):
                name = other
                break
        else:
            return None
    return name, prop


class Classes:
    """The card classes of one module (see the module docstring): ``good`` names -> slot,
    ``props`` the yes/no properties B, ``truth[B]`` the good names with B, LACK and ZERO."""

    def __init__(self, game: ir.Game, props: set[str], layout: Any) -> None:
        seen: dict[str, list[tuple[bool, ...] | None]] = {}
        order = sorted(props)
        for k in game.kinds.values():
            for it in k.items:
                ok = all(
                    k.properties.get(b) == "bool" and type(it.props.get(b)) is bool for b in order
                )
                seen.setdefault(it.name, []).append(
                    tuple(it.props[b] for b in order) if ok else None
                )
        good = [n for n, vs in seen.items() if None not in vs and len(set(vs)) == 1]
        self.layout = layout
        self.props = tuple(order)
        self.good = {n: i for i, n in enumerate(good)}
        self.lack = len(good)
        self.zero = len(good) + 1
        self.size = len(good) + 2
        self.any_lack = len(good) < len(seen)  # (a card of LACK exists: reads test its slot)
        self.truth = {b: [n for n in good if (seen[n][0] or ())[j]] for j, b in enumerate(order)}

    def read_only(self, e: Any) -> bool:
        """Is ``e`` a count this module reads from its pile's class counts (``count``)?"""
        if not (isinstance(e, ir.Call) and e.func == "count" and len(e.args) == 1):
            return False
        c = e.args[0]
        if not isinstance(c, ir.Comprehension) or form(c) is None:
            return False
        from .pick import zone_name  # (pick imports the emitter's modules)

        return zone_name(c.iter, self.layout) is not None

    def count(self, ex: Any, c: ir.Comprehension, scope: Any, scan: Any) -> str | None:
        """Python text of ``count(c)`` read from its pile's class counts, or None where ``c``
        is none of the counts above (or its counts could not be shared: no ``:=`` in a
        comprehension's iterable). ``scan()`` writes the count as a scan."""
        f = form(c)
        reuse = ex.reuse
        if f is None or reuse is None or reuse.in_iter or reuse.nested >= NESTED_VALUES:
            return None
        from .pick import zone_name  # (pick imports the emitter's modules)

        if zone_name(c.iter, self.layout) is None:
            return None
        e, b = f
        if b is not None and b not in self.props:
            return None

        with branch(ex):  # (E: any value its text computes stays its own)
            out = self._slots(ex, e, b, scope)
        if out is None:
            return None
        slots, guard = out

        def write() -> str:
            z = ex.zone_index(c.iter, scope)
            return f"class_counts(st.zones[{z}], {self._const(ex)}, {self.size})"

        def counts() -> str:  # (the first in a region computes them; the others read them)
            # (a copy of the zone: the same key, without the iterable's role in ``c``)
            zone = copy.copy(c.iter)
            # (and in a loop the counts of a zone no loop's item names: once, codegen/memo)
            kept = ex.loops.memoize(ex, zone, scope, write, TAG) if ex.loops.stack else None
            return kept if kept is not None else str(reuse.emit_as(zone, scope, TAG, write))

        first = counts()
        if not guard:
            rest = "".join(f" + {counts()}[{s}]" for s in slots[1:])
            return f"({first}[{slots[0]}]{rest})"
        with branch(ex):  # (where no card of LACK is in the pile)
            value = " + ".join(f"{counts()}[{s}]" for s in slots)
        with branch(ex):  # (the scan: where one is)
            other = scan()
        return f"({other} if {first}[{self.lack}] else {value})"

    def _const(self, ex: Any) -> str:
        """The module's constant of each card's slot, by card id (runtime/classcounts)."""
        good = f"class_slots(P.cards, {literal(self.good)}, {self.lack})"
        return str(ex.const("counts", f"slots@{good}"))

    def _slots(
        self, ex: Any, e: ir.Expr | None, b: str | None, scope: Any
    ) -> tuple[list[str], bool] | None:
        """The slots (Python text) whose sum is the count of (E, B) (``form``, E in
        ``scope``), with whether it needs LACK's slot to be 0; None if E is no value read once
        freely."""
        slots: list[str] = []
        guard = False
        if b is not None:
            guard = True
            slots += [str(self.good[n]) for n in self.truth[b]]
        if e is not None:
            if ex.type_of(e).split(":")[0] not in HASHABLE:
                return None
            text = ex.emit(e, scope)
            if _STR.fullmatch(text):  # a name written in the rules (or given to a function)
                v = ast.literal_eval(text)
                if v in self.good:
                    if b is None or v not in self.truth[b]:
                        slots.append(str(self.good[v]))
                elif self.any_lack:
                    return None  # (a name of LACK, or of no card: the scan says)
            elif _NAME.fullmatch(text) or _known_prop(ex, text):
                wild = self.truth[b] if b is not None else []  # (counted by B's slots)
                names = {n: (self.zero if n in wild else s) for n, s in self.good.items()}
                table = ex.const("counts", f"names@{literal(names)}")
                slots.append(f"{table}.get({text}, {self.zero})")
                guard = True
            else:
                return None
        return slots or [str(self.zero)], guard and self.any_lack


def _known_prop(ex: Any, text: str) -> bool:
    """Is ``text`` a property its kind declares of a card of that kind held in a name (a read
    that never raises)?"""
    m = _PROP.fullmatch(text)
    if m is None:
        return False
    fact = ex.facts.of(m.group(1)) or ""
    kind = fact[len(card_of("")) :] if fact.startswith(card_of("")) else None
    return kind is not None and m.group(2) in ex.prog.game.kinds[kind].properties


def classes_of(game: ir.Game, layout: Any) -> Classes | None:
    """The classes of the module of ``game``: the properties B of every count of ``form`` (a
    function's body too: it is written inline where it is called); None when it has none."""
    props: set[str] = set()
    found = False
    for c in counted_comprehensions(game):
        f = form(c)
        if f is not None:
            found = True
            if f[1] is not None:
                props.add(f[1])
    return Classes(game, props, layout) if found else None
