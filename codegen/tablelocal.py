"""A choice's owner-count table read once, into a local, before its options are collected.

A count by owner read from the table (codegen/tally.py) is written
``((_TD.get(st) or tally_of(st))[z] or tally_zone(st, z))[E]``: a dict lookup (and a call of
its ``get``) for every read. Shadow of the Sun's Action choice reads two counts per district
and other player, up to 24 per turn, with no statement in between: the lines that collect a
choice's options (codegen/choice.py) run no statement that could drop or replace the table, so
the table of this state is the same object at every read. Here ``t = (_TD.get(st) or
tally_of(st))`` is written once before those lines and each read says ``t``.

Sound because: ``tally_of`` makes a table only when this state has none, and nothing in the
lines clears ``_TD`` (no line that may move cards, which would be followed by
``_TD.clear()``, codegen/tally.drops, and no call of a direct function ``c_N``, whose own code
may clear it; a rules function ``fn_N`` only reads); ``tally_zone`` stores the counts it makes
in the table of this state, which is ``t``. Reading the table early where no count is read on
the path taken only makes an empty table (its zones are counted when read): nothing a playout
observes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .tally import TABLE, _moves_maybe
from .writer import Writer

_DIRECT_CALL = re.compile(r"(?<![.\w])c_[0-9]+\(")


def hoist(w: Writer, body: Writer, fresh: Callable[[str], str]) -> None:
    """Before ``body`` (the lines collecting a choice's options, not yet written to ``w``),
    the table read into a fresh local and each of ``body``'s reads of it made a read of the
    local, where the module docstring allows; else nothing changes."""
    lines = body.lines
    if not any(TABLE in line for line in lines):
        return
    if any(
        _moves_maybe(line) or _DIRECT_CALL.search(line) or "_TD" in line.replace(TABLE, "")
        for line in lines
    ):
        return
    t = fresh("tb")
    w.line(f"{t} = {TABLE}  # (codegen/tablelocal.py)")
    body.lines = [line.replace(TABLE, t) for line in lines]
