"""A pick whose destination is a zone held in a local (a procedure's zone parameter, a 'let')
may put each picked card back into its own source: the picked cards are still among the
source's cards, and a playout must pass over them as the API does (codegen/pick.py keeps the
filter of picked cards unless both zones are named and their names differ)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_playout import playout_is_the_api_game

import meeple

GAME = """\
game:
  id: restack
  name: Restack
  players: {min: 2, max: 2}
  source: Overview

components:
  cards:
    source: Components
    properties: {points: int}
    start: deck
    items:
      - {name: Coin, count: 3, points: 1}
      - {name: Gem, count: 2, points: 2}
      - {name: Star, points: 5}

zones:
  deck: {visibility: public, source: Setup}

variables:
  round: {type: int, initial: 1, source: Play}
  score: {type: int, per: players, source: Turn}

setup:
  source: Setup
  do:
    - shuffle deck

play:
  source: Play
  do:
    - repeat:
        - for: p in players
          do:
            - turn(p, deck)
            - let z = deck
            - {pick: Restack again, by: p, from: deck, to: z, min: 0, max: 2}
        - round += 1
      until: round > 2

procedures:
  turn:
    source: Turn
    params: [p, z]
    do:
      - {pick: Restack, by: p, from: deck, to: z, min: 0, max: 3, as: got}
      - score[p] += count(got)
"""


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_pick_back_into_its_source_through_a_local_plays_out_as_the_api_game(
    tmp_path: Path, backend: str
) -> None:
    """Three distinct cards on the deck: a card picked (and put back on top) is offered again
    only if the filter of picked cards is missing, which changes the number of options."""
    path = tmp_path / "game.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = meeple.load(str(path), 2, backend=backend)
    for seed in range(8):
        playout_is_the_api_game(game, seed)
