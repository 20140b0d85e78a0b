"""Data tables: static data in typed columns, one row per key, read one cell at a time.

```yaml
tables:
  deal:
    source: Setup (the deal table)
    columns: {players: int, seat: int, cards: int}
    key: [players, seat]
    rows:
      - [2, 1, 2]
      - [2, 2, 3]
```

``deal[num_players, s].cards`` is the ``cards`` cell of the row whose key is
``(num_players, s)``; a row that is not there is a rule error naming the table and the key.
Here: building the IR from YAML (``build_table``), the declaration checks (``check_table``) and
the lookup's check (``check_lookup``). The back ends read ``lookup_parts``.
"""

from __future__ import annotations

from typing import Any

from . import ir
from .errors import CheckError, SourceSpan, did_you_mean

SCALARS: dict[str, type] = {"int": int, "str": str, "bool": bool}
_WORDS = {"int": "a number", "str": "a text", "bool": "true or false"}


def is_data_table(node: Any) -> bool:
    """A ``tables:`` entry with ``columns`` is a data table; one with ``patterns`` ranks sets."""
    return isinstance(node, dict) and "columns" in node


def build_table(name: str, node: Any, span: SourceSpan) -> ir.DataTable:
    """The IR of one data table; the shape (row lengths, key columns) is checked here, the
    types in ``check_table``, once the kinds are known."""
    if "patterns" in node or "group_by" in node:
        raise CheckError(
            f"table '{name}' has both 'columns' and 'patterns'",
            node.key_spans.get("patterns") or node.key_spans.get("group_by") or span,
            expected="a data table (columns, key, rows) or a pattern table (patterns), not both",
            suggestion="split it into two tables",
        )
    if "rows" not in node:
        raise CheckError(
            f"table '{name}' has columns but no 'rows'",
            span,
            expected="rows: a list of rows, each a list of cells in column order",
        )
    cols_node = node["columns"]
    columns = tuple((str(c), str(t)) for c, t in cols_node.items())
    if not columns:
        raise CheckError(
            f"table '{name}' has no columns",
            node.value_spans.get("columns", span),
            expected="columns such as {players: int, seat: int, cards: int}",
        )
    names = [c for c, _ in columns]
    key_node = node.get("key", [names[0]])
    key = tuple(str(k) for k in key_node)
    for i, k in enumerate(key):
        if k not in names:
            where = key_node.item_spans[i] if hasattr(key_node, "item_spans") else span
            raise CheckError(
                f"the key of table '{name}' names column '{k}', which it does not have",
                where,
                expected="one of its columns: " + ", ".join(names),
                suggestion=did_you_mean(k, names),
            )
        if key.index(k) != i:
            where = key_node.item_spans[i] if hasattr(key_node, "item_spans") else span
            raise CheckError(f"the key of table '{name}' names column '{k}' twice", where)
    if len(key) == len(names):
        raise CheckError(
            f"every column of table '{name}' is in its key: a lookup would have nothing to read",
            node.value_spans.get("key", span),
            expected="at least one column outside the key",
        )
    rows_node = node["rows"]
    rows: list[tuple[Any, ...]] = []
    for i, row in enumerate(rows_node):
        where = rows_node.item_spans[i]
        if not isinstance(row, list) or len(row) != len(columns):
            got = f"{len(row)} values" if isinstance(row, list) else repr(row)
            raise CheckError(
                f"row {i + 1} of table '{name}' has {got}; the table has {len(columns)} columns",
                where,
                expected="[" + ", ".join(names) + "]",
            )
        rows.append(tuple(row))
    if not rows:
        raise CheckError(
            f"table '{name}' has no rows", node.value_spans.get("rows", span), expected="a row"
        )
    return ir.DataTable(
        name,
        span,
        columns,
        key,
        tuple(rows),
        tuple(rows_node.item_spans[i] for i in range(len(rows))),
        node.get("source"),
        node.get("interpretation"),
        {
            **node.value_spans,
            **{f"columns.{c}": s for c, s in getattr(cols_node, "value_spans", {}).items()},
        },
    )


def check_table(t: ir.DataTable, kinds: dict[str, ir.Kind]) -> None:
    """Column types, the type of every cell (a kind's cell must be one of its item keys), and
    one row per key."""
    for c, ct in t.columns:
        if ct not in SCALARS and ct not in kinds:
            raise CheckError(
                f"column '{c}' of table '{t.name}' has unknown type '{ct}'",
                t.spans.get(f"columns.{c}", t.spans.get("columns", t.span)),
                expected="int, str, bool or a component kind (its cells name items)",
                suggestion=did_you_mean(ct, [*SCALARS, *kinds]),
            )
    keys_of = {k: {it.key for it in kinds[k].items} for _, k in t.columns if k in kinds}
    seen: dict[tuple[Any, ...], int] = {}
    for r, (row, where) in enumerate(zip(t.rows, t.row_spans, strict=True)):
        for (c, ct), v in zip(t.columns, row, strict=True):
            at = getattr(v, "span", None) or where  # a text value knows its place
            if ct in keys_of:
                if not isinstance(v, str) or v not in keys_of[ct]:
                    raise CheckError(
                        f"row {r + 1} of table '{t.name}': '{v}' in column '{c}' is not a key "
                        f"of kind '{ct}'",
                        at,
                        expected=f"the key of one of the {ct}",
                        suggestion=did_you_mean(str(v), keys_of[ct]),
                    )
            elif not isinstance(v, SCALARS[ct]) or (ct == "int" and isinstance(v, bool)):
                raise CheckError(
                    f"row {r + 1} of table '{t.name}': column '{c}' is {ct}, but the value "
                    f"is {v!r}",
                    at,
                    expected=_WORDS[ct],
                )
        key = key_of(t, row)
        if key in seen:
            raise CheckError(
                f"rows {seen[key] + 1} and {r + 1} of table '{t.name}' have the same key "
                f"{_show(key)}",
                where,
                expected="one row per key (" + ", ".join(t.key) + ")",
                suggestion="remove one of them, or add a column to the key",
            )
        seen[key] = r


def key_of(t: ir.DataTable, row: tuple[Any, ...]) -> tuple[Any, ...]:
    """The key cells of ``row``, in key order."""
    names = [c for c, _ in t.columns]
    return tuple(row[names.index(k)] for k in t.key)


def lookup_parts(
    e: ir.Expr, tables: dict[str, ir.DataTable]
) -> tuple[ir.DataTable, tuple[ir.Expr, ...], str] | None:
    """``TABLE[k1, k2].column`` -> (table, key expressions, column); None for anything else."""
    if not (isinstance(e, ir.Attr) and isinstance(e.obj, ir.Index)):
        return None
    obj = e.obj.obj
    if not isinstance(obj, ir.Name) or obj.id not in tables:
        return None
    idx = e.obj.index
    keys = idx.items if isinstance(idx, ir.ListLit) else (idx,)
    return tables[obj.id], keys, e.name


def check_lookup(checker: Any, e: ir.Attr, scope: dict[str, str]) -> str:
    """Check ``TABLE[keys].column`` (``checker`` is the checker, for its ``_want``): as many
    keys as the table's key, each of its column's type, and a column the table has."""
    parts = lookup_parts(e, checker.g.data_tables)
    assert parts is not None
    t, keys, col = parts
    assert isinstance(e.obj, ir.Index)
    if len(keys) != len(t.key):
        raise CheckError(
            f"table '{t.name}' finds a row by {len(t.key)} key(s) ({', '.join(t.key)}), "
            f"not {len(keys)}",
            e.obj.span,
            expected=f"{t.name}[{', '.join(t.key)}]",
        )
    types = dict(t.columns)
    kinds = checker.g.kinds
    for k, ke in zip(t.key, keys, strict=True):
        got, want = checker._expr(ke, scope), column_type(types[k], kinds)
        if not (want == "int" and got == "player"):  # a seat is a number
            checker._fits(got, want, ke.span, f"the key '{k}' of table '{t.name}'")
    if col not in types:
        raise CheckError(
            f"table '{t.name}' has no column '{col}'",
            e.span,
            expected="one of its columns: " + ", ".join(c for c, _ in t.columns),
            suggestion=did_you_mean(col, types),
        )
    checker.out.types[id(e.obj)] = "row"
    return column_type(types[col], kinds)


def column_type(ct: str, kinds: dict[str, ir.Kind]) -> str:
    """The checker's type of a cell of a column of type ``ct``."""
    return f"card[{ct}]" if ct in kinds else ct  # a card that knows its kind (dsl/cardkinds)


def _show(key: tuple[Any, ...]) -> str:
    return ", ".join(str(k) for k in key)


def misuse(name: str, span: SourceSpan, t: ir.DataTable) -> CheckError:
    """The error for a data table's name used other than as ``name[key].column``."""
    example = f"{name}[{', '.join(t.key)}].{next(c for c, _ in t.columns if c not in t.key)}"
    return CheckError(
        f"table '{name}' is read one cell at a time",
        span,
        expected=f"its name, the key of a row in brackets and a column, e.g. {example}",
    )


def describe(t: ir.DataTable) -> list[str]:
    """``meeple diff``'s lines for a data table: its key and column types, then its rows."""
    head = ", ".join(f"{c} {ct}" for c, ct in t.columns)
    return [f"key {', '.join(t.key)}: {head}", *(", ".join(map(str, r)) for r in t.rows)]


def markdown(t: ir.DataTable, kinds: dict[str, ir.Kind], citation: str) -> list[str]:
    """The table in ``meeple doc``: a sentence naming its key, then a Markdown table (a kind's
    cell shows the item's name, a yes/no cell yes or no)."""
    names = {k: {it.key: it.name for it in kinds[k].items} for _, k in t.columns if k in kinds}

    def show(v: Any, ct: str) -> str:
        if ct in names:
            return names[ct].get(str(v), str(v))
        if ct == "bool":
            return "yes" if v else "no"
        return str(v).replace("|", "\\|")

    key = " and ".join(t.key) if len(t.key) < 3 else ", ".join(t.key)
    cell = f"`{t.name}[{', '.join(t.key)}].{next(c for c, _ in t.columns if c not in t.key)}`"
    lines = [f"Looked up by {key}: the rules read a cell as {cell}{citation}.", ""]
    lines.append("| " + " | ".join(c for c, _ in t.columns) + " |")
    lines.append("|" + "|".join("---:" if ct == "int" else "---" for _, ct in t.columns) + "|")
    for row in t.rows:
        cells = (show(v, ct) for v, (_, ct) in zip(row, t.columns, strict=True))
        lines.append("| " + " | ".join(cells) + " |")
    return lines
