"""What the generator knows of a value by construction, so that a check it proves passes is left
out of the generated code (codegen/exprs.py asks here before it writes a seat or kind check).

A fact is known of a piece of Python text the generator wrote, never of a rule's name:

- a seat (``SEAT``): an ``int`` from 0 to n-1, what ``seat()`` checks before a seat is used as an
  index. The items of ``st.players`` are seats (State keeps only seats there, and a saved state
  is refused otherwise: state.check_saved), and so are the items of ``others()`` and
  ``clockwise_from()`` (items of ``st.players``; eliminated seats are left out, but what is
  left is still a seat) and the value of ``left_of()``/``right_of()`` (runtime seat_after);
- a card of a kind (``card_of(kind)``): an item of that kind's card list (``P.kind_cards``, each
  card's ``kind`` that kind: runtime/layout), what ``ordinal()`` checks before a card indexes
  a zone or variable per component of that kind.

Facts are kept for the items of a list text (a kind's constant ``K_...``, ``st.players``, a
built-in's call, a comprehension that only filters such a list) and for a value text: a Python
local the generator made with ``Names.fresh`` (so no other value is ever held under that name in
the module) that only ever takes items of such a list (a comprehension's or loop's variable, an
option's value). Text keys are sound because the same text always means the same kind of value:
an ``env[...]`` read, whose meaning depends on where it is, is never given a fact.

``Bound`` holds the language names that a statement binds around its body (a loop's variable,
a chosen option's value) with the Python local that holds the same value meanwhile: the checker
binds names lexically and never binds a visible name again (dsl/checker.py ``_bind``), so inside
the body ``env[name]`` and the local are equal; ``env`` is still assigned for any frame started
inside (run_to) and for every function that reads it.
"""

from __future__ import annotations

from collections.abc import Container, Iterator
from contextlib import contextmanager

from meeple.dsl import ir

#: the fact of a seat: an int from 0 to n-1
SEAT = "seat"

#: built-ins whose value is a seat (dsl/builtins.py: seat_after), and whose items are seats
SEAT_VALUES = frozenset({"left_of", "right_of"})
SEAT_LISTS = frozenset({"others", "clockwise_from"})


def card_of(kind: str) -> str:
    """The fact of a card of ``kind`` (a kind's name as ``P.kind_cards`` keys it)."""
    return "card:" + kind


class Facts:
    """The facts of one module's texts (see the module docstring)."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}
        self.items: dict[str, str] = {"st.players": SEAT}
        # language name -> Python local, while a statement's body that binds it is written
        self.bound: dict[str, str] = {}

    def of(self, text: str) -> str | None:
        """The fact of the value of ``text``, or None."""
        return self.values.get(text)

    def items_of(self, text: str) -> str | None:
        """The fact of every item of the list ``text``, or None."""
        return self.items.get(text)

    def note(self, text: str, fact: str | None) -> None:
        """``text`` (a fresh local, or a text whose value always has it) has ``fact``."""
        if fact is not None:
            self.values[text] = fact

    def note_items(self, text: str, fact: str | None) -> None:
        """Every item of the list ``text`` has ``fact``."""
        if fact is not None:
            self.items[text] = fact

    def call(self, e: ir.Call, text: str, args: list[str], functions: Container[str]) -> None:
        """Note what the built-in call ``e`` (written ``text``, its arguments ``args``) gives.
        A rules function of a built-in's name is called instead (``functions``: the game's)."""
        if e.func in functions:
            return
        if e.func in SEAT_VALUES:
            self.note(text, SEAT)
        elif e.func in SEAT_LISTS:
            self.note_items(text, SEAT)
        elif e.func == "sorted" and args:  # the items of its list, in another order
            self.note_items(text, self.items_of(args[0]))
        elif e.func in ("min_by", "max_by", "first") and args:  # one item of its list
            self.note(text, self.items_of(args[0]))

    @contextmanager
    def binding(self, name: str | None, py: str) -> Iterator[None]:
        """While the body of a statement binding ``name`` to the Python local ``py`` is
        written, ``name`` reads ``py`` (see the module docstring)."""
        if name is None:
            yield
            return
        before = self.bound.get(name)
        self.bound[name] = py
        try:
            yield
        finally:
            if before is None:
                del self.bound[name]
            else:
                self.bound[name] = before

    @contextmanager
    def function(self) -> Iterator[None]:
        """While a function of its own is written: no name bound around it reaches inside."""
        before, self.bound = self.bound, {}
        try:
            yield
        finally:
            self.bound = before


#: built-ins that return a new list at each call (dsl/builtins.py)
_FRESH_LISTS = SEAT_LISTS | {"sorted"}


def fresh_list(e: ir.Expr, game: ir.Game) -> bool:
    """Is the value of ``e`` a list made anew each time it is evaluated, so that no statement can
    change it while a loop runs over it (a zone, ``players`` or a local may be changed, or be
    the same list as one that is)? A comprehension, a list literal, a range ``a..b`` and the
    built-ins above are; a rules function of a built-in's name is not known to be."""
    if isinstance(e, (ir.Comprehension, ir.ListLit)):
        return True
    if isinstance(e, ir.BinOp):
        return e.op == ".."
    return isinstance(e, ir.Call) and e.func in _FRESH_LISTS and e.func not in game.functions
