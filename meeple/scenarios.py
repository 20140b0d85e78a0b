"""Scenarios: rulebook examples as executable tests (a position, the decisions, the result).

A scenario file (YAML, in ``rules/<game>/scenarios/``)::

    scenario: Bolster example
    source: Action / Bolster (Bolster Example)
    players: 4
    seed: 1
    given:                        # applied when setup has run (run: game: before it)
      zones:                      # each listed zone holds exactly these cards, bottom to top
        hand[P1]: [Ghoul * 3, Courtesan]
        markers_on[The Boneyard]: [House Marker of P1 * 2]
      variables: {supreme: P1}
      on_top:                     # the last listed ends on top: it is drawn first
        minion_deck: [Alchemist]
    run: action(0)                # a statement, or scoring, play or game
    steps:
      - not_offered: Bolster The Spires
        because: "markers_of(p, d) >= 1"
      - {choose: Bolster The Boneyard, by: P1, at: Action}
      - expect: {changed: {counts: {discard: 3}}}
    expect:
      counts: {discard: 3}
      holds: ["markers_of(0, card('boneyard')) == 3"]

The complete reference is docs/authoring.md ("Scenarios"); the schema is
dsl/schema/scenario.schema.json. Seats are written P1, P2... in zone names and values, and as
0-based numbers inside expressions.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, cast

import jsonschema

from meeple.dsl.checker import check_expression, check_statement
from meeple.dsl.errors import MeepleError, SchemaError, SourceSpan, did_you_mean
from meeple.dsl.parser import parse_expression, parse_statement
from meeple.dsl.render import ExprWriter
from meeple.dsl.validate import validate_against
from meeple.dsl.yamlload import YMap, YStr, load_yaml_file, span_of, yaml_files
from meeple.interpreter.game import Game
from meeple.interpreter.program import Program
from meeple.runtime.ops import Frame
from meeple.runtime.state import State
from meeple.runtime.values import Card

from . import api

_SPEC = re.compile(r"^(?P<name>.+?)(?: of (?P<owner>P\d+))?(?:\s*\*\s*(?P<n>\d+))?$")


#: Most copies one ``Name * N`` may ask for (a scenario file is untrusted input: a huge N must
#: not make a huge list). Far above the components of any game.
MAX_COPIES = 10_000


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
    """The scenario files of a rules folder (``.yaml`` or ``.yml``), sorted."""
    return yaml_files(Path(game_dir) / "scenarios")


def load_scenario(path: str | Path) -> YMap:
    """A scenario file read with the bounded YAML loader (it is untrusted input, like a rules
    file) and checked against ``dsl/schema/scenario.schema.json``. Raises ScenarioError (or
    YamlError) at the offending line and column; an unknown key gets a "did you mean"."""
    doc = load_yaml_file(path)
    if not isinstance(doc, YMap) or "scenario" not in doc:
        raise ScenarioError("a scenario file needs a 'scenario:' name", getattr(doc, "span", None))
    try:
        validate_against(doc, _validator(), "the scenario file")
    except SchemaError as e:
        raise ScenarioError(
            e.message, e.span, expected=e.expected, suggestion=e.suggestion
        ) from None
    for i, step in enumerate(doc.get("steps") or []):
        kinds = [k for k in STEP_KINDS if k in step]
        span = span_of(doc["steps"], i)
        if len(kinds) != 1:
            raise ScenarioError(
                f"step {i + 1} {'mixes ' + ' and '.join(kinds) if kinds else 'does nothing'}",
                span,
                expected="exactly one of " + ", ".join(STEP_KINDS),
            )
        extra = [k for k in step if k not in _STEP_KEYS[kinds[0]]]
        others = ", ".join(_STEP_KEYS[kinds[0]][1:])
        if extra:
            raise ScenarioError(
                f"'{extra[0]}' does not go with '{kinds[0]}' in step {i + 1}",
                step.key_spans.get(extra[0], span),
                expected=f"with {kinds[0]}: {others or 'no other key'}",
            )
    return doc


#: What a step does; each step has exactly one of these keys.
STEP_KINDS = ("choose", "forced", "offered", "not_offered", "options", "expect")
_STEP_KEYS = {
    "choose": ("choose", "by", "at"),
    "forced": ("forced", "by", "at"),
    "offered": ("offered", "by", "at"),
    "not_offered": ("not_offered", "because", "by", "at"),
    "options": ("options", "by", "at"),
    "expect": ("expect",),
}


@lru_cache(maxsize=1)
def scenario_schema() -> dict[str, Any]:
    """The scenario-file schema (dsl/schema/scenario.schema.json, draft 2020-12)."""
    text = resources.files("meeple.dsl").joinpath("schema/scenario.schema.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(scenario_schema())


@dataclass
class _Run:
    """What a running scenario keeps between its steps: the game (for expressions), the
    failures so far, and the position of the previous expect block (for ``changed:``)."""

    game: Game
    out: Outcome
    counts: list[int]
    vars: dict[str, Any]


def run_scenario(
    path: str | Path, game: Game | None = None, backend: str = "interpreter"
) -> Outcome:
    """Run one scenario file. ``game`` defaults to the game of the folder it lives in, for the
    scenario's player count. With ``backend="compiled"`` the position is set up as written, then
    saved and resumed on the generated module, which plays the run and the steps; expectations
    are checked on that state. Raises ScenarioError for a malformed file (see load_scenario)."""
    doc = load_scenario(path)
    if game is None:
        players = doc.get("players", 4)
        try:
            game = api.load(str(Path(path).resolve().parent.parent), players)
        except MeepleError as e:
            if e.span is None:
                e.span = doc.value_spans.get("players", doc.span)
            raise
    out = Outcome(str(doc["scenario"]), str(path))
    run = str(doc.get("run", "scoring"))
    seed = int(doc.get("seed", 0))
    # 'game' starts before the setup: `given` then states the components' start position
    st = State(game.program, seed, start=False) if run == "game" else game.new_initial_state(seed)
    given = doc.get("given") or YMap()
    _place(st, given.get("zones") or {}, given)
    _on_top(st, given.get("on_top") or {})
    _set_vars(st, given.get("variables") or {}, given)
    given_position = _snapshot(st)  # what the first changed: counts from
    _start(st, game, doc)
    _no_ambiguous_cards(st, doc)
    if backend != "interpreter":
        st = _resume_on(st, api.load(game.checked.game.file, game.num_players(), backend=backend))
    ctx = _Run(game, out, *given_position)
    st.forced = []
    st.advance()
    steps = doc.get("steps") or []
    for i, step in enumerate(steps):
        if not _step(st, step, ctx, span_of(steps, i)):
            break
    if not out.failures:
        _expect(st, doc.get("expect") or YMap(), ctx, final=True)
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
        n = int(m.group("n") or 1)
        if n > MAX_COPIES:
            raise ScenarioError(
                f"'{it}' asks for {n:,} cards",
                getattr(it, "span", span),
                expected=f"at most {MAX_COPIES:,} copies of a card",
            )
        out.append((m.group("name"), owner, n))
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
    """Put the listed cards on top of a zone, in the order listed: the last listed ends on top
    (it is drawn first), so ``[Darkened, Ghoul, Darkened]`` deals Darkened, Ghoul, Darkened.
    Each name takes its own copy: first from that zone (from its top down, so a card already
    on top may be named), then from the other zones."""
    for label, items in zones.items():
        span = _span_of(zones, label)
        zi = _zone(st, str(label), span)
        chosen: list[Card] = []
        taken: set[int] = set()
        for name, owner, n in _specs(items, span, st.prog.num_players):
            for _ in range(n):
                card = next(
                    (
                        c
                        for z in [st.zones[zi], *st.zones]
                        for c in reversed(z)
                        if c.name == name
                        and (owner is None or c.owner == owner)
                        and c.id not in taken
                    ),
                    None,
                )
                if card is None:
                    names = {c.name for c in st.prog.cards}
                    have = sum(c.name == name for c in st.prog.cards)
                    raise ScenarioError(
                        f"no more '{name}' cards to put on {label}"
                        + (f" (the game has {have})" if have else ""),
                        span,
                        suggestion=None if have else did_you_mean(name, names),
                    )
                chosen.append(card)
                taken.add(card.id)
        for card in chosen:  # each goes on top of the ones before it
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
    """Set the ``given: variables:``: a seat is P1..Pn or null, a card its name or null, a
    per-seat variable a list of one value per seat, a per-component variable a mapping from
    component to value. A value that does not fit the variable's type is refused at its line."""
    types = {v.name: v.type for v in st.prog.var_specs}
    n = st.prog.num_players
    for name, value in variables.items():
        span = _span_of(variables, name)
        decl = st.prog.game.variables.get(name)
        if decl is None and name in st.prog.game.constants:
            raise ScenarioError(
                f"'{name}' is a constant of the rules, not a variable: no scenario sets it",
                span,
                expected="a variable",
                suggestion=f"a constant changes only in a variant (set: constants.{name}.value)",
            )
        if decl is None:
            raise ScenarioError(
                f"unknown variable '{name}'",
                span,
                suggestion=did_you_mean(name, st.prog.game.variables),
            )
        t = types[name]
        if decl.per and decl.per != "players":  # {card: value}, e.g. age: {Aristocrat 1 of P2: 35}
            if not isinstance(value, dict):
                raise ScenarioError(
                    f"'{name}' has a value per {decl.per}",
                    span,
                    expected=f"a mapping from a {decl.per} component to its value",
                )
            values = st.vars[name]
            for spec, v in value.items():
                (cname, owner, _), *_ = _specs([spec], span, n)
                cards = [
                    c
                    for c in st.prog.kind_cards[decl.per]
                    if c.name == cname and (owner is None or c.owner == owner)
                ]
                if not cards:
                    raise ScenarioError(f"no {decl.per} component '{spec}'", span)
                for c in cards:
                    values[c.ordinal] = _value(st, name, t, v, span)
        elif decl.per:
            if not isinstance(value, list) or len(value) != n:
                raise ScenarioError(
                    f"'{name}' has one value per seat", span, expected=f"a list of {n} values"
                )
            st.vars[name] = [_value(st, name, t, v, span) for v in value]
        else:
            st.vars[name] = _value(st, name, t, value, span)


def _value(st: State, name: str, t: str, v: Any, span: SourceSpan | None) -> Any:
    """One value of variable ``name`` (checked type ``t``) as the state holds it."""
    if t == "player":  # null: no seat (e.g. no leader yet)
        return None if v is None else _seat(v, span, st.prog.num_players)
    if t == "card":
        return None if v is None else _card_named(st, str(v), span)
    fits = {"int": int, "bool": bool, "str": str}.get(t)
    decl = st.prog.game.variables.get(name)
    if fits is int and type(v) is int and decl is not None and decl.is_track:
        lo, hi = decl.min, decl.max
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise ScenarioError(
                f"{v} is off the track '{name}'",
                span,
                expected=f"a value from {lo} to {hi}" if hi is not None else f"at least {lo}",
            )
    if fits is not None and type(v) is fits:
        return v
    words = {"int": "a whole number", "bool": "true or false", "str": "a text"}
    raise ScenarioError(
        f"{v!r} does not fit '{name}'"
        + ("" if fits else f": a variable of type {t} cannot be set in a scenario"),
        span,
        expected=words.get(t),
        suggestion=None if fits else "state the zones it is computed from instead",
    )


def _card_named(st: State, name: str, span: SourceSpan | None) -> Card:
    """The first component with this name, for a card variable (``louis: Le Grand Dauphin``)."""
    names = {c.name for c in st.prog.cards}
    found = [c for c in st.prog.cards if c.name == name]
    if len(found) > 1:
        raise ScenarioError(
            f"{len(found)} cards are named '{name}': a card variable needs one of them", span
        )
    if found:
        return found[0]
    raise ScenarioError(f"no card is named '{name}'", span, suggestion=did_you_mean(name, names))


def _start(st: State, game: Game, doc: Any) -> None:
    """Put the run on the stack. A statement runs in the "scoring" phase, so the game ends when
    it ends, without scoring; ``end game`` reached from it runs the scoring (State.end_game).
    'scoring' runs the scoring; 'play' the play from its start, then the scoring; 'game' the
    setup (from the start position), the play and the scoring."""
    run = doc.get("run", "scoring")
    if run == "game":
        return  # State(start=False) already holds the setup and the play
    st.pending = None
    st.frames.clear()
    st.secret = 0
    if run == "play":
        st.phase = "play"
        st.frames.append(Frame(game.program.play, {}))
        return
    st.phase = "scoring"  # when the run ends, the game ends (no scoring unless asked)
    if run == "scoring":
        st.frames.append(Frame(game.program.scoring, {}))
    else:
        origin = run if isinstance(run, YStr) else None
        stmt = parse_statement(str(run), origin)
        check_statement(game.checked, stmt)
        op = cast(Program, game.program).stmt(stmt)  # scenarios start on the interpreter
        op.exec(st, {})


def _no_ambiguous_cards(st: State, doc: Any) -> None:
    """Refuse ``card('key')`` for an item with several copies in the run and the holds: it
    stands for the first copy, which need not be the one the example is about."""
    run = doc.get("run")
    texts = [run] if run not in (None, "scoring", "play", "game") else []
    blocks = [doc.get("expect") or {}] + [
        s["expect"] for s in doc.get("steps") or [] if "expect" in s
    ]
    texts += [h for b in blocks for h in (b.get("holds") or [])]
    copies: dict[str, int] = {}
    for c in st.prog.cards:
        copies[c.key] = copies.get(c.key, 0) + 1
    for text in texts:
        for m in re.finditer(r"\bcard\(\s*['\"]([^'\"]*)['\"]\s*\)", str(text)):
            n = copies.get(m.group(1), 0)
            if n > 1:
                raise ScenarioError(
                    f"card('{m.group(1)}') stands for the first of {n} copies, which may not be "
                    "the one the example means",
                    text.span_at(m.start(), m.end()) if isinstance(text, YStr) else None,
                    suggestion=f"name the copies by where they are, e.g. "
                    f"count(c for c in ZONE if c.key == '{m.group(1)}')",
                )


def _resume_on(st: State, other: Game) -> State:
    """The started position, saved and resumed on another back end."""
    try:
        return other.state_from_json(st.to_json(), advance=False)
    except MeepleError:
        raise ScenarioError(
            "this scenario's 'run' cannot start on the compiled back end: it must be a procedure "
            "call, a one-line statement, 'scoring', 'play' or 'game'"
        ) from None


# ------------------------------------------------------------------------------ steps
def _step(st: State, step: Any, ctx: _Run, span: SourceSpan | None) -> bool:
    """Play or check one step; False (with a failure recorded) stops the scenario."""
    out = ctx.out
    if "expect" in step:
        before = len(out.failures)
        _expect(st, step["expect"], ctx, final=False)
        return len(out.failures) == before
    forced = st.forced if st.forced is not None else []
    where = f" (step at line {span.line})" if span is not None else ""
    if "forced" in step:
        if not forced:
            now = f"the decision now is '{st.prompt()}'" if st.pending else "no decision is open"
            out.failures.append(
                f"no decision with one legal option was taken here{where}; {now}, "
                f"options {_labels(st)}"
            )
            return False
        seat, prompt, label = forced.pop(0)
        return _is_decision(step, seat, prompt, out, where, forced=True) and _same(
            label, str(step["forced"]), f"the forced decision '{prompt}' took '{label}'", out
        )
    kind = next(k for k in STEP_KINDS if k in step)
    if kind != "choose" and forced:
        taken = "; ".join(f"P{p + 1}: {q} -> {lab}" for p, q, lab in forced)
        out.failures.append(
            f"before this '{kind}' check{where} the rules took decisions with one legal option "
            f"({taken}): the check may be meant for one of them",
        )
        return False
    if st.pending is None:
        out.failures.append(f"no decision is open for '{kind}: {step[kind]}'{where}: the run ended")
        return False
    d = st.pending
    if not _is_decision(step, d.player, st.prompt(), out, where, forced=False):
        return False
    labels = _labels(st)
    if kind == "offered" and step["offered"] not in labels:
        out.failures.append(
            f"'{step['offered']}' is not offered at '{st.prompt()}'{where}; options: {labels}; "
            f"why: {_why_not(st, ctx, str(step['offered'])).reason}"
        )
    elif kind == "not_offered":
        want = str(step["not_offered"])
        if want in labels:
            out.failures.append(f"'{want}' is offered at '{st.prompt()}'{where}")
            return False
        v = _why_not(st, ctx, want)
        if not v.possible:  # a misspelt label is never offered: the check would test nothing
            out.failures.append(
                f"no option of '{st.prompt()}'{where} could ever be '{want}', so not offering "
                f"it tests nothing: {v.reason}"
            )
        elif "because" in step:
            reason = v.reason
            if str(step["because"]) not in reason:
                out.failures.append(
                    f"'{want}' is refused at '{st.prompt()}'{where} because {reason!r}, "
                    f"which does not say {str(step['because'])!r}"
                )
    elif kind == "options":
        want_set, have = [str(x) for x in step["options"]], labels
        missing = [x for x in want_set if x not in have]
        extra = [x for x in have if x not in want_set]
        if missing or extra or len(want_set) != len(have):
            out.failures.append(
                f"the options at '{st.prompt()}'{where} are {have}; expected {want_set}"
                + (f"; not offered: {missing}" if missing else "")
                + (f"; also offered: {extra}" if extra else "")
            )
    elif kind == "choose":
        want = str(step["choose"])
        if want not in labels:
            out.failures.append(
                f"'{want}' is not an option at '{st.prompt()}'{where}; options: {labels}; "
                f"why: {_why_not(st, ctx, want).reason}"
            )
            return False
        forced.clear()  # forced decisions before a choice need not be stated
        st.apply_action(st.legal_action_labels()[labels.index(want)][0])
        st.check_invariants()
    return not out.failures


def _labels(st: State) -> list[str]:
    return [label for _, label in st.legal_action_labels()]


def _is_decision(step: Any, seat: int, prompt: str, out: Outcome, where: str, forced: bool) -> bool:
    """The step's ``by:`` and ``at:`` name the decision asked (seat, prompt)."""
    what = "the forced decision" if forced else "the decision asked now"
    if "by" in step and _seat(step["by"], _span_of(step, "by")) != seat:
        out.failures.append(f"{what} '{prompt}'{where} is decided by P{seat + 1}, not {step['by']}")
        return False
    if "at" in step and str(step["at"]) != prompt:
        out.failures.append(f"{what}{where} is '{prompt}', not '{step['at']}'")
        return False
    return True


def _same(have: str, want: str, text: str, out: Outcome) -> bool:
    if have != want:
        out.failures.append(f"{text}, not '{want}'")
        return False
    return True


def _why_not(st: State, ctx: _Run, label: str) -> Any:
    """meeple explain's verdict on ``label`` at the decision asked now (on the interpreter)."""
    from .explain import verdict  # explain imports api, which imports this module's users

    if st.prog is not ctx.game.program:
        st = ctx.game.state_from_json(st.to_json(), advance=False)
    return verdict(st, label)


# ------------------------------------------------------------------------------ expect
def _snapshot(st: State) -> tuple[list[int], dict[str, Any]]:
    """Every zone's size and every variable's value, for ``changed:``."""
    return [len(z) for z in st.zones], {
        k: (list(v) if isinstance(v, list) else v) for k, v in st.vars.items()
    }


def _expect(st: State, expect: Any, ctx: _Run, final: bool) -> None:
    out = ctx.out
    if final and not st.is_terminal() and not expect.get("open", False):
        out.failures.append(f"a decision is still open: '{st.prompt()}' {_labels(st)}")
        return
    for label, items in (expect.get("zones") or {}).items():
        zi = _zone(st, str(label), _span_of(expect["zones"], label))
        span = _span_of(expect["zones"], label)
        want = sorted(_expand(_named(st, _specs(items, span), span)))
        have = sorted(_card_text(c) for c in st.zones[zi])
        if want != have:
            out.failures.append(f"{label} holds {have}, expected {want}")
    for label, items in (expect.get("in_order") or {}).items():
        zi = _zone(st, str(label), _span_of(expect["in_order"], label))
        span = _span_of(expect["in_order"], label)
        want = _expand(_named(st, _specs(items, span), span))
        have = [_card_text(c) for c in st.zones[zi]]
        if want != have:
            out.failures.append(f"{label} holds {have} (bottom to top), expected {want}")
    for label, n in (expect.get("counts") or {}).items():
        zi = _zone(st, str(label), _span_of(expect["counts"], label))
        if len(st.zones[zi]) != n:
            out.failures.append(f"{label} holds {len(st.zones[zi])} cards, expected {n}")
    for name, value in (expect.get("variables") or {}).items():
        _expect_variable(st, str(name), value, _span_of(expect["variables"], name), out)
    changed = expect.get("changed") or {}
    for label, n in (changed.get("counts") or {}).items():
        zi = _zone(st, str(label), _span_of(changed["counts"], label))
        diff = len(st.zones[zi]) - ctx.counts[zi]
        if diff != n:
            out.failures.append(f"{label} changed by {diff:+d} cards, expected {n:+d}")
    for key, n in (changed.get("variables") or {}).items():
        span = _span_of(changed["variables"], key)
        name, index = _variable_slot(st, str(key), span)
        if {v.name: v.type for v in st.prog.var_specs}[name] != "int":
            raise ScenarioError(
                f"'{key}' is not a number: only a number variable changes by +n or -n",
                span,
                suggestion="state its value under 'variables:' instead",
            )
        now, then = _slot(st.vars[name], index), _slot(ctx.vars[name], index)
        if now - then != n:
            out.failures.append(f"{key} changed by {now - then:+d} (to {now}), expected {n:+d}")
    ctx.counts, ctx.vars = _snapshot(st)
    holds = expect.get("holds") or []
    game = ctx.game
    ev = st if st.prog is game.program else None
    for text in holds:
        if ev is None:  # evaluated by the interpreter, on a copy
            ev = game.state_from_json(st.to_json(), advance=False)
        failure = _holds(ev, game, text)
        if failure:
            out.failures.append(failure)
    if "decided_by" in expect:
        _check_decider(st, expect)
    for key in ("scores", "winners", "decided_by"):
        if key in expect and not st.is_terminal():
            out.failures.append(f"'{key}' is asked but the game is not over: '{st.prompt()}'")
            return
    if "scores" in expect and st.scores() != list(expect["scores"]):
        out.failures.append(f"scores are {st.scores()}, expected {list(expect['scores'])}")
    if "winners" in expect:
        want_w = sorted(
            _seat(p, _span_of(expect, "winners"), st.prog.num_players) for p in expect["winners"]
        )
        have_w = st.winners()
        if have_w != want_w:
            out.failures.append(
                f"the winners are {_seats(have_w)}, expected {_seats(want_w)} "
                f"(scores {st.scores()})"
            )
    if "decided_by" in expect:
        by = decided_by(st)
        if by != str(expect["decided_by"]):
            out.failures.append(
                f"the winners were decided by '{by}', expected '{expect['decided_by']}'"
            )


#: Python errors an expression of the rules raises where it asks for something impossible
#: (``top()`` of an empty zone, ``min()`` of nothing): in a game they are rule errors at the
#: statement (runtime/state.py); in a ``holds:`` they fail the expectation at its line.
_EVAL_ERRORS = (
    MeepleError,
    IndexError,
    KeyError,
    AttributeError,
    TypeError,
    ValueError,
    ZeroDivisionError,
    OverflowError,
)


def _holds(ev: State, game: Game, text: Any) -> str | None:
    """One ``holds:`` expression, checked (it must be true or false: a number or a text is
    not taken as true: ScenarioError at the expression) and evaluated on ``ev`` (an
    interpreter state): None when it holds, else the failure, "file:line:col" first when it
    cannot be evaluated in this position (``top()`` of an empty zone)."""
    span = text.span if isinstance(text, YStr) else None
    e = parse_expression(str(text), text if isinstance(text, YStr) else None)
    t = check_expression(game.checked, e)
    if t not in ("bool", "any"):
        raise ScenarioError(
            f"'holds: {text}' is {_a(t)}, not a condition",
            span,
            expected="an expression that is true or false, e.g. count(discard) == 3",
        )
    try:
        value = cast(Program, game.program).ex.compile(e)(ev, {})
    except _EVAL_ERRORS as ex:  # the position does not allow it: the expectation fails
        why = ex if isinstance(ex, MeepleError) else ev._located(ex, span)
        where = f"{span}: " if span is not None else ""
        message = why.message.removeprefix("the rules failed here: ")
        return f"{where}cannot evaluate '{text}' here: {message}"
    if not isinstance(value, bool):  # 'any' to the checker (a function's value)
        raise ScenarioError(
            f"'holds: {text}' gave {value!r}, not true or false",
            span,
            expected="an expression that is true or false, e.g. count(discard) == 3",
        )
    return None if value else f"not true: {text}"


def _a(t: str) -> str:
    """A checked type with its article: "an int", "a str", "a list:card"."""
    return ("an " if t[:1] in "aeiou" else "a ") + t


def deciders(st: State) -> list[str]:
    """What ``decided_by`` may name in this game: 'score', each tie-breaker (its label, or its
    key as written), 'shared'."""
    game = getattr(st.prog, "game", None)
    tbs = game.tie_breakers if game is not None else ()
    names = [tb.label or ExprWriter().expr(tb.key) for tb in tbs]
    return ["score", *names, "shared"]


def _check_decider(st: State, expect: Any) -> None:
    """``decided_by:`` names something that can decide this game's winners (a misspelt
    tie-breaker would otherwise only ever fail, or pass as 'shared'): ScenarioError at it."""
    want, known = str(expect["decided_by"]), deciders(st)
    if want not in known:
        span = expect.value_spans.get("decided_by") if isinstance(expect, YMap) else None
        raise ScenarioError(
            f"'decided_by: {want}' names nothing that decides this game's winners",
            span or _span_of(expect, "decided_by"),
            expected="one of " + ", ".join(f"'{k}'" for k in known),
            suggestion=did_you_mean(want, known),
        )


def decided_by(st: State) -> str:
    """What decided a finished game's winners: 'score' when the scores alone did, the label of
    the first tie-breaker that did (its key as written when it has no label), or 'shared' when
    several seats win, tied after every tie-breaker."""
    winners = st.winners()
    if len(winners) != 1:
        return "shared"
    keys = {p: st.tie_keys(p) for p in st.players}
    best = keys[winners[0]]
    for i in range(len(best)):
        if [p for p in st.players if keys[p][: i + 1] == best[: i + 1]] == winners:
            if i == 0:
                return "score"
            game = getattr(st.prog, "game", None)
            tb = game.tie_breakers[i - 1] if game is not None else None
            if tb is None:
                return f"tie-breaker {i}"
            return tb.label or ExprWriter().expr(tb.key)
    return "shared"


def _seats(seats: list[int]) -> str:
    return "[" + ", ".join(f"P{p + 1}" for p in seats) + "]"


def _card_text(c: Card) -> str:
    return c.name + (f" of P{c.owner + 1}" if c.owner is not None else "")


def _named(
    st: State, specs: list[tuple[str, int | None, int]], span: SourceSpan | None
) -> list[tuple[str, int | None, int]]:
    """``specs`` once every name is a component's: an expectation naming a card the game does
    not have is a mistake in the scenario, not a failed rule."""
    names = {c.name for c in st.prog.cards}
    for name, _, _ in specs:
        if name not in names:
            raise ScenarioError(
                f"no card is named '{name}'", span, suggestion=did_you_mean(name, names)
            )
    return specs


def _expand(specs: list[tuple[str, int | None, int]]) -> list[str]:
    return [
        name + (f" of P{owner + 1}" if owner is not None else "")
        for name, owner, k in specs
        for _ in range(k)
    ]


_SLOT = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\[(?P<seat>P\d+)\])?$")


def _variable_slot(st: State, key: str, span: SourceSpan | None) -> tuple[str, int | None]:
    """``gold`` -> ("gold", None); ``gold[P2]`` -> ("gold", 1) for a per-seat variable."""
    m = _SLOT.match(key)
    name = m.group("name") if m else key
    decl = st.prog.game.variables.get(name) if st.prog.game is not None else None
    if decl is None and st.prog.game is not None and name in st.prog.game.constants:
        raise ScenarioError(
            f"'{name}' is a constant of the rules, not a variable: it never changes",
            span,
            suggestion=f"state its value with holds: ['{name} == ...'] if it matters",
        )
    if m is None or decl is None:
        known = st.prog.game.variables if st.prog.game is not None else st.vars
        raise ScenarioError(f"unknown variable '{key}'", span, suggestion=did_you_mean(name, known))
    if m.group("seat") is None:
        return name, None
    if decl.per != "players":
        raise ScenarioError(
            f"'{name}' is not a per-seat variable: write '{name}' without [P..]", span
        )
    return name, _seat(m.group("seat"), span, st.prog.num_players)


def _slot(value: Any, index: int | None) -> Any:
    return value if index is None else value[index]


def _expect_variable(
    st: State, key: str, value: Any, span: SourceSpan | None, out: Outcome
) -> None:
    """One ``variables:`` expectation, written as in ``given:`` (or ``gold[P2]: 3``)."""
    name, index = _variable_slot(st, key, span)
    decl = st.prog.game.variables[name]
    have = _slot(st.vars[name], index)
    n = st.prog.num_players
    if decl.per and decl.per != "players":
        raise ScenarioError(f"'{name}' has a value per {decl.per}: check it with 'holds'", span)
    if index is None and decl.per:
        if not isinstance(value, list) or len(value) != n:
            raise ScenarioError(f"'{name}' has one value per seat", span, expected=f"a list of {n}")
        want = [_want_value(st, decl, v, span) for v in value]
        shown_have = [_show_value(decl, v) for v in have]
    else:
        want = _want_value(st, decl, value, span)
        shown_have = _show_value(decl, have)
    if shown_have != want:
        out.failures.append(f"{key} is {shown_have}, expected {want}")


def _want_value(st: State, decl: Any, v: Any, span: SourceSpan | None) -> Any:
    if decl.type == "player":
        return None if v is None else f"P{_seat(v, span, st.prog.num_players) + 1}"
    if decl.type == "card" and v is not None:
        return _card_named(st, str(v), span).name
    return v


def _show_value(decl: Any, v: Any) -> Any:
    if decl.type == "player":
        return None if v is None else f"P{v + 1}"
    if isinstance(v, Card):
        return v.name
    return v


def _span_of(container: Any, key: Any) -> SourceSpan | None:
    if isinstance(container, YMap):
        return container.key_spans.get(key)
    return None
