"""Type-check the installed layout of meeple: ``python tools/mypy_check.py [mypy options]``.

pyproject.toml maps the packages onto folders (``meeple.dsl`` = dsl/, ``meeple.interpreter`` =
interpreter/, ...). Run on the folders (``mypy dsl interpreter codegen meeple``), mypy cannot
resolve ``from meeple.dsl import ...`` to dsl/ and, with ``ignore_missing_imports``, silently
treats every import between the project's packages as ``Any``: most of the code goes unchecked.

This script builds the layout the package has once installed, as a tree of symbolic links in a
temporary folder (meeple/ -> meeple/, meeple/dsl -> dsl/, ...), and runs ``mypy -p meeple`` there
with the project's configuration, so every cross-package import resolves to the real code. Paths
in the report are rewritten to the real files (meeple/dsl/x.py -> dsl/x.py). Exit code: mypy's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# package -> folder, as in [tool.setuptools] package-dir of pyproject.toml
SUBPACKAGES = {
    "dsl": "dsl",
    "interpreter": "interpreter",
    "codegen": "codegen",
    "runtime": "runtime",
    "rules": "rules",
}


def build_tree(dest: Path) -> Path:
    """Create dest/meeple with every module of meeple/ and one link per subpackage; return it."""
    pkg = dest / "meeple"
    pkg.mkdir()
    for entry in (ROOT / "meeple").iterdir():
        if entry.suffix in (".py", ".pyi") or entry.name == "py.typed":
            (pkg / entry.name).symlink_to(entry)
        elif entry.is_dir() and (entry / "__init__.py").exists():  # meeple.ai, ...
            (pkg / entry.name).symlink_to(entry, target_is_directory=True)
    for name, folder in SUBPACKAGES.items():
        (pkg / name).symlink_to(ROOT / folder, target_is_directory=True)
    return pkg


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="meeple-mypy-") as tmp:
        build_tree(Path(tmp))
        cmd = [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            *argv,
            "-p",
            "meeple",
        ]
        # mypy finds the package through the working directory; MYPYPATH must not point at
        # another copy of meeple
        env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
        done = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
        for stream, text in ((sys.stdout, done.stdout), (sys.stderr, done.stderr)):
            stream.write(_real_paths(text))
        return done.returncode


def _real_paths(report: str) -> str:
    """mypy's report with the link tree's paths replaced by the repository's."""
    for name, folder in SUBPACKAGES.items():
        report = re.sub(rf"^meeple/{name}/", f"{folder}/", report, flags=re.M)
    return report


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
