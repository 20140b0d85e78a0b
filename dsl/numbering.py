"""The front end's numbering of a checked game: op uids, action sites, how frames stack.

Both back ends name a statement by its uid (a frame's op, a saved state's ``at``), and a
decision by its action site (the action ids an option, a pick or a tie takes). This pass gives
them out once, from the IR, for one player count: the interpreter's Program takes its uids and
sites from it, and the code generator writes it into the module, without building a Program.

The order is the order a game is compiled in, and is part of the saved-state format: every
procedure's body block first (so a call may name a body not compiled yet), then the procedures'
statements, the triggers' bodies, the bodies of tracks' spaces, setup, play and scoring. Within
a statement, what it contains is numbered before the statement itself (a block before its
statements, as its frame is pushed before they run): an ``if``'s else block, then block and
elif blocks; a ``for``'s or ``repeat``'s body; a ``choose``'s options, each its action site then
its body; a ``pick``'s or a tie's site (a tie broken by a chooser).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from meeple.runtime.layout import Layout, site_size

from . import ir
from .action_limit import check_most, check_total
from .auction import check_least_bid
from .checker import Checked
from .errors import MeepleError
from .static import static_int


@dataclass(frozen=True)
class Numbering:
    """A game numbered for ``num_players`` seats.

    ``uids``: id(statement or block node) -> its uid (``nodes[uid]`` is the node; an ``elif``
    has none, only its block); ``site_of``: id(Option, Pick or Winner node) -> its site index;
    ``site_domains``/``site_bases``: per site, its domain ("card", "player", "int", "int:N",
    "fixed") and its first action id; ``frame_parents``: uid of an op that may have a frame ->
    the uids whose frame may be directly below it; ``fresh_frames``: the blocks that start with
    names of their own (procedure, trigger and space bodies; setup, play, scoring).
    """

    nodes: tuple[Any, ...]
    uids: Mapping[int, int]
    site_of: Mapping[int, int]
    site_domains: tuple[str, ...]
    site_bases: tuple[int, ...]
    num_distinct_actions: int
    frame_parents: Mapping[int, frozenset[int]]
    fresh_frames: frozenset[int]

    @property
    def num_ops(self) -> int:
        """How many ops the game has (uids are 0..num_ops-1)."""
        return len(self.nodes)

    def uid(self, node: Any) -> int:
        """The uid of a statement or block of the game (KeyError for any other node)."""
        return self.uids[id(node)]


def domain_of(t: str) -> str:
    """The site domain of a checked type of the items an option or a tie ranges over: "card",
    "player", "int", else "any" (which no site may have)."""
    t = t[5:] if t.startswith("list:") else ("card" if t == "zone" else t)
    return t if t in ("card", "player", "int") else "any"


def num_card_types(game: ir.Game, num_players: int) -> int:
    """How many card types the layout has (runtime/layout.py): one per item line, per seat
    for a per-player kind."""
    return sum(len(k.items) * (num_players if k.per_player else 1) for k in game.kinds.values())


def site_domain(checked: Checked, node: Any, layout: Layout | None = None) -> str:
    """The domain of the action site of ``node`` (an Option with a name, a Pick, a Winner; an
    option without a name is "fixed"). An auction's bid option is sized by its ``most``,
    evaluated over ``layout``'s cards (required then).

    Raises MeepleError for an option over anything but cards, players or numbers."""
    if isinstance(node, ir.Pick):
        return "card"
    if isinstance(node, ir.Winner):
        return domain_of(checked.types.get(id(node.among), "any"))
    assert isinstance(node, ir.Option)
    if node.var is None:
        return "fixed"
    assert node.iter is not None
    dom = domain_of(checked.types.get(id(node.iter), "any"))
    if dom == "any":
        raise MeepleError("options can range over cards, players or numbers only", node.iter.span)
    if node.most is not None:  # an auction's bids: as many ids as the most bid
        assert layout is not None
        most = static_int(node.most, checked.game, layout.kind_cards)
        check_least_bid(node, most, checked.game, layout.num_players)  # (dsl/auction.py)
        check_most(most, node.most.span, layout.num_players)
        dom = f"int:{most + 1}"
    return dom


def number(checked: Checked, num_players: int, layout: Layout | None = None) -> Numbering:
    """Number ``checked``'s game for ``num_players`` seats (see the module docstring).
    ``layout``: the game's layout for that count, if already made (an auction's ``most`` reads
    its cards; made here when needed and not given).

    Raises MeepleError as site_domain does."""
    return _Numberer(checked, num_players, layout).result()


class _Numberer:
    def __init__(self, checked: Checked, num_players: int, layout: Layout | None) -> None:
        self.checked, self.g, self.num_players = checked, checked.game, num_players
        self.layout = layout
        self.nodes: list[Any] = []
        self.uids: dict[int, int] = {}
        self.site_of: dict[int, int] = {}
        self.domains: list[str] = []
        self.bases: list[int] = []
        self.next_action = 0
        self.types = num_card_types(self.g, num_players)
        g = self.g
        for p in g.procedures.values():
            self.reg(p.body)
        for p in g.procedures.values():
            self.stmts(p.body)
        for t in g.triggers.values():
            self.block(t.body)
        for v in g.variables.values():
            for sp in v.spaces:
                self.block(sp.body)
        for b in (g.setup, g.play, g.scoring):
            self.block(b)

    def reg(self, node: Any) -> None:
        self.uids[id(node)] = len(self.nodes)
        self.nodes.append(node)

    def site(self, node: Any) -> None:
        if self.layout is None and isinstance(node, ir.Option) and node.most is not None:
            from meeple.runtime.layout import ProgramBase  # noqa: PLC0415

            from .specs import kind_specs, zone_specs  # noqa: PLC0415

            self.layout = ProgramBase(kind_specs(self.g), zone_specs(self.g), self.num_players)
        dom = site_domain(self.checked, node, self.layout)
        self.site_of[id(node)] = len(self.domains)
        self.domains.append(dom)
        self.bases.append(self.next_action)
        self.next_action += site_size(dom, self.types, self.g.players_max)
        check_total(self.next_action, node, self.num_players)  # (the AI adapters' masks)

    def block(self, b: ir.Block) -> None:
        self.reg(b)
        self.stmts(b)

    def stmts(self, b: ir.Block) -> None:
        for s in b.stmts:
            self.stmt(s)

    def stmt(self, s: ir.Stmt) -> None:
        if isinstance(s, ir.Block):  # an auction too: its lowered statements
            self.block(s)
            return
        if isinstance(s, ir.If):
            if s.orelse is not None:
                self.block(s.orelse)
            self.block(s.then)
            for b in s.elifs:
                self.block(b.then)
        elif isinstance(s, (ir.For, ir.Repeat, ir.While)):
            self.block(s.body)
        elif isinstance(s, ir.Choose):
            for o in s.options:
                self.site(o)
                self.block(o.body)
        elif isinstance(s, (ir.Pick, ir.Winner)):
            self.site(s)
        self.reg(s)

    def frames(self) -> tuple[dict[int, frozenset[int]], frozenset[int]]:
        """As runtime/state.py's frame_structure derives it from the ops."""
        uid = self.uids
        g = self.g
        parents: dict[int, set[int]] = {}
        fresh = {uid[id(g.setup)], uid[id(g.play)], uid[id(g.scoring)]}
        parents.setdefault(uid[id(g.setup)], set()).add(uid[id(g.play)])  # a new game

        def pushes(s: ir.Stmt) -> list[Any]:
            if isinstance(s, (ir.Block, ir.For, ir.Repeat, ir.While, ir.Pick)):
                return [s]
            if isinstance(s, ir.If):
                out = [s.then, *(b.then for b in s.elifs)]
                return out + ([s.orelse] if s.orelse is not None else [])
            if isinstance(s, ir.CallProc):
                body = g.procedures[s.name].body
                fresh.add(uid[id(body)])
                return [body]
            if isinstance(s, ir.Choose):
                return [o.body for o in s.options]
            return []

        for u, node in enumerate(self.nodes):
            if isinstance(node, ir.Block):
                for s in node.stmts:
                    for child in pushes(s):
                        parents.setdefault(uid[id(child)], set()).add(u)
            elif isinstance(node, (ir.For, ir.Repeat, ir.While)):
                parents.setdefault(uid[id(node.body)], set()).add(u)
        fresh |= {uid[id(t.body)] for t in g.triggers.values()}
        fresh |= {uid[id(sp.body)] for v in g.variables.values() for sp in v.spaces}
        return {k: frozenset(v) for k, v in sorted(parents.items())}, frozenset(fresh)

    def result(self) -> Numbering:
        parents, fresh = self.frames()
        return Numbering(
            tuple(self.nodes),
            MappingProxyType(self.uids),
            MappingProxyType(self.site_of),
            tuple(self.domains),
            tuple(self.bases),
            self.next_action,
            MappingProxyType(parents),
            fresh,
        )
