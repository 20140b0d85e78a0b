"""meeple.runtime (runtime/) is its own small package: what both back ends run and all a
generated module imports. Importing it loads neither back end's compiler nor the front end's
readers, and no module of it imports from interpreter/ or codegen/."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import meeple.runtime

RUNTIME = Path(meeple.runtime.__file__).parent
FORBIDDEN = ("meeple.interpreter", "meeple.codegen", "lark", "yaml", "jsonschema")


def test_importing_the_runtime_loads_no_back_end_and_no_front_end_reader() -> None:
    """Every module of the package imported, in a fresh process."""
    code = (
        "import importlib, pkgutil, sys, meeple.runtime\n"
        "for m in pkgutil.iter_modules(meeple.runtime.__path__):\n"
        "    importlib.import_module('meeple.runtime.' + m.name)\n"
        "assert 'meeple.runtime.state' in sys.modules\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}\n"
        f"       or any(m == f or m.startswith(f + '.') for f in {FORBIDDEN!r})]\n"
        "print(sorted(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]", out.stdout


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a module of the runtime package, the
    ones inside functions too; relative imports resolved against meeple.runtime."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = "meeple.runtime" if node.level == 1 else "meeple"
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            found.append((node.lineno, name))
            found += [(node.lineno, f"{name}.{a.name}") for a in node.names]
    return found


def test_no_module_of_the_runtime_imports_a_back_end_or_a_front_end_reader() -> None:
    files = sorted(RUNTIME.glob("*.py"))
    assert RUNTIME / "state.py" in files and RUNTIME / "__init__.py" in files
    bad = [
        f"{f.name}:{line}: {name}"
        for f in files
        for line, name in _imports(f)
        if any(name == x or name.startswith(x + ".") for x in FORBIDDEN)
    ]
    assert bad == []


def test_the_runtime_surface_is_what_a_generated_module_imports() -> None:
    for name in meeple.runtime.__all__:
        assert hasattr(meeple.runtime, name), name
    golden = Path(__file__).parent / "golden" / "compiled"
    modules = sorted(golden.glob("*.py"))
    assert modules
    for m in modules:
        tree = ast.parse(m.read_text(encoding="utf-8"))
        imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
        assert len(imports) == 1, m.name  # the runtime, and nothing else of meeple
        (only,) = imports
        assert isinstance(only, ast.ImportFrom) and only.module == "meeple.runtime", m.name
        assert [a.name for a in only.names] == ["*"], m.name
