"""The small helpers both back ends call while a game runs: a seat or a card's ordinal checked
where it is used as an index, a division and a range that refuse what Python would allow, the
call-depth error and the rules-level trace of an error, the temporary binding of a loop name,
and the pattern tables. The interpreter's closures (interpreter/evaluate.py) and a generated
module's code call the same functions, so both fail with the same messages.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable
from typing import Any

from meeple.dsl.errors import RuleError, SourceSpan
from meeple.dsl.limits import MAX_CALL_DEPTH, MAX_NUMBER, MAX_RANGE, MAX_STEP_WORK

from .values import Card

MISSING = object()  # "this local was not bound" (distinct from any value, None included)


def restore_local(env: dict[str, Any], var: str, saved: Any) -> None:
    """Undo a temporary binding of ``var`` (a loop name): put back ``saved`` or unbind it."""
    if saved is MISSING:
        env.pop(var, None)
    else:
        env[var] = saved


RANKS_KEPT = 4096  # the ranks a pattern table keeps, by the group values of a set of cards

_DIVISION: dict[str, Callable[[Any, Any], Any]] = {"//": operator.floordiv, "%": operator.mod}


def too_deep(span: SourceSpan) -> RuleError:
    """The error for procedures or functions calling each other deeper than MAX_CALL_DEPTH."""
    return RuleError(
        f"calls nest more than {MAX_CALL_DEPTH} deep (the limit of procedure and function "
        "calls); does a procedure or function call itself without end?",
        span,
    )


def too_much_work(span: SourceSpan) -> RuleError:
    """The error for more than MAX_STEP_WORK units of work charged since the last decision."""
    return RuleError(
        f"the rules did more than {MAX_STEP_WORK:,} units of work since the last decision; "
        "a loop, a recursive call or triggers setting each other off do not end "
        "(the limit MAX_STEP_WORK, docs/security.md)",
        span,
    )


def charge(st: Any, cost: int, span: SourceSpan) -> None:
    """Charge ``cost`` units (dsl/work.py: a loop's pass, a recursive call) to the work since
    the last decision of ``st``; RuleError at ``span`` past MAX_STEP_WORK. A decision really
    asked moves ``st.move_number``: a charge at a new move number counts from there. A
    generated module writes the same lines inline (codegen/budget.py)."""
    if st.work_move == st.move_number:
        st.work += cost
        if st.work > MAX_STEP_WORK:
            raise too_much_work(span)
    else:
        st.work_move = st.move_number
        st.work = cost


def traced(e: BaseException, entry: str) -> None:
    """Note on an exception leaving a function (or an inline procedure) that it came through
    ``entry`` ("function f (file:line:col)"), innermost first, for the rules-level trace."""
    calls = e.__dict__.setdefault("meeple_calls", [])
    calls.append(entry)


_KINDS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "int": ("a number", lambda v: isinstance(v, int)),
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "player": ("a player", lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool))),
    "str": ("a text", lambda v: isinstance(v, str)),
    "card": ("a card", lambda v: v is None or isinstance(v, Card)),
}


def typed(v: Any, name: str, want: str, span: Any) -> Any:
    """``v``, given to variable ``name`` of declared type ``want`` ("int", "bool", "player",
    "str" or "card"), where the checker could not fix the value's type (``first`` of a list of
    mixed items): a RuleError when it is not of that type. A variable never holds a zone or a
    list, which a save would not keep and a clone would share."""
    words, ok = _KINDS[want]
    if not ok(v):
        what = "a zone or a list" if isinstance(v, list) else type(v).__name__
        raise RuleError(f"'{name}' holds {words}; this value is {what}", span)
    return v


def too_large(name: str, span: Any) -> RuleError:
    """The error for a number beyond ``MAX_NUMBER`` given to variable or track ``name``; both
    back ends test ``-MAX_NUMBER <= v <= MAX_NUMBER`` after each assignment of a number."""
    return RuleError(
        f"'{name}' would hold a number beyond {MAX_NUMBER:,} (the largest meeple keeps): "
        "does a rule multiply it without end?",
        span,
    )


def ordinal(card: Card, kind: str | None, span: Any) -> int:
    """Index of a card among its kind, refusing a card of another kind (a zone per districts
    indexed by a minion would silently pick the wrong pile)."""
    if card.kind != kind:
        raise RuleError(f"{card.name} is not one of the {kind}", span)
    return card.ordinal


def seat(st: Any, p: Any, span: Any) -> int:
    """``p`` when it is a seat of this game (0 to n-1, eliminated or not); else a RuleError at
    ``span``. Python would read ``hand[-1]`` as the last seat's hand and ``hand[n]`` as another
    zone, so every seat used as an index passes here."""
    if type(p) is int and 0 <= p < st.prog.num_players:
        return p
    raise RuleError(not_a_seat(p, st.prog.num_players), span)


def not_a_seat(p: Any, n: int) -> str:
    """The message for a value used as a seat that is not one of the ``n`` seats."""
    what = "none" if p is None else f"seat {p}" if type(p) is int else repr(p)
    return (
        f"{what} is not a player in this {n}-player game "
        f"(seats are P1..P{n}, numbered 0 to {n - 1} in the rules)"
    )


def option_seat(p: Any, n: int) -> int:
    """``p``, the value of an option over seats, when it is one of the ``n`` seats (its action id
    is the site's base plus the seat); else a RuleError (a list of seats holding ``none``)."""
    if type(p) is int and 0 <= p < n:
        return p
    raise RuleError(f"an option over seats cannot be offered: {not_a_seat(p, n)}")


def span_list(lo: int, hi: int, span: Any) -> list[int]:
    """The numbers lo..hi (both included), refusing a runaway range."""
    if hi - lo >= MAX_RANGE:
        raise RuleError(f"the range {lo}..{hi} has more than {MAX_RANGE} numbers", span)
    return list(range(lo, hi + 1))


def divide(a: Any, d: Any, op: str, span: Any) -> Any:
    """``a // d`` or ``a % d``, refusing a division by zero."""
    if d == 0:
        raise RuleError("division by zero", span)
    return _DIVISION[op](a, d)


class PatternTable:
    """A pattern table compiled for look-up: group sizes (sorted, largest first) -> rank.

    Rank 1 is the weakest listed pattern; a set matching no pattern ranks 0.
    """

    def __init__(
        self,
        group_by: str | None,
        patterns: tuple[tuple[int, ...], ...],
        labels: tuple[str, ...],
    ) -> None:
        self.group_by = group_by or "name"
        self.ranks = {p: i + 1 for i, p in enumerate(patterns)}
        self.labels = ("no pattern", *labels)
        self._get = operator.attrgetter(self.group_by)
        # rank by the group values of the cards, in their order: a pure function of them, kept
        # (a playout ranks the same few sets again and again: Shadow of the Sun's Legions)
        self._known: dict[tuple[Any, ...], int] = {}

    def rank(self, cards: list[Card]) -> int:
        """The rank of ``cards`` (0 for none, or a set matching no pattern), by the sizes of
        their groups of equal ``group_by`` values."""
        if not cards:
            return 0
        values = tuple(map(self._get, cards))
        known = self._known.get(values)
        if known is not None:
            return known
        sizes = tuple(sorted(Counter(values).values(), reverse=True))
        rank = self.ranks.get(sizes, 0)
        if len(self._known) < RANKS_KEPT:  # (a bound on the memory: at most so many sets)
            self._known[values] = rank
        return rank

    def label(self, cards: list[Card]) -> str:
        return self.labels[self.rank(cards)]
