"""Issue 17, the first hour with meeple: the API without surprises, the project's license,
changelog and version, the end reason of a game on both back ends."""

from __future__ import annotations

import pydoc
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sampling import every_third

import meeple
from meeple.cli import main
from meeple.endings import end_reason

ROOT = Path(__file__).parent.parent
tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the checks below read pyproject.toml


def test_result_log_is_the_games_log() -> None:
    r = meeple.play(meeple.load("shadow-of-the-sun", players=4), seed=0)
    assert r.log and len(r.log) == len(r.state.log)
    assert r.log[0] == "day_deck is shuffled"
    assert "(P1 only) P1 draws Courtesan, Alchemist, Darkened from minion_deck" in r.log
    assert r.game is not None and not meeple.play(r.game, seed=0, record_log=False).log


@pytest.mark.parametrize(
    ("game_id", "players", "seed", "ended_by_end_game", "reason"),
    [
        ("shadow-of-the-sun", 4, 0, False, "count(house[p]) == 0 for p = P4 (Ending the Game, "),
        ("shadow-of-the-sun", 4, 2, False, "count(day_deck) == 0 (here 0 == 0) (Ending the Game"),
        ("louis-xiv", 2, 0, False, "the last round, round 4, was played (Playing the game, "),
        ("sonnenkoenig", 3, 0, True, "count(players) <= 1 (here 1 <= 1) ("),
        ("shadow-of-the-emperor", 2, 0, False, "the last round, round 5, was played (Playing"),
    ],
)
def test_the_end_reason_is_the_same_on_both_back_ends(
    game_id: str, players: int, seed: int, ended_by_end_game: bool, reason: str
) -> None:
    seen = set()
    for backend in ("interpreter", "compiled"):
        g = meeple.load(game_id, players=players, backend=backend)
        r = meeple.play(g, seed=seed)
        assert (r.state.ended_by is not None) == ended_by_end_game
        assert r.end_reason.startswith(reason), r.end_reason
        assert r.end_reason == end_reason(g, r.state)
        seen.add((r.state.ended_by, r.end_reason, tuple(r.log)))
    assert len(seen) == 1  # same rule, same words, same log (draws and shuffles included)


def test_a_game_not_over_has_no_end_reason() -> None:
    g = meeple.load("shadow-of-the-sun", players=3)
    with pytest.raises(meeple.MeepleError, match="not over"):
        end_reason(g, g.new_initial_state(1))


def test_the_end_reason_survives_a_save() -> None:
    g = meeple.load("sonnenkoenig", players=3)
    r = meeple.play(g, seed=0)
    back = g.state_from_json(r.state.to_json())
    assert back.ended_by == r.state.ended_by is not None
    assert end_reason(g, back) == r.end_reason


def test_help_lists_the_api_and_importing_stays_cheap() -> None:
    text = pydoc.render_doc(meeple, renderer=pydoc.plaintext)
    for name in ("load(", "play(", "class Result", "0-based"):
        assert name in text, name
    assert {"load", "play", "Result", "__version__"} <= set(dir(meeple))
    # importing meeple does not import the rules loader (lark, yaml, jsonschema)
    code = "import meeple, sys; print('meeple.api' in sys.modules, 'lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_docstrings_say_seats_are_0_based() -> None:
    assert "0-based" in (meeple.load.__doc__ or "")
    assert "0-based" in (meeple.play.__doc__ or "")
    assert "0-based" in (meeple.Result.__doc__ or "")
    from meeple.runtime.state import State

    assert "0-based" in (State.__doc__ or "") and "P1..Pn" in (State.__doc__ or "")


def test_one_version_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    v = meeple.__version__
    assert v.count(".") == 2
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.strip() == f"meeple {v}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "meeple.__version__"}
    assert f"## [{v}]" in (ROOT / "CHANGELOG.md").read_text()


def test_saved_states_carry_the_version_and_other_versions_still_load() -> None:
    g = meeple.load("shadow-of-the-sun", players=3)
    s = g.new_initial_state(2)
    data = s.to_json()
    assert data["format"] == 1 and data["meeple"] == meeple.__version__
    data["meeple"] = "0.0.1"  # another meeple of the same format: read, not refused
    assert g.state_from_json(data).to_json()["zones"] == s.to_json()["zones"]
    del data["meeple"], data["ended_by"]  # saved before these were recorded
    assert g.state_from_json(data).legal_actions() == s.legal_actions()


def test_license_and_typing_marker_are_shipped() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "Apache-2.0"
    assert "Apache License" in (ROOT / "LICENSE").read_text()[:200]
    assert "Version 2.0" in (ROOT / "LICENSE").read_text()[:300]
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["meeple"]
    assert (ROOT / "meeple" / "py.typed").exists()


def test_changelog_follows_keep_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "keepachangelog.com" in text and "semver.org" in text.lower()
    head = text.split("\n## ")[1]
    assert "issue 11" in head.lower() and "issue 17" in head.lower()
    assert "### Added" in head and "### Changed" in head


# ---------------------------------------------------------------------------- the commands
def _help(command: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "meeple", command, "--help"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


# each case starts a Python process: the quick loop runs every third, the deep run the others
@pytest.mark.parametrize(
    "command",
    every_third([(c,) for c in ("explain", "play", "check", "compile", "bench", "scenarios")]),
)
def test_every_option_has_help_and_names_only_real_options(command: str) -> None:
    from meeple.cli import _parser

    sub = next(a for a in _parser()._actions if a.dest == "command")
    parser = sub.choices[command]  # type: ignore[attr-defined]
    real = {o for a in parser._actions for o in a.option_strings}
    for a in parser._actions:
        if a.dest != "help":
            assert a.help, f"meeple {command}: {a.dest} has no help text"

    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", _help(command)))
    assert named <= real, f"meeple {command} --help names {named - real}, which do not exist"


def test_bench_reports_progress_and_ratios_with_a_times_sign(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from meeple.bench import BENCH_STEPS, bench

    steps: list[str] = []
    bench("harbour-guilds", 2, 0.01, steps.append)
    assert len(steps) == BENCH_STEPS and steps[-1] == "state costs"
    assert main(["bench", "harbour-guilds", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"generated / interpreter: \d+\.\d\d×", out), out


def test_counts_take_their_plural_form(capsys: pytest.CaptureFixture[str]) -> None:
    from meeple.wording import plural, ratio

    assert [plural(n, "procedure") for n in (0, 1, 2)] == [
        "0 procedures",
        "1 procedure",
        "2 procedures",
    ]
    assert ratio(0.15) == "0.15×"
    assert main(["check", str(ROOT / "tests" / "fixtures" / "minimal")]) == 0
    out = capsys.readouterr().out
    assert "ok: Minimal (2-4 players), 1 procedure, 1 component kind, 3 zones" in out


# ---------------------------------------------------------------------------- YAML traps
MINIMAL = ROOT / "tests" / "fixtures" / "minimal" / "game.yaml"
SCORE_LINE = "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)"


@pytest.mark.parametrize(
    ("statement", "col", "quoted"),
    [
        ('- log "{p}" scores: {score[p]}', 27, "- 'log \"{p} scores: {score[p]}\"'"),
        ("- log {p} scores: 3 coins", 25, "- 'log \"{p} scores: 3 coins\"'"),
        ("- log Day: {p} begins", 18, "- 'log \"Day: {p} begins\"'"),
    ],
    ids=["quoted-part", "unquoted", "brace-after-colon"],
)
def test_a_colon_in_unquoted_log_text_suggests_quoting(
    statement: str, col: int, quoted: str, tmp_path: Path
) -> None:
    from meeple.dsl.loader import load_rules

    text = MINIMAL.read_text()
    assert SCORE_LINE in text
    line = text.split("\n").index(SCORE_LINE) + 2
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(SCORE_LINE, f"{SCORE_LINE}\n        {statement}"))
    with pytest.raises(meeple.MeepleError) as info:
        load_rules(path)
    e = info.value
    assert "contains ': '" in e.message and "quoted as a whole" in e.message, e.render()
    assert "indentation" not in e.message and "unknown key" not in e.message
    assert (e.span.line, e.span.col) == (line, col), e.render()
    assert e.suggestion == f"write it quoted: {quoted}"
    # the suggestion is right: the quoted statement loads
    path.write_text(text.replace(SCORE_LINE, f"{SCORE_LINE}\n        {quoted}"))
    load_rules(path)


@pytest.mark.parametrize(
    ("item", "quoted", "what", "col"),
    [
        ("[score[p] += 1]", '["score[p] += 1"]', "brackets", 23),
        # do: [log "x {p}"]: YAML said "expected ',' or ']', but got '{'"
        ('[log "x {p}"]', """['log "x {p}"']""", "braces", None),
    ],
    ids=["index", "placeholder"],
)
def test_a_statement_in_a_flow_list_suggests_quoting(
    tmp_path: Path, item: str, quoted: str, what: str, col: int | None
) -> None:
    from meeple.dsl.loader import load_rules

    text = MINIMAL.read_text()
    line = text.split("\n").index(SCORE_LINE) + 2
    stmt = f"        - if: true\n          then: {item}"
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(SCORE_LINE, f"{SCORE_LINE}\n{stmt}"))
    with pytest.raises(meeple.MeepleError) as info:
        load_rules(path)
    e = info.value
    assert what in e.message and "inside a [...] list" in e.message, e.render()
    assert "but got" not in e.message and e.span.line == line + 1, e.render()
    assert col is None or e.span.col == col, e.render()
    assert e.suggestion is not None and quoted in e.suggestion
    path.write_text(text.replace(SCORE_LINE, f"{SCORE_LINE}\n{stmt.replace(item, quoted)}"))
    load_rules(path)


def test_a_rules_path_of_a_shipped_game_outside_a_checkout_suggests_its_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(meeple.MeepleError) as info:
        meeple.load("rules/shadow-of-the-sun")
    assert info.value.suggestion == "a shipped game is named by its id anywhere: shadow-of-the-sun"


# ---------------------------------------------------------------------------- the README
README = (ROOT / "README.md").read_text()


def test_the_readme_snippet_runs_and_restores_a_state(tmp_path: Path) -> None:
    """The README's Python block, run as a user would (from a folder of their own)."""
    code = re.search(r"```python\n(.*?)```", README, re.S)
    assert code is not None
    snippet = code.group(1).replace("while not state.is_terminal():", "for _ in range(5):")
    assert "state_from_json(saved)" in snippet and "result.log" in snippet
    snippet += "\nassert again.to_json() == state.to_json() and result.log and result.end_reason\n"
    out = subprocess.run(
        [sys.executable, "-c", snippet], capture_output=True, text=True, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr


def test_the_readme_says_what_the_commands_write_and_how_long_tests_take() -> None:
    for written in ("into ./figures/", "to ./game.schema.json", "writes ./louis_xiv.py"):
        assert written in README, written
    assert "python -m pytest -q -m deep" in README and "python -m pytest -q\n" in README
    assert re.search(r"quick loop .* takes about \d+ s on 2 cores", README, re.S)
    assert "meeple --version" in README and "0-based" in README
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python -m pytest -q\n" in ci and "python -m pytest -q -m deep" in ci


def test_a_meeple_folder_in_the_current_directory_is_explained(tmp_path: Path) -> None:
    """A folder named meeple shadows the package; the README says so (with the error users
    see), and a checkout's own meeple/ folder is the package."""
    assert "no attribute 'load'" in README and "folder named `meeple`" in README
    code = "import meeple; print(meeple.load.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "load", out.stderr


def test_the_quick_loop_leaves_the_deep_tests_out() -> None:
    """One scheme: pyproject's addopts deselects the deep tests; `-m deep` (a later -m wins)
    selects them. The old --deep switch is gone."""
    opts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-m 'not deep'" in opts["addopts"]
    assert any(m.startswith("deep:") for m in opts["markers"])
    assert "--deep" not in (ROOT / "tests" / "conftest.py").read_text()
    deep = [p.name for p in (ROOT / "tests").glob("test_*.py") if "mark.deep" in p.read_text()]
    for module in ("test_codegen.py", "test_random_games.py", "test_hostile.py"):
        assert module in deep, module
