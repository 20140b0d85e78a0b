"""A generated module leaves out the checks of values it knows by construction, and makes the
others once at a function's entry, with the interpreter's errors (codegen/facts.py, hoist.py).

tests/fixtures/facts uses seats from loops over players, others() and clockwise_from(),
districts from loops, comprehensions and options over the districts' own list and from
properties that hold a district in every kind that has them, and procedure parameters read
once at the entry of a direct function; functions whose parameter has the name of the loop or
option around the call read what the call passes. Its games are the same on both back ends,
played out or through the API. Edited, a seat or a district is not one where it is used: a
parameter given seat 3 of a 3-player game, none, a minion where a district is wanted, a loop
or an option over minions, a property that holds a minion in districts, a list made from
seats, a list given to others(); the same rule error, with the same message and at the same
place, ends the game on both back ends, played out or through the API.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from test_playout import Recorder, _check_from, playout_is_the_api_game, random_moves

import meeple
from meeple.api import load_checked
from meeple.codegen import generate
from meeple.dsl.errors import RuleError
from meeple.interpreter.game import Game

FACTS = Path(__file__).parent / "fixtures" / "facts" / "game.yaml"


def _games(rules: Path) -> tuple[Game, Game]:
    return (
        meeple.load(str(rules), 3, backend="interpreter"),
        meeple.load(str(rules), 3, backend="compiled"),
    )


def _ends(run: Any) -> tuple[Any, ...]:
    """How ``run()`` ends: the saved final state, or the rule error's message and place."""
    try:
        state = run()
    except RuleError as e:
        return ("error", str(e), e.span)
    return ("over", state.to_json())


def _api(game: Game, seed: int, taken: list[tuple[int, int]]) -> Any:
    state = game.new_initial_state(seed, record_log=False)
    for _, i in taken:
        assert state.pending is not None
        state.apply_action(state.pending.actions[i])
    return state


def _same_games(rules: Path, seeds: int = 40) -> list[tuple[Any, ...]]:
    """Each seed's playout on both back ends, and the compiled API game of its choices: the same
    choices and the same end (state or error) as the interpreter's playout. Returns the ends."""
    interpreter, compiled = _games(rules)
    ends = []
    for seed in range(seeds):
        ref, rec = Recorder(seed), Recorder(seed)
        want = _ends(lambda: interpreter.playout(seed, ref))  # noqa: B023
        assert _ends(lambda: compiled.playout(seed, rec)) == want  # noqa: B023
        assert rec.taken == ref.taken
        assert _ends(lambda: _api(compiled, seed, ref.taken)) == want  # noqa: B023
        ends.append(want)
    return ends


def test_the_fixture_plays_the_same_games_on_both_back_ends() -> None:
    """Including functions called inside a loop or an option whose name is their parameter's."""
    ends = _same_games(FACTS)
    assert all(e[0] == "over" for e in ends)
    assert len({str(e[1]) for e in ends}) > 30  # (different games)


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_playouts_from_the_middle_and_from_saves_are_the_api_games(backend: str) -> None:
    """A direct function resumed past its start reads and checks its locals as a new one."""
    game = meeple.load(str(FACTS), 3, backend=backend)
    rng = random.Random(5)
    for seed in range(8):
        playout_is_the_api_game(game, seed)
        for k in (1, 3, 8, 20, 45):
            state = game.new_initial_state(seed, record_log=False)
            random_moves(state, rng, k)
            _check_from(game, state.clone(), seed + k)
            _check_from(game, game.state_from_json(state.to_json(), record_log=False), seed)


def test_the_checks_left_out_and_made_once() -> None:
    """What the fixture's module shows: no kind test for a district of the districts' list, no
    seat test for a seat of others() or of a loop over players, a procedure's seat and district
    tested once at entry; a name bound around a function's call is not the function's."""
    text = generate(load_checked(str(FACTS)))
    direct = text.split("def c_", 1)[1]
    assert not re.search(r"\b_d\d+\.kind ==", direct)  # loops, options, comprehensions
    assert re.search(r"Z_markers_on\d+ \+ _d\d+\.ordinal\)", direct)
    assert re.search(r"Z_markers_on\d+ \+ _d\d+\.props\['rival'\]\.ordinal\)", direct)
    assert re.search(r"\[-1\]\.props\['home'\]\.ordinal\)", direct)
    others = r"\(\(SEATS_others\d+\.get\(_S_p\d+\) if len\(st\.players\) == num_players"
    assert re.search(rf"for (_q\d+) in {others}(?s:.*?)Z_hand\d+ \+ \1\)", direct)
    assert re.search(r"_S_w\d+ = _L_w\d+ if type\(_L_w\d+\) is int and 0 <= _L_w\d+", direct)
    assert re.search(r"_O_d\d+ = _L_d\d+\.ordinal if type\(_L_d\d+\) is Card and", direct)
    assert "env['q']" not in re.sub(r"env\['q'\] = ", "", direct.split("def c_1(")[0])
    # hand_of(p) inside the loop over q: p's hand, not q's
    assert re.search(r"len\(st\.zones\[\(Z_hand\d+ \+ \(_S_p\d+ if", direct)


#: an edit of the fixture: the player variable 'far' holds seat 3, 4, 5 from round 2 on
FAR = ("        - round += 1\n", "        - round += 1\n        - far = round + 1\n")

#: a local that holds a seat, then a list (the checker lets a value of either type by)
LIST_V = "      - let v = p if round < 3 else [p]\n"

#: what follows the option 'count {d}' of the fixture's name
COUNTED = "\n" + " " * 16 + "when: held(d)"

#: (edits of the fixture, the error they must end a game with)
BROKEN = [
    pytest.param([FAR, ("reward(p, d)", "reward(far, d)")], "seat [3-5] is not a player", id="far"),
    pytest.param(
        [FAR, ("reward(p, d)", "reward(far, d)"), ("when: count(hand[w]) > 0 and ", "when: ")],
        "seat [3-5] is not a player",
        id="far-chooser",
    ),
    pytest.param([("reward(p, d)", "reward(nobody, d)")], "none is not a player", id="none"),
    pytest.param(
        [("reward(p, d)", "reward(p, top(hand[p]))")],
        "(Ghoul|Thief|Knight) is not one of the districts",
        id="minion-parameter",
    ),
    pytest.param(
        [("for d in districts if d.bonus > 1", "for d in minions if d.strength > 1")],
        "(Thief|Knight) is not one of the districts",
        id="minion-comprehension",
    ),
    pytest.param(
        [(f"for: d in districts{COUNTED}", f"for: d in minions{COUNTED}")],
        "Ghoul is not one of the districts",
        id="minion-option",
    ),
    pytest.param(
        [FAR, ("for: q in others(p)", "for: q in [far for x in others(p)]")],
        "seat [3-5] is not a player",
        id="made-from-seats",
    ),
    pytest.param(
        [("      - for: q in others(p)\n", LIST_V + "      - for: q in others(v)\n")],
        r"\[\d\] is not a player in this",
        id="list-to-others",
    ),
    pytest.param(
        [("markers_on[top(hand[p]).near]", "markers_on[d.near]")],
        "(Ghoul|Thief|Knight) is not one of the districts",
        id="minion-property",
    ),
    pytest.param(
        [FAR, ("[x for x in players if x != p and", "[far for x in players if x != p and")]
        + [("from: hand[q]", "from: deck")],
        "seat [3-5] is not a player",
        id="picker",
    ),
]


@pytest.mark.parametrize(("edits", "message"), BROKEN)
def test_a_value_that_is_no_seat_or_district_fails_as_in_the_interpreter(
    tmp_path: Path, edits: list[tuple[str, str]], message: str
) -> None:
    text = FACTS.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    rules = tmp_path / "game.yaml"
    rules.write_text(text, encoding="utf-8")
    errors = [e for e in _same_games(rules, 6) if e[0] == "error"]
    assert errors, "no game met the broken rule"
    assert all(re.search(message, e[1]) for e in errors), errors
