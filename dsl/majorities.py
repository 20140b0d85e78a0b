"""Majorities: "who has the most X in Y", declared once in a top-level ``majorities:`` section.

A majority counts something per candidate (an expression with the candidate bound), among whom,
from which threshold, and says what a tie gives: nobody, all tied, per player count, a chain of
tie-breakers, or a chooser among the tied players (a decision, so only in a ``winner:``
statement). ``second_of`` declares the second place of another majority with its own tie rule.

The front end lowers each majority to a function of the same name whose body calls the internal
built-in ``HOLDERS`` (a name no rules text can spell); both back ends run that one function
(runtime/majorities.py), so they agree by construction. The declarations themselves stay in
``ir.Game.majorities`` for the checker's tie-rule checks and for the rulebook's sentence.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from . import ir
from .errors import CheckError, SourceSpan, did_you_mean
from .limits import is_name

if TYPE_CHECKING:  # a generated module imports HOLDERS through the runtime: no yaml there
    from .yamlload import YMap

#: The internal built-in a lowered majority calls: HOLDERS(among, at_least, ties, place, keys..)
HOLDERS = "majority:holders"
MODES = ("nobody", "all")
#: The majorities of the game being built, for ``winner: ..., of: NAME(...)`` (build.py).
CURRENT: ContextVar[dict[str, ir.Majority]] = ContextVar("majorities", default={})  # noqa: B039
_RANGE = re.compile(r"^\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?$")
_OWN = ("params", "each", "count", "among", "at_least", "tie_breakers")


def build_majorities(doc: YMap, lo: int, hi: int) -> dict[str, ir.Majority]:
    """The ``majorities:`` section of a schema-valid document (players ``lo``..``hi``).
    Raises CheckError with the position of what is wrong."""
    from .build import expr  # noqa: PLC0415  (build imports this module)

    section: Any = doc.get("majorities")  # a YMap (yamlload), when present
    if section is None:  # the schema made it a mapping
        return {}
    out: dict[str, ir.Majority] = {}
    firsts = {n: m for n, m in section.items() if "second_of" not in m}
    for name, node in section.items():
        span = section.key_spans[name]
        target = node.get("second_of")
        base = node
        if target is not None:
            for key in _OWN:
                if key in node:
                    raise CheckError(
                        f"majority '{name}' is the second place of '{target}': it takes its "
                        f"'{key}' from there",
                        node.key_spans[key],
                        suggestion=f"remove '{key}', or declare it on '{target}'",
                    )
            if target not in firsts:
                raise CheckError(
                    f"'second_of' names no first-place majority: '{target}'",
                    node.value_spans["second_of"],
                    suggestion=did_you_mean(str(target), firsts)
                    or "name a majority declared with 'count'",
                )
            base = firsts[target]
        elif "count" not in node:
            raise CheckError(
                f"majority '{name}' says nothing to count",
                span,
                expected="'count: EXPRESSION' (of the player named by 'each', p by default)",
            )
        var = str(base.get("each", "p"))
        if not is_name(var):
            raise CheckError(
                f"'each' of majority '{name}' must be a name", base.value_spans["each"]
            )
        params = [str(x) for x in base.get("params", [])]
        if var in params:
            where = base.value_spans.get("each") or base.value_spans["params"]
            raise CheckError(
                f"majority '{name}' names its candidate '{var}', which is also a parameter: "
                "'count' could not read the parameter",
                where,
                suggestion=f"name the candidate with 'each:', e.g. each: {var}2",
            )
        ties, chooser, not_self = _ties(name, node, lo, hi, expr)
        breakers = base.get("tie_breakers", [])
        among = (
            expr(base["among"], base.value_spans["among"])
            if "among" in base
            else ir.Name(span, "players")
        )
        out[name] = ir.Majority(
            name=name,
            span=span,
            params=tuple(params),
            var=var,
            count=expr(base["count"], base.value_spans["count"]),
            among=among,
            at_least=(
                expr(base["at_least"], base.value_spans["at_least"])
                if "at_least" in base
                else ir.Const(span, 1)
            ),
            ties=ties,
            chooser=chooser,
            not_self=not_self,
            tie_breakers=tuple(
                expr(b, breakers.item_spans[i] if hasattr(breakers, "item_spans") else span)
                for i, b in enumerate(breakers)
            ),
            place=2 if target is not None else 1,
            second_of=str(target) if target is not None else None,
            source=node.get("source"),
            interpretation=node.get("interpretation"),
            spans=dict(node.value_spans),
        )
    return out


def _ties(
    name: str, node: YMap, lo: int, hi: int, expr: Any
) -> tuple[tuple[tuple[int, int, str], ...], ir.Expr | None, bool]:
    """(the per-player-count tie modes, the chooser, not_self) of a majority's ``ties``."""
    t: Any = node.get("ties", "nobody")  # a text or a YMap
    span = node.value_spans.get("ties", node.span)
    if isinstance(t, str):
        if t not in MODES:
            raise CheckError(
                f"unknown tie rule '{t}' for majority '{name}'",
                span,
                expected="nobody, all, {chooser: PLAYER}, or {2..3: nobody, 4..6: all}",
                suggestion=did_you_mean(t, MODES),
            )
        return ((lo, hi, t),), None, False
    # else a mapping (the schema): a chooser, or tie modes per number of players
    if "chooser" in t:
        extra = [k for k in t if k not in ("chooser", "not_self")]
        if extra:
            raise CheckError(
                f"a chooser's tie rule takes 'chooser' and 'not_self', not '{extra[0]}'",
                t.key_spans[extra[0]],
            )
        chooser = expr(t["chooser"], t.value_spans["chooser"])
        return ((lo, hi, "all"),), chooser, bool(t.get("not_self", False))
    if "not_self" in t:
        raise CheckError("'not_self' goes with a 'chooser'", t.key_spans["not_self"])
    rows: list[tuple[int, int, str]] = []
    seen: dict[int, SourceSpan] = {}
    for k, mode in t.items():
        kspan = t.key_spans[k]
        m = _RANGE.match(str(k))
        if m is None:
            raise CheckError(
                f"'{k}' is not a number of players",
                kspan,
                expected="a number (4) or a range (2..3)",
            )
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if mode not in MODES:
            raise CheckError(
                f"unknown tie rule '{mode}' for {k} players",
                t.value_spans[k],
                expected="nobody or all",
                suggestion=did_you_mean(str(mode), MODES),
            )
        if a > b:
            raise CheckError(f"the range {k} is empty", kspan, suggestion=f"write {b}..{a}")
        for n in range(a, b + 1):
            if not lo <= n <= hi:
                raise CheckError(
                    f"the game is for {lo} to {hi} players, not {n}",
                    kspan,
                    suggestion=f"give the tie rule for {lo}..{hi} players",
                )
            if n in seen:
                raise CheckError(f"the tie rule for {n} players is given twice", kspan)
            seen[n] = kspan
        rows.append((a, b, str(mode)))
    missing = [n for n in range(lo, hi + 1) if n not in seen]
    if missing:
        raise CheckError(
            f"majority '{name}' does not say what a tie gives with {_counts(missing)} players",
            span,
            suggestion=f"add {_counts(missing).replace('–', '..')}: nobody (or all)",
        )
    return tuple(sorted(rows)), None, False


def _counts(ns: list[int]) -> str:
    """``[2, 3, 5]`` as "2–3, 5"."""
    parts: list[str] = []
    start = prev = ns[0]
    for n in [*ns[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(f"{start}–{prev}" if prev > start else str(start))
        if n is not None:
            start = prev = n
    return ", ".join(parts)


def ties_code(m: ir.Majority) -> str:
    """The tie modes as the internal built-in reads them: "2-3:nobody,4-6:all"."""
    return ",".join(f"{a}-{b}:{mode}" for a, b, mode in m.ties)


def lower(m: ir.Majority) -> ir.Function:
    """The function that runs majority ``m``: HOLDERS(among, at_least, ties, place, keys..),
    each key the list of one count (or tie-breaker) per candidate."""
    keys = [ir.Comprehension(e.span, e, m.var, m.among, None) for e in (m.count, *m.tie_breakers)]
    body = ir.Call(
        m.span,
        HOLDERS,
        (m.among, m.at_least, ir.Const(m.span, ties_code(m)), ir.Const(m.span, m.place), *keys),
    )
    return ir.Function(m.name, m.span, m.params, body, m.source)


def _never_none(e: ir.Expr, game: ir.Game, depth: int = 0) -> bool:
    """True for a count that cannot be none: a number, a count or sum, arithmetic of those, or a
    function whose body is one (so majority_has needs no none check the interpreter makes)."""
    if depth > 8:
        return False
    if isinstance(e, ir.Const):
        return isinstance(e.value, int) and not isinstance(e.value, bool)
    if isinstance(e, ir.BinOp) and e.op in ("+", "-", "*"):
        return _never_none(e.left, game, depth + 1) and _never_none(e.right, game, depth + 1)
    if isinstance(e, ir.Call):
        if e.func in ("count", "sum"):
            return True
        f = game.functions.get(e.func)
        return f is not None and _never_none(f.body, game, depth + 1)
    return False


def membership(e: ir.BinOp, game: ir.Game) -> ir.Majority | None:
    """The majority of ``x in M(args)`` (or ``not in``) when both back ends may ask it as
    majority_has does: first place, one count that is never none, no chooser; else None."""
    call = e.right
    if e.op not in ("in", "not in") or not isinstance(call, ir.Call):
        return None
    m = game.majorities.get(call.func)
    if m is None or m.place != 1 or m.tie_breakers or m.chooser is not None:
        return None
    return m if _never_none(m.count, game) else None


def add_lowered(functions: dict[str, ir.Function], majorities: dict[str, ir.Majority]) -> None:
    """Add each majority's function to ``functions``; a name both declare is an error."""
    for name, m in majorities.items():
        if name in functions:
            raise CheckError(
                f"majority '{name}' has the name of a function",
                m.span,
                suggestion="rename one of them",
            )
        functions[name] = lower(m)


# ---------------------------------------------------------------- checker hooks
def check_holders(checker: Any, e: ir.Call, scope: dict[str, str]) -> str:
    """The type of a lowered majority's body (a list of its candidates' type); checks that
    each count and tie-breaker is a whole number."""
    among, at_least, _, _, *keys = e.args
    t = checker._seq(among, scope)
    checker._want(at_least, scope, "int")
    for k in keys:
        assert isinstance(k, ir.Comprehension)
        got = checker._expr(k, scope)
        if got not in ("list:int", "list:any"):
            shown = got[5:] if got.startswith("list:") else got
            raise CheckError(
                f"a majority counts whole numbers, not {shown}",
                k.elt.span,
                expected="a number per candidate, e.g. count(c for c in area[p] if ...)",
            )
    return "list:card" if t == "zone" else t


def check_call(game: ir.Game, e: ir.Call, in_winner: bool) -> None:
    """A majority whose tie asks a chooser is a decision: refuse it inside an expression."""
    m = game.majorities.get(e.func)
    if m is None or m.chooser is None or in_winner:
        return
    raise CheckError(
        f"majority '{m.name}' lets a chooser break a tie, which is a decision: it can only be "
        "used where the rules can ask, in a winner statement",
        e.span,
        suggestion=f"winner: PROMPT, of: {m.name}(...), as: NAME",
    )


def winner_of(node: YMap, span: SourceSpan, of: ir.Expr) -> tuple[ir.Expr | None, bool, str]:
    """(chooser, not_self, majority name) of ``winner: ..., of: NAME(...)``."""
    majorities = CURRENT.get()
    name = of.func if isinstance(of, ir.Call) else None
    if name is None or name not in majorities:
        shown = name or "this"
        raise CheckError(
            f"a winner's 'of' must call a majority, and {shown!r} is none",
            node.value_spans["of"],
            expected="NAME(ARGUMENTS) of a majority declared under 'majorities:'",
            suggestion=did_you_mean(shown, majorities) if name else None,
        )
    m = majorities[name]
    return m.chooser, m.not_self, name


# ---------------------------------------------------------------- the rulebook's sentence
def sentence(m: ir.Majority, code: Any) -> str:
    """The majority as one sentence of the rulebook. ``code(expr)`` renders an expression."""
    if m.second_of is not None:
        head = f"second place of `{m.second_of}`: the most {code(m.count)} below first place"
        what = "second place"
    else:
        among = "" if _is_players(m.among) else f" among {code(m.among)}"
        head = f"the most {code(m.count)}{among}"
        what = "the majority"
    at_least = m.at_least
    if not (isinstance(at_least, ir.Const) and at_least.value == 1):
        head += f", at least {code(at_least)}"
    else:
        head += ", at least 1"
    parts = [head]
    if m.tie_breakers:
        parts.append("a tie is broken by " + ", then ".join(code(b) for b in m.tie_breakers))
    parts.append(tie_words(m, what, code))
    return "; ".join(parts) + "."


def tie_words(m: ir.Majority, what: str, code: Any) -> str:
    """What a tie gives, in words."""
    if m.chooser is not None:
        self_ = ", never in their own favour" if m.not_self else ""
        return f"{code(m.chooser)} chooses among the tied players{self_}"
    words = {"nobody": f"a tie gives nobody {what}", "all": f"all tied players hold {what}"}
    if len(m.ties) == 1:
        return words[m.ties[0][2]]
    said: list[str] = []
    for a, b, mode in m.ties:
        text = words[mode] if not said else words[mode].replace(what, "it")
        said.append(f"with {a}–{b} players {text}" if b > a else f"with {a} players {text}")
    return ", ".join(said)


def _is_players(e: ir.Expr) -> bool:
    return isinstance(e, ir.Name) and e.id == "players"
