"""Data tables (issue 12 point 5): typed columns, a key, rows; read as TABLE[keys].column.

The minimal game gets a table that gives each player count and seat a starting hand size, and a
card column; both back ends play it to equal states; every misuse is refused at its line and
column; a look-up that finds no row is a rule error naming the table and the key.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.cases import BASE
from test_language_v2 import edit, play_both, refused, write

import meeple
from meeple.dsl.errors import CheckError, MeepleError, ParseError, RuleError, SchemaError
from meeple.dsl.loader import load_rules
from meeple.dsl.render import rule_texts
from meeple.rulebook import render_markdown

TABLE = """tables:
  start_hand:
    source: Setup
    columns: {players: int, seat: int, cards: int, prize: cards, open: bool, note: str}
    key: [players, seat]
    rows:
      - [2, 1, 1, coin, true, first]
      - [2, 2, 2, gem, false, second]
      - [3, 1, 1, coin, true, first]
      - [3, 2, 2, gem, false, second]
      - [3, 3, 3, crown, false, third]
"""

GAME = edit(
    BASE,
    "      - {name: Coin, count: 10, points: 1}\n"
    "      - {name: Gem, count: 6, points: 2}\n"
    "      - {name: Crown, count: 4, points: 3}\n",
    "      - {key: coin, name: Coin, count: 10, points: 1}\n"
    "      - {key: gem, name: Gem, count: 6, points: 2}\n"
    "      - {key: crown, name: Crown, count: 4, points: 3}\n",
    "tables:\n",
    TABLE + "  more:\n    source: Setup\n    columns: {prize: cards, worth: int}\n"
    "    rows: [[coin, 5], [gem, 7]]\n",
    "    - for: p in players\n      do:\n        - move 2 from deck to hand[p]\n",
    "    - for: i in 1..num_players\n      do:\n"
    "        - move start_hand[num_players, i].cards from deck to hand[i - 1]\n"
    "        - if: start_hand[num_players, i].open\n"
    "          then: ['score[i - 1] += more[start_hand[num_players, i].prize].worth']\n"
    '        - log "{start_hand[num_players, i].note} - {start_hand[num_players, 1].prize}"\n',
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)\n",
    "        - score[p] += hand_points(p) + 2 * pattern_rank(hand[p], sets)\n",
)


def test_a_table_is_read_by_key_and_column_on_both_back_ends(tmp_path: Path) -> None:
    path = write(tmp_path, GAME)
    for n in (2, 3):
        for backend in ("interpreter", "compiled"):
            st = meeple.load(str(path), n, backend=backend).new_initial_state(1)
            hands = st.to_json()
            sizes = [len(st.observation(p)["zones"][f"hand[P{p + 1}]"]) for p in range(n)]
            assert sizes == list(range(1, n + 1)), (backend, hands)
    logs = play_both(path, 3, range(4))
    assert "first - Coin" in logs[0] and "third - Coin" in logs[0]


def test_the_table_is_rendered_as_a_table(tmp_path: Path) -> None:
    game = load_rules(write(tmp_path, GAME)).game
    md = render_markdown(game, tmp_path, {})
    assert "| players | seat | cards | prize | open | note |" in md
    assert "| 3 | 3 | 3 | Crown | no | third |" in md
    assert "Looked up by players and seat: the rules read a cell as " in md
    assert "`start_hand[players, seat].cards`" in md
    texts = rule_texts(game)
    assert "key players, seat: players int, seat int, cards int" in texts["table start_hand"][1]
    assert "start_hand[num_players, i].cards" in "\n".join(texts["setup"])


def test_a_missing_row_is_a_rule_error_naming_table_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, GAME)
    for backend in ("interpreter", "compiled"):
        with pytest.raises(RuleError) as info:
            meeple.load(str(path), 4, backend=backend).new_initial_state(1)
        assert "table 'start_hand' has no row for players 4, seat 1" in str(info.value)
        assert info.value.span is not None and info.value.span.line > 0


BAD = [
    # wrong row length
    (
        ("      - [3, 3, 3, crown, false, third]\n", "      - [3, 3, 3, crown, false]\n"),
        CheckError,
        "      - |[3, 3, 3, crown, false]",
        "row 5 of table 'start_hand' has 5 values",
    ),
    # duplicate key
    (
        ("      - [3, 3, 3, crown, false, third]\n", "      - [3, 2, 3, crown, false, third]\n"),
        CheckError,
        "      - |[3, 2, 3, crown, false, third]",
        "rows 4 and 5 of table 'start_hand'",
    ),
    # a cell of the wrong type
    (
        (
            "      - [3, 3, 3, crown, false, third]\n",
            "      - [3, 3, three, crown, false, third]\n",
        ),
        CheckError,
        "three",
        "column 'cards' is int, but the value is 'three'",
    ),
    # a kind cell that names no item
    (
        ("      - [3, 3, 3, crown, false, third]\n", "      - [3, 3, 3, crwn, false, third]\n"),
        CheckError,
        "crwn",
        "'crwn' in column 'prize' is not a key of kind 'cards'",
    ),
    # a key naming no column
    (
        ("    key: [players, seat]\n", "    key: [players, chair]\n"),
        CheckError,
        "chair",
        "names column 'chair', which it does not have",
    ),
    # an unknown column type
    (
        ("open: bool, note: str}", "open: bool, note: text}"),
        CheckError,
        "note: |text}",
        "column 'note' of table 'start_hand' has unknown type 'text'",
    ),
    # a look-up of a column the table does not have
    (
        ("{start_hand[num_players, i].note}", "{start_hand[num_players, i].notes}"),
        CheckError,
        "start_hand[num_players, i].notes",
        "table 'start_hand' has no column 'notes'",
    ),
    # too few keys
    (
        ("move start_hand[num_players, i].cards", "move start_hand[num_players].cards"),
        CheckError,
        "start_hand[num_players]",
        "finds a row by 2 key(s) (players, seat), not 1",
    ),
    # a key of the wrong type
    (
        ("if: start_hand[num_players, i].open", "if: start_hand[num_players, true].open"),
        CheckError,
        "true].open",
        "the key 'seat' of table 'start_hand' has the wrong type",
    ),
    # the table's name alone
    (
        ("{start_hand[num_players, 1].prize}", "{start_hand}"),
        CheckError,
        'start_hand}"',
        "table 'start_hand' is read one cell at a time",
    ),
    # several keys on a list
    (
        ("{start_hand[num_players, 1].prize}", "{players[1, 2]}"),
        CheckError,
        "players[1, 2]",
        "only a data table takes several keys (or a list)",
    ),
]


@pytest.mark.parametrize("case", range(len(BAD)))
def test_misuse_is_refused_where_it_is(tmp_path: Path, case: int) -> None:
    pair, error, at, message = BAD[case]
    refused(tmp_path, edit(GAME, *pair), error, at, message)


def test_a_table_needs_rows_and_one_shape(tmp_path: Path) -> None:
    no_rows = edit(GAME, "    rows: [[coin, 5], [gem, 7]]\n", "")
    with pytest.raises(CheckError, match="has columns but no 'rows'"):
        load_rules(write(tmp_path, no_rows))
    both = edit(
        GAME, "    rows: [[coin, 5], [gem, 7]]\n", "    rows: [[coin, 5]]\n    patterns: []\n"
    )
    with pytest.raises(CheckError, match="has both 'columns' and 'patterns'"):
        load_rules(write(tmp_path, both))
    bad_cell = edit(GAME, "[[coin, 5], [gem, 7]]", "[[coin, 5], [gem, [7]]]")
    with pytest.raises((SchemaError, ParseError, MeepleError)):
        load_rules(write(tmp_path, bad_cell))


def test_rows_in_one_flow_list_are_placed_too(tmp_path: Path) -> None:
    flow = edit(
        GAME,
        "    rows: [[coin, 5], [gem, 7]]\n",
        "    rows: [\n      [coin, 5],\n      [gem, 7, 8]]\n",
    )
    refused(tmp_path, flow, CheckError, "|[gem, 7, 8]", "row 2 of table 'more' has 3 values")


def test_explain_reads_a_table_cell_like_any_static_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from meeple.cli import main

    text = edit(
        GAME,
        "            when: count(hand[p]) > 0\n",
        "            when: count(hand[p]) > 0 and start_hand[num_players, 2].open\n",
        "          - label: draw a card\n",
        "          - label: pass\n          - label: draw a card\n",
    )
    path = write(tmp_path, text)
    assert main(["explain", str(path), "-p", "2", "-s", "1"]) == 0
    out = capsys.readouterr().out
    assert "its condition fails: start_hand[num_players, 2].open is false" in out
    # a table is public: the seat deciding is told the value too, never "hidden"
    from meeple.explain import explain

    st = meeple.load(str(path), 2).new_initial_state(1)
    reasons = [v.reason for v in explain(st, viewer=0) if not v.legal]
    assert reasons == ["its condition fails: start_hand[num_players, 2].open is false"], reasons
