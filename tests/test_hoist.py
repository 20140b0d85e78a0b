"""A generated module's direct code reads a local of the rules once, into a Python local, only
where nothing can change it while the function runs (codegen/hoist.py).

tests/fixtures/locals binds locals in every way a direct function must leave in its env: a
'let' bound again at each pass of a loop, a loop name, an option's name, a pick's 'as' name, a
tied winner's 'as' name (a statement started through frames); each is read after a decision,
and its playouts, from a new game and from the middle of one (a direct function resumed at a
``pc`` past 0, fresh or from a saved state), must be the API's games. Hoisting one of those
names breaks the playouts, so each binding is pinned.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from test_playout import _check_from, playout_is_the_api_game, random_moves

import meeple
from meeple.api import load_checked
from meeple.codegen import cache, direct, generate
from meeple.codegen.facts import Facts
from meeple.codegen.hoist import bound_names
from meeple.dsl.errors import RuleError
from meeple.interpreter.game import Game

LOCALS = str(Path(__file__).parent / "fixtures" / "locals" / "game.yaml")

#: the names the fixture binds inside blocks whose direct functions read them after a decision
REBOUND = ("n", "q", "c", "gone", "w")


def _playouts_are_api_games(game: Game) -> None:
    rng = random.Random(3)
    for seed in range(12):
        playout_is_the_api_game(game, seed)
        for k in (1, 4, 9, 17, 30):  # pending choices and picks at every depth of the turn
            state = game.new_initial_state(seed, record_log=False)
            random_moves(state, rng, k)
            _check_from(game, state.clone(), seed + k)
            _check_from(game, game.state_from_json(state.to_json(), record_log=False), seed)


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_playouts_that_read_rebound_locals_are_the_api_games(backend: str) -> None:
    _playouts_are_api_games(meeple.load(LOCALS, 3, backend=backend))


def test_names_bound_in_a_block_are_read_from_env_and_the_others_once() -> None:
    """The turn's body binds every rebound name: its direct function reads them from env and
    reads only the parameter ``p`` into a Python local; the body of the loop over ``q`` and of
    the option over ``c``, which do not bind them, read them once at entry."""
    checked = load_checked(LOCALS)
    turn = checked.game.procedures["turn"].body
    assert {"n", "q", "c", "gone", "picked"} <= bound_names(turn)
    assert "p" not in bound_names(turn)
    assert "w" in bound_names(checked.game.scoring)
    text = generate(checked)
    heads = dict(re.findall(r"def (c_\d+)\(st, env, pc\):.*\n((?: +_L_\w+ = env\[.*\n)*)", text))
    hoisted = {f: set(re.findall(r"env\['(\w+)'\]", h)) for f, h in heads.items()}
    assert {"p"} in hoisted.values() and {"p", "q"} in hoisted.values()
    assert {"p", "c"} in hoisted.values() and {"w"} in hoisted.values()
    for name in REBOUND:  # read from env wherever it is bound
        assert re.search(rf"env\['{name}'\]", text.split("def c_", 1)[1])


@contextmanager
def _not_bound(facts: Facts, name: str | None, py: str) -> Iterator[None]:
    """Facts.binding that binds nothing: the body reads the name as any other."""
    yield


@pytest.fixture
def fresh_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Modules generated anew into an empty cache, forgotten after the test."""
    monkeypatch.setenv("MEEPLE_CACHE", str(tmp_path))
    cache.forget()
    yield
    monkeypatch.undo()
    cache.forget()


@pytest.mark.usefixtures("fresh_modules")
@pytest.mark.parametrize("name", REBOUND)
def test_reading_a_rebound_name_once_breaks_the_playouts(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The proof left out for one name (read once at entry though a statement binds it): the
    playouts are no longer the API's games (a stale or unbound value). A loop's or an option's
    body reads its name from the loop's Python local (codegen/facts); without that, as here,
    the name is read from env or, left out of the proof, once at entry."""
    real = bound_names
    monkeypatch.setattr(direct, "bound_names", lambda b: real(b) - {name})
    monkeypatch.setattr(Facts, "binding", _not_bound)
    game = meeple.load(LOCALS, 3, backend="compiled")
    with pytest.raises((AssertionError, RuleError)):  # (an unbound name: a RuleError)
        _playouts_are_api_games(game)
