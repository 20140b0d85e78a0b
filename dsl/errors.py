"""Source positions and the one error family every user-caused failure belongs to."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """A place in a rules file: 1-based line and column of the first character.

    ``end_line``/``end_col`` point one past the last character (same line by default).
    """

    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


UNKNOWN = SourceSpan("<unknown>", 0, 0)


class MeepleError(Exception):
    """Base of every error a user can cause (bad rules, bad moves, bad command lines).

    Attributes: ``span`` (where), ``message`` (what is wrong), ``expected`` (what would have been
    right, in words), ``suggestion`` (a likely fix, e.g. a name from "did you mean").
    """

    kind = "error"

    def __init__(
        self,
        message: str,
        span: SourceSpan | None = None,
        *,
        expected: str | None = None,
        suggestion: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.expected = expected
        self.suggestion = suggestion
        #: where a rule error happened in the rules: "procedure turn (game.yaml:40:7)", ...,
        #: outermost first (set by the back ends; shown by render() under the error)
        self.trace: list[str] = []

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        text = f"{where}{self.kind}: {self.message}"
        if self.expected:
            text += f"; expected {self.expected}"
        if self.suggestion:
            text += f"; {self.suggestion}"
        return text

    def render(self) -> str:
        """The error as ``file:line:col: error: ...`` followed by the source line and a caret."""
        lines = [str(self)]
        if self.span and self.span.line > 0:
            source = _source_line(self.span.file, self.span.line)
            if source is not None:
                # a tab is shown as one space, so the caret stays under its column
                lines.append("    " + source.rstrip("\n").replace("\t", " "))
                width = 1
                if self.span.end_line in (0, self.span.line) and self.span.end_col > self.span.col:
                    width = self.span.end_col - self.span.col
                lines.append("    " + " " * (self.span.col - 1) + "^" * width)
        if self.trace:
            lines.append("rules trace (outermost first):")
            lines.extend(_cut(_collapse(self.trace)))
        return "\n".join(lines)


#: How many calls of a long rules trace render() shows at each end (the whole list stays in
#: ``MeepleError.trace``): a chain of 200 procedures is 200 lines no reader goes through.
TRACE_ENDS = 5


def _cut(calls: list[str]) -> list[str]:
    """The trace's lines: all of them, or the first and last TRACE_ENDS around "... N more"."""
    if len(calls) > 2 * TRACE_ENDS + 1:
        hidden = len(calls) - 2 * TRACE_ENDS
        calls = [*calls[:TRACE_ENDS], f"... {hidden} more calls ...", *calls[-TRACE_ENDS:]]
        return [f"  in {t}" if i != TRACE_ENDS else f"  {t}" for i, t in enumerate(calls)]
    return [f"  in {t}" for t in calls]


def _collapse(trace: list[str]) -> list[str]:
    """Runs of the same entry as one line with a count (a function calling itself 200 times)."""
    out: list[str] = []
    counts: list[int] = []
    for t in trace:
        if out and out[-1] == t:
            counts[-1] += 1
        else:
            out.append(t)
            counts.append(1)
    return [t if n == 1 else f"{t} x{n}" for t, n in zip(out, counts, strict=True)]


class YamlError(MeepleError):
    """The file is not well-formed YAML."""


class SchemaError(MeepleError):
    """The YAML structure does not match the game-file schema."""


class ParseError(MeepleError):
    """An expression or statement string does not match the grammar."""


class CheckError(MeepleError):
    """A name does not resolve, a type does not fit, or a rule block lacks a source."""

    kind = "error"


class RuleError(MeepleError):
    """The rules asked for something impossible while a game was running (e.g. a decision with no
    legal option). ``span`` is the rule that was executing."""


class InternalError(MeepleError):
    """A fault in meeple's own code while rules ran (not the rules' fault). The original
    exception is chained as ``__cause__``; the message asks for a report."""

    kind = "internal error, please report"


class IllegalActionError(MeepleError):
    """An action was refused; the state is unchanged."""

    kind = "illegal action"


class MeepleWarning(UserWarning):
    """Something meeple worked around and the user may want to know (e.g. a cache folder it
    would not trust, so the compiled module was made in memory). Issued with
    ``warnings.warn(message, MeepleWarning)``; the message is one line."""


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A "did you mean 'x'?" suggestion for ``name`` among ``candidates``, or None."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


_file_cache: dict[str, list[str]] = {}


def register_source(file: str, text: str) -> None:
    """Remember a file's text so errors can quote it even if it is not on disk."""
    _file_cache[file] = text.splitlines()


def source_line(file: str, line: int) -> str | None:
    """Line ``line`` (1-based) of ``file`` as read or registered, or None."""
    return _source_line(file, line)


def _source_line(file: str, line: int) -> str | None:
    if file not in _file_cache:
        try:
            text = Path(file).read_text(encoding="utf-8", errors="replace")
            _file_cache[file] = text.splitlines()
        except OSError:
            return None
    lines = _file_cache[file]
    return lines[line - 1] if 0 < line <= len(lines) else None
