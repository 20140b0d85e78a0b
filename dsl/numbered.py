"""Numbered items: one item line that stands for a run of numbered items.

```yaml
items:
  - {name: "Aristocrat {n}", for: n in 1..7}
  - {key: "mainz_city{n}", name: "Mainz city {n}", electorate: mainz, type: city, for: n in 1..2}
```

The line is repeated once per number of the range, in order; in every text value (``name``,
``key``, a ``str`` property, an item key of a kind) each ``{...}`` is the value of the
arithmetic inside, and an ``int`` property may be an expression of the number (``value: n``,
``points: 2 * n``). Expanded here, when the IR is built, so nothing else sees the ``for``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import ir
from .errors import CheckError, SourceSpan
from .limits import is_name
from .parser import parse_expression, parse_template
from .yamlload import YStr

MAX_RUN = 1000  # numbers in one item line's range, as an item's count is at most 1000


def expand(
    kind: str, items: Any, props: dict[str, str], constants: dict[str, ir.ConstDecl]
) -> Iterator[tuple[Any, SourceSpan]]:
    """The item lines of ``items`` with every ``for`` line repeated per number: (item, span),
    one at a time (the caller counts the cards as they come: MAX_COMPONENTS)."""
    for i, it in enumerate(items):
        span = items.item_spans[i]
        if not isinstance(it, dict) or "for" not in it:
            yield it, span
            continue
        var, numbers = _run(kind, it, constants)
        for n in numbers:
            yield _item(kind, it, var, n, props, constants), span


def _run(kind: str, it: Any, constants: dict[str, ir.ConstDecl]) -> tuple[str, range]:
    text, at = it["for"], it.value_spans["for"]
    e = parse_expression(text, _origin(text, at)) if isinstance(text, str) else None
    if not (
        isinstance(e, ir.BinOp)
        and e.op == "in"
        and isinstance(e.left, ir.Name)
        and isinstance(e.right, ir.BinOp)
        and e.right.op == ".."
    ):
        raise CheckError(
            f"'for' of an item of '{kind}' must read 'NAME in FIRST..LAST'",
            at,
            expected="for example 'n in 1..30'",
        )
    var = e.left.id
    if var in constants:
        raise CheckError(
            f"the item number '{var}' has the name of a constant",
            e.left.span,
            suggestion="call it n",
        )
    lo = _value(e.right.left, var, None, constants)
    hi = _value(e.right.right, var, None, constants)
    if not 0 < hi - lo + 1 <= MAX_RUN:
        raise CheckError(
            f"the numbers {lo}..{hi} of an item of '{kind}' are "
            + ("none" if hi < lo else f"{hi - lo + 1}, more than {MAX_RUN}"),
            e.right.span,
            expected=f"a range of 1 to {MAX_RUN} numbers, first no larger than last",
        )
    return var, range(lo, hi + 1)


def _item(
    kind: str, it: Any, var: str, n: int, props: dict[str, str], constants: dict[str, ir.ConstDecl]
) -> Any:
    """The item line for number ``n``: a mapping with the line's spans."""
    out = type(it)()
    for attr in ("span", "key_spans", "value_spans"):
        if hasattr(it, attr):
            setattr(out, attr, getattr(it, attr))
    for k, v in it.items():
        if k == "for":
            continue
        t = props.get(k, "str")
        if k == "count":
            t = "int"
        out[k] = _fill(v, t, var, n, constants, it.value_spans.get(k, it.span))
        if k == "key" and not is_name(str(out[k])):
            raise CheckError(
                f"item {n} of '{kind}' has the key '{out[k]}', which is not a name",
                it.value_spans.get(k, it.span),
                expected="letters, digits and _ (not starting with a digit)",
            )
    return out


def _fill(
    v: Any, t: str, var: str, n: int, constants: dict[str, ir.ConstDecl], at: SourceSpan
) -> Any:
    if isinstance(v, list):
        inner = t[5:] if t.startswith("list:") else t
        return [_fill(x, inner, var, n, constants, at) for x in v]
    if not isinstance(v, str):
        return v
    if t == "int":
        return _value(parse_expression(v, _origin(v, at)), var, n, constants)
    parts = parse_template(v, _origin(v, at))
    return "".join(p if isinstance(p, str) else str(_value(p, var, n, constants)) for p in parts)


def _origin(text: str, at: SourceSpan) -> YStr | SourceSpan:
    """Where a text's characters stand: the text itself when the loader placed it."""
    return text if isinstance(text, YStr) else at


def _value(e: ir.Expr, var: str, n: int | None, constants: dict[str, ir.ConstDecl]) -> int:
    """An item number's arithmetic: numbers, the number's name, number constants, + - * // %."""
    if isinstance(e, ir.Const) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return e.value
    if isinstance(e, ir.Name) and e.id == var and n is not None:
        return n
    if isinstance(e, ir.Name) and e.id in constants and constants[e.id].type == "int":
        return int(constants[e.id].value)
    if isinstance(e, ir.Unary) and e.op == "-":
        return -_value(e.operand, var, n, constants)
    if isinstance(e, ir.BinOp) and e.op in ("+", "-", "*", "//", "%"):
        a, b = _value(e.left, var, n, constants), _value(e.right, var, n, constants)
        if e.op in ("//", "%") and b == 0:
            raise CheckError("division by zero in a numbered item", e.span)
        ops = {
            "+": a + b,
            "-": a - b,
            "*": a * b,
            "//": a // b if b else 0,
            "%": a % b if b else 0,
        }
        return ops[e.op]
    allowed = f"'{var}', " if n is not None else ""
    raise CheckError(
        "a numbered item can only compute with whole numbers",
        e.span,
        expected=f"numbers, {allowed}number constants and + - * // %",
    )
