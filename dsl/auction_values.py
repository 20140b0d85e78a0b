"""What an auction's settings may be (docs/language.md, 21), and the checks of computed ones.

A bid, a price and a seat's means are 0 or more; an increment is 1 or more (bids must rise, a
Dutch price must fall); a Dutch start price is at least its lowest price; the lowest bid is at
most ``most``; each seat bids once per round (no duplicate bidders). A constant setting that
breaks one is a check error where it is written (dsl/auction.py, ``check_settings``); a computed
one is checked as the auction runs by the hidden built-ins below, which dsl/auction.py wraps
around the user's expression in the lowered statements: both back ends call these same
functions, so their rule errors are the same, at the auction's line.

This module is part of the runtime a generated module imports (through dsl/builtins.py): it
imports nothing but the error classes.
"""

from __future__ import annotations

from typing import Any

from .errors import RuleError

#: (the least value, why) of each setting checked; "dutch_increment": a Dutch ``increment``,
#: "start_price": a Dutch ``price`` (its least is the auction's ``min_bid``)
LEAST: dict[str, tuple[int | None, str]] = {
    "min_bid": (0, "a bid is 0 or more"),
    "increment": (1, "each bid must beat the last by 1 or more"),
    "dutch_increment": (1, "the price must fall by 1 or more at each step"),
    "price": (0, "a price is 0 or more"),
    "most": (0, "a bid is 0 or more"),
    "means": (0, "a seat's means are 0 or more (0: it cannot pay)"),
    "start_price": (None, "the price only falls, so it would never be offered"),
}


def _key(what: str) -> str:
    """The key the user wrote for the setting ``what``."""
    return {"dutch_increment": "increment", "start_price": "price"}.get(what, what)


def too_low(what: str, value: Any, least: int | None = None, who: str = "") -> str:
    """The message for the setting ``what`` (a key of LEAST) when it is ``value``, below its
    least (``least``: the auction's min_bid, for "start_price"; ``who``: the seat whose means
    these are, "P2", or "")."""
    why = LEAST[what][1]
    if what == "start_price":
        return f"the auction's start 'price' is {value}, below its 'min_bid' ({least}): {why}"
    of = f" of {who}" if who else ""
    return f"the auction's '{_key(what)}'{of} is {value}: {why}"


def auction_at_least(value: Any, what: str, least: Any = None) -> Any:
    """``value`` (the setting ``what`` of an auction, computed as it runs), when it is at least
    its least (``least``: the auction's min_bid, for "start_price"); else a RuleError."""
    floor = LEAST[what][0]
    if value < (least if floor is None else floor):
        raise RuleError(too_low(what, value, least))
    return value


def auction_means(value: Any, seat: Any) -> Any:
    """``value``, the means of ``seat`` in an auction, when it is 0 or more; else a RuleError
    that names the seat (P1..Pn)."""
    if value < 0:
        raise RuleError(too_low("means", value, who=f"P{seat + 1}" if type(seat) is int else ""))
    return value


def auction_bidders(seats: Any) -> Any:
    """``seats``, the bidders of an auction in bidding order, when no seat is in it twice; else
    a RuleError naming the seat (P1..Pn)."""
    seen: set[Any] = set()
    for p in seats:
        if p in seen:
            who = f"P{p + 1}" if type(p) is int else "none" if p is None else repr(p)
            raise RuleError(
                f"the auction's 'bidders' hold {who} twice; each seat bids once in each round: "
                "name each bidder once"
            )
        seen.add(p)
    return seats
