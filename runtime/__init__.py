"""meeple's runtime: what both back ends run, and all a generated module imports.

A generated module (codegen/) starts with ``from meeple.runtime import *``; ``__all__`` below is
everything it may use: the decision ops it builds (ChooseOp, PickOp, WinnerOp, ForOp, RepeatOp,
OptionOp, TriggerRule) and its own Block, Stmt and CompiledProgram; frames (Frame, DONE) and the
run-loop helpers (enter_procedure, run_whole, fire, fire_arrivals, take_where, eliminate,
cards_of, move_cards, gone, live_mask, reach, Spaces); the layout specs (KindSpec, ZoneSpec,
VarSpec); the
checked helpers its expressions call (seat, ordinal, divide, span_list, formatter, PatternTable,
DataTableRT, majority_has, majority_holders, majority_top and the seat built-ins); the errors
and limits (RuleError, SourceSpan, MAX_CALL_DEPTH, MAX_DEPTH, MAX_PASSES, too_deep, too_long,
nest_too_deep, traced, charge, too_much_work, MAX_STEP_WORK).

The interpreter (interpreter/: Program, ExprCompiler) runs the same State (runtime/state.py),
frames and ops, so both back ends can be compared state by state and a game saved on one resumes
on the other. This package imports nothing from meeple.interpreter or meeple.codegen, and no
lark, yaml or jsonschema (only meeple.dsl's errors, limits and pure built-ins): a generated
module runs without the front end (tests/test_runtime_package.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from meeple.dsl.auction_values import auction_at_least, auction_bidders, auction_means
from meeple.dsl.builtins import (
    clockwise_from,
    max_by,
    min_by,
    others,
    pairs_of,
    seat_after,
    sorted_by,
    track_order,
)
from meeple.dsl.builtins import first_of as first
from meeple.dsl.errors import RuleError, SourceSpan
from meeple.dsl.limits import MAX_CALL_DEPTH, MAX_STEP_WORK

from .card_counts import majority_has_card, majority_top_card
from .classcounts import class_counts, class_slots
from .datatable import DataTableRT
from .helpers import (
    PatternTable,
    charge,
    divide,
    not_a_seat,
    option_seat,
    ordinal,
    seat,
    span_list,
    too_deep,
    too_large,
    too_much_work,
    traced,
    typed,
)
from .layout import KindSpec, ProgramBase, VarSpec, ZoneSpec, site_size
from .majorities import majority_has, majority_holders, majority_top
from .majority_counts import majority_has_count, majority_top_count
from .moves import move_cards
from .ops import (
    DONE,
    MAX_DEPTH,
    MAX_PASSES,
    ChooseOp,
    Decision,
    ForOp,
    Frame,
    Op,
    OptionOp,
    PickOp,
    RepeatOp,
    Site,
    TriggerRule,
    WinnerOp,
    cards_of,
    eliminate,
    enter_procedure,
    fire,
    fire_arrivals,
    gone,
    live_mask,
    nest_too_deep,
    take_where,
    too_long,
)
from .playout import run_pick, run_to
from .position import turn_line
from .tally import owner_counts, owner_slots
from .tops import is_top_by, tops_by
from .tracks import Spaces, reach
from .values import Card, formatter

__all__ = [
    "auction_at_least",
    "auction_bidders",
    "auction_means",
    "DONE",
    "MAX_CALL_DEPTH",
    "MAX_STEP_WORK",
    "MAX_DEPTH",
    "MAX_PASSES",
    "Block",
    "Card",
    "ChooseOp",
    "CompiledProgram",
    "Decision",
    "ForOp",
    "Frame",
    "KindSpec",
    "OptionOp",
    "PatternTable",
    "DataTableRT",
    "PickOp",
    "RepeatOp",
    "RuleError",
    "SourceSpan",
    "Spaces",
    "Stmt",
    "VarSpec",
    "TriggerRule",
    "WinnerOp",
    "cards_of",
    "class_counts",
    "class_slots",
    "owner_counts",
    "owner_slots",
    "eliminate",
    "enter_procedure",
    "fire",
    "fire_arrivals",
    "gone",
    "live_mask",
    "nest_too_deep",
    "move_cards",
    "ZoneSpec",
    "clockwise_from",
    "divide",
    "first",
    "formatter",
    "ordinal",
    "run_whole",
    "others",
    "reach",
    "seat",
    "seat_after",
    "span_list",
    "sorted_by",
    "track_order",
    "pairs_of",
    "min_by",
    "max_by",
    "take_where",
    "too_deep",
    "too_much_work",
    "charge",
    "too_long",
    "traced",
    "too_large",
    "typed",
    "turn_line",
    "not_a_seat",
    "option_seat",
    "run_to",
    "run_pick",
    "majority_holders",
    "majority_has",
    "majority_has_count",
    "majority_top_count",
    "majority_has_card",
    "majority_top_card",
    "tops_by",
    "is_top_by",
    "majority_top",
]

Step = Callable[[Any, Frame], None]


class Block(Op):
    """A block of statements whose ``step`` is a generated function ``step(st, frame)``."""

    def __init__(self, uid: int, span: SourceSpan, size: int, step: Step) -> None:
        self.uid, self.span, self.size = uid, span, size
        self.step = step  # type: ignore[method-assign, assignment]  # one call, no bound method

    def exec(self, st: Any, env: dict[str, Any]) -> None:
        if self.size:
            st.frames.append(Frame(self, env))


class Stmt(Op):
    """A statement whose code is inlined in its block's generated step (kept for ``st.at``:
    the rule line an error is reported at)."""

    def __init__(self, uid: int, span: SourceSpan) -> None:
        self.uid, self.span = uid, span


def run_whole(body: Callable[[Any, dict[str, Any]], None]) -> Step:
    """The step of a block generated as one function ``body(st, env)``: run it, then pop."""

    def step(st: Any, fr: Frame) -> None:
        body(st, fr.env)
        st.frames.pop()

    return step


class CompiledProgram(ProgramBase):
    """A ProgramBase built by a generated module: the same layout, ops and action ids as the
    interpreter's Program for the same rules and player count."""

    def __init__(
        self,
        game_id: str,
        game_name: str,
        kinds: Sequence[KindSpec],
        zones: Sequence[ZoneSpec],
        num_players: int,
        players_max: int,
    ) -> None:
        super().__init__(kinds, zones, num_players)
        self.game_id, self.game_name = game_id, game_name
        self.game = None
        self.players_max = players_max
        self.triggers_at: dict[int, list[TriggerRule]] = {}
        self.spaces_of: dict[str, Spaces] = {}  # a track's spaces (runtime/tracks.py)
        self.proc_names: dict[int, str] = {}

    def add_trigger(self, zone: str, rule: TriggerRule) -> None:
        """Arrivals in every pile of ``zone`` set ``rule`` off (after the rules before it)."""
        base = self.zone_base[zone]
        for zi in range(base, base + self.zone_piles[zone]):
            self.triggers_at.setdefault(zi, []).append(rule)

    def sites(self, domains: Sequence[str]) -> list[Site]:
        """Action sites in the interpreter's order: one id per fixed option, card type (plus
        "done"), seat or small number."""
        out, base = [], 0
        for i, d in enumerate(domains):
            s = Site(base, d)
            s.index = i
            out.append(s)
            base += site_size(d, self.num_card_types, self.players_max)
        self.num_distinct_actions = base
        return out
