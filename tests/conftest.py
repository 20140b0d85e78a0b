"""Shared fixtures: the shipped games, loaded once per session.

Two runs (README, "Test"): the quick loop, ``python -m pytest -q``, leaves out the tests marked
``@pytest.mark.deep`` (pyproject.toml's addopts); ``python -m pytest -q -m deep`` runs only them:
thousands of random games per game, the long differential runs, every fuzz example.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import meeple
from meeple.codegen import generate
from meeple.dsl.checker import Checked
from meeple.interpreter.game import Game
from meeple.registry import rules_root

SUN = "shadow-of-the-sun"

# No timed tests: Hypothesis's deadline and its "input generation is slow" health check measure
# time, so on a shared, loaded machine they fail tests whose facts hold (a first draw that waited
# 1.7 s for a core failed the majorities property in CI). Off for every property test.
settings.register_profile("meeple", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("meeple")


_GENERATED: dict[int, tuple[Checked, str]] = {}


def generated(checked: Checked) -> str:
    """``generate(checked)``, made once per test process for each Checked: many tests read the
    module of the same shipped game (``load_checked`` gives the same Checked while the file is
    unchanged), and generating Louis XIV's takes half a second. Tests of ``generate`` itself
    (determinism, what it runs while generating) call it directly."""
    hit = _GENERATED.get(id(checked))
    if hit is None:  # (the entry holds the Checked: no other object can take its id)
        hit = _GENERATED[id(checked)] = (checked, generate(checked))
    return hit[1]


@pytest.fixture(scope="session")
def sun4() -> Game:
    return meeple.load(SUN, players=4)


@pytest.fixture(scope="session")
def sun3() -> Game:
    return meeple.load(SUN, players=3)


BrokenGame = Callable[..., Path]


@pytest.fixture
def broken_game(tmp_path: Path) -> BrokenGame:
    """``broken_game(game_id, old, new, once=False)``: a copy of a shipped game's folder (with
    its scenarios) whose game.yaml has ``old`` replaced by ``new``, for tests that a scenario
    fails when the rule it checks is broken. ``old`` must be in the file; with ``once``, exactly
    once."""

    def make(game_id: str, old: str, new: str, once: bool = False) -> Path:
        dst = tmp_path / game_id
        shutil.copytree(rules_root() / game_id, dst)
        text = (dst / "game.yaml").read_text(encoding="utf-8")
        assert text.count(old) == 1 if once else old in text, old
        (dst / "game.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
        return dst

    return make


# what the tests of the extras import; they skip without it, except where CI requires it
EXTRAS = ("numpy", "pettingzoo", "gymnasium", "pyspiel", "distributed", "pyarrow", "flask")
BROWSER = ("playwright.sync_api",)


def pytest_configure(config: pytest.Config) -> None:
    """With MEEPLE_REQUIRE_EXTRAS=1 (set by .ci/run) a missing optional part (the ai or web
    extra, Playwright, Chromium) stops the run: CI must run the adapters' and the browser's
    tests, not pass by skipping them. A user without the extras sees those tests skipped."""
    if os.environ.get("MEEPLE_REQUIRE_EXTRAS") != "1":
        return
    missing = [m for m in EXTRAS + BROWSER if importlib.util.find_spec(m.split(".")[0]) is None]
    chromium = os.environ.get("MEEPLE_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        missing.append("chromium (Debian package)")
    if missing:
        raise pytest.UsageError(
            "MEEPLE_REQUIRE_EXTRAS=1 but these are missing: "
            + ", ".join(missing)
            + ' (pip install -e ".[dev,ai,web]"; apt-get install chromium)'
        )
