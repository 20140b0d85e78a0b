"""The rulebook's examples, as scenarios, pass, and fail when the rules they test are broken."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import BrokenGame
from sampling import alternate_backends, every_third

from meeple.registry import game_ids, rules_root
from meeple.scenarios import ScenarioError, run_scenario, scenario_files

ALL = [f for g in game_ids() for f in scenario_files(rules_root() / g)]


# every scenario on both back ends; the quick loop runs each on one of them, alternately (so
# each game's scenarios run on both), the deep run on the other (tests/sampling.py)
@pytest.mark.parametrize(
    ("path", "backend"),
    alternate_backends([(p,) for p in ALL]),
    ids=[f"{p.parent.parent.name}/{p.stem}-{b}" for p in ALL for b in ("interpreter", "compiled")],
)
def test_scenario_passes(path: Path, backend: str) -> None:
    outcome = run_scenario(path, backend=backend)
    assert outcome.passed, "\n".join(outcome.failures)
    assert outcome.state is not None
    compiled = type(outcome.state.prog).__name__ == "CompiledProgram"
    assert compiled == (backend == "compiled")
    outcome.state.check_invariants()


def test_every_rulebook_example_has_a_scenario() -> None:
    sources = " ".join(p.read_text() for p in scenario_files(rules_root() / "shadow-of-the-sun"))
    for example in ("Bolster Example", "Usurp Example", "Preen Example", "Scoring Example"):
        assert example in sources


# scenario, text in game.yaml, its broken replacement, words of the failure: the quick loop
# checks every third, the deep run the others (tests/sampling.py)
BROKEN_RULES = [
    ("scoring", "score[p] += n * min(n, 4)", "score[p] += n * min(n, 3)", "scores are"),
    ("bolster", 'count: "markers_of(p, d) + 1"', 'count: "markers_of(p, d)"', "holds"),
    # the defender who wins would replace his own marker, not the attacker's
    ("usurp", "let loser = q if w == p else p", "let loser = q", "holds"),
    (
        "struggle-tie-supreme-tied",
        "{chooser: supreme, not_self: true}",
        "{chooser: supreme, not_self: false}",
        "still open",
    ),
    # issue 16 (docs/games/shadow-of-the-sun.md): a Bonus that may be declined ...
    (
        "bonus-cannot-be-declined",
        "          - label: draw 2 cards\n",
        "          - label: no bonus\n          - label: draw 2 cards\n",
        "no decision with one legal option was taken here",
    ),
    # ... and a Masqued that strengthens a Legion like a wild card ([Ghoul, Masqued] a pair)
    (
        "masqued-not-wild-in-legions",
        'value: "pattern_rank(legion[p], legion_hierarchy)',
        'value: "pattern_rank(legion[p], legion_hierarchy)'
        " + (2 if any(c.wild for c in legion[p]) else 0)",
        "holds",
    ),
]


@pytest.mark.parametrize(("scenario", "old", "new", "message"), every_third(BROKEN_RULES))
def test_scenario_catches_a_broken_rule(
    broken_game: BrokenGame, scenario: str, old: str, new: str, message: str
) -> None:
    game_dir = broken_game("shadow-of-the-sun", old, new)
    outcome = run_scenario(game_dir / "scenarios" / f"{scenario}.yaml")
    assert not outcome.passed
    assert any(message in f for f in outcome.failures), outcome.failures


def test_malformed_scenario_is_a_positioned_error(broken_game: BrokenGame) -> None:
    game_dir = broken_game("shadow-of-the-sun", "x", "x")
    bad = game_dir / "scenarios" / "bad.yaml"
    bad.write_text("scenario: bad\nplayers: 4\ngiven:\n  zones:\n    hand[P9]: [Ghoul]\n")
    with pytest.raises(ScenarioError) as e:
        run_scenario(bad)
    assert e.value.span is not None and (e.value.span.line, e.value.span.col) == (5, 5)
    assert "unknown zone 'hand[P9]'" in str(e.value)
