"""The intermediate representation: frozen dataclasses, every node with its SourceSpan.

Expressions and single statements come from the Lark grammar (dsl/parser.py); blocks, procedures
and the game itself from the YAML structure (dsl/build.py). Nothing after the front end sees YAML
or Lark objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import SourceSpan

# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class Expr:
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Const(Expr):
    """A literal: int, str, bool or None."""

    value: Any


@dataclass(frozen=True, slots=True)
class Name(Expr):
    id: str


@dataclass(frozen=True, slots=True)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True, slots=True)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(frozen=True, slots=True)
class Call(Expr):
    func: str
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[str, Expr], ...] = ()


@dataclass(frozen=True, slots=True)
class Comprehension(Expr):
    """``[elt for var in iter if cond]``; as the sole argument of a call it is a generator."""

    elt: Expr
    var: str
    iter: Expr
    cond: Expr | None


@dataclass(frozen=True, slots=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class BinOp(Expr):
    """Arithmetic (+ - * // %), comparison (== != < <= > >= in, not in), ``and``/``or``, ``..``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    op: str  # "not" or "-"
    operand: Expr


@dataclass(frozen=True, slots=True)
class Cond(Expr):
    test: Expr
    then: Expr
    orelse: Expr


# ---------------------------------------------------------------- statements


@dataclass(frozen=True, slots=True)
class Stmt:
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Assign(Stmt):
    """``name = v``, ``name[i] += v``: globals and counters."""

    name: str
    index: Expr | None
    op: str  # "=", "+=", "-="
    value: Expr
    position: bool = False  # set by the play structure (round, phase...), which no rule may


@dataclass(frozen=True, slots=True)
class Move(Stmt):
    """``move ITEMS to Z`` (count is None) or ``move COUNT from SRC to Z``; ``bottom`` puts them
    under the destination's bottom card instead of on top. With ``where`` (``move COUNT where
    COND from SRC to Z``) the COUNT top-most cards of SRC for which COND holds, the card named
    ``MOVE_VAR`` in it, are moved."""

    items: Expr | None
    count: Expr | None
    src: Expr | None
    dest: Expr
    bottom: bool
    where: Expr | None = None


#: The name of the candidate card in the condition of ``move N where ... from ...`` (as the
#: default ``each`` of a pick).
MOVE_VAR = "c"


@dataclass(frozen=True, slots=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True, slots=True)
class EndGame(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class Eliminate(Stmt):
    """``eliminate P``: the seat leaves the game (it drops out of ``players``)."""

    player: Expr


@dataclass(frozen=True, slots=True)
class Log(Stmt):
    """A log line; ``parts`` alternate literal text and expressions (``{expr}`` in the text)."""

    parts: tuple[str | Expr, ...]


@dataclass(frozen=True, slots=True)
class CallProc(Stmt):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Block(Stmt):
    """A sequence of statements; ``source``/``interpretation`` cite the rulebook."""

    stmts: tuple[Stmt, ...]
    source: str | None = None
    interpretation: str | None = None


@dataclass(frozen=True, slots=True)
class Auction(Block):
    """An auction (dsl/auction.py): the declaration, for ``meeple doc`` and the checker, and in
    ``stmts`` the ordinary statements it was lowered to, which both back ends run. The block's
    names ``winner`` and ``price_name`` stay bound after it."""

    kind: str = "open"
    prompt: tuple[str | Expr, ...] = ()
    bidders: Expr | None = None
    each: str = "p"
    means: Expr | None = None
    most: Expr | None = None
    min_bid: Expr | None = None
    increment: Expr | None = None
    price: Expr | None = None
    reenter: bool = False
    pay: Stmt | None = None
    none: Block | None = None
    won: Block | None = None
    winner: str = ""
    price_name: str = ""


@dataclass(frozen=True, slots=True)
class If(Stmt):
    """``if test: then``, then each ``elif`` branch in order (the first whose test holds runs),
    else ``orelse``. An ``elifs`` branch is an If of its own with no orelse and no elifs."""

    test: Expr
    then: Block
    orelse: Block | None
    source: str | None = None
    interpretation: str | None = None
    elifs: tuple[If, ...] = ()


@dataclass(frozen=True, slots=True)
class For(Stmt):
    """Run ``body`` for each item; ``secret`` marks a simultaneous block (choices stay hidden)."""

    var: str
    iter: Expr
    body: Block
    secret: bool = False


@dataclass(frozen=True, slots=True)
class Repeat(Stmt):
    """Run ``body``, then stop when ``until`` holds (checked after each pass)."""

    body: Block
    until: Expr


@dataclass(frozen=True, slots=True)
class While(Stmt):
    """Check ``test`` before each pass of ``body``."""

    test: Expr
    body: Block


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a choice. With ``var``/``iter`` it stands for one option per item."""

    span: SourceSpan
    label: tuple[str | Expr, ...]
    var: str | None
    iter: Expr | None
    when: Expr | None
    body: Block
    most: Expr | None = None  # numbers: the largest value, sizing the action ids (auction bids)


@dataclass(frozen=True, slots=True)
class Choose(Stmt):
    """``player`` picks one option; the chosen option's body runs."""

    player: Expr
    prompt: tuple[str | Expr, ...]
    options: tuple[Option, ...]
    secret: bool = False
    source: str | None = None
    interpretation: str | None = None


@dataclass(frozen=True, slots=True)
class Pick(Stmt):
    """``player`` picks items of ``src`` one at a time (a subset, decomposed): each picked item
    moves to ``dest`` (if given); ``where`` filters candidates (it may use ``var`` and the list
    ``picked``); "done" is offered once ``min`` are picked; it stops at ``max``. The list of
    picked items is bound to ``into``."""

    player: Expr
    prompt: tuple[str | Expr, ...]
    var: str
    src: Expr
    dest: Expr | None
    min: Expr
    max: Expr | None
    where: Expr | None
    into: str | None
    secret: bool = False
    source: str | None = None
    interpretation: str | None = None


@dataclass(frozen=True, slots=True)
class Winner(Stmt):
    """The strongest of ``among`` by ``strength`` (evaluated with ``var`` bound); a tie is decided
    by ``chooser`` (never in his own favour when ``not_self``), or by nobody (bound to none) when
    there is no chooser. Binds ``into``."""

    var: str
    among: Expr
    strength: Expr
    chooser: Expr | None
    not_self: bool
    into: str
    prompt: tuple[str | Expr, ...]
    source: str | None = None
    interpretation: str | None = None
    majority: str | None = None  # ``of: NAME(...)``: among is that call, chooser its tie rule


# ---------------------------------------------------------------- declarations


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of component (``minions``, ``districts``...): its property types and items."""

    name: str
    span: SourceSpan
    properties: dict[str, str]
    items: tuple[Item, ...]
    start: str | None  # zone where this kind's components begin (per-player zones: the owner's)
    per_player: bool  # one set of items for each seat, owned by that seat
    source: str | None
    interpretation: str | None
    spans: dict[str, SourceSpan]  # value positions: "start", "properties.<name>", ...


@dataclass(frozen=True, slots=True)
class Item:
    """One line of a kind's item list: ``count`` identical components."""

    span: SourceSpan
    key: str
    name: str
    props: dict[str, Any]
    count: int


@dataclass(frozen=True, slots=True)
class Component:
    """One physical component; ``id`` is its index in Game.components."""

    id: int
    kind: str
    key: str
    name: str
    props: dict[str, Any]
    owner: int | None  # seat, for per-player components


@dataclass(frozen=True, slots=True)
class ZoneDecl:
    """A zone: one ordered pile per key of ``per`` (None, "players" or a kind name).

    visibility: public | owner | hidden | top. ``refill`` names a zone shuffled into this one when
    it runs empty while cards are taken from it.
    """

    name: str
    span: SourceSpan
    per: str | None
    visibility: str
    refill: str | None
    spans: dict[str, SourceSpan]  # value positions: "per", "refill", ...


@dataclass(frozen=True, slots=True)
class VarDecl:
    """A global variable or counter; ``per`` is None, "players" or a kind (one value per
    component of that kind); ``visibility`` "owner" shows a per-player value to its seat only.
    A track (``tracks:``) is an ``int`` VarDecl with ``min`` and ``at_min``/``at_max`` set."""

    name: str
    span: SourceSpan
    type: str
    per: str | None
    initial: Expr
    min: int | None = None
    max: int | None = None
    visibility: str = "public"
    spans: dict[str, SourceSpan] = field(default_factory=dict)
    bound_constants: tuple[str, ...] = ()  # the constants named as min/max (their values above)
    # a track (section ``tracks:``): what an assignment below ``min`` / above ``max`` does,
    # "clamp", "refuse" or "wrap" (dsl/tracks.py); None for a plain variable
    at_min: str | None = None
    at_max: str | None = None
    kind: str | None = None  # ``type: card[KIND]``: type is "card", and the checker knows KIND
    spaces: tuple[Space, ...] = ()  # a track's spaces with effects, in space order

    @property
    def is_track(self) -> bool:
        """Declared under ``tracks:`` (bounded, with declared behaviour at its ends)."""
        return self.at_min is not None


@dataclass(frozen=True, slots=True)
class Majority:
    """Who has the most of something (dsl/majorities.py): ``count`` per candidate of ``among``
    (``var`` bound), at least ``at_least``; ``ties`` says per player count (lo, hi, mode) what a
    tie left after ``tie_breakers`` gives ("nobody" or "all"), or ``chooser`` decides it (only in
    a winner statement). ``place`` 2 (``second_of``) is the best below first place. Called like
    a function of ``params``, it is the list of holders; the back ends run the function of the
    same name the front end lowers it to."""

    name: str
    span: SourceSpan
    params: tuple[str, ...]
    var: str
    count: Expr
    among: Expr
    at_least: Expr
    ties: tuple[tuple[int, int, str], ...]
    chooser: Expr | None
    not_self: bool
    tie_breakers: tuple[Expr, ...]
    place: int
    second_of: str | None
    source: str | None = None
    interpretation: str | None = None
    spans: dict[str, SourceSpan] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Space:
    """A space of a track with an effect (dsl/tracks.py): ``body`` runs, with ``var`` naming
    the seat whose marker moved (per-player tracks), each time an assignment moves the marker
    up onto or past space ``at`` (``when`` "reached") or on beyond it (``when`` "passed")."""

    at: int
    when: str
    var: str | None
    body: Block
    span: SourceSpan
    spans: dict[str, SourceSpan] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConstDecl:
    """A constant: a number or a yes/no of the rulebook that no rule changes (a variant may).
    Both back ends use ``value`` itself where the name is read; it is in no saved state."""

    name: str
    span: SourceSpan
    value: int | bool
    source: str | None = None
    interpretation: str | None = None
    spans: dict[str, SourceSpan] = field(default_factory=dict)

    @property
    def type(self) -> str:
        """``int`` or ``bool``, the checker's type of the name."""
        return "bool" if isinstance(self.value, bool) else "int"


@dataclass(frozen=True, slots=True)
class Procedure:
    name: str
    span: SourceSpan
    params: tuple[str, ...]
    body: Block
    param_types: tuple[str | None, ...] = ()  # declared: {d: card[districts]}; None: inferred
    param_spans: tuple[SourceSpan, ...] = ()  # where each declared type is written


@dataclass(frozen=True, slots=True)
class Trigger:
    """Runs ``body`` whenever a ``move`` puts a component (of ``kind``, if given) into ``zone``
    (any pile of it) and ``when`` holds; ``var`` names the component in ``when`` and ``body``."""

    name: str
    span: SourceSpan
    zone: str
    kind: str | None
    var: str
    when: Expr | None
    body: Block
    spans: dict[str, SourceSpan] = field(default_factory=dict)  # value positions: "to", "kind"


@dataclass(frozen=True, slots=True)
class Function:
    """A named expression with parameters."""

    name: str
    span: SourceSpan
    params: tuple[str, ...]
    body: Expr
    source: str | None = None
    param_types: tuple[str | None, ...] = ()  # declared: {d: card[districts]}; None: inferred
    param_spans: tuple[SourceSpan, ...] = ()  # where each declared type is written


@dataclass(frozen=True, slots=True)
class Table:
    """Static data. ``patterns`` tables rank multisets (sorted group sizes, weakest first)."""

    name: str
    span: SourceSpan
    group_by: str | None
    patterns: tuple[tuple[int, ...], ...]
    labels: tuple[str, ...]
    source: str | None = None


@dataclass(frozen=True, slots=True)
class DataTable:
    """Static data in typed columns, one row per key (``tables:`` with ``columns``), read one
    cell at a time: ``deal[num_players, s].cards``. ``columns`` is (name, type) in order, type
    ``int``, ``bool``, ``str`` or a kind (then the cell is an item key, a card when read);
    ``key`` the columns that find a row; ``rows`` the cells in column order."""

    name: str
    span: SourceSpan
    columns: tuple[tuple[str, str], ...]
    key: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    row_spans: tuple[SourceSpan, ...]
    source: str | None = None
    interpretation: str | None = None
    spans: dict[str, SourceSpan] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TieBreaker:
    span: SourceSpan
    key: Expr  # evaluated with `p` bound to a seat; larger wins
    source: str | None
    label: str | None = None  # e.g. "Day cards won", for score tables


@dataclass(frozen=True, slots=True)
class Game:
    """A checked game: everything both back ends need."""

    id: str
    name: str
    file: str
    span: SourceSpan
    rulebook: str
    players_min: int
    players_max: int
    kinds: dict[str, Kind]
    components: tuple[Component, ...]
    zones: dict[str, ZoneDecl]
    variables: dict[str, VarDecl]
    tables: dict[str, Table]
    functions: dict[str, Function]
    procedures: dict[str, Procedure]
    setup: Block
    play: Block
    scoring: Block
    tie_breakers: tuple[TieBreaker, ...]
    triggers: dict[str, Trigger] = field(default_factory=dict)
    constants: dict[str, ConstDecl] = field(default_factory=dict)
    data_tables: dict[str, DataTable] = field(default_factory=dict)
    majorities: dict[str, Majority] = field(default_factory=dict)
    # the declared rounds, phases and turns of ``play:`` (``play`` is then its statements,
    # see dsl/structure.py); None when ``play:`` is a block of statements
    structure: PlayStructure | None = None
    #: where ``game.players`` is written (a min above max is reported there)
    players_span: SourceSpan | None = None


@dataclass(frozen=True, slots=True)
class PhaseDecl:
    """One phase of a round: turns over ``order`` (each seat bound to ``var``, going round until
    ``until`` holds, asked before each turn; one turn each without it) or a ``do`` block; only
    in the rounds where ``when`` holds. ``order`` is None for the clockwise order from the
    start player."""

    span: SourceSpan
    name: str
    turns: bool
    order: Expr | None
    var: str
    until: Expr | None
    when: Expr | None
    start: Block | None
    body: Block
    end: Block | None
    source: str | None = None
    interpretation: str | None = None
    all_passed: bool = False  # ``until: all_passed``: until every seat in play has passed


@dataclass(frozen=True, slots=True)
class PlayStructure:
    """``play:`` declared as rounds of phases of turns (dsl/structure.py). ``rounds`` (a count)
    or ``until`` (checked after each round) ends the game; ``start_player`` (who starts round 1)
    moves by ``pass_start`` after each round. The ``end`` hook runs once before the scoring,
    also after ``end game`` (``scoring_hook``: the scoring block begins with it)."""

    span: SourceSpan
    rounds: Expr | None
    until: Expr | None
    start_player: Expr | None
    pass_start: Expr | None
    start: Block | None
    round_start: Block | None
    phases: tuple[PhaseDecl, ...]
    round_end: Block | None
    end: Block | None
    source: str | None = None
    interpretation: str | None = None
