"""Numbered items (issue 12 point 6): ``{name: "Property {n}", value: n, for: n in 1..30}``.

One item line stands for a run of items; the minimal game's coins become numbered, both back
ends play it alike, and every misuse is refused at its line and column.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.cases import BASE
from test_language_v2 import edit, play_both, refused, write

from meeple.dsl.errors import CheckError, ParseError, SchemaError
from meeple.dsl.loader import load_rules

LINE = "      - {name: Coin, count: 10, points: 1}\n"
GAME = edit(
    BASE,
    LINE,
    '      - {key: "coin{n}", name: "Coin {n}", points: "2 * n - 1", count: 2, for: n in 1..5}\n'
    '      - {name: "Shell {n + 10}", points: n // 2 + low, for: "n in 1..top"}\n',
    "zones:\n",
    "constants:\n  low: {value: 1, source: Components}\n  top: {value: 3, source: Components}\n\n"
    "zones:\n",
)


def test_a_numbered_line_is_one_item_per_number(tmp_path: Path) -> None:
    items = load_rules(write(tmp_path, GAME)).game.kinds["cards"].items
    coins = [(i.key, i.name, i.props["points"], i.count) for i in items[:5]]
    assert coins == [(f"coin{n}", f"Coin {n}", 2 * n - 1, 2) for n in range(1, 6)]
    shells = [(i.key, i.name, i.props["points"]) for i in items[5:8]]
    # without a key, an item's key counts the items as laid out, not the lines
    assert shells == [(f"cards_{4 + n}", f"Shell {n + 10}", n // 2 + 1) for n in range(1, 4)]
    assert [i.name for i in items[8:]] == ["Gem", "Crown"]


def test_numbered_items_play_alike_on_both_back_ends(tmp_path: Path) -> None:
    logs = play_both(write(tmp_path, GAME), 2, range(3))
    assert any("Coin" in line or "Shell" in line for log in logs for line in log)


BAD = [
    # not NAME in A..B
    ("for: n in 1..5}", "for: n from 1 to 5}", ParseError, "from 1 to 5", "unexpected 'from'"),
    ("for: n in 1..5}", 'for: "n in [1, 2]"}', CheckError, '"n in [1, 2]"', "must read 'NAME in"),
    # an empty range, and one too long
    ("for: n in 1..5}", "for: n in 5..1}", CheckError, "5..1", "are none"),
    ("for: n in 1..5}", "for: n in 1..5000}", CheckError, "1..5000", "more than 1000"),
    # something other than arithmetic
    ('points: "2 * n - 1"', 'points: "count(deck)"', CheckError, "count(deck)", "whole numbers"),
    ('"Shell {n + 10}"', '"Shell {hand}"', CheckError, "hand}", "whole numbers"),
    # a filled key that is no name
    ('key: "coin{n}"', 'key: "coin-{n}"', CheckError, '"coin-{n}"', "key 'coin-1', which is not"),
    ('key: "coin{n}"', 'key: "{n}coin"', CheckError, '"{n}coin"', "not a name"),
    # a key with a hole on a line without 'for'
    (
        "      - {name: Gem, count: 6, points: 2}",
        '      - {key: "gem{n}", name: Gem, count: 6, points: 2}',
        SchemaError,
        '"gem{n}", name: Gem',
        "'gem{n}' is not a valid name",
    ),
]


@pytest.mark.parametrize("case", range(len(BAD)))
def test_misuse_is_refused_where_it_is(tmp_path: Path, case: int) -> None:
    old, new, error, at, message = BAD[case]
    refused(tmp_path, edit(GAME, old, new), error, at, message)
