"""The game's IR as the plain data both back ends lay it out from (no back end needed).

The interpreter's Program and the code generator both call these, so they lay a game out from
the same specs: its kinds and zones (runtime/layout.py's KindSpec and ZoneSpec), which
functions are leaves, how many spaces a wrapping track has.
"""

from __future__ import annotations

from meeple.runtime.layout import KindSpec, ZoneSpec

from . import ir


def leaf_functions(game: ir.Game) -> set[str]:
    """Functions that call no rules function. They cannot recurse, so they add nothing to the
    call depth nor to the rules trace (the code generator inlines them: both back ends count
    calls the same way)."""

    def calls(e: object) -> bool:
        if isinstance(e, ir.Call) and e.func in game.functions:
            return True
        if isinstance(e, (list, tuple)):
            return any(calls(x) for x in e)
        if isinstance(e, ir.Expr):
            return any(calls(getattr(e, f)) for f in e.__dataclass_fields__ if f != "span")
        return False

    return {n for n, f in game.functions.items() if not calls(f.body)}


def kind_specs(g: ir.Game) -> list[KindSpec]:
    """The game's kinds as layout data."""
    return [
        KindSpec(
            k.name,
            tuple((i.key, i.name, dict(i.props), i.count) for i in k.items),
            k.start,
            k.per_player,
            tuple((p, t) for p, t in k.properties.items() if t in g.kinds or t.startswith("list:")),
        )
        for k in g.kinds.values()
    ]


def zone_specs(g: ir.Game) -> list[ZoneSpec]:
    """The game's zones as layout data."""
    return [ZoneSpec(z.name, z.per, z.visibility, z.refill) for z in g.zones.values()]


def wrap_size(v: ir.VarDecl) -> int | None:
    """How many spaces a track that wraps has (None for one that does not)."""
    if v.at_max != "wrap" or v.max is None or v.min is None:
        return None
    return v.max - v.min + 1
