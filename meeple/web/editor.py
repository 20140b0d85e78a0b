"""The page's rules editor: ``meeple check`` on the text being typed, and the game's scenarios
re-run on the edited rules.

The text comes from a web request: it is untrusted like any rules file (docs/security.md). It
is checked by the same front end as ``meeple check``, with the same limits (dsl/limits.py), in
a private copy of the game's folder (a temporary directory), so a variant still finds the game
it extends and a scenario the rules it tests; the shipped files are never written. Positions in
the copy are reported with the game's own file names (``shadow-of-the-sun/game.yaml``).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from meeple.dsl.errors import MeepleError, SourceSpan
from meeple.dsl.limits import MAX_FILE_BYTES
from meeple.registry import rules_root

from .tables import known_game

#: Scenario files re-run per request at most (the shipped games have up to ~30).
MAX_SCENARIOS = 100


def rules_files(game: str) -> list[str]:
    """The editable files of a shipped game, relative to its folder: game.yaml, then variants."""
    folder = rules_root() / known_game(game)
    return ["game.yaml"] + [f"variants/{f.name}" for f in sorted(folder.glob("variants/*.yaml"))]


def read_rules_file(game: str, name: Any) -> str:
    """The shipped text of one of ``rules_files(game)``."""
    return (rules_root() / game / _editable(game, name)).read_text(encoding="utf-8")


def _editable(game: str, name: Any) -> str:
    files = rules_files(game)
    if not isinstance(name, str) or name not in files:
        raise MeepleError(
            f"{str(name)[:60]!r} is not a rules file of {game}",
            expected="one of " + ", ".join(files),
        )
    return name


@contextmanager
def _workspace(game: str, edits: dict[str, str]) -> Iterator[Path]:
    """A private copy of the game's folder with ``edits`` (file name -> text) written over it."""
    for name, text in edits.items():
        _editable(game, name)
        if not isinstance(text, str):
            raise MeepleError(f"the text of {name} must be a string")
        size = len(text.encode("utf-8"))
        if size > MAX_FILE_BYTES:
            raise MeepleError(
                f"{game}/{name} is {size:,} bytes; the limit is {MAX_FILE_BYTES:,} bytes "
                "(MAX_FILE_BYTES)",
                SourceSpan(f"{game}/{name}", 1, 1),
            )
    with tempfile.TemporaryDirectory(prefix="meeple-edit-") as tmp:
        folder = Path(tmp) / game  # the folder keeps its name: 'extends: <game>' still resolves
        src = rules_root() / game
        folder.mkdir()
        shutil.copy(src / "game.yaml", folder / "game.yaml")
        for sub in ("variants", "scenarios"):
            if (src / sub).is_dir():
                shutil.copytree(src / sub, folder / sub)
        for name, text in edits.items():
            (folder / name).write_text(text, encoding="utf-8")
        yield folder


def _shown(file: str, folder: Path, game: str) -> str:
    """A file of the private copy as the game's own file name."""
    try:
        return f"{game}/{Path(file).resolve().relative_to(folder.resolve()).as_posix()}"
    except ValueError:
        return Path(file).name


def error_json(e: MeepleError, folder: Path | None = None, game: str = "") -> dict[str, Any]:
    """A MeepleError as the page shows it: message, kind, file, line, col (1-based) and the
    end of the span, what was expected and a suggestion."""
    span = e.span
    file = span.file if span else ""
    if span and folder is not None:
        file = _shown(span.file, folder, game)
    where = f"{file}:{span.line}:{span.col}: " if span else ""
    text = f"{where}{e.kind}: {e.message}"
    if e.expected:
        text += f"; expected {e.expected}"
    if e.suggestion:
        text += f"; {e.suggestion}"
    return {
        "error": text,
        "kind": e.kind,
        "message": e.message,
        "file": file or None,
        "line": span.line if span else None,
        "col": span.col if span else None,
        "end_line": (span.end_line or span.line) if span else None,
        "end_col": (span.end_col or span.col + 1) if span else None,
        "expected": e.expected,
        "suggestion": e.suggestion,
        "trace": list(e.trace),
    }


def check_text(game: str, name: Any, text: Any) -> dict[str, Any]:
    """``meeple check`` on ``text`` as the game's file ``name``: ``{"ok", "errors",
    "warnings", "summary"}``, each error and warning with file, line and col."""
    from meeple.dsl.lint import find_interpretation_log, lint  # noqa: PLC0415
    from meeple.dsl.loader import load_rules, load_variant  # noqa: PLC0415

    known_game(game)
    name = _editable(game, name)
    with _workspace(game, {name: text}) as folder:
        try:
            if name == "game.yaml":
                checked = load_rules(folder / name)
            else:
                checked = load_variant(folder / name)[0]
        except MeepleError as e:
            return {"ok": False, "errors": [error_json(e, folder, game)], "warnings": []}
        g = checked.game
        log = find_interpretation_log(str(rules_root() / game / "game.yaml"))
        warnings = [
            {
                "text": f"{_shown(w.span.file, folder, game)}:{w.span.line}:{w.span.col}: "
                f"warning: {w.message}" + (f"; {w.suggestion}" if w.suggestion else ""),
                "file": _shown(w.span.file, folder, game),
                "line": w.span.line,
                "col": w.span.col,
            }
            for w in lint(g, log)
        ]
    summary = (
        f"ok: {g.name} ({g.players_min}-{g.players_max} players), {len(g.procedures)} "
        f"procedures, {len(g.kinds)} component kinds, {len(g.zones)} zones"
    )
    return {"ok": True, "errors": [], "warnings": warnings, "summary": summary}


def run_scenarios(game: str, edits: Any) -> list[dict[str, Any]]:
    """The game's scenarios (``meeple scenarios``) run on the rules with ``edits`` (file name
    -> text; {} for the shipped rules): per scenario its name, file, passed, failures, error."""
    from meeple.scenarios import run_scenario, scenario_files  # noqa: PLC0415

    known_game(game)
    if not isinstance(edits, dict):
        raise MeepleError("edits is a mapping of file name to text")
    results = []
    with _workspace(game, edits) as folder:
        for f in scenario_files(folder)[:MAX_SCENARIOS]:
            shown = _shown(str(f), folder, game)
            try:
                outcome = run_scenario(f)
            except MeepleError as e:
                err = error_json(e, folder, game)
                results.append({"file": shown, "name": f.stem, "passed": False, "error": err})
                continue
            results.append(
                {
                    "file": shown,
                    "name": outcome.name,
                    "passed": outcome.passed,
                    "failures": [x.replace(str(folder), game) for x in outcome.failures],
                }
            )
    return results
