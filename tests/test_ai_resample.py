"""meeple.ai.resample: re-dealt states are positions the rules could reach, the seat cannot tell
them from the true one, and what is hidden is redrawn uniformly."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import meeple

ai = pytest.importorskip("meeple.ai")

TINY = str(Path(__file__).parent / "fixtures" / "tiny-deal")
GAMES = ["shadow-of-the-sun", "sonnenkoenig", "shadow-of-the-emperor", "louis-xiv"]


def _check_sample(game: meeple.api.Game, s: meeple.api.State, seat: int, seed: int) -> None:
    spec = ai.observation_spec(game)
    r = ai.resample(s, seat, seed)
    r.check_invariants()
    assert r.observation(seat) == s.observation(seat)  # same view, same log, same decision
    assert (spec.encode(r, seat) == spec.encode(s, seat)).all()
    assert [len(z) for z in r.zones] == [len(z) for z in s.zones]
    assert r.vars == s.vars and r.current_player() == s.current_player()
    assert r.rng != s.rng
    # the strict checks a saved state passes: the pending decision is the one its rules ask
    game.state_from_json(r.to_json())


def _play_out(s: meeple.api.State, seed: int) -> None:
    rng = random.Random(seed)
    s.record_log = False
    while not s.is_terminal():
        a = s.legal_actions()
        s.apply_action(a[rng.randrange(len(a))])


def test_resampled_states_are_consistent_and_differ() -> None:
    game = meeple.load("shadow-of-the-sun", players=4, backend="compiled")
    s = game.new_initial_state(8)
    rng = random.Random(8)
    changed = k = 0
    while not s.is_terminal():
        if k % 9 == 0:
            seat = k % 4
            _check_sample(game, s, seat, k)
            r = ai.resample(s, seat, k)
            changed += [c.id for z in r.zones for c in z] != [c.id for z in s.zones for c in z]
            if k % 45 == 0:
                _play_out(r, k)
        a = s.legal_actions()
        s.apply_action(a[rng.randrange(len(a))])
        k += 1
    assert changed > 10
    with pytest.raises(meeple.MeepleError, match="over"):
        ai.resample(s, 0, 1)
    with pytest.raises(meeple.MeepleError, match="whole number"):
        ai.resample(game.new_initial_state(0), 0, "7")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a seat"):
        ai.resample(game.new_initial_state(0), 4, 7)


def test_resample_drops_other_seats_secret_log_lines() -> None:
    game = meeple.load("shadow-of-the-sun", players=4, backend="compiled")
    s = game.new_initial_state(2)
    rng = random.Random(2)
    while not any(who == 1 for who, _ in s.log):
        a = s.legal_actions()
        s.apply_action(a[rng.randrange(len(a))])
    r = ai.resample(s, 0, 5)
    assert all(who in (-1, 0) for who, _ in r.log)
    assert ai.information_state_string(r, 0) == ai.information_state_string(s, 0)


def test_distribution_of_a_hidden_card_is_uniform() -> None:
    """Tiny Deal: five different cards, one dealt to each seat, three in the deck. P1 sees only
    his own card: P2's card is each of the four others with chance 1/4, and the top of the
    deck likewise. Counted over 800 seeds (deterministic), chi-square below the 0.1% point."""
    game = meeple.load(TINY, players=2, backend="compiled")
    s = game.new_initial_state(3)
    mine = s.zones[s.prog.zone_base["hand"]][0].name
    theirs = s.prog.zone_base["hand"] + 1
    deck = s.prog.zone_base["deck"]
    n = 800
    p2: Counter[str] = Counter()
    top: Counter[str] = Counter()
    for seed in range(n):
        r = ai.resample(s, 0, seed)
        assert r.zones[s.prog.zone_base["hand"]][0].name == mine
        p2[r.zones[theirs][0].name] += 1
        top[r.zones[deck][-1].name] += 1
    others = {"Ace", "Bishop", "Castle", "Dragon", "Elf"} - {mine}
    for counts in (p2, top):
        assert set(counts) == others
        chi2 = sum((counts[x] - n / 4) ** 2 / (n / 4) for x in others)
        assert chi2 < 16.27  # 3 degrees of freedom, p = 0.001


def test_clone_knows_the_next_draw_and_resample_does_not() -> None:
    """What the docs warn about: on a clone, the card P1 will draw is the true one every time;
    on resampled states it is any of the four cards P1 has not seen."""
    game = meeple.load(TINY, players=2, backend="compiled")
    s = game.new_initial_state(4)
    hand = s.prog.zone_base["hand"]

    def drawn(t: meeple.api.State) -> str:
        t.apply_action(0)  # draw a card
        return t.zones[hand][-1].name

    truth = drawn(s.clone())
    assert {drawn(s.clone()) for _ in range(20)} == {truth}
    assert len({drawn(ai.resample(s, 0, seed)) for seed in range(40)}) == 4  # the unseen


def test_clone_keeps_the_decision_on_its_frame() -> None:
    """A clone whose pending decision has no local names kept it on the top frame's (empty)
    names: found by resampling, refused as tampered when saved."""
    game = meeple.load("shadow-of-the-emperor", players=3, backend="compiled")
    s = game.new_initial_state(0)
    rng = random.Random(0)
    seen = 0
    while not s.is_terminal() and seen < 3:
        if s.pending is not None and s.pending.env == {}:
            game.state_from_json(s.clone().to_json())
            seen += 1
        a = s.legal_actions()
        s.apply_action(a[rng.randrange(len(a))])
    assert seen == 3


@pytest.mark.deep
@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
@pytest.mark.parametrize("game_id", GAMES)
def test_resample_every_seed_game(game_id: str, backend: str) -> None:
    game = meeple.load(game_id, backend=backend)
    n = game.num_players()
    for seed in range(2):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        k = 0
        while not s.is_terminal():
            if k % 5 == 0:
                seat = (s.current_player() + k) % n
                _check_sample(game, s, seat, k)
                if k % 25 == 0:
                    _play_out(ai.resample(s, seat, k), k)
            a = s.legal_actions()
            s.apply_action(a[rng.randrange(len(a))])
            k += 1


@pytest.mark.deep  # loading Sonnenkönig's rules takes over a second
def test_a_deck_of_mixed_kinds_gets_a_new_order_of_kinds() -> None:
    """Sonnenkönig's draw pile mixes three kinds of cards: which kind comes next is hidden
    too, so resampling changes the order of kinds, not only of cards within a kind."""
    game = meeple.load("sonnenkoenig", players=4, backend="compiled")
    s = game.new_initial_state(0)
    pile = s.prog.zone_base["draw_pile"]
    truth = [c.kind for c in s.zones[pile]]
    assert len(set(truth)) > 1
    orders = [[c.kind for c in ai.resample(s, 0, seed).zones[pile]] for seed in range(5)]
    assert all(sorted(o) == sorted(truth) for o in orders)
    assert any(o != truth for o in orders)
