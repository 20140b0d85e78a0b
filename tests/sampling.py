"""Broad sweeps split between the two runs: the quick loop keeps a representative few cases, the
deep run (``pytest -m deep``) runs the others with the very same arguments and test, so every
fact the sweep checks is still checked, only the rarer ones in the deep run (README, "Test")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from _pytest.mark import ParameterSet
from hypothesis import given, settings


def deep_unless(
    cases: Sequence[tuple[Any, ...]], quick: Callable[[int, tuple[Any, ...]], bool]
) -> list[ParameterSet]:
    """``cases`` (tuples of arguments) for ``pytest.mark.parametrize``: those for which
    ``quick(index, case)`` is true run in the quick loop, the others are marked deep. The ids
    stay those pytest gives the plain tuples."""
    return [
        pytest.param(*c, marks=[] if quick(i, c) else [pytest.mark.deep])
        for i, c in enumerate(cases)
    ]


def every_third(cases: Sequence[tuple[Any, ...]]) -> list[ParameterSet]:
    """The quick loop runs cases 0, 3, 6, ...; the deep run the others."""
    return deep_unless(cases, lambda i, _: i % 3 == 0)


def first_of_each_game(cases: Sequence[tuple[Any, ...]]) -> list[ParameterSet]:
    """Cases whose first argument is a game id, grouped by game (as game_ids() x
    variant_files() lists them): the quick loop runs the first case of each game, the deep run
    the others."""
    return deep_unless(cases, lambda i, c: i == 0 or cases[i - 1][0] != c[0])


def fewer_examples(
    body: Callable[..., None], quick: int, deep: int, derandomize: bool = True, **strategies: Any
) -> tuple[Callable[..., None], Callable[..., None]]:
    """A property test in two sizes: ``body`` given ``strategies`` (Hypothesis, no deadline,
    ``derandomize`` as given), as (the quick loop's test with ``quick`` examples, the deep
    run's with ``deep``, marked deep). Bind both to ``test_`` names; the deep one is the
    full-size test."""

    def sized(n: int) -> Callable[..., None]:
        chosen = settings(max_examples=n, deadline=None, derandomize=derandomize)
        return chosen(given(**strategies)(body))

    return sized(quick), pytest.mark.deep(sized(deep))


def alternate_backends(
    cases: Sequence[tuple[Any, ...]], backends: Sequence[str] = ("interpreter", "compiled")
) -> list[ParameterSet]:
    """Each case on each of the two back ends, as ``(*case, backend)``: the quick loop runs the
    cases on the back ends alternately (case 0 on the first, case 1 on the second, ...), the
    deep run each on the other one. Ids as two stacked parametrizes give: "<case>-<backend>"."""
    runs = [(*c, b) for c in cases for b in backends]
    return deep_unless(runs, lambda i, _: (i // 2 + i % 2) % 2 == 0)
