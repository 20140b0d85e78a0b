"""YAML loading that keeps file:line:column for every key and value (built on PyYAML's marks)."""

from __future__ import annotations

import bisect
from pathlib import Path
from typing import Any

import yaml

from .errors import SourceSpan, YamlError, register_source


class SourceText:
    """A file's text with a fast offset -> (line, column) map."""

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.text = text
        self.line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def span(self, start: int, end: int | None = None) -> SourceSpan:
        """Span of the characters ``text[start:end]`` (offsets in the file)."""
        line, col = self.line_col(start)
        if end is None or end <= start:
            return SourceSpan(self.file, line, col)
        end_line, end_col = self.line_col(end)
        return SourceSpan(self.file, line, col, end_line, end_col)

    def line_col(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.line_starts, offset) - 1
        return i + 1, offset - self.line_starts[i] + 1


class YStr(str):
    """A string scalar that knows where each of its characters stands in the file."""

    source: SourceText
    offsets: list[int]
    span: SourceSpan

    def span_at(self, start: int, end: int | None = None) -> SourceSpan:
        """Span of ``self[start:end]`` in the file (end exclusive)."""
        if not self.offsets:
            return self.span
        n = len(self.offsets)
        a = self.offsets[min(start, n - 1)] if start < n else self.offsets[-1] + 1
        if end is None:
            return self.source.span(a)
        b = self.offsets[end - 1] + 1 if 0 < end <= n else a + 1
        return self.source.span(a, b)


class YMap(dict):
    """A mapping whose keys and values remember their spans."""

    span: SourceSpan
    key_spans: dict[str, SourceSpan]
    value_spans: dict[str, SourceSpan]


class YList(list):
    """A sequence whose items remember their spans."""

    span: SourceSpan
    item_spans: list[SourceSpan]


def span_of(container: Any, key: Any) -> SourceSpan | None:
    """Span of ``container[key]`` if the loader recorded one."""
    if isinstance(container, YMap):
        return container.value_spans.get(key)
    if isinstance(container, YList) and isinstance(key, int) and key < len(container.item_spans):
        return container.item_spans[key]
    return None


def load_yaml_file(path: str | Path) -> Any:
    """Load a YAML file into YMap/YList/YStr values with positions.

    Raises YamlError (with line and column) for malformed YAML or duplicate keys.
    """
    path = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise YamlError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise YamlError(
            f"{path} is not UTF-8 text (byte {e.start} cannot be read)",
            SourceSpan(path, 1, 1),
            suggestion="save the rules file as UTF-8",
        ) from None
    return load_yaml_text(text, path)


def load_yaml_text(text: str, file: str = "<string>") -> Any:
    """Load YAML text (see load_yaml_file)."""
    register_source(file, text)
    src = SourceText(file, text)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.reader.ReaderError as e:
        raise YamlError(
            f"the file holds a character YAML does not allow ({chr(e.character)!r})"
            if isinstance(e.character, int)
            else f"the file holds a character YAML does not allow ({e.character!r})",
            src.span(e.position),
        ) from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        message = _yaml_message(e)
        at_end = "end of stream" in str(e.problem) or "<stream end>" in str(e.problem)
        if at_end and e.context_mark is not None:
            mark = e.context_mark  # e.g. an unclosed quote: point where it opens
            what = "quoted text" if "quoted" in str(e.context) else "bracket or brace"
            message = f"this {what} is never closed"
            if mark.index >= len(text.rstrip()):
                opened = _unclosed_bracket(text)
                if opened is not None:
                    return_span = src.span(opened)
                    raise YamlError("this bracket or brace is never closed", return_span) from None
        span = src.span(mark.index) if mark is not None else None
        raise YamlError(message, span) from None
    if node is None:
        return YMap()
    return _convert(node, src)


def _convert(node: yaml.Node, src: SourceText) -> Any:
    span = src.span(node.start_mark.index, node.end_mark.index)
    if isinstance(node, yaml.MappingNode):
        out = YMap()
        out.span, out.key_spans, out.value_spans = span, {}, {}
        for knode, vnode in node.value:
            key = _convert(knode, src)
            if not isinstance(key, str):
                raise YamlError(
                    f"key '{knode.value}' is not read as a name (YAML reads it as {key!r})",
                    src.span(knode.start_mark.index, knode.end_mark.index),
                    suggestion=f"quote it: '\"{knode.value}\"', or choose another name",
                )
            if key in out:
                raise YamlError(f"duplicate key '{key}'", src.span(knode.start_mark.index))
            out[str(key)] = _convert(vnode, src)
            out.key_spans[str(key)] = src.span(knode.start_mark.index, knode.end_mark.index)
            out.value_spans[str(key)] = src.span(vnode.start_mark.index, vnode.end_mark.index)
        return out
    if isinstance(node, yaml.SequenceNode):
        lst = YList(_convert(n, src) for n in node.value)
        lst.span = span
        lst.item_spans = [src.span(n.start_mark.index, n.end_mark.index) for n in node.value]
        return lst
    assert isinstance(node, yaml.ScalarNode)
    if not node.tag.startswith("tag:yaml.org,2002:"):
        raise YamlError(
            f"'{node.tag}' is a YAML tag, not text",
            span,
            suggestion="quote the value; in expressions write 'not' instead of '!'",
        )
    value = yaml.SafeLoader.construct_scalar(yaml.SafeLoader(""), node)
    if node.tag != "tag:yaml.org,2002:str":
        resolved = yaml.safe_load(node.value) if node.style is None else value
        if not isinstance(resolved, str):
            return resolved
    s = YStr(value)
    s.source, s.span = src, span
    s.offsets = _align(value, src.text, node.start_mark.index, node.end_mark.index, node.style)
    return s


_ESCAPE_LEN = {"x": 4, "u": 6, "U": 10}

# PyYAML's wording -> what a rules author needs to hear.
_YAML_HINTS = [
    (
        "expected <block end>",
        "this line does not fit the structure above it: check its indentation, and quote a "
        "value that starts with '{' or '['",
    ),
    (
        "mapping values are not allowed here",
        "a ':' here starts a mapping where none can start: quote a value that contains ': ', "
        "or check the indentation",
    ),
    (
        "found character '\\t' that cannot start any token",
        "found character '\\t' that cannot start any token: indent YAML with spaces, not tabs",
    ),
]


def _unclosed_bracket(text: str) -> int | None:
    """Offset of the last '[' or '{' never closed (outside quotes and comments), if any."""
    stack: list[int] = []
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t\n"):
            quote = "\n"  # a comment runs to the end of the line
        elif ch in "[{":
            stack.append(i)
        elif ch in "]}" and stack:
            stack.pop()
    return stack[-1] if stack else None


def _yaml_message(e: yaml.MarkedYAMLError) -> str:
    problem = str(e.problem or e.context)
    for needle, message in _YAML_HINTS:
        if needle in problem:
            return message
    return problem


def _align(value: str, text: str, start: int, end: int, style: str | None) -> list[int]:
    """Map each character of a scalar's value to its offset in the file.

    Handles quotes, escapes, block indentation and folded line breaks by walking value and raw
    text side by side.
    """
    j = start
    if style in ("|", ">"):
        j = text.index("\n", start) + 1 if "\n" in text[start:end] else end
    elif style in ("'", '"'):
        j += 1
    out: list[int] = []
    for ch in value:
        if style == '"' and j < end and text[j] == "\\":  # an escape: one value char
            out.append(j)
            j += _ESCAPE_LEN.get(text[j + 1], 2) if j + 1 < end else 1
            continue
        while j < end and text[j] != ch and not (ch == " " and text[j] == "\n"):
            j += 1
        if j >= end:
            out.append(max(start, end - 1))
            continue
        out.append(j)
        folded = ch == " " and text[j] == "\n"
        j += 1
        if folded:
            while j < end and text[j] in " \t":
                j += 1
    return out
