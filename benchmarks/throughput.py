"""Throughput of random playouts, side by side in one process: complete games per second and
decisions per second for the interpreter, the generated module and, for the games with one
(meeple.bench.REFERENCE_GAMES: Shadow of the Sun, Im Schatten des Sonnenkönigs), the hand-written
reference in benchmarks/; the cost of clone() and of
to_json()/from_json(). Not a test: run it by hand (``meeple bench`` prints the same).

    python benchmarks/throughput.py [GAME ...] [--players 4] [--seconds 5]
"""

from __future__ import annotations

import sys

from meeple.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
