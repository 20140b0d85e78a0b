"""Triggers run as Python calls in a playout's direct code (codegen/direct.py).

The interpreter fires a move's triggers by pushing their bodies as frames (runtime/ops.py:
``fire``): for each card moved, in move order, each rule of its zone in file order whose kind
fits and whose ``when`` holds (all tested before any body runs; a rule without statements is
never tested) gets a frame with the env ``{var: card}``; the first runs next, and the statement
after the move runs once they are all done. Direct code did the same, then ran the frames at once
(``run_to``). Here the triggers of a zone are a function of the module, ``t_ZONE(st, cards,
span)``: the same tests in the same order, then each body's direct function (``c_N(st, env, 0)``;
for a body that cannot stop, its statements written as a function of that shape) called in
turn with the env its frame would have had. No Frame, no loop over rule objects, no run loop.

What else the frames did: they counted toward MAX_DEPTH (push_bodies refuses a push past it); the
same check is made here, with the frames on the stack now. A trigger's frame is no procedure's:
it counted in no procedure depth (the depth checks of procedure calls are unchanged) and named
nothing in a rules trace. The frames are what stop a trigger that sets itself off without end
through triggers and track spaces alone, with no procedure between (a procedure on the way is
recursive, so its calls are checked: codegen/calls.py): such a trigger, and every trigger of its
zone, keeps its frames, and a move into its zone (or, where the zone is not known while
generating, a move anywhere) is started as before.
"""

from __future__ import annotations

from typing import Any

from meeple.dsl import ir

from .budget import write_charge
from .calls import Unit, _reach, _started
from .tally import drops
from .writer import Writer, literal


class TriggerCalls:
    """Which moves of direct code run their triggers as calls, and the ``t_ZONE`` functions
    they call; ``em`` is the ModuleEmitter."""

    def __init__(self, em: Any) -> None:
        self.em = em
        game: ir.Game = em.game
        units: dict[Unit, ir.Block] = {("trigger", n): t.body for n, t in game.triggers.items()}
        for v in game.variables.values():
            units.update({("space", v.name, str(i)): sp.body for i, sp in enumerate(v.spaces)})
        # what each trigger or space starts without a procedure between (procedures dropped)
        starts = {u: {x for x in _started(b, game) if x in units} for u, b in units.items()}
        looping = {u for u in units if u in _reach(u, starts)}
        by_zone: dict[str, list[ir.Trigger]] = {}
        for t in game.triggers.values():
            by_zone.setdefault(t.zone, []).append(t)
        #: the zones whose triggers run as calls, each with its rules in file order
        self.zones = {
            z: ts
            for z, ts in by_zone.items()
            if all(("trigger", t.name) not in looping for t in ts)
        }
        self._every = len(self.zones) == len(by_zone)  # a move to any zone may call them
        self._names: dict[str, str] = {}  # a zone's function, once a move calls it
        self._table = ""  # the name of the table of them by pile, once a move reads it

    def _zone(self, s: ir.Move) -> str | None:
        """The zone a move brings cards to, where its name is known while generating."""
        d = s.dest.obj if isinstance(s.dest, ir.Index) else s.dest
        if isinstance(d, ir.Name) and d.id in self.em.layout.zone_base:
            return str(d.id)
        return None

    def handles(self, s: ir.Move) -> bool:
        """May the triggers that ``s`` (a move that may set some off) sets off run as calls?"""
        zone = self._zone(s)
        return zone in self.zones if zone is not None else self._every

    def call(self, w: Writer, s: ir.Move, dest: str, moved: str, span: str) -> None:
        """The triggers set off by the cards in the list ``moved`` (a Python expression, read
        once) arriving at the pile whose index is in the Python name ``dest``, run now."""
        zone = self._zone(s)
        if zone is not None:
            w.line(f"{self._function(zone)}(st, {moved}, {span})")
            return
        if not self._table:
            self._table = self.em.names.fresh("TCALLS")[1:]
        t = self.em.names.fresh("t")  # (a call of a name: codegen/tally.py drops after it)
        w.line(f"{t} = {self._table}.get({dest})")
        w.line(f"if {t} is not None:")
        with w.indent():
            w.line(f"{t}(st, {moved}, {span})")

    def _function(self, zone: str) -> str:
        name = self._names.get(zone)
        if name is None:
            name = self._names[zone] = self.em.names.fresh(f"t_{zone}")[1:]
        return name

    def functions(self, w: Writer) -> None:
        """The ``t_ZONE`` functions the direct code calls (and the table of them by pile that a
        move to a zone not known while generating reads), after the direct functions."""
        if self._table:
            for zone in self.zones:
                self._function(zone)
        em = self.em
        for zone, name in self._names.items():
            bodies = [self._body(w, t) for t in self.zones[zone]]
            w.line(f"def {name}(st, _cards, _span):  {em._where(self.zones[zone][0].span)}")
            out = Writer(w.level + 1)
            self._write(out, list(zip(self.zones[zone], bodies, strict=True)))
            # (a body may move cards behind the owner counts' back: codegen/tally.py)
            w.lines.extend(drops(out.lines) if em.tally is not None else out.lines)
            w.line()
        if self._table:
            piles = ", ".join(
                f"**dict.fromkeys(range(P.zone_base[{literal(z)}], P.zone_base[{literal(z)}] + "
                f"P.zone_piles[{literal(z)}]), {self._names[z]})"
                for z in self.zones
            )
            w.line(f"{self._table} = {{{piles}}}")

    def _body(self, w: Writer, t: ir.Trigger) -> str:
        """The function that runs the body of ``t`` from its start, as ``c_N(st, env, pc)``
        does: its direct function, or for a body that cannot stop (no c_N) one written here as
        the frame-stepping code runs it (its step function, without the frame)."""
        em = self.em
        uid = em._uid(t.body)
        if not t.body.stmts or not em.flat(t.body):
            return f"c_{uid}"
        name = em.names.fresh(f"tb_{uid}")[1:]
        w.line(f"def {name}(st, env, pc):  {em._where(t.body.span)}")
        with w.indent():
            em.body_flat(w, t.body)
        return name

    def _write(self, w: Writer, rules: list[tuple[ir.Trigger, str]]) -> None:
        """fire's loop for these rules (their bodies' functions), then the bodies run."""
        w.line("_hits = []")
        w.line("for _card in _cards:")
        with w.indent():
            w.line("_kind = _card.kind")
            kind: str | None = None  # the kind tested by the ``if`` the lines are under
            for t, body in rules:
                if not t.body.stmts:  # (never set off: fire skips an empty body)
                    continue
                if t.kind != kind:  # (rules of one kind in a row: one test)
                    w.level -= kind is not None
                    kind = t.kind
                    if kind is not None:
                        w.line(f"if _kind == {literal(kind)}:")
                        w.level += 1
                w.line(f"env = {{{literal(t.var)}: _card}}")
                if t.when is not None:  # (the text of trigger_N_when, reading this env)
                    w.line(f"if {self.em._e(t.when)}:")
                    w.level += 1
                cost = self.em.checked.work.call_charge(f"t:{t.name}")
                if cost is not None:  # (a trigger in a cycle: fire's charge, codegen/budget.py)
                    write_charge(w, cost, "_span")
                w.line(f"_hits.append(({body}, env))")
                w.level -= t.when is not None
            w.level -= kind is not None
        w.line("if _hits:")
        with w.indent():
            w.line("if len(st.frames) + len(_hits) > MAX_DEPTH:  # (push_bodies' check)")
            with w.indent():
                w.line("raise nest_too_deep(_span)")
            w.line("for _body, env in _hits:")
            with w.indent():
                w.line("_body(st, env, 0)")
