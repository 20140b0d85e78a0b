"""The hang guard of the fuzz tests: a case that uses more than its limit of this process's CPU
time raises Hang. CPU time, not wall-clock time: on a loaded machine a case waiting for a core
is not hanging (a deep run beside other jobs failed a parse on the wall clock)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

TIMEOUT = 5.0  # seconds of CPU per case: far above what any case takes


class Hang(BaseException):
    """A case ran past its limit (a BaseException, so no ``except Exception`` swallows it)."""


@contextmanager
def time_limit(seconds: float = TIMEOUT) -> Iterator[None]:
    """Raise Hang in the block once this process has used ``seconds`` of CPU time in it."""

    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"more than {seconds} s of CPU time")

    old = signal.signal(signal.SIGPROF, alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
