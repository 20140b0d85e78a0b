"""The front end's numbering (dsl/numbering.py): op uids, action sites and how frames stack,
given out from the IR alone. The interpreter's Program takes them from it while it compiles
the game in its own order, so here that order must be the numbering's, op by op and site by
site; the frame structure must be the one runtime/state.py derives from the ops; and the
code generator must never build a Program to learn any of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_auction import KEYS, game
from test_language_v2 import write

from meeple.api import load_checked
from meeple.codegen import generate
from meeple.dsl import ir
from meeple.dsl.checker import Checked
from meeple.dsl.errors import MeepleError
from meeple.dsl.loader import load_rules
from meeple.dsl.numbering import number
from meeple.interpreter.program import Program
from meeple.runtime.layout import site_size
from meeple.runtime.state import frame_structure

ROOT = Path(__file__).parent
GAMES = sorted(
    [*(ROOT.parent / "rules").glob("*/game.yaml"), *(ROOT / "fixtures").glob("*/game.yaml")]
)


def _auction_games(tmp: Path) -> list[Path]:
    out = []
    for kind in KEYS:
        folder = tmp / kind
        folder.mkdir()
        out.append(write(folder, game(kind)))
    return out


def _checked(tmp_path: Path, part: str) -> list[Checked]:
    """The games of ``part``: "quick" every shipped game and every third other, "rest" the
    others."""
    # the shipped games through the process's cache (load_checked: load_rules once per file
    # and mtime), which most other tests of this worker have filled already
    shipped = ROOT.parent / "rules"
    paths = [*GAMES, *_auction_games(tmp_path)]
    quick = [p.is_relative_to(shipped) or i % 3 == 0 for i, p in enumerate(paths)]
    paths = [p for p, q in zip(paths, quick, strict=True) if q == (part == "quick")]
    return [load_checked(str(p)) if p.is_relative_to(shipped) else load_rules(p) for p in paths]


# the two tests below check the quick loop's games there, and the other games in the deep run
PARTS = ["quick", pytest.param("rest", marks=pytest.mark.deep)]


def test_the_shipped_games_are_all_here() -> None:
    names = {p.parent.name for p in GAMES}
    assert {"shadow-of-the-sun", "louis-xiv", "sonnenkoenig", "minimal"} <= names


def _compiled_in_order(
    monkeypatch: pytest.MonkeyPatch, checked: Checked, players: int
) -> tuple[Program, list[int], list[Any]]:
    """A Program, with the uids in the order it registered its ops and its sites in the order
    it made them."""
    uids: list[int] = []
    sites: list[Any] = []
    register, site = Program._register, Program._site

    def recording_register(self: Program, op: Any, node: Any) -> Any:
        out = register(self, op, node)
        uids.append(out.uid)
        return out

    def recording_site(self: Program, node: Any) -> Any:
        out = site(self, node)
        sites.append(out)
        return out

    with monkeypatch.context() as m:
        m.setattr(Program, "_register", recording_register)
        m.setattr(Program, "_site", recording_site)
        prog = Program(checked, players)
    return prog, uids, sites


@pytest.mark.parametrize("part", PARTS)
def test_the_numbering_is_the_order_the_interpreter_compiles_in_and_numbers_every_node(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, part: str
) -> None:
    for checked in _checked(tmp_path, part):
        g = checked.game
        for players in range(g.players_min, g.players_max + 1):
            num = number(checked, players)
            prog, uids, sites = _compiled_in_order(monkeypatch, checked, players)
            where = f"{g.id}, {players} players"
            # each op registered once, in the numbering's order: uid k is the k-th compiled
            assert uids == list(range(num.num_ops)), where
            assert len(prog.ops) == num.num_ops, where
            for uid, node in enumerate(num.nodes):
                assert prog.op_of[id(node)] is prog.ops[uid], where
                assert prog.ops[uid].uid == uid, where
            # sites made in the numbering's order, with its domains and consecutive action ids
            assert [s.index for s in sites] == list(range(len(num.site_domains))), where
            assert tuple(s.domain for s in sites) == num.site_domains, where
            base = 0
            for s in sites:
                assert s.base == base, where
                base += site_size(s.domain, prog.num_card_types, g.players_max)
            assert base == num.num_distinct_actions == prog.num_distinct_actions, where
            # the frame structure, from the IR, is the one derived from the compiled ops
            parents, fresh = frame_structure(prog)
            assert dict(num.frame_parents) == parents, where
            assert num.fresh_frames == fresh, where
            # every statement and block has a uid, no node twice (checked here, on the games
            # this test has loaded already: loading them all costs more than the checks)
            assert len(set(map(id, num.nodes))) == num.num_ops, where
            for node in num.nodes:
                assert isinstance(node, (ir.Stmt, ir.Block)), where
            for b in (g.setup, g.play, g.scoring, *(p.body for p in g.procedures.values())):
                assert num.uid(b) >= 0, where


@pytest.mark.parametrize("part", PARTS)
def test_the_code_generator_never_builds_a_program(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, part: str
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the code generator built an interpreter Program")

    checked = _checked(tmp_path, part)
    monkeypatch.setattr(Program, "__init__", refuse)
    for c in checked:
        assert "def build(num_players, files):" in generate(c)


def test_an_auction_most_that_needs_a_game_in_play_is_refused(tmp_path: Path) -> None:
    text = game("open", most="        most: 3 * num_players\n")
    checked = load_rules(write(tmp_path, text))
    with pytest.raises(MeepleError, match="computable from the components and constants alone"):
        number(checked, 2)


def test_an_auction_most_reads_components_constants_and_functions(tmp_path: Path) -> None:
    most = (
        "        most: 4 * count(cards) + sum(c * 2 for c in [1, 2, 3] if c > 1)"
        " + card('cards_2').points + max(x.points for x in cards)\n"
    )
    checked = load_rules(write(tmp_path, game("open", most=most)))
    num = number(checked, 2)
    cards = len(Program(checked, 2).kind_cards["cards"])
    assert f"int:{4 * cards + 10 + 3 + 3 + 1}" in num.site_domains


@pytest.mark.parametrize("most", ["count(deck)", "count(players)", "pattern_rank(cards, sets)"])
def test_an_auction_most_that_reads_a_zone_or_the_seats_is_refused(
    tmp_path: Path, most: str
) -> None:
    checked = load_rules(write(tmp_path, game("open", most=f"        most: {most}\n")))
    with pytest.raises(MeepleError, match="computable from the components and constants alone"):
        number(checked, 2)


def test_a_runaway_range_in_most_is_refused_not_built(tmp_path: Path) -> None:
    most = "        most: count(1..999999999)\n"
    checked = load_rules(write(tmp_path, game("open", most=most)))
    with pytest.raises(MeepleError, match="more than 10000 numbers"):
        number(checked, 2)
