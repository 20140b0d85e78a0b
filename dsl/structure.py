"""The structure of play: ``play:`` declared as rounds, phases and turns instead of loops.

::

    play:
      source: Playing the game
      rounds: 4                      # or  until: EXPR  (asked after each round)
      start_player: EXPR             # who starts round 1 (default: the first seat)
      pass_start: left               # or an expression: the start player of the next round
      start: [...]                   # hooks: the game's start and end, each round's start/end
      round_start: [...]
      round_end: [...]
      end: [...]
      phases:
        - phase: Influence
          source: Phase 2 Influence
          when: round > 1            # only in the rounds where it holds
          turns: clockwise           # from the start player; or an expression: a list of seats
          as: p                      # the seat whose turn it is (default p)
          until: EXPR                # turns go round until it holds (asked before each turn)
          turn: [...]                # or  do: [...]  (a phase without turns)
          start: [...]
          end: [...]

The structure is built into ordinary statements (``play`` is a Repeat over the rounds), so the
checker and both back ends run it as they run any rules; the position (``round``, ``phase``,
``turn_player``, ``start_player``: dsl.builtins.POSITION) lives in variables the structure alone
sets. The game's ``end`` hook opens the scoring block, so it runs exactly once, also when
``end game`` stops play in the middle of a turn. ``Game.structure`` keeps the declaration for
the rulebook.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from . import ir
from .builtins import PASSED, POSITION
from .errors import CheckError, SourceSpan
from .validate import require_name
from .yamlload import YMap

BlockFn = Callable[..., ir.Block]
ExprFn = Callable[[Any, SourceSpan], ir.Expr]


def is_structure(node: Any) -> bool:
    """True when ``play:`` declares rounds and phases (a mapping without ``do``)."""
    return isinstance(node, YMap) and "do" not in node


def build(doc: YMap, game: ir.Game, block: BlockFn, expr: ExprFn) -> ir.Game:
    """``game`` with its ``play:`` structure (``doc['play']``) built: ``play`` the statements
    that run it, the scoring opened by the end hook, the position variables declared."""
    node = doc["play"]
    span = doc.key_spans["play"]
    for name in POSITION:
        if name in game.variables:
            raise CheckError(
                f"variable '{name}' has the name of the built-in '{name}' ({POSITION[name][1]}), "
                "which the structure of play keeps",
                game.variables[name].span,
                expected="no variable for what play: declares",
                suggestion=f"remove the variable; read '{name}' where the rules need it",
            )
    if "rounds" in node and "until" in node:
        raise CheckError(
            "play: takes either 'rounds' (how many) or 'until' (when the game ends), not both",
            node.key_spans["until"],
        )
    if "rounds" not in node and "until" not in node:
        raise CheckError(
            "play: needs 'rounds' (how many rounds) or 'until' (asked after each round)",
            span,
            expected="for example 'rounds: 4' or 'until: count(deck) == 0'",
        )

    def hook(key: str, where: YMap = node) -> ir.Block | None:
        if key not in where:
            return None
        return block(where[key], where.key_spans[key])

    def e(key: str, where: YMap = node) -> ir.Expr | None:
        return expr(where[key], where.value_spans[key]) if key in where else None

    rounds, until = e("rounds"), e("until")
    pass_start: ir.Expr | None = None
    if "pass_start" in node:
        vspan = node.value_spans["pass_start"]
        if node["pass_start"] == "left":
            pass_start = ir.Call(vspan, "left_of", (ir.Name(vspan, "start_player"),))
        else:
            pass_start = expr(node["pass_start"], vspan)
    phases = tuple(_phase(p, node["phases"].item_spans[i], block, expr, hook, e)
                   for i, p in enumerate(node["phases"]))  # fmt: skip
    seen: dict[str, SourceSpan] = {}
    for ph in phases:
        if ph.name in seen:
            raise CheckError(
                f"two phases are called '{ph.name}' (the first at {seen[ph.name]})",
                ph.span,
                expected="a name per phase: 'phase' is shown and read as the position",
            )
        seen[ph.name] = ph.span
    st = ir.PlayStructure(
        span,
        rounds,
        until,
        e("start_player"),
        pass_start,
        hook("start"),
        hook("round_start"),
        phases,
        hook("round_end"),
        hook("end"),
        node.get("source"),
        node.get("interpretation"),
    )
    scoring = game.scoring
    if st.end is not None:
        scoring = ir.Block(scoring.span, (st.end, *scoring.stmts), scoring.source,
                           scoring.interpretation)  # fmt: skip
    variables = dict(game.variables)
    for name, (typ, _doc) in POSITION.items():
        initial: ir.Expr = ir.Const(span, {"int": 0, "str": "", "player": None}[typ])
        if name == "start_player":
            initial = ir.Call(span, "first", (ir.Name(span, "players"),))
        lo, hi = (0, round_count(st.rounds, game)) if name == "round" else (None, None)
        variables[name] = ir.VarDecl(name, span, typ, None, initial, lo, hi)
    if any(ph.all_passed for ph in phases):
        if PASSED in game.variables:
            raise CheckError(
                f"variable '{PASSED}' has the name of the built-in '{PASSED}' (which seats have "
                "passed), which a phase with 'until: all_passed' keeps",
                game.variables[PASSED].span,
                expected="no variable for what play: declares",
                suggestion="remove it, and end a seat's turns with the statement 'pass'",
            )
        variables[PASSED] = ir.VarDecl(PASSED, span, "bool", "players", ir.Const(span, False))
    return dataclasses.replace(
        game, play=_statements(st), scoring=scoring, variables=variables, structure=st
    )


def round_count(rounds: ir.Expr | None, game: ir.Game) -> int | None:
    """The number of rounds when it is known before play (a number or a number constant)."""
    if isinstance(rounds, ir.Const) and type(rounds.value) is int:
        return int(rounds.value)
    c = game.constants.get(rounds.id) if isinstance(rounds, ir.Name) else None
    return int(c.value) if c is not None and type(c.value) is int else None


def _phase(
    node: YMap,
    span: SourceSpan,
    block: BlockFn,
    expr: ExprFn,
    hook: Callable[[str, YMap], ir.Block | None],
    e: Callable[[str, YMap], ir.Expr | None],
) -> ir.PhaseDecl:
    name = node["phase"]
    if not isinstance(name, str) or not name.strip():
        raise CheckError("a phase needs a name", node.value_spans["phase"], expected="a text")
    turns = "turns" in node
    if turns != ("turn" in node):
        raise CheckError(
            f"phase '{name}' has "
            + ("'turns' but no 'turn' (what a seat does)" if turns else "'turn' but no 'turns'"),
            node.key_spans["turns" if turns else "turn"],
            expected="'turns: clockwise' (or a list of seats) with 'turn: [statements]'",
        )
    if turns == ("do" in node):
        raise CheckError(
            f"phase '{name}' needs either turns ('turns' and 'turn') or one 'do' block, "
            + ("not both" if turns else "and has neither"),
            node.key_spans["do"] if turns else span,
        )
    for key in ("as", "until"):
        if key in node and not turns:
            raise CheckError(
                f"'{key}' belongs to a phase of turns; phase '{name}' has a 'do' block",
                node.key_spans[key],
                suggestion="write 'turns:' and 'turn:', or remove it",
            )
    var = "p"
    if "as" in node:
        require_name(node["as"], node.value_spans["as"], "the 'as' of a phase")
        var = str(node["as"])
    order = None
    if turns and node["turns"] != "clockwise":
        order = expr(node["turns"], node.value_spans["turns"])
    key = "turn" if turns else "do"
    body = block(node[key], node.key_spans[key], node.get("source"), node.get("interpretation"))
    all_passed = node.get("until") == "all_passed"
    return ir.PhaseDecl(
        span,
        str(name),
        turns,
        order,
        var,
        None if all_passed else e("until", node),
        e("when", node),
        hook("start", node),
        body,
        hook("end", node),
        node.get("source"),
        node.get("interpretation"),
        all_passed,
    )


# ------------------------------------------------------------------ the statements it runs
def _set(span: SourceSpan, name: str, value: ir.Expr, op: str = "=") -> ir.Assign:
    return ir.Assign(span, name, None, op, value, position=True)


def _name(span: SourceSpan, n: str) -> ir.Name:
    return ir.Name(span, n)


def _statements(st: ir.PlayStructure) -> ir.Block:
    """The play block that runs the structure (see the module docstring)."""
    sp = st.span
    rnd: list[ir.Stmt] = [_set(sp, "round", ir.Const(sp, 1), "+=")]
    text: tuple[str | ir.Expr, ...] = ("Round ", _name(sp, "round"), " begins")
    if st.start_player is not None:
        text += ("; start player ", _name(sp, "start_player"))
    rnd.append(ir.Log(sp, text))
    if st.round_start is not None:
        rnd.append(st.round_start)
    rnd += [_phase_statements(ph) for ph in st.phases]
    if st.round_end is not None:
        rnd.append(st.round_end)
    if st.pass_start is not None:
        rnd.append(_set(st.pass_start.span, "start_player", st.pass_start))
    if st.rounds is not None:
        until: ir.Expr = ir.BinOp(st.rounds.span, ">=", _name(sp, "round"), st.rounds)
    else:
        assert st.until is not None
        until = st.until
    out: list[ir.Stmt] = []
    if st.start_player is not None:
        out.append(_set(st.start_player.span, "start_player", st.start_player))
    if st.start is not None:
        out.append(st.start)
    out.append(ir.Repeat(sp, ir.Block(sp, tuple(rnd)), until))
    return ir.Block(sp, tuple(out), st.source, st.interpretation)


def _phase_statements(ph: ir.PhaseDecl) -> ir.Stmt:
    sp = ph.span
    out: list[ir.Stmt] = [_set(sp, "phase", ir.Const(sp, ph.name))]
    if not ph.turns:  # (each turn's line names the phase of turns)
        out.append(ir.Log(sp, ("Round ", _name(sp, "round"), f", phase {ph.name}")))
    if ph.start is not None:
        out.append(ph.start)
    out += _turns(ph) if ph.turns else ph.body.stmts  # (spliced: no block level more)
    if ph.end is not None:
        out.append(ph.end)
    out.append(_set(sp, "phase", ir.Const(sp, "")))
    block = ir.Block(sp, tuple(out), ph.source, ph.interpretation)
    if ph.when is None:
        return block
    return ir.If(sp, ph.when, block, None)


def _turns(ph: ir.PhaseDecl) -> list[ir.Stmt]:
    """Each seat of the order in turn (an eliminated seat is skipped: a loop over seats skips
    it); with ``until``, round and round while it does not hold, asked before each turn."""
    sp = ph.span
    bsp = ph.body.span
    seat = _name(sp, ph.var)
    turn = ir.Block(
        bsp,
        (
            # setting turn_player also logs "Round 3, phase X: P2's turn" (position.turn_line)
            _set(sp, "turn_player", seat),
            *ph.body.stmts,  # (spliced, its citation kept: no block level more)
        ),
        ph.body.source,
        ph.body.interpretation,
    )
    order = ph.order or ir.Call(sp, "clockwise_from", (_name(sp, "start_player"),))
    if ph.all_passed:
        return _until_all_passed(ph, order, turn)
    if ph.until is None:
        loop: ir.Stmt = ir.For(sp, ph.var, order, turn)
    else:
        going = ir.Unary(ph.until.span, "not", ph.until)
        each = ir.For(sp, ph.var, order, ir.Block(bsp, (ir.If(sp, going, turn, None),)))
        loop = ir.While(sp, going, ir.Block(bsp, (each,)))
    return [loop, _set(sp, "turn_player", ir.Const(sp, None))]


def _until_all_passed(ph: ir.PhaseDecl, order: ir.Expr, turn: ir.Block) -> list[ir.Stmt]:
    """Turns round and round, skipping the seats that passed, until every seat in play has."""
    sp, var = ph.span, ph.var
    other = var + "_seat"  # the comprehension's own name (a loop name may not be reused)

    def passed(who: str) -> ir.Expr:
        return ir.Index(sp, _name(sp, PASSED), _name(sp, who))

    players = _name(sp, "players")
    every = ir.Call(sp, "all", (ir.Comprehension(sp, passed(other), other, players, None),))
    going = ir.Unary(sp, "not", every)
    clear = ir.Assign(sp, PASSED, _name(sp, var), "=", ir.Const(sp, False), position=True)
    # a seat that passed is skipped (once all have, every later seat of the pass is skipped)
    takes = ir.Unary(sp, "not", passed(var))
    each = ir.For(sp, var, order, ir.Block(sp, (ir.If(sp, takes, turn, None),)))
    return [
        ir.For(sp, var, players, ir.Block(sp, (clear,))),
        ir.While(sp, going, ir.Block(sp, (each,))),
        _set(sp, "turn_player", ir.Const(sp, None)),
    ]


def check(game: ir.Game, type_of: Callable[[ir.Expr], str]) -> None:
    """What the checker of statements cannot see: an order that is not a list of seats, a
    count of rounds that is not a number, ``end game`` in a hook that runs after play."""
    st = game.structure
    if st is None:
        return
    if st.rounds is not None and type_of(st.rounds) not in ("int", "any"):
        raise CheckError(
            "'rounds' must be a number",
            st.rounds.span,
            expected="a whole number, or a number constant",
        )
    for ph in st.phases:
        t = type_of(ph.order) if ph.order is not None else "list:player"
        if ph.order is not None and t not in ("list:player", "any"):
            raise CheckError(
                f"the turns of phase '{ph.name}' go over {_words(t)}, not a list of seats",
                ph.order.span,
                expected="'clockwise', or a list of seats such as 'clockwise_from(supreme)'",
            )
    if st.end is not None:
        for s in _walk(st.end):
            if isinstance(s, ir.EndGame):
                raise CheckError(
                    "'end game' in the end hook: the game is already ending there",
                    s.span,
                    suggestion="remove it",
                )


def _words(t: str) -> str:
    return {"zone": "a zone of cards", "list:card": "a list of cards"}.get(
        t, f"a value of type {t}"
    )


def _walk(b: ir.Stmt) -> list[ir.Stmt]:
    out: list[ir.Stmt] = [b]
    for f in dataclasses.fields(b):  # type: ignore[arg-type]
        v = getattr(b, f.name)
        for x in v if isinstance(v, tuple) else (v,):
            if isinstance(x, ir.Stmt):
                out += _walk(x)
            elif isinstance(x, ir.Option):
                out += _walk(x.body)
    return out
