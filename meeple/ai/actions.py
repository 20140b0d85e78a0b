"""The whole action table of a game: a label for every action id, legal now or not; the legal
action mask; and a bound on the length of a game."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from meeple.dsl import ir
from meeple.dsl.errors import MeepleError
from meeple.dsl.render import ExprWriter, statement_blocks, walk
from meeple.interpreter.game import Game
from meeple.interpreter.program import Program
from meeple.runtime.layout import site_size
from meeple.runtime.ops import ChooseOp, PickOp, WinnerOp
from meeple.runtime.state import State
from meeple.runtime.values import card_label, player_name

_LABELS: dict[tuple[str, str, int], list[str]] = {}


def action_labels(game: Game) -> list[str]:
    """A label for every action id of ``game``, legal now or not: ``labels[a]`` for ``a`` in
    ``range(game.num_distinct_actions())``. Same ids and labels on both back ends.

    A label is ``"<prompt>: <option>"`` with the rule's own text: the prompt and option as
    written (``{expr}`` holes left as written), the card type (cards of one item line and
    owner are one action), ``done`` for the end of a pick, a seat as P1..Pn, a number as
    itself. Where two ids would read the same, the rule's file:line is added. Ids that no
    game of this player count can offer (a seat beyond the count, a number out of reach)
    have labels too."""
    key = (game.id, game.name, game.num_players())
    hit = _LABELS.get(key)
    if hit is None:
        hit = _LABELS[key] = _labels(game)
    return list(hit)


def _labels(game: Game) -> list[str]:
    if game.checked is None:
        raise MeepleError("the action table needs the game's checked rules")
    # the interpreter's program gives the same ids as the generated module (proven equal by
    # the differential tests), and keeps which rule statement each decision op came from
    prog = Program(game.checked, game.num_players())
    stmt_of: dict[int, Any] = {}
    g = game.checked.game
    for root in statement_blocks(g):
        for node in walk(root):
            if isinstance(node, (ir.Choose, ir.Pick, ir.Winner)):
                op = prog.op_of.get(id(node))
                if op is not None:
                    stmt_of[op.uid] = node
    w = ExprWriter()
    types: dict[int, str] = {}
    for c in prog.cards:
        types.setdefault(c.type_id, card_label(c))
    size = prog.num_distinct_actions
    labels: list[str | None] = [None] * size
    where: list[str] = [""] * size

    def put(a: int, text: str, span: Any) -> None:
        if 0 <= a < size and labels[a] is None:
            labels[a] = text
            where[a] = f"{span.file.rsplit('/', 1)[-1]}:{span.line}"

    def domain(site: Any, head: str, span: Any, var: str = "") -> None:
        # head: the prompt (and the option's own text); var: the name bound to the value
        def text(value: str) -> str:
            return f"{head} ({var} = {value})" if var else f"{head}: {value}"

        if site.domain == "card":
            for t, name in types.items():
                put(site.base + t, text(name), span)
            put(site.base + prog.num_card_types, f"{head}: done", span)
        elif site.domain == "player":
            for p in range(g.players_max):
                put(site.base + p, text(player_name(p)), span)
        elif site.domain.startswith("int"):
            for k in range(site_size(site.domain, prog.num_card_types, g.players_max)):
                put(site.base + k, text(str(k)), span)
        else:
            put(site.base, head, span)

    for op in prog.ops:
        s = stmt_of.get(op.uid)
        if isinstance(op, ChooseOp):
            prompt = w.template(s.prompt) if s is not None else "choose"
            for k, o in enumerate(op.options):
                text = w.template(s.options[k].label) if s is not None else f"option {k + 1}"
                domain(o.site, f"{prompt}: {text}", op.span, o.var or "")
        elif isinstance(op, PickOp):
            prompt = w.template(s.prompt) if s is not None else "pick"
            domain(op.site, prompt, op.span)
        elif isinstance(op, WinnerOp):
            prompt = (w.template(s.prompt) if s is not None else "winner") + ": break the tie"
            domain(op.site, prompt, op.span)
    out = [x if x is not None else f"action {a} (unused)" for a, x in enumerate(labels)]
    seen: dict[str, int] = {}
    for x in out:
        seen[x] = seen.get(x, 0) + 1
    out = [f"{x} ({where[a]})" if seen[x] > 1 else x for a, x in enumerate(out)]
    seen.clear()
    for x in out:
        seen[x] = seen.get(x, 0) + 1
    return [f"{x} [{a}]" if seen[x] > 1 else x for a, x in enumerate(out)]


def num_distinct_actions(game: Game) -> int:
    """The size of the action table: every action id is in range(num_distinct_actions)."""
    return game.num_distinct_actions()


def legal_action_mask(state: State) -> np.ndarray:
    """An int8 vector of ``num_distinct_actions`` entries: 1 for each legal action now."""
    mask = np.zeros(state.prog.num_distinct_actions, dtype=np.int8)
    d = state.pending
    if d is not None:
        mask[d.actions] = 1
    return mask


# ------------------------------------------------------------------------------ game length
#: Measured bounds on decisions per game (see max_game_length): (game id, rules name,
#: players) -> twice the longest of 400 random games (seeds 0..399). Regenerate with
#: ``python -m meeple.ai.actions`` after a change of rules (a test checks a few entries).
MEASURED_MAX_LENGTH: dict[tuple[str, str, int], int] = {
    ("harbour-guilds", "Harbour Guilds", 2): 68,
    ("harbour-guilds", "Harbour Guilds", 3): 66,
    ("harbour-guilds", "Harbour Guilds", 4): 64,
    ("louis-xiv", "Louis XIV", 2): 304,
    ("louis-xiv", "Louis XIV", 3): 456,
    ("louis-xiv", "Louis XIV", 4): 584,
    ("shadow-of-the-emperor", "In the Shadow of the Emperor", 2): 322,
    ("shadow-of-the-emperor", "In the Shadow of the Emperor", 3): 430,
    ("shadow-of-the-emperor", "In the Shadow of the Emperor", 4): 546,
    ("shadow-of-the-sun", "Shadow of the Sun", 3): 604,
    ("shadow-of-the-sun", "Shadow of the Sun", 4): 798,
    ("sonnenkoenig", "Im Schatten des Sonnenkönigs", 2): 358,
    ("sonnenkoenig", "Im Schatten des Sonnenkönigs", 3): 534,
    ("sonnenkoenig", "Im Schatten des Sonnenkönigs", 4): 650,
    ("sonnenkoenig", "Im Schatten des Sonnenkönigs", 5): 724,
    ("sonnenkoenig", "Im Schatten des Sonnenkönigs", 6): 732,
}

MEASURE_GAMES = 400
_LENGTHS: dict[tuple[str, str, int], int] = {}


def max_game_length(game: Game) -> int:
    """A bound on the decisions (actions applied) in one game of ``game``.

    It cannot be derived from the rules in general: a ``repeat ... until`` or ``while`` ends
    when the rules say, not after a count. So it is MEASURED and DECLARED: twice the longest
    of 400 random games (seeds 0..399, on the generated back end). The shipped games' values
    are in MEASURED_MAX_LENGTH; another game or a variant is measured on first use (a few
    seconds; cached for the process). Agents that make games longer than random play does
    could exceed it (see docs/ai.md, Actions)."""
    key = (game.id, game.name, game.num_players())
    hit = MEASURED_MAX_LENGTH.get(key) or _LENGTHS.get(key)
    if hit is None:
        hit = _LENGTHS[key] = 2 * longest_random_game(game, MEASURE_GAMES)
    return hit


def longest_random_game(game: Game, games: int) -> int:
    """The most decisions in ``games`` random games (seeds 0..games-1), played on the
    generated back end (the same games as the interpreter's, faster)."""
    from meeple.codegen import compiled_program  # noqa: PLC0415

    if game.backend != "compiled" and game.checked is not None:
        game = Game(
            game.checked, game.num_players(), compiled_program(game.checked, game.num_players())
        )
    longest = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed, record_log=False)
        n = 0
        while not state.is_terminal():
            d = state.pending
            assert d is not None
            state.apply_action(d.actions[rng.randrange(len(d.actions))])
            n += 1
        longest = max(longest, n)
    return longest


def _measure_shipped() -> None:
    """Print MEASURED_MAX_LENGTH for every shipped game and player count."""
    from meeple.api import load  # noqa: PLC0415
    from meeple.registry import game_ids  # noqa: PLC0415

    for gid in game_ids():
        base = load(gid)
        g = base.checked.game
        for n in range(g.players_min, g.players_max + 1):
            game = load(gid, n, backend="compiled")
            print(
                f"    {(game.id, game.name, n)!r}: {2 * longest_random_game(game, MEASURE_GAMES)},"
            )


if __name__ == "__main__":
    _measure_shipped()
