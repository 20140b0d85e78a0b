"""Golden playthroughs: a complete game's log, byte for byte, per game and player count.

A change to the rules, the engine or the PRNG that alters any game shows up here as a diff.
When the change is intended, regenerate with:

    MEEPLE_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import meeple

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    ("shadow-of-the-sun", 4, 3),
    ("shadow-of-the-sun", 3, 11),
    ("louis-xiv", 2, 5),
    ("louis-xiv", 4, 3),
]


def _playthrough(game_id: str, players: int, seed: int) -> str:
    result = meeple.play(meeple.load(game_id, players=players), seed=seed)
    lines = [
        f"{'public' if who == -1 else f'P{who + 1} only'}: {text}" for who, text in result.state.log
    ]
    lines.append(f"scores: {result.scores}; winners: {[f'P{w + 1}' for w in result.winners]}")
    lines.append(f"decisions: {result.decisions}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("game_id", "players", "seed"), CASES)
def test_playthrough_matches_golden(game_id: str, players: int, seed: int) -> None:
    path = GOLDEN / f"{game_id}_{players}p_seed{seed}.txt"
    text = _playthrough(game_id, players, seed)
    if os.environ.get("MEEPLE_REGEN_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing {path}; see this module's docstring to create it"
    assert text == path.read_text(), f"{path.name} differs; if intended, regenerate (docstring)"
