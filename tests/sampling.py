"""Broad sweeps split between the two runs: the quick loop keeps a representative few cases, the
deep run (``pytest -m deep``) runs the others with the very same arguments and test, so every
fact the sweep checks is still checked, only the rarer ones in the deep run (README, "Test")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from _pytest.mark import ParameterSet


def _param(case: Any, deep: bool) -> ParameterSet:
    """``case`` (a tuple of the arguments, or a ``pytest.param``) as a ``pytest.param`` with
    the same values, id and marks, plus ``@pytest.mark.deep`` if ``deep``."""
    extra = [pytest.mark.deep] if deep else []
    if isinstance(case, ParameterSet):
        return pytest.param(*case.values, marks=[*case.marks, *extra], id=case.id)
    return pytest.param(*case, marks=extra)


def deep_unless(cases: Sequence[Any], quick: Callable[[int, Any], bool]) -> list[ParameterSet]:
    """``cases`` (tuples of arguments or ``pytest.param``s) for ``pytest.mark.parametrize``:
    those for which ``quick(index, case)`` is true run in the quick loop, the others are
    marked deep. The ids stay those pytest gives the plain cases."""
    return [_param(c, not quick(i, c)) for i, c in enumerate(cases)]


def every_third(cases: Sequence[Any]) -> list[ParameterSet]:
    """The quick loop runs cases 0, 3, 6, ...; the deep run the others."""
    return deep_unless(cases, lambda i, _: i % 3 == 0)


def first_of_each_game(cases: Sequence[tuple[Any, ...]]) -> list[ParameterSet]:
    """Cases whose first argument is a game id, grouped by game (as game_ids() x
    variant_files() lists them): the quick loop runs the first case of each game, the deep run
    the others."""
    return deep_unless(cases, lambda i, c: i == 0 or cases[i - 1][0] != c[0])
