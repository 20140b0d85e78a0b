"""A majority's count of cards by one property, counted by the runtime without a callback.

``p in colour_majority(col)`` is written ``majority_has(st, p, AMONG, N, TIES, lambda x: COUNT)``
(codegen/exprs.py): a closure per question, a call and a list per candidate. When the count's
Python text is ``len([1 for c in st.zones[(BASE + x)] if (c.props['PROP'] == VALUE)])`` (a
seat's pile of a per-seat zone, its cards whose property equals a name read: Sonnenkönig's
``row_count``, written inline), the candidates are proven seats (codegen/facts) and VALUE is a
plain Python name other than ``c`` and ``x`` (a local, a parameter, a constant of the module:
its read never raises), it is written ``majority_has_count(st, p, AMONG, N, TIES, st.zones,
BASE, 'PROP', VALUE)`` (runtime/majority_counts.py), which reads the same cards in the same
order with the same test (``majority_has_card`` of runtime/card_counts.py where the test is
``is``: VALUE a card, codegen/cardeq.py). The text is matched, not the rules, because the
count is often a function written inline (``row_count(p, col)``) and its text is what runs.
"""

from __future__ import annotations

import re

_FIRST = re.compile("\x00[0-9]+\x01|\x02[0-9]+\x03")  # codegen/cse's marks of a first value
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_COUNT = re.compile(
    rf"len\(\[1 for (?P<c>{_IDENT}) in st\.zones\[\((?P<base>{_IDENT}) \+ (?P<x>{_IDENT})\)\] "
    rf"if \((?P=c)\.props\[(?P<prop>'[A-Za-z_][A-Za-z0-9_]*')\] (?P<op>==|is) "
    rf"(?P<value>{_IDENT})\)\]\)"
)
#: the runtime's count for each comparison: ``is`` where the value is a card (codegen/cardeq)
_HAS = {"==": "majority_has_count", "is": "majority_has_card"}
_TOP = {"==": "majority_top_count", "is": "majority_top_card"}


def count_by_property(
    who: str, among: str, at_least: str, ties: str, x: str, count: str
) -> str | None:
    """The call of ``majority_has_count`` for a majority question whose candidates ``among``
    are proven seats, with the candidate bound to ``x`` in the count's text ``count``; None
    where the count is not a count of a seat's pile by one property."""
    if "\x04" in count:  # it reads a value computed before it (codegen/cse): left as it is
        return None
    # the count is a branch of its own (codegen/cse), so nothing outside it reads what it
    # computes: the marks of its first evaluations are dropped, as cse's ``resolve`` would
    m = _COUNT.fullmatch(_FIRST.sub("", count))
    if m is None or m["x"] != x or m["value"] in (m["c"], x, "st", "env"):
        return None
    return (
        f"{_HAS[m['op']]}(st, {who}, {among}, {at_least}, {ties}, st.zones, "
        f"{m['base']}, {m['prop']}, {m['value']})"
    )


#: the counts of ``majority_top`` up to their iterable: a comprehension per candidate seat
_COUNTS = re.compile(rf"\[(?P<count>len\(\[1 for .*\]\)) for (?P<x>{_IDENT})")
#: a value computed once (codegen/cse) where it is first evaluated: its number
_MARKED = re.compile("\x00([0-9]+)\x01.*\x02\\1\x03", re.S)


def top_by_property(among: str, at_least: str, ties: str, counts: str) -> str | None:
    """The call of ``majority_top_count`` (runtime/majority_counts.py) for the holders of a
    majority of one count and first place, ``majority_top(st, among, at_least, ties, counts)``,
    whose ``counts`` are ``[COUNT for x in among]`` with COUNT a count of a seat's pile by one
    property (as for ``count_by_property``) and ``among`` proven seats (the caller's part).
    The counts run over ``among`` as written, or over the value of ``among`` where codegen/cse
    computes it once (what else reads it still does). None where they do not have that form.
    The caller writes ``counts`` as a branch of its own (codegen/cse), so nothing outside it
    reads what it computes: the marks of its first evaluations are dropped with it."""
    counts = _FIRST.sub("", counts)
    first = _MARKED.fullmatch(among)
    tail = f" in {among if first is None else chr(4) + first[1] + chr(5)}]"  # (cse: `_rN`)
    if not counts.endswith(tail) or "\x04" in counts[: -len(tail)]:
        return None
    m = _COUNTS.fullmatch(counts[: -len(tail)])
    c = _COUNT.fullmatch(m["count"]) if m is not None else None
    if m is None or c is None or c["x"] != m["x"] or c["value"] in (c["c"], m["x"], "st", "env"):
        return None
    return (
        f"{_TOP[c['op']]}(st, {among}, {at_least}, {ties}, st.zones, {c['base']}, "
        f"{c['prop']}, {c['value']})"
    )
