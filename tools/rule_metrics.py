"""Lines and deepest statement nesting of each shipped game's rules (issue 12's yardstick).

Usage: python tools/rule_metrics.py [RULES_DIR]    (default: rules/)

Lines: all lines of game.yaml, and the lines that are neither blank nor comments. Nesting: the
deepest chain of statement blocks inside one rule (a procedure, trigger, setup, play or scoring):
a rule's own statements are level 1, the body of an ``if``/``for``/option inside them level 2...
Found generically (every Block reachable from a statement), so new statement kinds count too.
Columns: the deepest indentation of any line of the file, the nesting a reader's eye sees.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

from meeple.dsl import ir
from meeple.dsl.loader import load_rules


def _depth(node: Any) -> int:
    """Deepest block level under ``node`` (a Block counts one level)."""
    if isinstance(node, ir.Block):
        return 1 + max((_depth(s) for s in node.stmts), default=0)
    if isinstance(node, (tuple, list)):
        return max((_depth(x) for x in node), default=0)
    if dataclasses.is_dataclass(node) and not isinstance(node, (ir.Expr, type)):
        return max((_depth(getattr(node, f.name)) for f in dataclasses.fields(node)), default=0)
    return 0


def rules_of(game: ir.Game) -> dict[str, ir.Block]:
    """Every top-level rule of a game, by a readable name."""
    rules = {"setup": game.setup, "play": game.play, "scoring": game.scoring}
    st = game.structure
    if (
        st is not None
    ):  # play as written: its hooks and each phase's blocks, not the loops made of them
        del rules["play"]
        hooks = {"start": st.start, "round_start": st.round_start, "round_end": st.round_end}
        rules |= {f"play {k}": b for k, b in (hooks | {"end": st.end}).items() if b is not None}
        for ph in st.phases:
            blocks = {"start": ph.start, "turn" if ph.turns else "do": ph.body, "end": ph.end}
            rules |= {f"phase {ph.name} {k}": b for k, b in blocks.items() if b is not None}
    rules |= {f"procedure {n}": p.body for n, p in game.procedures.items()}
    rules |= {f"trigger {n}": t.body for n, t in game.triggers.items()}
    rules |= {
        f"{s.when} {s.at} of {v.name}": s.body for v in game.variables.values() for s in v.spaces
    }
    return rules


def metrics(folder: Path) -> tuple[int, int, int, int, str]:
    """(lines, code lines, deepest indentation, deepest nesting, the rule that has it) of one
    game folder."""
    text = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    code_lines = [line for line in text if line.strip() and not line.strip().startswith("#")]
    columns = max(len(line) - len(line.lstrip(" ")) for line in code_lines)
    game = load_rules(folder).game
    depths = {name: _depth(block) for name, block in rules_of(game).items()}
    deepest = max(depths, key=lambda n: depths[n])
    return len(text), len(code_lines), columns, depths[deepest], deepest


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path("rules")
    print(f"{'game':24} {'lines':>6} {'code':>6} {'columns':>8} {'nesting':>8}  deepest rule")
    for folder in sorted(p for p in root.iterdir() if (p / "game.yaml").exists()):
        lines, code, columns, depth, where = metrics(folder)
        print(f"{folder.name:24} {lines:6} {code:6} {columns:8} {depth:8}  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
