"""The compiled-module cache is trusted only after it is verified (issue 11, section 2).

A module in the cache carries the sha256 of its text on its first line; it is checked before it
runs, and a module that does not match (edited, truncated, empty, garbage) or is no regular file
of this user is made again. The key covers the rules files the game came from and the code that
makes and runs the module, nothing else in the folder. A cache folder that cannot be used
(others can write it, it is another user's, it cannot be created or written) gives a one-line
MeepleWarning and an in-memory module: the game still runs, never a traceback.
"""

from __future__ import annotations

import os
import random
import shutil
import stat
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.codegen import cache
from meeple.dsl.errors import MeepleWarning
from meeple.dsl.loader import load_rules, load_variant
from meeple.interpreter.game import Game

MINIMAL = Path(__file__).parent / "fixtures" / "minimal"
SCORING = "_v2 = ("  # the scoring line of the minimal game's module (its new score)
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
POSIX = hasattr(os, "geteuid")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the minimal game, with MEEPLE_CACHE set to a fresh folder beside it."""
    monkeypatch.setenv("MEEPLE_CACHE", str(tmp_path / "cache"))
    cache.forget()
    dst = tmp_path / "minimal"
    shutil.copytree(MINIMAL, dst)
    yield dst
    cache.forget()


def _cache() -> Path:
    return Path(os.environ["MEEPLE_CACHE"])


def _module_file() -> Path:
    (path,) = _cache().glob("*.py")
    return path


def _play(game: Game, seed: int) -> tuple[Any, ...]:
    s = game.new_initial_state(seed, record_log=False)
    rng = random.Random(seed)
    while not s.is_terminal():
        acts = s.legal_actions()
        s.apply_action(acts[rng.randrange(len(acts))])
    return tuple(s.scores()), tuple(s.winners())


def _results(folder: Path, backend: str) -> list[tuple[Any, ...]]:
    game = meeple.load(str(folder), 3, backend=backend)
    return [_play(game, seed) for seed in range(8)]


def _compiled_is_real(folder: Path) -> None:
    """The compiled back end plays exactly as the interpreter does."""
    cache.forget()
    assert _results(folder, "compiled") == _results(folder, "interpreter")


def _no_warning_load(folder: Path) -> None:
    cache.forget()
    with warnings.catch_warnings():
        warnings.simplefilter("error", MeepleWarning)
        meeple.load(str(folder), 3, backend="compiled")


def test_a_module_is_written_private_and_sealed(folder: Path) -> None:
    _compiled_is_real(folder)
    path = _module_file()
    assert path.read_bytes().startswith(cache.HEADER.encode())
    assert cache.unseal(path.read_bytes()) is not None
    if POSIX:
        assert stat.S_IMODE(_cache().stat().st_mode) == 0o700
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in _cache().iterdir()] == [path.name]  # no temporary file left
    _no_warning_load(folder)  # the second use reads it back, quietly


def test_an_edited_module_is_made_again_and_the_real_winner_wins(folder: Path) -> None:
    _compiled_is_real(folder)
    path = _module_file()
    text = cache.unseal(path.read_bytes())
    assert text is not None and text.count(SCORING) == 1
    edited = text.replace(SCORING, SCORING[:-1] + "-(")  # every score negated
    # sealed properly (what meeple itself would write), the edit would change the winners:
    path.write_bytes(cache.seal(edited))
    cache.forget()
    assert _results(folder, "compiled") != _results(folder, "interpreter")
    # edited by hand under the old hash line: detected, made again, the real winners win
    path.write_bytes(cache.seal(text).split(b"\n", 1)[0] + b"\n" + edited.encode())
    with pytest.warns(MeepleWarning, match="does not match its hash"):
        _compiled_is_real(folder)
    assert cache.unseal(path.read_bytes()) == text


@pytest.mark.parametrize("damage", ["truncated", "empty", "garbage", "no hash line", "folder"])
def test_a_damaged_module_is_made_again(folder: Path, damage: str) -> None:
    _compiled_is_real(folder)
    path = _module_file()
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "garbage":
        path.write_bytes(bytes(random.Random(1).randrange(256) for _ in range(3000)))
    elif damage == "no hash line":
        path.write_bytes(data.split(b"\n", 1)[1])
    else:
        path.unlink()
        (path / "inside").mkdir(parents=True)
    with pytest.warns(MeepleWarning):
        _compiled_is_real(folder)
    if damage != "folder":  # a folder is left alone; the module then runs from memory
        assert cache.unseal(path.read_bytes()) is not None


@pytest.mark.skipif(not POSIX, reason="FIFOs and symlinks")
@pytest.mark.parametrize("thing", ["fifo", "symlink", "group-writable"])
def test_a_module_that_is_not_a_private_file_is_not_trusted(folder: Path, thing: str) -> None:
    _compiled_is_real(folder)
    path = _module_file()
    good = path.read_bytes()
    path.unlink()
    if thing == "fifo":
        os.mkfifo(path)  # opening it to read would hang without O_NONBLOCK
    elif thing == "symlink":
        elsewhere = folder / "elsewhere.py"
        elsewhere.write_bytes(good)
        path.symlink_to(elsewhere)
    else:
        path.write_bytes(good)
        path.chmod(0o666)
    with pytest.warns(MeepleWarning):
        _compiled_is_real(folder)
    assert not path.is_symlink() and path.is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_key_covers_only_the_files_the_game_came_from(folder: Path) -> None:
    before = cache.rules_key(load_rules(folder))
    (folder / "dangling.yaml").symlink_to(folder / "nowhere.yaml")
    (folder / "notes.yaml").mkdir()
    (folder / "other.yaml").write_text("not: a game\n", encoding="utf-8")
    assert cache.rules_key(load_rules(folder)) == before
    _compiled_is_real(folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert cache.rules_key(load_rules(folder)) != before


def test_the_key_covers_a_variant_file(folder: Path) -> None:
    variants = folder / "variants"
    variants.mkdir()
    text = """\
variant: short
name: Short
extends: minimal
rationale: >-
  Players may only draw: a variant for the cache tests, which need one that removes a rule
  (nothing in the game's IR then names the variant file, yet its module differs).
changes:
  - remove: procedures.turn.do[0].options[1]
"""
    (variants / "short.yaml").write_text(text, encoding="utf-8")
    checked, _ = load_variant(variants / "short.yaml")
    assert str(variants / "short.yaml") in checked.files
    before = cache.rules_key(checked)
    (variants / "short.yaml").write_text(text + "# edited\n", encoding="utf-8")
    after = cache.rules_key(load_variant(variants / "short.yaml")[0])
    assert after != before
    (variants / "other.yaml").write_text(text.replace("short", "other"), encoding="utf-8")
    assert cache.rules_key(load_variant(variants / "short.yaml")[0]) == after


def test_the_key_covers_the_code_a_module_depends_on() -> None:
    names = {name for name, _ in cache.source_paths()}
    for needed in (
        "meeple.codegen/emitter.py",
        "meeple.runtime/__init__.py",
        "meeple.runtime/ops.py",
        "meeple.runtime/state.py",
        "meeple.interpreter/program.py",
        "meeple.dsl/checker.py",
        "meeple.dsl/grammar.lark",
    ):
        assert needed in names


@pytest.mark.skipif(not POSIX, reason="permission bits")
def test_a_cache_folder_others_can_write_is_refused(folder: Path) -> None:
    _cache().mkdir(mode=0o700)
    _cache().chmod(0o777)
    with pytest.warns(MeepleWarning, match="other users can write") as caught:
        _compiled_is_real(folder)
    assert list(_cache().iterdir()) == []  # nothing written there
    (w,) = caught.list
    shown = warnings.formatwarning(w.message, w.category, w.filename, w.lineno, w.line)
    assert shown.count("\n") == 1, shown  # one line, no source line of meeple's code


@pytest.mark.skipif(not ROOT, reason="needs root to give the folder to another user")
def test_a_cache_folder_of_another_user_is_refused(folder: Path) -> None:
    _cache().mkdir(mode=0o700)
    os.chown(_cache(), 65534, 65534)
    with pytest.warns(MeepleWarning, match="another user"):
        _compiled_is_real(folder)


def test_a_cache_folder_that_cannot_be_made_runs_in_memory(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = folder.parent / "a-file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("MEEPLE_CACHE", str(blocker / "cache"))
    with pytest.warns(MeepleWarning, match="cannot use the cache folder"):
        _compiled_is_real(folder)


def test_a_cache_folder_that_cannot_be_written_runs_in_memory(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _cache().mkdir(mode=0o700)

    def refuse(path: Path, data: bytes) -> None:  # as a read-only folder does (root ignores bits)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cache, "write_atomic", refuse)
    with pytest.warns(MeepleWarning, match="cannot write the compiled module"):
        _compiled_is_real(folder)


@pytest.mark.skipif(not POSIX or ROOT, reason="root writes to a read-only folder")
def test_a_read_only_cache_folder_runs_in_memory(folder: Path) -> None:
    _cache().mkdir(mode=0o500)
    try:
        with pytest.warns(MeepleWarning, match="cannot write"):
            _compiled_is_real(folder)
    finally:
        _cache().chmod(0o700)


def test_the_default_folder_is_the_users_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEEPLE_CACHE", raising=False)
    import platformdirs

    assert cache.cache_dir() == Path(platformdirs.user_cache_dir("meeple"))


def test_a_game_id_cannot_lead_the_module_out_of_the_cache(folder: Path) -> None:
    checked = load_rules(folder)
    object.__setattr__(checked.game, "id", "../../escaped\n\u2028x")
    game = Game(checked, 3, cache.compiled_program(checked, 3))
    assert _play(game, 1) == _play(Game(checked, 3), 1)
    (path,) = _cache().iterdir()
    assert path.name.startswith("______escaped__x_") and path.suffix == ".py"
    assert not list(folder.parent.parent.glob("escaped*"))


def test_a_game_keeps_only_its_newest_modules(folder: Path) -> None:
    """Each edit of the rules writes another module: writing one deletes the game's older
    ones beyond KEEP_PER_GAME (by age), and nothing that is not this game's module."""
    _compiled_is_real(folder)
    (first,) = _cache().glob("*.py")
    prefix = first.name[: -len("0123456789abcdef0123456789abcdef.py")]  # "<game>_"
    others = [
        _cache() / "minimal_extra_0123456789abcdef0123456789abcdef.py",  # another game's
        _cache() / f"{prefix}notes.py",  # not a key
        _cache() / f"{prefix}0123456789ABCDEF0123456789ABCDEF.py",  # not as meeple names it
    ]
    for p in others:
        p.write_text("# not ours\n", encoding="utf-8")
    old = []
    for i in range(cache.KEEP_PER_GAME + 3):  # older modules of this game, oldest first
        p = _cache() / f"{prefix}{i:032x}.py"
        p.write_bytes(first.read_bytes())
        os.utime(p, ns=(i * 10**9, i * 10**9))
        old.append(p)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    _compiled_is_real(folder)  # writes the edited rules' module, then prunes
    mine = sorted(p.name for p in _cache().glob(f"{prefix}*.py") if p not in others)
    assert len(mine) == cache.KEEP_PER_GAME
    newest = [p.name for p in old[-(cache.KEEP_PER_GAME - 2) :]]  # with the two just used
    assert set(newest) < set(mine) and first.name in mine
    assert all(p.exists() for p in others)
