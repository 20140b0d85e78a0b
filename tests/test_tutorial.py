"""docs/tutorial.md runs as written: each step's YAML is added to a game file, each command is
run on it and must print exactly what the page shows (the whole output, so the page cannot drift
from the program); the finished game is the one shipped in rules/.

When the program's output changes on purpose, rewrite the page's outputs with:

    MEEPLE_REGEN_TUTORIAL=1 python -m pytest -n0 tests/test_tutorial.py

and read the diff: the prose around an output may need to change too.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from meeple.cli import main
from meeple.registry import rules_root

TUTORIAL = rules_root().parent / "docs" / "tutorial.md"
GAME = rules_root() / "harbour-guilds"
FOLDER = "rules/harbour-guilds"
# sections whose entries a step adds to; the others a step replaces
MERGED = {"components", "zones", "variables", "tables", "functions", "procedures"}
_BLOCK = re.compile(
    r"<!-- tutorial: (?P<what>add to game\.yaml|file (?P<file>\S+)|run) -->\n"
    r"```(?:yaml|console)\n(?P<body>.*?)```",
    re.S,
)


def _steps() -> list[tuple[str, str | None, str, str, tuple[int, int]]]:
    """(step heading, file or None, kind, body, body's span in the page) for every marked
    block, in order."""
    text = TUTORIAL.read_text(encoding="utf-8")
    out = []
    for m in _BLOCK.finditer(text):
        heading = re.findall(r"^## (.+)$", text[: m.start()], flags=re.M)[-1]
        kind = "run" if m["what"] == "run" else "add" if m["file"] is None else "file"
        out.append((heading, m["file"], kind, m["body"], m.span("body")))
    return out


def _merge(doc: dict[str, Any], fragment: dict[str, Any]) -> None:
    for key, value in fragment.items():
        if key in MERGED and key in doc:
            doc[key].update(value)
        else:
            doc[key] = value


def _run(line: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    args = [str(folder) if a == FOLDER else a for a in shlex.split(line)[2:]]
    code = main(args)
    out, err = capsys.readouterr()
    return code, (out + err).replace(str(folder), FOLDER)


def test_tutorial_steps_run_and_build_the_shipped_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "harbour-guilds"  # a variant extends the game by its folder's name
    folder.mkdir()
    doc: dict[str, Any] = {}
    steps = _steps()
    assert {k for _, _, k, _, _ in steps} == {"add", "file", "run"} and len(steps) >= 15
    regen = bool(os.environ.get("MEEPLE_REGEN_TUTORIAL"))
    rewritten: list[tuple[tuple[int, int], str]] = []  # (span, new body) of each run block
    for heading, file, kind, body, span in steps:
        if kind == "add":
            _merge(doc, yaml.safe_load(body))
            (folder / "game.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
        elif kind == "file":
            assert file is not None
            (folder / file).parent.mkdir(parents=True, exist_ok=True)
            (folder / file).write_text(body)
            assert (GAME / file).read_text() == body, f"{heading}: rules/harbour-guilds/{file}"
        else:
            commands = re.split(r"^(?=\$ )", body, flags=re.M)
            printed = ""
            for block in filter(None, commands):
                line, _, shown = block.partition("\n")
                code, out = _run(line, folder, capsys)
                assert code == 0, f"{heading}: `{line}` failed:\n{out}"
                # rich pads table rows with spaces; a progress bar (stderr, not a terminal here)
                # leaves an empty line at the end
                out = "\n".join(x.rstrip() for x in out.split("\n")).rstrip("\n") + "\n"
                printed += f"{line}\n{out}"
                if not regen:
                    assert out == shown, f"{heading}: `{line}` printed\n{out}\nnot\n{shown}"
            rewritten.append((span, printed))
    if regen:
        text = TUTORIAL.read_text(encoding="utf-8")
        for (start, end), new in reversed(rewritten):
            text = text[:start] + new + text[end:]
        TUTORIAL.write_text(text, encoding="utf-8")
    shipped = yaml.safe_load((GAME / "game.yaml").read_text())
    assert shipped == doc, "rules/harbour-guilds/game.yaml is not the tutorial's game"
