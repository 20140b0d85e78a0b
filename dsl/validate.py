"""Validate a game file against the JSON Schema; report the best error at its YAML position."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from .errors import SchemaError, SourceSpan, did_you_mean, source_line
from .limits import MAX_NAME_LENGTH, NAME_PATTERN, RESERVED_PROPERTIES, RESERVED_WORDS, is_name
from .yamlload import COLON_MESSAGE, YList, YMap, colon_in_text, span_of


@lru_cache(maxsize=1)
def game_schema() -> dict[str, Any]:
    """The game-file schema (draft 2020-12), from dsl/schema/game.schema.json."""
    text = resources.files("meeple.dsl").joinpath("schema/game.schema.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(game_schema())


def validate(doc: Any) -> None:
    """Raise SchemaError for the most relevant schema violation in ``doc``, if any, then for the
    first invalid name (see check_names)."""
    errors = _in_file_order(_validator().iter_errors(doc), doc)
    if errors:
        err = best_match(errors, key=_relevance)
        raise _to_error(_descend(err), doc)
    _whole_numbers(doc)
    check_names(doc)


def _whole_numbers(doc: Any) -> None:
    """Refuse every fractional number: meeple counts with integers only, and the schema's
    'integer' (JSON Schema's) lets 2.0 through. Walks the document without recursion."""
    todo: list[Any] = [doc]
    while todo:
        node = todo.pop()
        if isinstance(node, YMap):
            pairs = [(v, node.value_spans.get(k)) for k, v in node.items()]
        elif isinstance(node, YList):
            pairs = list(zip(node, node.item_spans, strict=False))
        else:
            continue
        for value, span in pairs:
            if isinstance(value, float):
                whole = value.is_integer()
                raise SchemaError(
                    f"{value!r} is not a whole number: meeple counts with integers",
                    span,
                    expected="an integer such as 2",
                    suggestion=f"write {int(value)}" if whole else "round it, or scale the units",
                )
            todo.append(value)


# ------------------------------------------------------------------------------------ names
# $defs/name in game.schema.json; '(?!\\n)' because Python's '$' also matches before a final
# newline (the schema's regexes are read the same way by ECMA-262 and by Python)
_NAME_SCHEMA_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*(?!\\n)$"


_ID_SCHEMA_PATTERN = "^[a-z0-9][a-z0-9-]*(?!\\n)$"  # a game's or a variant's id


def _id_error(text: Any, span: SourceSpan | None, where: str) -> SchemaError:
    return SchemaError(
        f"{shown(str(text))} is not a valid id ({where})",
        span,
        expected=f"lower-case letters, digits and '-', at most {MAX_NAME_LENGTH} characters",
        suggestion=f"call it '{_suggest_id(str(text))}'" if _suggest_id(str(text)) else None,
    )


def _suggest_id(text: str) -> str | None:
    t = (suggest_name(text) or "").lower().replace("_", "-").strip("-")[:MAX_NAME_LENGTH]
    return t if _GAME_ID.fullmatch(t) else None


def _name_role(path: list[Any]) -> str:
    """What a name at ``path`` in the game file names, for messages."""
    last = path[-1] if path else ""
    if len(path) >= 3 and path[-2] == "params":
        return f"a parameter of '{path[-3]}'"
    if last == "key" and len(path) >= 2 and path[0] == "components":
        return f"the key of an item of '{path[1]}'"
    if path[:1] == ["triggers"] and last == "as":
        return f"the 'as' of trigger '{path[1]}'"
    return f"'{last}'" if isinstance(last, str) and last else "name here"


_GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]*")


def suggest_name(text: str) -> str | None:
    """A valid name close to ``text`` (invisible characters dropped, accents stripped, other
    characters made '_'), or None if nothing of it is left."""
    t = unicodedata.normalize("NFKD", text)
    t = "".join(ch for ch in t if unicodedata.category(ch) not in ("Cf", "Mn"))  # invisible
    t = re.sub(r"[^A-Za-z0-9_]+", "_", t).strip("_")
    if t[:1].isdigit():
        t = "_" + t
    t = t[:MAX_NAME_LENGTH].rstrip("_") or t[:MAX_NAME_LENGTH]
    return t if is_name(t) else None


def shown(text: str) -> str:
    """``text`` quoted for a message as its author typed it ('märket'), with every invisible or
    control character escaped (so 'de\\u200bck' does not look like 'deck', and a newline or a
    terminal escape cannot act), and cut if long."""
    escaped = "".join(ch if ch.isprintable() and ch not in "\\'" else _escape(ch) for ch in text)
    return "'" + (escaped if len(escaped) <= 60 else escaped[:50] + "...") + "'"


def _escape(ch: str) -> str:
    return "\\'" if ch == "'" else ch.encode("unicode_escape").decode("ascii")


def _not_ascii(text: str) -> str:
    """ "; 'е' (U+0435) is not ASCII" for the first visible non-ASCII character of ``text`` (a
    look-alike of an ASCII letter is told apart by its code), else ""."""
    ch = next((c for c in text if not c.isascii() and c.isprintable()), None)
    return f"; '{ch}' (U+{ord(ch):04X}) is not ASCII" if ch is not None else ""


def require_name(text: Any, span: SourceSpan | None, what: str, word_ok: bool = False) -> None:
    """Raise SchemaError at ``span`` unless ``text`` is a valid meeple name (limits.is_name)
    and, unless ``word_ok``, not a reserved word (limits.RESERVED_WORDS).

    ``what`` says what the name names ("function", "parameter of 'f'"...). ``word_ok`` is for
    names never written alone in an expression: a property (only after a dot, ``c.not``) and an
    item key (only quoted, ``card("none")``)."""
    if isinstance(text, str) and text in RESERVED_WORDS and not word_ok:
        raise SchemaError(
            f"'{text}' is a reserved word and cannot be a name (it names {what})",
            span,
            expected="a name other than " + ", ".join(sorted(RESERVED_WORDS)),
            suggestion=f"call it '{text}_'",
        )
    if isinstance(text, str) and is_name(text):
        return
    text = str(text)
    why = (
        f"it is longer than {MAX_NAME_LENGTH} characters"
        if len(text) > MAX_NAME_LENGTH and NAME_PATTERN.fullmatch(text)
        else "use letters, digits and '_'" + _not_ascii(text)
    )
    better = suggest_name(text)
    raise SchemaError(
        f"{shown(text)} is not a valid name: {why} (it names {what})",
        span,
        expected=f"an ASCII name of letters, digits and '_', not starting with a digit, "
        f"at most {MAX_NAME_LENGTH} characters",
        suggestion=f"call it '{better}'" if better else None,
    )


def _keys(doc: YMap, key: str) -> list[tuple[str, Any, SourceSpan | None]]:
    section = doc.get(key)
    if not isinstance(section, YMap):
        return []
    return [(k, v, section.key_spans.get(k)) for k, v in section.items()]


def _name_list(node: Any, key: str, what: str) -> None:
    """Each item of the list ``node[key]`` (e.g. a function's params) is a name."""
    items = node.get(key) if isinstance(node, YMap) else None
    if isinstance(items, YList):
        for i, p in enumerate(items):
            if isinstance(p, YMap) and len(p) == 1:  # a typed parameter, {d: card[districts]}
                (name,) = p
                require_name(name, p.key_spans.get(name, items.item_spans[i]), what)
                continue
            require_name(p, items.item_spans[i], what)


def check_names(doc: YMap) -> None:
    """Every name the game declares is a valid meeple name, and no component property takes a
    name the engine owns (RESERVED_PROPERTIES, or one starting with '_').

    Covers kinds and their properties and item keys, zones, constants, variables, tables, functions,
    procedures and their parameters, triggers and their ``as``; names inside statements (``let``,
    ``for``, a pick's ``each``/``as``) are checked where they are parsed. Raises SchemaError at
    the offending key or value, with a valid name to use instead."""
    meta = doc.get("game")
    if isinstance(meta, YMap) and isinstance(meta.get("id"), str):
        gid = meta["id"]
        if len(gid) > MAX_NAME_LENGTH or not _GAME_ID.fullmatch(gid):
            raise _id_error(gid, meta.value_spans.get("id"), "'game.id'")
    for name, kind, span in _keys(doc, "components"):
        require_name(name, span, "a component kind")
        if not isinstance(kind, YMap):
            continue
        props = kind.get("properties")
        if isinstance(props, YMap):
            for p in props:
                pspan = props.key_spans.get(p)
                require_name(p, pspan, f"a property of '{name}'", word_ok=True)
                if p in RESERVED_PROPERTIES or p.startswith("_"):
                    raise SchemaError(
                        f"property '{p}' of '{name}' takes a name the engine keeps for itself"
                        + (" (names starting with '_')" if p.startswith("_") else ""),
                        pspan,
                        expected="a name other than "
                        + ", ".join(sorted(RESERVED_PROPERTIES))
                        + " or one starting with '_'",
                        suggestion=f"call it '{name}_{p.strip('_') or 'value'}'",
                    )
        items = kind.get("items")
        if isinstance(items, YList):
            for it in items:
                if isinstance(it, YMap) and "key" in it and "for" not in it:
                    # a numbered line's key has {n} holes: checked once filled (dsl/numbered)
                    what = f"the key of an item of '{name}'"
                    require_name(it["key"], it.value_spans.get("key"), what, word_ok=True)
    for section, what in (
        ("zones", "a zone"),
        ("constants", "a constant"),
        ("variables", "a variable"),
        ("tracks", "a track"),
        ("tables", "a table"),
        ("functions", "a function"),
        ("majorities", "a majority"),
        ("procedures", "a procedure"),
        ("triggers", "a trigger"),
    ):
        for name, node, span in _keys(doc, section):
            require_name(name, span, what)
            _name_list(node, "params", f"a parameter of '{name}'")
            if section == "triggers" and isinstance(node, YMap) and "as" in node:
                what = f"the 'as' of trigger '{name}'"
                require_name(node["as"], node.value_spans.get("as"), what)


def validate_against(doc: Any, validator: jsonschema.protocols.Validator, what: str) -> None:
    """Like ``validate``, for another schema (e.g. a variant file's); ``what`` names the file."""
    errors = _in_file_order(validator.iter_errors(doc), doc)
    if errors:
        # a misspelt key also makes a required key missing: name the misspelling
        unknown = [x for x in errors if x.validator == "additionalProperties"]
        e = _to_error(_descend(best_match(unknown or errors, key=_relevance)), doc)
        e.message = e.message.replace("the game file", what)
        raise e


def _in_file_order(errors: Iterable[ValidationError], doc: Any) -> list[ValidationError]:
    """``errors`` sorted by where they stand in the file: jsonschema's order of them follows
    the hash seed, and best_match reports the first of equally relevant errors."""

    def place(err: ValidationError) -> tuple[int, int]:
        span = _walk(doc, list(err.absolute_path))[2]
        return (span.line, span.col) if span is not None else (0, 0)

    return sorted(errors, key=place)


def _descend(err: ValidationError) -> ValidationError:
    """Inside anyOf/oneOf, drop the branches whose basic type does not fit the value (a
    statement mapping is not the string form of a statement) and take the best remaining error."""
    while err.validator in ("anyOf", "oneOf") and err.context:
        fitting = [
            e
            for e in err.context
            if not (e.validator == "type" and len(e.relative_schema_path) <= 2)
        ]
        if not fitting:
            break
        err = best_match(fitting, key=_relevance)
    return err


def _relevance(err: ValidationError) -> tuple[int, int]:
    # Prefer deep errors (closest to the offending node), then concrete keywords over anyOf noise.
    weak = err.validator in ("anyOf", "oneOf")
    return (-len(err.absolute_path), 1 if weak else 0)


def _walk(doc: Any, path: list[Any]) -> tuple[Any, Any, SourceSpan | None]:
    """The node at ``path``, its parent and the span of the node."""
    parent, node, span = None, doc, getattr(doc, "span", None)
    for key in path:
        s = span_of(node, key)
        parent, node = node, node[key]
        span = s or span
    return parent, node, span


def _colon_trap(key: str, span: SourceSpan | None) -> SchemaError | None:
    """A key with a space (``log {w} wins``) read from a list item whose unquoted text held
    ': ' (``- log {w} wins: {g}``): say so, at the ': ', and show the item quoted."""
    if " " not in key or span is None:
        return None
    line = source_line(span.file, span.line)
    found = colon_in_text(line) if line is not None else None
    if found is None:
        return None
    col, fixed = found
    return SchemaError(
        COLON_MESSAGE,
        SourceSpan(span.file, span.line, col + 1),
        suggestion=f"write it quoted: {fixed}",
    )


def _to_error(err: ValidationError, doc: Any) -> SchemaError:
    path = list(err.absolute_path)
    parent, node, span = _walk(doc, path)
    where = _describe(path)
    schema: dict[str, Any] = err.schema if isinstance(err.schema, dict) else {}
    if err.validator == "additionalProperties" and isinstance(node, YMap):
        allowed = list((schema.get("properties") or {}).keys())
        extra = [k for k in node if k not in allowed]
        key = extra[0] if extra else "?"
        colon = _colon_trap(key, node.key_spans.get(key, span))
        if colon is not None:
            return colon
        in_branch = len(path) >= 2 and path[-2] == "elif"
        from .tracks import variable_bound_hint  # tracks builds on this module: import late

        return SchemaError(
            f"unknown key '{key}' in {where}",
            node.key_spans.get(key, span),
            expected="one of " + ", ".join(allowed) if allowed else None,
            suggestion="a chain has one 'else', on its first 'if', beside 'elif:'"
            if in_branch and key == "else"
            else variable_bound_hint(path[0] if path else None, key) or did_you_mean(key, allowed),
        )
    if err.validator == "pattern" and err.validator_value == _NAME_SCHEMA_PATTERN:
        try:
            require_name(node, span, _name_role(path))
        except SchemaError as e:
            return e
    if err.validator == "pattern" and err.validator_value == _ID_SCHEMA_PATTERN:
        return _id_error(node, span, where)
    if "propertyNames" in err.schema_path and isinstance(node, YMap):
        bad = err.instance if isinstance(err.instance, str) else str(err.instance)
        head = statement_head(node)
        if head is not None:
            allowed = statement_keys()[head]
            bad = bad if bad not in allowed else next(k for k in node if k not in allowed)
            colon = _colon_trap(bad, node.key_spans.get(bad, span))
            if colon is not None:
                return colon
            known = any(bad in keys for keys in statement_keys().values())
            a_head = f"{'an' if head[0] in 'aeiou' else 'a'} {head} statement"
            return SchemaError(
                f"'{bad}' does not belong to {a_head} (in {where})"
                if known
                else f"unknown key '{bad}' in {a_head} (in {where})",
                node.key_spans.get(bad, span),
                expected="one of " + ", ".join(allowed),
                suggestion=(
                    "declare who is compared, by what and what a tie gives under "
                    "'majorities:' (docs/language.md, 20. Majorities) and write 'of: NAME(...)'"
                    if head == "winner" and bad in ("among", "strength", "tie")
                    else did_you_mean(bad, allowed)
                ),
            )
        keys = [str(k) for k in schema.get("enum", [])]
        colon = _colon_trap(bad, node.key_spans.get(bad, span))
        if colon is not None:
            return colon
        return SchemaError(
            f"unknown key '{bad}' in {where}",
            node.key_spans.get(bad, span),
            suggestion=did_you_mean(bad, keys),
        )
    if err.validator == "required":
        m = re.match(r"'([^']+)' is a required property", err.message)
        missing = m.group(1) if m else "?"
        if missing == "if" and isinstance(node, YMap) and "elif" in node:
            return SchemaError(
                f"'elif' in {where} continues an 'if', but this statement has no 'if'",
                node.key_spans.get("elif", span),
                expected="'if:' and 'then:' beside 'elif:'",
                suggestion="write the first condition as 'if:', or drop 'elif'",
            )
        at = span
        if isinstance(parent, YMap) and path:
            at = parent.key_spans.get(str(path[-1])) or span
        return SchemaError(f"{where} is missing the required key '{missing}'", at)
    if err.validator == "type":
        want = err.validator_value
        wants = [str(w) for w in (want if isinstance(want, list) else [want])]
        words = " or ".join(_TYPE_WORDS.get(w, w) for w in wants)
        return SchemaError(
            f"{where} has the wrong type",
            span,
            expected=f"{words}, not {_kind(node)}",
            suggestion=yaml_1_1_hint(node, wants),
        )
    if err.validator == "enum":
        options = [str(v) for v in err.validator_value]  # type: ignore[union-attr]
        expected = "one of " + ", ".join(options)
        alternatives = err.parent.schema if err.parent is not None else None
        if isinstance(node, (dict, list)) and isinstance(alternatives, dict):
            # a mapping or list where a word was expected: the key also takes other shapes
            # (ties: nobody, or per player count): say all of them, as the schema describes them
            desc = str(alternatives.get("description") or "")
            # "what a tie gives: nobody, all, per number of players ({2..3: nobody})...": the
            # shapes are what follows the first ': '
            expected = desc.split(": ", 1)[1] if ": " in desc else desc or expected
        return SchemaError(
            f"{where} cannot be {yaml_text(node)}",
            span,
            expected=expected,
            suggestion=did_you_mean(str(node), options) if isinstance(node, str) else None,
        )
    return SchemaError(f"{where}: {err.message}", span)


#: The head keys of a statement mapping, in the order that decides which one it is: the first
#: found, and 'do' only when there is no other (dsl/build.py builds the statement from it).
STATEMENT_HEADS = (
    "if",
    "for",
    "simultaneous",
    "repeat",
    "while",
    "choose",
    "pick",
    "winner",
    "auction",
    "do",
)


def statement_head(node: Any) -> str | None:
    """The head key of a statement mapping (see STATEMENT_HEADS), or None if it has none."""
    heads = [h for h in STATEMENT_HEADS if h in node]
    if not heads:
        return None
    return "do" if heads == ["do"] else next(h for h in heads if h != "do")


@lru_cache(maxsize=1)
def statement_keys() -> dict[str, list[str]]:
    """For each statement head, the keys its mapping may have (from the schema's per-head
    propertyNames in $defs/compound)."""
    out: dict[str, list[str]] = {}
    for rule in game_schema()["$defs"]["compound"]["allOf"]:
        if "propertyNames" not in rule["then"]:
            continue  # not a head's rule ('elif' requires an 'if' beside it)
        head = rule["if"]["required"][0]
        out[head] = list(rule["then"]["propertyNames"]["enum"])
    return out


def yaml_1_1_hint(node: Any, wants: list[str]) -> str | None:
    """Why a value YAML 1.1 would have read as a boolean or a number is text here."""
    if not isinstance(node, str):
        return None
    if "boolean" in wants and node.lower() in ("yes", "no", "on", "off", "y", "n"):
        return f"meeple reads YAML 1.2, where '{node}' is text: write true or false"
    if "integer" in wants and re.fullmatch(r"[-+]?[0-9]+(:[0-5]?[0-9])+", node):
        return f"meeple reads YAML 1.2, where '{node}' is text (not a number in base 60)"
    return None


_TYPE_WORDS = {
    "array": "a list",
    "object": "a mapping",
    "string": "a text",
    "integer": "a number",
    "boolean": "true/false",
    "null": "nothing",
}


def _describe(path: list[Any]) -> str:
    if not path:
        return "the game file"
    parts: list[str] = []
    for p in path:
        parts.append(f"[{p}]" if isinstance(p, int) else ("." + p if parts else p))
    return "'" + "".join(parts) + "'"


def yaml_text(node: Any, limit: int = 60) -> str:
    """A value of the rules as its author wrote it, in YAML flow style (``the mapping {ties:
    nobody}``, ``the list [a, b]``, ``'somebody'``, ``3``, ``true``), cut after ``limit``
    characters: never Python's repr of a dict."""

    def flow(x: Any) -> str:
        if isinstance(x, dict):
            return "{" + ", ".join(f"{flow(k)}: {flow(v)}" for k, v in x.items()) + "}"
        if isinstance(x, list):
            return "[" + ", ".join(flow(v) for v in x) + "]"
        if isinstance(x, bool):
            return "true" if x else "false"
        if x is None:
            return "null"
        return str(x)

    text = flow(node)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    if isinstance(node, dict):
        return f"the mapping {text}"
    if isinstance(node, list):
        return f"the list {text}"
    if isinstance(node, str):
        return repr(text)
    return text


_DECIMAL = re.compile(r"[-+]?([0-9]*\.[0-9]+|[0-9]+\.)([eE][-+]?[0-9]+)?")


def _kind(node: Any) -> str:
    if isinstance(node, (YMap, dict)):
        return "a mapping"
    if isinstance(node, (YList, list)):
        return "a list"
    if isinstance(node, bool):
        return "true/false"
    if isinstance(node, int):
        return "a number"
    if node is None:
        return "nothing"
    if isinstance(node, float) or (isinstance(node, str) and _DECIMAL.fullmatch(node)):
        return f"{node} (numbers in rules are whole numbers)"
    return "a string"
