"""The bound on a game's action ids (``MAX_ACTIONS``): ``num_distinct_actions``, which the AI
adapters allocate a mask of, one entry per id.

An auction's bid option takes ``most + 1`` ids (a bid of any size has a stable id), so a
``most: 999999999999`` made a game of 10**12 action ids, and ``legal_action_mask`` asked numpy
for 931 GiB. A constant ``most`` is refused at check (dsl/auction.py, ``check_settings``); a
``most`` computed from the components, and the total of all the sites, when the game is
numbered for a player count (dsl/numbering.py).
"""

from __future__ import annotations

from typing import Any

from .errors import CheckError, SourceSpan
from .limits import MAX_ACTIONS

_SUGGEST_MOST = (
    "make 'most' the most any seat could really hold (it sizes the bids' action ids), or count"
    " bids in larger units"
)


def check_most(most: int, at: SourceSpan | None, players: int | None = None) -> None:
    """Refuse an auction's ``most`` whose ``most + 1`` bids would be more than MAX_ACTIONS
    action ids: CheckError at ``at`` (the ``most:`` value); ``players``: the player count a
    computed ``most`` was computed for (None for a constant)."""
    if most + 1 > MAX_ACTIONS:
        seats = f" with {players} players" if players is not None else ""
        raise CheckError(
            f"the auction's 'most' ({most:,}{seats}) gives {most + 1:,} possible bids, each an"
            f" action id: more than the {MAX_ACTIONS:,} allowed (MAX_ACTIONS)",
            at,
            expected=f"a 'most' of at most {MAX_ACTIONS - 1:,}",
            suggestion=_SUGGEST_MOST,
        )


def check_total(total: int, node: Any, players: int) -> None:
    """Refuse a game whose action ids, numbered up to the site ``node`` (an option, a pick or a
    tie), come to more than MAX_ACTIONS: CheckError at ``node``."""
    if total > MAX_ACTIONS:
        raise CheckError(
            f"the game's decisions come to {total:,} action ids by this one (with {players}"
            f" players), more than the {MAX_ACTIONS:,} allowed (MAX_ACTIONS): every option over"
            " cards takes one id per item line, over players one per seat, over numbers one per"
            " number",
            getattr(node, "span", None),
            suggestion="choose among fewer things at one decision (a number range, a kind"
            " with fewer item lines), or merge decisions",
        )
