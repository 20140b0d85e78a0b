"""Card types that know their kind: ``card[minions]``.

Inside the checker a card whose kind is known has the type ``card[KIND]`` (and a list of them
``list:card[KIND]``): the cards of a kind's name, a property naming a kind, ``card('key')``, a
trigger's card of one kind, a data table's kind column, and whatever is taken from those (a
loop's name, ``first``, ``top``, a parameter every call passes such a card). A property read
from such a card is looked up in that kind's properties, so ``d.minion`` on a minion card is a
check error at its position, with the properties the kind has. Where two kinds meet (an ``if``
giving either, a parameter passed both) the type is plain ``card`` and every kind's properties
are allowed, as before. The recorded types the back ends read stay plain (``plain``).
"""

from __future__ import annotations

import re
from typing import Any

from . import ir
from .errors import CheckError, did_you_mean

_KINDED = re.compile(r"card\[([A-Za-z_][A-Za-z0-9_]*)\]")


def plain(t: str) -> str:
    """``t`` with every ``card[KIND]`` written ``card``: the type the back ends know."""
    return _KINDED.sub("card", t) if "[" in t else t


def kind_of(t: str) -> str | None:
    """The kind of a ``card[KIND]`` type, else None."""
    m = _KINDED.fullmatch(t)
    return m.group(1) if m else None


def refine(ptype: str, kinds: dict[str, ir.Kind]) -> str:
    """The checker's type of a value of declared type ``ptype`` (``int``, a kind, ``list:K``)."""
    if ptype.startswith("list:"):
        return "list:" + refine(ptype[5:], kinds)
    return f"card[{ptype}]" if ptype in kinds else ptype


def unify(a: str, b: str) -> str:
    """The type of a value that is either an ``a`` or a ``b``: cards of two kinds are cards."""
    if a == b:
        return a
    if plain(a) == plain(b):
        return plain(a)
    for t, other in ((a, b), (b, a)):  # a player or a card may be none
        if other == "none" and plain(t) in ("player", "card"):
            return t
    return "any"


def conflict(t: str, want: str) -> bool:
    """True when ``t`` and ``want`` are cards (or lists of cards) of two different kinds."""
    a, b = _kinds_in(t), _kinds_in(want)
    return a is not None and b is not None and a != b and plain(t) == plain(want)


def _kinds_in(t: str) -> str | None:
    m = _KINDED.search(t)
    return m.group(1) if m else None


def words(t: str) -> str | None:
    """How a message names a kinded type, e.g. 'a card of minions'; None for other types."""
    k = kind_of(t)
    if k is not None:
        return f"a card of {k}"
    if t.startswith("list:") and kind_of(t[5:]) is not None:
        return f"a list of cards of {kind_of(t[5:])}"
    return None


def attr_type(checker: Any, e: ir.Attr, t: str) -> str | None:
    """The type of ``e`` (``CARD.name``) when the card's kind is known, else None; a property
    that kind does not have is a check error naming what it has and which kinds have it."""
    k = kind_of(t)
    if k is None:
        return None
    kinds: dict[str, ir.Kind] = checker.g.kinds
    props = kinds[k].properties
    if e.name in props:
        return refine(props[e.name], kinds)
    if e.name in checker.builtin_props:
        return None  # name, key, kind, owner: every card has them
    holders = [n for n, kd in kinds.items() if e.name in kd.properties]
    has = ", ".join([*props, *checker.builtin_props])
    hint = did_you_mean(e.name, [*props, *checker.builtin_props])
    if hint is None and holders:
        hint = f"'{e.name}' is a property of {', '.join(holders)}; is this the right card?"
    raise CheckError(
        f"a card of '{k}' has no property '{e.name}'",
        e.span,
        expected=f"one of its properties: {has}",
        suggestion=hint,
    )


DECLARED = ("int", "bool", "player", "str", "card")


def split_declared(text: str) -> tuple[str, str | None]:
    """A declared type -> (the back ends' type, the kind): ``card[minions]`` -> ("card",
    "minions"); ``int`` -> ("int", None). The schema has let only these forms through."""
    m = _KINDED.fullmatch(text)
    return ("card", m.group(1)) if m else (text, None)


def check_declared(kind: str | None, kinds: dict[str, ir.Kind], span: Any, what: str) -> None:
    """A ``card[KIND]`` type must name a kind."""
    if kind is not None and kind not in kinds:
        raise CheckError(
            f"{what} is a card of '{kind}', which is not a kind",
            span,
            expected="card[KIND] with one of the kinds: " + ", ".join(kinds),
            suggestion=did_you_mean(kind, kinds),
        )


def param_spans(params: Any, default: Any) -> tuple[Any, ...]:
    """Where each parameter's type (or name) is written, for errors about it."""
    spans = getattr(params, "item_spans", None) or [default] * len(params or [])
    return tuple(
        p.value_spans.get(next(iter(p)), s) if hasattr(p, "value_spans") and p else s
        for p, s in zip(params or [], spans, strict=False)
    )


def param(node: Any) -> tuple[str, str | None]:
    """A parameter as written: a name, or a one-key mapping ``{d: card[districts]}`` -> (name,
    declared type or None)."""
    if isinstance(node, dict):
        ((name, t),) = node.items()
        return str(name), str(t)
    return str(node), None


def declared(v: ir.VarDecl) -> str:
    """The checker's type of a variable: ``card[KIND]`` when declared so."""
    return f"card[{v.kind}]" if v.kind is not None else v.type


def parameters(decl: ir.Function | ir.Procedure) -> list[str]:
    """Each parameter as written: ``p``, ``d: card[districts]``."""
    types = (*decl.param_types, *([None] * len(decl.params)))[: len(decl.params)]
    return [p if t is None else f"{p}: {t}" for p, t in zip(decl.params, types, strict=True)]


def signature(decl: ir.Function | ir.Procedure) -> str:
    """The parameters as written: ``p, d: card[districts]``."""
    return ", ".join(parameters(decl))
