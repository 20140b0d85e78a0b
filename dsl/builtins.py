"""The built-in functions of the rules language, in one registry.

Each entry gives everything the three readers of a built-in need: its arity and argument types
and how its result type follows from them (the checker), its implementation (the interpreter),
and the Python text a generated module evaluates it with (the code generator). A built-in that
needs the compiled program itself (a pattern table, the card of an item key) has no
implementation here: each back end compiles it, and ``tests/test_builtins.py`` checks that
both do so for every such entry.

This module is part of the runtime a generated module imports: it imports nothing but the
error classes (no lark, yaml or jsonschema).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .auction_values import auction_at_least, auction_bidders, auction_means
from .errors import RuleError

#: A type family an argument must fit: a zone or list ("seq"), a checker type ("player",
#: "int", "str"), a table name ("table"), or "" for any type.
ArgType = str


@dataclass(frozen=True)
class Builtin:
    """One built-in function.

    ``args`` holds the type family of each position (see ArgType); ``result`` computes the
    result type from the argument types. ``impl(st, *values)`` is the interpreter's
    implementation and ``emit(texts)`` the generated module's Python expression, given the
    arguments' Python texts (names in it come from meeple.runtime); both are None for
    a built-in each back end compiles itself (``compiled_by_back_end``). ``reduce`` (a Python
    function over the list of items) and ``emit_reduce`` (a template over ``{0}``, the
    generator expression's text) make it reduce a generator argument, ``f(x for x in xs)``,
    without building the list. ``numbers_or_list``: one list, or several numbers (min, max).
    ``literal_key``: the argument is a quoted item key, checked against the items (card).
    ``binds``: the first argument is ``NAME in SEQ`` and the second an expression of NAME,
    evaluated once per item (sorted, min_by, max_by); ``impl(st, items, key)`` then takes the
    items and a Python function giving an item's key, and ``emit`` the items' text and the text
    of such a function.
    """

    name: str
    min_args: int
    max_args: int
    args: tuple[ArgType, ...]
    result: Callable[[list[str]], str]
    doc: str
    impl: Callable[..., Any] | None = None
    emit: Callable[[list[str]], str] | None = None
    reduce: Callable[[list[Any]], Any] | None = None
    emit_reduce: str | None = None
    numbers_or_list: bool = False
    literal_key: bool = False
    binds: bool = False

    @property
    def compiled_by_back_end(self) -> bool:
        """True when each back end compiles this built-in itself (it needs the program)."""
        return self.impl is None


# ---------------------------------------------------------------- runtime helpers
def first_of(xs: Any) -> Any:
    """The first item of a zone (its bottom card) or list; IndexError when there is none."""
    for x in xs:
        return x
    raise IndexError("first() of an empty list")


def seat_index(st: Any, p: Any) -> int:
    """The position of seat ``p`` in ``st.players``; a RuleError when it is not in play (players
    named as everywhere, P1..Pn)."""
    try:
        return int(st.players.index(p))
    except ValueError:
        raise RuleError(_not_in_play(st, p)) from None


def _not_in_play(st: Any, p: Any) -> str:
    n = st.prog.num_players
    if not st.players:  # every seat eliminated, and the rules go on
        return (
            "every player is out of the game (all were eliminated), so no seat follows or "
            "precedes another: the rules must end the game ('end game') when the last player "
            "is eliminated, or before"
        )
    what = "none" if p is None else f"seat {p}" if type(p) is int else repr(p)
    return (
        f"{what} is not a player in this {n}-player game "
        f"(seats are P1..P{n}, numbered 0 to {n - 1} in the rules)"
    )


def seat_after(st: Any, p: int, step: int) -> int:
    """The seat ``step`` places after ``p`` among the seats in play (1: clockwise)."""
    ps = st.players
    if p not in ps and isinstance(p, int) and ps:  # an eliminated seat: its live neighbour
        return _live_neighbour(st, p, step)
    return int(ps[(seat_index(st, p) + step) % len(ps)])


def _live_neighbour(st: Any, p: int, step: int) -> int:
    n = st.prog.num_players
    if not 0 <= p < n:
        seat_index(st, p)  # raises: not a seat at all
    q = (p + step) % n
    while q not in st.players:
        q = (q + step) % n
    return q


def others(st: Any, p: int) -> list[int]:
    """The other seats in play, clockwise after ``p``."""
    ps = st.players
    if p in ps:  # (the common case, at the cost of two slices: called often once a seat is out)
        i = ps.index(p)
        return ps[i + 1 :] + ps[:i]
    return [q for q in clockwise_from(st, p) if q != p]


def clockwise_from(st: Any, p: int) -> list[int]:
    """Every seat in play, clockwise, starting with ``p`` (or its next live neighbour)."""
    ps = st.players
    if p in ps:  # (the common case: see others)
        i = ps.index(p)
        return ps[i:] + ps[:i]
    if isinstance(p, int) and ps:  # an eliminated seat: from the next live one
        p = _live_neighbour(st, p, 1)
    i = seat_index(st, p)
    return ps[i:] + ps[:i]


def sorted_by(st: Any, xs: Any, key: Callable[[Any], Any]) -> list[Any]:
    """The items of ``xs`` by increasing key; equal keys keep their order (each key is asked
    once, in the items' order)."""
    return sorted(xs, key=key)


def track_order(st: Any, values: Any, ties: Any = None) -> list[int]:
    """The players of ``ties`` (default: every seat in play, in seat order), highest on the
    track first; tied players keep their order in ``ties`` (dsl/tracks.py)."""
    order = list(st.players if ties is None else ties)
    return sorted(order, key=lambda p: -values[p])


def _extreme(name: str, pick: Callable[..., Any]) -> Callable[..., Any]:
    def impl(st: Any, xs: Any, key: Callable[[Any], Any]) -> Any:
        items = list(xs)
        if not items:
            raise RuleError(f"{name}() of an empty list has no item to give")
        return pick(items, key=key)  # the first of the tied items, as min() and max() give

    return impl


def pairs_of(st: Any, xs: Any, ys: Any) -> list[list[Any]]:
    """The i-th item of ``xs`` with the i-th of ``ys``, for every i; two lists of different
    lengths are a rule error (pairing them would drop items silently)."""
    a, b = list(xs), list(ys)
    if len(a) != len(b):
        raise RuleError(
            f"pairs() pairs two lists item by item, but they have {len(a)} and {len(b)} items"
        )
    return [[x, y] for x, y in zip(a, b, strict=True)]


def _pair_type(a: list[str]) -> str:
    """Pairs of one type are lists of it; of two types, ``pair:X|Y`` (``pr[0]`` is an X, ``pr[1]``
    a Y), so a seat paired with a card is still shown as a seat, not as its number."""
    x, y = elem(a[0]), elem(a[1])
    if x == y or "any" in (x, y):
        return "list:list:" + (y if x == "any" else x)
    if any(t.startswith(("list:", "pair:")) or "|" in t for t in (x, y)):
        return "list:list:any"
    return f"list:pair:{x}|{y}"


def pair_types(t: str) -> tuple[str, str] | None:
    """The two item types of a pair type ``pair:X|Y``; None for any other type."""
    if not t.startswith("pair:"):
        return None
    x, _, y = t[5:].partition("|")
    return x, y


min_by = _extreme("min_by", min)
max_by = _extreme("max_by", max)


def _minmax(f: Callable[..., Any]) -> Callable[..., Any]:
    def impl(st: Any, *args: Any) -> Any:
        return f(args[0]) if len(args) == 1 else f(args)

    return impl


def _emit_minmax(name: str) -> Callable[[list[str]], str]:
    def emit(a: list[str]) -> str:
        return f"{name}({a[0]})" if len(a) == 1 else f"{name}(({', '.join(a)},))"

    return emit


def elem(t: str) -> str:
    """The item type of a list type (a zone's items are cards); ``any`` for anything else."""
    if t == "zone":
        return "card"
    return t[5:] if t.startswith("list:") else "any"


def _int(a: list[str]) -> str:
    return "int"


# ---------------------------------------------------------------- the registry
_ALL = (
    Builtin(
        "count", 1, 1, ("seq",), _int, "number of items in a zone or list",
        impl=lambda st, x: len(x), emit=lambda a: f"len({a[0]})",
        reduce=len, emit_reduce="len([{0}])",
    ),
    Builtin(
        "sum", 1, 1, ("seq",), _int, "sum of a list of numbers",
        impl=lambda st, x: sum(x), emit=lambda a: f"sum({a[0]})",
        reduce=sum, emit_reduce="sum([{0}])",
    ),
    Builtin(
        "min", 1, 9, (), _int, "smallest of numbers, or of one list",
        impl=_minmax(min), emit=_emit_minmax("min"),
        reduce=min, emit_reduce="min([{0}])", numbers_or_list=True,
    ),
    Builtin(
        "max", 1, 9, (), _int, "largest of numbers, or of one list",
        impl=_minmax(max), emit=_emit_minmax("max"),
        reduce=max, emit_reduce="max([{0}])", numbers_or_list=True,
    ),
    Builtin(
        "any", 1, 1, ("seq",), lambda a: "bool", "true if any item is true",
        impl=lambda st, x: any(x), emit=lambda a: f"any({a[0]})",
        reduce=any, emit_reduce="any([{0}])",
    ),
    Builtin(
        "all", 1, 1, ("seq",), lambda a: "bool", "true if every item is true",
        impl=lambda st, x: all(x), emit=lambda a: f"all({a[0]})",
        reduce=all, emit_reduce="all([{0}])",
    ),
    Builtin(
        "first", 1, 1, ("seq",), lambda a: elem(a[0]), "first item (error if empty)",
        impl=lambda st, x: first_of(x), emit=lambda a: f"first({a[0]})",
        reduce=first_of, emit_reduce="first([{0}])",
    ),
    Builtin(
        "top", 1, 1, ("seq",), lambda a: elem(a[0]), "top card of a zone (error if empty)",
        impl=lambda st, z: z[-1], emit=lambda a: f"{a[0]}[-1]",
    ),
    Builtin(
        "bottom", 1, 1, ("seq",), lambda a: elem(a[0]), "bottom card (error if empty)",
        impl=lambda st, z: z[0], emit=lambda a: f"{a[0]}[0]",
    ),
    Builtin(
        "left_of", 1, 1, ("player",), lambda a: "player", "next seat clockwise",
        impl=lambda st, p: seat_after(st, p, 1), emit=lambda a: f"seat_after(st, {a[0]}, 1)",
    ),
    Builtin(
        "right_of", 1, 1, ("player",), lambda a: "player", "next seat counter-clockwise",
        impl=lambda st, p: seat_after(st, p, -1), emit=lambda a: f"seat_after(st, {a[0]}, -1)",
    ),
    Builtin(
        "clockwise_from", 1, 1, ("player",), lambda a: "list:player", "all seats from a seat",
        impl=clockwise_from, emit=lambda a: f"clockwise_from(st, {a[0]})",
    ),
    Builtin(
        "others", 1, 1, ("player",), lambda a: "list:player", "other seats, clockwise after",
        impl=others, emit=lambda a: f"others(st, {a[0]})",
    ),
    Builtin("pattern_rank", 2, 2, ("seq", "table"), _int, "rank in a pattern table"),
    Builtin("pattern_label", 2, 2, ("seq", "table"), lambda a: "str", "label of that rank"),
    Builtin(
        "abs", 1, 1, ("int",), _int, "absolute value",
        impl=lambda st, x: abs(x), emit=lambda a: f"abs({a[0]})",
    ),
    Builtin(
        "card", 1, 1, ("str",), lambda a: "card", "the first card whose item key is given",
        literal_key=True,
    ),
    Builtin(
        "sorted", 2, 2, ("seq", ""), lambda a: "list:" + elem(a[0]),
        "the items by increasing key (ties keep their order)",
        impl=sorted_by, emit=lambda a: f"sorted_by(st, {a[0]}, {a[1]})", binds=True,
    ),
    Builtin(
        "pairs", 2, 2, ("seq", "seq"), _pair_type,
        "the i-th item of the first list with the i-th of the second, as [x, y] lists",
        impl=pairs_of, emit=lambda a: f"pairs_of(st, {a[0]}, {a[1]})",
    ),
    Builtin(
        "min_by", 2, 2, ("seq", ""), lambda a: elem(a[0]),
        "the item with the smallest key (the first of those tied)",
        impl=min_by, emit=lambda a: f"min_by(st, {a[0]}, {a[1]})", binds=True,
    ),
    Builtin(
        "max_by", 2, 2, ("seq", ""), lambda a: elem(a[0]),
        "the item with the largest key (the first of those tied)",
        impl=max_by, emit=lambda a: f"max_by(st, {a[0]}, {a[1]})", binds=True,
    ),
    Builtin(
        "track_order", 1, 2, ("", "list:player"), lambda a: "list:player",
        "the players highest on a per-player track first; ties in seat order, or in the order "
        "of the second argument (a list of players, which also says who is ranked)",
        impl=track_order, emit=lambda a: f"track_order(st, {', '.join(a)})",
    ),
)  # fmt: skip

#: The auction statement's own checks of its computed settings (dsl/auction_values.py): only
#: its lowered statements call them; the rules never name them (not documented built-ins).
_HIDDEN = (
    Builtin(
        "_auction_at_least", 2, 3, ("int", "str", "int"), _int, "an auction setting, checked",
        impl=lambda st, *a: auction_at_least(*a),
        emit=lambda a: f"auction_at_least({', '.join(a)})",
    ),
    Builtin(
        "_auction_means", 2, 2, ("int", "player"), _int, "a seat's means, checked",
        impl=lambda st, x, p: auction_means(x, p), emit=lambda a: f"auction_means({a[0]}, {a[1]})",
    ),
    Builtin(
        "_auction_bidders", 1, 1, ("seq",), lambda a: a[0], "bidders, each once",
        impl=lambda st, xs: auction_bidders(xs), emit=lambda a: f"auction_bidders({a[0]})",
    ),
)  # fmt: skip
HIDDEN = frozenset(b.name for b in _HIDDEN)

#: Every built-in function by name.
BUILTINS: dict[str, Builtin] = {b.name: b for b in _ALL + _HIDDEN}

#: The built-ins that reduce a generator argument, and "list" (a list comprehension).
REDUCERS: dict[str, Callable[[list[Any]], Any]] = {
    "list": list,
    **{b.name: b.reduce for b in _ALL if b.reduce is not None},
}

#: The generated module's text of each reducer, over ``{0}``: the generator's text.
EMIT_REDUCERS: dict[str, str] = {
    "list": "[{0}]",
    **{b.name: b.emit_reduce for b in _ALL if b.emit_reduce is not None},
}

#: The position of a game whose ``play:`` declares rounds, phases and turns (dsl/structure.py):
#: name -> (type, meaning). The play structure alone sets them; every expression may read
#: them, and they are part of the state (saved, observed, shown) like variables.
POSITION: dict[str, tuple[str, str]] = {
    "round": ("int", "the number of the round being played (1 for the first; 0 before it)"),
    "phase": ("str", "the name of the phase being played ('' between phases)"),
    "turn_player": ("player", "the seat whose turn it is (none outside turns)"),
    "start_player": ("player", "the seat that starts the round (the first seat unless declared)"),
}

#: With a phase whose turns go on ``until: all_passed``: one yes/no per seat, whether it has
#: passed in that phase (the ``pass`` statement sets the turn player's; the phase clears them).
PASSED = "passed"
