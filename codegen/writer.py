"""A tiny code writer: lines, indentation, fresh names, and the only ways rule text is written.

Rule text (names, strings, file names, data) reaches a generated module only through
``literal`` (a checked ``repr``) or ``comment_path``; identifiers made from rule names are
checked by the emitter (``check_names``) or built by ``Names.fresh`` from ASCII letters only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields, is_dataclass

from meeple.dsl.errors import MeepleError


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
    """Fresh, deterministic Python identifiers (``_d1``, ``_d2``...), each given once."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.used: set[str] = set()

    def fresh(self, hint: str) -> str:
        # ASCII only: Python folds other identifiers (NFKC), so two hints could meet, and some
        # Unicode letters-or-digits (e.g. a superscript two) are no identifier characters at all
        base = "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else "_" for ch in hint)
        base = base or "t"
        while True:  # hint "c1", first use, and hint "c", eleventh use, both give "_c11"
            n = self.counts[base] = self.counts.get(base, 0) + 1
            name = f"_{base}{n}"
            if name not in self.used:
                self.used.add(name)
                return name


_PLAIN = (str, int, float, type(None))


def literal(value: object) -> str:
    """``value`` as a Python literal (``repr``), after checking it is plain data all the way
    down: str, int, bool, float, None, tuples, lists, dicts, and the layout's dataclasses of
    those. Such a repr always reads back as the same value and can hold no code.

    Raises MeepleError for anything else (an object whose repr could be any text)."""
    _check_plain(value, 0)
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({repr(value)!r})"  # nan and inf have no literal
    try:
        return repr(value)
    except ValueError:  # an integer past Python's digit limit (the front end allows 12 digits)
        raise MeepleError("the code generator cannot write a number this large") from None


def _check_plain(value: object, depth: int) -> None:
    if depth > 100:
        raise MeepleError("the code generator met data nested too deeply to write")
    t = type(value)
    if t in _PLAIN or t is bool:
        if isinstance(value, float) and not math.isfinite(value) and depth:
            raise MeepleError(f"the code generator cannot write {value!r} inside data")
        return
    if isinstance(value, str) and t.__repr__ is str.__repr__:  # e.g. the loader's YStr
        return
    if isinstance(value, (tuple, list)) and t.__repr__ in (tuple.__repr__, list.__repr__):
        for x in value:
            _check_plain(x, depth + 1)
        return
    if isinstance(value, dict) and t.__repr__ is dict.__repr__:
        for k, v in value.items():
            _check_plain(k, depth + 1)
            _check_plain(v, depth + 1)
        return
    if is_dataclass(value) and not isinstance(value, type) and t.__module__.startswith("meeple."):
        for f in fields(value):
            _check_plain(getattr(value, f.name), depth + 1)
        return
    raise MeepleError(f"the code generator cannot write a {t.__name__} into a module")


def literal_text(value: object) -> str:
    """``value`` shown in a message: its repr, shortened."""
    text = ascii(value)
    return text if len(text) <= 80 else text[:77] + "..."


_SAFE_PATH = re.compile(r"[A-Za-z0-9_./-]+")


def comment_path(path: str) -> str:
    """A file name as it may stand in a ``#`` comment: as is when made only of letters, digits
    and ``_./-`` (every shipped game), else as an ASCII literal (a newline, a quote or any
    other character can then neither end the comment nor start code)."""
    return path if _SAFE_PATH.fullmatch(path) else ascii(path)
