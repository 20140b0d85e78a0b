"""YAML loading that keeps file:line:column for every key and value (built on PyYAML's marks)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from .errors import UNKNOWN, SourceSpan, YamlError, register_source
from .limits import MAX_FILE_BYTES, MAX_INT, MAX_YAML_DEPTH, MAX_YAML_NODES

#: The endings of a YAML file: a rules, variant or scenario file may use either.
YAML_SUFFIXES = (".yaml", ".yml")


def yaml_files(folder: str | Path) -> list[Path]:
    """The YAML files of a folder (``.yaml`` or ``.yml``, as users write both), sorted by
    name; none when there is no such folder."""
    try:
        return sorted(p for p in Path(folder).iterdir() if p.suffix in YAML_SUFFIXES and _file(p))
    except OSError:  # no such folder, or not readable
        return []


def yaml_file(folder: str | Path, stem: str) -> Path:
    """``folder/stem.yaml``, or ``folder/stem.yml`` when only that one exists (the ``.yaml``
    path when neither does, for the error that names it)."""
    p = Path(folder) / f"{stem}.yaml"
    alt = Path(folder) / f"{stem}.yml"
    return alt if not _file(p) and _file(alt) else p


def _file(p: Path) -> bool:
    """``p.is_file()``, False also for a name the file system refuses (too long, NUL)."""
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


class SourceText:
    """A file's text with a fast offset -> (line, column) map."""

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.text = text
        self._line_starts: list[int] | None = None  # worked out when first needed

    @property
    def line_starts(self) -> list[int]:
        """The offset where each line starts."""
        if self._line_starts is None:
            self._line_starts = [0] + [i + 1 for i, ch in enumerate(self.text) if ch == "\n"]
        return self._line_starts

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
    span: SourceSpan
    # where the scalar stands in the file (start, end, style): its offsets are worked out only
    # when an error needs them, since a large file holds many scalars
    _where: tuple[int, int, str | None] = (0, 0, None)
    _offsets: list[int] | None = None

    @property
    def offsets(self) -> list[int]:
        """The file offset of each character of the value."""
        if self._offsets is None:
            start, end, style = self._where
            self._offsets = _align(str(self), self.source.text, start, end, style)
        return self._offsets

    @offsets.setter
    def offsets(self, value: list[int]) -> None:
        self._offsets = value

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

    The file is untrusted: one larger than MAX_FILE_BYTES is refused from its size, before it is
    read (and at most that many bytes are ever read, so a device or pipe cannot exhaust memory).
    Raises YamlError (with line and column) for malformed YAML, duplicate keys, anchors, aliases,
    merge keys, too deep or too large documents and out-of-range numbers (see load_yaml_text).
    """
    path = str(path)
    limit = f"the limit is {MAX_FILE_BYTES:,} bytes (MAX_FILE_BYTES)"
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            raise YamlError(
                f"the file is {size:,} bytes, too large to read; {limit}",
                SourceSpan(path, 1, 1),
                suggestion="split the rules, or remove what the game does not use",
            )
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise YamlError(f"cannot read {path}: {e.strerror}") from None
    if len(data) > MAX_FILE_BYTES:  # a file that grew, or a device: never read past the limit
        raise YamlError(f"the file is too large to read; {limit}", SourceSpan(path, 1, 1))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        # e.start counts from 0: the file's first byte is byte 1 (as an editor shows columns)
        line_start = data.rfind(b"\n", 0, e.start) + 1
        col = len(data[line_start : e.start].decode("utf-8", errors="replace")) + 1
        raise YamlError(
            f"{path} is not UTF-8 text (byte {e.start + 1} cannot be read: 0x{data[e.start]:02x})",
            SourceSpan(path, data.count(b"\n", 0, e.start) + 1, col),
            suggestion="save the rules file as UTF-8",
        ) from None
    return load_yaml_text(text, path)


def load_yaml_text(text: str, file: str = "<string>") -> Any:
    """Load YAML text (see load_yaml_file).

    Reads YAML 1.2 core scalars (``yes``, ``on`` and ``1:30`` are text), refuses anchors,
    aliases, merge keys, tags, numbers with a leading zero and integers beyond MAX_INT, and
    bounds nesting (MAX_YAML_DEPTH) and size (MAX_YAML_NODES); raises YamlError at the place.
    """
    register_source(file, text)
    src = SourceText(file, text)
    try:
        try:
            # libyaml is twenty times faster; its error messages are not the ones the authors
            # get, so a file it refuses is parsed again by PyYAML for the message
            return _compose(yaml.parse(text, Loader=_FAST_LOADER), src)
        except yaml.YAMLError:
            return _compose(yaml.parse(text, Loader=yaml.SafeLoader), src)
    except yaml.reader.ReaderError as e:
        raise YamlError(
            f"the file holds a character YAML does not allow ({chr(e.character)!r})"
            if isinstance(e.character, int)
            else f"the file holds a character YAML does not allow ({e.character!r})",
            src.span(e.position),
        ) from None
    except yaml.MarkedYAMLError as e:
        trap = _yaml_trap(e, text)
        if trap is not None:
            message, offset, suggestion = trap
            raise YamlError(message, src.span(offset), suggestion=suggestion) from None
        mark = e.problem_mark or e.context_mark
        message = _yaml_message(e)
        if "simple key" in str(e.context) and e.context_mark is not None:
            # PyYAML notices the missing ':' where the next line starts: point at the key
            mark = e.context_mark
            key = text[mark.index :].split("\n", 1)[0].strip()
            key = key if len(key) <= 40 and key.isprintable() else repr(key[:40])
            message = f"'{key}' stands where a key is expected, but no ':' follows it"
            nxt = e.problem_mark.index if e.problem_mark is not None else -1
            if text[nxt : nxt + 1] == "\t":  # the next line starts with a tab: say why it fails
                message += "; indent YAML with spaces, not tabs"
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
    except yaml.YAMLError as e:  # not expected from PyYAML's parser, but never a traceback
        raise YamlError(f"the file is not valid YAML: {e}", SourceSpan(file, 1, 1)) from None


_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"
_MAP_TAGS = (None, "!", "tag:yaml.org,2002:map")
_SEQ_TAGS = (None, "!", "tag:yaml.org,2002:seq")

# YAML 1.2 core schema (plain scalars only; anything else is text)
_NULL = re.compile(r"~|null|Null|NULL|")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(
    r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"
)


_NODE_EVENTS = (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)


class _Frame:
    """A mapping or list being built, with where it starts."""

    __slots__ = ("value", "start_mark", "key", "key_span")

    def __init__(self, value: YMap | YList, start_mark: Any) -> None:
        self.value = value
        self.start_mark = start_mark
        self.key: str | None = None  # a mapping's key waiting for its value
        self.key_span = UNKNOWN


def _span(file: str, start: Any, end: Any) -> SourceSpan:
    """The span between two parser marks (0-based line and column, in characters)."""
    if end.index <= start.index:
        return SourceSpan(file, start.line + 1, start.column + 1)
    return SourceSpan(file, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def _compose(events: Iterable[Any], src: SourceText) -> Any:
    """Build YMap/YList/YStr values from the parser's events, without recursion.

    Nesting is bounded by MAX_YAML_DEPTH and the node count by MAX_YAML_NODES, both checked as
    the events arrive, so a hostile file is refused before it is built."""
    stack: list[_Frame] = []
    nodes = 0
    root: Any = None
    documents = 0
    file = src.file
    for ev in events:
        cls = ev.__class__
        if cls in _NODE_EVENTS:
            if ev.anchor is not None:
                raise YamlError(
                    f"'&{ev.anchor}' is a YAML anchor; meeple does not use anchors and aliases",
                    src.span(ev.start_mark.index),
                    suggestion="write the value out in full where it is needed",
                )
            nodes += 1
            if nodes > MAX_YAML_NODES:
                raise YamlError(
                    f"the file holds more than {MAX_YAML_NODES:,} YAML values (MAX_YAML_NODES)",
                    src.span(ev.start_mark.index),
                    suggestion="split the rules, or remove what the game does not use",
                )
        if cls is yaml.ScalarEvent:
            span = _span(file, ev.start_mark, ev.end_mark)
            value: Any = _scalar(ev, src, span)
        elif cls is yaml.MappingEndEvent or cls is yaml.SequenceEndEvent:
            frame = stack.pop()
            value = frame.value
            span = value.span = _span(file, frame.start_mark, ev.end_mark)
        elif cls is yaml.MappingStartEvent or cls is yaml.SequenceStartEvent:
            is_map = cls is yaml.MappingStartEvent
            if ev.tag not in (_MAP_TAGS if is_map else _SEQ_TAGS):
                raise YamlError(
                    f"'{ev.tag}' is a YAML tag; meeple reads plain mappings and lists only",
                    src.span(ev.start_mark.index),
                    suggestion="remove the tag",
                )
            if len(stack) >= MAX_YAML_DEPTH:
                raise YamlError(
                    f"the YAML nests deeper than {MAX_YAML_DEPTH} levels (MAX_YAML_DEPTH)",
                    src.span(ev.start_mark.index),
                    suggestion="move the inner part into a procedure",
                )
            container: YMap | YList
            if is_map:
                container = YMap()
                container.key_spans, container.value_spans = {}, {}
            else:
                container = YList()
                container.item_spans = []
            stack.append(_Frame(container, ev.start_mark))
            continue
        elif cls is yaml.AliasEvent:
            raise YamlError(
                f"'*{ev.anchor}' is a YAML alias; meeple does not expand aliases",
                src.span(ev.start_mark.index, ev.end_mark.index),
                suggestion="write the value out in full where it is needed",
            )
        elif cls is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise YamlError(
                    "the file holds more than one YAML document",
                    src.span(ev.start_mark.index),
                    suggestion="remove the '---' line: a rules file is one document",
                )
            continue
        else:  # stream and document ends
            continue
        if not stack:
            root = value
            continue
        top = stack[-1]
        container = top.value
        if isinstance(container, YList):
            container.append(value)
            container.item_spans.append(span)
            continue
        if top.key is None:
            _check_key(value, ev, span, container)
            top.key, top.key_span = str(value), span
            continue
        container[top.key] = value
        container.key_spans[top.key] = top.key_span
        container.value_spans[top.key] = span
        top.key = None
    if root is None:
        return YMap()
    return root


def _check_key(key: Any, ev: Any, span: SourceSpan, out: YMap) -> None:
    """Refuse a key that is not text (a number, a list...), a merge key or a duplicate."""
    if not isinstance(key, str) or not isinstance(ev, yaml.ScalarEvent):
        raw = ev.value if isinstance(ev, yaml.ScalarEvent) else "..."
        raise YamlError(
            f"key '{raw}' is not read as a name (YAML reads it as {key!r})"
            if isinstance(ev, yaml.ScalarEvent)
            else "a key must be a name, not a list or a mapping",
            span,
            suggestion=f"quote it: '\"{raw}\"', or choose another name",
        )
    if key == "<<" and not ev.style:
        raise YamlError(
            "'<<' is a YAML merge key; meeple does not merge mappings",
            span,
            suggestion="write the keys out in full",
        )
    if key in out:
        raise YamlError(f"duplicate key '{key}'", SourceSpan(span.file, span.line, span.col))


def _scalar(ev: Any, src: SourceText, span: SourceSpan) -> Any:
    """A scalar's value under the YAML 1.2 core schema (text, unless a plain scalar reads as
    null, a boolean or a number); explicit tags other than ``!!str`` are refused."""
    style = ev.style or None  # libyaml says '' for plain, PyYAML None
    start, end = ev.start_mark.index, ev.end_mark.index
    raw = ev.value
    if ev.tag not in (None, "!", _STR):
        raise YamlError(
            f"'{ev.tag}' is a YAML tag, not text",
            span,
            suggestion="quote the value; in expressions write 'not' instead of '!'",
        )
    if ev.tag is None and style is None:
        if _NULL.fullmatch(raw):
            return None
        if raw in _BOOL:
            return _BOOL[raw]
        if _INT.fullmatch(raw):
            return _integer(raw, span)
        if _FLOAT.fullmatch(raw):
            return _float(raw)
    s = YStr(raw)
    s.source, s.span, s._where = src, span, (start, end, style)
    bad = _CONTROL.search(raw)
    if bad is not None:
        # a name, label or log text would carry it to a terminal (an ESC starts a sequence that
        # can retitle the window, recolour or hide text): only a newline and a tab may be text
        ch = bad.group()
        raise YamlError(
            f"the text holds the control character U+{ord(ch):04X} ({ch!r})",
            s.span_at(bad.start(), bad.start() + 1),
            expected="printable text; of the control characters only a newline and a tab",
            suggestion="remove it (escapes such as \\e, \\a, \\x1b, \\u0000 in double "
            "quotes write one)",
        )
    return s


#: C0 and C1 control characters and DEL, except the newline and the tab (docs/security.md).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _float(raw: str) -> float:
    lowered = raw.lower()
    if lowered.endswith((".inf", ".nan")):  # YAML's spelling of what Python calls inf and nan
        return float(lowered.replace(".", ""))
    return float(raw)


def _integer(raw: str, span: SourceSpan) -> int:
    """An integer scalar, refused with a leading zero (YAML 1.1 reads 010 as 8) or beyond
    MAX_INT (checked on the digits, before Python converts them)."""
    digits = raw.lstrip("+-")
    if len(digits) > 1 and digits[0] == "0" and digits[1].isdigit():
        plain = raw[: len(raw) - len(digits)] + (digits.lstrip("0") or "0")
        octal = f" ({int(digits, 8)})" if set(digits) <= set("01234567") else ""
        raise YamlError(
            f"'{raw}' has a leading zero, which YAML 1.1 readers take as octal{octal}",
            span,
            suggestion=f'write {plain}, or quote it ("{raw}") if it is text',
        )
    body = digits[2:] if digits[:2] in ("0x", "0o") else digits
    value = int(digits, 0) if len(body) <= 16 else None
    if value is None or value > MAX_INT:
        shown = raw if len(raw) <= 20 else raw[:12] + f"... ({len(raw)} characters)"
        raise YamlError(
            f"the number {shown} is too large",
            span,
            expected=f"a number from -{MAX_INT} to {MAX_INT} (MAX_INT)",
        )
    return -value if raw.startswith("-") else value


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


# Two YAML traps of rule files, recognized so that the author hears the fix (quoting) instead of
# the YAML parser's view of them (issue 17):
# - a ': ' inside unquoted text (``- log Day: {day} begins``) makes YAML read a key and a value;
# - a statement with brackets or braces inside a [...] list (``do: [score[p] += 1]``,
#   ``do: [log "x {p}"]``) makes YAML read a nested list or a mapping.
_STATEMENT_ITEM = re.compile(r"^(?P<pad>\s*-\s+)(?P<stmt>[^\s'\"\[{#&*!|>%@`-][^#]*?)\s*(#.*)?$")


def colon_in_text(line: str) -> tuple[int, str] | None:
    """For a list item line whose unquoted text holds ': ' (``- log Day: {day} begins``): the
    offset of that ': ' in the line and the item written so YAML reads it as one text. None for
    any other line."""
    m = _STATEMENT_ITEM.match(line)
    if m is None or ": " not in m["stmt"]:
        return None
    stmt = m["stmt"]
    rest = stmt[4:].strip()
    whole = len(rest) > 1 and rest[0] == rest[-1] == '"' and '"' not in rest[1:-1]
    if stmt.startswith("log ") and not whole:
        # the log statement's text is one quoted text: `log "{p}" scores: 3` becomes
        # `log "{p} scores: 3"`
        stmt = 'log "' + rest.replace('"', "") + '"'
    quoted = "'" + stmt.replace("'", "''") + "'"
    return m.start("stmt") + m["stmt"].index(": "), f"{m['pad']}{quoted}".strip()


COLON_MESSAGE = (
    "this text contains ': ', so YAML reads the part before it as a key and the rest as its "
    "value; a statement with ': ' in it must be quoted as a whole"
)


def _yaml_trap(e: yaml.MarkedYAMLError, text: str) -> tuple[str, int, str] | None:
    """(message, offset, suggestion) when the error is one of the traps above."""
    mark = e.problem_mark
    if mark is None:
        return None
    lines = text.split("\n")
    line = lines[mark.line] if mark.line < len(lines) else ""
    problem, context = str(e.problem), str(e.context)
    opener = line[mark.column : mark.column + 1]
    opened = e.context_mark
    if "quoted" in context and opened is not None and "end of stream" in problem:
        # [log "x {p}"]: after the mapping {p} YAML's scanner opens a quoted text at '"]' that
        # runs to the end of the file, before its parser can object to the '{'
        qline = lines[opened.line] if opened.line < len(lines) else ""
        m = re.search(r"\[[^\]\[]*?(\{)[^\]]*\]", qline)
        if m is not None and m.start(1) < opened.column < m.end():
            brace = opened.index - opened.column + m.start(1)
            return _flow_trap(qline, "{", m.start(), brace)
    if "flow sequence" in context and opener in ("[", "{"):
        start = opened.column if opened is not None and opened.line == mark.line else None
        return _flow_trap(line, opener, start, mark.index)
    if (
        "expected <block end>" in problem
        or "mapping values are not allowed" in problem
        or "flow mapping" in context
    ):
        for i in (mark.line, mark.line - 1):  # the error may be reported at the next line
            if 0 <= i < len(lines):
                found = colon_in_text(lines[i])
                if found is not None:
                    offset = sum(len(x) + 1 for x in lines[:i]) + found[0]
                    return COLON_MESSAGE, offset, f"write it quoted: {found[1]}"
    return None


def _flow_trap(line: str, opener: str, start: int | None, offset: int) -> tuple[str, int, str]:
    """The brackets-or-braces trap of a [...] list opened at column ``start`` of ``line``: its
    message, the file offset ``offset`` of the offending '[' or '{', and the quoted form."""
    inner = ""
    if start is not None:
        close = line.rfind("]")
        inner = line[start + 1 : close].strip() if close > start else ""
    if inner and "," not in inner and '"' not in inner:
        fix = f'write ["{inner}"], or one statement per line: - {inner}'
    elif inner and "," not in inner and "'" not in inner:
        fix = f"write ['{inner}'], or one statement per line: - '{inner}'"
    else:
        fix = 'quote each statement of the list ("score[p] += 1"), or write one per line'
    if opener == "[":
        what = "brackets (an index such as score[p])"
        reads = "its '[' as the start of another list"
    else:  # a placeholder of a text: log "{p} draws"
        what = 'braces (a placeholder such as "{p}" in a text)'
        reads = "its '{' as the start of a mapping"
    return (f"a statement with {what} inside a [...] list: YAML reads {reads}", offset, fix)


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
