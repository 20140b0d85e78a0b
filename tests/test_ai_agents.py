"""meeple.ai agents and ``meeple arena``: seeded, legal, blind to what their seat cannot see."""

from __future__ import annotations

import random

import pytest

import meeple
from meeple.cli import main

ai = pytest.importorskip("meeple.ai")
from meeple.ai.agents import make_agent  # noqa: E402
from meeple.ai.arena import arena, wilson_interval  # noqa: E402

SUN = "shadow-of-the-sun"


def _swap_hidden(s: meeple.api.State) -> meeple.api.State:
    """A copy of ``s`` where a card of P2's hand and a different card of the deck (both
    hidden from P1) have changed places: P1 cannot tell it from ``s``."""
    t = s.clone()
    t.own_all_piles()  # (the piles are changed in place below: not those shared with s)
    hand2, deck = t.prog.zone_base["hand"] + 1, t.prog.zone_base["minion_deck"]
    c = t.zones[hand2][0]
    j = next(i for i, d in enumerate(t.zones[deck]) if d.type_id != c.type_id)
    d = t.zones[deck][j]
    t.zones[hand2][0], t.zones[deck][j] = d, c
    t.loc[c.id], t.loc[d.id] = deck, hand2
    t.rng ^= 12345  # and another future
    return t


def test_resample_depends_only_on_what_the_seat_sees() -> None:
    game = meeple.load(SUN, players=4, backend="compiled")
    s = game.new_initial_state(6)
    t = _swap_hidden(s)
    assert s.to_json() != t.to_json()
    for seed in range(5):
        assert ai.resample(s, 0, seed).to_json() == ai.resample(t, 0, seed).to_json()
    assert ai.resample(s, 1, 0).to_json() != ai.resample(t, 1, 0).to_json()  # P2 sees it


@pytest.mark.parametrize("spec", ["greedy", "flatmc:2", "ismcts:12"])
def test_agents_choose_legal_actions_blind_to_hidden_cards(spec: str) -> None:
    """The same agent (same seed) chooses the same on two states its seat cannot tell apart,
    which an agent looking at clone()s would not (it would see P2's hand and the deck)."""
    game = meeple.load(SUN, players=4, backend="compiled")
    s = game.new_initial_state(9)
    rng = random.Random(9)
    checked = 0
    while checked < 3:
        if s.current_player() == 0 and len(s.legal_actions()) > 1:
            t = _swap_hidden(s)
            a, b = make_agent(spec, 5)(s), make_agent(spec, 5)(t)
            assert a == b and a in s.legal_actions()
            checked += 1
        acts = s.legal_actions()
        s.apply_action(acts[rng.randrange(len(acts))])


def test_arena_is_deterministic_and_counts_every_game() -> None:
    game = meeple.load("harbour-guilds", players=2, backend="compiled")
    a = arena(game, ["ismcts:8", "random"], 3, seed=4)
    b = arena(game, ["ismcts:8", "random"], 3, seed=4)
    assert [(r.wins, r.score_total) for r in a.seats] == [(r.wins, r.score_total) for r in b.seats]
    assert sum(r.wins for r in a.seats) == pytest.approx(3)
    assert all(r.games == 3 for r in a.seats)
    with pytest.raises(meeple.MeepleError, match="2-player"):
        arena(game, ["random"] * 3, 1)
    with pytest.raises(meeple.MeepleError, match="unknown agent"):
        arena(game, ["random", "smart"], 1)


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson_interval(0, 20)
    assert lo == 0 and hi == pytest.approx(0.1611, abs=1e-4)


def test_arena_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "harbour-guilds", "--agents", "greedy,random", "-n", "2"]) == 0
    text = capsys.readouterr().out
    assert "95% interval" in text and "greedy" in text and "P2" in text
    assert main(["arena", "harbour-guilds", "--agents", "greedy,rando", "-n", "2"]) == 2
    assert "did you mean 'random'" in capsys.readouterr().err


@pytest.mark.deep
def test_ismcts_beats_random() -> None:
    game = meeple.load("harbour-guilds", players=2, backend="compiled")
    r = arena(game, ["ismcts:40", "random"], 20, seed=100)
    assert r.seats[0].interval[0] > 0.5


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("greedy:5", "agent 'greedy' takes no budget"),
        ("random:3", "agent 'random' takes no budget"),
        ("ismcts:", "the budget of agent 'ismcts:' is empty"),
        ("ismcts:²", "the budget of agent 'ismcts:²' is '²'"),  # '²'.isdigit() is True
        ("ismcts:0", "is '0'"),
        ("flatmc:-3", "is '-3'"),
        ("ismcts:100000000", "is '100000000'"),
        ("ismcts:1e3", "is '1e3'"),
    ],
)
def test_make_agent_refuses_bad_budgets(spec: str, why: str) -> None:
    with pytest.raises(meeple.MeepleError, match=why) as e:
        make_agent(spec, 0)
    assert "flatmc:N" in str(e.value) or "from 1 to 100,000" in str(e.value)


def test_make_agent_takes_a_budget_where_one_is_counted() -> None:
    assert make_agent("ismcts:100000", 0).iterations == 100_000  # type: ignore[attr-defined]
    assert make_agent(" flatmc:7 ", 0).playouts == 7  # type: ignore[attr-defined]


@pytest.mark.parametrize("agents", ["random,,random,random", "random,random,", ",random,random"])
def test_arena_command_refuses_an_empty_agent(
    capsys: pytest.CaptureFixture[str], agents: str
) -> None:
    assert main(["arena", "harbour-guilds", "--agents", agents, "-n", "1"]) == 2
    err = capsys.readouterr().err
    assert "has an empty entry" in err and "Traceback" not in err


def test_arena_command_refuses_a_budget_it_would_ignore(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "harbour-guilds", "--agents", "greedy:5,random", "-n", "1"]) == 2
    err = capsys.readouterr().err
    assert "takes no budget" in err and "ismcts:N" in err
    assert main(["arena", "harbour-guilds", "--agents", "ismcts:²,random", "-n", "1"]) == 2
    err = capsys.readouterr().err
    assert "a whole number from 1 to" in err and "Traceback" not in err
