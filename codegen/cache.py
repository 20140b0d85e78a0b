"""Generated modules, cached on disk, and trusted only after they are verified.

The user never runs the generator by hand: the first use of a game with the compiled back end
writes ``<cache>/<game>_<key>.py`` and later uses load it. What is trusted, and why:

- The key hashes everything the module is made from: the rules files the game was read from
  (the game file and its variant files, nothing else in the folder) and the sources of the
  packages that make and run it (``dsl``: the IR the module is generated from; ``codegen``:
  the generator; ``interpreter``: the layout, uids and ops the module uses), so a changed
  rule or a new meeple never meets an old module.
- The module's first line is ``# meeple-module sha256=<hash of the rest>``; a module whose
  hash does not match (edited, truncated, empty, garbage), or that is not a regular file of
  this user that others cannot write, is made again. It is read once, checked, and compiled
  from those same bytes (no second read, no ``.pyc``).
- The folder is ``$MEEPLE_CACHE`` or else ``platformdirs.user_cache_dir("meeple")``, created
  private (0o700). A folder that is not this user's, or that others can write, is not used.
- Modules are written to a unique temporary file, then renamed into place (atomic).
- A game keeps its newest KEEP_PER_GAME modules; writing one deletes the older ones (``prune``).
- Whenever the cache cannot be used, the module is generated and run from memory, with a
  one-line ``MeepleWarning``; the game still runs.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import re
import stat
import sys
import tempfile
import warnings
from dataclasses import fields, is_dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import platformdirs

from meeple.dsl.checker import Checked
from meeple.dsl.errors import MeepleWarning, SourceSpan
from meeple.dsl.limits import MAX_FILE_BYTES
from meeple.runtime.layout import ProgramBase

from .emitter import GENERATOR_VERSION, generate, relative

HEADER = "# meeple-module sha256="
#: The packages a module depends on (see the module docstring for why each).
SOURCE_PACKAGES = ("meeple.dsl", "meeple.interpreter", "meeple.codegen", "meeple.runtime")
_SOURCE_SUFFIXES = (".py", ".lark", ".json")
#: A cached module larger than this is not read (the largest shipped game's is 0.25 MB).
MAX_MODULE_BYTES = 64 * MAX_FILE_BYTES

_loaded: dict[tuple[str, str], ModuleType] = {}


def cache_dir() -> Path:
    """Where generated modules are kept: ``$MEEPLE_CACHE``, else the user's cache folder."""
    env = os.environ.get("MEEPLE_CACHE")
    return Path(env) if env else Path(platformdirs.user_cache_dir("meeple"))


def source_paths() -> list[tuple[str, Path]]:
    """("package/relative/path", file) for every source file of SOURCE_PACKAGES, in a fixed
    order."""
    out: list[tuple[str, Path]] = []
    for package in SOURCE_PACKAGES:
        folder = Path(importlib.import_module(package).__file__ or "").parent
        found = [
            f
            for f in folder.rglob("*")
            if f.suffix in _SOURCE_SUFFIXES and "__pycache__" not in f.parts and f.is_file()
        ]
        for f in sorted(found, key=lambda f: f.relative_to(folder).parts):
            out.append((f"{package}/{f.relative_to(folder).as_posix()}", f))
    return out


@functools.lru_cache(maxsize=1)
def sources_hash() -> str:
    """A hash of GENERATOR_VERSION and of the code of SOURCE_PACKAGES as this process loaded
    it (computed once: a module must fit the code that runs it, which does not change)."""
    h = hashlib.sha256(GENERATOR_VERSION.encode())
    for name, f in source_paths():
        _field(h, name.encode())
        _field(h, f.read_bytes())
    return h.hexdigest()


def _field(h: Any, data: bytes) -> None:
    """Add one length-prefixed field to a hash (so two fields never read as one)."""
    h.update(b"%d:" % len(data))
    h.update(data)


def source_files(checked: Checked) -> list[str]:
    """The rules files ``checked`` came from: ``checked.files`` (set by the loader), else the
    game file and every file a source position of its IR names."""
    files = list(checked.files) or [checked.game.file, *sorted(rule_files(checked.game))]
    return list(dict.fromkeys(files))


def rules_key(checked: Checked) -> str:
    """The cache key of ``checked``'s module (see the module docstring).

    Raises OSError if a rules file cannot be read any more."""
    h = hashlib.sha256(sources_hash().encode())
    root = Path(checked.game.file).parent
    _field(h, checked.game.id.encode("utf-8", "surrogatepass"))
    _field(h, checked.game.name.encode("utf-8", "surrogatepass"))
    for f in source_files(checked):
        _field(h, relative(f, root).encode("utf-8", "surrogatepass"))  # as the module names it
        _field(h, Path(f).read_bytes())
    return h.hexdigest()[:32]


def rule_files(node: Any) -> set[str]:
    """Every file named by a source position anywhere in an IR tree."""
    found: set[str] = set()
    todo = [node]
    while todo:
        x = todo.pop()
        if isinstance(x, SourceSpan):
            if x.file and Path(x.file).is_file():
                found.add(x.file)
        elif is_dataclass(x):
            todo.extend(getattr(x, f.name) for f in fields(x))
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
        elif isinstance(x, dict):
            todo.extend(x.values())
    return found


def seal(text: str) -> bytes:
    """A module's text with its hash line in front: what the cache stores."""
    body = text.encode("utf-8")
    return f"{HEADER}{hashlib.sha256(body).hexdigest()}\n".encode() + body


def unseal(data: bytes) -> str | None:
    """The module text of sealed ``data``, or None if the hash line is missing or wrong."""
    first, sep, body = data.partition(b"\n")
    if not sep or not first.startswith(HEADER.encode()):
        return None
    if first[len(HEADER) :] != hashlib.sha256(body).hexdigest().encode():
        return None
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _warn(message: str) -> None:
    """One line on stderr (``meeple:0: MeepleWarning: ...``): no source line of meeple's own
    code under it, as ``warnings.warn`` would print; the message names the file or folder."""
    warnings.warn_explicit(message, MeepleWarning, "meeple", 0, module="meeple.codegen.cache")


def _untrusted(st: os.stat_result) -> str | None:
    """Why a file or folder with status ``st`` must not be trusted, or None."""
    if not hasattr(os, "geteuid"):  # Windows: the user's own profile folder; no such bits
        return None
    if st.st_uid != os.geteuid():
        return "it belongs to another user"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "other users can write to it"
    return None


def usable_cache_dir() -> Path | None:
    """The cache folder, created private if missing; None (after a warning) if it cannot be
    made or must not be trusted."""
    folder = cache_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.stat(folder)
    except OSError as e:
        _warn(f"cannot use the cache folder {folder} ({e.strerror or e}); compiled in memory")
        return None
    problem = "it is not a folder" if not stat.S_ISDIR(st.st_mode) else _untrusted(st)
    if problem:
        _warn(f"not using the cache folder {folder}: {problem}; compiled in memory")
        return None
    return folder


def read_verified(path: Path) -> tuple[str | None, str | None]:
    """(module text, None) if ``path`` holds a sealed module that may be trusted, else
    (None, why not) — why is None when the file simply does not exist."""
    try:
        # O_NOFOLLOW: a symlink is not followed; O_NONBLOCK: a FIFO does not hang the open
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None, None
    except OSError as e:
        return None, f"it cannot be opened ({e.strerror or e})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "it is not a regular file"
        problem = _untrusted(st)
        if problem:
            return None, problem
        if st.st_size > MAX_MODULE_BYTES:
            return None, "it is too large"
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_MODULE_BYTES + 1)
    except OSError as e:
        return None, f"it cannot be read ({e.strerror or e})"
    finally:
        os.close(fd)
    text = unseal(data)
    if text is None:
        return None, "its content does not match its hash (edited, damaged or not a module)"
    return text, None


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a unique temporary file in the same folder, renamed
    into place, so no reader ever sees half a file. Raises OSError."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def module_from_text(text: str, name: str, path: Path | None) -> ModuleType:
    """Compile ``text`` and run it as a fresh module ``name`` (``__file__`` is ``path``, if
    the text is the verified content of that file)."""
    mod = ModuleType(name)
    filename = str(path) if path is not None else f"<meeple module {name}>"
    if path is not None:
        mod.__file__ = str(path)
    exec(compile(text, filename, "exec"), mod.__dict__)  # noqa: S102  (generated, verified)
    sys.modules[name] = mod
    return mod


def _stem(game_id: str, key: str) -> str:
    """The file stem of a module: the game id made safe for a file and module name."""
    safe = re.sub(r"[^A-Za-z0-9_]", "_", game_id)[:40]
    return f"{safe}_{key}"


def load_module(checked: Checked) -> ModuleType:
    """The generated module of ``checked``: from memory, from the cache (verified), or
    generated now (and cached if the cache can be used; else run from memory, with a
    MeepleWarning). Never raises for a cache problem."""
    try:
        key = rules_key(checked)
    except OSError as e:
        _warn(f"cannot read the rules again to key the cache ({e}); compiled in memory")
        return module_from_text(generate(checked), "meeple_compiled_uncached", None)
    stem = _stem(checked.game.id, key)
    name = f"meeple_compiled_{stem}"
    folder = usable_cache_dir()
    memo = (str(folder), key)
    mod = _loaded.get(memo)
    if mod is not None:
        return mod
    if folder is None:
        mod = module_from_text(generate(checked), name, None)
    else:
        mod = _from_folder(checked, folder / f"{stem}.py", name)
    _loaded[memo] = mod
    return mod


def _from_folder(checked: Checked, path: Path, name: str) -> ModuleType:
    text, problem = read_verified(path)
    if text is not None:
        try:
            return module_from_text(text, name, path)
        except Exception as e:  # noqa: BLE001  (sealed by hand, not by meeple: made again)
            problem = f"it does not run ({type(e).__name__})"
    if problem is not None:
        _warn(f"the cached module {path} is not used: {problem}; it is made again")
    text = generate(checked)
    try:
        write_atomic(path, seal(text))
    except OSError as e:
        _warn(f"cannot write the compiled module to {path} ({e.strerror or e}); run in memory")
        return module_from_text(text, name, None)
    prune(path)
    return module_from_text(text, name, path)


#: Modules kept per game id: each edit of its rules, each new meeple writes another.
KEEP_PER_GAME = 8
_KEYED = re.compile(r"[0-9a-f]{32}\.py")


def prune(path: Path) -> None:
    """Delete the older modules of ``path``'s game (the same file name up to the key), so that
    at most KEEP_PER_GAME remain, the newest by modification time; only files named as this
    module writes them (``<game>_<32 hex digits>.py``). Never raises: a file another process
    removed first, or that cannot be removed, is left to the next prune."""
    prefix = path.name[: -len("0123456789abcdef0123456789abcdef.py")]  # "<game>_"
    found = []
    try:
        for entry in os.scandir(path.parent):
            n = entry.name
            if n.startswith(prefix) and _KEYED.fullmatch(n[len(prefix) :]):
                if entry.is_file(follow_symlinks=False):
                    found.append((entry.stat(follow_symlinks=False).st_mtime_ns, n))
    except OSError:
        return
    found.sort(reverse=True)
    for _, n in found[KEEP_PER_GAME:]:
        if n != path.name:
            try:
                os.unlink(path.parent / n)
            except OSError:
                pass


def forget() -> None:
    """Drop the modules this process loaded (the next use reads the cache again)."""
    _loaded.clear()


def compiled_program(checked: Checked, num_players: int) -> ProgramBase:
    """The compiled program of ``checked`` for ``num_players`` seats."""
    mod = load_module(checked)
    root = Path(checked.game.file).parent
    named = {relative(f, root): f for f in [*source_files(checked), *rule_files(checked.game)]}
    files = [named.get(f, str(root / f)) for f in mod.FILES]
    prog: ProgramBase = mod.build(num_players, files)
    prog.game = checked.game
    return prog


__all__ = [
    "HEADER",
    "cache_dir",
    "compiled_program",
    "forget",
    "load_module",
    "read_verified",
    "rules_key",
    "seal",
    "source_paths",
    "sources_hash",
    "unseal",
    "usable_cache_dir",
    "write_atomic",
]
