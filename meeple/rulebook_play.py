"""The rulebook's words for a ``play:`` declared as rounds, phases and turns (dsl/structure.py):
"The game lasts 4 rounds. P1 starts round 1; after each round the start player passes to the
left. Each round has 4 phases, in order: ..."."""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir
from meeple.dsl.structure import round_count


def structure_prose(w: Any, game: ir.Game) -> list[str]:
    """Markdown lines for the play structure of ``game``; ``w`` is the rulebook's ProseWriter
    (expressions, blocks)."""
    st = game.structure
    assert st is not None
    out: list[str] = []
    if st.rounds is not None:
        n = round_count(st.rounds, game)
        text = w.c(st.rounds)
        if n is not None and not isinstance(st.rounds, ir.Const):
            text += f" ({n})"  # a constant: its value too
        out.append("The game is one round." if n == 1 else f"The game lasts {text} rounds.")
    else:
        assert st.until is not None
        out.append(f"Rounds are played until {w.c(st.until)} holds at the end of a round.")
    first = w.c(st.start_player) if st.start_player is not None else "The first seat (P1)"
    if st.start_player is not None:
        first = f"The start player, {first},"
    moves = ""
    if st.pass_start is not None:
        moves = f" After each round the start player becomes {w.c(st.pass_start)}."
    out += ["", f"{first} starts round 1.{moves}", ""]

    def hook(title: str, b: ir.Block | None) -> None:
        if b is not None:
            out.extend([f"{title}:", "", *w.block(b), ""])

    hook("At the start of the game", st.start)
    hook("At the start of each round", st.round_start)
    n = len(st.phases)
    out += [f"Each round has {n} phase{'s' if n != 1 else ''}, in order:", ""]
    for i, ph in enumerate(st.phases, 1):
        when = f", only in rounds where {w.c(ph.when)}" if ph.when is not None else ""
        out.append(f"- Phase {i}, **{ph.name}**{w.citation(ph)}{when}:")
        if ph.start is not None:
            out += ["  - When it begins:", *w.block(ph.start, 2)]
        if ph.turns:
            order = "clockwise from the start player" if ph.order is None else f"in {w.c(ph.order)}"
            rounds = (
                f"round and round until {w.c(ph.until)} holds (asked before each turn)"
                if ph.until is not None
                else "round and round until every seat has passed (a seat that passed takes no "
                "more turns in the phase)"
                if ph.all_passed
                else "one turn each"
            )
            out.append(f"  - Turns {order}, {rounds}; eliminated seats are skipped.")
            out += [f"  - On the turn of {w.c(ir.Name(ph.span, ph.var))}:", *w.block(ph.body, 2)]
        else:
            out += w.block(ph.body, 1)
        if ph.end is not None:
            out += ["  - When it ends:", *w.block(ph.end, 2)]
    out.append("")
    hook("At the end of each round", st.round_end)
    hook("When play ends (after the last round, or at “the game ends”), before the scoring", st.end)
    return out


def scoring_without_end_hook(game: ir.Game) -> ir.Block:
    """The scoring block as written: without the end hook the structure put at its start."""
    b = game.scoring
    if game.structure is None or game.structure.end is None:
        return b
    return ir.Block(b.span, b.stmts[1:], b.source, b.interpretation)
