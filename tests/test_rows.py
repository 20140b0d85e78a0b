"""This round's specializations of the generated code, on tests/fixtures/rows:

- a move to ``(row[p] if COND else display)`` takes the index of the branch taken
  (codegen/zoneindex.py);
- a loop over seats while seats are eliminated skips them with the test written out
  (codegen/loopseats.py);
- ``p in lead(col)``, a majority of a seat's tiles of a colour, is counted by the runtime
  (codegen/majority_counts.py, runtime/majority_counts.py);
- an option over ``1..count(purse[p])`` checks only the range's ends (codegen/numbers.py);
- ``top_tiles(p)``, the top tile of each colour of a row, is one pass, and ``is_top(c, p)``
  asked of a purse's and a row's cards one by one scans the row once (codegen/tops.py,
  runtime/tops.py);
- a new State copies the start piles laid out once per Program (Layout.start_piles).

Every playout of the compiled fixture is the interpreter's API game (and the compiled one) for
the same choices; the generated module uses each specialized form; edits of the rules that make
each specialized value fail (a coin, which has no colour, in a row; a range below 0 or past the
site's numbers; a destination that is no zone) fail with the interpreter's error at its place.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import generated
from test_playout import FIXTURES, Recorder, playouts_are_api_games

import meeple
from meeple.api import load_checked
from meeple.dsl.errors import RuleError

ROWS = FIXTURES / "rows" / "game.yaml"

#: What the interpreter's games of the fixture must show between them, per player count.
SHAPES = (
    r"Your turn -> drop ",
    r"Your turn -> hand over .* tile",
    r"Your turn -> hand over Coin",
    r"Your turn -> score Red",
    r"Your turn -> score Blue",
    r"Give coins back -> give [2-9]",
    r"P\d is eliminated",
)


def _games(rules: Path, players: int) -> tuple[meeple.Game, meeple.Game]:
    return (
        meeple.load(str(rules), players, backend="compiled"),
        meeple.load(str(rules), players, backend="interpreter"),
    )


@pytest.mark.parametrize("players", [3, 4])
def test_every_playout_is_the_interpreters_game(players: int) -> None:
    """40 playouts of the compiled fixture per player count, each the interpreter's API game
    (and the compiled one) for the same choices, state for state at the end; between them the
    games take each option, fill a row (a draw goes to the display) and eliminate seats."""
    finals, log = playouts_are_api_games(ROWS, players, range(40))
    full = sum(bool(f.zones[f.prog.zone_base["display"]]) for f in finals)
    for shape in SHAPES:
        assert any(re.search(shape, line) for line in log), shape
    assert full > 0, "no row was ever full: the second branch of the move was never taken"


def _code() -> str:
    return generated(load_checked(str(ROWS)))


def test_the_generated_module_uses_each_specialized_form() -> None:
    """The playouts' code and the API's code use each form (so the test above plays them)."""
    code = _code()
    assert "tops_by(st.zones[(Z_row1 + " in code
    assert "or is_top_by(v_c, st.zones[(Z_row1 + " in code
    assert code.count("majority_has_card(st, ") >= 2  # (a colour is a card: codegen/cardeq)
    assert re.search(r"= \(\(Z_row1 \+ .*\) if \(len\(.*\) < 2\) else Z_display1\)", code)
    assert "st.zone_index(" not in code
    assert re.search(r"if \(_live\d+ >> _q\d+\) & 1 and _q\d+ not in st\.players:", code)
    assert re.search(r"for (_p\d+) in list\(st\.players\):\n +if \1 not in st\.players:", code)
    assert "gone(st, " not in code
    assert re.search(r"if (_v\d+) and not \(0 <= \1\[0\] and \1\[-1\] < 64\):", code)


def _first_failure(rules: Path, players: int = 3) -> RuleError:
    """A playout of ``rules`` fails; the API games of the same choices, on both back ends,
    fail with the same error at the same place, in the same rules functions. Returns it."""
    compiled, interpreter = _games(rules, players)
    for seed in range(40):
        rec = Recorder(seed)
        try:
            compiled.playout(seed, rec)
        except RuleError as e:
            played = e
            break
    else:
        raise AssertionError("no playout failed")
    for game in (interpreter, compiled):
        with pytest.raises(RuleError) as applied:
            api = game.new_initial_state(seed, record_log=False)
            for _, i in rec.taken:
                assert api.pending is not None
                api.apply_action(api.pending.actions[i])
        assert str(applied.value) == str(played)
        assert played.span == applied.value.span
        assert played.trace == applied.value.trace
    return played


def edited(fixture: Path, tmp_path: Path, *edits: tuple[str, str]) -> Path:
    """``fixture`` (a rules file) with each ``(old, new)`` replaced, as tmp_path/game.yaml."""
    text = fixture.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _edit(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    return edited(ROWS, tmp_path, *edits)


COIN_IN_ROW = (
    'do: ["move 3 from bank to purse[p]"]',
    'do: ["move 3 from bank to purse[p]", "move 1 from bank to row[p]"]',
)


DROP = """          - label: drop {c}
            for: c in top_tiles(p)
            do: [move c to bin]
"""
SCORE = """          - label: score {col}
            for: col in palette
            when: col.bright and p in lead(col)
            do: ["score[p] += 2", "raid(p)"]
"""
HAND_OVER = """          - label: hand over {c}
            for: c in purse[p] + row[p]
            when: can_give(c, p) and count(row[p]) > 1
            do: [move c to bin]
"""


def test_a_tile_row_with_a_coin_fails_in_the_top_tiles(tmp_path: Path) -> None:
    """A coin has no colour: ``top_tiles(p)`` of a row holding one fails as the interpreter's
    comprehension does (tops_by reads every card's colour)."""
    failed = _first_failure(_edit(tmp_path, COIN_IN_ROW))
    assert "no such property (colour)" in str(failed)
    assert failed.trace[-1].startswith("function top_tiles ")


def test_a_tile_row_with_a_coin_fails_in_the_majority(tmp_path: Path) -> None:
    """Without the top tiles, the first read of a row's colours is the majority's count."""
    path = _edit(
        tmp_path,
        COIN_IN_ROW,
        (DROP, ""),
        (HAND_OVER, ""),
        ("count(top_tiles(q))", "count(row[q])"),
    )
    assert "top_tiles(p)" not in path.read_text(encoding="utf-8")
    failed = _first_failure(path)
    assert "no such property (colour)" in str(failed)


def test_a_tile_row_with_a_coin_fails_in_a_top_tile_test(tmp_path: Path) -> None:
    """Without the top tiles and the majority, the first read of a row's colours is
    ``is_top(c, p)`` of the cards handed over, one by one (is_top_by's scan of the row, kept
    for the next card)."""
    edits = (DROP, ""), (SCORE, ""), ("count(top_tiles(q))", "count(row[q])")
    path = _edit(tmp_path, COIN_IN_ROW, *edits)
    failed = _first_failure(path)
    assert "no such property (colour)" in str(failed)
    assert failed.trace[-1].startswith("function can_give ")


@pytest.mark.parametrize(
    "bounds", ["(count(purse[p]) - 4)..count(purse[p])", "1..(count(purse[p]) + 61)"]
)
def test_a_range_past_the_sites_numbers_fails_at_its_first_number(
    tmp_path: Path, bounds: str
) -> None:
    """An offered number below 0 or past the site's 64 numbers: the same error as the
    interpreter's check of each number."""
    _first_failure(_edit(tmp_path, ("1..count(purse[p])", bounds)))


def test_a_destination_that_is_no_zone_fails_when_its_branch_is_taken(tmp_path: Path) -> None:
    """``display + bin`` is a computed list, not a zone: the move fails once a row is full (the
    branch taken), with the interpreter's error."""
    _first_failure(_edit(tmp_path, ("else display)", "else display + bin)")))


def test_new_states_copy_the_start_piles() -> None:
    """Two new states of one game start from the same piles and share none: playing one out
    leaves the other as new, and a third is laid out as the first was."""
    for backend in ("compiled", "interpreter"):
        game = meeple.load(str(ROWS), 3, backend=backend)
        a = game.new_initial_state(5, record_log=False)
        b = game.new_initial_state(5, record_log=False)
        before = b.to_json()
        a.playout(Recorder(5))
        assert b.to_json() == before
        assert game.new_initial_state(5, record_log=False).to_json() == before
        game.playout(7)
        assert game.new_initial_state(5, record_log=False).to_json() == before
