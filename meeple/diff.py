"""``meeple diff``: what a variant changes, rule by rule, in the rule language."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from meeple.dsl.ir import Game
from meeple.dsl.render import rule_texts


@dataclass(frozen=True)
class RuleChange:
    """One rule the variant changes: ``status`` is added, removed or changed; ``lines`` are the
    rule's text, each prefixed with "+ ", "- " or "  " (context)."""

    rule: str
    status: str
    lines: tuple[str, ...]


def rule_changes(base: Game, variant: Game) -> list[RuleChange]:
    """The rules of ``variant`` that differ from ``base``, in rulebook order."""
    old, new = rule_texts(base), rule_texts(variant)
    for texts in (old, new):  # the variant's title is not a rule
        texts["game"] = [line for line in texts["game"] if not line.startswith("name: ")]
    keys = list(new) + [k for k in old if k not in new]
    out = []
    for k in keys:
        if k not in old:
            out.append(RuleChange(k, "added", tuple("+ " + x for x in new[k])))
        elif k not in new:
            out.append(RuleChange(k, "removed", tuple("- " + x for x in old[k])))
        elif old[k] != new[k]:
            out.append(RuleChange(k, "changed", tuple(_diff(old[k], new[k]))))
    return out


def _diff(a: list[str], b: list[str], context: int = 1) -> list[str]:
    """Line diff of one rule, compact: changed lines with ``context`` unchanged lines around
    them; lines replaced one for one alternate (each old line just above its new one)."""
    out: list[str] = []
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(context):
        if out:
            out.append("  ...")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += ["  " + x for x in a[i1:i2]]
            elif tag == "replace" and i2 - i1 == j2 - j1:
                for old, new in zip(a[i1:i2], b[j1:j2], strict=True):
                    out += ["- " + old, "+ " + new]
            else:
                out += ["- " + x for x in a[i1:i2]]
                out += ["+ " + x for x in b[j1:j2]]
    return out


def format_changes(changes: list[RuleChange], base: str = "", variant: str = "") -> str:
    """The changes as a unified diff of rules: ``--- base``/``+++ variant`` (when given), then
    per rule an ``@@ rule (status) @@`` line and its lines."""
    head = f"--- {base}\n+++ {variant}\n" if base or variant else ""
    if not changes:
        return head + "the variant changes no rule\n"
    parts = [f"@@ {c.rule} ({c.status}) @@\n" + "\n".join(c.lines) for c in changes]
    return head + "\n".join(parts) + "\n"
