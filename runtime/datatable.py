"""Data tables compiled for look-up, shared by the interpreter and the generated modules."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import product
from typing import TYPE_CHECKING, Any

from meeple.dsl.errors import RuleError, SourceSpan

from .values import Card, formatter

if TYPE_CHECKING:
    from meeple.dsl import ir


class DataTableRT:
    """One data table: key -> the row's cells (a kind's cell is its item's first card).

    A key cell of a kind column is matched by the card's item key, so every copy of an item
    finds the same row."""

    def __init__(
        self,
        name: str,
        columns: tuple[tuple[str, str], ...],
        key: tuple[str, ...],
        rows: tuple[tuple[Any, ...], ...],
        card_by_key: Callable[[str], Card],
        kinds: tuple[str, ...],
    ) -> None:
        self.name = name
        types = dict(columns)
        self.columns = {c: i for i, (c, _) in enumerate(columns)}
        self.card_keys = tuple(types[k] in kinds for k in key)
        self.key_names = key
        self.shows = tuple(formatter("card" if types[k] in kinds else types[k]) for k in key)
        self.rows: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        at = [self.columns[k] for k in key]
        for row in rows:
            cells = tuple(
                card_by_key(str(v)) if ct in kinds else v
                for (_, ct), v in zip(columns, row, strict=True)
            )
            self.rows[tuple(row[i] for i in at)] = cells

    @classmethod
    def build(cls, data: tuple[Any, ...], card_by_key: Callable[[str], Card]) -> DataTableRT:
        """A table from ``data`` (see ``data``)."""
        name, columns, key, rows, kinds = data
        return cls(name, columns, key, rows, card_by_key, kinds)

    @staticmethod
    def data(t: ir.DataTable, kinds: Iterable[str]) -> tuple[Any, ...]:
        """The constructor's arguments before ``card_by_key``, as plain data (the generated
        module writes them as literals)."""
        plain = tuple(tuple(str(v) if isinstance(v, str) else v for v in r) for r in t.rows)
        used = tuple(sorted({ct for _, ct in t.columns if ct in set(kinds)}))
        return (
            str(t.name),
            tuple((str(c), str(ct)) for c, ct in t.columns),
            tuple(t.key),
            plain,
            used,
        )

    def cell(self, keys: tuple[Any, ...], column: int, span: SourceSpan) -> Any:
        """The cell of ``column`` (its position) in the row of ``keys``; no such row is a rule
        error naming the table and the key."""
        return self.row(keys, span)[column]

    def lookup(self, cards: Iterable[Card], span: SourceSpan) -> Lookup:
        """The rows of one lookup of a generated module (at ``span``), read as
        ``LOOKUP[keys][column]`` where the interpreter calls ``cell(keys, column, span)``: a
        dict of the rows by key, a kind's cell by each of ``cards`` (every card of the game) of
        its item key; any other key (a text for a kind's cell, no row at all) is ``row``'s, with
        its rule error."""
        found = Lookup(self, span)
        for key, cells in self.rows.items():
            options = [
                [c for c in cards if c.key == k] if flag else [k]
                for k, flag in zip(key, self.card_keys, strict=True)
            ]
            for combo in product(*options):
                found[combo] = cells
        return found

    def row(self, keys: tuple[Any, ...], span: SourceSpan) -> tuple[Any, ...]:
        """The row of ``keys`` (a card for a kind's cell, or its item key); no such row is a
        rule error naming the table and the key."""
        given = keys  # (shown in the error: a card by its name, never by its item key)
        if any(self.card_keys):
            keys = tuple(
                k.key if flag and isinstance(k, Card) else k
                for k, flag in zip(keys, self.card_keys, strict=True)
            )
        row = self.rows.get(keys)
        if row is None:
            shown = ", ".join(
                f"{n} {show(k) if k is None or isinstance(k, Card) or not flag else k}"
                for n, show, k, flag in zip(
                    self.key_names, self.shows, given, self.card_keys, strict=True
                )
            )
            raise RuleError(f"table '{self.name}' has no row for {shown}", span)
        return row


class Lookup(dict[tuple[Any, ...], tuple[Any, ...]]):
    """The rows of one lookup by key (DataTableRT.lookup); a key not there is DataTableRT.row's:
    its row, or its rule error at the lookup's span."""

    __slots__ = ("span", "table")

    def __init__(self, table: DataTableRT, span: SourceSpan) -> None:
        super().__init__()
        self.table, self.span = table, span

    def __missing__(self, keys: tuple[Any, ...]) -> tuple[Any, ...]:
        return self.table.row(keys, self.span)
