"""Where things live for one player count: the card list and the zone table.

Shared by both back ends: the interpreter's Program builds it from the IR, a generated module from
the plain data it was generated with, so both lay a game out identically (same card ids, same zone
indices, same action ids).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from meeple.dsl.errors import MeepleError, SourceSpan

from .values import Card

if TYPE_CHECKING:
    from .ops import BlockOp, Op


#: the values a plain number option's action ids cover (0..63); an auction's bids are sized
#: by its ``most`` instead (domain "int:N")
INT_VALUES = 64


def site_size(domain: str, num_card_types: int, players_max: int) -> int:
    """How many action ids a decision site of ``domain`` takes: one per card type plus "done",
    one per seat, one per number (``int``: INT_VALUES; ``int:N``: N), else one. The single
    layout rule of the interpreter, the generated modules and the AI adapters."""
    if domain == "card":
        return num_card_types + 1
    if domain == "player":
        return players_max
    if domain == "int":
        return INT_VALUES
    if domain.startswith("int:"):
        return int(domain[4:])
    return 1


@dataclass(frozen=True)
class KindSpec:
    """A kind of component. ``items``: (key, name, properties, count) per item line;
    ``refs``: (property, type) for properties naming a card of another kind (type: the kind)
    and for list properties (type: ``list:<kind or value type>``), each given its own list."""

    name: str
    items: tuple[tuple[str, str, dict[str, Any], int], ...]
    start: str | None
    per_player: bool
    refs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ZoneSpec:
    """A zone declaration: ``per`` is None, "players" or a kind name."""

    name: str
    per: str | None
    visibility: str
    refill: str | None


@dataclass(frozen=True)
class VarSpec:
    """A variable: its checked type, ``per`` (None, "players" or a kind), where its initial value
    is, and its visibility ("public", or "owner": a seat sees only its own value)."""

    name: str
    type: str
    per: str | None
    span: SourceSpan
    visibility: str = "public"


class Layout:
    """Cards and zones of one game for ``num_players`` seats.

    ``cards``: every component in kind order (per-player kinds expanded seat by seat);
    ``kind_cards[kind]``: that kind's cards; ``zone_base[name]``: index of the zone (or of its
    first pile) in State.zones; ``zone_names/zone_owner/zone_vis/zone_per``: one entry per pile.
    """

    def __init__(
        self, kinds: Sequence[KindSpec], zones: Sequence[ZoneSpec], num_players: int
    ) -> None:
        self.num_players = num_players
        self._layout_cards(kinds)
        self._layout_zones(zones)
        # every card in its start zone, in card order, and each card's zone: what a new State
        # copies (two list copies per pile instead of a start_zone call per card)
        self.start_piles: tuple[list[Card], ...] = tuple([] for _ in self.zone_names)
        self.start_loc: list[int] = [self.start_zone(c) for c in self.cards]
        for c in self.cards:
            self.start_piles[self.start_loc[c.id]].append(c)

    def _layout_cards(self, kinds: Sequence[KindSpec]) -> None:
        self.cards: list[Card] = []
        self.kind_cards: dict[str, list[Card]] = {}
        self.card_start: list[tuple[str, int | None]] = []
        keys: dict[tuple[str, str], Card] = {}
        self.num_card_types = 0
        for kind in kinds:
            seats: list[int | None] = list(range(self.num_players)) if kind.per_player else [None]
            lst: list[Card] = []
            for seat in seats:
                for key, name, props, count in kind.items:
                    type_id = self.num_card_types
                    self.num_card_types += 1
                    for _ in range(count):
                        c = Card(
                            len(self.cards),
                            kind.name,
                            key,
                            name,
                            seat,
                            len(lst),
                            dict(props),
                            type_id,
                        )
                        self.cards.append(c)
                        lst.append(c)
                        keys.setdefault((kind.name, key), c)
                        self.card_start.append((kind.start or "", seat))
            self.kind_cards[kind.name] = lst
        refs = {k.name: k.refs for k in kinds}
        for c in self.cards:  # resolve references between kinds (a day card's district)
            for p, t in refs[c.kind]:
                value: Any
                if t.startswith("list:"):  # a list property: a fresh list, keys resolved
                    of = t[5:]
                    value = [keys[(of, str(v))] if of in refs else v for v in c.props[p]]
                else:
                    value = keys[(t, str(c.props[p]))]
                c.props[p] = value
                setattr(c, p, value)

    def _layout_zones(self, zones: Sequence[ZoneSpec]) -> None:
        self.zone_base: dict[str, int] = {}
        self.zone_names: list[str] = []
        self.zone_owner: list[int | None] = []
        self.zone_vis: list[str] = []
        self.zone_per: dict[str, str | None] = {}
        self.zone_piles: dict[str, int] = {}
        refills: list[str | None] = []
        for z in zones:
            self.zone_base[z.name] = len(self.zone_names)
            self.zone_per[z.name] = z.per
            if z.per is None:
                keys: list[tuple[str, int | None]] = [(z.name, None)]
            elif z.per == "players":
                keys = [(f"{z.name}[P{s + 1}]", s) for s in range(self.num_players)]
            else:
                keys = [(f"{z.name}[{c.name}]", None) for c in self.kind_cards[z.per]]
            self.zone_piles[z.name] = len(keys)
            for label, owner in keys:
                self.zone_names.append(label)
                self.zone_owner.append(owner)
                self.zone_vis.append(z.visibility)
                refills.append(z.refill)
        self.refill_of = [self.zone_base[r] if r else None for r in refills]

    def card_by_key(self, key: str) -> Card:
        """The first card of the item with this key (for ``card('boneyard')``)."""
        for c in self.cards:
            if c.key == key:
                return c
        raise MeepleError(f"no card has the key '{key}'")

    def start_zone(self, card: Card) -> int:
        name, seat = self.card_start[card.id]
        return self.zone_base[name] + (seat or 0)


class ProgramBase(Layout):
    """What a State needs of its game, whichever back end built it: the layout, the variables
    (``var_specs``, ``var_initial``), the ops by uid, the setup/play/scoring blocks, the
    tie-breakers, and ``num_distinct_actions``. ``game`` is the checked IR when there is one."""

    game: Any
    game_id: str
    game_name: str  # with a variant's name: a saved state names the rules it was played under
    players_max: int  # the most players the game is for (a saved seat count is checked)
    tie_breaker_spans: list[SourceSpan]
    var_specs: list[VarSpec]
    var_initial: dict[str, Callable[[Any, dict[str, Any]], Any]]
    tie_breakers: list[Callable[[Any, dict[str, Any]], Any]]
    ops: list[Op]
    setup: BlockOp
    play: BlockOp
    scoring: BlockOp
    num_distinct_actions: int
    #: uid of each procedure's body block -> "procedure NAME (file:line:col)" (for the call
    #: depth and the rules trace)
    proc_names: dict[int, str]
    # local names bound to values of one type wherever they are bound (checked in a saved
    # state): name -> checked type
    local_types: Mapping[str, str] = MappingProxyType({})
    # local names that may hold a zone (a procedure's zone parameter): a copy or a save of a
    # state looks for a zone among their values only
    zone_locals: frozenset[str] = frozenset()
    # which op's frame may sit directly on which (see state.frame_structure); a generated
    # module sets them, the interpreter derives them from its ops when a state is loaded
    frame_parents: Mapping[int, frozenset[int]] | None = None
    fresh_frames: frozenset[int] = frozenset()
    frame_parents_for = -1  # the interpreter: how many ops the table was derived from
    #: how meeple.load made it: (game id or rules path, variant, players, back end), so that a
    #: pickled state or game can load it again in another process; None when made otherwise
    origin: tuple[str, str | None, int, str] | None = None
    #: block uid -> direct code ``(st, env, pc)`` that runs the rest of a frame of a block that
    #: may stop, in one call, during a playout (runtime/playout.py); a generated module fills
    #: it, the interpreter has none
    resume: Mapping[int, Callable[[Any, dict[str, Any], int], None]] = MappingProxyType({})
    #: the most procedures that can run at once, one inside the other, where a generated
    #: module's direct code leaves a call unchecked or uncounted (codegen/calls.py); None: its
    #: direct code checks and counts every call
    procedure_chain: int | None = None

    @property
    def seat_locals(self) -> frozenset[str]:
        """Local names that always hold a seat."""
        return frozenset(n for n, t in self.local_types.items() if t == "player")

    @property
    def owner_only_vars(self) -> set[str]:
        """Variables a seat sees only its own value of."""
        return {v.name for v in self.var_specs if v.visibility == "owner"}
