"""Where games live: every folder of meeple.rules holding a game.yaml, or any path."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import TypeAlias

from meeple.dsl.errors import MeepleError, did_you_mean
from meeple.dsl.yamlload import yaml_file

DEFAULT_GAME = "shadow-of-the-sun"

#: How a game (or a variant) is named wherever one is accepted: a shipped game's id, or a path
#: to a rules folder or file as a str or any os.PathLike (``pathlib.Path``).
GamePath: TypeAlias = str | os.PathLike[str]


def game_name(value: object, what: str = "game") -> str:
    """``value`` (a game or, with ``what="variant"``, a variant as given to the API) as text.

    Accepts a str or an os.PathLike whose path is a str; anything else (``42``, ``None``,
    ``b"..."``) raises MeepleError saying what a game (or a variant) is, rather than the
    TypeError that ``os.fspath`` or ``Path`` would raise deep inside."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        text = os.fspath(value)
        if isinstance(text, str):
            return text
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    if what == "variant":
        expected = "a variant id of the game (a str like 'two-guilds') or a variant file's path"
    else:
        expected = (
            "a shipped game's id (a str like 'harbour-guilds'; see `meeple list`) or the path of"
            " its rules folder or file (a str or a pathlib.Path)"
        )
    raise MeepleError(
        f"a {what} is named by an id or a path, not by {type(value).__name__} {shown}",
        expected=expected,
    )


def rules_root() -> Path:
    return Path(str(resources.files("meeple.rules")))


def game_ids() -> list[str]:
    """Ids of the games shipped with meeple, sorted."""
    return sorted(p.name for p in rules_root().iterdir() if (p / "game.yaml").is_file())


def rules_path(name_or_path: GamePath) -> Path:
    """The rules file of a shipped game id, or of a folder/file path (a str or a Path).

    Raises MeepleError naming the known games (and the closest one) for an unknown id."""
    name_or_path = game_name(name_or_path)
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.is_dir() or "/" in name_or_path:
        if p.is_dir():
            p = yaml_file(p, "game")
        if not p.is_file():
            folder = p.parent.name if p.suffix in (".yaml", ".yml") else p.name
            hint = None
            if folder in game_ids():  # `rules/<id>` run outside a checkout of meeple
                hint = f"a shipped game is named by its id anywhere: {folder}"
            raise MeepleError(f"no rules file at {p}", suggestion=hint)
        return p
    ids = game_ids()
    if name_or_path not in ids:
        hint = did_you_mean(name_or_path, ids)
        raise MeepleError(
            f"unknown game '{name_or_path}'", expected="one of " + ", ".join(ids), suggestion=hint
        )
    return rules_root() / name_or_path / "game.yaml"
