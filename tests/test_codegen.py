"""The code generator: generated modules are proven equal to the interpreter.

For every shipped game and every player count, random games are played on both back ends with
the same seed and the same choices; at every decision the player to act, the legal actions with
their labels and the whole saved state (``to_json()``) must be identical, and so must the
returns at the end. The quick loop plays one game per game and player count (and two of one
variant per game); the deep run (``pytest -m deep``) plays 1,000 games per game and 60 per variant.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import generated
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.api import load_checked
from meeple.codegen import generate, load_module
from meeple.dsl.errors import MeepleError
from meeple.dsl.variant import variant_files
from meeple.interpreter.game import Game
from meeple.registry import game_ids, rules_root

GAMES_PER_GAME = 1_000  # the deep run, spread over the player counts
MAX_DECISIONS = 20_000
GOLDEN = Path(__file__).parent / "golden" / "compiled"


def _counts(game_id: str) -> list[int]:
    g = load_checked(game_id).game
    return list(range(g.players_min, g.players_max + 1))


CASES = [(g, n) for g in game_ids() for n in _counts(g)]
_games: dict[tuple[str, int, str], Game] = {}


def _game(game_id: str, players: int, backend: str) -> Game:
    key = (game_id, players, backend)
    if key not in _games:
        _games[key] = meeple.load(game_id, players, backend=backend)
    return _games[key]


def _same(a: object, b: object, where: str) -> None:
    assert a == b, f"the back ends differ at {where}:\n  interpreter: {a}\n  compiled:    {b}"


def _play_both(game_id: str, players: int, seed: int, rng: random.Random, log: bool) -> None:
    a = _game(game_id, players, "interpreter").new_initial_state(seed, record_log=log)
    b = _game(game_id, players, "compiled").new_initial_state(seed, record_log=log)
    for n in range(MAX_DECISIONS):
        where = f"{game_id}, {players} players, seed {seed}, decision {n}"
        _same(a.to_json(), b.to_json(), where)
        _same(a.current_player(), b.current_player(), where)
        _same(a.legal_action_labels(), b.legal_action_labels(), where)
        if a.is_terminal():
            _same(a.returns(), b.returns(), where)
            _same(a.scores(), b.scores(), where)
            return
        actions = a.legal_actions()
        action = actions[rng.randrange(len(actions))]
        a.apply_action(action)
        b.apply_action(action)
    pytest.fail(f"{game_id} seed {seed} did not end within {MAX_DECISIONS} decisions")


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_back_ends_agree_on_one_game(game_id: str, players: int) -> None:
    """The quick loop's sample: one logged game per game and player count."""
    _play_both(game_id, players, 1, random.Random(players), log=True)


@pytest.mark.deep
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_back_ends_agree_on_random_games(game_id: str, players: int) -> None:
    per_count = -(-GAMES_PER_GAME // len(_counts(game_id)))

    @settings(max_examples=per_count, deadline=None, derandomize=True, database=None)
    @given(seed=st.integers(0, 2**31 - 1), choices=st.randoms(use_true_random=False))
    def check(seed: int, choices: random.Random) -> None:
        _play_both(game_id, players, seed, choices, log=seed % 4 == 0)

    check()


VARIANTS = [(g, f.stem) for g in game_ids() for f in variant_files(rules_root() / g)]
GAMES_PER_VARIANT = 60  # the deep run; the quick loop plays two
FIRST_VARIANTS = [c for i, c in enumerate(VARIANTS) if i == 0 or VARIANTS[i - 1][0] != c[0]]


# the quick loop: two games of the first variant of each game; the deep run plays 60 games of
# every variant, the same first two (seeds 0 and 1 at the same player counts) among them
@pytest.mark.parametrize(
    ("game_id", "variant", "games"),
    [(g, v, 2) for g, v in VARIANTS if (g, v) in FIRST_VARIANTS]
    + [pytest.param(g, v, GAMES_PER_VARIANT, marks=pytest.mark.deep) for g, v in VARIANTS],
)
def test_back_ends_agree_on_variants(game_id: str, variant: str, games: int) -> None:
    """A variant's module (its own file positions, changed data and rules) equals the
    interpreter running the variant, at every player count the variant allows."""
    g = load_checked(game_id, variant).game
    counts = list(range(g.players_min, g.players_max + 1))
    for i in range(games):
        n = counts[i % len(counts)]
        key = f"{game_id}+{variant}"
        if (key, n, "interpreter") not in _games:
            for b in ("interpreter", "compiled"):
                _games[(key, n, b)] = meeple.load(game_id, n, variant, backend=b)
        _play_both(key, n, i, random.Random(i), log=i % 4 == 0)


# the quick loop resumes one game per game, player count and direction; the deep run two more
@pytest.mark.parametrize(
    "seeds", [range(1), pytest.param(range(1, 3), marks=pytest.mark.deep)], ids=["1", "2-3"]
)
@pytest.mark.parametrize(("game_id", "players"), CASES)
@pytest.mark.parametrize("direction", ["interpreter->compiled", "compiled->interpreter"])
def test_save_on_one_back_end_resume_on_the_other(
    game_id: str, players: int, direction: str, seeds: range
) -> None:
    first, second = direction.split("->")
    for seed in seeds:
        rng = random.Random(seed)
        a = _game(game_id, players, first).new_initial_state(seed)
        stop = rng.randrange(1, 200)
        for _ in range(stop):
            if a.is_terminal():
                break
            acts = a.legal_actions()
            a.apply_action(acts[rng.randrange(len(acts))])
        b = _game(game_id, players, second).state_from_json(a.to_json())
        while not a.is_terminal():
            _same(a.to_json(), b.to_json(), f"{direction}, seed {seed}")
            _same(a.legal_action_labels(), b.legal_action_labels(), f"{direction}, seed {seed}")
            acts = a.legal_actions()
            x = acts[rng.randrange(len(acts))]
            a.apply_action(x)
            b.apply_action(x)
        _same(a.to_json(), b.to_json(), f"{direction}, seed {seed}, the end")


@pytest.mark.parametrize("game_id", game_ids())
def test_generated_module_matches_golden(game_id: str) -> None:
    """Regenerate with ``MEEPLE_REGEN_GOLDEN=1 python -m pytest tests/test_codegen.py`` (or
    ``meeple compile GAME -o tests/golden/compiled/GAME.py``) when the change is intended."""
    text = generated(load_checked(game_id))
    path = GOLDEN / f"{game_id}.py"
    if os.environ.get("MEEPLE_REGEN_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}; see this test's docstring"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} drifted from the generator"


def test_generation_is_deterministic() -> None:
    checked = load_checked(game_ids()[0])
    assert generate(checked) == generate(checked)


@pytest.mark.parametrize("game_id", game_ids())
def test_generated_module_is_valid_python_with_rule_lines(game_id: str) -> None:
    text = generated(load_checked(game_id))
    compile(text, f"{game_id}.py", "exec")
    cited = re.compile(r"  # [\w/.-]+\.yaml:\d+$")
    lines = text.splitlines()
    functions = [ln for ln in lines if ln.startswith("    def ")]  # those inside build()
    statements = [ln for ln in lines if "st.at = " in ln]
    assert functions and statements
    uncited = [ln for ln in functions + statements if not cited.search(ln)]
    assert not uncited, f"lines without their rule's file:line: {uncited[:3]}"


def test_generated_module_runs_without_the_front_end(tmp_path: Path) -> None:
    """A generated module imports only meeple's runtime: no lark, yaml or jsonschema."""
    module = load_module(load_checked("shadow-of-the-sun"))
    rules = Path(load_checked("shadow-of-the-sun").game.file)
    script = f"""
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("m", {module.__file__!r})
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
from meeple.runtime.state import State
prog = m.build(4, [{str(rules)!r}])
s = State(prog, 3, record_log=False)
r = random.Random(3)
while not s.is_terminal():
    a = s.legal_actions(); s.apply_action(a[r.randrange(len(a))])
print(s.returns(), sorted(x for x in ("lark", "yaml", "jsonschema") if x in sys.modules))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("[]"), out.stdout


FAILING_RULE = """\
game: {id: broken, name: Broken, players: {min: 2, max: 2}, source: Overview}
components:
  tokens:
    source: Components
    start: supply
    items: [{name: Token, count: 1}]
zones:
  supply: {visibility: public, source: Setup}
  empty: {visibility: public, source: Setup}
setup: {source: Setup, do: []}
play:
  source: Play
  do:
    - move top(supply) to empty
    - move top(supply) to empty
scoring: {source: Scoring, do: []}
"""


def test_an_error_in_generated_code_is_reported_at_the_rule_line(tmp_path: Path) -> None:
    rules = tmp_path / "game.yaml"
    rules.write_text(FAILING_RULE)
    messages = []
    for backend in ("interpreter", "compiled"):
        with pytest.raises(MeepleError) as e:
            meeple.load(str(rules), 2, backend=backend).new_initial_state(0)
        messages.append(str(e.value))
    assert messages[0] == messages[1]
    assert f"{rules}:15:" in messages[0] and "no item there" in messages[0]
