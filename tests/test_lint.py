"""``meeple check`` warnings: each one on a game made to have it, none on the shipped games."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from meeple.cli import main
from meeple.dsl.lint import lint
from meeple.dsl.loader import load_rules
from meeple.registry import game_ids, rules_root

DOCS = rules_root().parent / "docs" / "games"


@pytest.mark.parametrize("game", ["shadow-of-the-sun", "harbour-guilds"])
def test_these_games_have_no_warnings(game: str) -> None:
    assert [str(w) for w in lint(load_rules(rules_root() / game).game)] == []


@pytest.mark.parametrize("game", game_ids())
def test_every_warning_points_into_the_game(game: str) -> None:
    folder = (rules_root() / game).resolve()
    for w in lint(load_rules(folder).game):
        assert Path(w.span.file).resolve().is_relative_to(folder) and w.span.line > 0, str(w)


def _game(tmp_path: Path, edit: list[tuple[str, str]]) -> Path:
    """A copy of Shadow of the Sun with text edits, beside a copy of its interpretation log."""
    text = (rules_root() / "shadow-of-the-sun" / "game.yaml").read_text()
    for old, new in edit:
        assert old in text, old
        text = text.replace(old, new, 1)
    folder = tmp_path / "rules" / "sun"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(text)
    (tmp_path / "docs" / "games").mkdir(parents=True)
    shutil.copy(DOCS / "shadow-of-the-sun.md", tmp_path / "docs" / "games" / "sun.md")
    return folder / "game.yaml"


def test_each_warning_is_reported_at_its_rule(tmp_path: Path) -> None:
    f = _game(
        tmp_path,
        [
            (
                "  discard: {visibility: public, source: Player Turns / Special Ability}",
                "  discard: {visibility: public}",
            ),
            ("functions:\n", "functions:\n  spare:\n    source: Test\n    value: 1\n"),
            (
                "procedures:\n",
                "procedures:\n  never:\n    source: Test\n    interpretation: made-up\n"
                "    do:\n      - shuffle discard\n",
            ),
            (
                "      - special_ability(p)\n",
                "      - special_ability(p)\n      - must_discard(p)\n",
            ),
            (
                "  return_marker:\n",
                "  must_discard:\n    source: Test\n    params: [p]\n    do:\n"
                "      - pick: Discard one\n        by: p\n        from: hand[p]\n"
                "        to: discard\n        count: 1\n"
                "      - choose: Any marker\n        by: p\n        options:\n"
                "          - label: '{d}'\n            for: d in districts\n"
                "            when: count(markers_on[d]) > 0\n"
                "  return_marker:\n",
            ),
        ],
    )
    lines = f.read_text().splitlines()

    def line_of(text: str) -> int:
        return next(i for i, x in enumerate(lines, 1) if text in x)

    got = {(w.span.line, w.message.split(":")[0]) for w in lint(load_rules(f).game)}
    assert got == {
        (line_of("  discard: {visibility"), "zone 'discard' has no 'source'"),
        (line_of("  spare:"), "function 'spare' is never used"),
        (
            line_of("  never:"),
            "procedure 'never' is never reached from setup, play, scoring or a trigger",
        ),
        (
            line_of("interpretation: made-up"),
            "interpretation 'made-up' is not documented in sun.md",
        ),
        (line_of("- pick: Discard one"), "this pick can have no legal option"),
        (line_of("- choose: Any marker"), "this choice can have no legal option"),
    }


def test_check_prints_warnings_with_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = _game(
        tmp_path, [("functions:\n", "functions:\n  spare:\n    source: Test\n    value: 1\n")]
    )
    assert main(["check", str(f)]) == 0
    out = capsys.readouterr().out
    assert f"{f}:" in out and "warning: function 'spare' is never used" in out
