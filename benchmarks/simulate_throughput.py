"""Throughput of ``meeple simulate``'s engines on one campaign: one process, a process pool of
two workers, and a Dask LocalCluster of two worker processes (games per second, wall time from
the call to the last record, start-up included). Not a test: run it by hand on an idle machine;
docs/ai.md ("Throughput") reports it.

    python benchmarks/simulate_throughput.py [GAMES] [GAME]
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from meeple.simulate import Campaign, run


def measure(campaign: Campaign, n: int, **how: Any) -> tuple[float, float, int]:
    """(wall seconds, seconds to the first record, records) for one run of ``n`` games."""
    t0 = time.perf_counter()
    first = None
    k = 0
    for _ in run(campaign, n, 0, **how):
        k += 1
        if first is None:
            first = time.perf_counter() - t0
    return time.perf_counter() - t0, first or 0.0, k


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    game = sys.argv[2] if len(sys.argv) > 2 else "shadow-of-the-sun"
    campaign = Campaign(game, 4, None, "compiled")
    base = None
    for name, how in [
        ("1 process", {"jobs": 1}),
        ("process pool, 2 jobs", {"jobs": 2}),
        ("Dask LocalCluster, 2 workers", {"jobs": 2, "dask": "local"}),
    ]:
        load = os.getloadavg()[0]
        wall, first, k = measure(campaign, n, **how)
        rate = k / wall
        base = base or rate
        print(
            f"{name}: load {load:.2f}, {k} games, {wall:.1f} s, {rate:.0f} games/s, "
            f"{rate / base:.2f}×, first record after {first:.1f} s",
            flush=True,
        )
