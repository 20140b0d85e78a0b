"""Shared fixtures: the shipped games, loaded once per session."""

from __future__ import annotations

import os

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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--deep",
        action="store_true",
        help="the long differential run: 10,000 games per game on both back ends",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--deep"):
        os.environ["MEEPLE_DEEP"] = "1"
