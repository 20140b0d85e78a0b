"""Words for counts and ratios, the same in every command: "1 procedure", "3 procedures",
"0.15×"."""

from __future__ import annotations


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and the noun in the form that count takes: "1 card", "0 cards", "2 cards"
    (``nouns``: an irregular plural, else ``noun`` + "s")."""
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"


def ratio(x: float) -> str:
    """A ratio of two rates as a factor: "0.15×", "2.40×"."""
    return f"{x:.2f}×"
