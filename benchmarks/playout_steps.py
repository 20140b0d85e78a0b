"""Where the speed of a playout comes from: each specialization switched on one after the other,
measured side by side in one process (CPU time), on the generated back end. Not a test: run it
by hand; docs/performance.md reports it.

    python benchmarks/playout_steps.py [GAME ...] [--players 4] [--seconds 3]

Rows, each adding one thing to the row before:

1. ``API``: one legal_actions() and apply_action() per decision (what a framework does);
2. ``playout, frames``: State.playout with the frames stepped as the API steps them, the
   decisions taken where they arise (no Decision waits, no API call per decision);
3. ``+ direct code``: each block of the rules run as one Python function (codegen/direct.py),
   choices inline; picks still step their frames;
4. ``+ direct picks``: a pick as one loop (runtime/playout.py's run_pick);
5. ``+ picks written out``: that loop written out for each pick (codegen/pick.py), as meeple's
   modules have it;
6. ``+ choices trimmed``: a choice collects only what a playout needs, no action ids
   (codegen/choice.py), as meeple's modules have it;
7. ``+ direct setup``: Game.playout, the setup run as direct code too.

Rows 3 and 4 run a module generated in memory whose picks call run_pick (the generator's
``DirectEmitter.write_picks`` off), row 5 one whose choices collect their options with ids as
the frame-stepping code does (``DirectEmitter.write_choices`` off); rows 3 and 4 have both off.
The others run the module meeple runs.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import meeple
from meeple.codegen import cache
from meeple.codegen.direct import DirectEmitter
from meeple.codegen.emitter import generate, relative
from meeple.interpreter.game import Game
from meeple.runtime.playout import run_to
from meeple.runtime.state import State


def rate(play: Callable[[int], int], seconds: float) -> tuple[float, float]:
    """(games/s, decisions/s) of ``play(seed) -> decisions`` over ``seconds`` of CPU time."""
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += play(games)
        games += 1
    dt = time.process_time() - start
    return games / dt, decisions / dt


def api_game(game: Game) -> Callable[[int], int]:
    def play(seed: int) -> int:
        state, rng = game.new_initial_state(seed, record_log=False), random.Random(seed)
        n = 0
        while not state.is_terminal():
            a = state.legal_actions()
            state.apply_action(a[int(rng.random() * len(a))])
            n += 1
        return n

    return play


def playout_game(game: Game) -> Callable[[int], int]:
    def play(seed: int) -> int:
        return game.new_initial_state(seed, record_log=False).playout(seed)

    return play


def picks_through_frames(op: Any, st: State, env: dict[str, Any]) -> None:
    """run_pick's stand-in: the pick's frame pushed and stepped (decisions inline)."""
    h = len(st.frames)
    op.exec(st, env)
    run_to(st, h)


def with_run_pick(game: Game, picks: bool = False) -> Game:
    """``game`` on a module generated in memory (never cached) whose choices collect ids (as
    collect_N does) and whose picks call run_pick (written out with ``picks``)."""
    checked = game.checked
    DirectEmitter.write_picks, DirectEmitter.write_choices = picks, False
    try:
        text = generate(checked)
    finally:
        DirectEmitter.write_picks = DirectEmitter.write_choices = True
    name = f"meeple_steps_{game.id.replace('-', '_')}{'_picks' if picks else ''}"
    mod = cache.module_from_text(text, name, None)
    root = Path(checked.game.file).parent
    files = [*cache.source_files(checked), *cache.rule_files(checked.game)]
    named = {relative(f, root): f for f in files}
    prog = mod.build(game.num_players(), [named.get(f, str(root / f)) for f in mod.FILES])
    prog.game = checked.game
    return Game(checked, game.num_players(), prog)


def steps(gid: str, players: int | None, seconds: float) -> list[tuple[str, float, float]]:
    game = meeple.load(gid, players, backend="compiled")
    slow, ids = with_run_pick(game), with_run_pick(game, picks=True)
    prog: Any = slow.program
    direct = dict(prog.resume)
    glob = next(iter(direct.values())).__globals__  # the generated module's globals
    real_pick = glob["run_pick"]
    rows = []
    for g in (api_game(game), playout_game(game), playout_game(slow), playout_game(ids)):
        g(0)  # warm-up
    rows.append(("API", *rate(api_game(game), seconds)))
    prog.resume = {}
    rows.append(("playout, frames", *rate(playout_game(slow), seconds)))
    prog.resume = direct
    glob["run_pick"] = lambda st, env, op: picks_through_frames(op, st, env)
    rows.append(("+ direct code", *rate(playout_game(slow), seconds)))
    glob["run_pick"] = real_pick
    rows.append(("+ direct picks", *rate(playout_game(slow), seconds)))
    rows.append(("+ picks written out", *rate(playout_game(ids), seconds)))
    rows.append(("+ choices trimmed", *rate(playout_game(game), seconds)))
    rows.append(("+ direct setup", *rate(lambda s: game.playout(s).move_number, seconds)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=["shadow-of-the-sun"])
    ap.add_argument("--players", "-p", type=int)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    for gid in args.games:
        print(f"{gid}: games/s, decisions/s, and each row / the one before")
        before = None
        for name, games, decisions in steps(gid, args.players, args.seconds):
            gain = f"{games / before:.2f}x" if before else ""
            print(f"  {name:20} {games:9.1f} {decisions:11.0f}  {gain}")
            before = games


if __name__ == "__main__":
    main()
