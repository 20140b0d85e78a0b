"""The game's only source of chance: SplitMix64, whose whole state is one integer kept in State.

Both back ends draw through these functions, so the same seed gives the same game on either.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
SEEDS = 1 << 64  # seeds and PRNG states are 0 .. SEEDS - 1


def next_u64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns (new_state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """The PRNG state for a user seed (any int)."""
    return next_u64(seed & _MASK)[1]


def shuffle(state: int, items: list[object]) -> int:
    """Fisher-Yates shuffle of ``items`` in place; returns the new PRNG state.

    Draws modulo n from 64-bit outputs (bias below 2**-50 for any real pile size).
    """
    m = 0xFFFFFFFFFFFFFFFF
    for i in range(len(items) - 1, 0, -1):
        # next_u64 written out (the same steps): its call and tuple were a fifth of a draw
        state = (state + 0x9E3779B97F4A7C15) & m
        z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9 & m
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & m
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state
