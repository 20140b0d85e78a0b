"""Generated modules, cached on disk by a hash of the rules and of the generator.

The user never runs the generator by hand: the first use of a game with the compiled back end
writes ``<cache>/<game>-<hash>.py`` and later uses import it. The cache folder is
``$MEEPLE_CACHE``, else ``$XDG_CACHE_HOME/meeple``, else ``~/.cache/meeple``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from meeple.dsl.checker import Checked
from meeple.dsl.errors import MeepleError, SourceSpan
from meeple.interpreter.layout import ProgramBase

from .emitter import GENERATOR_VERSION, generate, relative

_HERE = Path(__file__).parent
_loaded: dict[str, ModuleType] = {}


def cache_dir() -> Path:
    """Where generated modules are kept."""
    env = os.environ.get("MEEPLE_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "meeple"


def rules_key(checked: Checked) -> str:
    """A hash of the generator's own code and of every file the rules came from (the game file
    and, for a variant, the variant files), so a change to any of them makes a new module."""
    h = hashlib.sha256(GENERATOR_VERSION.encode())
    for src in sorted(_HERE.glob("*.py")):
        h.update(src.read_bytes())
    h.update(checked.game.name.encode())
    game_file = Path(checked.game.file)
    folder = {str(f) for f in game_file.parent.rglob("*.yaml")}  # with the game's variants
    for f in sorted(folder | rule_files(checked.game)):
        h.update(f.encode())
        h.update(Path(f).read_bytes())
    return h.hexdigest()[:20]


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


def load_module(checked: Checked) -> ModuleType:
    """The generated module of ``checked``: from memory, from the cache, or generated now."""
    key = f"{checked.game.id}-{rules_key(checked)}"
    mod = _loaded.get(key)
    if mod is not None:
        return mod
    path = cache_dir() / f"{key.replace('-', '_')}.py"
    if not path.exists():
        text = generate(checked)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)  # atomic: a parallel run never imports half a file
        except OSError as e:
            raise MeepleError(f"cannot write the compiled module to {path}: {e}") from None
    mod = import_path(path, f"meeple_compiled_{key.replace('-', '_')}")
    _loaded[key] = mod
    return mod


def import_path(path: Path, name: str) -> ModuleType:
    """Import a generated module from a file."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise MeepleError(f"cannot import the compiled module {path}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def compiled_program(checked: Checked, num_players: int) -> ProgramBase:
    """The compiled program of ``checked`` for ``num_players`` seats."""
    mod = load_module(checked)
    root = Path(checked.game.file).parent
    named = {relative(f, root): f for f in rule_files(checked.game)}  # as the rules name them
    files = [named.get(f, str(root / f)) for f in mod.FILES]
    prog: ProgramBase = mod.build(num_players, files)
    prog.game = checked.game
    return prog
