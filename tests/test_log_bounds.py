"""A line of the game log is bounded (dsl/limits.py MAX_LOG_ITEMS, MAX_LOG_LINE; docs/security.md).

Logging a long list in a loop (``log "{[c for c in 0..9999]}"`` 99,999 times) made gigabytes of
text. A list or zone written into a line shows its first MAX_LOG_ITEMS items and how many more;
a line longer than MAX_LOG_LINE characters is cut with how many more it had. Both back ends
write the same lines (the formatter and the cut are the runtime's, runtime/values.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple import api
from meeple.dsl.limits import MAX_LOG_ITEMS, MAX_LOG_LINE

FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "game.yaml"
SETUP = "        - move 2 from deck to hand[p]\n"


def _lines(tmp_path: Path, log: str, backend: str) -> list[str]:
    """The log lines of a game of the minimal game whose setup ends with ``log`` (a template)."""
    text = FIXTURE.read_text(encoding="utf-8")
    assert text.count(SETUP) == 1
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(SETUP, SETUP + f"    - log {log!r}\n"), encoding="utf-8")
    state = meeple.load(str(path), 2, backend=backend).new_initial_state(0)
    return [line for line in api.log_lines(state) if line.startswith("[")]


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_long_list_shows_its_first_items_and_how_many_more(tmp_path: Path, backend: str) -> None:
    (line,) = _lines(tmp_path, "{[c for c in 0..9999]}", backend)
    shown = ", ".join(str(i) for i in range(MAX_LOG_ITEMS))
    assert line == f"[{shown}, \u2026 and {10_000 - MAX_LOG_ITEMS:,} more]"


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_long_line_is_cut_with_how_many_more_characters(tmp_path: Path, backend: str) -> None:
    (line,) = _lines(tmp_path, "{[[a * 1000 for a in 0..99] for b in 0..99]}", backend)
    inner = "[" + ", ".join(str(a * 1000) for a in range(MAX_LOG_ITEMS))
    inner += f", \u2026 and {100 - MAX_LOG_ITEMS} more]"
    whole = "[" + ", ".join([inner] * MAX_LOG_ITEMS) + f", \u2026 and {100 - MAX_LOG_ITEMS} more]"
    assert len(whole) > MAX_LOG_LINE
    more = len(whole) - MAX_LOG_LINE
    assert line == whole[:MAX_LOG_LINE] + f"\u2026 ({more:,} more characters)"


def test_both_back_ends_write_the_same_lines(tmp_path: Path) -> None:
    log = "{[[a for a in 0..99] for b in 0..99]} and {deck}"
    assert _lines(tmp_path, log, "interpreter") == _lines(tmp_path, log, "compiled")


def test_a_short_list_is_shown_whole(tmp_path: Path) -> None:
    assert _lines(tmp_path, "{[c for c in 1..3]}", "interpreter") == ["[1, 2, 3]"]
