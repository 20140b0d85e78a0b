"""Emission of a track's ends (dsl/tracks.py): the same comparisons as ``bounded``, inlined so
that an assignment to a track costs two comparisons in the generated module."""

from __future__ import annotations

from meeple.dsl import ir

from .writer import Writer, literal


def emit_bounded(w: Writer, v: str, decl: ir.VarDecl, span: str) -> None:
    """Lines that bring the new value in local ``v`` onto track ``decl`` (clamp, wrap, or
    raise the RuleError of ``bounded`` at ``span``, the emitted span expression)."""
    lo, hi = decl.min, decl.max
    for end, test, limit, word in (
        (decl.at_max, f"{v} > {literal(hi)}", hi, "rise to"),
        (decl.at_min, f"{v} < {literal(lo)}", lo, "fall to"),
    ):
        if limit is None:
            continue
        w.line(f"if {test}:")
        with w.indent():
            if end == "clamp":
                w.line(f"{v} = {literal(limit)}  # the marker stops at the end; the excess is lost")
            elif end == "wrap":
                assert lo is not None and hi is not None
                w.line(f"{v} = {literal(lo)} + ({v} - {literal(lo)}) % {literal(hi - lo + 1)}")
            else:
                side = "above its maximum" if word == "rise to" else "below its minimum"
                # the rule's name goes in as a literal, never inside an f-string of the module
                before = literal(f"'{decl.name}' would {word} ")
                after = literal(f", {side} {limit}")
                w.line(f"raise RuleError({before} + str({v}) + {after}, {span})")
