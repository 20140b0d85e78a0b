"""The effects of a track's spaces (dsl/tracks.py, ``spaces:``), run by both back ends.

An assignment that moves a marker up sets off the spaces it crosses: a space ``reached`` is
crossed where the marker comes onto it, one ``passed`` where the marker leaves it upwards. Each
crossing pushes the space's body as a frame, as a trigger's body is pushed (ops.push_bodies),
so the effects run after the assignment and before the next statement, in the order the marker
met them, and may stop for decisions. Moving down sets off nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.dsl.errors import SourceSpan

from .helpers import charge
from .ops import MAX_DEPTH, Frame, TriggerRule, push_bodies

if TYPE_CHECKING:
    from .state import State


class Spaces:
    """The spaces of one track, ready to run: ``edges`` holds (the space the marker enters
    when it crosses, False for passed / True for reached so that leaving a space sorts before
    reaching the next, the body as a TriggerRule whose ``var`` names the seat) in crossing
    order; ``size`` is the number of spaces of a track that wraps (None if it does not)."""

    __slots__ = ("edges", "size")

    def __init__(self, edges: list[tuple[int, bool, TriggerRule]], size: int | None) -> None:
        self.edges, self.size = edges, size


def reach(st: State, spaces: Spaces, old: int, end: int, who: Any, span: SourceSpan) -> None:
    """Set off the spaces crossed by a marker going from ``old`` up to ``end`` (on a track
    that wraps, the value before it went round: the marker passes every space on the way, once
    per lap); ``who`` is the seat whose marker moved (None for a track of the whole game)."""
    if end <= old:
        return
    size, found = spaces.size, []
    for e, order, r in spaces.edges:
        if size is None:
            if old < e <= end:
                found.append((e, order, r))
            continue
        first = (old - e) // size + 1  # laps: the marker is at e + k * size for k from first
        count = (end - e) // size + 1 - first
        if count > MAX_DEPTH:
            count = MAX_DEPTH + 1  # as many as the depth limit refuses: no need to list more
        found += [(e + (first + k) * size, order, r) for k in range(count)]
    if size is not None:
        found.sort(key=lambda h: (h[0], h[1]))
    hits = []
    for _, _, r in found:
        if r.body.size:
            if r.cost is not None:  # (spaces in a cycle: dsl/work.py)
                charge(st, r.cost, span)
            hits.append(Frame(r.body, {} if r.var is None else {r.var: who}))
    push_bodies(st, hits, span)
