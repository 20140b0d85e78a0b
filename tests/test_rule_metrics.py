"""The shipped games stay flat (issue 12: no rule nested more than 6 statement levels deep), and
the yardstick measures what it says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from hostile.cases import nested_ifs

from meeple.registry import rules_root

_SPEC = importlib.util.spec_from_file_location(
    "rule_metrics", Path(__file__).parents[1] / "tools" / "rule_metrics.py"
)
assert _SPEC and _SPEC.loader
rule_metrics = importlib.util.module_from_spec(_SPEC)
sys.modules["rule_metrics"] = rule_metrics
_SPEC.loader.exec_module(rule_metrics)

GAMES = sorted(p.name for p in rules_root().iterdir() if (p / "game.yaml").exists())


@pytest.mark.parametrize("game", GAMES)
def test_no_rule_nests_more_than_six_levels(game: str) -> None:
    _, _, _, depth, where = rule_metrics.metrics(rules_root() / game)
    assert depth <= 6, f"{game}: {where} nests {depth} statement levels"


@pytest.mark.parametrize("levels", [0, 1, 5])
def test_nesting_counts_every_block_level(tmp_path: Path, levels: int) -> None:
    # the minimal game's `round += 1` sits in the play's repeat body (level 2); each `if` around
    # it is one level more
    (tmp_path / "game.yaml").write_text(nested_ifs(levels), encoding="utf-8")
    _, _, _, depth, where = rule_metrics.metrics(tmp_path)
    assert (depth, where) == (max(3, 2 + levels), "play")
