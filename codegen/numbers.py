"""An option over a range of numbers, in direct code: the ends checked, not every number.

An option ``for n in A..B`` (Sonnenkönig's bids, ``amount in high + 1 .. can_pay(p, lot)``)
offers each number of the range, and each offered number must fit its action site's range
(``Site.action`` raises otherwise). codegen/choice.py wrote a Python loop that tests and appends
every number. The items are ``span_list(A, B)``: consecutive increasing whole numbers, so they
all fit ``0 <= n < SIZE`` exactly when the first is at least 0 and the last below SIZE; only
otherwise is each tested in order, so the first that does not fit raises the same error as
before. The list itself is the option's values (made by ``list(range(..))``), with no per-item
code. This applies to an option whose items have no condition of their own and whose ids need
no merge (a range never repeats a number: choice.repeats).
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from .writer import Writer


def consecutive(em: Any, o: ir.Option, domain: str, acts: str, cond: str) -> bool:
    """Are option ``o``'s values a range ``A..B`` that needs no per-item code but the site's
    check (no condition ``cond`` per item, no ids kept in ``acts``, numbers of a site with a
    range: ``domain`` int...)?"""
    return (
        isinstance(o.iter, ir.BinOp)
        and o.iter.op == ".."
        and domain.startswith("int")
        and not acts
        and not cond
    )


def write_range(w: Writer, v: str, x: str, source: str, loc: str, action: str, size: int) -> None:
    """``v``: the list ``source`` (consecutive numbers), each checked to fit the site's range
    ``0 <= x < size`` as ``action`` (``Site.action`` of ``x``) checks it, only where an end does
    not fit (then in order, so the first that does not fit raises)."""
    w.line(f"{v} = {source}{loc}")
    if size <= 0:  # a site without a range checks each number by its call
        w.line(f"for {x} in {v}:")
        with w.indent():
            w.line(f"{action}  # a number out of the site's range is an error")
        return
    w.line(f"if {v} and not (0 <= {v}[0] and {v}[-1] < {size}):  # an end out of range")
    with w.indent():
        w.line(f"for {x} in {v}:")
        with w.indent():
            w.line(f"if not 0 <= {x} < {size}:")
            with w.indent():
                w.line(f"{action}  # (its error)")
