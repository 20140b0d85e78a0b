"""Every guess is documented: interpretation names in the rules match the game's docs entries."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeple.registry import game_ids, rules_root

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _used(game: str) -> set[str]:
    folder = rules_root() / game
    text = "".join(p.read_text() for p in [folder / "game.yaml", *folder.glob("scenarios/*.yaml")])
    return set(re.findall(r"interpretation:\s*([a-z0-9-]+)", text))


def _documented(game: str) -> set[str]:
    doc = DOCS / "games" / f"{game}.md"
    return set(re.findall(r"^## ([a-z0-9-]+)\s*$", doc.read_text(), flags=re.M))


@pytest.mark.parametrize("game", game_ids())
def test_every_interpretation_named_in_the_rules_is_documented(game: str) -> None:
    missing = _used(game) - _documented(game)
    assert not missing, f"docs/games/{game}.md lacks entries for {sorted(missing)}"


@pytest.mark.parametrize("game", game_ids())
def test_every_documented_interpretation_is_used_by_a_rule(game: str) -> None:
    unused = _documented(game) - _used(game)
    assert not unused, f"entries no rule names (cite them in rules/{game}): {sorted(unused)}"


@pytest.mark.parametrize("game", game_ids())
def test_each_entry_states_question_choice_and_why(game: str) -> None:
    text = (DOCS / "games" / f"{game}.md").read_text()
    for entry in re.split(r"^## ", text, flags=re.M)[1:]:
        name = entry.splitlines()[0]
        for part in ("**Question.**", "**Choice.**", "**Why.**"):
            assert part in entry, f"entry {name} lacks {part}"
