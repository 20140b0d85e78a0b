"""Runtime values: cards are shared immutable objects; seats are ints; lists are lists.

Also the two conversions every back end needs: a value to readable text (by its checked type)
and a value to JSON and back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from meeple.dsl.errors import MeepleError
from meeple.dsl.limits import MAX_LOG_ITEMS, MAX_LOG_LINE, RESERVED_PROPERTIES, is_name

#: The card fields the rules language shows (``c.name``, ``c.owner``...); every other ``c.x`` is
#: one of the card's own properties, read from ``props`` and never from the engine's attributes.
CARD_FIELDS = frozenset({"name", "key", "kind", "owner"})


class Card:
    """One physical component. Shared by every state of a game; never mutated.

    Attributes: ``id`` (index in the game's card list), ``kind``, ``key``, ``name``, ``owner``
    (seat or None), ``ordinal`` (index among its kind), ``type_id`` (cards of one item line and
    owner are interchangeable and share it), and one attribute per declared property.
    """

    def __init__(
        self,
        id: int,
        kind: str,
        key: str,
        name: str,
        owner: int | None,
        ordinal: int,
        props: dict[str, Any],
        type_id: int = 0,
    ) -> None:
        self.id = id
        self.type_id = type_id
        self.kind = kind
        self.key = key
        self.name = name
        self.owner = owner
        self.ordinal = ordinal
        self.props = props
        for k, v in props.items():
            if k in RESERVED_PROPERTIES or k.startswith("_") or not is_name(k):
                # a property named like an engine field would change which card is which
                raise MeepleError(
                    f"a property of {name} is named '{k}', which is reserved for the engine "
                    f"or not a valid name",
                    expected="a name of letters, digits and '_' that is not one of "
                    + ", ".join(sorted(RESERVED_PROPERTIES))
                    + " and does not start with '_'",
                    suggestion=f"rename it, e.g. '{k.strip('_') or 'value'}_value'",
                )
            setattr(self, k, v)

    def __repr__(self) -> str:
        return f"<{self.name}#{self.id}>"


def player_name(seat: int) -> str:
    """Seats are shown 1-based: seat 0 is "P1"."""
    return f"P{seat + 1}"


def card_label(card: Card) -> str:
    """A card as shown to people: its name, and its owner for per-player components."""
    return card.name if card.owner is None else f"{card.name} ({player_name(card.owner)})"


def describe(cards: Sequence[Card]) -> str:
    """Cards grouped, in first-seen order: "Ghoul ×2, Masqued"."""
    counts: dict[str, int] = {}
    for c in cards:
        label = card_label(c)
        counts[label] = counts.get(label, 0) + 1
    return ", ".join(k if n == 1 else f"{k} ×{n}" for k, n in counts.items()) or "nothing"


def formatter(t: str) -> Callable[[Any], str]:
    """A function that shows a value of checked type ``t`` to a person."""
    if t == "player":
        return lambda v: "nobody" if v is None else player_name(v)
    if t == "card":
        return lambda v: "nothing" if v is None else card_label(v)
    if t.startswith("pair:"):  # pairs(xs, ys) of two types: each side shown as its type
        first, second = (formatter(x) for x in t[5:].split("|", 1))
        return lambda v: f"[{first(v[0])}, {second(v[1])}]"
    if t == "zone" or t.startswith("list:"):
        inner = formatter("card" if t == "zone" else t[5:])
        return lambda v: _shown_list(v, inner)
    if t == "bool":
        return lambda v: "yes" if v else "no"
    return lambda v: "none" if v is None else (v.name if isinstance(v, Card) else str(v))


def _shown_list(v: Sequence[Any], inner: Callable[[Any], str]) -> str:
    """A list shown to a person: its first MAX_LOG_ITEMS items, then how many more."""
    n = len(v)
    if n <= MAX_LOG_ITEMS:
        return "[" + ", ".join(inner(x) for x in v) + "]"
    shown = ", ".join(inner(v[i]) for i in range(MAX_LOG_ITEMS))
    return f"[{shown}, \u2026 and {n - MAX_LOG_ITEMS:,} more]"


def log_text(text: str) -> str:
    """A line of the game log, cut at MAX_LOG_LINE characters with how many more it had."""
    if len(text) <= MAX_LOG_LINE:
        return text
    return f"{text[:MAX_LOG_LINE]}\u2026 ({len(text) - MAX_LOG_LINE:,} more characters)"


def encode(v: Any) -> Any:
    """A runtime value as JSON data (a card becomes {"card": id})."""
    if isinstance(v, Card):
        return {"card": v.id}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    return v


def decode(v: Any, cards: Sequence[Card]) -> Any:
    """Inverse of encode."""
    if isinstance(v, dict):
        return cards[v["card"]]
    if isinstance(v, list):
        return [decode(x, cards) for x in v]
    return v
