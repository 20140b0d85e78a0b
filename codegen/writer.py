"""A tiny code writer: lines, indentation, fresh names."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class Writer:
    """Collects indented lines of Python source."""

    def __init__(self, level: int = 0) -> None:
        self.lines: list[str] = []
        self.level = level

    def line(self, text: str = "") -> None:
        self.lines.append(("    " * self.level + text) if text else "")

    @contextmanager
    def indent(self) -> Iterator[None]:
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1

    def extend(self, other: Writer) -> None:
        self.lines.extend(other.lines)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class Names:
    """Fresh, deterministic Python identifiers (``_d1``, ``_d2``...)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def fresh(self, hint: str) -> str:
        base = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in hint) or "t"
        n = self.counts[base] = self.counts.get(base, 0) + 1
        return f"_{base}{n}"
