"""``first(c for c in Z if COND)`` stops at the first card that meets the condition.

The interpreter's ``first`` of a comprehension builds the whole list, then takes its first
item (interpreter/evaluate ``_gen``): ``power_chip(power_supply, 1)`` tests every chip of a
supply of up to 40. ``first`` itself (``first_of``) takes any iterable and stops at its first
item, raising the same IndexError when there is none; so the generated module may pass it a
generator, ``first(c for c in Z if COND)``, which tests the cards only up to the first that
meets the condition. The two are equal when testing the rest of the cards could change
nothing, that is when the condition raises for none of them and has no effect. That is proven
here from the rules, never assumed:

- the items are the cards of a zone (a zone holds only cards: runtime/state), the source's
  text one ``st.zones[INDEX]`` (so also a zone passed to a small function written inline),
  whose index is computed before the first card is tested, as the list's is;
- the item is the card itself (no other value is computed per card);
- the condition is ``and``/``or``/``not`` of ``==``/``!=`` between a constant, a name (read,
  never raising: the checker binds every name it reads) and a field of the card: its
  ``kind``, ``key``, ``name`` or ``owner`` (every card has them) or one of its properties,
  where every item of every kind has it or a test ``c.kind == 'K'`` to its left in an ``and``
  holds only for cards of a kind K whose items all have it (a card's ``props`` are its item's:
  runtime/layout, so a property an item leaves out is a KeyError there). ``==`` and ``!=``
  never raise between the values of the rules (numbers, strings, booleans, none, cards and
  lists of them), and no expression changes the state;
- the comprehension's text holds no value that codegen/cse.py or codegen/memo.py compute once
  (their marks): it is written twice, below.

A generator costs more to make and to leave suspended than testing a few cards: the text is
``(first(GENERATOR over _z) if len(_z := Z) >= EARLY_FROM else first([LIST over _z]))``, the
zone read once (where ``:=`` may be written: codegen/cse.py knows when the text goes into a
comprehension's iterable, where Python refuses it; elsewhere, and where cse is not at work, it
is the list, as before).
"""

from __future__ import annotations

import re
from typing import Any

from meeple.dsl import ir
from meeple.runtime.values import CARD_FIELDS


def stops_early(c: ir.Comprehension, items: str, body: str, game: ir.Game) -> bool:
    """May ``first`` of the comprehension ``c``, whose items are the Python text ``items`` and
    whose text is ``body``, be written over a generator (module docstring)?"""
    if not (isinstance(c.elt, ir.Name) and c.elt.id == c.var):
        return False
    if _MARKS.search(body) or ":=" in body:  # a value computed once (cse, memo): written once
        return False
    if not one_zone(items):
        return False
    return c.cond is None or _safe(c.cond, c.var, game, frozenset())


#: the marks of codegen/cse.py and codegen/memo.py, resolved once the module is written
_MARKS = re.compile("[\x00-\x1f]")

#: Fewest cards for which the generator is worth it: making a generator and leaving it
#: suspended cost more than testing a few cards more (Python 3.11: the list is faster up to
#: about 10 cards, the generator from 12 on, 2.2x at 40 when the first card is the one)
EARLY_FROM = 10


def early_first(body: str, head: str, py: str, zone: str, local: str, whole: str) -> str:
    """``first`` of the comprehension ``body`` (``ITEM for PY in ZONE if COND``, ``head`` its
    ``for PY in ZONE``) over the cards of ``zone`` (a Python text), written as a generator
    where the zone holds EARLY_FROM cards or more, else as ``whole``, the list's. The zone is
    read once, into the fresh Python local ``local`` (so the text needs a place where Python
    allows ``:=``: not a comprehension's iterable)."""
    assert body.count(head) == 1, body
    inner = body.replace(head, f"for {py} in {local}")
    listed = whole.replace(head, f"for {py} in {local}")
    return f"(first({inner}) if len({local} := {zone}) >= {EARLY_FROM} else {listed})"


def one_zone(text: str) -> bool:
    """Is the Python text ``text`` one zone, ``st.zones[INDEX]`` (the bracket it opens closes
    at its end)? The generator writes a zone so, and nothing else (a zone parameter put in by
    an inlined function is the text of its argument)."""
    head = "st.zones["
    if not text.startswith(head) or not text.endswith("]"):
        return False
    depth, quote = 0, ""
    for i in range(len(head) - 1, len(text)):
        ch = text[i]
        if quote:  # (a literal: its brackets are text; a name has no quote nor backslash)
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False


def _kinds_of(e: ir.Expr, var: str) -> frozenset[str]:
    """The kinds a card must be of for ``e`` to hold (``var.kind == 'K'``, and ``and`` of
    such tests); empty when ``e`` says nothing of it."""
    if isinstance(e, ir.BinOp) and e.op == "and":
        return _kinds_of(e.left, var) | _kinds_of(e.right, var)
    if isinstance(e, ir.BinOp) and e.op == "==":
        for a, b in ((e.left, e.right), (e.right, e.left)):
            if _field(a, var) == "kind" and isinstance(b, ir.Const) and isinstance(b.value, str):
                return frozenset({b.value})
    return frozenset()


def _field(e: ir.Expr, var: str) -> str | None:
    """The field that ``e`` reads of the card ``var`` (``var.F``), else None."""
    if isinstance(e, ir.Attr) and isinstance(e.obj, ir.Name) and e.obj.id == var:
        return e.name
    return None


def _has(game: ir.Game, kinds: Any, prop: str) -> bool:
    """Does every item of each of ``kinds`` (kind names) have the property ``prop``?"""
    found = [game.kinds.get(k) for k in kinds]
    return bool(found) and all(
        k is not None and all(prop in i.props for i in k.items) for k in found
    )


def _safe(e: ir.Expr, var: str, game: ir.Game, kinds: frozenset[str]) -> bool:
    """Does ``e`` raise for no card ``var`` of a zone, given that the card is of one of
    ``kinds`` (each holds, so any one of them that proves a property does) when not empty?"""
    if isinstance(e, ir.BinOp) and e.op == "and":
        left = _safe(e.left, var, game, kinds)
        return left and _safe(e.right, var, game, kinds | _kinds_of(e.left, var))
    if isinstance(e, ir.BinOp) and e.op == "or":
        return _safe(e.left, var, game, kinds) and _safe(e.right, var, game, kinds)
    if isinstance(e, ir.Unary) and e.op == "not":
        return _safe(e.operand, var, game, kinds)
    if isinstance(e, ir.BinOp) and e.op in ("==", "!="):
        return _value(e.left, var, game, kinds) and _value(e.right, var, game, kinds)
    return False


def _value(e: ir.Expr, var: str, game: ir.Game, kinds: frozenset[str]) -> bool:
    """Is reading ``e`` sure not to raise (a constant, a name, a field of the card)?"""
    if isinstance(e, (ir.Const, ir.Name)):
        return True
    f = _field(e, var)
    if f is None:
        return False
    if f in CARD_FIELDS:
        return True
    if any(_has(game, (k,), f) for k in kinds):
        return True
    return _has(game, game.kinds, f)  # every card of the game has it
