"""Owner counts kept up to date in playouts: a count of a pile's cards by owner read from a table.

Rules count the cards of one owner in a pile: Shadow of the Sun's ``markers_of(p, d)`` is
``count(m for m in markers_on[d] if m.owner == p)``, asked some thousand times a playout, each a
scan of a pile of up to 48 markers. The hand-written playout keeps an integer per player and
district. Here direct code (``c_N``, codegen/direct.py: only playouts run it) keeps, for each
zone of a name that such a count reads (a *tallied* zone), the number of its cards per owner
(runtime/tally.py), and reads the count from it:

- **Which.** A count ``count(X for X in ZONE if X.owner == E)`` (either side of ``==``), ZONE
  named in the rules (a zone, or one of a zone per player or per component), E a Python name
  (read freely: it never raises). Where E is not known to be a seat (codegen/facts.py, or a
  hoisted local's seat check) the read tests it and scans the pile as before when it is none
  (``m.owner == E`` is then what it always was, for any E).
- **Where the table lives.** In ``_TD``, a dict of the module's build holding at most the
  table of one state (keyed by the State itself: identity; a strong reference, so no other
  state can take its place): a list by zone index, None for a zone not counted yet. A read is
  ``((_TD.get(st) or tally_of(st))[z] or tally_zone(st, z))[E]``: the table of this state (else
  a new one), its counts of zone ``z`` (else the pile counted now), so that a table dropped
  costs only the zones read after it (Louis XIV reads one or two zones between drops; Sun all
  four, once a playout). The zone index ``z`` is written as the scan writes it (read twice
  where the zone is not counted yet: it has no effect), so it raises what the scan raises,
  first.
- **What keeps it right.** Every move that direct code writes out (codegen/moves.py, pick.py)
  updates the table when it holds this state and the move's source or destination is tallied
  (known from the zone's name where the rules name it; else tested by the table's entry for the
  zone), and so does a procedure run as a function whose moves of a card all do (its call is
  then kept). Everything else that may move cards (State's moves, ``move_cards`` or a refill
  from or to a tallied zone, another procedure, frames run by ``run_to``, an op's exec but a
  winner's contest, a trigger) is followed by ``_TD.clear()`` (``drops``: any line calling
  such a thing, unless it says ``# tally: kept``), and so is every
  entry into direct code from the run loop (``P.resume``'s wrappers): the stepping code between
  keeps no table, so the next read counts afresh. A chooser that plays another state meanwhile
  only makes this one's table count again (each state's table is its own).

The table is never part of the state: ``to_json``, ``clone`` and the interpreter know nothing of
it, and a table built from the piles equals the scans by construction. ``tests/test_tally.py``
checks it against the interpreter and breaks each part.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from typing import Any

from meeple.dsl import ir
from meeple.dsl.errors import MeepleError

from .cse import branch
from .facts import SEAT
from .writer import Writer

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")

#: the table of this state, else one counted now (``st`` is every direct function's state)
TABLE = "(_TD.get(st) or tally_of(st))"

#: a call that may move cards behind the table's back: a State method (but these), a function
#: given the state (but these), an op's exec/step/resolve
_CALL_ST = re.compile(r"(?<![.\w])([A-Za-z_][A-Za-z_0-9]*)\(st\s*[,)]")
_METHOD_ST = re.compile(r"\.([A-Za-z_][A-Za-z_0-9]*)\(st\s*[,)]")
_ST_METHOD = re.compile(r"\bst\.([A-Za-z_][A-Za-z_0-9]*)\(")
_OP_CALL = re.compile(r"\.(exec|step|resolve|candidates)\(")
_SAFE_ST_METHODS = frozenset({"choose", "zone_index", "end_game", "log_line", "shuffle"})
_SAFE_FUNCTIONS = frozenset(
    {
        "seat",
        "ordinal",
        "others",
        "clockwise_from",
        "seat_after",
        "majority_holders",
        "majority_has",
        "tally_of",
        "tally_zone",
        "enter_procedure",
        "live_mask",
        "turn_line",
    }
)
_DIRECT = re.compile(r"c_[0-9]+|fn_[A-Za-z_0-9]+")
KEPT = "# tally: kept"


def owner_of(c: ir.Comprehension) -> ir.Expr | None:
    """E of a comprehension whose condition is ``X.owner == E`` (or ``E == X.owner``), X its
    variable, E not naming X; else None."""
    cond = c.cond
    if not isinstance(cond, ir.BinOp) or cond.op != "==":
        return None
    for mine, other in ((cond.left, cond.right), (cond.right, cond.left)):
        if (
            isinstance(mine, ir.Attr)
            and mine.name == "owner"
            and isinstance(mine.obj, ir.Name)
            and mine.obj.id == c.var
            and not reads_name(other, c.var)
        ):
            return other
    return None


def reads_name(e: Any, name: str) -> bool:
    """Does the expression ``e`` read the name ``name`` anywhere (conservatively)?"""
    if isinstance(e, ir.Name):
        return e.id == name
    if is_dataclass(e):
        return any(reads_name(getattr(e, f.name), name) for f in fields(e) if f.name != "span")
    if isinstance(e, tuple):
        return any(reads_name(x, name) for x in e)
    return False


def zone_of(e: ir.Expr, layout: Any) -> str | None:
    """The name of the zone ``e`` names (codegen/pick.zone_name), else None."""
    from .pick import zone_name  # (pick imports moves, which imports this module)

    return zone_name(e, layout)


#: False: no zone is tallied, every count by owner is a scan (tests/test_memo.py reads the code
#: of values memo keeps, which are such counts)
ENABLED = True


def tallied_zones(game: ir.Game, layout: Any) -> frozenset[str]:
    """The names of the zones some count by owner reads (anywhere in the rules: a function's
    body is written inline where it is called); none when ENABLED is off."""
    if not ENABLED:
        return frozenset()
    found: set[str] = set()
    for c in counted_comprehensions(game):
        if owner_of(c) is not None:
            z = zone_of(c.iter, layout)
            if z is not None:
                found.add(z)
    return frozenset(found)


def counted_comprehensions(game: ir.Game) -> Iterator[ir.Comprehension]:
    """Every comprehension that the built-in ``count(...)`` counts, anywhere in ``game``."""
    stack: list[Any] = [game]
    while stack:
        x = stack.pop()
        if isinstance(x, ir.Call) and x.func == "count" and x.func not in game.functions:
            c = x.args[0] if x.args else None
            if isinstance(c, ir.Comprehension):
                yield c
        if is_dataclass(x) and not isinstance(x, type):
            stack.extend(getattr(x, f.name) for f in fields(x))
        elif isinstance(x, (tuple, list)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())


class Tally:
    """The tallied zones of one module (``zones``: their names), and what writes their code."""

    def __init__(self, zones: frozenset[str], layout: Any) -> None:
        self.zones = zones
        self.layout = layout
        # the procedures run as functions whose every move keeps the counts (``procedure``)
        self.kept: set[str] = set()

    def procedure(self, name: str, lines: list[str]) -> None:
        """Note whether ``proc_NAME``, whose body is ``lines``, keeps the counts: each line that
        may move cards is a move of a card updating them (``# tally: kept``)."""
        if not any(KEPT not in line and _moves_maybe(line) for line in lines):
            self.kept.add(name)

    def keeps(self, name: str) -> bool:
        """Does a call of ``proc_NAME`` keep the counts (``procedure``)?"""
        return name in self.kept

    def state(self, e: ir.Expr | None) -> bool | None:
        """Is the zone ``e`` tallied: True, False, or None if the rules do not name it here."""
        if e is None:
            return None
        z = zone_of(e, self.layout)
        return None if z is None else z in self.zones

    def read_only(self, e: Any) -> bool:
        """Is ``e`` a count by owner of a tallied zone (read from the table: no scan)?"""
        if not (isinstance(e, ir.Call) and e.func == "count" and len(e.args) == 1):
            return False
        c = e.args[0]
        return (
            isinstance(c, ir.Comprehension)
            and owner_of(c) is not None
            and zone_of(c.iter, self.layout) in self.zones
        )

    def read(self, ex: Any, c: ir.Comprehension, scope: Any, scan: Any) -> str | None:
        """Python text for ``count(c)`` read from the table, or None if ``c`` is no count by
        owner of a tallied zone. ``scan()`` writes the count as a scan (where E is no seat)."""
        e = owner_of(c)
        if e is None or zone_of(c.iter, self.layout) not in self.zones:
            return None
        who = ex.emit(e, scope)
        if not _PLAIN.fullmatch(who):
            return None  # (an expression: it is evaluated per card by the scan, or not at all)
        if ex.facts.of(who) == SEAT:
            return f"{_counts(ex.zone_index(c.iter, scope))}[{who}]"
        seat = ex.hoist.checked(who) if ex.hoist is not None else None
        if seat is not None:  # a hoisted local's seat, tested at entry (None: no seat)
            test, who = f"{seat} is not None", seat
        else:
            test = f"type({who}) is int and 0 <= {who} < num_players"
        with branch(ex):  # (each runs on some paths only: codegen/cse)
            z = ex.zone_index(c.iter, scope)
        with branch(ex):
            other = scan()
        return f"({_counts(z)}[{who}] if {test} else {other})"

    def prelude(self, w: Writer, where: str) -> None:
        """The module's table (in its build): the tallied zones, each card's slot, tally_of
        (``where``: the comment citing the first tallied zone's rule)."""
        w.line("# owner counts of piles, kept in playouts (codegen/tally.py)")
        w.line("_TD = {}")
        w.line("OSLOT = owner_slots(P.cards)")
        w.line(f"def tally_of(st):  {where}")
        with w.indent():
            w.line("t = [None] * len(st.zones)")
            w.line("_TD.clear()")
            w.line("_TD[st] = t")
            w.line("return t")
        w.line(f"def tally_zone(st, z):  {where}")
        with w.indent():
            w.line("c = owner_counts(st.zones[z], num_players)")
            w.line(f"{TABLE}[z] = c")
            w.line("return c")

    def upkeep(
        self,
        w: Writer,
        card: str,
        src: str | None,
        src_state: bool | None,
        dest: str,
        dest_state: bool | None,
        fresh: Any,
    ) -> None:
        """Lines updating the table for the move of ``card`` (a name holding a card) from the
        zone index ``src`` (None: where the card lies now, ``st.loc``) to ``dest``; written
        before the move. A zone's state: tallied (True), not (False: nothing to update),
        unknown (None); a zone the table has not counted yet is left alone."""
        if src_state is False and dest_state is False:
            return
        t = fresh("t")
        w.line(f"{t} = _TD.get(st)")
        w.line(f"if {t} is not None:")
        with w.indent():
            slot = f"OSLOT[{card}.id]"
            for zone, state, op in ((src, src_state, "-="), (dest, dest_state, "+=")):
                if state is False:
                    continue
                if zone is None:
                    zone = f"st.loc[{card}.id]"
                # (a zone not counted yet is left to be counted from its pile when read: a
                # card taken off its pile already, ``move N from``'s, is not counted twice)
                x = fresh("x")
                w.line(f"{x} = {t}[{zone}]")
                w.line(f"if {x} is not None:")
                with w.indent():
                    w.line(f"{x}[{slot}] {op} 1")


def _counts(z: str) -> str:
    """The counts of zone index ``z`` (Python text of no effect, read twice where the zone is
    not counted yet), counted now if they are not yet."""
    return f"({TABLE}[{z}] or tally_zone(st, {z}))"


def drops(lines: list[str]) -> list[str]:
    """``lines`` of direct code with ``_TD.clear()`` after each line that calls something that
    may move cards without updating the table (see the module docstring)."""
    out: list[str] = []
    for line in lines:
        out.append(line)
        if KEPT in line or not _moves_maybe(line):
            continue
        if line.rstrip().endswith(":"):
            raise MeepleError(f"the code generator cannot keep owner counts after: {line.strip()}")
        indent = line[: len(line) - len(line.lstrip())]
        out.append(f"{indent}_TD.clear()  # (codegen/tally.py)")
    return out


def _moves_maybe(line: str) -> bool:
    code = line.split("  # ")[0]  # (a comment names calls; a string with "  # " only adds one)
    if _OP_CALL.search(code) or any(m != "get" for m in _METHOD_ST.findall(code)):
        return True
    if any(m not in _SAFE_ST_METHODS for m in _ST_METHOD.findall(code)):
        return True
    return any(
        f not in _SAFE_FUNCTIONS and not _DIRECT.fullmatch(f) for f in _CALL_ST.findall(code)
    )


def resume_wrappers(w: Writer, blocks: list[tuple[int, str]]) -> None:
    """``r_N``: direct function N entered from the run loop, the table dropped first (the frames
    stepped before it keep none); ``blocks``: (N, the comment citing its rule)."""
    for uid, where in blocks:
        w.line(f"def r_{uid}(st, env, pc):  {where}")
        with w.indent():
            w.line("_TD.clear()")
            w.line(f"c_{uid}(st, env, pc)")
