"""A generated module's playouts check and count only the procedure calls that need it
(codegen/calls.py), and they are still the API's games, failing where it fails.

tests/fixtures/calls calls procedures from a turn, from loops, from a trigger's body, and has one
that calls itself (``dig``) below a turn that does not. Its playouts must be the API's games from
a new game and from the middle of one; taken to the call depth limit, a playout must stop at the
same call with the same error and rules trace as the API game; an error inside a procedure must
keep its line and trace; and a saved state whose trigger frames stack the procedures deep (a save
may put a trigger's frame anywhere) must be refused at the same call.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_playout import _check_from, playout_is_the_api_game, random_moves

import meeple
from meeple.api import load_checked
from meeple.codegen.calls import ProcedureDepth
from meeple.dsl.errors import RuleError
from meeple.dsl.limits import MAX_CALL_DEPTH
from meeple.interpreter.game import Game
from meeple.runtime.state import State

CALLS = Path(__file__).parent / "fixtures" / "calls" / "game.yaml"
BACKENDS = ("interpreter", "compiled")


def _edited(tmp_path: Path, old: str, new: str) -> str:
    text = CALLS.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


def digger(n: int) -> int:
    """Dig at every turn (the last of the turn's three options), always deeper (the first of
    two), keep every revealed card."""
    return n - 1 if n == 3 else 0


def _outcome(game: Game, how: str) -> Any:
    """The final saved state of the game played with ``digger`` through a playout or through
    apply_action, or the error it stops with (its text, line and rules trace)."""
    state = game.new_initial_state(0, record_log=False)
    try:
        if how == "playout":
            state.playout(digger)
        else:
            while not state.is_terminal():
                assert state.pending is not None
                state.apply_action(state.pending.actions[digger(len(state.pending.actions))])
    except RuleError as e:
        return str(e), e.span.line if e.span else None, list(e.trace)
    return state.to_json()


def test_only_calls_a_recursive_procedure_may_lie_below_are_checked() -> None:
    game = load_checked(str(CALLS)).game
    depth = ProcedureDepth(game)
    procs = game.procedures
    assert depth.checked(procs["dig"].body)  # dig calls itself
    for name in ("turn", "note", "tally"):
        assert not depth.checked(procs[name].body), name
    assert not depth.checked(game.triggers["gem_revealed"].body)
    assert not depth.checked(game.play)
    # a call of dig or of the turn (which calls dig) is counted: the check inside dig counts
    # it; the others are not
    assert depth.counted("dig") and depth.counted("turn")
    assert not depth.counted("note") and not depth.counted("tally")
    assert depth.bound == len(procs)


def test_a_procedure_started_again_by_a_trigger_or_a_space_it_sets_off_is_recursive(
    tmp_path: Path,
) -> None:
    """note reveals a card (setting off the trigger that calls note again); tally moves a
    track whose space calls tally again: each is then checked and counted, as dig is."""
    leave = "do: []\n      - tally(first(players), c.points)"
    path = _edited(tmp_path, leave, leave.replace("[]", "['move top(deck) to revealed']"))
    game = load_checked(path).game
    depth = ProcedureDepth(game)
    assert depth.checked(game.procedures["note"].body) and depth.counted("note")
    assert depth.checked(game.triggers["gem_revealed"].body)
    assert not depth.checked(game.procedures["turn"].body)  # (nothing it runs in starts it)
    space = "tracks:\n  fame:\n    per: players\n    min: 0\n    max: 9\n    at_ends: clamp\n"
    space += "    source: Turn\n    spaces:\n      - reached: 2\n        source: Turn\n"
    space += "        do: ['tally(p, 1)']\n\nvariables:\n"
    path = _edited(tmp_path, "variables:\n", space)
    text = Path(path).read_text(encoding="utf-8")
    Path(path).write_text(text.replace("- k\n", "- k\n      - fame[p] += 1\n"), "utf-8")
    game = load_checked(path).game
    depth = ProcedureDepth(game)
    assert depth.checked(game.procedures["tally"].body) and depth.counted("tally")
    assert not depth.checked(game.procedures["note"].body)
    assert depth.counted("turn")  # (it calls tally)


@pytest.mark.parametrize("backend", BACKENDS)
def test_playouts_are_the_api_games(backend: str) -> None:
    game = meeple.load(str(CALLS), 2, backend=backend)
    rng = random.Random(5)
    for seed in range(10):
        playout_is_the_api_game(game, seed)
        for k in (1, 3, 8, 15):  # pending turns, trigger decisions and digs at any depth
            state = game.new_initial_state(seed, record_log=False)
            random_moves(state, rng, k)
            _check_from(game, state.clone(), seed + k)
            _check_from(game, game.state_from_json(state.to_json(), record_log=False), seed)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_playout_reaches_the_call_depth_limit_where_the_api_game_does(
    tmp_path: Path, backend: str
) -> None:
    """A turn digs ``n`` levels: ``n + 1`` calls of dig below the turn. With 198, the deepest
    call has 199 procedures below it and is made; with 199 it has 200 and is refused, in the
    playout as in the API game: the same message, line and rules trace (the turn and 200 digs
    below the refused call)."""
    for levels, refused in ((MAX_CALL_DEPTH - 2, False), (MAX_CALL_DEPTH - 1, True)):
        path = _edited(tmp_path, "- dig(p, 3)", f"- dig(p, {levels})")
        game = meeple.load(path, 2, backend=backend)
        played, applied = _outcome(game, "playout"), _outcome(game, "api")
        assert played == applied
        assert isinstance(played, tuple) == refused, played if refused else levels
        if refused:
            message, line, trace = played
            assert f"more than {MAX_CALL_DEPTH} deep" in message
            assert line == _line_of(Path(path), "- dig(p, n - 1)")
            assert len(trace) == MAX_CALL_DEPTH and trace[0].startswith("procedure turn (")


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("old", "new", "caller"),
    [
        ("- tally(p, 1)", "- tally(p, 1 // (round - 2))", None),  # in the call's arguments
        ("- score[p] += twice - k", "- score[p] += k // (round - 2)", "procedure tally ("),
        ("- levels += 1", "- levels += 1 // (round - 2)", "procedure dig ("),
    ],
)
def test_an_error_in_a_called_procedure_fails_a_playout_as_the_api_game(
    tmp_path: Path, backend: str, old: str, new: str, caller: str | None
) -> None:
    """Division by zero in the second round, in a procedure's arguments or its body (called
    from a loop, a turn, a trigger or itself): the same error at the same line, with the same
    procedures in its rules trace, whether the game is played out or played through the API."""
    path = _edited(tmp_path, old, new)
    game = meeple.load(path, 2, backend=backend)
    for seed in range(30):
        played, applied = (
            _outcome_of_seed(game, seed, "playout"),
            _outcome_of_seed(game, seed, "api"),
        )
        assert played == applied
        if not isinstance(played, tuple):
            continue
        message, line, trace = played
        assert "division by zero" in message and line == _line_of(Path(path), new)
        assert caller is None or trace[-1].startswith(caller)
        return
    raise AssertionError("no game met the broken rule")


def _outcome_of_seed(game: Game, seed: int, how: str) -> Any:
    """As _outcome, with a seeded uniform chooser (the same choices both ways)."""
    rng = random.Random(seed)
    choices: list[int] = []
    state = game.new_initial_state(seed, record_log=False)
    try:
        if how == "playout":

            def chooser(n: int) -> int:
                choices.append(int(rng.random() * n))
                return choices[-1]

            state.playout(chooser)
        else:
            while not state.is_terminal():
                d = state.pending
                assert d is not None
                state.apply_action(d.actions[int(rng.random() * len(d.actions))])
    except RuleError as e:
        return str(e), e.span.line if e.span else None, list(e.trace)
    return state.to_json()


def _noted(game: Game) -> State:
    """A new game played up to its first trigger decision (a revealed gem: ``note``'s choice),
    revealing at each turn."""
    for seed in range(50):
        state = game.new_initial_state(seed, record_log=False)
        while state.pending is not None:
            d = state.pending
            if len(d.actions) == 2:  # (a turn's choice has 3 options, note's 2)
                return state
            state.apply_action(d.actions[1])
    raise AssertionError("no game revealed a gem")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("stacked", [100, MAX_CALL_DEPTH - 2])
def test_a_saved_stack_of_trigger_frames_is_refused_at_the_interpreters_call(
    backend: str, stacked: int
) -> None:
    """A save may put a trigger's frame on any frame: here ``stacked`` more pairs of the
    trigger's body and the ``note`` it calls, below the note waiting for its decision. After
    the decision, note calls tally with the turn and ``stacked + 1`` notes running: refused at
    MAX_CALL_DEPTH of them, in a playout as through the API. (A non-recursive game's direct
    code checks no call: runtime/playout.py steps the frames of such a state instead.)"""
    game = meeple.load(str(CALLS), 2, backend=backend)
    data = _noted(game).to_json()
    frames = data["frames"]
    top = len(frames) - 2  # the trigger's body, then note's
    assert [game.program.proc_names.get(f["op"], "")[:13] for f in frames[top:]] == [
        "",
        "procedure not",
    ]
    envs, pairs = data["envs"], []
    for _ in range(stacked):  # each pair its own locals, as each call has (State._check_frames)
        for f in frames[top:]:
            envs.append(dict(envs[f["env"]]))
            pairs.append({**f, "env": len(envs) - 1})
    data["frames"] = frames[:top] + pairs + frames[top:]
    outcomes = []
    for how in ("playout", "api"):
        state = game.state_from_json(data, record_log=False)
        try:
            if how == "playout":
                state.playout(lambda n: 0)
            else:
                while not state.is_terminal():
                    assert state.pending is not None
                    state.apply_action(state.pending.actions[0])
            outcomes.append(state.to_json())
        except RuleError as e:
            outcomes.append((str(e), list(e.trace)))
    assert outcomes[0] == outcomes[1]
    refused = stacked + 2 >= MAX_CALL_DEPTH  # the turn and the notes
    assert isinstance(outcomes[0], tuple) == refused
    if refused:
        assert f"more than {MAX_CALL_DEPTH} deep" in outcomes[0][0]
