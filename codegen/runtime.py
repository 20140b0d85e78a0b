"""The small runtime a generated module imports (and nothing else of meeple).

It is the interpreter's own State, frames and decision ops: a generated module keeps the
interpreter's State layout, so both back ends can be compared state by state and a game saved on
one resumes on the other. No lark, yaml or jsonschema is imported from here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

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
from meeple.dsl.limits import MAX_CALL_DEPTH
from meeple.interpreter.datatable import DataTableRT
from meeple.interpreter.evaluate import (
    PatternTable,
    divide,
    not_a_seat,
    ordinal,
    seat,
    span_list,
    too_deep,
    traced,
)
from meeple.interpreter.layout import KindSpec, ProgramBase, VarSpec, ZoneSpec, site_size
from meeple.interpreter.majorities import majority_has, majority_holders
from meeple.interpreter.ops import (
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
    take_where,
    too_long,
)
from meeple.interpreter.playout import run_pick, run_to
from meeple.interpreter.position import turn_line
from meeple.interpreter.tracks import Spaces, reach
from meeple.interpreter.values import Card, formatter

__all__ = [
    "DONE",
    "MAX_CALL_DEPTH",
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
    "eliminate",
    "enter_procedure",
    "fire",
    "fire_arrivals",
    "gone",
    "live_mask",
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
    "too_long",
    "traced",
    "turn_line",
    "not_a_seat",
    "run_to",
    "run_pick",
    "majority_holders",
    "majority_has",
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
        self.spaces_of: dict[str, Spaces] = {}  # a track's spaces (interpreter/tracks.py)
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
