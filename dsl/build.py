"""Build the IR from a validated YAML document: parse every expression and statement string."""

from __future__ import annotations

from typing import Any

from . import auction, cardkinds, datatable, ir, numbered, structure
from .component_count import ComponentTally
from .errors import CheckError, SourceSpan, did_you_mean
from .limits import MAX_BLOCK_DEPTH, is_name
from .majorities import CURRENT, add_lowered, build_majorities, winner_of
from .parser import parse_expression, parse_statement, parse_template
from .tracks import tracks
from .validate import STATEMENT_HEADS, require_name, statement_head
from .yamlload import YList, YMap, YStr

_HEADS = STATEMENT_HEADS


def build_game(doc: YMap, file: str) -> ir.Game:
    """Turn a schema-valid document into an (unchecked) ir.Game. Raises ParseError/CheckError."""
    meta = doc["game"]
    constants = {n: _constant(n, c, doc["constants"]) for n, c in _items(doc, "constants")}
    tally = ComponentTally(int(meta["players"]["max"]))
    kinds = {
        name: _kind(name, k, doc["components"], constants, tally)
        for name, k in _items(doc, "components")
    }
    lo, hi = int(meta["players"]["min"]), int(meta["players"]["max"])
    majorities = build_majorities(doc, lo, hi)
    functions = {n: _function(n, f, doc["functions"]) for n, f in _items(doc, "functions")}
    add_lowered(functions, majorities)
    token = CURRENT.set(majorities)  # for winner: ..., of: NAME(...)
    try:
        return _game(doc, file, meta, kinds, constants, functions, majorities)
    finally:
        CURRENT.reset(token)


def _game(
    doc: YMap,
    file: str,
    meta: YMap,
    kinds: dict[str, ir.Kind],
    constants: dict[str, ir.ConstDecl],
    functions: dict[str, ir.Function],
    majorities: dict[str, ir.Majority],
) -> ir.Game:
    auction.start_file()
    structured = structure.is_structure(doc.get("play"))
    game = ir.Game(
        id=str(meta["id"]),
        name=str(meta["name"]),
        file=file,
        span=doc.key_spans["game"],
        rulebook=str(meta.get("rulebook", meta["name"])),
        players_min=int(meta["players"]["min"]),
        players_max=int(meta["players"]["max"]),
        players_span=meta.value_spans.get("players"),
        kinds=kinds,
        components=(),
        zones={n: _zone(n, z, doc["zones"]) for n, z in _items(doc, "zones")},
        variables={
            **{n: _variable(n, v, doc["variables"]) for n, v in _items(doc, "variables")},
            **tracks(doc, constants),
        },
        tables={
            n: _table(n, t, doc["tables"])
            for n, t in _items(doc, "tables")
            if not datatable.is_data_table(t)
        },
        functions=functions,
        procedures={n: _procedure(n, p, doc["procedures"]) for n, p in _items(doc, "procedures")},
        setup=_block_section(doc, "setup"),
        play=ir.Block(_span(doc, "play"), ()) if structured else _block_section(doc, "play"),
        scoring=_block_section(doc, "scoring"),
        tie_breakers=_tie_breakers(doc),
        triggers={n: _trigger(n, t, doc["triggers"]) for n, t in _items(doc, "triggers")},
        constants=constants,
        data_tables={
            n: datatable.build_table(n, t, _span(doc["tables"], n))
            for n, t in _items(doc, "tables")
            if datatable.is_data_table(t)
        },
        majorities=majorities,
    )
    if structured:  # before the auctions' variables: a phase's blocks may hold an auction
        game = structure.build(doc, game, _block, expr)
    auction.add_hidden(game.variables)
    return game


def _items(doc: YMap, key: str) -> list[tuple[str, Any]]:
    section = doc.get(key)
    return list(section.items()) if isinstance(section, dict) else []


def _span(container: Any, key: Any) -> SourceSpan:
    if isinstance(container, YMap):
        return container.key_spans.get(key) or container.span
    if isinstance(container, YList):
        return container.item_spans[key]
    return SourceSpan("<unknown>", 0, 0)


def expr(value: Any, span: SourceSpan) -> ir.Expr:
    """An expression from a YAML scalar (a string to parse, or a literal number/bool)."""
    if isinstance(value, YStr):
        return parse_expression(value, value)
    if isinstance(value, str):
        return parse_expression(value, span)
    return ir.Const(span, value)


def _opt_expr(node: YMap, key: str) -> ir.Expr | None:
    return expr(node[key], node.value_spans[key]) if key in node else None


def _template(node: YMap, key: str) -> tuple[str | ir.Expr, ...]:
    value = node.get(key, "")
    return parse_template(value, value if isinstance(value, YStr) else None)


def _binding(node: YMap, key: str) -> tuple[str, ir.Expr]:
    """``x in EXPR`` as used by for/simultaneous/among/option for."""
    e = expr(node[key], node.value_spans[key])
    if not (isinstance(e, ir.BinOp) and e.op == "in" and isinstance(e.left, ir.Name)):
        raise CheckError(
            f"'{key}' must read 'NAME in EXPRESSION'",
            node.value_spans[key],
            expected="for example 'p in players'",
        )
    return e.left.id, e.right


def _kind(
    name: str,
    node: YMap,
    parent: YMap,
    constants: dict[str, ir.ConstDecl] | None = None,
    tally: ComponentTally | None = None,
) -> ir.Kind:
    props = {str(k): str(v) for k, v in node.get("properties", {}).items()}
    items: list[ir.Item] = []
    per_player = bool(node.get("per_player", False))
    for it, item_span in numbered.expand(name, node["items"], props, constants or {}):
        if tally is not None and isinstance(it, dict):
            at = getattr(it, "value_spans", {}).get("count", item_span)
            tally.add(name, str(it.get("name", "?")), _count(it.get("count", 1)), per_player, at)
        extra = {k: v for k, v in it.items() if k not in ("name", "key", "count")}
        for k in extra:
            if k not in props:
                raise CheckError(
                    f"item '{it['name']}' has property '{k}', which kind '{name}' does not declare",
                    it.key_spans[k],
                    suggestion=did_you_mean(k, props) or f"declare it under {name}.properties",
                )
        for k in props:
            if k not in extra:
                raise CheckError(
                    f"item '{it['name']}' of kind '{name}' has no value for property '{k}'",
                    item_span,
                )
        key = str(it.get("key", f"{name}_{len(items)}"))
        if not is_name(key):  # a key with {n} holes outside a numbered line
            raise CheckError(
                f"item '{it['name']}' of '{name}' has the key '{key}', which is not a name",
                it.value_spans.get("key", item_span),
                expected="letters, digits and _; {n} holes only on a line with 'for: n in A..B'",
            )
        items.append(ir.Item(item_span, key, str(it["name"]), extra, int(it.get("count", 1))))
    return ir.Kind(
        name=name,
        span=_span(parent, name),
        properties=props,
        items=tuple(items),
        start=str(node["start"]) if "start" in node else None,
        per_player=per_player,
        source=node.get("source"),
        interpretation=node.get("interpretation"),
        spans=_value_spans(node),
    )


def _count(value: object) -> int:
    """An item's count as the tally reads it (the schema has checked a written one)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 1


def _value_spans(node: YMap) -> dict[str, SourceSpan]:
    """Positions of a declaration's values, nested mappings as "outer.inner"."""
    spans = dict(node.value_spans)
    for k, v in node.items():
        if isinstance(v, YMap):
            spans.update({f"{k}.{kk}": s for kk, s in v.value_spans.items()})
    return spans


def _zone(name: str, node: YMap, parent: YMap) -> ir.ZoneDecl:
    return ir.ZoneDecl(
        name=name,
        span=_span(parent, name),
        per=node.get("per"),
        visibility=str(node["visibility"]),
        refill=node.get("refill"),
        spans=_value_spans(node),
    )


def _constant(name: str, node: YMap, parent: YMap) -> ir.ConstDecl:
    value = node["value"]
    return ir.ConstDecl(
        name,
        _span(parent, name),
        bool(value) if isinstance(value, bool) else int(value),
        node.get("source"),
        node.get("interpretation"),
        _value_spans(node),
    )


def _variable(name: str, node: YMap, parent: YMap) -> ir.VarDecl:
    default = {"int": 0, "bool": False}.get(str(node["type"]))
    if "initial" in node:
        initial = expr(node["initial"], node.value_spans["initial"])
    elif default is not None:
        initial = ir.Const(_span(parent, name), default)
    else:
        raise CheckError(
            f"variable '{name}' of type {node['type']} needs an 'initial' value",
            _span(parent, name),
        )
    return ir.VarDecl(
        name,
        _span(parent, name),
        cardkinds.split_declared(str(node["type"]))[0],
        node.get("per"),
        initial,
        None,
        None,
        str(node.get("visibility", "public")),
        _value_spans(node),
        kind=cardkinds.split_declared(str(node["type"]))[1],
    )


def _table(name: str, node: YMap, parent: YMap) -> ir.Table:
    if "patterns" not in node:
        raise CheckError(
            f"table '{name}' has neither 'patterns' nor 'columns'",
            _span(parent, name),
            expected="a pattern table (patterns: ranked group sizes) or a data table "
            "(columns, key, rows)",
        )
    pats = tuple(tuple(sorted(p["pattern"], reverse=True)) for p in node["patterns"])
    labels = tuple(str(p["label"]) for p in node["patterns"])
    return ir.Table(
        name, _span(parent, name), node.get("group_by"), pats, labels, node.get("source")
    )


def _function(name: str, node: YMap, parent: YMap) -> ir.Function:
    ps = [cardkinds.param(p) for p in node.get("params", [])]
    return ir.Function(
        name,
        _span(parent, name),
        tuple(n for n, _ in ps),
        expr(node["value"], node.value_spans["value"]),
        node.get("source"),
        tuple(t for _, t in ps),
        cardkinds.param_spans(node.get("params"), _span(parent, name)),
    )


def _procedure(name: str, node: YMap, parent: YMap) -> ir.Procedure:
    ps = [cardkinds.param(p) for p in node.get("params", [])]
    body = _block(node["do"], _span(parent, name), node.get("source"), node.get("interpretation"))
    spans = cardkinds.param_spans(node.get("params"), _span(parent, name))
    params = tuple(n for n, _ in ps)
    return ir.Procedure(name, _span(parent, name), params, body, tuple(t for _, t in ps), spans)


def _trigger(name: str, node: YMap, parent: YMap) -> ir.Trigger:
    body = _block(node["do"], _span(parent, name), node.get("source"), node.get("interpretation"))
    kind = str(node["kind"]) if "kind" in node else None
    var = str(node.get("as", "card"))
    return ir.Trigger(
        name,
        _span(parent, name),
        str(node["to"]),
        kind,
        var,
        _opt_expr(node, "when"),
        body,
        _value_spans(node),
    )


def _block_section(doc: YMap, key: str) -> ir.Block:
    node = doc.get(key)
    span = _span(doc, key)
    if node is None:
        return ir.Block(span, ())
    if isinstance(node, YMap):
        return _block(node["do"], span, node.get("source"), node.get("interpretation"))
    return _block(node, span, None, None)


def _tie_breakers(doc: YMap) -> tuple[ir.TieBreaker, ...]:
    scoring = doc.get("scoring")
    if not isinstance(scoring, YMap):
        return ()
    out = []
    for i, tb in enumerate(scoring.get("tie_breakers", [])):
        out.append(
            ir.TieBreaker(
                scoring["tie_breakers"].item_spans[i],
                expr(tb["key"], tb.value_spans["key"]),
                tb.get("source"),
                tb.get("label"),
            )
        )
    return tuple(out)


# How many blocks enclose the one being built. The YAML depth limit already bounds this
# recursion; MAX_BLOCK_DEPTH is the tighter bound the checker and both back ends rely on.
_open_blocks = [0]


def _block(
    stmts: YList, span: SourceSpan, source: str | None = None, interp: str | None = None
) -> ir.Block:
    if _open_blocks[0] >= MAX_BLOCK_DEPTH:
        raise CheckError(
            f"statement blocks nest deeper than {MAX_BLOCK_DEPTH} levels here (MAX_BLOCK_DEPTH)",
            stmts.span if isinstance(stmts, YList) else span,
            suggestion="move the inner blocks into a procedure and call it",
        )
    _open_blocks[0] += 1
    try:
        out = tuple(_stmt(s, stmts.item_spans[i]) for i, s in enumerate(stmts))
    finally:
        _open_blocks[0] -= 1
    return ir.Block(span, out, source, interp)


def _stmt(node: Any, span: SourceSpan) -> ir.Stmt:
    if isinstance(node, YStr):
        return parse_statement(node, node)
    if isinstance(node, str):
        return parse_statement(node, span)
    assert isinstance(node, YMap)
    heads = [h for h in _HEADS if h in node]
    if not heads:
        raise CheckError(
            "a statement mapping needs one of " + ", ".join(_HEADS),
            node.span,
            suggestion=next(
                (did_you_mean(k, _HEADS) for k in node if did_you_mean(k, _HEADS)), None
            ),
        )
    head = statement_head(node)
    assert head is not None
    return _BUILDERS[head](node, span)


def _sub(node: YMap, key: str) -> ir.Block:
    return _block(node[key], node.key_spans[key])


def _cited(node: YMap, key: str) -> ir.Block:
    """The block under ``key``, carrying the statement's own source/interpretation."""
    b = _sub(node, key)
    return ir.Block(b.span, b.stmts, node.get("source"), node.get("interpretation"))


def _citation(node: YMap) -> tuple[str | None, str | None]:
    return node.get("source"), node.get("interpretation")


def _if(node: YMap, span: SourceSpan) -> ir.Stmt:
    test = expr(node["if"], node.value_spans["if"])
    then = _cited(node, "then")
    branches = node.get("elif", [])
    # each branch is built at the level of 'then': a chain adds no depth (MAX_BLOCK_DEPTH)
    elifs = tuple(_elif(b, branches.item_spans[i]) for i, b in enumerate(branches))
    orelse = _sub(node, "else") if "else" in node else None
    return ir.If(span, test, then, orelse, *_citation(node), elifs=elifs)


def _elif(node: YMap, span: SourceSpan) -> ir.If:
    """One branch of an ``elif:`` list: ``{if: COND, then: [...]}``, citing on its own."""
    test = expr(node["if"], node.value_spans["if"])
    return ir.If(span, test, _cited(node, "then"), None, *_citation(node))


def _for(node: YMap, span: SourceSpan) -> ir.Stmt:
    secret = "simultaneous" in node
    var, it = _binding(node, "simultaneous" if secret else "for")
    return ir.For(span, var, it, _cited(node, "do"), secret)


def _repeat(node: YMap, span: SourceSpan) -> ir.Stmt:
    return ir.Repeat(span, _cited(node, "repeat"), expr(node["until"], node.value_spans["until"]))


def _while(node: YMap, span: SourceSpan) -> ir.Stmt:
    return ir.While(span, expr(node["while"], node.value_spans["while"]), _cited(node, "do"))


def _do(node: YMap, span: SourceSpan) -> ir.Stmt:
    return _cited(node, "do")


def _choose(node: YMap, span: SourceSpan) -> ir.Stmt:
    options = []
    for i, opt in enumerate(node["options"]):
        ospan = node["options"].item_spans[i]
        var, it = _binding(opt, "for") if "for" in opt else (None, None)
        body = (
            _block(opt["do"], opt.key_spans["do"], opt.get("source"), opt.get("interpretation"))
            if "do" in opt
            else ir.Block(ospan, (), opt.get("source"), opt.get("interpretation"))
        )
        options.append(
            ir.Option(ospan, _template(opt, "label"), var, it, _opt_expr(opt, "when"), body)
        )
    return ir.Choose(
        span,
        expr(node["by"], node.value_spans["by"]),
        _template(node, "choose"),
        tuple(options),
        bool(node.get("secret", False)),
        *_citation(node),
    )


def _pick(node: YMap, span: SourceSpan) -> ir.Stmt:
    count = _opt_expr(node, "count")
    lo = count if count is not None else (_opt_expr(node, "min") or ir.Const(span, 1))
    hi = count if count is not None else _opt_expr(node, "max")
    if count is not None and ("min" in node or "max" in node):
        raise CheckError(
            "a pick takes either 'count' or 'min'/'max', not both", node.key_spans["count"]
        )
    for key in ("each", "as"):
        if key in node:
            require_name(node[key], node.value_spans[key], f"the '{key}' of a pick")
    return ir.Pick(
        span,
        player=expr(node["by"], node.value_spans["by"]),
        prompt=_template(node, "pick"),
        var=str(node.get("each", "c")),
        src=expr(node["from"], node.value_spans["from"]),
        dest=_opt_expr(node, "to"),
        min=lo,
        max=hi,
        where=_opt_expr(node, "where"),
        into=node.get("as"),
        secret=bool(node.get("secret", False)),
        source=node.get("source"),
        interpretation=node.get("interpretation"),
    )


def _winner(node: YMap, span: SourceSpan) -> ir.Stmt:
    """``winner: PROMPT, of: MAJORITY(...), as: NAME``: the holder of a majority, a tie going
    by its tie rule (dsl/majorities.py)."""
    require_name(node["as"], node.value_spans["as"], "the 'as' of a winner")
    of = expr(node["of"], node.value_spans["of"])
    chooser, not_self, name = winner_of(node, span, of)
    return ir.Winner(
        span,
        "majority:holder",
        of,
        ir.Const(span, 0),
        chooser,
        not_self,
        str(node["as"]),
        _template(node, "winner"),
        *_citation(node),
        majority=name,
    )


_BUILDERS = {
    "if": _if,
    "for": _for,
    "simultaneous": _for,
    "repeat": _repeat,
    "while": _while,
    "choose": _choose,
    "pick": _pick,
    "winner": _winner,
    "do": _do,
    "auction": lambda node, span: auction.build_auction(node, span, _block),
}
