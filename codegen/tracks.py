"""Emission of a track's ends (dsl/tracks.py): the same comparisons as ``bounded``, inlined so
that an assignment to a track costs two comparisons in the generated module."""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir
from meeple.dsl.limits import MAX_NUMBER
from meeple.dsl.specs import wrap_size

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


def emit_number_check(w: Writer, v: str, decl: ir.VarDecl, span: str) -> None:
    """Lines that refuse a number in local ``v`` beyond MAX_NUMBER, given to variable or track
    ``decl`` (runtime.too_large, as the interpreter's assignment). A track with both ends
    keeps its marker within them, which are smaller (dsl/limits.MAX_INT)."""
    if decl.is_track and decl.min is not None and decl.max is not None:
        return
    m = literal(MAX_NUMBER)
    test = f"-{m} <= {v} <= {m}" if decl.is_track else f"type({v}) is not int or -{m} <= {v} <= {m}"
    w.line(f"if not ({test}):")
    with w.indent():
        w.line(f"raise too_large({literal(decl.name)}, {span})")


def emit_spaces(em: Any, w: Writer, s: ir.Assign, target: str, value: str, seat: str) -> None:
    """An assignment to a track with spaces, as the interpreter's (Program._assign_spaces): the
    marker moves within its ends, then ``reach`` pushes the effects of the spaces it crossed
    going up (``seat``: the emitted seat index, "None" for a track of the whole game)."""
    decl = em.game.variables[s.name]
    old, raw, v = em.names.fresh("old"), em.names.fresh("raw"), em.names.fresh("v")
    span = em._span(s.span)
    w.line(f"{old} = {target}")
    w.line(f"{raw} = {value if s.op == '=' else f'{old} {s.op[0]} {value}'}")
    w.line(f"{v} = {raw}")
    emit_bounded(w, v, decl, span)
    emit_number_check(w, v, decl, span)
    w.line(f"{target} = {v}")
    end = raw if decl.at_max == "wrap" else v  # a marker that wraps passes spaces going round
    w.line(f"reach(st, P.spaces_of[{literal(s.name)}], {old}, {end}, {seat}, {span})")


def emit_spaces_table(em: Any, out: Writer, before: bool) -> None:
    """``P.spaces_of``: the Spaces of each track with spaces, made empty ``before`` the ops (an
    assignment refers to them) and given their edges after (the effects are ops)."""
    for v in em.game.variables.values():
        if not v.spaces:
            continue
        name = literal(v.name)
        if before:
            out.line(f"P.spaces_of[{name}] = Spaces([], {literal(wrap_size(v))})")
            continue
        cost = em.checked.work.call_charge(f"s:{v.name}")  # (in a cycle: budget)
        more = "" if cost is None else f", {cost}"
        edges = ", ".join(
            f"({literal(sp.at + (sp.when == 'passed'))}, {literal(sp.when == 'reached')}, "
            f"TriggerRule(None, {literal(sp.var)}, None, {em._op(sp.body)}{more}))"
            for sp in v.spaces
        )
        out.line(f"P.spaces_of[{name}].edges = [{edges}]  {em._where(v.span)}")
