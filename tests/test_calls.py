"""A generated module leaves out the depth count of its rules functions where no call can be
deep (codegen/calls.py): no function calls itself, directly or not, and there are fewer than
MAX_CALL_DEPTH of them. Such a game's module counts nothing, and an error inside its functions
is the interpreter's, the functions named in its rules trace; a game whose functions recurse
keeps the count (tests/test_runtime_checks.py: the limit, on both back ends)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from test_runtime_checks import _errors, _write

from meeple.api import load_checked
from meeple.codegen.calls import never_deep
from meeple.codegen.emitter import generate
from meeple.dsl import ir
from meeple.dsl.errors import SourceSpan
from meeple.dsl.limits import MAX_CALL_DEPTH

SPAN = SourceSpan("game.yaml", 1, 1, 1, 2)


def _game(calls: dict[str, list[str]]) -> SimpleNamespace:
    """A game whose function ``name`` calls each of ``calls[name]`` (its body: their sum)."""
    functions: dict[str, SimpleNamespace] = {}
    for name, called in calls.items():
        body: ir.Expr = ir.Const(SPAN, 0)
        for c in called:
            body = ir.BinOp(SPAN, "+", body, ir.Call(SPAN, c, ()))
        functions[name] = SimpleNamespace(body=body)
    return SimpleNamespace(functions=functions)


def test_only_a_game_whose_functions_never_recurse_is_never_deep() -> None:
    assert never_deep(_game({"a": ["b", "c"], "b": ["c"], "c": []}))  # type: ignore[arg-type]
    for cyclic in (
        {"a": ["a"]},
        {"a": ["b"], "b": ["a"]},
        {"a": ["b"], "b": ["c"], "c": ["d"], "d": ["b"]},  # a cycle below the first
        {"a": [], "b": ["c"], "c": ["b"]},  # a cycle no other function reaches
    ):
        assert not never_deep(_game(cyclic)), cyclic  # type: ignore[arg-type]
    # MAX_CALL_DEPTH functions in a chain: the last is called with the others below it, one
    # less than the limit; one more may be called at the limit
    chain = {f"f{i}": [f"f{i + 1}"] for i in range(MAX_CALL_DEPTH - 1)}
    assert never_deep(_game({**chain, f"f{MAX_CALL_DEPTH - 1}": []}))  # type: ignore[arg-type]
    many = {**chain, f"f{MAX_CALL_DEPTH - 1}": [f"f{MAX_CALL_DEPTH}"], f"f{MAX_CALL_DEPTH}": []}
    assert not never_deep(_game(many))  # type: ignore[arg-type]


FUNCTIONS = """\
functions:
  outer:
    source: Rules
    params: [n]
    value: 1 + inner(n)
  inner:
    source: Rules
    params: [n]
    value: 10 // (n - 2) + half(n)
  half:
    source: Rules
    params: [n]
    value: n // 2"""


def test_functions_that_never_recurse_count_nothing_and_fail_as_the_interpreters(
    tmp_path: Path,
) -> None:
    """``outer`` calls ``inner``, which divides by zero for 2: the module counts no depth, and
    the error is the interpreter's, at its place, both functions in its rules trace."""
    path = _write(tmp_path, setup="    - result = outer(2)", functions=FUNCTIONS)
    text = generate(load_checked(str(path)))
    assert "def fn_outer(" in text and "st.calls" not in text
    for e in _errors(path):
        assert "division by zero" in e.message
        assert [t.split(" (")[0] for t in e.trace] == ["function outer", "function inner"]


def test_functions_that_recurse_keep_the_count(tmp_path: Path) -> None:
    recursive = FUNCTIONS.replace("value: n // 2", "value: 0 if n <= 0 else half(n - 1)")
    assert recursive != FUNCTIONS
    path = _write(tmp_path, setup="    - result = outer(3)", functions=recursive)
    text = generate(load_checked(str(path)))
    assert text.count("st.calls += 1") == 3
