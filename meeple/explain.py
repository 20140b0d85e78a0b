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
from meeple.dsl.render import ExprWriter, relative_file, statement_blocks, walk
from meeple.interpreter.agents import RandomAgent
from meeple.interpreter.program import Program
from meeple.runtime.ops import ChooseOp, PickOp, WinnerOp
from meeple.runtime.state import State
from meeple.runtime.values import card_label, describe, player_name

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
    for r in statement_blocks(state.prog.game):
        for n in walk(r):
            if isinstance(n, ir.Stmt) and n.span == span and not isinstance(n, ir.Block):
                return n
    return None


#: What a reason says instead of values the seat it is shown to may not see.
UNSEEN = "depends on cards or values you cannot see"

#: Calls that read only how many cards a zone holds: a count is public (the observation shows
#: every zone's count), so ``count(hand[q])`` does not read the cards of ``hand[q]``.
_COUNTS = frozenset({"count"})


class _Sight:
    """What one seat may see, as observation() shows it: decides whether an expression reads
    something hidden from ``viewer`` (the cards of a zone it does not see, an owner-only
    variable of another seat), so that a reason shown to that seat never prints its value.
    ``viewer`` None sees everything (a designer at ``meeple explain``). Conservative: what
    cannot be decided (a zone indexed by a loop name) counts as hidden unless the zone is
    public."""

    def __init__(self, state: State, viewer: int | None) -> None:
        self.st, self.viewer = state, viewer
        self.prog = cast(Program, state.prog)

    def pile_seen(self, i: int, top_only: bool = False) -> bool:
        """Does the viewer see the cards of pile ``i`` (only its top card: ``top_only``)?"""
        vis = self.prog.zone_vis[i]
        if vis == "public" or (vis == "owner" and self.prog.zone_owner[i] == self.viewer):
            return True
        return top_only and vis == "top"

    def card_seen(self, c: Any) -> bool:
        """Does the viewer see this component where it lies now?"""
        if not hasattr(c, "kind") or not hasattr(c, "id"):
            return True  # not a component: a number, a seat, a text
        z = self.st.loc[c.id]
        pile = self.st.zones[z]
        return self.pile_seen(z) or (self.pile_seen(z, True) and bool(pile) and pile[-1] is c)

    def value_seen(self, v: Any) -> bool:
        """Is every component in ``v`` (a card, or a list of values) seen by the viewer?"""
        if self.viewer is None:
            return True
        if isinstance(v, (list, tuple)):
            return all(self.value_seen(x) for x in v)
        return self.card_seen(v)

    def hidden(self, e: ir.Expr, env: dict[str, Any]) -> bool:
        """Does evaluating ``e`` (with the locals ``env``) read something the viewer may not
        see?"""
        if self.viewer is None:
            return False
        try:
            return self._hidden(e, env, frozenset(), ())
        except Exception:  # noqa: BLE001  undecidable here (a part that cannot be evaluated):
            return True  # it is shown as hidden rather than risk a leak

    def _zone_hidden(
        self, e: ir.Expr, env: dict[str, Any], bound: frozenset[str], top_only: bool
    ) -> bool | None:
        """For a zone expression (``deck``, ``hand[q]``): does reading its cards (its top card:
        ``top_only``) read what the viewer may not see? None when ``e`` is not a zone."""
        prog = self.prog
        if isinstance(e, ir.Name) and e.id in prog.zone_base and e.id not in env:
            base, piles = prog.zone_base[e.id], prog.zone_piles[e.id]
            return not all(self.pile_seen(i, top_only) for i in range(base, base + piles))
        if isinstance(e, ir.Index) and isinstance(e.obj, ir.Name) and e.obj.id in prog.zone_base:
            if self._hidden(e.index, env, bound, ()):
                return True
            base, piles = prog.zone_base[e.obj.id], prog.zone_piles[e.obj.id]
            if not _names_in(e.index) & bound:  # the pile it names can be worked out here
                return not self.pile_seen(prog.ex.zone_ref(e)(self.st, env), top_only)
            return not all(self.pile_seen(i, top_only) for i in range(base, base + piles))
        return None

    def _hidden(
        self, e: ir.Expr, env: dict[str, Any], bound: frozenset[str], calls: tuple[str, ...]
    ) -> bool:
        prog = self.prog
        zone = self._zone_hidden(e, env, bound, False)
        if zone is not None:
            return zone
        if isinstance(e, ir.Const):
            return False
        if isinstance(e, ir.Name):
            n = e.id
            if n in bound:  # a loop name: its values come from the loop's list, checked
                return False
            if n in env:
                return not self.value_seen(env[n])
            if n in prog.game.variables:
                return n in prog.owner_only_vars  # every seat's value of it
            return n not in prog.static_names and n not in ("players", "num_players")
        if isinstance(e, ir.Index):
            if isinstance(e.obj, ir.Name) and e.obj.id in prog.owner_only_vars:
                if self._hidden(e.index, env, bound, calls) or _names_in(e.index) & bound:
                    return True
                return bool(prog.ex.compile(e.index)(self.st, env) != self.viewer)
            return any(self._hidden(x, env, bound, calls) for x in (e.obj, e.index))
        if isinstance(e, ir.Attr):
            return self._hidden(e.obj, env, bound, calls)
        if isinstance(e, ir.Call):
            return self._call_hidden(e, env, bound, calls)
        if isinstance(e, ir.Comprehension):
            inner = bound | {e.var}
            parts = [e.elt] + ([e.cond] if e.cond is not None else [])
            return self._hidden(e.iter, env, bound, calls) or any(
                self._hidden(x, env, inner, calls) for x in parts
            )
        if isinstance(e, ir.ListLit):
            return any(self._hidden(x, env, bound, calls) for x in e.items)
        if isinstance(e, ir.BinOp):
            return any(self._hidden(x, env, bound, calls) for x in (e.left, e.right))
        if isinstance(e, ir.Unary):
            return self._hidden(e.operand, env, bound, calls)
        if isinstance(e, ir.Cond):
            return any(self._hidden(x, env, bound, calls) for x in (e.test, e.then, e.orelse))
        return True  # a node this walk does not know: never shown

    def _call_hidden(
        self, e: ir.Call, env: dict[str, Any], bound: frozenset[str], calls: tuple[str, ...]
    ) -> bool:
        prog = self.prog
        if e.func == "card":
            return False  # a named component: which one it is is in the rules
        if len(e.args) == 1 and e.func in _COUNTS | {"top"}:
            zone = self._zone_hidden(e.args[0], env, bound, e.func == "top")
            if e.func in _COUNTS and zone is not None:  # a count: only its pile's name matters
                arg = e.args[0]
                return isinstance(arg, ir.Index) and self._hidden(arg.index, env, bound, calls)
            if zone is not None:
                return zone
        if any(self._hidden(a, env, bound, calls) for a in e.args):
            return True
        f = prog.game.functions.get(e.func)
        if f is None:
            return False
        if e.func in calls:  # a recursive function: not followed further
            return True
        inner = dict.fromkeys(f.params, None)
        if any(_names_in(a) & bound for a in e.args):
            return self._hidden(f.body, {}, frozenset(f.params), (*calls, e.func))
        for p, a in zip(f.params, e.args, strict=True):
            inner[p] = prog.ex.compile(a)(self.st, env)
        return self._hidden(f.body, inner, frozenset(), (*calls, e.func))


def _names_in(e: ir.Expr) -> set[str]:
    """Every name an expression mentions."""
    return {n.id for n in walk(e) if isinstance(n, ir.Name)}


class _Why:
    def __init__(self, state: State, env: dict[str, Any], viewer: int | None = None) -> None:
        self.st, self.env, self.w = state, env, ExprWriter()
        self.sight = _Sight(state, viewer)

    def value(self, e: ir.Expr, env: dict[str, Any]) -> Any:
        # explain runs on the interpreter (api.load's default back end)
        return cast(Program, self.st.prog).ex.compile(e)(self.st, env)

    def failing(self, cond: ir.Expr, env: dict[str, Any]) -> str:
        """Why ``cond`` is false: its false parts (of an ``a and b and c``), each with the
        values of its two sides when it is a comparison. For a viewer, a part that reads what
        it may not see is never said to be false on its own (that would tell it): the false
        parts it sees are the reason, else the parts it does not see, together."""
        parts: list[tuple[str, bool]] = []  # (text, reads what the viewer may not see)
        conjuncts = _conjuncts(cond)
        for c in conjuncts:
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
                if self.sight.hidden(c.left, env) or self.sight.hidden(c.right, env):
                    text += f" ({UNSEEN})"  # its values would show the viewer hidden cards
                else:
                    left, right = self.value(c.left, env), self.value(c.right, env)
                    text += f" (here {_show(left)} {c.op} {_show(right)})"
            parts.append((f"{text} is false", self.sight.hidden(c, env)))
        if not any(h for _, h in parts):
            return "; ".join(t for t, _ in parts) or f"{self.w.expr(cond)} is false"
        seen = [t for t, h in parts if not h]
        if seen:
            return "; ".join(seen)
        unseen = [c for c in conjuncts if self.sight.hidden(c, env)]
        if len(unseen) == 1:
            return parts[0][0]
        listed = "; ".join(self.w.expr(c) for c in unseen)
        return f"at least one of these is false: {listed} ({UNSEEN})"


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


def explain(state: State, viewer: int | None = None) -> list[Verdict]:
    """Every option of the pending decision with its verdict (legal options first).

    ``viewer``: the seat the reasons are shown to (the seat deciding, at a play screen): a
    reason then never shows a value read from what that seat may not see (another seat's
    hand, a face-down pile, another seat's owner-only variable), and no option is listed that
    names a card it may not see. None (``meeple explain``, a designer): everything is shown."""
    d = state.pending
    if d is None:
        raise MeepleError("the game is over: there is no decision to explain")
    legal = {d.label(state, i) for i in range(len(d.actions))}
    labels = dict.fromkeys(d.label(state, i) for i in range(len(d.actions)))
    verdicts = [Verdict(lab, True, rule=_where(d.op.span)) for lab in labels]
    node = _rule_node(state, d.op.span)
    why = _Why(state, d.env, viewer)
    if isinstance(d.op, ChooseOp) and isinstance(node, ir.Choose):
        verdicts += _choose(state, d.op, node, why, legal)
    elif isinstance(d.op, PickOp) and isinstance(node, ir.Pick):
        verdicts += _pick(state, d, node, why, legal)
    elif isinstance(d.op, WinnerOp) and isinstance(node, ir.Winner):
        verdicts += _winner(d, node, why)
    return verdicts


def verdict(state: State, label: str, viewer: int | None = None) -> Verdict:
    """The verdict on one option of the pending decision, named by its label: legal, or not
    legal with its reason (as in ``explain``). A label that no option of the decision generates
    (a ``for`` list that never yields it, a card that is not in the pick's source, a misspelt
    label) is not legal too, and its reason lists what the decision does offer and where its
    options come from. Raises MeepleError when the game is over. ``viewer``: as for
    ``explain``."""
    found = explain(state, viewer)
    for v in found:
        if v.label == label:
            return v
    d = cast(Any, state.pending)
    node = _rule_node(state, d.op.span)
    why = _Why(state, d.env, viewer)
    known = [v.label for v in found]
    possible = True
    if isinstance(d.op, ChooseOp) and isinstance(node, ir.Choose):
        parts = []
        possible = any(_fits_template(state, o.label, label) for o in node.options)
        for o in node.options:
            text = f"'{why.w.template(o.label)}'"
            if o.var is not None and o.iter is not None:
                text += f" for each {o.var} in {why.w.expr(o.iter)}"
                if why.sight.hidden(o.iter, dict(d.env)):
                    text += f" ({UNSEEN})"
                else:
                    text += f" (here {_items(why.value(o.iter, dict(d.env)))})"
            parts.append(text)
        source = "its options are " + "; ".join(parts)
    elif isinstance(d.op, PickOp) and isinstance(node, ir.Pick):
        source = f"it picks from {why.w.expr(node.src)}"
        if why.sight.hidden(node.src, dict(d.env)):
            source += f" ({UNSEEN})"
        else:
            source += f" (here {_items(why.value(node.src, dict(d.env)))})"
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
    if node.majority is not None:  # the tied are the majority's holders; the others hold none
        holders = list(why.value(node.among, dict(d.env)))
        out = []
        for x in why.st.players:
            if x in holders and not (node.not_self and x == d.player):
                continue
            reason = (
                "the player breaking the tie may not choose himself (not_self)"
                if x in holders
                else f"not tied for the lead: not a holder of {why.w.expr(node.among)}"
            )
            out.append(Verdict(player_name(x), False, reason, _where(node.span)))
        return out
    env = dict(d.env)
    strengths, unseen = {}, False
    for x in why.value(node.among, env):
        env[node.var] = x
        strengths[x] = why.value(node.strength, env)
        unseen = unseen or why.sight.hidden(node.strength, env)  # "the best" is any one's
    best = max(strengths.values())
    out = []
    for x, s in strengths.items():
        name = player_name(x) if isinstance(x, int) else str(getattr(x, "name", x))
        if s < best and unseen:
            reason = f"not tied for the lead by {why.w.expr(node.strength)} ({UNSEEN})"
            out.append(Verdict(name, False, reason, _where(node.strength.span)))
        elif s < best:
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
            if not why.sight.value_seen(x):
                continue  # an option naming a card the viewer may not see is never listed
            if o.var is not None:
                env[o.var] = x
            try:
                label = o_op.label(state, env)
            except (MeepleError, IndexError, KeyError, ValueError, TypeError, ZeroDivisionError):
                # its text cannot be drawn here (top() of an empty space): never offered, so
                # its condition fails; named as written, with the item it stands for
                label = why.w.template(o.label)
                label += f" [{o.var} = {_show(x)}]" if o.var is not None else ""
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
        if c.name in legal or c.name in seen or not why.sight.value_seen(c):
            continue  # a card the viewer may not see is never named
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


def _action_ids(text: str) -> list[int]:
    """``--actions``: comma-separated action ids, e.g. ``3,17`` ("" for none). Each id is
    ASCII digits ("²" is a digit to str.isdigit but not to int), and few of them; an empty
    item (``3,,17``, ``,,``) is refused, not skipped: it is a typo, not "no action"."""
    if not text.strip():
        return []
    ids = []
    for item in text.split(","):
        a = item.strip()
        if not (a.isascii() and a.isdigit() and len(a) <= 9):
            shown = a if len(a) <= 20 else a[:20] + "..."
            raise MeepleError(
                f"--actions takes action ids, not '{shown}'"
                if a
                else f"--actions '{text}' has an empty item between its commas",
                expected="comma-separated action ids (whole numbers in ASCII digits), e.g. 3,17",
            )
        ids.append(int(a))
    return ids


def cmd_explain(args: argparse.Namespace) -> int:
    if args.steps < 0:
        raise MeepleError(f"--steps is a number of decisions, 0 or more, not {args.steps}")
    game = api.load(args.game, args.players, args.variant)
    state = game.new_initial_state(args.seed)
    for a in _action_ids(args.actions):
        state.apply_action(a)
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
