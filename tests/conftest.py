"""Shared fixtures: the shipped games, loaded once per session."""

from __future__ import annotations

import pytest

import meeple
from meeple.interpreter.game import Game

SUN = "shadow-of-the-sun"


@pytest.fixture(scope="session")
def sun4() -> Game:
    return meeple.load(SUN, players=4)


@pytest.fixture(scope="session")
def sun3() -> Game:
    return meeple.load(SUN, players=3)
