"""The command line: meeple play | check | list | simulate | scenarios | compile | bench | arena |
serve.

``simulate`` lives in simulate.py (its options, process pool, Dask, streamed file)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from meeple import __version__
from meeple.codegen import generate
from meeple.dsl.errors import MeepleError
from meeple.dsl.lint import lint
from meeple.interpreter.agents import RandomAgent
from meeple.interpreter.game import Game
from meeple.interpreter.program import Program
from meeple.runtime.position import position_line
from meeple.runtime.state import State
from meeple.runtime.values import Card, card_label, decode, formatter, player_name

from . import api, authoring, simulate
from .bench import BENCH_STEPS, PLAYOUT, REFERENCE_GAMES, Rates, bench
from .endings import end_reason
from .explain import Verdict, explain
from .registry import DEFAULT_GAME, game_ids, rules_path
from .scenarios import run_scenario, scenario_files
from .wording import plural, ratio

out = Console(highlight=False, soft_wrap=True, emoji=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``meeple`` command. Returns the exit status (2 for bad input)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        args = parser.parse_args(["play", *(argv or [])])
    try:
        return int(args.run(args))
    except MeepleError as e:
        err.print(e.render(), markup=False)
        return 2
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="meeple",
        description="Play and check tabletop games written in the meeple rules language.",
    )
    p.add_argument("--version", action="version", version=f"meeple {__version__}")
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="play a complete game (computer players by default)")
    play.add_argument("game", nargs="?", default=DEFAULT_GAME, help="game id or rules path")
    play.add_argument("--players", "-p", type=int, help="number of players")
    play.add_argument("--seed", "-s", type=int, default=0, help="random seed (default 0)")
    play.add_argument(
        "--human",
        type=int,
        metavar="SEAT",
        action="append",
        default=[],
        help="seat (1-based) played by you in the terminal; repeatable",
    )
    play.add_argument("--quiet", "-q", action="store_true", help="print only the final scores")
    play.add_argument("--variant", help="a variant of the game (rules/<game>/variants/<id>.yaml)")
    _backend_option(play)
    play.set_defaults(run=cmd_play)

    check = sub.add_parser("check", help="check a rules file or folder; errors as file:line:col")
    check.add_argument("path", nargs="+", help="rules file(s) or folder(s) to check")
    check.set_defaults(run=cmd_check)

    lst = sub.add_parser("list", help="list the games that ship with meeple")
    lst.set_defaults(run=cmd_list)

    scen = sub.add_parser("scenarios", help="run a game's scenarios (its rulebook examples)")
    scen.add_argument("game", nargs="?", default=DEFAULT_GAME, help="game id or rules folder")
    _backend_option(scen)
    scen.set_defaults(run=cmd_scenarios)

    simulate.add_command(sub)
    authoring.add_commands(sub)

    comp = sub.add_parser("compile", help="write the Python module generated from a game's rules")
    comp.add_argument("game", nargs="?", default=DEFAULT_GAME, help="game id or rules path")
    comp.add_argument("-o", "--output", metavar="FILE", help="where to write it (default: stdout)")
    comp.add_argument("--variant", help="the module of this variant of the game")
    comp.set_defaults(run=cmd_compile)

    bench = sub.add_parser(
        "bench", help="random-playout throughput: interpreter, generated module, hand-written"
    )
    bench.add_argument("games", nargs="*", help="game ids (default: every shipped game)")
    bench.add_argument(
        "--players", "-p", type=int, help="number of players (default: 4 or the nearest)"
    )
    bench.add_argument("--seconds", type=float, default=3.0, help="per measurement (default 3)")
    bench.set_defaults(run=cmd_bench)

    arena = sub.add_parser(
        "arena", help="computer players against each other: win rates with 95%% intervals"
    )
    arena.add_argument("game", nargs="?", default=DEFAULT_GAME, help="game id or rules path")
    arena.add_argument(
        "--agents",
        required=True,
        help="one agent per seat, P1 first, comma-separated: random, greedy, flatmc[:PLAYOUTS], "
        "ismcts[:ITERATIONS] (e.g. ismcts:100,random,random,random)",
    )
    arena.add_argument("-n", type=int, default=20, help="number of games (default 20)")
    arena.add_argument("--seed", "-s", type=int, default=0, help="first seed (default 0)")
    arena.add_argument("--variant", help="play this variant of the game")
    arena.add_argument(
        "--backend",
        choices=api.BACKENDS,
        default="compiled",
        help="the generated module (default: the agents' back end) or the interpreter",
    )
    arena.set_defaults(run=cmd_arena)
    _serve_command(sub)
    return p


def _backend_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--backend",
        choices=api.BACKENDS,
        default="interpreter",
        help="run the rules with the interpreter (default) or as the generated Python module",
    )


# ---------------------------------------------------------------------------- play
def cmd_play(args: argparse.Namespace) -> int:
    game = api.load(args.game, args.players, args.variant, backend=args.backend)
    humans = {h - 1 for h in args.human}
    for h in humans:
        if not 0 <= h < game.num_players():
            raise MeepleError(f"--human {h + 1}: seats are 1 to {game.num_players()}")
    agents = [RandomAgent(args.seed * 1000 + s) for s in range(game.num_players())]
    state = game.new_initial_state(args.seed)
    state.ask_forced = frozenset(humans)  # a human sees a forced choice and why it is forced
    # the human seat whose view is on the screen: hot-seat play hands it over, filtered anew,
    # whenever another human seat must act
    viewer = min(humans) if humans else None
    if not args.quiet:
        out.print(f"[bold]{game.name}[/bold] · {game.num_players()} players · seed {args.seed}")
    shown = 0
    left_at = dict.fromkeys(humans, 0)  # log length when each human last had the screen
    while not state.is_terminal():
        seat = state.current_player()
        if seat in humans and seat != viewer:
            shown = _print_log(state, shown, viewer, args.quiet)
            if viewer is not None:
                left_at[viewer] = shown
            if not _hand_over(seat):
                return _abandoned()
            # the screen was cleared: what the new viewer may see of the log since he last had
            # it (public lines, and his own private ones), then what is new
            missed = state.log[left_at[seat] : shown]
            for who, text in missed if not args.quiet else []:
                if who in (-1, seat):
                    out.print(("  " if who != -1 else "") + text, markup=False)
            viewer = seat
        shown = _print_log(state, shown, viewer, args.quiet)
        action = _ask_human(game, state, seat) if seat in humans else agents[seat](state)
        if action is None:
            return _abandoned()
        state.apply_action(action)
    _print_log(state, shown, viewer, args.quiet)
    if not args.quiet:
        out.print(f"The game ended: {end_reason(game, state)}", markup=False)
        out.rule("The table at the end")
        _print_zones(state, None)
        _print_variables(state, None)
    _print_scores(state)
    return 0


ABANDONED = 3  # the exit status of a game quit before its end (q or Ctrl-D)


def _abandoned() -> int:
    err.print(f"game abandoned before its end (exit status {ABANDONED})")
    return ABANDONED


def _print_log(state: State, shown: int, viewer: int | None, quiet: bool) -> int:
    if not quiet:
        for who, text in state.log[shown:]:
            if viewer is None or who in (-1, viewer):
                out.print(("  " if who != -1 else "") + text, markup=False)
    return len(state.log)


def _print_scores(state: State) -> None:
    if all(v.name != "score" for v in state.prog.var_specs):
        # a game being written (the tutorial's step 1) has no scores yet: no table of winners
        out.print("no scores: the rules have no `score` variable yet", markup=False)
        return
    table = Table(title="Final scores")
    table.add_column("seat")
    table.add_column("score", justify="right")
    for i, tb in enumerate(state.prog.game.tie_breakers):
        table.add_column(tb.label or f"tie-breaker {i + 1}", justify="right")
    winners = set(state.winners())
    for p in range(state.prog.num_players):  # eliminated seats too, marked
        keys = state.tie_keys(p)
        mark = " (winner)" if p in winners else "" if p in state.players else " (eliminated)"
        table.add_row(player_name(p) + mark, *[str(k) for k in keys])
    out.print(table)


def _print_zones(state: State, seat: int | None) -> None:
    """Zones as ``seat`` may see them: during play the non-empty ones; at the end (seat None)
    every zone of the table, empty ones too ("house[P4]: empty" may be why the game ended)."""
    prog = state.prog
    for i, z in enumerate(state.zones):
        vis, owner = prog.zone_vis[i], prog.zone_owner[i]
        if not z:
            if seat is None and vis != "owner":
                out.print(f"  {prog.zone_names[i]}: empty", markup=False)
            continue
        if vis == "public" or (vis == "owner" and seat is not None and owner == seat):
            shown = _show_cards(z)
        elif vis == "top":
            shown = f"{plural(len(z), 'card')}, {_show_cards(z[-1:])} on top"
        elif seat is None and vis == "owner":
            continue  # the final board shows the table, not the hands
        else:
            shown = f"{plural(len(z), 'card')} face down"
        out.print(f"  {prog.zone_names[i]}: {shown}", markup=False)


def _show_cards(cards: list[Card]) -> str:
    """Cards grouped as ``describe`` does, a card's text properties after its name ("The
    Courtyard (Courtesan)": which minion is at home in which district)."""
    labels = []
    for c in cards:
        words = [v for v in c.props.values() if isinstance(v, str)]
        labels.append(card_label(c) + (f" ({', '.join(words)})" if words else ""))
    counts = Counter(labels)
    return ", ".join(k if counts[k] == 1 else f"{k} ×{counts[k]}" for k in dict.fromkeys(labels))


def _print_variables(state: State, seat: int | None) -> None:
    """The game's variables that ``seat`` may see (all of them at the end, seat None): one line
    each, a per-player one as "score: P1 3, P2 5" (coins, points, tracks during play)."""
    prog = state.prog
    view = state.observation(seat)["variables"] if seat is not None else None
    for v in prog.var_specs:
        if v.per not in (None, "players"):
            continue  # per-component values: too many for a line; explain and the rules show them
        value = state.vars[v.name] if view is None else view.get(v.name)
        show = formatter(v.type)
        if v.per == "players":
            parts = []
            for p, x in enumerate(value or []):
                hidden = isinstance(x, dict) and x.get("hidden")
                parts.append(f"{player_name(p)} {'?' if hidden else show(_decoded(state, x))}")
            text = ", ".join(parts)
        else:
            text = show(_decoded(state, value))
        out.print(f"  {v.name}: {text}", markup=False)


def _decoded(state: State, x: Any) -> Any:
    # observation() encodes values (a card as {"card": id}); the state's own are live values
    return decode(x, state.prog.cards) if isinstance(x, (dict, list)) else x


HANDOVER = "Hand the screen to {}"


def _hand_over(seat: int) -> bool:
    """Clear the previous human's view and wait until ``seat`` has the screen. False to quit."""
    out.clear()  # on a terminal; elsewhere the hand-over line marks where a view ends
    out.rule(HANDOVER.format(player_name(seat)))
    try:
        text = input(f"{player_name(seat)}: press Enter when only you see the screen (q to quit): ")
    except EOFError:
        return False
    if text.strip().lower() in ("q", "quit"):
        return False
    out.clear()
    return True


def _ask_human(game: Game, state: State, seat: int) -> int | None:
    where = position_line(getattr(state.prog, "game", None), state.vars)
    out.rule(f"{player_name(seat)} to act" + (f" · {where}" if where else ""))
    _print_zones(state, seat)
    _print_variables(state, seat)
    options = state.legal_action_labels()
    out.print(state.prompt(), style="bold", markup=False)
    for i, (_, label) in enumerate(options, 1):
        forced = " (forced: the only legal option)" if len(options) == 1 else ""
        out.print(f"  {i}. {label}{forced}", markup=False)
    for v in _why_not(game, state):
        out.print(f"  not legal: {v.label}: {v.reason}", markup=False)
    if len(options) == 1:
        return options[0][0]  # forced: shown, with why, and taken
    while True:
        try:
            text = input(f"choose 1-{len(options)} (q to quit): ").strip()
        except EOFError:
            return None
        if text.lower() in ("q", "quit"):
            return None
        # ASCII digits only ("²" is a digit to str.isdigit but not to int), and few of them
        # (int() refuses thousands of digits)
        if text.isascii() and text.isdigit() and len(text) <= 9:
            if 1 <= int(text) <= len(options):
                return options[int(text) - 1][0]
        shown = text if len(text) <= 20 else text[:20] + "..."
        out.print(
            f"'{shown}' is not an option; type a number from 1 to {len(options)}", markup=False
        )


_interpreters: dict[tuple[int, int], Program] = {}


def _why_not(game: Game, state: State) -> list[Verdict]:
    """The options of the pending decision that are not legal, with the reasons ``meeple
    explain`` gives, as the seat deciding may see them (explain reads the interpreter's state:
    a compiled game's state is read into one, same layout)."""
    st = state
    if not isinstance(state.prog, Program):
        key = (id(game), game.num_players())
        if key not in _interpreters:
            _interpreters[key] = Program(game.checked, game.num_players())
        # our own live state: decoded as is (from_json would refuse the one-option decision
        # that ask_forced keeps pending, as it refuses it in an edited save)
        st = State._decode(_interpreters[key], state.to_json(), state.record_log)
    try:  # shown to the seat deciding: no value read from what it may not see
        return [v for v in explain(st, viewer=st.current_player()) if not v.legal]
    except (MeepleError, IndexError, KeyError, ValueError, TypeError, ZeroDivisionError):
        # a part of a reason the rules cannot evaluate here must not cost the player the game:
        # the legal options are shown without the reasons (as the web page does)
        return []


# ---------------------------------------------------------------------------- check / list
def cmd_check(args: argparse.Namespace) -> int:
    status = 0
    for path in args.path:
        try:
            checked = api.load_checked(path)
        except MeepleError as e:
            err.print(e.render(), markup=False)
            status = 2
            continue
        g = checked.game
        out.print(
            f"{path}: ok: {g.name} ({g.players_min}-{g.players_max} players), "
            f"{plural(len(g.procedures), 'procedure')}, "
            f"{plural(len(g.kinds), 'component kind')}, {plural(len(g.zones), 'zone')}",
            markup=False,
        )
        for w in lint(g):
            out.print(str(w), markup=False)
    return status


def cmd_list(args: argparse.Namespace) -> int:
    table = Table(title="Games")
    table.add_column("id", no_wrap=True)  # the text to type: never cut
    for col in ("name", "players", "rulebook"):
        table.add_column(col)
    for gid in game_ids():
        g = api.load_checked(gid).game
        table.add_row(gid, g.name, f"{g.players_min}-{g.players_max}", g.rulebook)
    out.print(table)
    return 0


def cmd_scenarios(args: argparse.Namespace) -> int:
    """Run the scenarios; exit status 0 when all pass, 1 when one fails (its expectations are
    not met), 2 when a scenario file or the rules are bad input (malformed, or the rules fail
    to load or to run), as the other commands exit on bad input; every scenario still runs."""
    target = Path(args.game)
    if target.suffix in (".yaml", ".yml") and target.parent.name == "scenarios":
        files = [target]  # one scenario file
    else:
        folder = rules_path(args.game).parent
        files = scenario_files(folder)
        if not files:  # the rules are still checked: a broken file is bad input, not "no scenarios"
            api.load_checked(args.game)
            out.print(f"{args.game}: no scenarios (none in {folder / 'scenarios'})")
            return 0
    failed = bad = 0
    for f in files:
        try:
            outcome = run_scenario(f, backend=args.backend)
        except MeepleError as e:  # a broken scenario fails; the others still run
            out.print(f"[red]FAIL[/red] {f.name}")
            err.print(e.render(), markup=False)
            failed += 1
            bad += 1
            continue
        mark = "[green]pass[/green]" if outcome.passed else "[red]FAIL[/red]"
        out.print(f"{mark} {f.name}: {outcome.name}")
        for failure in outcome.failures:
            out.print(f"     {failure}", markup=False)
        failed += not outcome.passed
    out.print(f"{len(files) - failed} passed, {failed} failed")
    return 2 if bad else 1 if failed else 0


# ---------------------------------------------------------------------------- compile / bench
def cmd_compile(args: argparse.Namespace) -> int:
    text = generate(api.load_checked(args.game, args.variant))
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as e:
        raise MeepleError(f"cannot write {args.output}: {e.strerror}") from None
    out.print(f"wrote {args.output} ({plural(len(text.splitlines()), 'line')})", markup=False)
    return 0


_COSTS = {  # state costs: key -> column
    "clone_us": "clone µs",
    "to_json_us": "to_json µs",
    "from_json_us": "from_json µs",
}


def cmd_bench(args: argparse.Namespace) -> int:
    if not 0.01 <= args.seconds <= 3600:  # nan fails both comparisons
        raise MeepleError(f"--seconds is 0.01 to 3600 per measurement, not {args.seconds}")
    gids = args.games or game_ids()
    if not args.games and args.players is not None:  # every game that this many can play
        fits = [g for g in gids if _plays(g, args.players)]
        if not fits:
            raise MeepleError(f"no shipped game is for {args.players} players")
        for g in gids:
            if g not in fits:
                err.print(f"{g}: not for {args.players} players, left out", markup=False)
        gids = fits
    results = []
    # the measurements take seconds each: a bar on stderr shows how far it is (transient; on a
    # terminal only: elsewhere rich leaves a blank line where the bar was, before any error)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("bench", total=len(gids) * BENCH_STEPS)
        for gid in gids:

            def step(what: str, gid: str = gid) -> None:
                progress.update(task, description=f"{gid}: {what}")
                progress.advance(task)

            results.append((gid, bench(gid, args.players, args.seconds, step)))
    for gid, r in results:
        out.print()
        table = Table(title=f"{gid}, {r.players} players, random games, one process")
        for col in (
            "back end",
            "API games/s",
            "playouts/s",
            "playout decisions/s",
            "mid-game playouts/s",
        ):
            table.add_column(col, justify="left" if col == "back end" else "right")
        for name, measured in r.rates.items():
            if name.endswith(PLAYOUT):
                continue
            api: Rates | None = measured
            fast = r.rates.get(name + PLAYOUT)
            if fast is None:  # the hand-written reference: playouts only
                fast, api = measured, None
            mid = r.costs.get(name, {}).get("midgame_playouts")
            table.add_row(
                name,
                f"{api.games:.1f}" if api is not None else "-",
                f"{fast.games:.1f}",
                f"{fast.decisions:.0f}",
                f"{mid:.0f}" if mid is not None else "-",
            )
        out.print(table)
        costs = Table(title="state costs, halfway through a game")
        for col in ("back end", *_COSTS.values()):
            costs.add_column(col, justify="left" if col == "back end" else "right")
        for name, c in r.costs.items():
            costs.add_row(name, *(f"{c[k]:.1f}" for k in _COSTS))
        out.print(costs)
        games = {name: rates.games for name, rates in r.rates.items()}
        gen, interp = games["compiled"], games["interpreter"]
        out.print(f"  generated / interpreter: {ratio(gen / interp)}", markup=False)
        fast_gen = games["compiled" + PLAYOUT]
        out.print(
            f"  playouts, generated / interpreter: "
            f"{ratio(fast_gen / games['interpreter' + PLAYOUT])} "
            f"(/ the interpreter's API games: {ratio(fast_gen / interp)})",
            markup=False,
        )
        if "hand-written" in r.rates:
            hand = games["hand-written"]
            out.print(
                f"  playouts, generated / hand-written: {ratio(fast_gen / hand)}", markup=False
            )
        elif gid in REFERENCE_GAMES:
            out.print("  (hand-written reference: only in a source checkout, benchmarks/)")
    return 0


def _plays(game_id: str, players: int) -> bool:
    """Is shipped game ``game_id`` for ``players`` players?"""
    g = api.load_checked(game_id).game
    return g.players_min <= players <= g.players_max


# ---------------------------------------------------------------------------- serve
def _serve_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    serve = sub.add_parser(
        "serve", help="a local web page to play, review and edit the rules (needs .[web])"
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.set_defaults(run=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the web app (meeple/web/) on this machine until interrupted."""
    try:
        from meeple.web.app import serve  # noqa: PLC0415
    except ImportError as e:
        raise MeepleError(
            f"meeple serve needs the web extra ({e.name} is missing)",
            suggestion='install it with: pip install -e ".[web]"',
        ) from None
    if not 0 < args.port < 65536:
        raise MeepleError(f"--port is 1 to 65535, not {args.port}")
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        err.print(
            f"warning: serving on {args.host}: anyone who can reach it can play and run rules "
            "checks on this machine (the page has no login)",
            markup=False,
        )
    out.print(f"meeple serve: open http://{args.host}:{args.port}/ (Ctrl-C stops)", markup=False)
    serve(args.host, args.port)
    return 0


# ---------------------------------------------------------------------------- arena
def cmd_arena(args: argparse.Namespace) -> int:
    from meeple.ai.arena import arena  # noqa: PLC0415  (numpy: only for this command)

    agents = [a.strip() for a in args.agents.split(",")]
    if "" in agents:  # dropping it would silently play a game of fewer seats
        raise MeepleError(
            f"--agents {args.agents!r} has an empty entry (seat {agents.index('') + 1})",
            expected="one agent name per seat, separated by commas: random,greedy,ismcts:50",
        )
    game = api.load(args.game, len(agents), args.variant, backend=args.backend)
    n = args.n
    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task(f"{game.name}, {len(agents)} players", total=n)
        r = arena(game, agents, n, args.seed, lambda done: progress.update(task, completed=done))
    table = Table(
        title=f"{plural(n, 'game')} of {game.name}, {r.players} players, "
        f"seeds {args.seed}..{args.seed + n - 1}"
    )
    for col in ("seat", "agent", "wins", "win rate", "95% interval", "mean score"):
        table.add_column(col, justify="left" if col in ("seat", "agent") else "right")
    for s in r.seats:
        lo, hi = s.interval
        table.add_row(
            player_name(s.seat),
            s.agent,
            f"{s.wins:g}",
            f"{s.win_rate:.1%}",
            f"{lo:.1%} – {hi:.1%}",
            f"{s.mean_score:.1f}",
        )
    out.print(table)
    out.print(
        f"an even share is {1 / r.players:.1%}; a win shared by k tied players counts 1/k; "
        "intervals are Wilson score intervals",
        markup=False,
    )
    out.print(f"mean length: {r.decisions / n:.1f} decisions per game", markup=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
