"""runtime/prng.py deals the same games as it always has: its shuffle (next_u64 written out in
its loop, for speed) gives the permutations and PRNG states of the algorithm as it was first
written, kept frozen below, on many seeds and pile sizes; so saves and seeds deal the same
games. A PRNG state is any 64-bit number (a save may hold any one), so the states tried are
random ones, the edges and the seeds' own."""

from __future__ import annotations

import random

from meeple.runtime import prng

# ---------------------------------------------------------------- frozen: do not edit
_MASK = (1 << 64) - 1


def frozen_next_u64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def frozen_seed_state(seed: int) -> int:
    return frozen_next_u64(seed & _MASK)[1]


def frozen_shuffle(state: int, items: list[object]) -> int:
    for i in range(len(items) - 1, 0, -1):
        state, z = frozen_next_u64(state)
        j = z % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state


# ---------------------------------------------------------------- the checks


def _states() -> list[int]:
    rng = random.Random(13)
    edges = [0, 1, _MASK, _MASK - 0x9E3779B97F4A7C15, _MASK - 0x9E3779B97F4A7C15 + 1, 1 << 63]
    seeds = [frozen_seed_state(s) for s in range(100)]
    return edges + seeds + [rng.getrandbits(64) for _ in range(100)]


SIZES = [*range(0, 70), 97, 128, 200, 1000]


def test_shuffle_is_the_frozen_shuffle() -> None:
    """The same permutation and the same next state, for every state and size tried."""
    states = _states()
    for size in SIZES:
        for state in states if size <= 100 else states[:60]:  # (long piles: fewer, quicker)
            mine, theirs = list(range(size)), list(range(size))
            assert prng.shuffle(state, mine) == frozen_shuffle(state, theirs), (state, size)
            assert mine == theirs, (state, size)


def test_sizes_up_to_2000_and_some_large_ones_are_the_frozen_shuffle() -> None:
    """Every pile size from 0 to 500 and every third one to 2,001 (sizes whose lanes are kept),
    each on a state of its own, and larger piles (whose lanes are built afresh each time)."""
    states = _states()
    rng = random.Random(2000)
    for size in [*range(0, 500), *range(500, 2002, 3)]:
        for state in (states[size % len(states)],) if size > 100 else (0, rng.getrandbits(64)):
            mine, theirs = list(range(size)), list(range(size))
            assert prng.shuffle(state, mine) == frozen_shuffle(state, theirs), (state, size)
            assert mine == theirs, (state, size)
    for size in (2048, 2049, 2050, 4097, 30_000):
        for state in (0, _MASK, rng.getrandbits(64)):
            mine, theirs = list(range(size)), list(range(size))
            assert prng.shuffle(state, mine) == frozen_shuffle(state, theirs), (state, size)
            assert mine == theirs, (state, size)


def test_the_kept_lanes_are_bounded() -> None:
    """Shuffling many pile sizes keeps the lanes of a few only (every size from 5 to 1,500 kept
    97 MB), and a large pile's lanes are not kept."""
    prng._cached_lanes.cache_clear()
    for size in range(5, 400):
        prng.shuffle(1, list(range(size)))
    info = prng._cached_lanes.cache_info()
    assert info.maxsize == 32 and info.currsize == 32
    prng.shuffle(1, list(range(prng._CACHED_UP_TO + 10)))  # built afresh, not kept
    assert prng._cached_lanes.cache_info() == info


def test_shuffles_in_a_row_stay_the_frozen_ones() -> None:
    """A game shuffles again and again from the state the last shuffle left."""
    rng = random.Random(5)
    a = b = frozen_seed_state(77)
    for _ in range(2000):
        size = rng.randrange(0, 60)
        mine, theirs = list(range(size)), list(range(size))
        a, b = prng.shuffle(a, mine), frozen_shuffle(b, theirs)
        assert (a, mine) == (b, theirs)


def test_next_u64_and_seed_state_are_the_frozen_ones() -> None:
    for state in _states():
        assert prng.next_u64(state) == frozen_next_u64(state)
        assert prng.seed_state(state) == frozen_seed_state(state)
    for seed in (-1, -(1 << 70), 1 << 64, (1 << 80) + 3):  # any int: its low 64 bits
        assert prng.seed_state(seed) == frozen_seed_state(seed)


def test_the_first_deal_of_seed_zero_is_pinned() -> None:
    """The frozen algorithm itself, pinned by its numbers (the reference the rest rests on)."""
    deck = list(range(10))
    state = frozen_shuffle(frozen_seed_state(0), deck)
    assert (deck, state) == (DECK_OF_SEED_0, STATE_AFTER)


DECK_OF_SEED_0 = [0, 1, 4, 6, 3, 9, 8, 7, 2, 5]  # what the first implementation gave
STATE_AFTER = 8220177348310084204
