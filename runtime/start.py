"""Where each card of a game lies before its setup: laid out once per Program.

Every new State puts each card in its start zone (``Layout.start_zone``), a look-up per card:
150 of them in Sonnenkönig, a few per cent of a random playout's time. The start piles depend
only on the Program (its cards, their declared start zones and the number of players), which
never changes once built, so they are laid out once and each new State copies them: the same
piles in the same order and the same ``loc``.
"""

from __future__ import annotations

from typing import Any


def start_piles(prog: Any) -> tuple[list[list[Any]], list[int]]:
    """(the piles of ``prog``'s zones before setup, each card at the end of its start zone's in
    card order; each card's zone index by card id), made on the first call and kept on
    ``prog``. The lists are the Program's: a State copies them."""
    kept: tuple[list[list[Any]], list[int]] | None = getattr(prog, "_start_piles", None)
    if kept is None:
        piles: list[list[Any]] = [[] for _ in prog.zone_names]
        loc = [0] * len(prog.cards)
        for c in prog.cards:
            z = prog.start_zone(c)
            piles[z].append(c)
            loc[c.id] = z
        kept = (piles, loc)
        setattr(prog, "_start_piles", kept)  # noqa: B010  (not a declared attribute)
    return kept
