"""``meeple explain``: at a decision, which actions are legal and why the others are not, in
rule terms (the condition that fails, with its parts' values) and with the rule's file:line."""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from typing import Any, cast

from rich.console import Console
from rich.markup import escape

from meeple.dsl import ir
from meeple.dsl.errors import MeepleError, SourceSpan, did_you_mean
from meeple.dsl.render import ExprWriter, relative_file, walk
from meeple.interpreter.agents import RandomAgent
from meeple.interpreter.ops import ChooseOp, PickOp, WinnerOp
from meeple.interpreter.program import Program
from meeple.interpreter.state import State
from meeple.interpreter.values import card_label, describe, player_name

from . import api
from .registry import DEFAULT_GAME, rules_root

out = Console(highlight=False, soft_wrap=True, emoji=False)


@dataclass(frozen=True)
class Verdict:
    """One possible action at a decision: legal or not, and why not."""

    label: str
    legal: bool
    reason: str = ""
    rule: str = ""  # file:line of the rule (option, pick, condition) that decides it
    #: False when no option of the rule could ever read so (the label matches no option's
    #: text, no card, no seat): a misspelt label, which a check should not accept as refused
    possible: bool = True


def _where(span: SourceSpan) -> str:
    return f"{relative_file(span.file, rules_root())}:{span.line}"


def _conjuncts(e: ir.Expr) -> list[ir.Expr]:
    if isinstance(e, ir.BinOp) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _rule_node(state: State, span: SourceSpan) -> Any:
    """The IR statement whose span is ``span`` (the decision's rule)."""
    g = state.prog.game
    roots: list[Any] = [g.setup, g.play, g.scoring, *(p.body for p in g.procedures.values())]
    for r in roots:
        for n in walk(r):
            if isinstance(n, ir.Stmt) and n.span == span and not isinstance(n, ir.Block):
                return n
    return None


class _Why:
    def __init__(self, state: State, env: dict[str, Any]) -> None:
        self.st, self.env, self.w = state, env, ExprWriter()

    def value(self, e: ir.Expr, env: dict[str, Any]) -> Any:
        # explain runs on the interpreter (api.load's default back end)
        return cast(Program, self.st.prog).ex.compile(e)(self.st, env)

    def failing(self, cond: ir.Expr, env: dict[str, Any]) -> str:
        """Why ``cond`` is false: its false parts (of an ``a and b and c``), each with the
        values of its two sides when it is a comparison."""
        parts: list[str] = []
        for c in _conjuncts(cond):
            try:
                if self.value(c, env):
                    continue
            except (IndexError, KeyError, ValueError, TypeError, ZeroDivisionError):
                # the rules evaluate ``a and b`` left to right: a part after a false one may
                # not be defined here (top() of an empty zone); it is not why the option fails
                if parts:
                    break
                raise
            text = self.w.expr(c)
            if isinstance(c, ir.BinOp) and c.op in ("==", "!=", "<", "<=", ">", ">=", "in"):
                left, right = self.value(c.left, env), self.value(c.right, env)
                text += f" (here {_show(left)} {c.op} {_show(right)})"
            parts.append(f"{text} is false")
        return "; ".join(parts) or f"{self.w.expr(cond)} is false"


def _show(v: Any) -> str:
    if isinstance(v, list):
        return describe(v) if v else "[]"
    return str(getattr(v, "name", v))


def _items(values: Any, most: int = 12) -> str:
    """A list of values (cards, seats, numbers) for a reason, the first ``most`` of them."""
    items = list(values)
    shown = [_show(x) for x in items[:most]]
    more = f", ... {len(items)} in all" if len(items) > most else ""
    return "[" + ", ".join(shown) + more + "]"


def explain(state: State) -> list[Verdict]:
    """Every option of the pending decision with its verdict (legal options first)."""
    d = state.pending
    if d is None:
        raise MeepleError("the game is over: there is no decision to explain")
    legal = {d.label(state, i) for i in range(len(d.actions))}
    labels = dict.fromkeys(d.label(state, i) for i in range(len(d.actions)))
    verdicts = [Verdict(lab, True, rule=_where(d.op.span)) for lab in labels]
    node = _rule_node(state, d.op.span)
    why = _Why(state, d.env)
    if isinstance(d.op, ChooseOp) and isinstance(node, ir.Choose):
        verdicts += _choose(state, d.op, node, why, legal)
    elif isinstance(d.op, PickOp) and isinstance(node, ir.Pick):
        verdicts += _pick(state, d, node, why, legal)
    elif isinstance(d.op, WinnerOp) and isinstance(node, ir.Winner):
        verdicts += _winner(d, node, why)
    return verdicts


def verdict(state: State, label: str) -> Verdict:
    """The verdict on one option of the pending decision, named by its label: legal, or not
    legal with its reason (as in ``explain``). A label that no option of the decision generates
    (a ``for`` list that never yields it, a card that is not in the pick's source, a misspelt
    label) is not legal too, and its reason lists what the decision does offer and where its
    options come from. Raises MeepleError when the game is over."""
    for v in explain(state):
        if v.label == label:
            return v
    d = cast(Any, state.pending)
    node = _rule_node(state, d.op.span)
    why = _Why(state, d.env)
    known = [v.label for v in explain(state)]
    possible = True
    if isinstance(d.op, ChooseOp) and isinstance(node, ir.Choose):
        parts = []
        possible = any(_fits_template(state, o.label, label) for o in node.options)
        for o in node.options:
            text = f"'{why.w.template(o.label)}'"
            if o.var is not None and o.iter is not None:
                values = why.value(o.iter, dict(d.env))
                text += f" for each {o.var} in {why.w.expr(o.iter)} (here {_items(values)})"
            parts.append(text)
        source = "its options are " + "; ".join(parts)
    elif isinstance(d.op, PickOp) and isinstance(node, ir.Pick):
        cards = why.value(node.src, dict(d.env))
        source = f"it picks from {why.w.expr(node.src)} (here {_items(cards)})"
        possible = label == "done" or any(c.name == label for c in state.prog.cards)
    else:
        source = "its options are " + ", ".join(f"'{k}'" for k in known)
    reads = "reads so" if possible else "could ever read so"
    reason = f"no option of '{state.prompt()}' {reads}: {source}"
    hint = did_you_mean(label, known)
    reason += f"; {hint}" if hint else ""
    return Verdict(label, False, reason, _where(d.op.span), possible)


def _fits_template(state: State, parts: tuple[str | ir.Expr, ...], label: str) -> bool:
    """Could an option whose text is ``parts`` ("jump to {a}") read ``label``? Each hole must
    hold a value as labels show it: a component's name (or "name (P2)"), a seat, a number."""
    prog = state.prog
    words = {c.name for c in prog.cards} | {card_label(c) for c in prog.cards}
    words |= {player_name(p) for p in range(prog.num_players)} | {"true", "false", "none"}
    hole = "(?:" + "|".join(map(re.escape, sorted(words, key=len, reverse=True))) + "|-?[0-9]+)"
    pattern = "".join(re.escape(p) if isinstance(p, str) else hole for p in parts)
    return re.fullmatch(pattern, label) is not None


def _winner(d: Any, node: ir.Winner, why: _Why) -> list[Verdict]:
    """A tie-break: the candidates not tied for the lead, and the chooser himself (not_self)."""
    env = dict(d.env)
    strengths = {}
    for x in why.value(node.among, env):
        env[node.var] = x
        strengths[x] = why.value(node.strength, env)
    best = max(strengths.values())
    out = []
    for x, s in strengths.items():
        name = player_name(x) if isinstance(x, int) else str(getattr(x, "name", x))
        if s < best:
            reason = f"not tied for the lead: {why.w.expr(node.strength)} is {s}, the best {best}"
            out.append(Verdict(name, False, reason, _where(node.strength.span)))
        elif node.not_self and x == d.player:
            reason = "the player breaking the tie may not choose himself (not_self)"
            out.append(Verdict(name, False, reason, _where(node.span)))
    return out


def _choose(
    state: State, op: ChooseOp, node: ir.Choose, why: _Why, legal: set[str]
) -> list[Verdict]:
    out = []
    for o_op, o in zip(op.options, node.options, strict=True):
        env = dict(why.env)
        items: list[Any] = [None]
        if o.var is not None and o.iter is not None:
            items = list(why.value(o.iter, env))
            if not items:
                label = why.w.template(o.label)
                reason = f"there is nothing in {why.w.expr(o.iter)} to choose"
                out.append(Verdict(label, False, reason, _where(o.span)))
        for x in items:
            if o.var is not None:
                env[o.var] = x
            label = o_op.label(state, env)
            if label in legal:
                continue
            if o.when is not None and not why.value(o.when, env):
                reason = "its condition fails: " + why.failing(o.when, env)
                out.append(Verdict(label, False, reason, _where(o.when.span)))
    return out


def _pick(state: State, d: Any, node: ir.Pick, why: _Why, legal: set[str]) -> list[Verdict]:
    out = []
    env = dict(d.env)
    picked = list(d.frame.data) if d.frame is not None else []
    seen = set()
    for c in why.value(node.src, env):
        if c.name in legal or c.name in seen:
            continue
        seen.add(c.name)
        if c in picked:
            out.append(Verdict(c.name, False, "it is already picked", _where(node.span)))
            continue
        if d.frame is not None and len(picked) >= d.frame.hi:
            out.append(Verdict(c.name, False, "the most allowed are picked", _where(node.span)))
            continue
        if node.where is not None:
            env[node.var], env["picked"] = c, picked
            if not why.value(node.where, env):
                reason = "it does not fit: " + why.failing(node.where, env)
                out.append(Verdict(c.name, False, reason, _where(node.where.span)))
    if d.frame is not None and len(picked) < d.frame.lo:
        n = d.frame.lo - len(picked)
        out.append(Verdict("done", False, f"{n} more must be picked first", _where(node.span)))
    return out


# ---------------------------------------------------------------------------- command line
def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "explain", help="at a decision: the legal actions, and why the others are not legal"
    )
    p.add_argument("game", nargs="?", default=DEFAULT_GAME, help="game id or rules path")
    p.add_argument("--variant", help="a variant of the game (rules/<game>/variants/<id>.yaml)")
    p.add_argument("--players", "-p", type=int, help="number of players")
    p.add_argument("--seed", "-s", type=int, default=0, help="random seed (default 0)")
    p.add_argument(
        "--actions",
        default="",
        metavar="IDS",
        help="comma-separated action ids to play first, e.g. 3,17 (an explained decision "
        "shows each legal action's id)",
    )
    p.add_argument(
        "--steps",
        type=int,
        default=0,
        help="then this many decisions by random players, seeded by --seed (default 0)",
    )
    p.add_argument(
        "--option",
        help="give the verdict on this one option (its label), even one no rule generates",
    )
    p.set_defaults(run=cmd_explain)


def cmd_explain(args: argparse.Namespace) -> int:
    if args.steps < 0:
        raise MeepleError(f"--steps is a number of decisions, 0 or more, not {args.steps}")
    game = api.load(args.game, args.players, args.variant)
    state = game.new_initial_state(args.seed)
    for a in filter(None, (x.strip() for x in args.actions.split(","))):
        if not a.isdigit():
            raise MeepleError(f"--actions takes action ids (whole numbers), not '{a}'")
        state.apply_action(int(a))
    agents = [RandomAgent(args.seed * 1000 + s) for s in range(game.num_players())]
    for _ in range(args.steps):
        if state.is_terminal():
            break
        state.apply_action(agents[state.current_player()](state))
    if state.is_terminal():
        out.print("the game is over: no decision to explain")
        return 0
    span = state.decision_span()
    where = _where(span) if span else "?"
    who = player_name(state.current_player())
    out.print(f"[bold]{who}[/bold]: {escape(state.prompt())}  ({where})")
    ids = {label: a for a, label in state.legal_action_labels()}
    for v in [verdict(state, args.option)] if args.option is not None else explain(state):
        if v.legal:
            out.print(f"  [green]legal[/green]     {escape(v.label)}  (action {ids.get(v.label)})")
        else:
            out.print(f"  [red]not legal[/red] {escape(f'{v.label}: {v.reason}  ({v.rule})')}")
    return 0
