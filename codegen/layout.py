"""The generator's view of a game's layout: what the code generator reads of the cards and zones.

The generator writes names and indices into the module (a zone's base, a kind's cards, a data
table's columns); it takes them from this layout, laid out for the fewest players as the module
will lay it out (runtime/layout.py), never from an interpreter Program.
"""

from __future__ import annotations

from meeple.dsl.checker import Checked
from meeple.dsl.specs import kind_specs, zone_specs
from meeple.runtime.datatable import DataTableRT
from meeple.runtime.layout import ProgramBase


class GenLayout(ProgramBase):
    """The layout of ``checked``'s game for its fewest players, with the names an expression may
    read statically: ``static_names`` (kinds and pattern tables), ``pattern_tables`` (their
    names), ``data_tables`` (name -> the built table, for its column indices)."""

    def __init__(self, checked: Checked) -> None:
        g = checked.game
        super().__init__(kind_specs(g), zone_specs(g), g.players_min)
        self.checked, self.game = checked, g
        self.pattern_tables = frozenset(g.tables)
        self.static_names = frozenset(g.kinds) | self.pattern_tables
        self.data_tables = {
            n: DataTableRT.build(DataTableRT.data(t, g.kinds), self.card_by_key)
            for n, t in g.data_tables.items()
        }
