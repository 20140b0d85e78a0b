"""Scenarios: rulebook examples as executable tests (a position, the choices, the result).

A scenario file (YAML, in ``rules/<game>/scenarios/``)::

    scenario: Bolster example
    source: Action / Bolster (Bolster Example)
    players: 4
    seed: 1
    given:
      zones:                      # each listed zone gets exactly these cards
        hand[P1]: [Ghoul * 3, Courtesan]
        markers_on[The Boneyard]: [House Marker of P1 * 2]
      variables: {supreme: P1}    # a card variable takes a card's name; a variable per kind:
                                  # {age: {Aristocrat 1 of P2: 35}}
      on_top: {minion_deck: [Alchemist]}   # the next card drawn
    run: action(0)                # a statement, or "scoring"
    steps:
      - not_offered: Bolster The Spires
      - choose: Bolster The Boneyard
        by: P1
    expect:
      zones: {hand[P1]: [Courtesan]}
      counts: {discard: 3}
      holds: ["markers_of(0, card('boneyard')) == 3"]

Cards for a listed zone are taken from the cards that zone held, then from unlisted zones; the
cards a listed zone gave up go back to their start zone. Seats are written P1, P2... in zone
names and values, and as 0-based numbers inside expressions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from meeple.dsl.checker import check_expression, check_statement
from meeple.dsl.errors import MeepleError, SourceSpan, did_you_mean
from meeple.dsl.parser import parse_expression, parse_statement
from meeple.dsl.yamlload import YMap, YStr, load_yaml_file
from meeple.interpreter.game import Game
from meeple.interpreter.ops import Frame
from meeple.interpreter.program import Program
from meeple.interpreter.state import State
from meeple.interpreter.values import Card

from . import api

_SPEC = re.compile(r"^(?P<name>.+?)(?: of (?P<owner>P\d+))?(?:\s*\*\s*(?P<n>\d+))?$")


class ScenarioError(MeepleError):
    """A scenario file is malformed (not a failed expectation)."""


@dataclass
class Outcome:
    """The result of running one scenario: ``failures`` is empty when it passed."""

    name: str
    file: str
    failures: list[str] = field(default_factory=list)
    state: State | None = None

    @property
    def passed(self) -> bool:
        return not self.failures


def scenario_files(game_dir: str | Path) -> list[Path]:
    """The scenario files of a rules folder, sorted."""
    return sorted((Path(game_dir) / "scenarios").glob("*.yaml"))


def run_scenario(
    path: str | Path, game: Game | None = None, backend: str = "interpreter"
) -> Outcome:
    """Run one scenario file. ``game`` defaults to the game of the folder it lives in, for the
    scenario's player count. With ``backend="compiled"`` the position is set up as written, then
    saved and resumed on the generated module, which plays the run and the steps; expectations
    are checked on that state. Raises ScenarioError for a malformed file."""
    doc = load_yaml_file(path)
    if not isinstance(doc, YMap) or "scenario" not in doc:
        raise ScenarioError("a scenario file needs a 'scenario:' name", getattr(doc, "span", None))
    if game is None:
        players = doc.get("players", 4)
        try:
            game = api.load(str(Path(path).resolve().parent.parent), players)
        except MeepleError as e:
            if e.span is None:
                e.span = doc.value_spans.get("players", doc.span)
            raise
    out = Outcome(str(doc["scenario"]), str(path))
    st = game.new_initial_state(int(doc.get("seed", 0)))
    given = doc.get("given") or YMap()
    _place(st, given.get("zones") or {}, given)
    _on_top(st, given.get("on_top") or {})
    _set_vars(st, given.get("variables") or {}, given)
    _start(st, game, doc)
    if backend != "interpreter":
        st = _resume_on(st, api.load(game.checked.game.file, game.num_players(), backend=backend))
    st.advance()
    for step in doc.get("steps") or []:
        if not _step(st, step, out):
            break
    if not out.failures:
        _expect(st, game, doc.get("expect") or YMap(), out)
    out.state = st
    return out


# ------------------------------------------------------------------------------ position
def _seat(text: Any, span: SourceSpan | None, players: int = 16) -> int:
    m = re.fullmatch(r"P(\d+)", str(text))
    seat = (
        text
        if isinstance(text, int) and not isinstance(text, bool)
        else (int(m.group(1)) - 1 if m else -1)
    )
    if not 0 <= seat < players:
        raise ScenarioError(
            f"'{text}' is not a seat of this game", span, expected=f"P1 to P{players}"
        )
    return seat


def _zone(st: State, label: str, span: SourceSpan | None) -> int:
    names = st.prog.zone_names
    if label not in names:
        raise ScenarioError(f"unknown zone '{label}'", span, suggestion=did_you_mean(label, names))
    return names.index(label)


def _specs(
    items: Any, span: SourceSpan | None, players: int = 16
) -> list[tuple[str, int | None, int]]:
    out = []
    for it in items or []:
        m = _SPEC.match(str(it).strip())
        if not m:
            raise ScenarioError(f"cannot read card '{it}'", getattr(it, "span", span))
        owner = _seat(m.group("owner"), span, players) if m.group("owner") else None
        out.append((m.group("name"), owner, int(m.group("n") or 1)))
    return out


def _place(st: State, zones: Any, given: Any) -> None:
    prog = st.prog
    listed = {_zone(st, str(k), _span_of(zones, k)): v for k, v in zones.items()}
    pool: list[Card] = []
    for zi in listed:
        pool.extend(st.zones[zi])
        st.zones[zi].clear()
    for zi, items in listed.items():
        for name, owner, n in _specs(items, _span_of(zones, prog.zone_names[zi]), prog.num_players):
            for _ in range(n):
                card = _take(st, pool, listed, name, owner)
                if card is None:
                    raise ScenarioError(
                        f"no more '{name}' cards to put in {prog.zone_names[zi]}",
                        _span_of(zones, prog.zone_names[zi]),
                        suggestion=None
                        if name in {c.name for c in prog.cards}
                        else did_you_mean(name, {c.name for c in prog.cards}),
                    )
                st.zones[zi].append(card)
    for c in pool:
        home = prog.start_zone(c)
        if home in listed:
            raise ScenarioError(
                f"{c.name} was in a listed zone and has nowhere to go", getattr(given, "span", None)
            )
        st.zones[home].append(c)
    for zi, z in enumerate(st.zones):
        for c in z:
            st.loc[c.id] = zi
    st.check_invariants()


def _on_top(st: State, zones: Any) -> None:
    """Put the listed cards on top of a zone (the last listed ends on top), from anywhere."""
    for label, items in zones.items():
        zi = _zone(st, str(label), _span_of(zones, label))
        for name, owner, n in _specs(items, _span_of(zones, label)):
            for _ in range(n):
                card = next(
                    (
                        c
                        for z in st.zones
                        for c in reversed(z)
                        if c.name == name
                        and (owner is None or c.owner == owner)
                        and c not in st.zones[zi][-n:]
                    ),
                    None,
                )
                if card is None:
                    raise ScenarioError(
                        f"no '{name}' card to put on {label}", _span_of(zones, label)
                    )
                st.move(card, zi, False)


def _take(
    st: State, pool: list[Card], listed: dict[int, Any], name: str, owner: int | None
) -> Card | None:
    def fits(c: Card) -> bool:
        return c.name == name and (owner is None or c.owner == owner)

    for c in pool:
        if fits(c):
            pool.remove(c)
            return c
    for zi, z in enumerate(st.zones):
        if zi in listed:
            continue
        for c in reversed(z):
            if fits(c):
                z.remove(c)
                return c
    return None


def _set_vars(st: State, variables: Any, given: Any) -> None:
    for name, value in variables.items():
        span = _span_of(variables, name)
        decl = st.prog.game.variables.get(name)
        if decl is None:
            raise ScenarioError(
                f"unknown variable '{name}'",
                span,
                suggestion=did_you_mean(name, st.prog.game.variables),
            )
        is_seat = decl.type == "player"
        if decl.per and decl.per != "players":  # {card: value}, e.g. age: {Aristocrat 1 of P2: 35}
            values = st.vars[name]
            for spec, v in value.items():
                (cname, owner, _), *_ = _specs([spec], span, st.prog.num_players)
                cards = [
                    c
                    for c in st.prog.kind_cards[decl.per]
                    if c.name == cname and (owner is None or c.owner == owner)
                ]
                if not cards:
                    raise ScenarioError(f"no {decl.per} component '{spec}'", span)
                for c in cards:
                    values[c.ordinal] = _seat(v, span, st.prog.num_players) if is_seat else v
        elif decl.per:
            n = st.prog.num_players
            st.vars[name] = [_seat(v, span, n) if is_seat else v for v in value]
        elif decl.type == "card" and value is not None:
            st.vars[name] = _card_named(st, str(value), span)
        else:
            st.vars[name] = _seat(value, span, st.prog.num_players) if is_seat else value


def _card_named(st: State, name: str, span: SourceSpan | None) -> Card:
    """The first component with this name, for a card variable (``louis: Le Grand Dauphin``)."""
    names = {c.name for c in st.prog.cards}
    for c in st.prog.cards:
        if c.name == name:
            return c
    raise ScenarioError(f"no card is named '{name}'", span, suggestion=did_you_mean(name, names))


def _start(st: State, game: Game, doc: Any) -> None:
    st.pending = None
    st.frames.clear()
    st.secret = 0
    st.phase = "scoring"  # when the run ends, the game ends (no scoring unless asked)
    run = doc.get("run", "scoring")
    if run == "scoring":
        st.frames.append(Frame(game.program.scoring, {}))
    else:
        origin = run if isinstance(run, YStr) else None
        stmt = parse_statement(str(run), origin)
        check_statement(game.checked, stmt)
        op = cast(Program, game.program).stmt(stmt)  # scenarios start on the interpreter
        op.exec(st, {})


def _resume_on(st: State, other: Game) -> State:
    """The started position, saved and resumed on another back end."""
    try:
        return other.state_from_json(st.to_json(), advance=False)
    except MeepleError:
        raise ScenarioError(
            "this scenario's 'run' cannot start on the compiled back end: it must be a procedure "
            "call, a one-line statement or 'scoring'"
        ) from None


# ------------------------------------------------------------------------------ steps
def _step(st: State, step: Any, out: Outcome) -> bool:
    labels = [label for _, label in st.legal_action_labels()]
    if "not_offered" in step:
        if step["not_offered"] in labels:
            out.failures.append(f"'{step['not_offered']}' is offered at '{st.prompt()}'")
        return True
    if "offered" in step:
        if step["offered"] not in labels:
            out.failures.append(
                f"'{step['offered']}' is not offered at '{st.prompt()}'; options: {labels}"
            )
        return True
    want = str(step.get("choose"))
    if st.is_terminal():
        out.failures.append(f"the run ended before the choice '{want}'")
        return False
    if "by" in step and _seat(step["by"], _span_of(step, "by")) != st.current_player():
        out.failures.append(
            f"'{st.prompt()}' is decided by P{st.current_player() + 1}, not {step['by']}"
        )
        return False
    if want not in labels:
        out.failures.append(f"'{want}' is not an option at '{st.prompt()}'; options: {labels}")
        return False
    st.apply_action(st.legal_action_labels()[labels.index(want)][0])
    st.check_invariants()
    return True


# ------------------------------------------------------------------------------ expect
def _expect(st: State, game: Game, expect: Any, out: Outcome) -> None:
    if not st.is_terminal() and not expect.get("open", False):
        labels = [label for _, label in st.legal_action_labels()]
        out.failures.append(f"a decision is still open: '{st.prompt()}' {labels}")
        return
    for label, items in (expect.get("zones") or {}).items():
        zi = _zone(st, str(label), _span_of(expect["zones"], label))
        want = sorted(
            n
            for name, owner, k in _specs(items, None)
            for n in [name + (f" of P{owner + 1}" if owner is not None else "")] * k
        )
        have = sorted(
            c.name + (f" of P{c.owner + 1}" if c.owner is not None else "") for c in st.zones[zi]
        )
        if want != have:
            out.failures.append(f"{label} holds {have}, expected {want}")
    for label, n in (expect.get("counts") or {}).items():
        zi = _zone(st, str(label), _span_of(expect["counts"], label))
        if len(st.zones[zi]) != n:
            out.failures.append(f"{label} holds {len(st.zones[zi])} cards, expected {n}")
    holds = expect.get("holds") or []
    if holds and st.prog is not game.program:  # evaluated by the interpreter, on a copy
        st = game.state_from_json(st.to_json())
    for text in holds:
        e = parse_expression(str(text), text if isinstance(text, YStr) else None)
        check_expression(game.checked, e)
        if not cast(Program, game.program).ex.compile(e)(st, {}):
            out.failures.append(f"not true: {text}")
    if "scores" in expect and st.scores() != list(expect["scores"]):
        out.failures.append(f"scores are {st.scores()}, expected {list(expect['scores'])}")


def _span_of(container: Any, key: Any) -> SourceSpan | None:
    if isinstance(container, YMap):
        return container.key_spans.get(key)
    return None
