"""The bound on how many cards a game lays out (``MAX_COMPONENTS``), counted while the IR is built.

Each item line of ``components`` stands for ``count`` cards, once per seat for a ``per_player``
kind, so a 500 KB rules file could otherwise ask for millions of cards (8,000 lines of
``count: 1000``) and exhaust memory when a game starts. The tally runs as the kinds' items are
expanded (numbered lines one number at a time), so the error comes before anything is built for
the cards past the limit.
"""

from __future__ import annotations

from .errors import CheckError, SourceSpan
from .limits import MAX_COMPONENTS


class ComponentTally:
    """Running total of the cards the kinds declared so far lay out at the most players."""

    def __init__(self, players_max: int) -> None:
        self.players_max = players_max
        self.total = 0

    def add(self, kind: str, item: str, count: int, per_player: bool, at: SourceSpan) -> None:
        """Count ``count`` cards of item ``item`` of ``kind`` (times the most players for a
        per-player kind); raise CheckError at ``at`` (the item's count, or its line) when the
        total goes past MAX_COMPONENTS."""
        cards = max(0, count) * (self.players_max if per_player else 1)
        self.total += cards
        if self.total > MAX_COMPONENTS:
            seats = f" for each of {self.players_max} players" if per_player else ""
            raise CheckError(
                f"item '{item}' of kind '{kind}' ({cards:,} cards{seats}) brings the game's"
                f" components to {self.total:,} cards, more than the {MAX_COMPONENTS:,} allowed"
                " (MAX_COMPONENTS)",
                at,
                expected=f"at most {MAX_COMPONENTS:,} cards in all the kinds together",
                suggestion="use smaller counts, or a variable or track for what is only counted"
                " (a pile of identical tokens)",
            )
