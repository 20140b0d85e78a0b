"""Resolve every name and check types; every error points at its rule and suggests a fix.

Types are small strings: ``int bool str player card zone table none any`` and ``list:T``.
The checker records the type of every expression (``Checked.types``, keyed by node id) so the
back ends can format values (a player as "P2", a card by its name) without guessing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from meeple.wording import plural

from . import cardkinds, datatable, ir
from .builtins import BUILTINS, PASSED, POSITION, Builtin, elem, pair_types
from .errors import CheckError, SourceSpan, did_you_mean
from .limits import RESERVED_WORDS
from .majorities import HOLDERS, check_call, check_holders
from .render import children
from .tracks import check_spaces, check_track_order, track_spaces
from .work import check_work

_SCALARS: dict[str, type | tuple[type, ...]] = {"int": int, "str": str, "bool": bool}
BUILTIN_PROPS = {"name": "str", "key": "str", "kind": "str", "owner": "player"}
BUILTIN_NAMES = {"players": "list:player", "num_players": "int"}


_elem = elem  # the item type of a list type


# what to add to a clashing name in the suggestion (hand_pile, deck_count...)
_SUFFIX = {
    "component kind": "kind",
    "zone": "pile",
    "constant": "number",
    "variable": "value",
    "table": "table",
}


@dataclass
class Checked:
    """A checked game plus the inferred type of every expression node (by id).

    ``files``: the rules files the game was read from (the game file, then any variant files,
    base-most first); the compiled module cache is keyed by their contents."""

    game: ir.Game
    types: dict[int, str] = field(default_factory=dict)
    files: tuple[str, ...] = ()
    # every type each local name (parameter, let, loop or option variable...) is bound to
    # anywhere in the game: a saved state's locals are checked against it
    local_types: dict[str, set[str]] = field(default_factory=dict)
    # the work bounds (dsl/work.py): what both back ends charge for a loop's pass or a
    # recursive call; set by check(), which refuses a rule whose bound is over the limit
    work: Any = None

    def zone_locals(self) -> frozenset[str]:
        """The local names that may hold a zone: bound to a zone or a list of zones, or to a
        value of a type the checker cannot fix."""
        return frozenset(n for n, ts in self.local_types.items() if any(map(may_be_zone, ts)))

    def fixed_local_types(self) -> dict[str, str]:
        """The local names bound to values of one known type wherever they are bound, with it
        (sorted by name, so generated code is deterministic)."""
        out = {}
        for n in sorted(self.local_types):
            ts = self.local_types[n]
            if len(ts) == 1 and (t := next(iter(ts))) != "any" and "any" not in t:
                out[n] = t
        return out


def may_be_zone(t: str) -> bool:
    """May a value of type ``t`` be a zone or hold one (a list of zones, or a type the checker
    cannot fix)?"""
    return "zone" in t or "any" in t


def check(game: ir.Game) -> Checked:
    """Check names, types and citations of ``game``; raise CheckError at the first problem.

    Parameter types are inferred from call sites: passes repeat until they stop changing.
    """
    # the play structure's own errors first: its statements would report them less clearly
    # (imported here: the structure's builder reads YAML, which a generated module never loads)
    from .structure import check as check_structure  # noqa: PLC0415

    check_structure(game, lambda e: check_expression(Checked(game), e))
    params: dict[str, list[str]] = {}
    # Types flow from callers into parameters and from function bodies back to their callers.
    # After the first pass (in declaration order, so the first error reported is the first one
    # written), passes alternate callers-first and callees-first, and a body whose call sites
    # have all been seen in the current pass uses their types at once: a long chain of calls
    # settles in a few passes instead of one pass per link (which was quadratic).
    order = _callers_first(game)
    sites = _call_sites(game)
    for i in range(len(game.procedures) + len(game.functions) + 2):
        c = _Checker(game, params, sites)
        if i == 0:
            c.run()
        else:
            c.run(order if i % 2 else order[::-1], callers_first=bool(i % 2))
        if c.seen_params == params:
            break
        params = c.seen_params
    c.out.work = check_work(game)  # (after the types: its walk trusts a well-formed game)
    return c.out


def _called(node: object) -> list[str]:
    """Names of the functions and procedures called inside ``node``, in order (no recursion)."""
    out: list[str] = []
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, ir.Call):
            out.append(n.func)
        elif isinstance(n, ir.CallProc):
            out.append(n.name)
        todo.extend(reversed(list(children(n))))
    return out


def _bodies(game: ir.Game) -> dict[str, object]:
    bodies: dict[str, object] = {f"f:{f.name}": f.body for f in game.functions.values()}
    bodies.update({f"p:{p.name}": p.body for p in game.procedures.values()})
    return bodies


def _call_sites(game: ir.Game) -> dict[str, int]:
    """How many call sites each function and procedure has, in the whole game."""
    roots: list[object] = [game.setup, game.play, game.scoring, *_bodies(game).values()]
    roots += [t.body for t in game.triggers.values()]
    roots += [t.when for t in game.triggers.values() if t.when is not None]
    roots += [s.body for _, s in track_spaces(game)]
    roots += [tb.key for tb in game.tie_breakers] + [v.initial for v in game.variables.values()]
    counts: dict[str, int] = {}
    for r in roots:
        for name in _called(r):
            counts[name] = counts.get(name, 0) + 1
    return counts


def _callers_first(game: ir.Game) -> list[str]:
    """Function and procedure keys ('f:name', 'p:name'), each after every caller it has
    outside a cycle (reverse post-order of an iterative depth-first walk of the call graph)."""
    bodies = _bodies(game)

    def key(name: str) -> str | None:
        for k in (f"p:{name}", f"f:{name}"):
            if k in bodies:
                return k
        return None

    callees: dict[str, list[str]] = {}
    for k, body in bodies.items():
        callees[k] = [c for c in (key(n) for n in _called(body)) if c is not None]
    post: list[str] = []
    seen: set[str] = set()
    for start in bodies:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(callees[start]))]
        while stack:
            node, it = stack[-1]
            nxt = next((c for c in it if c not in seen), None)
            if nxt is None:
                stack.pop()
                post.append(node)
            else:
                seen.add(nxt)
                stack.append((nxt, iter(callees[nxt])))
    return post[::-1]


def check_expression(checked: Checked, e: ir.Expr, scope: dict[str, str] | None = None) -> str:
    """Check one expression against a checked game (e.g. a scenario's expectation); returns its
    type and records the types of its nodes in ``checked.types``."""
    c = _Checker(checked.game, {})
    c.out = checked
    return c._expr(e, _Scope(scope or {}))


def check_statement(checked: Checked, s: ir.Stmt) -> None:
    """Check one statement against a checked game (e.g. a scenario's ``run``)."""
    c = _Checker(checked.game, {})
    c.out = checked
    c._stmt(s, _Scope())


class _Checker:
    def __init__(
        self, game: ir.Game, params: dict[str, list[str]], sites: dict[str, int] | None = None
    ) -> None:
        self.g = game
        self.out = Checked(game)
        self.params = params  # procedure/function name -> parameter types (from the last pass)
        self.seen_params: dict[str, list[str]] = {}
        self.sites = sites or {}  # name -> number of call sites in the whole game
        self._in_winner = False  # checking a winner's 'of' (a majority's chooser may ask there)
        self.calls_seen: dict[str, int] = {}  # name -> call sites checked in this pass
        self.props: dict[str, str] = dict(BUILTIN_PROPS)
        self.builtin_props = BUILTIN_PROPS
        for k in game.kinds.values():
            self.props.update(k.properties)
        self.globals: set[str] = (
            set(game.zones)
            | set(game.constants)
            | set(game.variables)
            | set(game.kinds)
            | set(game.tables)
            | set(game.data_tables)
            | set(BUILTIN_NAMES)
        )

    # ------------------------------------------------------------ declarations
    def run(self, order: list[str] | None = None, callers_first: bool = True) -> None:
        """One pass over the game. ``order`` (keys 'f:name'/'p:name', see _callers_first) puts
        the bodies of functions and procedures in that order, with the top-level rules before
        them if ``callers_first``, else after; None keeps declaration order (functions,
        procedures, then the top level)."""
        self._declarations()
        if order is None:
            for f in self.g.functions.values():
                self._function(f)
            for proc in self.g.procedures.values():
                self._procedure(proc)
            self._top_level()
            return
        if callers_first:
            self._top_level()
        for k in order:
            if k.startswith("f:"):
                self._function(self.g.functions[k[2:]])
            else:
                self._procedure(self.g.procedures[k[2:]])
        if not callers_first:
            self._top_level()

    def _declarations(self) -> None:
        g = self.g
        if g.players_min > g.players_max:
            raise CheckError(
                f"the game is for {g.players_min} to {g.players_max} players: min is above max",
                g.players_span or g.span,
                suggestion=f"swap them: players: {{min: {g.players_max}, max: {g.players_min}}}",
            )
        self._name_clashes()
        for k in g.kinds.values():
            self._check_kind(k)
        for z in g.zones.values():
            if z.per is not None and z.per != "players" and z.per not in g.kinds:
                raise CheckError(
                    f"zone '{z.name}' is per '{z.per}', which is neither 'players' nor a kind",
                    z.spans.get("per", z.span),
                    suggestion=did_you_mean(z.per, ["players", *g.kinds]),
                )
            if z.refill is not None:
                self._zone_decl(z.refill, z.spans.get("refill", z.span))
                self._refill_cycle(z)
        for table in g.tables.values():
            self._need_source(table.span, f"table '{table.name}'", table.source)
            if table.group_by is not None and table.group_by not in self.props:
                raise CheckError(
                    f"table '{table.name}' groups by '{table.group_by}', which no component has",
                    table.span,
                    suggestion=did_you_mean(table.group_by, self.props),
                )
        decls: list[ir.Function | ir.Procedure] = [*g.functions.values(), *g.procedures.values()]
        for decl in decls:
            spans = (*decl.param_spans, *[decl.span] * len(decl.params))
            for pn, pt, at in zip(decl.params, decl.param_types, spans, strict=False):
                kind = cardkinds.split_declared(pt)[1] if pt else None
                what = f"parameter '{pn}' of '{decl.name}'"
                cardkinds.check_declared(kind, g.kinds, at, what)
        for dt in g.data_tables.values():
            self._need_source(dt.span, f"table '{dt.name}'", dt.source)
            datatable.check_table(dt, g.kinds)
        for v in g.variables.values():
            what = f"variable '{v.name}'"
            cardkinds.check_declared(v.kind, g.kinds, v.spans.get("type", v.span), what)
            if v.per is not None and v.per != "players" and v.per not in g.kinds:
                raise CheckError(
                    f"variable '{v.name}' is per '{v.per}', which is neither 'players' nor a kind",
                    v.spans.get("per", v.span),
                    suggestion=did_you_mean(v.per, ["players", *g.kinds]),
                )
            if v.min is not None and v.max is not None and v.min > v.max:
                raise CheckError(
                    f"{'track' if v.is_track else 'variable'} '{v.name}' has min {v.min} "
                    f"above its max {v.max}: no value fits",
                    v.spans.get("max", v.span),
                    expected=f"a max of at least {v.min}",
                    suggestion="swap min and max",
                )
            start = _const(v.initial, g.constants)
            if isinstance(start, int) and not isinstance(start, bool):
                if (v.min is not None and start < v.min) or (v.max is not None and start > v.max):
                    raise CheckError(
                        f"the initial value {start} of '{v.name}' is outside {v.min}..{v.max}",
                        v.initial.span,
                    )
            if v.visibility == "owner" and v.per != "players":
                raise CheckError(
                    f"variable '{v.name}' is visible to its owner only, but it is not per players",
                    v.spans.get("visibility", v.span),
                    expected="'per: players'",
                )
            self._fits(
                self._expr(v.initial, {}),
                cardkinds.declared(v),
                v.initial.span,
                f"the initial value of '{v.name}'",
            )

    def _name_clashes(self) -> None:
        """Refuse two game-wide declarations with one name (a kind and a zone, a zone and a
        variable...): an expression reads a name as only one of them (a constant, else a
        variable, a zone, a kind, a table: see _e_Name), so the other would be silently
        hidden. The later declaration is the error."""
        g = self.g
        seen: dict[str, tuple[str, SourceSpan]] = {
            n: ("built-in name", SourceSpan("<built-in>", 0, 0)) for n in BUILTIN_NAMES
        }
        sections: list[tuple[str, Mapping[str, Any]]] = [
            ("component kind", g.kinds),
            ("zone", g.zones),
            ("constant", g.constants),
            ("variable", g.variables),
            ("table", g.tables),
            ("table", g.data_tables),
        ]
        for what, decls in sections:
            for name, decl in decls.items():
                first = seen.get(name)
                if first is None:
                    seen[name] = (what, decl.span)
                    continue
                other, where = first
                at = f" (declared at {where})" if where.line > 0 else ""
                raise CheckError(
                    f"{what} '{name}' has the name of the {other} '{name}'{at}; an expression "
                    f"would read '{name}' as only one of them",
                    decl.span,
                    expected="a name no other kind, zone, constant, variable or table has",
                    suggestion=f"rename one of them, e.g. the {what} to '{name}_{_SUFFIX[what]}'",
                )

    def _function(self, f: ir.Function) -> None:
        self._need_source(f.span, f"function '{f.name}'", f.source)
        self.seen_params["->" + f.name] = ["any"]
        if f.name in BUILTINS or f.name in self.globals:
            raise CheckError(
                f"function '{f.name}' would hide a built-in or a name of the game",
                f.span,
                suggestion="choose another name",
            )
        self.seen_params["->" + f.name] = [self._expr(f.body, self._param_scope(f.name, f.params))]

    def _procedure(self, proc: ir.Procedure) -> None:
        self._need_source(proc.span, f"procedure '{proc.name}'", proc.body.source)
        self._block(proc.body, self._param_scope(proc.name, proc.params))

    def _top_level(self) -> None:
        g = self.g
        for trig in g.triggers.values():
            self._need_source(trig.span, f"trigger '{trig.name}'", trig.body.source)
            self._zone_decl(trig.zone, trig.spans.get("to", trig.span))
            if trig.kind is not None and trig.kind not in g.kinds:
                raise CheckError(
                    f"trigger '{trig.name}' is for kind '{trig.kind}', which is not a kind",
                    trig.spans.get("kind", trig.span),
                    suggestion=did_you_mean(trig.kind, g.kinds),
                )
            tscope = _Scope()
            what = f"the 'as' name of trigger '{trig.name}'"
            card = f"card[{trig.kind}]" if trig.kind is not None else "card"
            self._bind(trig.var, card, tscope, trig.spans.get("as", trig.span), what)
            if trig.when is not None:
                self._want(trig.when, tscope, "bool")
            self._block(trig.body, tscope)
        check_spaces(self, g)
        for name in ("setup", "play", "scoring"):
            block: ir.Block = getattr(g, name)
            if block.stmts:
                self._need_source(block.span, f"'{name}'", block.source)
            self._block(block, {})
        for tb in g.tie_breakers:
            self._expr(tb.key, {"p": "player"})

    def _refill_cycle(self, z: ir.ZoneDecl) -> None:
        """Refuse a zone that refills from itself, directly or through other zones' refills."""
        chain = [z.name]
        nxt = z.refill
        while nxt is not None and nxt in self.g.zones:
            if nxt == z.name:
                route = " -> ".join([*chain, nxt])
                raise CheckError(
                    f"zone '{z.name}' refills from itself ({route})"
                    if len(chain) > 1
                    else f"zone '{z.name}' names itself as its refill",
                    z.spans.get("refill", z.span),
                    expected="another zone to refill from",
                    suggestion="name the zone its cards come back from, e.g. a discard pile",
                )
            if nxt in chain:
                return  # a cycle that does not pass through z: reported at its own zones
            chain.append(nxt)
            nxt = self.g.zones[nxt].refill

    def _param_scope(self, name: str, params: tuple[str, ...]) -> dict[str, str]:
        types = self.params.get(name, [])
        if self.sites and self.calls_seen.get(name, 0) == self.sites.get(name, 0):
            # every call site has been checked in this pass: their types are complete
            types = self.seen_params.get(name, types)
        scope = _Scope()
        decl = self.g.procedures.get(name) or self.g.functions.get(name)
        span = decl.span if decl is not None else self.g.span
        declared = decl.param_types if decl is not None else ()
        for i, p in enumerate(params):
            t = types[i] if i < len(types) else "any"
            if i < len(declared) and declared[i] is not None:
                t = str(declared[i])  # written in the rules: it wins over what calls pass
            self._bind(p, t, scope, span, f"a parameter of '{name}'")
        return scope

    def _saw_call(self, name: str, types: list[str]) -> None:
        """Merge argument types seen at a call site (a conflict makes the parameter 'any')."""
        self.calls_seen[name] = self.calls_seen.get(name, 0) + 1
        old = self.seen_params.get(name)
        if old is None:
            self.seen_params[name] = list(types)
            return
        self.seen_params[name] = [_join(a, b) for a, b in zip(old, types, strict=True)]

    def _check_kind(self, k: ir.Kind) -> None:
        g = self.g
        self._need_source(k.span, f"component kind '{k.name}'", k.source)
        keys_seen: dict[str, ir.Item] = {}
        for it in k.items:
            if it.key in keys_seen:
                raise CheckError(f"two items of '{k.name}' have the key '{it.key}'", it.span)
            keys_seen[it.key] = it
        for p, pt in k.properties.items():
            span = k.spans.get(f"properties.{p}", k.span)
            t = pt[5:] if pt.startswith("list:") else pt  # list:T holds a list of T values
            if t not in _SCALARS and t not in g.kinds:
                raise CheckError(
                    f"property '{p}' of '{k.name}' has unknown type '{pt}'",
                    span,
                    expected="int, str, bool, a component kind, or list: of one of these",
                    suggestion=did_you_mean(t, [*_SCALARS, *g.kinds]),
                )
            keys = {it.key for it in g.kinds[t].items} if t in g.kinds else set()
            for it in k.items:
                vs = it.props[p]
                if pt.startswith("list:"):
                    if not isinstance(vs, list):
                        raise CheckError(
                            f"item '{it.name}': property '{p}' is {pt}, but the value is {vs!r}",
                            it.span,
                            expected="a YAML list such as [a, b]",
                        )
                else:
                    vs = [vs]
                for v in vs:
                    where = getattr(v, "span", None) or it.span  # a text value knows its place
                    if t in g.kinds and str(v) not in keys:
                        raise CheckError(
                            f"'{v}' is not a key of kind '{t}'",
                            where,
                            suggestion=did_you_mean(str(v), keys),
                        )
                    if t in _SCALARS and not isinstance(v, _SCALARS[t]):
                        raise CheckError(
                            f"item '{it.name}': property '{p}' is {t}, but the value is {str(v)!r}",
                            where,
                        )
                    if t == "int" and isinstance(v, bool):
                        raise CheckError(
                            f"item '{it.name}': property '{p}' is int, not {v}", it.span
                        )
        if k.start is None:
            raise CheckError(
                f"component kind '{k.name}' has no start zone",
                k.span,
                expected="a 'start:' key naming the zone its components begin in "
                "(every component is always in exactly one zone)",
            )
        z = self._zone_decl(k.start, k.spans.get("start", k.span))
        if k.per_player != (z.per == "players") or (z.per is not None and z.per != "players"):
            need = "a zone per players" if k.per_player else "a single zone (not one per ...)"
            raise CheckError(
                f"kind '{k.name}' {'is' if k.per_player else 'is not'} per player, so its start "
                f"zone must be {need}; '{z.name}' is not",
                k.spans.get("start", k.span),
            )

    def _need_source(self, span: SourceSpan, what: str, source: str | None) -> None:
        if not source:
            raise CheckError(
                f"{what} does not cite its rulebook section",
                span,
                expected="a 'source:' key naming the rulebook section",
            )

    def _zone_decl(self, name: str, span: SourceSpan) -> ir.ZoneDecl:
        if name not in self.g.zones:
            raise CheckError(
                f"unknown zone '{name}'", span, suggestion=did_you_mean(name, self.g.zones)
            )
        return self.g.zones[name]

    # ------------------------------------------------------------ statements
    def _block(self, block: ir.Block, scope: dict[str, str]) -> None:
        scope = _inner(scope)
        for s in block.stmts:
            self._stmt(s, scope)

    def _bind(
        self,
        name: str,
        t: str,
        scope: dict[str, str],
        span: SourceSpan,
        what: str = "a local name",
        shadow_ok: bool = False,
        record: bool = True,
    ) -> None:
        """Bind the local ``name`` (``what`` says by what, for messages) in ``scope``.

        A name may not be bound where it is already visible: both back ends keep one
        environment per procedure call, so an inner binding would outlive its block and
        overwrite the outer value (docs/language.md, "Local names"). Only a comprehension's
        name (``shadow_ok``), which both back ends restore when it ends, may hide another."""
        self._usable_name(name, span, what)
        if not shadow_ok and name in scope:
            first = getattr(scope, "at", {}).get(name)
            where = f", {first[1]} bound at line {first[0].line}" if first else ""
            raise CheckError(
                f"{what} '{name}' would hide '{name}'{where}: a name may not be bound where "
                "it is already visible",
                span,
                suggestion=f"choose another name, e.g. {_fresh(name, scope)}",
            )
        scope[name] = t
        at = getattr(scope, "at", None)
        if at is not None:
            at[name] = (span, what)
        if record:  # a saved state's locals are checked against these (not 'picked')
            self.out.local_types.setdefault(name, set()).add(cardkinds.plain(t))

    def _usable_name(self, name: str, span: SourceSpan, what: str) -> None:
        """Refuse a local name that is a reserved word or a name of the game."""
        if name in RESERVED_WORDS:
            raise CheckError(
                f"'{name}' is a reserved word and cannot be {what}",
                span,
                expected="a name other than " + ", ".join(sorted(RESERVED_WORDS)),
                suggestion=f"choose another name, e.g. {name}_",
            )
        if name in self.globals or name in self.g.functions:
            decl = self._declared_at(name)
            raise CheckError(  # the advice once: in the suggestion, after what the name is
                f"'{name}' is already a name of the game" + (f" ({decl})" if decl else ""),
                span,
                suggestion=f"choose another name, e.g. {name}2",
            )

    def _declared_at(self, name: str) -> str:
        """What a game-wide ``name`` is, and where it is declared, for messages."""
        g = self.g
        for what, table in (
            ("zone", g.zones),
            ("variable", g.variables),
            ("component kind", g.kinds),
            ("table", g.tables),
            ("function", g.functions),
        ):
            d = table.get(name)
            if d is not None:
                return f"the {what} declared at line {d.span.line}"
        return "a built-in name" if name in BUILTIN_NAMES else ""

    def _stmt(self, s: ir.Stmt, scope: dict[str, str]) -> None:
        method = getattr(self, "_s_" + type(s).__name__)
        method(s, scope)

    def _s_Block(self, s: ir.Block, scope: dict[str, str]) -> None:
        self._block(s, scope)

    def _s_Let(self, s: ir.Let, scope: dict[str, str]) -> None:
        self._bind(s.name, self._expr(s.value, scope), scope, s.span, "a 'let' name")

    def _s_Assign(self, s: ir.Assign, scope: dict[str, str]) -> None:
        if s.position and s.name == PASSED and PASSED not in self.g.variables:
            raise CheckError(
                "'pass' ends a seat's turns in a phase with 'until: all_passed'; "
                "this game has no such phase",
                s.span,
                suggestion="declare the phase's turns with 'until: all_passed' under play:",
            )
        st = self.g.structure
        kept = st is not None and (
            s.name in POSITION or (s.name == PASSED and any(p.all_passed for p in st.phases))
        )
        if kept and not s.position:
            what = POSITION[s.name][1] if s.name in POSITION else "which seats have passed"
            hint = "end a seat's turns with 'pass'" if s.name == PASSED else ""
            raise CheckError(
                f"'{s.name}' is {what}: the structure of play sets it, no rule can",
                s.span,
                suggestion=hint or "keep a variable of your own for anything else",
            )
        c = self.g.constants.get(s.name)
        if c is not None:
            raise CheckError(
                f"'{s.name}' is a constant (declared at {c.span}); no rule can change it",
                s.span,
                expected="a variable",
                suggestion=f"declare '{s.name}' under 'variables:' if the rules change it "
                "(a variant changes a constant with 'set: constants."
                f"{s.name}.value')",
            )
        v = self.g.variables.get(s.name)
        if v is None:
            if s.name in scope:
                raise CheckError(
                    f"'{s.name}' is a local name; bind a new value with 'let {s.name} = ...'",
                    s.span,
                )
            raise CheckError(
                f"unknown variable '{s.name}'",
                s.span,
                suggestion=did_you_mean(s.name, self.g.variables),
            )
        if (v.per is None) != (s.index is None):
            each = "one per player" if v.per == "players" else f"one per component of {v.per}"
            raise CheckError(
                f"variable '{s.name}' is {each if v.per else 'a single value'}",
                s.span,
                expected=(
                    f"'{s.name}[p]'"
                    if v.per == "players"
                    else f"'{s.name}[c]'"
                    if v.per
                    else f"'{s.name}' without an index"
                ),
            )
        if s.index is not None:
            self._want(s.index, scope, "player" if v.per == "players" else "card")
        t = self._expr(s.value, scope)
        if s.op != "=" and v.type != "int":
            raise CheckError(f"'{s.op}' needs a number variable; '{s.name}' is {v.type}", s.span)
        self._fits(t, cardkinds.declared(v), s.value.span, f"a value for '{s.name}'")

    def _s_Move(self, s: ir.Move, scope: dict[str, str]) -> None:
        if s.items is not None:
            t = self._expr(s.items, scope)
            if not (cardkinds.plain(t) in ("card", "zone", "any") or t.startswith("list:")):
                raise CheckError(
                    "'move' needs a card, a list of cards or a zone",
                    s.items.span,
                    expected=f"cards, not {t}",
                )
        if s.count is not None:
            self._want(s.count, scope, "int")
        if s.src is not None:
            self._zone(s.src, scope)
        if s.where is not None:
            var = ir.MOVE_VAR
            if var in scope:  # the condition's card would hide this local without a word
                raise CheckError(
                    f"in 'move ... where', '{var}' names the candidate card, but '{var}' is "
                    "already a local name here",
                    s.where.span,
                    expected=f"no local called '{var}' around a 'move ... where'",
                    suggestion=f"rename the local '{var}' (let, for, parameter...)",
                )
            inner = dict(scope)
            self._bind(var, "card", inner, s.where.span)
            self._want(s.where, inner, "bool")
        self._zone(s.dest, scope)

    def _s_Shuffle(self, s: ir.Shuffle, scope: dict[str, str]) -> None:
        self._zone(s.zone, scope)

    def _s_EndGame(self, s: ir.EndGame, scope: dict[str, str]) -> None:
        pass

    def _s_Eliminate(self, s: ir.Eliminate, scope: dict[str, str]) -> None:
        self._want(s.player, scope, "player")

    def _s_Log(self, s: ir.Log, scope: dict[str, str]) -> None:
        self._template(s.parts, scope)

    def _s_CallProc(self, s: ir.CallProc, scope: dict[str, str]) -> None:
        p = self.g.procedures.get(s.name)
        if p is None:
            hint = (
                " (it is a function; use it inside an expression)"
                if s.name in self.g.functions
                else ""
            )
            raise CheckError(
                f"unknown procedure '{s.name}'{hint}",
                s.span,
                suggestion=did_you_mean(s.name, self.g.procedures),
            )
        if len(s.args) != len(p.params):
            raise CheckError(
                f"procedure '{s.name}' takes {len(p.params)} argument(s), got {len(s.args)}",
                s.span,
                expected="(" + ", ".join(p.params) + ")",
            )
        self._saw_call(s.name, self._args(p, s.args, scope))

    def _args(
        self, decl: ir.Function | ir.Procedure, args: tuple[ir.Expr, ...], scope: dict[str, str]
    ) -> list[str]:
        """The types of a call's arguments; each must fit its parameter's declared type."""
        types = [self._expr(a, scope) for a in args]
        for a, t, pn, pt in zip(args, types, decl.params, decl.param_types, strict=False):
            if pt is not None:
                self._fits(t, pt, a.span, f"the argument for '{pn}' of '{decl.name}'")
        return types

    def _s_If(self, s: ir.If, scope: dict[str, str]) -> None:
        self._want(s.test, scope, "bool")
        self._block(s.then, scope)
        for b in s.elifs:
            self._want(b.test, scope, "bool")
            self._block(b.then, scope)
        if s.orelse is not None:
            self._block(s.orelse, scope)

    def _s_For(self, s: ir.For, scope: dict[str, str]) -> None:
        inner = _inner(scope)
        self._bind(s.var, _elem(self._seq(s.iter, scope)), inner, s.span, "a loop name")
        self._block(s.body, inner)

    def _s_Repeat(self, s: ir.Repeat, scope: dict[str, str]) -> None:
        self._block(s.body, scope)
        self._want(s.until, scope, "bool")

    def _s_While(self, s: ir.While, scope: dict[str, str]) -> None:
        self._want(s.test, scope, "bool")
        self._block(s.body, scope)

    def _s_Choose(self, s: ir.Choose, scope: dict[str, str]) -> None:
        self._seat(s.player, scope, "by")
        self._template(s.prompt, scope)
        for o in s.options:
            inner = _inner(scope)
            if o.var is not None and o.iter is not None:
                t = _elem(self._seq(o.iter, scope))
                self._options_domain(t, o.iter.span, o.iter)
                self._bind(o.var, t, inner, o.span, "an option's 'for' name")
            self._template(o.label, inner)
            if o.when is not None:
                self._want(o.when, inner, "bool")
            self._block(o.body, inner)

    def _options_domain(self, t: str, span: SourceSpan, items: ir.Expr | None = None) -> None:
        if isinstance(items, ir.BinOp) and items.op == "..":
            lo, hi = _const(items.left, self.g.constants), _const(items.right, self.g.constants)
            if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
                raise CheckError(
                    f"the range {lo}..{hi} is empty: its start is above its end",
                    span,
                    suggestion=f"write {hi}..{lo}",
                )
            if (isinstance(lo, int) and lo < 0) or (isinstance(hi, int) and hi > 63):
                raise CheckError(
                    "options over numbers must stay within 0..63 (each needs a stable action id)",
                    span,
                )
        if cardkinds.plain(t) not in ("card", "player", "int", "any"):
            raise CheckError(
                "options can range over cards, players or numbers only",
                span,
                expected=f"a list of cards, players or numbers, not {_words('list:' + t)}",
            )

    def _s_Pick(self, s: ir.Pick, scope: dict[str, str]) -> None:
        self._seat(s.player, scope, "by")
        self._template(s.prompt, scope)
        self._seq(s.src, scope)
        if s.dest is not None:
            self._zone(s.dest, scope)
        self._want(s.min, scope, "int")
        if s.max is not None:
            self._want(s.max, scope, "int")
        lo, hi = _const(s.min, self.g.constants), _const(s.max, self.g.constants)
        if isinstance(lo, int) and lo < 0:
            raise CheckError(f"a pick of {plural(lo, 'item')} is impossible", s.min.span)
        if isinstance(lo, int) and isinstance(hi, int) and hi < lo and s.max is not None:
            raise CheckError(
                f"a pick of at least {lo} and at most {hi} items is impossible", s.max.span
            )
        if s.where is not None:
            inner = _inner(scope)
            self._bind(s.var, "card", inner, s.where.span, "the 'each' name of a pick")
            # 'picked' is bound while 'where' runs, then unbound: it may not hide a local
            what = "the list of picked cards in a pick's where"
            self._bind("picked", "list:card", inner, s.where.span, what, record=False)
            self._want(s.where, inner, "bool")
        if s.into:
            self._bind(s.into, "list:card", scope, s.span, "the 'as' name of a pick")

    def _s_Winner(self, s: ir.Winner, scope: dict[str, str]) -> None:
        self._in_winner = s.majority is not None
        try:
            t = _elem(self._seq(s.among, scope))
        finally:
            self._in_winner = False
        self._options_domain(t, s.among.span)
        inner = _inner(scope)
        if s.majority is None:  # 'of': the holders are tied, there is no strength to bind
            self._bind(s.var, t, inner, s.span, "the 'among' name of a winner")
        self._want(s.strength, inner, "int")
        if s.chooser is not None:
            self._seat(s.chooser, scope, "ties.chooser")
        self._bind(s.into, t, scope, s.span, "the 'as' name of a winner")

    def _s_Auction(self, s: ir.Auction, scope: dict[str, str]) -> None:
        from .auction import check_auction  # noqa: PLC0415  (it needs the parser: load late)

        check_auction(self, s, scope)

    def _template(self, parts: Iterable[str | ir.Expr], scope: dict[str, str]) -> None:
        for p in parts:
            if isinstance(p, ir.Expr):
                self._expr(p, scope)

    # ------------------------------------------------------------ expressions
    def _want(self, e: ir.Expr, scope: dict[str, str], want: str) -> str:
        t = self._expr(e, scope)
        self._fits(t, want, e.span, "this")
        return t

    def _seat(self, e: ir.Expr, scope: dict[str, str], key: str) -> None:
        """``e`` (a ``by:`` or ``tie.chooser``) names who decides: a player-typed expression, or
        a literal seat number of this game. Any other number (a count, a score) is refused: it
        would silently make another seat decide."""
        t = self._expr(e, scope)
        seat = _const(e)
        if t == "int" and isinstance(seat, int) and not isinstance(seat, bool):
            if not 0 <= seat < self.g.players_max:
                raise CheckError(
                    f"'{key}: {seat}' is not a seat of this game",
                    e.span,
                    expected=f"a seat number from 0 to {self.g.players_max - 1}, or a player",
                )
            return
        if t in ("player", "any", "none"):
            return
        bound = getattr(scope, "at", {}).get(_name_of(e)) if isinstance(e, ir.Name) else None
        raise CheckError(
            f"'{key}' must name a player",
            e.span,
            expected=f"a player (a loop over players, left_of(...), a variable of type player, "
            f"a literal seat number such as 0), not {_words(t)}",
            suggestion=f"'{e.id}' is {bound[1]}, and its calls pass it numbers: pass a player"
            if bound is not None and isinstance(e, ir.Name) and "parameter" in bound[1]
            else "to keep a seat in a number, use a variable of type player",
        )

    def _fits(self, t: str, want: str, span: SourceSpan, what: str) -> None:
        if cardkinds.conflict(t, want):
            raise CheckError(
                f"{what} has the wrong kind of card",
                span,
                expected=f"{_words(want)}, not {_words(t)}",
            )
        t, want = cardkinds.plain(t), cardkinds.plain(want)
        if t in ("any", want) or want == "any" or (want == "card" and t == "card"):
            return
        if want == "player" and t == "int":
            return  # seats are numbers; a literal seat is allowed
        if t == "none" and want in ("player", "card"):
            return
        raise CheckError(
            f"{what} has the wrong type", span, expected=f"{_words(want)}, not {_words(t)}"
        )

    def _seq(self, e: ir.Expr, scope: dict[str, str]) -> str:
        t = self._expr(e, scope)
        if t == "zone" or t.startswith("list:") or t == "any":
            return t
        raise CheckError(
            "this is not a zone or a list", e.span, expected=f"a list, not {_words(t)}"
        )

    def _zone(self, e: ir.Expr, scope: dict[str, str]) -> None:
        t = self._expr(e, scope)
        if t not in ("zone", "any"):
            raise CheckError(
                "this is not a zone",
                e.span,
                expected=f"a zone, not {_words(t)}",
                suggestion=did_you_mean(_name_of(e), self.g.zones),
            )

    def _expr(self, e: ir.Expr, scope: dict[str, str]) -> str:
        t: str = getattr(self, "_e_" + type(e).__name__)(e, scope)
        self.out.types[id(e)] = cardkinds.plain(t)  # the back ends know cards, not their kinds
        return t

    def _e_Const(self, e: ir.Const, scope: dict[str, str]) -> str:
        v = e.value
        return (
            "none"
            if v is None
            else "bool"
            if isinstance(v, bool)
            else "int"
            if isinstance(v, int)
            else "str"
        )

    def _e_Name(self, e: ir.Name, scope: dict[str, str]) -> str:
        n = e.id
        if n in scope:
            return scope[n]
        g = self.g
        if n in g.constants:
            return g.constants[n].type
        if n in g.variables:
            v = g.variables[n]
            return f"list:{cardkinds.declared(v)}" if v.per else cardkinds.declared(v)
        if n in g.zones:
            if g.zones[n].per is not None:
                per = g.zones[n].per
                raise CheckError(
                    f"zone '{n}' is one per {'player' if per == 'players' else per}; say which",
                    e.span,
                    expected=f"'{n}[...]'",
                )
            return "zone"
        if n in g.kinds:
            return f"list:card[{n}]"
        if n in g.tables:
            return "table"
        if n in g.data_tables:
            raise datatable.misuse(n, e.span, g.data_tables[n])
        if n in BUILTIN_NAMES:
            return BUILTIN_NAMES[n]
        names = [*scope, *self.globals, *g.functions]
        if n == PASSED:  # a built-in, but only where seats can pass
            hint = "'passed' exists only when a phase's turns go on 'until: all_passed'"
            raise CheckError(f"unknown name '{n}'", e.span, suggestion=hint)
        raise CheckError(f"unknown name '{n}'", e.span, suggestion=did_you_mean(n, names))

    def _e_Attr(self, e: ir.Attr, scope: dict[str, str]) -> str:
        if datatable.lookup_parts(e, self.g.data_tables):  # a local never has a table's name
            return datatable.check_lookup(self, e, scope)
        t = self._expr(e.obj, scope)
        if cardkinds.plain(t) not in ("card", "any"):
            raise CheckError(
                f"'.{e.name}' needs a card", e.span, expected=f"a card, not {_words(t)}"
            )
        known = cardkinds.attr_type(self, e, t)
        if known is not None:
            return known
        if e.name not in self.props:
            raise CheckError(
                f"no component has a property '{e.name}'",
                e.span,
                suggestion=did_you_mean(e.name, self.props),
            )
        pt = self.props[e.name]
        if pt.startswith("list:"):
            return "list:card" if pt[5:] in self.g.kinds else pt
        return "card" if pt in self.g.kinds else pt

    def _e_Index(self, e: ir.Index, scope: dict[str, str]) -> str:
        if isinstance(e.obj, ir.Name) and e.obj.id in self.g.zones and e.obj.id not in scope:
            z = self.g.zones[e.obj.id]
            self.out.types[id(e.obj)] = "zone"
            if z.per is None:
                raise CheckError(f"zone '{z.name}' is a single zone; it takes no index", e.span)
            self._want(e.index, scope, "player" if z.per == "players" else "card")
            return "zone"
        if isinstance(e.obj, ir.Name) and e.obj.id in self.g.variables and e.obj.id not in scope:
            v = self.g.variables[e.obj.id]
            if v.per is not None and v.per != "players":
                self._expr(e.obj, scope)
                self._want(e.index, scope, "card")
                return cardkinds.declared(v)
        t = self._expr(e.obj, scope)
        sides = pair_types(t)
        if sides is not None:
            if not (isinstance(e.index, ir.Const) and e.index.value in (0, 1)):
                raise CheckError(
                    f"a pair of {_words(sides[0])} and {_words(sides[1])} is read as x[0] or x[1]",
                    e.index.span,
                    expected="0 (the item of the first list) or 1 (of the second)",
                )
            return sides[e.index.value]
        if isinstance(e.index, ir.ListLit):
            raise CheckError(
                "only a data table takes several keys (or a list) in one bracket",
                e.index.span,
                expected="one index, e.g. xs[i]; or a row and column of a table: deal[n, s].cards",
            )
        if not t.startswith("list:") and t != "any":
            raise CheckError(
                "only lists, per-player variables and zones take an index",
                e.span,
                expected=f"a list, not {_words(t)}",
            )
        self._expr(e.index, scope)
        return _elem(t)

    def _e_Call(self, e: ir.Call, scope: dict[str, str]) -> str:
        f = self.g.functions.get(e.func)
        if f is not None:
            check_call(self.g, e, self._in_winner)
            if len(e.args) != len(f.params) or e.kwargs:
                raise CheckError(
                    f"function '{e.func}' takes {len(f.params)} argument(s)",
                    e.span,
                    expected="(" + ", ".join(f.params) + ")",
                )
            self._saw_call(e.func, self._args(f, e.args, scope))
            known = self.out.types.get(id(f.body))
            return known or self.params.get("->" + e.func, ["any"])[0]
        if e.func == HOLDERS:
            return check_holders(self, e, scope)
        b = BUILTINS.get(e.func)
        if b is None:
            hint = (
                " (it is a procedure; call it as a statement)"
                if e.func in self.g.procedures
                else ""
            )
            raise CheckError(
                f"unknown function '{e.func}'{hint}",
                e.span,
                suggestion=did_you_mean(e.func, [*BUILTINS, *self.g.functions]),
            )
        if e.kwargs:
            raise CheckError(f"'{e.func}' takes no named arguments", e.span)
        if not b.min_args <= len(e.args) <= b.max_args:
            n = b.min_args if b.min_args == b.max_args else f"{b.min_args} to {b.max_args}"
            raise CheckError(f"'{e.func}' takes {n} argument(s), got {len(e.args)}", e.span)
        if b.numbers_or_list:  # one list, or several numbers
            if len(e.args) == 1:
                self._seq(e.args[0], scope)
            for a in e.args if len(e.args) > 1 else ():
                self._want(a, scope, "int")
            return "int"
        if b.binds:
            return self._binding_call(e, b, scope)
        if b.literal_key:
            a0 = e.args[0]
            keys = {it.key for k in self.g.kinds.values() for it in k.items}
            if not isinstance(a0, ir.Const) or a0.value not in keys:
                shown = a0.value if isinstance(a0, ir.Const) else "?"
                raise CheckError(
                    f"card() needs the quoted key of an item, not {shown!r}",
                    a0.span,
                    suggestion=did_you_mean(str(shown), keys),
                )
            self._expr(a0, scope)
            # the first card with the key: of the first kind (in declaration order) that has it
            kind = next(
                n for n, k in self.g.kinds.items() if any(it.key == a0.value for it in k.items)
            )
            return f"card[{kind}]"
        if e.func == "track_order":
            check_track_order(e, self.g)
        types = []
        for i, a in enumerate(e.args):
            want = b.args[i] if i < len(b.args) else ""
            if want == "seq":
                types.append(self._seq(a, scope))
            elif want == "table":
                t = self._expr(a, scope)
                if t != "table":
                    raise CheckError(
                        "expected a table",
                        a.span,
                        suggestion=did_you_mean(_name_of(a), self.g.tables),
                    )
                types.append(t)
            elif want == "player" and isinstance(a, ir.Const) and a.value is None:
                raise CheckError(  # (left_of(none) at play: "none is not a player")
                    f"{e.func}() needs a player, not none",
                    a.span,
                    suggestion="name a seat, e.g. turn_player or first(players)",
                )
            elif want:
                types.append(self._want(a, scope, want))
            else:
                types.append(self._expr(a, scope))
        return b.result(types)

    def _binding_call(self, e: ir.Call, b: Builtin, scope: dict[str, str]) -> str:
        """``sorted(x in xs, key)``, ``min_by(...)``, ``max_by(...)``: the key, a number or a
        text, is checked with the item's name bound."""
        first, key = e.args
        if not (
            isinstance(first, ir.BinOp) and first.op == "in" and isinstance(first.left, ir.Name)
        ):
            raise CheckError(
                f"{e.func}() takes 'NAME in LIST' first: the name each item has in the key",
                first.span,
                expected=f"for example {e.func}(c in hand[p], c.value)",
            )
        t = self._seq(first.right, scope)
        self.out.types[id(first)] = cardkinds.plain(t)
        inner = dict(scope)
        self._bind(first.left.id, _elem(t), inner, first.left.span)
        kt = self._expr(key, inner)
        if kt not in ("int", "str", "any"):
            raise CheckError(
                f"the key of {e.func}() must be a number or a text, to be compared",
                key.span,
                expected=f"a number or a text, not {_words(kt)}",
            )
        return b.result([t, kt])

    def _e_Comprehension(self, e: ir.Comprehension, scope: dict[str, str]) -> str:
        inner = _inner(scope)
        t = _elem(self._seq(e.iter, scope))
        # both back ends restore what a comprehension's name hid when it ends: it may hide one
        self._bind(e.var, t, inner, e.span, "a comprehension's name", shadow_ok=True)
        if e.cond is not None:
            self._want(e.cond, inner, "bool")
        return "list:" + self._expr(e.elt, inner)

    def _e_ListLit(self, e: ir.ListLit, scope: dict[str, str]) -> str:
        ts = {self._expr(i, scope) for i in e.items}
        t = ts.pop() if ts else "any"
        for other in ts:
            t = cardkinds.unify(t, other)
        return "list:" + t

    def _e_BinOp(self, e: ir.BinOp, scope: dict[str, str]) -> str:
        lt, rt = self._expr(e.left, scope), self._expr(e.right, scope)
        op = e.op
        if op in ("and", "or"):
            self._fits(lt, "bool", e.left.span, f"the left side of '{op}'")
            self._fits(rt, "bool", e.right.span, f"the right side of '{op}'")
            return "bool"
        if op in ("in", "not in"):
            if not (rt == "zone" or rt.startswith("list:") or rt == "any"):
                raise CheckError(f"the right side of '{op}' must be a list or zone", e.right.span)
            return "bool"
        if op in ("==", "!="):
            if not _comparable(lt, rt):
                raise CheckError(
                    f"'{op}' compares {_words(lt)} with {_words(rt)}; it can never be "
                    f"{'true' if op == '==' else 'false'}",
                    e.span,
                )
            return "bool"
        if op in ("<", "<=", ">", ">="):
            self._fits(lt, "int", e.left.span, f"the left side of '{op}'")
            self._fits(rt, "int", e.right.span, f"the right side of '{op}'")
            return "bool"
        if op == "..":
            self._fits(lt, "int", e.left.span, "the start of a range")
            self._fits(rt, "int", e.right.span, "the end of a range")
            return "list:int"
        if op == "+" and _listish(lt) and _listish(rt):  # concatenation
            a, b = _elem(lt), _elem(rt)
            return "list:" + cardkinds.unify(a, b)
        self._fits(lt, "int", e.left.span, f"the left side of '{op}'")
        self._fits(rt, "int", e.right.span, f"the right side of '{op}'")
        return "int"

    def _e_Unary(self, e: ir.Unary, scope: dict[str, str]) -> str:
        if e.op == "not":
            self._want(e.operand, scope, "bool")
            return "bool"
        self._want(e.operand, scope, "int")
        return "int"

    def _e_Cond(self, e: ir.Cond, scope: dict[str, str]) -> str:
        self._want(e.test, scope, "bool")
        a, b = self._expr(e.then, scope), self._expr(e.orelse, scope)
        return cardkinds.unify(a, b)


class _Scope(dict[str, str]):
    """The local names visible at a point (name -> type), and where each was bound (name ->
    (span, what bound it)), for the message when a name is bound again."""

    def __init__(self, types: dict[str, str] | None = None) -> None:
        super().__init__(types or {})
        self.at: dict[str, tuple[SourceSpan, str]] = {}


def _inner(scope: dict[str, str]) -> _Scope:
    """A copy of ``scope`` for a nested block: its bindings end with the block."""
    out = _Scope(scope)
    out.at.update(getattr(scope, "at", {}))
    return out


def _fresh(name: str, taken: dict[str, str]) -> str:
    """``name`` with the smallest number after it that is not in ``taken``."""
    base = name.rstrip("0123456789") or name
    i = 2
    while f"{base}{i}" in taken:
        i += 1
    return f"{base}{i}"


def _join(a: str, b: str) -> str:
    """The type of a parameter passed ``a`` and ``b``; an unknown (``any``) argument, such as a
    recursive call's in the first pass, does not widen a known type."""
    return b if a == "any" else a if b == "any" else cardkinds.unify(a, b)


def _listish(t: str) -> bool:
    return t == "zone" or t.startswith("list:")


def _const(e: ir.Expr | None, constants: Mapping[str, ir.ConstDecl] | None = None) -> object:
    """The value of a literal, of a constant's name (given ``constants``), or of one of these
    negated; else None."""
    if isinstance(e, ir.Const):
        return e.value
    if isinstance(e, ir.Name) and constants and e.id in constants:
        return constants[e.id].value
    if isinstance(e, ir.Unary) and e.op == "-":
        v = _const(e.operand, constants)
        return -v if isinstance(v, int) and not isinstance(v, bool) else None
    return None


_FAMILY = {
    "int": "num",
    "player": "num",
    "str": "str",
    "bool": "bool",
    "card": "card",
    "zone": "seq",
    "table": "table",
}


def _comparable(a: str, b: str) -> bool:
    """False only when two known types can never be equal (a text and a number...)."""
    if "any" in (a, b) or "none" in (a, b):
        return True
    if a.startswith("list:") or b.startswith("list:"):
        return a.startswith("list:") and b.startswith("list:") or "zone" in (a, b)
    fa, fb = _FAMILY.get(a), _FAMILY.get(b)
    return fa is None or fb is None or fa == fb


def _name_of(e: ir.Expr) -> str:
    if isinstance(e, ir.Name):
        return e.id
    if isinstance(e, ir.Index) and isinstance(e.obj, ir.Name):
        return e.obj.id
    return ""


def _words(t: str) -> str:
    kinded = cardkinds.words(t)
    if kinded is not None:
        return kinded
    if t.startswith("list:"):
        return f"a list of {_words(t[5:])}s".replace("a a ", "").replace("ss", "s")
    sides = pair_types(t)
    if sides is not None:
        return f"a pair of {_words(sides[0])} and {_words(sides[1])}"
    return {
        "int": "a number",
        "bool": "a condition (true/false)",
        "str": "a text",
        "player": "a player",
        "card": "a card",
        "zone": "a zone",
        "table": "a table",
        "none": "none",
        "any": "anything",
    }.get(t, t)
