"""A data table's lookups in a generated module: ``LOOKUP[keys][column]`` (runtime/datatable).

A generated module reads a cell as a dict of the table's rows by key, a kind's cell by each card
(DataTableRT.lookup), instead of calling ``cell``: every key finds what ``cell`` finds, and a key
with no row raises ``cell``'s rule error, at the lookup. A row missing for a card names the card.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_data_tables import GAME
from test_language_v2 import edit, write

import meeple
from meeple.dsl.errors import RuleError, SourceSpan
from meeple.runtime.datatable import DataTableRT
from meeple.runtime.values import Card


def _table(cards: list[Card]) -> DataTableRT:
    rows = (("imp", "red", 1), ("imp", "blue", 2), ("elf", "red", 3))
    columns = (("card", "cards"), ("side", "str"), ("bonus", "int"))
    by_key = {c.key: c for c in reversed(cards)}
    return DataTableRT("worth", columns, ("card", "side"), rows, by_key.__getitem__, ("cards",))


def test_a_lookup_reads_what_cell_reads_and_fails_as_it_fails() -> None:
    """DataTableRT.lookup (a generated module's ``LOOKUP[keys][column]``): every card of an
    item finds its item's row, an item key in a kind's cell too, and a key with no row, a card
    of an item without rows among them, raises cell's rule error at the lookup's span."""
    keys = "imp imp elf orc".split()
    cards = [Card(i, "cards", k, k.title(), None, i, {}) for i, k in enumerate(keys)]
    span = SourceSpan("game.yaml", 3, 4, 3, 9)
    table = _table(cards)
    lookup = table.lookup(cards, span)
    asked: list[tuple[object, ...]] = [
        (c, side) for c in [*cards, "imp", "elf", "orc", 7] for side in ("red", "blue", "green")
    ]
    for key in asked:
        try:
            expected = table.cell(key, 2, span)
        except RuleError as e:
            with pytest.raises(RuleError) as got:
                lookup[key][2]
            assert str(got.value) == str(e) and got.value.span == span
        else:
            assert lookup[key][2] == expected
    assert lookup[(cards[1], "blue")][2] == 2 and lookup[(cards[2], "red")][2] == 3
    with pytest.raises(RuleError, match="table 'worth' has no row for card Orc, side red"):
        lookup[(cards[3], "red")]


def test_a_row_missing_for_a_card_names_the_card_on_both_back_ends(tmp_path: Path) -> None:
    """``more`` has rows for coins and gems only: reading it for the Crown (seat 3's prize) is
    the rule error naming the table and the card, at the lookup, on both back ends."""
    text = edit(
        GAME,
        "          then: ['score[i - 1] += more[start_hand[num_players, i].prize].worth']\n",
        "          then: ['score[i - 1] += 1']\n"
        "        - score[i - 1] += more[start_hand[num_players, i].prize].worth\n",
    )
    path = write(tmp_path, text)
    errors = []
    for backend in ("interpreter", "compiled"):
        with pytest.raises(RuleError) as info:
            meeple.load(str(path), 3, backend=backend).new_initial_state(1)
        errors.append(info.value)
    assert "table 'more' has no row for prize Crown" in str(errors[0])
    assert str(errors[0]) == str(errors[1]) and errors[0].span == errors[1].span
