"""The work of one step is bounded (dsl/work.py, docs/security.md "The work of one step").

Two rules files of a new user's passed ``meeple check`` and then ran for hours on both back
ends: comprehensions nested over long ranges, and a function calling itself twice per call. Now
the first is refused by the check, at the expression, and the second (with every other runaway
the front end cannot bound: loops, recursion) stops with the same RuleError at the same rule on
both back ends, through the API as in a playout, quickly (each case is under a CPU-time guard,
so that a regression fails instead of hanging).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hostile.guard import time_limit

import meeple
from meeple import api
from meeple.dsl import ir
from meeple.dsl.errors import CheckError, RuleError, SourceSpan
from meeple.dsl.limits import MAX_RANGE, MAX_STATIC_WORK, MAX_STEP_WORK
from meeple.dsl.loader import load_rules
from meeple.dsl.work import MIN_CHARGE, Work

FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "game.yaml"
BASE = FIXTURE.read_text(encoding="utf-8")
RULES = Path(__file__).parent.parent / "rules"
BACKENDS = ("interpreter", "compiled")
FIXTURE_SPAN = SourceSpan(str(FIXTURE), 1, 1)

NESTED = "sum(sum(sum(1 for c in 0..9999) for b in 0..9999) for a in 0..9999)"
BOOM = '  boom: {source: Turn, params: [n], value: "0 if n <= 0 else boom(n - 1) + boom(n - 1)"}\n'
TWICE = (
    "  twice:\n    source: Turn\n    params: [n]\n    do:\n"
    "      - if: n > 0\n        then: ['twice(n - 1)', 'twice(n - 1)']\n"
)
DRAW = "              - move 1 from deck to hand[p]\n"  # the body of the first option of a turn


def _game(tmp_path: Path, *pairs: str) -> Path:
    """The minimal game with each ``old`` text (unique in it) replaced by its ``new``."""
    text = BASE
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _line(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def _outcome(path: Path, backend: str, how: str) -> Any:
    """The error a game of ``path`` stops with, drawing at every turn (the first option),
    through apply_action or a playout: its text, line and rules trace."""
    game = meeple.load(str(path), 2, backend=backend)
    state = game.new_initial_state(0, record_log=False)
    with pytest.raises(RuleError) as err, time_limit(20):
        if how == "playout":
            state.playout(lambda n: 0)
        else:
            while not state.is_terminal():
                assert state.pending is not None
                state.apply_action(state.pending.actions[0])
    e = err.value
    return str(e), e.span.line if e.span else None, list(e.trace)


# ---------------------------------------------------------------------- the static bound


def test_comprehensions_nested_over_long_ranges_are_refused_by_the_check(tmp_path: Path) -> None:
    """The new user's first file: three comprehensions over 10,000 numbers each, 10**12
    passes. The check names the expression, its bound and the limit."""
    path = _game(
        tmp_path, "    - shuffle deck\n", f'    - shuffle deck\n    - log "{{{NESTED}}}"\n'
    )
    with pytest.raises(CheckError) as err, time_limit():
        load_rules(path)
    e = err.value
    assert e.span is not None and e.span.file == str(path)
    line = _line(path, "- log")
    assert (e.span.line, e.span.col) == (line, len('    - log "{') + 1)  # the outer sum
    assert f"more than the {MAX_STATIC_WORK:,} allowed (MAX_STATIC_WORK" in e.message
    assert "3,000,600,060,003 units" in e.message  # 10**4 * (1 + 10**4 * (1 + 2 * 10**4 + ...))
    assert e.suggestion and "nest fewer" in e.suggestion
    with pytest.raises(CheckError), time_limit():  # the API's loading too
        api.load(str(path), 2)


def test_meeple_check_names_the_place_and_the_limit(tmp_path: Path) -> None:
    path = _game(
        tmp_path, "    - shuffle deck\n", f'    - shuffle deck\n    - log "{{{NESTED}}}"\n'
    )
    done = subprocess.run(
        [sys.executable, "-m", "meeple", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert (
        f"{path}:{_line(path, '- log')}:13: error: this can do up to" in done.stdout + done.stderr
    )


def test_the_bound_multiplies_nested_loops_and_follows_calls(tmp_path: Path) -> None:
    """A ``for`` statement over a range, around a call of a function whose body loops: the
    bound is the product, found through the call (and refused at the ``for``)."""
    path = _game(
        tmp_path,
        "functions:\n",
        "functions:\n  many:\n    source: Scoring\n    params: [p]\n"
        "    value: sum(sum(1 for b in 0..9999) for a in 0..999)\n",
        "    - shuffle deck\n",
        "    - shuffle deck\n    - for: k in 1..999\n      do: ['round += many(k)']\n",
    )
    with pytest.raises(CheckError) as err, time_limit():
        load_rules(path)
    assert err.value.span is not None and err.value.span.line == _line(path, "- for: k in")


def test_a_long_chain_of_functions_is_bounded_without_recursion(tmp_path: Path) -> None:
    """1,500 functions each giving the next one's value (a number, and a list of cards), past
    Python's recursion limit: the bounds follow the chain callees first, and the walk that
    finds which cards a zone holds gives up (every kind) rather than walk it 1,500 times."""
    n = 1500
    funcs = "".join(
        f"  f{i}: {{source: Scoring, params: [p], value: 'f{i + 1}(p)'}}\n" for i in range(n)
    )
    funcs += f"  f{n}: {{source: Scoring, params: [p], value: 'count(hand[p])'}}\n"
    funcs += "".join(
        f"  g{i}: {{source: Scoring, params: [p], value: 'g{i + 1}(p)'}}\n" for i in range(n)
    )
    funcs += f"  g{n}: {{source: Scoring, params: [p], value: '[c for c in hand[p]]'}}\n"
    loop = (
        "    - for: k in 1..f0(first(players))\n      do: ['round += count(g0(first(players)))']\n"
    )
    path = _game(
        tmp_path,
        "functions:\n",
        "functions:\n" + funcs,
        "    - shuffle deck\n",
        "    - shuffle deck\n" + loop,
    )
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # Python's default (importing the runtime raises it)
    try:
        with time_limit(20):
            work = Work(load_rules(path).game)
    finally:
        sys.setrecursionlimit(limit)
    assert work.size(ir.Call(FIXTURE_SPAN, "g0", ()), {}) == 20  # every card: the hands hold all
    assert work.bounds(ir.Call(FIXTURE_SPAN, "f0", ()), {}) == (0, 20)


def test_a_zone_holds_only_the_cards_that_can_reach_it(tmp_path: Path) -> None:
    """The bound of a loop over a zone is the number of cards of the kinds that can be in it,
    not every component: a kind of 900 tokens that never leaves its zone does not count in a
    loop over the hands."""
    tokens = "  tokens:\n    source: Components\n    start: pool\n    items:\n"
    tokens += "      - {name: Token, count: 900}\n"
    path = _game(
        tmp_path,
        "zones:\n",
        "zones:\n  pool: {visibility: public, source: Setup}\n",
        "components:\n",
        "components:\n" + tokens,
    )
    work = Work(load_rules(path).game)
    assert work.zone_size["hand"] == 20 and work.zone_size["pool"] == 900


# ---------------------------------------------------------------------- charged at run time

ZONES_AB = (
    "zones:\n",
    "zones:\n  za: {visibility: public, source: Turn}\n  zb: {visibility: public, source: Turn}\n",
    "variables:\n",
    "variables:\n  d: {type: int, initial: 0, source: Turn}\n",
    "scoring:\n",
    "triggers:\n\nscoring:\n",
)
SPIRAL = (
    "tracks:\n  dial:\n    min: 0\n    max: 1\n    at_ends: wrap\n    source: Turn\n"
    "    spaces:\n      - reached: 1\n        source: Turn\n        do:\n"
    "          - if: depth < 60\n            then:\n              - depth += 1\n"
    "              - dial += 2\n              - dial += 2\n              - depth -= 1\n"
    "\nvariables:\n  depth: {type: int, initial: 0, source: Turn}\n"
)


def _bounce(zone: str, to: str, do: str) -> str:
    """A trigger on ``zone`` that runs ``do`` while fewer than 60 of them are under way."""
    return (
        f"  to_{to}:\n    source: Turn\n    to: {zone}\n    when: d < 60\n"
        f"    do: ['d += 1', '{do}', 'd -= 1']\n"
    )


RUNAWAYS = {
    # the new user's second file: 2**40 calls
    "a function calling itself twice": (
        ("functions:\n", "functions:\n" + BOOM, DRAW, DRAW + "              - round += boom(40)\n"),
        "boom(n - 1) + boom",
    ),
    # a pass that could do 2 * 10**7 units (when round is over 99): 50 passes reach the limit
    "a while whose body is expensive": (
        (
            DRAW,
            DRAW + "              - while: true\n                do: [{if: round > 99, then: "
            "['round += sum(sum(1 for b in 0..9999) for a in 0..999)']}]\n",
        ),
        "- while: true",
    ),
    # cheap passes: at most MAX_STEP_CHARGES of them between two decisions, in all loops
    "nested whiles": (
        (
            DRAW,
            DRAW + "              - while: true\n                do: [{while: 'round < 9', "
            "do: ['round += 1']}, 'round = 1']\n",
        ),
        "{while: 'round < 9'",
    ),
    "a procedure calling itself twice": (
        ("procedures:\n", "procedures:\n" + TWICE, DRAW, DRAW + "              - twice(40)\n"),
        "then: ['twice(n - 1)'",
    ),
    # two triggers moving a zone's cards back and forth: each card set off moves both cards
    # back, 2**60 firings, never deeper than 60 (the new user's trig_tree.yaml)
    "triggers setting each other off": (
        (
            *ZONES_AB,
            DRAW,
            DRAW + "              - move 2 from deck to za\n",
            "triggers:\n",
            "triggers:\n"
            + _bounce("za", "zb", "move za to zb")
            + _bounce("zb", "za", "move zb to za"),
        ),
        "'move zb to za'",
    ),
    # the same through a procedure (direct code runs such triggers as calls)
    "a trigger and a procedure setting each other off": (
        (
            *ZONES_AB,
            DRAW,
            DRAW + "              - move 2 from deck to za\n",
            "triggers:\n",
            "triggers:\n" + _bounce("za", "zb", "swap()") + _bounce("zb", "za", "move zb to za"),
            "procedures:\n",
            "procedures:\n  swap:\n    source: Turn\n    do: ['move za to zb']\n",
        ),
        "'swap()'",
    ),
    # a track's space whose effect moves the marker past it twice
    "track spaces setting themselves off": (
        ("variables:\n", SPIRAL, DRAW, DRAW + "              - dial += 2\n"),
        "- dial += 2",
    ),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", sorted(RUNAWAYS))
def test_a_runaway_stops_at_the_same_rule_on_both_back_ends(
    tmp_path: Path, case: str, backend: str
) -> None:
    """Through the API and in a playout, interpreter and generated module: one error, at the
    loop or the recursive call, naming the limit."""
    pairs, at = RUNAWAYS[case]
    path = _game(tmp_path, *pairs)
    outcomes = {how: _outcome(path, backend, how) for how in ("api", "playout")}
    assert outcomes["api"] == outcomes["playout"]
    message, line, _ = outcomes["api"]
    assert f"more than {MAX_STEP_WORK:,} units of work since the last decision" in message
    assert line == _line(path, at)


@pytest.mark.parametrize("case", sorted(RUNAWAYS))
def test_both_back_ends_give_one_error(tmp_path: Path, case: str) -> None:
    pairs, _ = RUNAWAYS[case]
    path = _game(tmp_path, *pairs)
    interpreted = _outcome(path, "interpreter", "api")
    assert _outcome(path, "compiled", "api") == interpreted
    assert _outcome(path, "compiled", "playout") == interpreted


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_range_whose_end_is_not_a_constant_is_refused_past_max_range(
    tmp_path: Path, backend: str
) -> None:
    """The bound counts such a range as MAX_RANGE numbers: the run refuses a longer one."""
    loop = "              - for: k in 1..round * 100000\n                do: ['round += 0']\n"
    path = _game(tmp_path, DRAW, DRAW + loop)
    outcomes = {how: _outcome(path, backend, how) for how in ("api", "playout")}
    assert outcomes["api"] == outcomes["playout"]
    message, line, _ = outcomes["api"]
    assert f"has more than {MAX_RANGE} numbers" in message
    assert line == _line(path, "- for: k in")


def test_a_pass_that_asked_a_decision_is_not_charged(tmp_path: Path) -> None:
    """A turn runs as the one pass of a ``repeat``: the turn's decision, then a loop of 60,000
    cheap passes (charged, 6e8 units), then what could do 4.2e8 units more (when round is below
    0). That pass is not charged, as it asked a decision: charged, it would go past the limit
    (through the API, and in a playout's direct code, where such a loop starts as a turn
    does)."""
    twice = "sum(sum(1 for b in 0..9999) for a in 0..6999)"  # (twice: 4.2e8, for each of 2)
    wrapped = "  turn_once:\n    source: Turn\n    params: [p]\n    do:\n      - repeat:\n"
    wrapped += "          - turn(p)\n          - k = 0\n          - while: k < 60000\n"
    wrapped += "            do: ['k += 1']\n          - if: round < 0\n"
    wrapped += f"            then: ['round += {twice} + {twice}']\n        until: true\n"
    stay = "              - round += 0\n"  # (a draw that draws nothing: the hands stay full)
    path = _game(
        tmp_path,
        "            - turn(p)\n",
        "            - turn_once(p)\n",
        "procedures:\n",
        "procedures:\n" + wrapped,
        DRAW,
        stay,
        "variables:\n",
        "variables:\n  k: {type: int, initial: 0, source: Play}\n",
        "players: {min: 2, max: 4}",
        "players: {min: 2, max: 2}",
    )
    work = Work(load_rules(path).game)
    assert 60_000 * MIN_CHARGE + max(work._passes.values()) > MAX_STEP_WORK
    for backend in BACKENDS:
        for how in ("api", "playout"):
            game = meeple.load(str(path), 2, backend=backend)
            state = game.new_initial_state(0, record_log=False)
            with time_limit(60):
                if how == "playout":
                    state.playout(lambda n: 0)
                while not state.is_terminal():
                    assert state.pending is not None
                    state.apply_action(state.pending.actions[0])


# ---------------------------------------------------------------------- the shipped games

# The largest bound of each shipped game (of any expression or statement, which is also the
# largest charge of a loop's pass) when the limits were set; both limits are five times the
# largest. A game past a fifth of a limit should make us look at the limit again.
SHIPPED_BOUNDS = {
    "harbour-guilds": 1_510,
    "louis-xiv": 6_445_293,
    "shadow-of-the-emperor": 176_213_207,
    "shadow-of-the-sun": 166_141,
    "sonnenkoenig": 11_631_268,
}


@pytest.mark.parametrize("game", sorted(SHIPPED_BOUNDS))
def test_shipped_games_stay_well_within_the_work_limits(game: str) -> None:
    work = Work(load_rules(RULES / game).game)
    largest = max([*work.unit_cost.values(), *work._passes.values(), _root_bound(work)])
    assert largest == SHIPPED_BOUNDS[game]
    assert largest <= MAX_STATIC_WORK // 5
    assert largest <= MAX_STEP_WORK // 5


def _root_bound(work: Work) -> int:
    g = work.game
    return max(work.stmt(b, {}) for b in (g.setup, g.play, g.scoring))
