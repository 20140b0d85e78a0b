"""A generated module leaves out ``st.at = oN`` where another write comes before anything reads
it (codegen/at.py), and every error is still reported at the interpreter's statement.

tests/fixtures/calls has statements that cannot fail leading to others: a plain assignment, a
``let``, a log line, a procedure call with plain arguments. Each edit here makes one such
statement, or one right after it, fail (first() of an empty list: no span of its own, reported
where ``st.at`` is) in the second round: played through the API with the log on and off, and played
out, the generated module fails exactly as the interpreter does, at the same line with the same
rules trace, and where nothing fails the final states (their ``at`` too) are the interpreter's.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.dsl.errors import RuleError
from meeple.interpreter.game import Game

CALLS = Path(__file__).parent / "fixtures" / "calls" / "game.yaml"
BACKENDS = ("interpreter", "compiled")

#: a value that fails from the second round on with no span of its own (first() of an empty
#: list), reported at the statement ``st.at`` names
FAILS = "first([x for x in [round] if x < 2])"

EDITS = [
    # a plain assignment (left out when plain) made to fail
    ("- last_round = round", f"- last_round = {FAILS}"),
    # the statement after a plain assignment
    ("dig?\n        by: p\n", 'dig?\n        by: "first([x for x in [p] if round < 2])"\n'),
    # a let made to fail, in a procedure called with plain arguments
    ("- let twice = 2 * k", f"- let twice = 2 * k * {FAILS}"),
    # the statement after a let that cannot fail
    ("- score[p] += twice - k", f"- score[p] += (twice - k) * {FAILS}"),
    # a log line (fails only with the log on), then the statement after it
    ('- log "{p} digs"', f'- log "{{p}} digs {{{FAILS}}}"'),
    ("- levels += 1", f"- levels += {FAILS}"),
    # the arguments of a call
    ("- tally(p, 1)", f"- tally(p, {FAILS})"),
]


def _outcome(game: Game, seed: int, how: str) -> Any:
    """The game of ``seed`` (uniform choices) played through the API with the log on or off,
    or played out: its final saved state, or the error it stops with (text, line, trace)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed, record_log=how == "log")
    try:
        if how == "playout":
            state.playout(lambda n: int(rng.random() * n))
        else:
            while not state.is_terminal():
                d = state.pending
                assert d is not None
                state.apply_action(d.actions[int(rng.random() * len(d.actions))])
    except RuleError as e:
        return str(e), e.span.line if e.span else None, list(e.trace)
    return state.to_json()


@pytest.mark.parametrize(("old", "new"), EDITS)
def test_an_error_after_a_left_out_write_is_at_the_interpreters_statement(
    tmp_path: Path, old: str, new: str
) -> None:
    text = CALLS.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    games = {b: meeple.load(str(path), 2, backend=b) for b in BACKENDS}
    failed = set()
    for seed in range(12):
        for how in ("log", "api", "playout"):
            expected = _outcome(games["interpreter"], seed, how)
            assert _outcome(games["compiled"], seed, how) == expected, (seed, how)
            if isinstance(expected, tuple):
                assert "the rules failed here" in expected[0], expected
                failed.add(how)
    assert failed >= {"log"}, "no game met the broken rule"
