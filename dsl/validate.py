"""Validate a game file against the JSON Schema; report the best error at its YAML position."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from .errors import SchemaError, SourceSpan, did_you_mean
from .yamlload import YList, YMap, span_of


@lru_cache(maxsize=1)
def game_schema() -> dict[str, Any]:
    """The game-file schema (draft 2020-12), from dsl/schema/game.schema.json."""
    text = resources.files("meeple.dsl").joinpath("schema/game.schema.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(game_schema())


def validate(doc: Any) -> None:
    """Raise SchemaError for the most relevant schema violation in ``doc``, if any."""
    errors = list(_validator().iter_errors(doc))
    if not errors:
        return
    err = best_match(errors, key=_relevance)
    raise _to_error(_descend(err), doc)


def validate_against(doc: Any, validator: jsonschema.protocols.Validator, what: str) -> None:
    """Like ``validate``, for another schema (e.g. a variant file's); ``what`` names the file."""
    errors = list(validator.iter_errors(doc))
    if errors:
        # a misspelt key also makes a required key missing: name the misspelling
        unknown = [x for x in errors if x.validator == "additionalProperties"]
        e = _to_error(_descend(best_match(unknown or errors, key=_relevance)), doc)
        e.message = e.message.replace("the game file", what)
        raise e


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


def _to_error(err: ValidationError, doc: Any) -> SchemaError:
    path = list(err.absolute_path)
    parent, node, span = _walk(doc, path)
    where = _describe(path)
    schema: dict[str, Any] = err.schema if isinstance(err.schema, dict) else {}
    if err.validator == "additionalProperties" and isinstance(node, YMap):
        allowed = list((schema.get("properties") or {}).keys())
        extra = [k for k in node if k not in allowed]
        key = extra[0] if extra else "?"
        return SchemaError(
            f"unknown key '{key}' in {where}",
            node.key_spans.get(key, span),
            expected="one of " + ", ".join(allowed) if allowed else None,
            suggestion=did_you_mean(key, allowed),
        )
    if "propertyNames" in err.schema_path and isinstance(node, YMap):
        bad = err.instance if isinstance(err.instance, str) else str(err.instance)
        keys = [str(k) for k in schema.get("enum", [])]
        return SchemaError(
            f"unknown key '{bad}' in {where}",
            node.key_spans.get(bad, span),
            suggestion=did_you_mean(bad, keys),
        )
    if err.validator == "required":
        m = re.match(r"'([^']+)' is a required property", err.message)
        missing = m.group(1) if m else "?"
        at = span
        if isinstance(parent, YMap) and path:
            at = parent.key_spans.get(str(path[-1])) or span
        return SchemaError(f"{where} is missing the required key '{missing}'", at)
    if err.validator == "type":
        want = err.validator_value
        wants = [str(w) for w in (want if isinstance(want, list) else [want])]
        words = " or ".join(_TYPE_WORDS.get(w, w) for w in wants)
        return SchemaError(
            f"{where} has the wrong type", span, expected=f"{words}, not {_kind(node)}"
        )
    if err.validator == "enum":
        options = [str(v) for v in err.validator_value]  # type: ignore[union-attr]
        return SchemaError(
            f"{where} cannot be {node!r}",
            span,
            expected="one of " + ", ".join(options),
            suggestion=did_you_mean(str(node), options),
        )
    return SchemaError(f"{where}: {err.message}", span)


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
    return "a string"
