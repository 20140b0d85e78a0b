"""The Legion hierarchy (rulebook, "Legion Hierarchy"): all ten patterns in order."""

from __future__ import annotations

import pytest

from meeple.interpreter.game import Game

# (hand, rank) from the rulebook's list, weakest first
CASES = [
    (["Ghoul", "Darkened"], 1),
    (["Ghoul", "Darkened", "Courtesan"], 2),
    (["Ghoul", "Ghoul"], 3),
    (["Ghoul", "Ghoul", "Darkened"], 4),
    (["Ghoul", "Darkened", "Courtesan", "Alchemist"], 5),
    (["Ghoul", "Ghoul", "Darkened", "Courtesan"], 6),
    (["Ghoul", "Ghoul", "Darkened", "Darkened"], 7),
    (["Ghoul", "Ghoul", "Ghoul"], 8),
    (["Ghoul", "Ghoul", "Ghoul", "Alchemist"], 9),
    (["Ghoul", "Ghoul", "Ghoul", "Ghoul"], 10),
    # Masqued is its own minion in a Legion, not wild (docs/games: masqued-in-legions)
    (["Masqued", "Ghoul"], 1),
    (["Masqued", "Masqued"], 3),
    ([], 0),
]


def _cards(game: Game, names: list[str]) -> list:
    pool = list(game.program.kind_cards["minions"])
    out = []
    for n in names:
        c = next(c for c in pool if c.name == n)
        pool.remove(c)
        out.append(c)
    return out


@pytest.mark.parametrize(("names", "rank"), CASES)
def test_pattern_rank(sun4: Game, names: list[str], rank: int) -> None:
    table = sun4.program.pattern_tables["legion_hierarchy"]
    assert table.rank(_cards(sun4, names)) == rank


def test_ranks_are_a_strict_order(sun4: Game) -> None:
    table = sun4.program.pattern_tables["legion_hierarchy"]
    ranks = [table.rank(_cards(sun4, n)) for n, _ in CASES[:10]]
    assert ranks == sorted(ranks) and len(set(ranks)) == 10
