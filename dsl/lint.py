"""Warnings for a checked game (``meeple check`` prints them): rules that are legal but likely
mistakes. Each warning has a position.

- a definition (zone, constant, variable, table, function) never used;
- a variable no rule assigns: it is a constant (``constants:``), which a reader and the code
  generator can then trust never to change;
- a procedure never reached from setup, play, scoring or a trigger;
- a decision that can have no legal option: a ``choose`` whose every option is conditional, or a
  ``pick`` that must take at least one item, where no enclosing ``if``/``when``/loop condition
  (in its procedure or at every call of the procedure) guards it;
- a zone, constant, variable or tie-breaker without a ``source`` (the checker already demands
  one for procedures, functions, tables, kinds and the setup/play/scoring sections);
- an ``interpretation`` key with no ``## key`` entry in the game's interpretation log.

The checks walk the IR generically (dsl/render.py ``walk``), so statement kinds added later are
searched for names and calls too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import ir
from .builtins import PASSED, POSITION
from .errors import SourceSpan
from .render import children, walk
from .yamlload import YMap, load_yaml_file

ENGINE_NAMES = {"score"}  # read by the engine itself (State.scores)


@dataclass(frozen=True)
class LintWarning:
    """A likely mistake: where, what, and a possible fix."""

    span: SourceSpan
    message: str
    suggestion: str | None = None

    def __str__(self) -> str:
        text = f"{self.span}: warning: {self.message}"
        return text + (f"; {self.suggestion}" if self.suggestion else "")


def _roots(game: ir.Game) -> list[Any]:
    roots: list[Any] = [game.setup, game.play, game.scoring]
    roots += [p.body for p in game.procedures.values()]
    roots += [f.body for f in game.functions.values()]
    roots += [t.key for t in game.tie_breakers]
    roots += [v.initial for v in game.variables.values()]
    for t in game.triggers.values():
        roots += [t.body] + ([t.when] if t.when is not None else [])
    roots += [s.body for v in game.variables.values() for s in v.spaces]  # tracks' spaces
    return roots


def used_names(game: ir.Game) -> set[str]:
    """Every name the rules refer to: in expressions, calls, assignments and declarations."""
    used: set[str] = set(ENGINE_NAMES)
    for root in _roots(game):
        for n in walk(root):
            if isinstance(n, ir.Name):
                used.add(n.id)
            elif isinstance(n, (ir.Call, ir.CallProc)):
                used.add(n.func if isinstance(n, ir.Call) else n.name)
            elif isinstance(n, ir.Assign):
                used.add(n.name)
    for v in game.variables.values():
        used.update(v.bound_constants)
    for k in game.kinds.values():
        used.update(t for t in k.properties.values() if t in game.kinds)
        if k.start:
            used.add(k.start)
    for t in game.triggers.values():
        used.add(t.zone)
        if t.kind:
            used.add(t.kind)
    for z in game.zones.values():
        if z.per:
            used.add(z.per)
        if z.refill:
            used.add(z.refill)
    return used


def assigned_names(game: ir.Game) -> set[str]:
    """The variables some rule assigns (``=``, ``+=``, ``-=``)."""
    return {n.name for root in _roots(game) for n in walk(root) if isinstance(n, ir.Assign)}


def reached_procedures(game: ir.Game) -> set[str]:
    """Procedures called, directly or not, from setup, play, scoring or a trigger."""
    seen: set[str] = set()
    todo: list[Any] = [game.setup, game.play, game.scoring]
    todo += [t.body for t in game.triggers.values()]
    todo += [s.body for v in game.variables.values() for s in v.spaces]  # tracks' spaces
    while todo:
        for n in walk(todo.pop()):
            if isinstance(n, ir.CallProc) and n.name in game.procedures and n.name not in seen:
                seen.add(n.name)
                todo.append(game.procedures[n.name].body)
    return seen


def _unguarded_decisions(game: ir.Game) -> list[LintWarning]:
    """Decisions that may find no legal option and that no condition around them guards."""
    # for each procedure, its calls: (calling procedure or None, guarded where it is called)
    calls: dict[str, list[tuple[str | None, bool]]] = {p: [] for p in game.procedures}
    found: list[tuple[str | None, Any]] = []

    def visit(node: Any, owner: str | None, guarded: bool) -> None:
        if isinstance(node, ir.CallProc) and node.name in calls:
            calls[node.name].append((owner, guarded))
        if isinstance(node, ir.Choose):
            if all(o.when is not None or o.var is not None for o in node.options) and not guarded:
                found.append((owner, node))
            for o in node.options:
                visit(o, owner, guarded or o.when is not None)
            return
        if isinstance(node, ir.Pick):
            takes = not (isinstance(node.min, ir.Const) and node.min.value == 0)
            if takes and not guarded:
                found.append((owner, node))
        if isinstance(node, ir.If):
            visit(node.then, owner, True)
            for b in node.elifs:
                visit(b.then, owner, True)
            if node.orelse is not None:
                visit(node.orelse, owner, True)
            return
        inner = guarded or isinstance(node, ir.While)
        for c in children(node):
            if isinstance(c, (ir.Stmt, ir.Option)):
                visit(c, owner, inner)

    for block in (game.setup, game.play, game.scoring):
        visit(block, None, False)
    for t in game.triggers.values():
        visit(t.body, None, t.when is not None)
    for v in game.variables.values():
        for sp in v.spaces:
            visit(sp.body, None, False)
    for p in game.procedures.values():
        visit(p.body, p.name, False)

    # The procedures every call of which is guarded, where it stands or because its caller is
    # (a cycle alone guards nothing). Worked out as a least fixed point with a worklist, not by
    # recursion: a chain of thousands of procedures must not overflow the stack.
    callees: dict[str, set[str]] = {}
    for proc, sites in calls.items():
        for caller, _ in sites:
            if caller is not None:
                callees.setdefault(caller, set()).add(proc)
    guarded_procs: set[str] = set()
    pending = list(calls)
    while pending:
        proc = pending.pop()
        if proc in guarded_procs or not calls[proc]:
            continue
        if all(g or (caller is not None and caller in guarded_procs) for caller, g in calls[proc]):
            guarded_procs.add(proc)
            pending.extend(callees.get(proc, ()))

    out = []
    for owner, node in found:
        if owner is not None and owner in guarded_procs:
            continue
        what = "choice" if isinstance(node, ir.Choose) else "pick"
        why = (
            "every option has a condition or a 'for'"
            if isinstance(node, ir.Choose)
            else "it must take at least one item"
        )
        out.append(
            LintWarning(
                node.span,
                f"this {what} can have no legal option: {why}, and no 'if' or 'when' guards it",
                "guard it with an 'if', or add an option without a condition",
            )
        )
    return out


def lint(game: ir.Game, interpretation_log: Path | None = None) -> list[LintWarning]:
    """The warnings for ``game``; ``interpretation_log`` is its docs/games/<game>.md if known."""
    out: list[LintWarning] = []
    used = used_names(game)
    for kind, table in (
        ("zone", game.zones),
        ("constant", game.constants),
        ("variable", game.variables),
        ("table", game.tables),
        ("function", game.functions),
    ):
        for name, decl in table.items():
            if name not in used and not (game.structure and name in (*POSITION, PASSED)):
                out.append(LintWarning(decl.span, f"{kind} '{name}' is never used"))
    assigned = assigned_names(game)
    for name, v in game.variables.items():
        if name in used and name not in assigned and name not in ENGINE_NAMES:
            if game.structure is not None and name in (*POSITION, PASSED):
                continue  # the structure of play keeps it (start_player may never move)
            out.append(
                LintWarning(
                    v.span,
                    f"no rule assigns variable '{name}': it keeps its initial value",
                    "declare it under 'constants:' (a variant still changes it with "
                    f"'set: constants.{name}.value')",
                )
            )
    reached = reached_procedures(game)
    for name, p in game.procedures.items():
        if name not in reached:
            called = name in used
            out.append(
                LintWarning(
                    p.span,
                    f"procedure '{name}' is never reached from setup, play, scoring or a trigger"
                    + (" (only procedures that are never reached call it)" if called else ""),
                )
            )
    out += _unguarded_decisions(game)
    out += _missing_sources(game.file)
    out += _undocumented(game.file, interpretation_log)
    return sorted(out, key=lambda w: (w.span.file, w.span.line, w.span.col))


def _missing_sources(file: str) -> list[LintWarning]:
    """Zones, constants, variables and tie-breakers without ``source`` (the IR keeps none for
    zones and variables)."""
    try:
        doc = load_yaml_file(file)
    except Exception:  # noqa: BLE001  (the file was loaded once; a race is not a warning)
        return []
    out: list[LintWarning] = []
    if not isinstance(doc, YMap):
        return out
    for section, what in (("zones", "zone"), ("constants", "constant"), ("variables", "variable")):
        node = doc.get(section)
        if isinstance(node, YMap):
            for name, decl in node.items():
                if isinstance(decl, dict) and "source" not in decl:
                    out.append(
                        LintWarning(
                            node.key_spans[name],
                            f"{what} '{name}' has no 'source'",
                            "add 'source:' naming the rulebook section it encodes",
                        )
                    )
    scoring = doc.get("scoring")
    if isinstance(scoring, YMap):
        for i, tb in enumerate(scoring.get("tie_breakers") or []):
            if isinstance(tb, dict) and "source" not in tb:
                out.append(
                    LintWarning(
                        scoring["tie_breakers"].item_spans[i],
                        f"tie-breaker {i + 1} has no 'source'",
                        "add 'source:' naming the rulebook section it encodes",
                    )
                )
    return out


_KEY = re.compile(r"\binterpretation:\s*([a-z0-9-]+)")


def find_interpretation_log(rules_file: str) -> Path | None:
    """docs/games/<game folder>.md in the nearest folder above the rules that has docs/."""
    folder = Path(rules_file).resolve().parent
    for up in folder.parents:
        if (up / "docs" / "games").is_dir():
            return up / "docs" / "games" / f"{folder.name}.md"
    return None


def _undocumented(file: str, log: Path | None) -> list[LintWarning]:
    log = log or find_interpretation_log(file)
    if log is None:
        return []
    documented = (
        set(re.findall(r"^## ([a-z0-9-]+)\s*$", log.read_text(encoding="utf-8"), flags=re.M))
        if log.is_file()
        else set()
    )
    out = []
    for n, line in enumerate(Path(file).read_text(encoding="utf-8").splitlines(), 1):
        for m in _KEY.finditer(line.split(" #")[0]):
            if m.group(1) not in documented:
                out.append(
                    LintWarning(
                        SourceSpan(file, n, m.start(1) + 1, n, m.end(1) + 1),
                        f"interpretation '{m.group(1)}' is not documented in {log.name}",
                        f"add a '## {m.group(1)}' entry (Question, Choice, Why) to {log}",
                    )
                )
    return out
