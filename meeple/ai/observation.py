"""Each seat's view of a state as a vector of numbers with finite bounds, and as text.

The layout is derived from the rules' declarations (zones, components, variables, the player
count), so it is the same for every state of a game and documented field by field in
``ObservationSpec.fields``. What a seat cannot see is never encoded: a hidden pile, an other
seat's hand and the cards under the top of a ``top`` pile show their count only; an
``owner``-only variable shows the seat's own value only. See docs/ai.md (Observations).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from meeple.dsl import ir
from meeple.dsl.errors import MeepleError
from meeple.dsl.render import statement_blocks, walk
from meeple.interpreter.game import Game
from meeple.runtime.layout import ProgramBase
from meeple.runtime.ops import ChooseOp, PickOp, WinnerOp
from meeple.runtime.state import State
from meeple.runtime.values import card_label, player_name

#: the bound given to a whole-number variable whose declaration has no ``min`` / ``max``: its
#: value is clipped into [-INT_BOUND, INT_BOUND] (spec.clipped names such variables)
INT_BOUND = 1000

# what a seat sees of a pile (see State.observation): everything, its top card, its count only
_ALL, _TOP, _COUNT = 0, 1, 2


@dataclass(frozen=True)
class Field:
    """One named part of the observation vector: ``vector[field.slice]``.

    ``name`` e.g. ``"zone hand[P2] count"``; ``doc`` says what each entry holds."""

    name: str
    start: int
    stop: int
    doc: str

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)

    @property
    def size(self) -> int:
        return self.stop - self.start


class ObservationSpec:
    """The observation layout of a game for its player count (both back ends: same layout).

    ``shape`` is ``(size,)``; ``low`` and ``high`` (float32 arrays of that shape) bound every
    entry, from the declarations: a pile's count by the number of components, a card count by
    the copies of that card, a variable by its declared ``min``/``max`` (INT_BOUND otherwise:
    see ``clipped``), a seat by the player count. ``fields`` lists the parts in order;
    ``omitted`` the variables that have no numeric form (text, lists) and why.

    ``encode(state, seat)`` gives seat ``seat``'s view (0-based; P1 is 0) as a float32 vector;
    every entry is a whole number within [low, high].
    """

    def __init__(self, game: Game | ProgramBase) -> None:
        prog = game.program if isinstance(game, Game) else game
        self.game_id = prog.game_id
        self.num_players = n = prog.num_players
        self._prog = prog
        cards = prog.cards
        ntypes = prog.num_card_types
        copies = [0] * ntypes
        type_name = [""] * ntypes
        for c in cards:
            copies[c.type_id] += 1
            type_name[c.type_id] = card_label(c)
        self.card_types: list[str] = type_name  # the label of each card type, by type id
        fields: list[Field] = []
        low: list[float] = []
        high: list[float] = []

        def add(name: str, lo: Sequence[float], hi: Sequence[float], doc: str) -> int:
            start = len(low)
            low.extend(lo)
            high.extend(hi)
            fields.append(Field(name, start, len(low), doc))
            return start

        seats = [player_name(p) for p in range(n)]
        self._observer = add("observer", [0] * n, [1] * n, f"one-hot: the seat observing, {seats}")
        self._to_act = add("to act", [0] * n, [1] * n, "one-hot: the seat to act (none: over)")
        self._in_game = add("in game", [0] * n, [1] * n, "1 for each seat not eliminated")
        self._over = add("over", [0], [1], "1 when the game is over")
        self._decision_ops = [
            op.uid for op in prog.ops if isinstance(op, (ChooseOp, PickOp, WinnerOp))
        ]
        self._decision_index = {uid: i for i, uid in enumerate(self._decision_ops)}
        k = len(self._decision_ops)
        self._decision = add(
            "decision",
            [0] * k,
            [1] * k,
            "one-hot, for the seat to act only: which rule asks (spec.decision_rules, in order)",
        )
        self.decision_rules = [str(prog.ops[u].span) for u in self._decision_ops]
        total = len(cards)
        self._pile_count: list[int] = []
        self._pile_cards: list[int] = []
        for name in prog.zone_names:
            self._pile_count.append(add(f"zone {name} count", [0], [total], "cards in the pile"))
        for i, name in enumerate(prog.zone_names):
            vis = prog.zone_vis[i]
            seen = {
                "public": "every card",
                "owner": "its owner sees every card, the others nothing",
                "top": "the top card only",
                "hidden": "nothing",
            }.get(vis, vis)
            self._pile_cards.append(
                add(
                    f"zone {name} cards",
                    [0] * ntypes,
                    copies,
                    f"copies of each card type (spec.card_types) the seat sees there ({seen}); "
                    "0 for what it cannot see",
                )
            )
        # variables: (kind of value, offset, how many slots, owner-only, var name)
        self._vars: list[tuple[str, int, int, bool, str]] = []
        self.clipped: list[str] = []
        self.omitted: dict[str, str] = {}
        rules = getattr(prog, "game", None)  # the checked IR (both back ends keep it)
        decls = rules.variables if rules is not None else {}
        assigned = _assigned_variables(prog)
        for v in prog.var_specs:
            decl = decls.get(v.name)
            owner_only = v.visibility == "owner"
            if v.per is None:
                slots = 1
            elif v.per == "players":
                slots = 1 if owner_only else n
            else:
                slots = len(prog.kind_cards[v.per])
            if v.type == "int":
                lo = getattr(decl, "min", None)
                hi = getattr(decl, "max", None)
                init = getattr(getattr(decl, "initial", None), "value", None)
                if v.name not in assigned and type(init) is int:
                    lo = hi = init  # a constant of the rules (never assigned): its value
                if lo is None or hi is None:
                    self.clipped.append(v.name)
                lo = -INT_BOUND if lo is None else lo
                hi = INT_BOUND if hi is None else hi
                doc = f"the value, in [{lo}, {hi}]"
            elif v.type == "bool":
                lo, hi, doc = 0, 1, "1 for true, 0 for false or none"
            elif v.type == "player":
                lo, hi, doc = 0, n, "the seat + 1 (P1 is 1), 0 for nobody"
            elif v.type == "card":
                lo, hi, doc = 0, ntypes, "the card type (spec.card_types) + 1, 0 for none"
            else:
                self.omitted[v.name] = f"a {v.type} has no numeric form here"
                continue
            if v.per == "players":
                doc += "; the observer's own value only" if owner_only else "; one per seat"
            elif v.per is not None:
                doc += f"; one per {v.per} component, in their order"
            start = add(f"var {v.name}", [lo] * slots, [hi] * slots, doc)
            self._vars.append((v.type, start, slots, owner_only, v.name))
        self.fields: list[Field] = fields
        self.low = np.asarray(low, dtype=np.float32)
        self.high = np.asarray(high, dtype=np.float32)
        self.shape: tuple[int, ...] = (len(low),)
        self.dtype = np.float32
        self._lo_list, self._hi_list = low, high
        # what each seat sees of each pile
        self._modes = [
            [
                _ALL
                if vis == "public" or (vis == "owner" and prog.zone_owner[i] == seat)
                else _TOP
                if vis == "top"
                else _COUNT
                for i, vis in enumerate(prog.zone_vis)
            ]
            for seat in range(n)
        ]

    def field(self, name: str) -> Field:
        """The field called ``name``; MeepleError naming the fields otherwise."""
        for f in self.fields:
            if f.name == name:
                return f
        raise MeepleError(
            f"the observation has no field '{name}'",
            expected="one of " + ", ".join(f.name for f in self.fields[:8]) + ", ...",
        )

    def encode(self, state: State, seat: int) -> np.ndarray:
        """Seat ``seat``'s view of ``state`` (0-based seat) as a float32 vector of ``shape``.

        Raises ValueError for a seat not of this game, MeepleError for a state of another."""
        if state.prog is not self._prog:
            if state.prog.game_id != self.game_id or state.prog.num_players != self.num_players:
                raise MeepleError(
                    f"this state is of {state.prog.game_name} with {state.prog.num_players} "
                    f"players, not of the game this observation spec describes"
                )
        seat = state._seat_arg(seat)
        pos: list[int] = [self._observer + seat]  # entries set to 1 ...
        hits: list[int] = []  # ... entries counted (+1 per hit)
        vals: list[float] = []  # ... and entries set to a value (positions in vpos)
        vpos: list[int] = []
        d = state.pending
        if d is not None:
            pos.append(self._to_act + d.player)
            if d.player == seat:
                k = self._decision_index.get(d.op.uid)
                if k is not None:
                    pos.append(self._decision + k)
        if state.phase == "over":
            pos.append(self._over)
        base = self._in_game
        pos.extend(base + p for p in state.players)
        modes = self._modes[seat]
        counts, piles = self._pile_count, self._pile_cards
        for i, z in enumerate(state.zones):
            if not z:
                continue
            vpos.append(counts[i])
            vals.append(len(z))
            m = modes[i]
            if m == _ALL:
                off = piles[i]
                hits.extend([off + c.type_id for c in z])
            elif m == _TOP:
                hits.append(piles[i] + z[-1].type_id)
        lo, hi = self._lo_list, self._hi_list
        variables = state.vars
        for kind, start, slots, owner_only, name in self._vars:
            v = variables[name]
            if owner_only:
                v = [v[seat]]
            elif slots == 1 and not isinstance(v, list):
                v = [v]
            for j, x in enumerate(v):
                if x is None:
                    continue
                if kind == "int":
                    y = float(x)
                    if y < lo[start + j]:
                        y = lo[start + j]
                    elif y > hi[start + j]:
                        y = hi[start + j]
                elif kind == "bool":
                    y = 1.0 if x else 0.0
                elif kind == "player":
                    y = x + 1
                else:  # card
                    y = x.type_id + 1
                vpos.append(start + j)
                vals.append(y)
        size = self.shape[0]
        out = (
            np.bincount(hits, minlength=size).astype(np.float32)
            if hits
            else np.zeros(size, np.float32)
        )
        out[pos] = 1.0
        out[vpos] = vals
        return out

    def describe(self, vector: np.ndarray) -> dict[str, list[float]]:
        """The non-zero entries of an encoded vector by field name (for reading and tests)."""
        return {
            f.name: [float(x) for x in vector[f.slice]]
            for f in self.fields
            if np.any(vector[f.slice])
        }


def _assigned_variables(prog: ProgramBase) -> set[str]:
    """Names of the variables some statement of the rules assigns (the others keep their
    initial value all game); all of them when the rules are not at hand."""
    g = getattr(prog, "game", None)
    if g is None:
        return {v.name for v in prog.var_specs}
    return {n.name for b in statement_blocks(g) for n in walk(b) if isinstance(n, ir.Assign)}


def observation_spec(game: Game) -> ObservationSpec:
    """The observation layout of ``game`` (made once per game and kept for it)."""
    return _spec_of(game.program)


def _spec_of(prog: ProgramBase) -> ObservationSpec:
    # kept on the program itself: it lives exactly as long as the game's states
    spec: ObservationSpec | None = prog.__dict__.get("_ai_observation_spec")
    if spec is None:
        spec = ObservationSpec(prog)
        prog.__dict__["_ai_observation_spec"] = spec
    return spec


def encode(state: State, seat: int) -> np.ndarray:
    """Seat ``seat``'s observation vector of ``state`` (see ObservationSpec.encode; the spec
    of the state's game is made on first use)."""
    return _spec_of(state.prog).encode(state, seat)


# ------------------------------------------------------------------------------ text
def observation_string(state: State, seat: int) -> str:
    """Seat ``seat``'s view of ``state`` now as text (0-based seat; shown as P1..Pn): every
    pile (its cards where the seat sees them, else its count), the variables as the seat sees
    them, who acts, and the seat's own decision with its options. No history (see
    information_state_string). Raises ValueError for a seat not of this game."""
    obs = state.observation(seat)
    lines = [f"observer: {player_name(obs['player'])}"]
    cur = obs["current_player"]
    lines.append("to act: " + (player_name(cur) if cur >= 0 else "nobody (the game is over)"))
    if "position" in obs:  # rounds, phases and turns declared by the rules
        lines.append(f"position: {obs['position']}")
    for name, z in obs["zones"].items():
        if isinstance(z, list):
            lines.append(f"{name}: " + (", ".join(z) if z else "empty"))
        elif "top" in z:
            top = f", top {z['top']}" if z["top"] is not None else ""
            lines.append(f"{name}: {z['count']} cards{top}")
        else:
            lines.append(f"{name}: {z['count']} cards, unseen")
    for name, v in obs["variables"].items():
        lines.append(f"{name} = {_text(v)}")
    dec = obs.get("decision")
    if dec is not None:
        opts = "; ".join(f"{a}: {label}" for a, label in dec["options"])
        lines.append(f"decision: {dec['prompt']} [{opts}]")
    return "\n".join(lines)


def _text(v: Any) -> str:
    if isinstance(v, dict):
        return "hidden" if v.get("hidden") else f"card {v.get('card')}"
    if isinstance(v, list):
        return "[" + ", ".join(_text(x) for x in v) + "]"
    return "none" if v is None else str(v)


def information_state_string(state: State, seat: int) -> str:
    """What seat ``seat`` has seen and done, in order (for perfect recall): every log line
    meant for everyone or for that seat (its own decisions, secret ones included, the others'
    public decisions, what was revealed), then its view now (observation_string).

    Needs the log: raises MeepleError for a state made with ``record_log=False``. Two
    histories give the same string when they differ only in what the log never shows the
    seat; cards that passed through its own hand unlogged are the known case (see
    docs/ai.md, Observations)."""
    if not state.record_log:
        raise MeepleError(
            "this state keeps no log, so it cannot say what a seat has seen",
            suggestion="make the state with record_log=True (the default)",
        )
    seat = state._seat_arg(seat)
    seen = [t for who, t in state.log if who == -1 or who == seat]
    return "\n".join([*seen, "--", observation_string(state, seat)])
