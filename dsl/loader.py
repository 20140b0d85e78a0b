"""The front end's orchestrator: load -> validate -> build -> check."""

from __future__ import annotations

from pathlib import Path

from .build import build_game
from .checker import Checked, check
from .errors import MeepleError, SchemaError, SourceSpan
from .validate import validate
from .variant import Variant, load_variant_doc
from .yamlload import YMap, load_yaml_file, yaml_file


def load_rules(path: str | Path) -> Checked:
    """Load a game from a rules folder (containing game.yaml) or a .yaml file.

    Returns the checked IR. Raises a MeepleError subclass (YamlError, SchemaError, ParseError,
    CheckError) with file, line and column for any problem in the rules.
    """
    p = Path(path)
    file = yaml_file(p, "game") if p.is_dir() else p
    if not file.exists():
        raise MeepleError(f"no rules file at {file}")
    doc = load_yaml_file(file)
    if not isinstance(doc, YMap) or not doc:
        raise SchemaError(
            "a game file must be a mapping with 'game:', 'play:' and the other sections",
            getattr(doc, "span", None) or SourceSpan(str(file), 1, 1),
        )
    validate(doc)
    checked = check(build_game(doc, str(file)))
    checked.files = (str(file),)
    return checked


def load_variant(path: str | Path, game_file: str | Path | None = None) -> tuple[Checked, Variant]:
    """Load a variant file (see dsl/variant.py): its game with the variant's changes, checked.
    ``game_file``: the rules file it was asked for, the game its ``extends:`` names by id.

    The game's name gains the variant's name. Errors in the variant's own values point into the
    variant file."""
    doc, variant, game_file = load_variant_doc(path, game_file=game_file)
    files = {str(Path(v.file)) for v in variant.chain()}
    try:
        validate(doc)
        meta = doc["game"]
        if isinstance(meta, YMap):
            meta["name"] = f"{meta['name']} (variant: {variant.name})"
        checked = check(build_game(doc, str(game_file)))
        checked.files = (str(game_file), *(str(v.file) for v in variant.chain()))
        return checked, variant
    except MeepleError as e:
        if e.span is None or e.span.file not in files:
            # e.g. a rule of the game uses what the variant removed: say which variant did
            e.message += f" (with the changes of variant '{variant.id}', {variant.file})"
        raise
