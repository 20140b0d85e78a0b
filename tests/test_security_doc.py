"""docs/security.md names every limit of dsl/limits.py with its value (so the two cannot drift)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeple.dsl import limits

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "security.md"
CONSTANTS = sorted(name for name in vars(limits) if re.fullmatch(r"[A-Z][A-Z0-9_]*", name))


def renderings(value: object) -> list[str]:
    """The ways the page may write ``value``: 1,000,000 or 1_000_000 or 1000000, a pattern's
    text, or (for a set) every member."""
    if isinstance(value, int):
        return [f"{value:,}", f"{value:_}", str(value)]
    if isinstance(value, re.Pattern):
        return [value.pattern]
    raise TypeError(value)


def _row(name: str) -> str:
    """The table row (one line) of docs/security.md that describes ``name``."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if f"| `{name}` |" in line]
    assert len(rows) == 1, f"docs/security.md has {len(rows)} table rows for {name}, not 1"
    return rows[0]


def test_limits_module_has_constants() -> None:
    assert "MAX_FILE_BYTES" in CONSTANTS and "RESERVED_PROPERTIES" in CONSTANTS


@pytest.mark.parametrize("name", CONSTANTS)
def test_every_limit_is_documented_with_its_value(name: str) -> None:
    row = _row(name)
    value = getattr(limits, name)
    if isinstance(value, frozenset):
        missing = [m for m in sorted(value) if f"`{m}`" not in row]
        assert not missing, f"{name}: docs/security.md does not name {missing}"
        return
    # the value cell (the row's second column), so a number elsewhere in the row does not count
    cell = row.split("|")[2]
    assert any(r in cell for r in renderings(value)), (
        f"docs/security.md gives {name} as {cell.strip()!r}, but dsl/limits.py says {value!r}"
    )


def test_the_readme_links_the_security_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs_row = next(line for line in readme.splitlines() if line.startswith("| `docs/` |"))
    assert "docs/security.md" in docs_row
