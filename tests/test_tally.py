"""Owner counts kept up to date in playouts (codegen/tally.py, runtime/tally.py).

Shadow of the Sun and Louis XIV count a district's markers by owner (``markers_of``); their
direct code reads those counts from a table that its moves keep up to date and that anything
else moving cards drops. Every playout must be the interpreter's game for the same choices:
a table one move out of date changes a count, an option, and the game. The shipped games move
markers every way the table must follow (written-out moves, a procedure run as a function, a
card found by ``first``, whole piles), from new games and from states saved half way.
"""

from __future__ import annotations

import random
import re

import pytest
from conftest import generated
from test_playout import FIXTURES, Recorder, random_moves, replay

import meeple
from meeple.api import load_checked
from meeple.codegen.emitter import generate
from meeple.codegen.tally import KEPT, drops
from meeple.dsl.errors import MeepleError

TALLIED = ("shadow-of-the-sun", "louis-xiv")


# the quick loop plays the first 10 playouts from new games and 4 from states half way, the
# deep run the other 20 and 6
@pytest.mark.parametrize(
    ("new", "halfway"),
    [(range(10), range(4)), pytest.param(range(10, 30), range(4, 10), marks=pytest.mark.deep)],
    ids=["quick", "deep"],
)
@pytest.mark.parametrize("game_id", TALLIED)
@pytest.mark.parametrize("players", [3, 4])
def test_playouts_are_the_interpreters_games(
    game_id: str, players: int, new: range, halfway: range
) -> None:
    """30 playouts from new games and 10 from states half way (saved and resumed), split
    between the two runs, each the interpreter's API game for the same choices, state for
    state at the end."""
    compiled = meeple.load(game_id, players, backend="compiled")
    interpreter = meeple.load(game_id, players, backend="interpreter")
    for seed in new:
        rec = Recorder(seed)
        final = compiled.playout(seed, rec)
        api = interpreter.new_initial_state(seed, record_log=False)
        replay(api, rec.taken)
        assert final.to_json() == api.to_json(), seed
    for seed in halfway:
        half = compiled.new_initial_state(seed, record_log=False)
        random_moves(half, random.Random(seed), 60)
        api = interpreter.state_from_json(half.to_json(), record_log=False)
        rec = Recorder(seed + 100)
        half.playout(rec)
        replay(api, rec.taken)
        assert half.to_json() == api.to_json(), seed


def test_interleaved_playouts_keep_their_own_counts() -> None:
    """A chooser that plays another game out at each decision: the table of the first game is
    dropped (only one is kept) and counted again, never read for the wrong state."""
    compiled = meeple.load("shadow-of-the-sun", 4, backend="compiled")
    interpreter = meeple.load("shadow-of-the-sun", 4, backend="interpreter")
    inner = iter(range(1000, 2000))
    rec = Recorder(7)

    def nested(n: int) -> int:
        compiled.playout(next(inner)) if len(rec.taken) % 40 == 0 else None
        return rec(n)

    final = compiled.playout(7, nested)
    api = interpreter.new_initial_state(7, record_log=False)
    replay(api, rec.taken)
    assert final.to_json() == api.to_json()


def test_the_direct_code_reads_the_table() -> None:
    """Sun's direct code reads markers_of from the table (not a scan), and is entered from the
    run loop through wrappers that drop it; a game that counts no pile by owner has neither."""
    text = generated(load_checked("rules/shadow-of-the-sun/game.yaml"))
    assert "((_TD.get(st) or tally_of(st))[(Z_markers_on1 + " in text
    assert "P.resume = {0: r_0," in text
    harbour = generated(load_checked("rules/harbour-guilds/game.yaml"))
    assert "tally_of" not in harbour and "_TD" not in harbour


def test_drops_follow_whatever_may_move_cards() -> None:
    """``drops`` clears the table after a call that may move cards (a procedure, State's moves,
    an op, run_to), not after a pure helper or a move marked kept; it refuses a block header."""
    lines = [
        "    proc_return_marker(st, _args1)",
        "    st.move(_c1, _d1, False)",
        "    o64.exec(st, env)",
        "    run_to(st, _h1)",
        "    _v = [x for x in st.players if seat(st, x, S[1]) > len(st.zones[x])]",
        f"    move_cards(st, st.zones[3], 4, False)  {KEPT}",
        "    _i = st.choose(_n)",
        "    _t = (_TD.get(st) or tally_of(st))[4][_p]",
    ]
    out = drops(lines)
    cleared = [out[i - 1] for i, line in enumerate(out) if line.strip().startswith("_TD.clear")]
    assert cleared == lines[:4]
    with pytest.raises(MeepleError, match="cannot keep owner counts"):
        drops(["    for c in move_cards(st, x, 1, False):"])


FIXTURE = FIXTURES / "tally" / "game.yaml"


def test_every_move_of_the_fixture_keeps_the_counts() -> None:
    """tests/fixtures/tally moves pawns every way between counts by owner (a top card, a card
    found by ``first``, ``move N from``, a whole pile, a pick, a pick of one: codegen/pickone,
    a procedure run as a function); 60 playouts, each the interpreter's API game for the same
    choices, and between them every option is taken. Its direct code reads the counts from the
    table with a seat, a checked parameter and a local of any value (tested, scanned when it is
    no seat)."""
    compiled = meeple.load(str(FIXTURE), 3, backend="compiled")
    interpreter = meeple.load(str(FIXTURE), 3, backend="interpreter")
    taken: set[str] = set()
    for seed in range(60):
        rec = Recorder(seed)
        final = compiled.playout(seed, rec)
        api = interpreter.new_initial_state(seed)
        for n, i in rec.taken:
            d = api.pending
            assert d is not None and len(d.actions) == n
            taken.add(api.action_to_string(d.actions[i]).split(" -> ")[-1].split()[0])
            api.apply_action(d.actions[i])
        assert final.to_json()["zones"] == api.to_json()["zones"], seed
        assert final.returns() == api.returns(), seed
    wanted = {"place", "pour", "bounce", "shift", "sweep", "stash", "return", "cheer", "pass"}
    assert taken >= wanted, taken
    text = generate(load_checked(str(FIXTURE)))
    assert "((_TD.get(st) or tally_of(st))[(Z_at1 + " in text
    assert re.search(r"tally_zone\(st, \(Z_at1 \+ _s\d+\.ordinal\)\)\)\[_w\d+\] if type", text)
