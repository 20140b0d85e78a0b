"""Load rule files in a process with bounded memory: ``python bounded.py LIMIT_BYTES FILE...``.

Run by tests/test_hostile.py for the bomb cases (alias bomb, oversized files), so a regression
that expands them is stopped by the address-space limit instead of exhausting the machine. Prints
one JSON object per file: the outcome's class name, message and position, or the exception.
"""

from __future__ import annotations

import json
import resource
import signal
import sys


class Hang(BaseException):
    """More than the time allowed (a BaseException, so no ``except Exception`` swallows it)."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang()


def main(argv: list[str]) -> None:
    limit = int(argv[0])
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGPROF, _alarm)  # CPU time: a loaded machine is no hang
    from meeple.dsl.errors import MeepleError
    from meeple.dsl.loader import load_rules

    for path in argv[1:]:
        out: dict[str, object] = {"file": path}
        signal.setitimer(signal.ITIMER_PROF, 5.0)
        try:
            load_rules(path)
            out["outcome"] = "loaded"
        except MeepleError as e:
            out["outcome"] = type(e).__name__
            out["message"] = e.message
            if e.span is not None:
                out["span"] = [e.span.file, e.span.line, e.span.col]
        except Hang:
            out["outcome"] = "hang"
        except BaseException as e:  # noqa: BLE001 -- reported to the test, which fails on it
            out["outcome"] = "crash"
            out["message"] = f"{type(e).__name__}: {e}"[:500]
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
