"""Variants: a YAML file that ``extends`` a game (or another variant) and changes it by path.

A variant file reads::

    variant: short-game            # its id (the file name without .yaml)
    name: A shorter game           # shown in titles
    extends: shadow-of-the-sun     # a game id, or another variant of the same game
    rationale: >-
      One paragraph: what the variant changes and why a table would want it.
    changes:
      - set: components.days.items[name=The Spires Day (2 markers)].markers
        to: 3
      - add: procedures.new_rule          # a new key of a mapping, or an item at the end of a list
        value: {source: ..., do: [...]}
      - remove: procedures.day.do[4]

A path is dot-separated keys; ``[N]`` selects the N-th item of a list (from 0) and
``[key=value]`` the item whose ``key`` is ``value`` (``items[name=Masqued]``). The changed
document is validated, built and checked like a game file; every value that came from the variant
keeps the variant file's positions, so schema, grammar and check errors in it point into the
variant. A path that does not exist is reported at the path's own segment, with the closest key.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from meeple.wording import plural

from .errors import MeepleError, SchemaError, SourceSpan, did_you_mean
from .validate import validate_against
from .yamlload import YList, YMap, YStr, load_yaml_file, yaml_file, yaml_files

VARIANTS_DIR = "variants"
_OPS = ("set", "add", "remove")


@dataclass(frozen=True)
class Change:
    """One change of a variant: ``op`` (set/add/remove) at ``path`` (with the new value)."""

    op: str
    path: str
    value: Any
    span: SourceSpan


@dataclass
class Variant:
    """A loaded variant: its id, title, rationale, the file it extends, its own changes."""

    id: str
    name: str
    file: str
    extends: str
    rationale: str
    changes: list[Change] = field(default_factory=list)
    base: Variant | None = None  # the variant it extends, if it extends a variant

    def chain(self) -> list[Variant]:
        """This variant and the variants it extends, base-most first."""
        out: list[Variant] = []
        v: Variant | None = self
        while v is not None:
            out.append(v)
            v = v.base
        return out[::-1]


def variant_files(game_folder: str | Path) -> list[Path]:
    """The variant files of a game folder (``<game>/variants/*.yaml`` or ``*.yml``), sorted."""
    return yaml_files(Path(game_folder) / VARIANTS_DIR)


def find_variant(game_file: str | Path, name_or_path: str) -> Path:
    """The file of variant ``name_or_path`` of the game whose rules file is ``game_file``."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml"):
        if not _is_file(p):
            raise MeepleError(f"no variant file at {p}")
        return p
    if is_variant_file(game_file):  # `meeple diff two-guilds.yaml harbour-guilds`: swapped
        raise MeepleError(
            f"{game_file} is a variant file, not a game: a variant is applied to a game",
            expected="a game (its id or its rules file) first, then the variant",
            suggestion=f"name the game it extends first, then {game_file}",
        )
    folder = Path(game_file).parent
    f = yaml_file(folder / VARIANTS_DIR, name_or_path)
    if not _is_file(f):
        known = [v.stem for v in variant_files(folder)]
        raise MeepleError(
            f"the game {_game_id(Path(game_file)) or game_file} has no variant '{name_or_path}'",
            expected="one of " + ", ".join(known) if known else "a variant file",
            suggestion=did_you_mean(name_or_path, known),
        )
    return f


@lru_cache(maxsize=1)
def variant_schema() -> dict[str, Any]:
    """The variant-file schema (dsl/schema/variant.schema.json)."""
    text = resources.files("meeple.dsl").joinpath("schema/variant.schema.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def load_variant_doc(
    file: str | Path, seen: tuple[str, ...] = (), game_file: str | Path | None = None
) -> tuple[YMap, Variant, Path]:
    """Load a variant and apply it (and the variants it extends) to its game's document.

    ``game_file``: the rules file the variant was asked for (``meeple diff base.yaml V``); an
    ``extends:`` naming that game's id means that file, wherever it is.

    Returns the changed game document, the Variant and the game's rules file. The chain of
    variants is followed with a loop, not a recursion, so however many variant files extend one
    another nothing overflows the stack; a cycle is a SchemaError at the 'extends' that closes
    it."""
    chain: list[tuple[Path, YMap]] = []
    seen_files = list(seen)
    file = Path(file)
    while True:
        doc = load_yaml_file(file)
        if not isinstance(doc, YMap) or not doc:
            raise SchemaError(
                "a variant file must be a mapping with 'variant:', 'extends:' and 'changes:'",
                getattr(doc, "span", None) or SourceSpan(str(file), 1, 1),
            )
        if "game" in doc:  # a game file given where a variant is expected is not read as one
            raise SchemaError(
                "this is a game file, not a variant (it has 'game:')",
                doc.key_spans["game"],
                expected="a variant file: 'variant:', 'extends:' and 'changes:'",
                suggestion="give the game as the game, and a variant file as the variant",
            )
        validate_against(doc, jsonschema.Draft202012Validator(variant_schema()), "the variant file")
        if str(file.resolve()) in seen_files:
            raise SchemaError(
                "this variant extends itself (through "
                + " -> ".join(Path(s).stem for s in seen_files)
                + ")",
                doc.value_spans["extends"],
            )
        seen_files.append(str(file.resolve()))
        chain.append((file, doc))
        base_file, base_is_variant = _resolve_extends(file, doc["extends"], game_file)
        if not base_is_variant:
            break
        file = base_file
    game_file = base_file
    game_doc = load_yaml_file(base_file)
    if not isinstance(game_doc, YMap) or "game" not in game_doc:
        # reported at the variant's own 'extends:', saying nothing of what the file holds
        raise SchemaError(
            f"'extends: {doc['extends']}' names a file that is not a game (no 'game:' at its top)",
            doc.value_spans["extends"],
            expected="the id of a game file",
        )
    base: Variant | None = None
    for vfile, doc in reversed(chain):  # the base-most variant first
        changes = []
        for i, ch in enumerate(doc["changes"]):
            op = next(o for o in _OPS if o in ch)
            value = ch.get("to", ch.get("value"))
            changes.append(Change(op, str(ch[op]), value, doc["changes"].item_spans[i]))
            apply_change(game_doc, ch, op)
        base = Variant(
            id=str(doc["variant"]),
            name=str(doc["name"]),
            file=str(vfile),
            extends=str(doc["extends"]),
            rationale=" ".join(str(doc["rationale"]).split()),
            changes=changes,
            base=base,
        )
    assert base is not None
    return game_doc, base, game_file


def _is_file(p: Path) -> bool:
    """``p.is_file()``, False also for a name the file system refuses (too long, NUL): an
    ``extends:`` written by a stranger is a name to look up, not a path to trust."""
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


#: what ``extends:`` accepts: an id (a game's or a variant's), never a path or a file name
_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")


def _resolve_extends(
    file: Path, ext: YStr, game_file: str | Path | None = None
) -> tuple[Path, bool]:
    """The file a variant extends and whether it is itself a variant (``game_file``: see
    load_variant_doc).

    ``extends:`` is an id, never a path: text written by a stranger (a shared variant, a request
    to ``meeple serve``) must not make meeple read a file it chose. The id is looked up in three
    places only: the game the variant was asked for (``game_file``) or the game file of its own
    folder (``game.yaml`` beside it, or above its ``variants/`` folder), by that game's id; a
    variant file of the same folder, by its id (a file that is not a variant is never read as
    one); a shipped game, by its id, for a variant that has no game of its own. Raises
    SchemaError at the ``extends:`` value otherwise; the message names ids only, never another
    file's contents, keys or folders."""
    name = str(ext)
    file = file.resolve()  # a game given as '.' still has a folder name
    in_variants = file.parent.name == VARIANTS_DIR
    game_folder = file.parent.parent if in_variants else file.parent
    own = yaml_file(game_folder, "game")
    has_own = _is_file(own) and own != file
    own_id = _game_id(own) if has_own else None

    def ids() -> list[str]:  # for messages only: listing a folder per link made chains quadratic
        known = [x for x in (own_id,) if x]
        if in_variants:
            known += [v.stem for v in variant_files(game_folder) if v.resolve() != file]
        elif not has_own:
            known += _shipped_ids()
        return known

    if not _ID.fullmatch(name):
        stem = Path(name.replace("\\", "/")).stem  # text only: nothing is looked up on disk
        raise SchemaError(
            "'extends:' takes an id, not a path or a file name",
            ext.span,
            expected="the id of this variant's game or of another variant of it"
            + (" (one of " + ", ".join(known) + ")" if (known := ids()) else ""),
            suggestion=f"write the id alone, without a folder or '.yaml': 'extends: {stem}'"
            if _ID.fullmatch(stem)
            else "write the game's id (its game.id) or a variant's id (its file name, no .yaml)",
        )
    if game_file is not None and _is_file(Path(game_file)):
        given = Path(game_file).resolve()
        if name == _game_id(given):  # the game the variant was asked for, by its id
            return given, False
    # the game of the variant's own folder, by its id (or its folder's name, which a copy of a
    # shipped game folder keeps); only that one file can be reached this way
    if has_own and name in (own_id, game_folder.name):
        return own, False
    sibling = yaml_file(file.parent, name)
    if _is_file(sibling) and sibling.resolve() == file:
        raise SchemaError(
            f"'extends: {name}' names this variant itself; a variant cannot extend itself",
            ext.span,
            expected="the game's id or another variant of it",
        )
    if _is_file(sibling) and is_variant_file(sibling):  # a game file is never read as a variant
        return sibling, True
    if not has_own:
        shipped = _shipped_game(name)
        if shipped is not None:  # a variant with no game of its own extends a shipped game
            return shipped, False
    known = ids()
    raise SchemaError(
        f"'extends: {name}' names neither this variant's game nor one of its variants",
        ext.span,
        expected="one of " + ", ".join(known) if known else "the id of this variant's game",
        suggestion=did_you_mean(name, known),
    )


def _shipped_ids() -> list[str]:
    """The ids of the games shipped with meeple (the folders of meeple.rules with a game.yaml)."""
    root = Path(str(resources.files("meeple.rules")))
    return sorted(p.name for p in root.iterdir() if _is_file(p / "game.yaml"))


def _shipped_game(name: str) -> Path | None:
    """The rules file of the game shipped with meeple whose id is ``name``, or None. Only a
    plain id is looked up (a name with '/' or '..' is no id: it must not reach other folders)."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        return None
    f = Path(str(resources.files("meeple.rules"))) / name / "game.yaml"
    return f if _is_file(f) else None


def is_variant_file(file: str | Path) -> bool:
    """Is ``file`` a variant file, wherever it stands: a YAML file whose top level is a mapping
    with ``variant:`` or ``extends:`` and no ``game:`` (a game file always has ``game:``)? A
    file that cannot be read or parsed is not one here (loading it as a game reports why)."""
    p = Path(file)
    if p.suffix not in (".yaml", ".yml") or not _is_file(p):
        return False
    try:
        return _top_is_variant(str(p.resolve()), p.stat().st_mtime)
    except OSError:
        return False


@lru_cache(maxsize=64)
def _top_is_variant(file: str, mtime: float) -> bool:
    try:
        doc = load_yaml_file(file)
    except MeepleError:
        return False
    return isinstance(doc, YMap) and "game" not in doc and ("variant" in doc or "extends" in doc)


def variant_game_file(file: str | Path) -> Path:
    """The game file that variant ``file`` changes, following ``extends:`` through the variants
    it extends. A chain that cannot be followed (a broken file, an unknown name, a cycle) gives
    ``file`` itself: loading the variant then reports the error at its position."""
    p = Path(file)
    if p.parent.name == VARIANTS_DIR and _is_file(yaml_file(p.parent.parent, "game")):
        return yaml_file(p.parent.parent, "game")  # the usual place: <game>/variants/<id>.yaml
    seen: set[Path] = set()
    cur = p
    while cur.resolve() not in seen:
        seen.add(cur.resolve())
        try:
            doc = load_yaml_file(cur)
            ext = doc.get("extends") if isinstance(doc, YMap) else None
            if not isinstance(ext, YStr):
                return p
            cur, is_variant = _resolve_extends(cur, ext)
        except MeepleError:
            return p
        if not is_variant:
            return cur
    return p


def _game_id(game_file: Path) -> str | None:
    """The ``game.id`` of a rules file, or None if the file cannot tell (its own errors are
    reported when the game is loaded)."""
    try:
        doc = load_yaml_file(game_file)
    except MeepleError:
        return None
    meta = doc.get("game") if isinstance(doc, YMap) else None
    gid = meta.get("id") if isinstance(meta, YMap) else None
    return str(gid) if isinstance(gid, str) else None


# ------------------------------------------------------------------------------------ paths
def parse_path(path: YStr | str) -> list[tuple[str | int | tuple[str, str], int, int]]:
    """Split a path into steps: a key, a list index, or a (key, value) selector; each with the
    offsets of its text in the path string (for error positions)."""
    text = str(path)
    steps: list[tuple[str | int | tuple[str, str], int, int]] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] == "[":
            j = text.find("]", i)
            if j < 0:
                raise SchemaError("'[' is never closed in this path", _at(path, i, i + 1))
            inner = text[i + 1 : j].strip()
            if inner.isascii() and inner.isdigit():
                steps.append((int(inner), i, j + 1))
            elif "=" in inner:
                k, v = inner.split("=", 1)
                steps.append(((k.strip(), v.strip().strip("'\"")), i, j + 1))
            else:
                raise SchemaError(
                    f"'[{inner}]' selects nothing",
                    _at(path, i, j + 1),
                    expected="a list position like [0] or a selector like [name=Masqued]",
                )
            i = j + 1
            if i < n and text[i] == ".":
                i += 1
            continue
        j = i
        while j < n and text[j] not in ".[":
            j += 1
        key = text[i:j].strip()
        if not key:
            raise SchemaError("an empty step in this path", _at(path, i, i + 1))
        steps.append((key, i, j))
        i = j + 1 if j < n and text[j] == "." else j
    if not steps:
        raise SchemaError("the path is empty", _at(path, 0, 1))
    return steps


def _at(path: YStr | str, a: int, b: int) -> SourceSpan | None:
    return path.span_at(a, b) if isinstance(path, YStr) else None


def _describe(node: Any) -> str:
    if isinstance(node, dict):
        return "a mapping"
    if isinstance(node, list):
        return "a list"
    return f"the value {node!r}"


def _step(node: Any, step: str | int | tuple[str, str], path: YStr | str, a: int, b: int) -> Any:
    """The position ``step`` inside ``node``: a key (str) or an index (int) of it."""
    if isinstance(step, str):
        if not isinstance(node, dict):
            raise SchemaError(
                f"'{step}' is a key, but the path reaches {_describe(node)} here", _at(path, a, b)
            )
        if step not in node:
            raise SchemaError(
                f"the path does not exist: there is no '{step}' here",
                _at(path, a, b),
                expected="one of " + ", ".join(map(str, node)) if node else "nothing (it is empty)",
                suggestion=did_you_mean(step, [str(k) for k in node]),
            )
        return step
    if not isinstance(node, list):
        raise SchemaError(
            f"a list step, but the path reaches {_describe(node)} here", _at(path, a, b)
        )
    if isinstance(step, int):
        if step >= len(node):
            raise SchemaError(
                f"the path does not exist: the list has {plural(len(node), 'item')}"
                + (f" (0 to {len(node) - 1})" if len(node) > 1 else " (0)" if node else ""),
                _at(path, a, b),
            )
        return step
    key, want = step
    found = [i for i, x in enumerate(node) if isinstance(x, dict) and str(x.get(key)) == want]
    if len(found) != 1:
        have = [str(x.get(key)) for x in node if isinstance(x, dict) and key in x]
        raise SchemaError(
            f"the path does not exist: no item with {key} = {want}"
            if not found
            else f"{len(found)} items have {key} = {want}; select one by position",
            _at(path, a, b),
            expected="one of " + ", ".join(have) if have and not found else None,
            suggestion=did_you_mean(want, have) if not found else None,
        )
    return found[0]


def resolve(doc: YMap, path: YStr | str) -> tuple[Any, str | int]:
    """The container holding ``path``'s last step and that step's key or index."""
    steps = parse_path(path)
    node: Any = doc
    for step, a, b in steps[:-1]:
        node = node[_step(node, step, path, a, b)]
    last, a, b = steps[-1]
    return node, _step(node, last, path, a, b)


def apply_change(doc: YMap, ch: YMap, op: str) -> None:
    """Apply one change mapping (``set``/``add``/``remove``) to ``doc`` in place."""
    path = ch[op]
    if op == "set":
        parent, key = resolve(doc, path)
        parent[key] = ch["to"]
        _set_span(parent, key, ch.value_spans["to"])
    elif op == "remove":
        parent, key = resolve(doc, path)
        del parent[key]
        if isinstance(parent, YMap):
            parent.value_spans.pop(str(key), None)
            parent.key_spans.pop(str(key), None)
        elif isinstance(parent, YList):
            del parent.item_spans[int(key)]
    else:  # add: a new key of a mapping, or a new last item of a list
        steps = parse_path(path)
        node: Any = doc
        for step, a, b in steps[:-1]:
            node = node[_step(node, step, path, a, b)]
        last, a, b = steps[-1]
        span = ch.value_spans["value"]
        if isinstance(node, dict) and isinstance(last, str) and last not in node:
            node[last] = ch["value"]
            if isinstance(node, YMap):
                node.key_spans[last] = _at(path, a, b) or span
                node.value_spans[last] = span
            return
        target = node[_step(node, last, path, a, b)]
        if isinstance(target, list):
            target.append(ch["value"])
            if isinstance(target, YList):
                target.item_spans.append(span)
            return
        raise SchemaError(
            f"'{last}' already exists; 'add' makes a new key or appends to a list",
            _at(path, a, b),
            suggestion="use 'set' to replace it",
        )


def _set_span(parent: Any, key: str | int, span: SourceSpan) -> None:
    if isinstance(parent, YMap):
        parent.value_spans[str(key)] = span
    elif isinstance(parent, YList):
        parent.item_spans[int(key)] = span
