"""The run-time half of majorities (dsl/majorities.py): one function both back ends call, so the
interpreter and a generated module hand a majority to the same players by construction."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from meeple.dsl.errors import RuleError


@lru_cache(maxsize=64)
def _modes(code: str) -> dict[int, str]:
    """ "2-3:nobody,4-6:all" as {2: "nobody", 3: "nobody", 4: "all", ...}."""
    out: dict[int, str] = {}
    for part in code.split(","):
        counts, mode = part.split(":")
        a, b = counts.split("-")
        for n in range(int(a), int(b) + 1):
            out[n] = mode
    return out


def majority_holders(
    st: Any, among: Any, at_least: int, ties: str, place: int, *keys: list[Any]
) -> list[Any]:
    """The holders of a majority: of the candidates ``among`` whose first key is at least
    ``at_least``, those with the largest keys (compared in order: the count, then each
    tie-breaker); for ``place`` 2 the same among the candidates below those. When several are
    left, the tie mode for the number of players still in the game decides: all of them, or
    nobody."""
    if len(keys) == 1 and place == 1:  # the common case, in one pass: a count and no breakers
        best: Any = None
        holders: list[Any] = []
        for x, k in zip(among, keys[0], strict=True):
            if k is None:
                raise RuleError("a majority's count is none; it must be a number")
            if k < at_least or (best is not None and k < best):
                continue
            if best is None or k > best:
                best, holders = k, [x]
            else:
                holders.append(x)
        if len(holders) > 1 and _mode(ties, len(st.players)) == "nobody":
            return []
        return holders
    cands = list(among)
    rows = list(zip(*keys, strict=True)) if len(keys) > 1 else [(k,) for k in keys[0]]
    for row in rows:
        if None in row:
            raise RuleError("a majority's count is none; it must be a number")
    pool = [(x, k) for x, k in zip(cands, rows, strict=True) if k[0] >= at_least]
    if place == 2 and pool:
        top = max(k for _, k in pool)
        pool = [(x, k) for x, k in pool if k != top]
    if not pool:
        return []
    top = max(k for _, k in pool)
    tied = [x for x, k in pool if k == top]
    if len(tied) > 1 and _mode(ties, len(st.players)) == "nobody":
        return []
    return tied


def majority_top(st: Any, among: Any, at_least: int, ties: str, counts: list[Any]) -> list[Any]:
    """``majority_holders(st, among, at_least, ties, 1, counts)`` (one count, first place), as
    a generated module calls it: the same holders in the same order and the same errors, with
    the counts searched by list methods (max, count, index) instead of a loop in Python.
    ``counts`` is a list, one count per candidate of ``among`` (any iterable)."""
    if type(among) is not list:
        among = list(among)
    if len(counts) != len(among):  # (majority_holders' zip(strict=True) raises the same)
        raise ValueError("zip() arguments differ in length")
    if None in counts:
        raise RuleError("a majority's count is none; it must be a number")
    if not counts:
        return []
    best = max(counts)
    if best < at_least:
        return []
    if counts.count(best) == 1:
        return [among[counts.index(best)]]
    if _mode(ties, len(st.players)) == "nobody":
        return []
    return [x for x, k in zip(among, counts, strict=True) if k == best]


def majority_has(st: Any, who: Any, among: list[Any], at_least: int, ties: str, count: Any) -> bool:
    """``who in M(...)`` for a majority of one count and first place, as the generator
    specializes it: ``count(x)`` is the candidate's count, asked of the others only once
    ``who``'s own count reaches the threshold. The same answer as ``who in majority_holders(..)``
    for counts that are never none (the generator uses it only for those)."""
    if who not in among:
        return False
    mine = count(who)
    if mine < at_least:
        return False
    tied = False
    for x in among:
        if x != who:
            k = count(x)
            if k > mine:
                return False
            tied = tied or k == mine
    return not tied or _mode(ties, len(st.players)) != "nobody"


def _mode(ties: str, players: int) -> str:
    """The tie mode for this number of players still in the game (``num_players``: an
    elimination can change it); below the game's minimum, the smallest count's mode."""
    modes = _modes(ties)
    return modes.get(players) or modes[min(modes)]
