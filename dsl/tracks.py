"""Tracks: bounded counters (money, victory points) declared under ``tracks:``.

A track is read and assigned like an ``int`` variable (``thalers[p] += 3``), so state, saves and
observations reuse the variable machinery; it is built into an ``ir.VarDecl`` with ``min``,
``max`` and what an assignment past each end does (``at_min``/``at_max``):

- ``clamp``: the marker stops on the end space, the excess is lost;
- ``refuse``: the assignment is a rule error (the rules must guard the choice that would do it);
- ``wrap``: the marker goes round, ``max`` + 1 is ``min`` again (both ends, and ``max`` needed).

``bounded(value, decl)`` is the one place both back ends take the rule from: the interpreter
calls it, the generated code inlines the same comparisons (codegen/tracks.py). The interpreter
imports this module while a generated module runs: the YAML and schema readers are imported
only where a track is built."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import ir
from .errors import CheckError, RuleError, SchemaError, SourceSpan, did_you_mean
from .limits import is_name

if TYPE_CHECKING:
    from .yamlload import YMap

END_RULES = ("clamp", "refuse", "wrap")


def bound(name: str, node: YMap, key: str, constants: dict[str, ir.ConstDecl]) -> int | None:
    """A track's ``min``/``max``: a number, or the name of a number constant (its value)."""
    if key not in node:
        return None
    value = node[key]
    if not isinstance(value, str):
        return int(value)
    if not is_name(value):  # no name at all ('1:30'): the schema's kind of error
        from .validate import yaml_1_1_hint

        raise SchemaError(
            f"'tracks.{name}.{key}' has the wrong type",
            node.value_spans[key],
            expected="a number, or the name of a number constant",
            suggestion=yaml_1_1_hint(value, ["integer"]),
        )
    c = constants.get(value)
    if c is None or c.type != "int":
        raise CheckError(
            f"the {key} of a track must be a number or a number constant, not '{value}'",
            node.value_spans[key],
            expected="an integer, or the name of a constant whose value is an integer",
            suggestion=did_you_mean(value, [n for n, c in constants.items() if c.type == "int"]),
        )
    return int(c.value)


def track(name: str, node: YMap, parent: YMap, constants: dict[str, ir.ConstDecl]) -> ir.VarDecl:
    """The VarDecl of track ``name`` (a schema-valid mapping under ``tracks:``)."""
    from .build import _span, _value_spans, expr  # build registers this module: import late
    from .yamlload import YMap

    span = _span(parent, name)
    lo, hi = bound(name, node, "min", constants), bound(name, node, "max", constants)
    ends = node["at_ends"]
    at_min, at_max = (str(ends["min"]), str(ends["max"])) if isinstance(ends, dict) else (ends,) * 2
    if "wrap" in (at_min, at_max):
        if at_min != at_max:
            raise CheckError(
                f"track '{name}' wraps at one end only: a marker that goes round leaves by "
                "one end and comes back by the other",
                node.value_spans.get("at_ends", span),
                expected="'at_ends: wrap' for both ends",
                suggestion="write 'at_ends: wrap', or clamp/refuse at both ends",
            )
        if hi is None:
            raise CheckError(
                f"track '{name}' wraps but has no max: there is no last space to go round from",
                node.value_spans.get("at_ends", span),
                expected="a 'max'",
                suggestion="add 'max:' (the last space), or use 'at_ends: clamp'",
            )
    if hi is None and isinstance(ends, YMap):
        raise CheckError(
            f"track '{name}' says what happens above its max, but it has no max",
            ends.key_spans.get("max", span),
            expected=f"a 'max', or 'at_ends: {at_min}' alone",
        )
    initial = (
        expr(node["initial"], node.value_spans["initial"])
        if "initial" in node
        else ir.Const(span, lo)
    )
    per = node.get("per")
    return ir.VarDecl(
        name,
        span,
        "int",
        per,
        initial,
        lo,
        hi,
        str(node.get("visibility", "public")),
        _value_spans(node),
        tuple(str(node[k]) for k in ("min", "max") if isinstance(node.get(k), str)),
        at_min,
        at_max,
        spaces=spaces(name, node, per, lo, hi, at_max == "wrap", constants),
    )


WHENS = ("reached", "passed")


def spaces(
    name: str,
    node: YMap,
    per: str | None,
    lo: int | None,
    hi: int | None,
    wraps: bool,
    constants: dict[str, ir.ConstDecl],
) -> tuple[ir.Space, ...]:
    """The spaces with effects of track ``name`` (its ``spaces:`` list), ordered by where the
    marker meets them going up; every misuse is a CheckError at its line."""
    from .build import _block, _span, _value_spans  # build registers this module: import late

    items = node.get("spaces")
    if not items:
        return ()
    if per not in (None, "players"):
        raise CheckError(
            f"track '{name}' is per {per}: a space's effect names the seat whose marker moved, "
            "and a marker per component has none",
            node.key_spans["spaces"],
            expected="spaces on a track for the whole game or 'per: players'",
            suggestion="run the effect where the rules move that component's marker",
        )
    out: list[ir.Space] = []
    seen: dict[tuple[int, str], SourceSpan] = {}
    for i, item in enumerate(items):
        where = _span(items, i)
        whens = [w for w in WHENS if w in item]
        if len(whens) != 1:
            raise CheckError(
                f"a space of track '{name}' says when its effect runs with exactly one of "
                f"'reached' or 'passed'{', not both' if whens else ''}",
                where,
                expected="'reached: N' (the marker lands on or goes up past space N) or "
                "'passed: N' (it goes up beyond space N)",
                suggestion="keep one of them; two effects are two spaces",
            )
        when = whens[0]
        at = bound(f"{name}.spaces", item, when, constants)
        assert at is not None
        at_span = item.value_spans[when]
        if (lo is not None and at < lo) or (hi is not None and at > hi):
            top = f"{hi}" if hi is not None else "upwards"
            raise CheckError(
                f"space {at} is not on track '{name}', which runs from {lo} to {top}",
                at_span,
                expected=f"a space from {lo} to {top}",
            )
        if when == "passed" and at == hi and not wraps:
            raise CheckError(
                f"no marker ever goes past space {at}, the last space of track '{name}'",
                at_span,
                expected=f"a space below {hi}, or a track that wraps (then passing {hi} is "
                "going round)",
                suggestion=f"write 'reached: {at}' for an effect when the marker gets there",
            )
        if (at, when) in seen:
            raise CheckError(
                f"track '{name}' has two effects for {when} {at} (the first at line "
                f"{seen[(at, when)].line})",
                at_span,
                expected="one effect per space: put both effects' statements in one 'do'",
            )
        seen[(at, when)] = at_span
        var = str(item["as"]) if "as" in item else ("p" if per == "players" else None)
        if var is not None and per is None:
            raise CheckError(
                f"track '{name}' has one marker for the whole game: no seat to name with 'as'",
                item.value_spans["as"],
                expected="'as' only on a track with 'per: players'",
                suggestion="remove 'as'",
            )
        body = _block(item["do"], where, item.get("source"), item.get("interpretation"))
        out.append(ir.Space(at, when, var, body, where, _value_spans(item)))
    # a space is met where the marker crosses into it (reached) or out of it (passed): order
    # by that crossing, and leaving a space comes before reaching the next
    out.sort(key=lambda s: (s.at + (s.when == "passed"), s.when == "reached"))
    return tuple(out)


def tracks(doc: YMap, constants: dict[str, ir.ConstDecl]) -> dict[str, ir.VarDecl]:
    """The tracks of the game, as variables; a name also declared under ``variables:`` is an
    error at the track."""
    from .yamlload import YMap

    section = doc.get("tracks")
    if not isinstance(section, YMap):
        return {}
    plain = doc.get("variables")
    out = {}
    for name, node in section.items():
        if isinstance(plain, YMap) and name in plain:
            raise CheckError(
                f"'{name}' is declared both as a variable and as a track",
                section.key_spans.get(name, section.span),
                expected="one declaration",
                suggestion=f"keep the track and remove 'variables.{name}' "
                f"(declared at {plain.key_spans[name]})",
            )
        out[name] = track(name, node, section, constants)
    return out


def bounded(new: int, decl: ir.VarDecl, span: SourceSpan) -> int:
    """The value a track takes when an assignment gives it ``new``: clamped, wrapped, or a
    RuleError when the end refuses (the message names the track and the end)."""
    lo, hi = decl.min, decl.max
    if hi is not None and new > hi:
        if decl.at_max == "clamp":
            return hi  # a capped track: the excess is lost
        if decl.at_max == "wrap":
            return lo + (new - lo) % (hi - lo + 1)  # type: ignore[operator]
        raise RuleError(f"'{decl.name}' would rise to {new}, above its maximum {hi}", span)
    if lo is not None and new < lo:
        if decl.at_min == "clamp":
            return lo
        if decl.at_min == "wrap":
            return lo + (new - lo) % (hi - lo + 1)  # type: ignore[operator]
        raise RuleError(f"'{decl.name}' would fall to {new}, below its minimum {lo}", span)
    return new


def describe(v: ir.VarDecl, title: str) -> str:
    """The rulebook's sentence for track ``v``: "Thalers: a track from 0 to 12 per player;
    gains beyond 12 are lost; it never falls below 0 (a rule error)." ``title`` is its name as
    the rulebook writes it."""
    per = {None: "", "players": " per player"}.get(v.per, f" per {v.per}")
    if v.max is not None:
        parts = [f"{title}: a track from {v.min} to {v.max}{per}"]
    else:
        parts = [f"{title}: a track{per} from {v.min} upwards"]
    if v.at_min == "wrap":
        parts.append(f"it goes round: past {v.max} it comes back to {v.min}, and the other way")
    else:
        if v.max is not None:
            parts.append(
                f"gains beyond {v.max} are lost"
                if v.at_max == "clamp"
                else f"it may never rise above {v.max} (a rule error)"
            )
        parts.append(
            f"it stops at {v.min} when it would fall below"
            if v.at_min == "clamp"
            else f"it may never fall below {v.min} (a rule error)"
        )
    return "; ".join(parts) + "."


def variable_bound_hint(section: Any, key: str) -> str | None:
    """The suggestion for ``min``/``max`` written on a plain variable: a bounded counter is a
    track (one spelling)."""
    if section == "variables" and key in ("min", "max"):
        return (
            "a bounded counter is a track: declare it under 'tracks:' with min, max and "
            "at_ends (clamp, refuse or wrap); see docs/language.md section 19"
        )
    return None


def check_track_order(e: ir.Call, g: ir.Game) -> None:
    """``track_order(T, ...)``: T must name a per-player track (a CheckError at T if not)."""
    a0 = e.args[0]
    name = a0.id if isinstance(a0, ir.Name) else None
    v = g.variables.get(name) if name is not None else None
    if v is None or not v.is_track or v.per != "players":
        per_player = [n for n, t in g.variables.items() if t.is_track and t.per == "players"]
        raise CheckError(
            "track_order() takes the name of a per-player track first",
            a0.span,
            expected="one of " + ", ".join(per_player)
            if per_player
            else "a track declared under 'tracks:' with 'per: players'",
            suggestion=did_you_mean(name, per_player) if name else None,
        )


def track_spaces(game: ir.Game) -> list[tuple[ir.VarDecl, ir.Space]]:
    """Every space with an effect, track by track in file order, each track's in space order."""
    return [(v, s) for v in game.variables.values() for s in v.spaces]


def check_spaces(checker: Any, game: ir.Game) -> None:
    """Check each space's effect as a block of its own (a trigger body's rules): it cites its
    source, and the seat's name is bound as a player."""
    from .checker import _Scope  # the checker calls this: import late

    for v, s in track_spaces(game):
        what = f"the effect of {s.when} {s.at} on track '{v.name}'"
        checker._need_source(s.span, what, s.body.source)
        scope = _Scope()
        if s.var is not None:
            checker._bind(s.var, "player", scope, s.spans.get("as", s.span), f"the 'as' of {what}")
        checker._block(s.body, scope)


def describe_space(v: ir.VarDecl, s: ir.Space, title: str) -> str:
    """The rulebook's heading of a space's effect: "Reaching space 10 of fame (each time the
    marker of `p` moves up onto or past it)"; ``title`` is the track's name as written."""
    verb, how = {
        "reached": ("Reaching", "up onto or past it"),
        "passed": ("Passing", "up beyond it"),
    }[s.when]
    whose = f"the marker of `{s.var}`" if s.var else "the marker"
    lap = ", also going round" if v.at_max == "wrap" else ""
    return f"{verb} space {s.at} of {title} (each time {whose} moves {how}{lap})"
