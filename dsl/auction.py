"""Auctions: the ``auction:`` statement, built into ordinary statements (language.md, 21).

One statement declares the auction the rulebook describes: its kind (open, once_around, sealed,
fixed_price, dutch), the bidders in bidding order, each seat's means, the lowest bid and the
increment, the payment rule and what happens when all pass; it binds the winner and the price.

The front end LOWERS it here into the statements one would write by hand (loops, a choice per
bid, a few hidden variables holding the high bid, the leader and who is still in), kept inside
an ``ir.Auction`` block beside the declaration. Both back ends run the lowered statements, so
they agree by construction; ``meeple doc`` renders the declaration as one sentence.

The bid option carries the auction's ``most`` (the most any seat could ever bid, computed from
the components): it sizes the option's action ids (``int:N``, see runtime.layout.site_size),
so bids of any size have stable ids and a bid above ``most`` is a clear rule error.
"""

from __future__ import annotations

import dataclasses
from contextvars import ContextVar
from typing import Any

from . import ir
from .action_limit import check_most
from .auction_values import LEAST, too_low
from .errors import CheckError, SourceSpan
from .parser import parse_expression, parse_statement, parse_template
from .static import _Static
from .validate import require_name
from .yamlload import YMap, YStr

KINDS = ("open", "once_around", "sealed", "fixed_price", "dutch")
HIDDEN_PREFIX = "_auction"  # the hidden variables' names: _auction<n>_<what>


def is_hidden(name: str) -> bool:
    """True for the name of an auction's own hidden variable (not listed in rulebooks)."""
    return name.startswith(HIDDEN_PREFIX)


#: hidden variables made while building one file, added to the game; a context variable, so
#: two threads building rules at once (meeple serve) each keep their own list
_HIDDEN: ContextVar[list[ir.VarDecl]] = ContextVar("auction_hidden")


def _hidden() -> list[ir.VarDecl]:
    try:
        return _HIDDEN.get()
    except LookupError:  # a statement built outside build_game (a scenario's own block)
        _HIDDEN.set([])
        return _HIDDEN.get()


def start_file() -> None:
    """Forget the hidden variables of the file built before (called as a build starts)."""
    _HIDDEN.set([])


def add_hidden(variables: dict[str, ir.VarDecl]) -> None:
    """Declare the auctions' hidden variables in ``variables`` (after the whole file is built)."""
    for v in _hidden():
        if v.name in variables:
            raise CheckError(
                f"the variable name '{v.name}' is reserved for an auction's own state",
                variables[v.name].span,
                suggestion="rename the variable",
            )
        variables[v.name] = v
    _HIDDEN.set([])


def _subst(node: Any, names: dict[str, ir.Expr]) -> Any:
    """``node`` with each Name in ``names`` replaced by that expression (the user's own)."""
    if isinstance(node, ir.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, tuple):
        return tuple(_subst(x, names) for x in node)
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        if f.name == "span":
            continue
        v = getattr(node, f.name)
        w = _subst(v, names)
        if w is not v:
            changes[f.name] = w
    return dataclasses.replace(node, **changes) if changes else node


class _Lower:
    """Statements from text, at the auction's position, with the user's expressions put in."""

    def __init__(self, span: SourceSpan, names: dict[str, ir.Expr]) -> None:
        self.span, self.names = span, names

    def e(self, text: str) -> ir.Expr:
        return _subst(parse_expression(text, self.span), self.names)  # type: ignore[no-any-return]

    def s(self, text: str) -> ir.Stmt:
        return _subst(parse_statement(text, self.span), self.names)  # type: ignore[no-any-return]

    def block(self, *stmts: ir.Stmt | str) -> ir.Block:
        return ir.Block(self.span, tuple(self.s(x) if isinstance(x, str) else x for x in stmts))

    def while_(self, test: str, *body: ir.Stmt | str) -> ir.Stmt:
        return ir.While(self.span, self.e(test), self.block(*body))

    def for_(self, var: str, it: str, *body: ir.Stmt | str, secret: bool = False) -> ir.Stmt:
        return ir.For(self.span, var, self.e(it), self.block(*body), secret)

    def if_(self, test: str, then: ir.Block, orelse: ir.Block | None = None) -> ir.Stmt:
        return ir.If(self.span, self.e(test), then, orelse)


def _expr(node: YMap, key: str, default: Any = None) -> ir.Expr | None:
    if key not in node:
        return None if default is None else ir.Const(node.span, default)
    value = node[key]
    if isinstance(value, YStr):
        return parse_expression(value, value)
    if isinstance(value, str):
        return parse_expression(value, node.value_spans[key])
    return ir.Const(node.value_spans[key], value)


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def _need(node: YMap, key: str, why: str) -> None:
    if key not in node:
        raise CheckError(
            f"{_a(str(node['kind']))} auction needs '{key}': {why}",
            node.key_spans.get("kind", node.span),
            expected=f"'{key}:' beside 'kind:'",
        )


def _refuse(node: YMap, key: str, why: str) -> None:
    if key in node:
        raise CheckError(
            f"'{key}' has no meaning in {_a(str(node['kind']))} auction: {why}",
            node.key_spans[key],
            suggestion=f"remove '{key}'",
        )


def build_auction(node: YMap, span: SourceSpan, block: Any) -> ir.Auction:
    """The ``auction:`` statement ``node`` (schema-valid): declaration and lowered statements.
    ``block`` builds a nested statement list (dsl.build._block)."""
    kind = str(node["kind"])
    kspan = node.key_spans.get("kind", span)
    if kind not in KINDS:  # the schema's enum already says so; kept for direct callers
        raise CheckError(f"unknown auction kind '{kind}'", kspan, expected=", ".join(KINDS))
    each = str(node.get("each", "p"))
    require_name(each, node.value_spans.get("each", span), "the 'each' of an auction")
    into = node["into"]
    for i, n in enumerate(into):
        require_name(n, into.item_spans[i], "a name in an auction's 'into'")
    winner, price = str(into[0]), str(into[1])
    if winner == price:
        raise CheckError(
            "an auction's 'into' needs two different names: the winner and the price",
            node.key_spans["into"],
            expected="for example [w, price]",
        )
    if kind in ("fixed_price", "dutch"):
        _need(node, "price", "the price offered" if kind == "fixed_price" else "the start price")
        _need(node, "means", "the most each seat can pay, to know who can accept")
    else:
        _need(node, "means", "the highest bid a seat can afford (no other ceiling)")
        _need(node, "most", "the most any seat could ever bid, from the components")
        _refuse(node, "price", "bids set the price")
    if kind == "fixed_price":
        for k in ("min_bid", "increment", "most"):
            _refuse(node, k, "the price is fixed")
    if kind != "open":
        _refuse(node, "reenter", "only an open auction goes round until all pass")
    if kind == "dutch":
        _refuse(node, "most", "nobody names a bid: the price falls")
    if kind == "sealed":
        _refuse(node, "increment", "each bid is made once, in secret: no bid is raised")
    pay = None
    if "pay" in node:
        value = node["pay"]
        stmt = parse_statement(value, value if isinstance(value, YStr) else node.value_spans["pay"])
        if not isinstance(stmt, ir.CallProc):
            raise CheckError(
                "an auction's 'pay' is a procedure call (the game's payment rule)",
                node.value_spans["pay"],
                expected=f"for example pay_bid({winner}, {price}, lot)",
            )
        pay = stmt
    none = block(node["none"], node.key_spans["none"]) if "none" in node else None
    won = block(node["won"], node.key_spans["won"]) if "won" in node else None
    prompt_node = node["auction"]
    prompt = parse_template(prompt_node, prompt_node if isinstance(prompt_node, YStr) else None)
    decl = dict(
        kind=kind,
        prompt=prompt,
        bidders=_expr(node, "bidders"),
        each=each,
        means=_expr(node, "means"),
        most=_expr(node, "most"),
        min_bid=_expr(node, "min_bid", 1),
        increment=_expr(node, "increment", 1),
        price=_expr(node, "price"),
        reenter=bool(node.get("reenter", False)),
        pay=pay,
        none=none,
        won=won,
        winner=winner,
        price_name=price,
    )
    n = sum(v.name.endswith("_high") for v in _hidden()) + 1
    stmts = _lower(span, decl, f"{HIDDEN_PREFIX}{n}")
    return ir.Auction(
        span,
        stmts,
        node.get("source"),
        node.get("interpretation"),
        **decl,  # type: ignore[arg-type]
    )


def _var(name: str, span: SourceSpan, t: str, per: str | None, initial: Any) -> None:
    vis = "owner" if name.endswith("_sealed") else "public"  # secret bids: only their seat
    _hidden().append(ir.VarDecl(name, span, t, per, ir.Const(span, initial), visibility=vis))


def _lower(span: SourceSpan, d: dict[str, Any], h: str) -> tuple[ir.Stmt, ...]:
    """The statements that run the auction ``d``; ``h`` prefixes its hidden variables."""
    kind, each = d["kind"], d["each"]
    hi, lead, order = f"{h}_high", f"{h}_leader", f"{h}_order"
    _var(hi, span, "int", None, 0)
    _var(lead, span, "player", None, None)
    names = checked_settings(span, d)
    lo = _Lower(span, names)
    out: list[ir.Stmt] = [lo.s(f"let {order} = BIDDERS"), lo.s(f"{hi} = 0"), lo.s(f"{lead} = none")]

    def bid_choice(low: str, pass_: ir.Block, secret: bool = False) -> ir.Stmt:
        bid = ir.Option(
            span,
            ("bid ", lo.e("amount")),
            "amount",
            lo.e(f"({low})..MEANS"),
            None,
            lo.block(*bid_body),
            most=d["most"],
        )
        if not secret:  # bids at the table are heard by all; sealed ones are revealed later
            pass_ = ir.Block(span, (lo.s(f'log "{{{each}}} passes"'), *pass_.stmts))
        passing = ir.Option(span, ("pass",), None, None, None, pass_)
        return ir.Choose(span, lo.e(each), d["prompt"], (bid, passing), secret)

    nxt = f"({hi} + INC if {lead} != none else MIN)"
    said = f'log "{{{each}}} bids {{amount}}"'

    def bidding(going: str, may_bid: str, *on_pass: str) -> ir.Stmt:
        """Round after round in bidding order while ``going`` holds: each seat for whom
        ``may_bid`` holds bids more or passes (``on_pass``)."""
        turn = lo.block(bid_choice(nxt, lo.block(*on_pass)))
        return lo.while_(going, lo.for_(each, order, lo.if_(f"{may_bid} and {going}", turn)))

    if kind == "open":
        bid_body: tuple[str, ...] = (f"{hi} = amount", f"{lead} = {each}", said)
        if d["reenter"]:
            # a pass is not final: the auction ends once every other bidder has passed in turn
            passes = f"{h}_passes"
            _var(passes, span, "int", None, 0)
            bid_body += (f"{passes} = 0",)
            going = f"{passes} < count({order}) - (1 if {lead} != none else 0)"
            out += [
                lo.s(f"{passes} = 0"),
                bidding(going, f"{each} != {lead}", f"{passes} += 1"),
            ]
        else:
            inn, active = f"{h}_in", f"{h}_active"
            _var(active, span, "int", None, 0)
            _var(inn, span, "bool", "players", False)
            going = f"{active} > (1 if {lead} != none else 0)"
            out += [
                lo.for_(each, "players", f"{inn}[{each}] = {each} in {order}"),
                lo.s(f"{active} = count({order})"),
                bidding(
                    going,
                    f"{inn}[{each}] and {each} != {lead}",
                    f"{inn}[{each}] = false",
                    f"{active} -= 1",
                ),
            ]
    elif kind == "once_around":
        bid_body = (f"{hi} = amount", f"{lead} = {each}", said)
        out.append(lo.for_(each, order, bid_choice(nxt, lo.block())))
    elif kind == "sealed":
        sealed = f"{h}_sealed"
        _var(sealed, span, "int", "players", -1)
        bid_body = (f"{sealed}[{each}] = amount",)
        out += [
            lo.for_(each, "players", f"{sealed}[{each}] = -1"),
            lo.for_(each, order, bid_choice("MIN", lo.block(), secret=True), secret=True),
            # revealed together: the highest bid wins, a tie goes to the earliest in order
            lo.for_(
                each,
                order,
                lo.if_(
                    f"{sealed}[{each}] >= 0",
                    lo.block(f'log "{{{each}}} bid {{{sealed}[{each}]}}"'),
                    lo.block(f'log "{{{each}}} passed"'),
                ),
                lo.if_(
                    f"{sealed}[{each}] >= 0 and ({lead} == none or {sealed}[{each}] > {hi})",
                    lo.block(f"{hi} = {sealed}[{each}]", f"{lead} = {each}"),
                ),
            ),
        ]
    else:  # fixed_price, dutch: the first to accept the price offered wins
        declined = f'log "{{{each}}} declines {{{hi if kind == "dutch" else "PRICE"}}}"'
        accept = ir.Option(
            span,
            ("accept",),
            None,
            None,
            None,
            lo.block(*([] if kind == "dutch" else [f"{hi} = PRICE"]), f"{lead} = {each}"),
        )
        passing = ir.Option(span, ("pass",), None, None, None, lo.block(declined))
        choice = ir.Choose(span, lo.e(each), d["prompt"], (accept, passing))
        price = hi if kind == "dutch" else "PRICE"
        offer = lo.for_(
            each,
            order,
            lo.if_(f"{lead} == none and MEANS >= {price}", lo.block(choice)),
        )
        if kind == "fixed_price":
            out.append(offer)
        else:
            out += [
                lo.s(f"{hi} = PRICE"),
                lo.while_(
                    f"{lead} == none and {hi} >= MIN",
                    offer,
                    lo.if_(f"{lead} == none", lo.block(f"{hi} -= INC")),
                ),
                lo.if_(f"{lead} == none", lo.block(f"{hi} = 0")),
            ]
    out += [lo.s(f"let {d['winner']} = {lead}"), lo.s(f"let {d['price_name']} = {hi}")]
    won = tuple(x for x in (d["pay"],) if x is not None) + (d["won"].stmts if d["won"] else ())
    out.append(
        ir.If(
            span,
            lo.e(f"{d['winner']} == none"),
            d["none"] or ir.Block(span, ()),
            ir.Block(span, won),
        )
    )
    return tuple(out)


def _literal(e: ir.Expr | None) -> bool:
    """Is ``e`` a number written out (checked where it is written, never as the game runs)?"""
    if isinstance(e, ir.Unary) and e.op == "-":
        e = e.operand
    return isinstance(e, ir.Const)


#: bidders that never hold a seat twice: no check of them as the auction runs
_SEAT_LISTS = ("clockwise_from", "others")


def checked_settings(span: SourceSpan, d: dict[str, Any]) -> dict[str, ir.Expr]:
    """The expressions the lowered statements of the auction ``d`` read for its bidders
    (BIDDERS), a seat's means (MEANS), the lowest bid (MIN), the increment (INC) and the price
    (PRICE): the user's own, each one computed wrapped in its check as the auction runs
    (dsl/auction_values.py); a number written out is checked where it is written instead
    (check_auction), so valid rules run no check of it."""

    def at_least(e: ir.Expr, what: str, *least: ir.Expr) -> ir.Expr:
        if _literal(e) and all(_literal(x) for x in least):
            return e
        return ir.Call(span, "_auction_at_least", (e, ir.Const(span, what), *least))

    bidders = d["bidders"]
    seats = (isinstance(bidders, ir.Call) and bidders.func in _SEAT_LISTS) or (
        isinstance(bidders, ir.Name) and bidders.id == "players"
    )
    dutch = d["kind"] == "dutch"
    low = at_least(d["min_bid"], "min_bid")
    names = {
        "BIDDERS": bidders if seats else ir.Call(span, "_auction_bidders", (bidders,)),
        "MEANS": d["means"],
        "MIN": low,
        "INC": at_least(d["increment"], "dutch_increment" if dutch else "increment"),
    }
    if not _literal(d["means"]):
        names["MEANS"] = ir.Call(span, "_auction_means", (d["means"], ir.Name(span, d["each"])))
    if d["price"] is not None:
        price = d["price"]
        names["PRICE"] = at_least(price, "start_price", low) if dutch else at_least(price, "price")
    return names


def _constant(e: ir.Expr | None, game: ir.Game) -> int | None:
    """The value of ``e`` when it reads only numbers and the game's constants, else None."""
    if e is None:
        return None
    try:
        value = _Static(game, {}).ev(e, {}, 0)
    except Exception:  # reads the state, a seat, the components, or fails: not a constant
        return None
    return value if type(value) is int else None


def _shape(e: Any) -> Any:
    """``e`` without its positions: two expressions written alike have the same shape."""
    if isinstance(e, tuple):
        return tuple(_shape(x) for x in e)
    if not dataclasses.is_dataclass(e) or isinstance(e, type):
        return e
    return (type(e).__name__,) + tuple(
        _shape(getattr(e, f.name)) for f in dataclasses.fields(e) if f.name != "span"
    )


def check_settings(game: ir.Game, s: ir.Auction) -> None:
    """Refuse, where it is written, a setting of ``s`` that breaks the rules of
    dsl/auction_values.py when it is a constant, and bidders that name a seat twice alike."""
    dutch = s.kind == "dutch"
    values: dict[str, int | None] = {}
    for what, e in (
        ("most", s.most),
        ("min_bid", s.min_bid),
        ("dutch_increment" if dutch else "increment", s.increment),
        ("price" if s.kind == "fixed_price" else "start_price", s.price),
        ("means", s.means),
    ):
        value = values[what] = _constant(e, game)
        if value is None or e is None or what == "start_price":
            continue
        if value < LEAST[what][0]:  # type: ignore[operator]
            raise CheckError(
                too_low(what, value),
                e.span,
                suggestion=f"make it {LEAST[what][0]} or more",
            )
    low, most, start = values["min_bid"], values["most"], values.get("start_price")
    if most is not None and s.most is not None:
        check_most(most, s.most.span)  # (its bids' action ids: dsl/action_limit.py)
    if dutch and start is not None and low is not None and start < low:
        assert s.price is not None
        raise CheckError(
            too_low("start_price", start, low),
            s.price.span,
            suggestion=f"start the price at {low} or more, or lower 'min_bid'",
        )
    if low is not None and most is not None and low > most:
        assert s.min_bid is not None
        raise CheckError(
            f"the auction's 'min_bid' ({low}) is above its 'most' ({most}), the most any seat "
            "could ever bid: nobody could ever bid",
            s.min_bid.span,
            suggestion="lower 'min_bid', or raise 'most' to all any seat could ever hold",
        )
    if isinstance(s.bidders, ir.ListLit):
        seen: set[Any] = set()
        for x in s.bidders.items:
            shape = _shape(x)
            if shape in seen:
                raise CheckError(
                    "the auction's 'bidders' name this seat twice; each seat bids once in each "
                    "round",
                    x.span,
                    suggestion="name each bidder once",
                )
            seen.add(shape)


def check_least_bid(bid: ir.Option, most: int, game: ir.Game, players: int) -> None:
    """Refuse an auction whose lowest bid, a constant, is above ``most`` (computed for
    ``players`` seats from the components; the bid option ``bid`` of the lowered statements
    holds both): nobody could ever bid. Raises CheckError at the ``min_bid``."""
    assert isinstance(bid.iter, ir.BinOp)
    low = bid.iter.left  # (high + INC if leader != none else MIN), or MIN for sealed bids
    if isinstance(low, ir.Cond):
        low = low.orelse
    if isinstance(low, ir.Call) and low.func == "_auction_at_least":
        low = low.args[0]  # (its check, dsl/auction_values.py)
    value = _constant(low, game)
    if value is not None and value > most:
        raise CheckError(
            f"the auction's 'min_bid' ({value}) is above its 'most' ({most} with {players} "
            "players), the most any seat could ever bid: nobody could ever bid",
            low.span,
            suggestion="lower 'min_bid', or raise 'most' to all any seat could ever hold",
        )


def _reads_state(e: ir.Expr, variables: dict[str, ir.VarDecl]) -> ir.Name | None:
    """The first variable (a Name of one) that ``e`` reads, if any."""
    if isinstance(e, ir.Name) and e.id in variables:
        return e
    if not dataclasses.is_dataclass(e):
        return None
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        for x in v if isinstance(v, tuple) else (v,):
            if isinstance(x, ir.Expr):
                hit = _reads_state(x, variables)
                if hit is not None:
                    return hit
    return None


def check_auction(checker: Any, s: ir.Auction, scope: dict[str, str]) -> None:
    """Check an auction (called by the checker with its ``scope``): the declaration's own
    rules, then the lowered statements IN ``scope``, so that the winner and price names stay
    bound after the auction."""
    from .checker import _inner, _Scope  # noqa: PLC0415  (the checker imports this module)

    for name, what in ((s.each, "each"), (s.winner, "into"), (s.price_name, "into")):
        if name in scope:
            raise CheckError(
                f"the auction's '{what}' name '{name}' is already bound here",
                s.span,
                suggestion="choose another name"
                + (" with 'each:' (the seat in 'means')" if what == "each" else ""),
            )
    if s.most is not None:
        read = _reads_state(s.most, checker.g.variables)
        if read is not None:
            raise CheckError(
                f"an auction's 'most' is computed once from the components and constants; "
                f"it cannot read the variable '{read.id}'",
                read.span,
                expected="e.g. sum(c.value for c in chips) + 3 * count(cards)",
            )
        checker._want(s.most, _Scope(), "int")
    for x in (s.min_bid, s.increment) + ((s.price,) if s.kind == "dutch" else ()):
        if x is not None:
            checker._want(x, scope, "int")
    seat = _inner(scope)  # means (and a fixed price) are read for one seat, named by 'each'
    checker._bind(s.each, "player", seat, s.span, "the 'each' name of an auction", record=False)
    for x in (s.means,) + ((s.price,) if s.kind == "fixed_price" else ()):
        if x is not None:
            checker._want(x, seat, "int")
    check_settings(checker.g, s)
    for stmt in s.stmts:
        checker._stmt(stmt, scope)


# ------------------------------------------------------------------------------ rendering
_HOW = {
    "open": "Open auction",
    "once_around": "Once-around auction",
    "sealed": "Sealed-bid auction",
    "fixed_price": "Fixed-price offer",
    "dutch": "Dutch auction",
}


def sentence(s: ir.Auction, c: Any, quote: Any) -> str:
    """The auction in words, for ``meeple doc`` (``c`` writes an expression as inline code,
    ``quote`` a prompt), e.g. "Open auction, bids start at 1 and rise by 1, a pass is final"."""
    inc, low = c(s.increment), c(s.min_bid)
    parts = [f"{_HOW[s.kind]} ({quote(s.prompt)}) among {c(s.bidders)}, in that order"]
    means = f"up to what each bidder `{s.each}` can pay, {c(s.means)}" if s.means else ""
    if s.most is not None and s.kind != "dutch":
        means += f" (never more than {c(s.most)}, all any seat could hold)"
    if s.kind == "open":
        parts.append(f"bids start at {low} and rise by at least {inc}, {means}")
        parts.append(
            "a player who passed may bid again; it ends when all others have passed in turn"
            if s.reenter
            else "a pass is final; the last bidder left wins"
        )
    elif s.kind == "once_around":
        parts.append(f"each bids once or passes; bids start at {low}, rise by at least {inc}")
        parts.append(means + "; the highest bid wins")
    elif s.kind == "sealed":
        parts.append(f"all bid at once in secret, at least {low}, {means}")
        parts.append("the bids are revealed together; the highest wins, a tie the earliest")
    elif s.kind == "fixed_price":
        parts.append(f"each in turn may accept the price {c(s.price)} if they can pay it")
        parts.append("the first to accept wins")
    else:
        parts.append(f"the price starts at {c(s.price)} and falls by {inc} down to {low}")
        parts.append(f"each in turn may accept it if they can pay it ({c(s.means)})")
        parts.append("the first to accept wins")
    text = "; ".join(parts)
    return text + f". The winner is **{s.winner}**, the price **{s.price_name}**"


def rule_lines(s: ir.Auction, expr: Any, template: Any) -> list[str]:
    """The declaration in the rule language's own words (for rule texts)."""
    out = [f'auction "{template(s.prompt)}" kind {s.kind} bidders {expr(s.bidders)}']
    for key, e in (
        ("means", s.means),
        ("most", s.most),
        ("min_bid", s.min_bid),
        ("increment", s.increment),
        ("price", s.price),
    ):
        if e is not None:
            out.append(f"  {key} {expr(e)}")
    if s.reenter:
        out.append("  reenter true")
    if s.pay is not None and isinstance(s.pay, ir.CallProc):
        out.append(f"  pay {s.pay.name}({', '.join(expr(a) for a in s.pay.args)})")
    out.append(f"  into {s.winner}, {s.price_name}")
    return out
