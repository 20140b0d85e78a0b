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

import re
from collections.abc import Callable, Container, Iterator
from contextlib import contextmanager

from meeple.dsl import ir
from meeple.dsl.majorities import HOLDERS

#: the fact of a seat: an int from 0 to n-1
SEAT = "seat"

#: built-ins whose value is a seat (dsl/builtins.py: seat_after), and whose items are seats
SEAT_VALUES = frozenset({"left_of", "right_of"})
SEAT_LISTS = frozenset({"others", "clockwise_from"})


#: the fact of a card of any kind: an item of a zone (State keeps only Card objects in zones:
#: State.move refuses anything else), equal only to itself (codegen/memo keeps values by it)
CARD = "card"

#: the text of one zone read, ``st.zones[Z_x1]`` or ``st.zones[(Z_x1 + p)]``: a list of cards
_ZONE_READ = re.compile(r"st\.zones\[[\w ()+]*\]")


def card_of(kind: str) -> str:
    """The fact of a card of ``kind`` (a kind's name as ``P.kind_cards`` keys it)."""
    return "card:" + kind


class Facts:
    """The facts of one module's texts (see the module docstring)."""

    def __init__(self, game: ir.Game | None = None) -> None:
        self.values: dict[str, str] = {}
        self.items: dict[str, str] = {"st.players": SEAT}
        # property -> (fact of its value, fact of its items) where every kind that has it
        # declares it of one kind of cards, or a list of them: the layout puts those cards
        # there (runtime/layout: a property of a kind's type holds that kind's card by key)
        self.props: dict[str, tuple[str | None, str | None]] = {}
        if game is not None:
            self.props = _property_facts(game)
        # language name -> Python local, while a statement's body that binds it is written
        self.bound: dict[str, str] = {}

    def of(self, text: str) -> str | None:
        """The fact of the value of ``text``, or None."""
        return self.values.get(text)

    def items_of(self, text: str) -> str | None:
        """The fact of every item of the list ``text``, or None."""
        fact = self.items.get(text)
        if fact is None and _ZONE_READ.fullmatch(text):
            return CARD
        return fact

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

    def prop(self, text: str, name: str) -> None:
        """``text`` reads the property ``name`` of a card (``CARD.props[name]``)."""
        value, items = self.props.get(name, (None, None))
        self.note(text, value)
        self.note_items(text, items)

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


def _property_facts(game: ir.Game) -> dict[str, tuple[str | None, str | None]]:
    """What each property holds when all kinds that declare it declare it alike: a card of a
    kind (its fact, None) or a list of such cards (None, its items' fact)."""
    types: dict[str, set[str]] = {}
    for k in game.kinds.values():
        for name, t in k.properties.items():
            types.setdefault(name, set()).add(t)
    out: dict[str, tuple[str | None, str | None]] = {}
    for name, ts in types.items():
        if len(ts) != 1:
            continue
        (t,) = ts
        if t in game.kinds:
            out[name] = (card_of(t), None)
        elif t.startswith("list:") and t[5:] in game.kinds:
            out[name] = (None, card_of(t[5:]))
    return out


#: a seat list's argument written so that reading it twice is reading one value twice
_PURE_ARG = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|env\['\w+'\]|st\.vars\['\w+'\]|[0-9]+")

#: the seats in play of ``SEAT_LISTS``, from each seat, when every seat is in play: a build's
#: constants (tuples: a loop or a comprehension only runs over them)
SEAT_TABLES = {
    name: f"{{p: tuple(range(p{skip}, num_players)) + tuple(range(p)) for p in range(num_players)}}"
    for name, skip in (("clockwise_from", ""), ("others", " + 1"))
}


def seat_list_items(
    e: ir.Expr, arg: str, table: Callable[[str], str], key: str | None = None
) -> str | None:
    """Python text for the items of the seat list ``e`` (``others(x)``, ``clockwise_from(x)``,
    its argument written ``arg``) that a loop or a comprehension runs over, never kept as a
    value: when every seat is in play, ``st.players`` is ``[0, .., n-1]`` (a State keeps it in
    seat order, and a save must) and the list from seat x is the table's tuple for x; else, or
    when x is no int key of the table (not a seat of the game; an int first, so that no value
    is hashed that cannot be), the built-in itself, with its errors. ``key``: a text that is
    ``arg`` when it is a seat, and else None (a known seat, a hoisted local's test at entry),
    looked up without that test. None where this does not apply (another call, an argument
    that is not a plain read). ``table(name)`` names the build's table of the built-in
    ``name``; a rules function of the built-in's name is never passed here."""
    if not (isinstance(e, ir.Call) and e.func in SEAT_TABLES and _PURE_ARG.fullmatch(arg)):
        return None
    test = "len(st.players) == num_players"
    if key is None:
        key, test = arg, f"type({arg}) is int and {test}"
    full = f"{table(e.func)}.get({key}) if {test} else None"
    # (a seat's tuple is never empty but others' in a one-seat game, the built-in's [] then)
    return f"(({full}) or {e.func}(st, {arg}))"


#: built-ins that return a new list at each call (dsl/builtins.py; a lowered majority's holders)
_FRESH_LISTS = SEAT_LISTS | {"sorted", HOLDERS}


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
