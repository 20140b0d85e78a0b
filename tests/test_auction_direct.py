"""An open auction's bidding written as one loop in direct code (codegen/auction.py): playouts
through it are the interpreter's API games, for each part the loop writes its own way (the
lowest bid from MIN and INC, the bids counted instead of listed, MEANS asked once per seat only
where the bidding cannot change it, a bid out of the site's range), and Sonnenkönig's module
uses it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import generated
from test_auction import game
from test_language_v2 import write
from test_playout import Recorder, playouts_are_api_games

import meeple
from meeple.api import load_checked
from meeple.codegen.emitter import generate
from meeple.dsl.errors import RuleError

#: the loop's memo of MEANS, a line of the generated module
MEMO = "MEANS of each seat"


def _module(path: Path) -> str:
    return generate(load_checked(str(path)))


CASES = {
    "plain": ("", "gold[p]", True),
    # the lowest bid: MIN first, then the high bid plus INC
    "min-and-increment": ("        min_bid: 2\n        increment: 2\n", "gold[p]", True),
    # MEANS reads the high bid: asked again at each turn (no memo), the range shrinks (never
    # below 0: negative means are a rule error, dsl/auction_values.py)
    "means-reads-the-high-bid": ("", "max(0, gold[p] - _auction1_high // 2)", False),
}


@pytest.mark.parametrize(("extra", "means", "memo"), CASES.values(), ids=CASES.keys())
def test_open_auction_playouts_are_api_games(
    tmp_path: Path, extra: str, means: str, memo: bool
) -> None:
    path = write(tmp_path, game("open", extra).replace("means: gold[p]", f"means: {means}"))
    assert (MEMO in _module(path)) == memo  # the memo only where the bidding cannot change it
    for players in (2, 3):  # (4 players may empty the deck of 20 cards)
        _, log = playouts_are_api_games(path, players, range(12))
        assert any(" bids " in line for line in log)
        assert any("buys for" in line for line in log)


def test_a_bid_beyond_most_fails_in_a_playout_as_in_the_api_game(tmp_path: Path) -> None:
    path = write(tmp_path, game("open", most="        most: 3\n"))
    compiled = meeple.load(str(path), 2, backend="compiled")
    interpreter = meeple.load(str(path), 2, backend="interpreter")
    rec = Recorder(0)
    with pytest.raises(RuleError) as played:
        compiled.playout(0, rec)
    assert "beyond the auction's 'most'" in str(played.value)
    for g in (interpreter, compiled):
        api = g.new_initial_state(0, record_log=False)
        with pytest.raises(RuleError) as applied:
            for _, i in rec.taken:
                assert api.pending is not None
                api.apply_action(api.pending.actions[i])
            while api.pending is not None:  # the failing decision is the next one offered
                api.apply_action(api.pending.actions[0])
        assert str(applied.value) == str(played.value)
        assert applied.value.span == played.value.span


def test_sonnenkoenigs_auction_is_written_as_one_loop() -> None:
    code = generated(load_checked("sonnenkoenig"))
    assert MEMO in code  # can_pay reads no hidden variable: asked once per seat
    bidding = code[code.index(MEMO) : code.index("env['w'] = st.vars['_auction1_leader']")]
    assert "gone(" not in bidding and "list(" not in bidding
    assert "st.vars['_auction1_high'] +" not in bidding  # the high bid read from its local
