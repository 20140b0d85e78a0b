"""Where games live: every folder of meeple.rules holding a game.yaml, or any path."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from meeple.dsl.errors import MeepleError, did_you_mean
from meeple.dsl.yamlload import yaml_file

DEFAULT_GAME = "shadow-of-the-sun"


def rules_root() -> Path:
    return Path(str(resources.files("meeple.rules")))


def game_ids() -> list[str]:
    """Ids of the games shipped with meeple, sorted."""
    return sorted(p.name for p in rules_root().iterdir() if (p / "game.yaml").is_file())


def rules_path(name_or_path: str) -> Path:
    """The rules file of a shipped game id, or of a folder/file path.

    Raises MeepleError naming the known games (and the closest one) for an unknown id."""
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
