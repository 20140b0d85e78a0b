"""The game's only source of chance: SplitMix64, whose whole state is one integer kept in State.

Both back ends draw through these functions, so the same seed gives the same game on either.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable

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
    n = len(items)
    if n >= _PACKED_FROM:
        return _shuffle_packed(state, items)
    m = 0xFFFFFFFFFFFFFFFF
    for i in range(n - 1, 0, -1):
        # next_u64 written out (the same steps): its call and tuple were a fifth of a draw
        state = (state + 0x9E3779B97F4A7C15) & m
        z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9 & m
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & m
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state


#: from this many items on, a shuffle computes its draws all at once (_shuffle_packed): below
#: it the fixed cost of the big numbers is more than the loop's steps it saves
_PACKED_FROM = 5
_GAMMA = 0x9E3779B97F4A7C15
_LANE = 16  # bytes of one lane: a 64-bit value and room for what a product carries past it
_ONE_LANE = (1).to_bytes(_LANE, "little")
_LOW_LANE = _MASK.to_bytes(_LANE, "little")


#: lanes are kept only for piles of up to this many draws: past it building them is a small
#: part of the shuffle, and one entry would weigh megabytes
_CACHED_UP_TO = 2048


def _lanes(d: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]], int]:
    """For ``d`` draws: a 1 in each 128-bit lane, the lanes' steps (k+1) * gamma, the low 64
    bits of each lane set, the unpacking of each lane's low 64 bits, the bytes of all lanes.

    Built from bytes, in time linear in ``d`` (a sum of ``d`` shifted terms was quadratic: 6 s
    for 20,000 cards)."""
    if d <= _CACHED_UP_TO:
        return _cached_lanes(d)
    return _build_lanes(d)


def _build_lanes(d: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]], int]:
    """_lanes, built afresh."""
    ones = int.from_bytes(_ONE_LANE * d, "little")
    steps = int.from_bytes(
        b"".join(((k + 1) * _GAMMA).to_bytes(_LANE, "little") for k in range(d)), "little"
    )
    low = int.from_bytes(_LOW_LANE * d, "little")
    unpack = struct.Struct("<" + "Q8x" * d).unpack
    return ones, steps, low, unpack, _LANE * d


#: a game shuffles the same few pile sizes again and again, and building the lanes is about half
#: of a small shuffle's time: the last 32 sizes' lanes are kept (at most about 10 MB; the cache
#: was unbounded, 97 MB after every size from 5 to 1,500)
_cached_lanes = functools.lru_cache(maxsize=32)(_build_lanes)


def _shuffle_packed(state: int, items: list[object]) -> int:
    """shuffle's draws computed together: the SplitMix64 state after k steps is the state plus
    k times gamma (mod 2**64), so the d states of d draws sit side by side in one big number,
    one per 128-bit lane, and each step of the mix is one operation on all of them. A lane
    holds a 64-bit value: a product by a 64-bit constant stays in its lane and is cut to 64
    bits by the mask, and the mask clears what a right shift brings down from the next lane.
    The draws are taken in the loop's order (the first for the last item), the same numbers.
    Python's operations on one big number cost far less than on each of its parts."""
    d = len(items) - 1
    ones, steps, low, unpack, size = _lanes(d)
    z = (state * ones + steps) & low
    z = (z ^ (z >> 30)) & low
    z = z * 0xBF58476D1CE4E5B9 & low
    z = (z ^ (z >> 27)) & low
    z = z * 0x94D049BB133111EB & low
    z ^= z >> 31  # (only the low 64 bits of each lane are read)
    i = d
    for v in unpack(z.to_bytes(size, "little")):
        j = v % (i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1
    return (state + d * _GAMMA) & _MASK
