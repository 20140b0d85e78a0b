"""The position of a game whose ``play:`` declares rounds, phases and turns (dsl/structure.py):
the round, the phase and whose turn it is, as a line for people and as saved data to check.

The position lives in the state's variables (dsl.builtins.POSITION), which the structure alone
sets, so both back ends keep it alike and a save carries it."""

from __future__ import annotations

from typing import Any

from .values import player_name


def position_line(game: Any, variables: dict[str, Any]) -> str | None:
    """ "Round 3, phase Missions: P2's turn" for a structured game (its IR ``game``), else None.
    ``variables`` are the state's (or an observation's: a seat is the same number)."""
    if getattr(game, "structure", None) is None:
        return None
    rnd = variables.get("round")
    if not isinstance(rnd, int) or rnd < 1:
        return "Before round 1"
    text = f"Round {rnd}"
    phase, seat = variables.get("phase"), variables.get("turn_player")
    if phase:
        text += f", phase {phase}"
    if isinstance(seat, int):
        text += f": {player_name(seat)}'s turn"
    return text


def turn_line(st: Any) -> str:
    """The log line of a turn that begins: "Round 3, phase Missions: P2's turn". Both back ends
    write it where the play structure sets ``turn_player`` to a seat (one statement, not two:
    a turn is the structure's most frequent step)."""
    v = st.vars
    phase = f", phase {v['phase']}" if v["phase"] else ""
    return f"Round {v['round']}{phase}: {player_name(v['turn_player'])}'s turn"


def saved_position_error(game: Any, variables: dict[str, Any]) -> str | None:
    """Why the position in a saved state's variables cannot be one of ``game``'s (a round below
    0 or past the last, a phase the rules do not declare), or None when it can."""
    st = getattr(game, "structure", None)
    if st is None:
        return None
    rnd, phase = variables.get("round"), variables.get("phase")
    if type(rnd) is not int or rnd < 0:
        return f"the round is {rnd!r}, not a round number"
    limit = getattr(st.rounds, "value", None)  # a literal count of rounds, or a constant's
    if limit is None and getattr(st.rounds, "id", None) in game.constants:
        limit = game.constants[st.rounds.id].value
    if type(limit) is int and rnd > limit:
        return f"the round is {rnd}, but the game has {limit}"
    names = {"", *(p.name for p in st.phases)}
    if phase not in names:
        return f"the phase is {phase!r}, which is not a phase of these rules"
    return None
