"""Simulation at scale: ``meeple simulate GAME -n N [--jobs J] [--dask ADDRESS] [--out FILE]``.

A campaign is ``n`` games of one rule set with random players on the seeds ``seed .. seed+n-1``.
Every game depends on its seed alone (the state's PRNG and each seat's ``RandomAgent`` are seeded
from it), so the games can be played anywhere: in this process, in a local process pool
(``jobs``), or on a Dask cluster (``dask``). The games are cut into chunks of consecutive seeds,
and the chunks' records come back *in seed order* whatever finished first, so the table and the
streamed file are byte for byte the same for one process, two, or a cluster.

Records are streamed chunk by chunk to a CSV file, or a Parquet file when pyarrow is installed
(``pip install meeple[ai]``), one row per game: see :data:`COLUMNS`.
"""

from __future__ import annotations

import argparse
import csv
import math
import multiprocessing
import os
from array import array
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from meeple.dsl.errors import MeepleError
from meeple.interpreter.game import Game
from meeple.runtime.values import player_name

from . import api
from .registry import DEFAULT_GAME

out = Console(highlight=False, soft_wrap=True, emoji=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)
Z95 = 1.959963984540054  # two-sided 95% normal quantile
MAX_JOBS_PER_CORE = 4  # more local worker processes than this only add overhead
DASK_CONNECT_TIMEOUT = 20.0  # seconds for a scheduler to accept and answer (tests lower it)
DASK_WORKER_WAIT = 10.0  # seconds to wait for a scheduler with no workers to get one


@dataclass(frozen=True)
class Campaign:
    """What to simulate; small and picklable, so it travels to worker processes and Dask
    workers, which load the game themselves (once per process, cached).

    ``game``: a game id or rules path; ``players``: the seat count (None: the game's default);
    ``variant``: a variant id or file (None: the rules as printed); ``backend``: "interpreter"
    or "compiled" (same games, the compiled one faster); ``playouts``: play each game as a
    playout (``Game.playout(seed)``: uniform choices drawn from the seed, the decisions taken
    inline; faster, but not the same games as the default random players of the same seeds)."""

    game: str
    players: int | None = None
    variant: str | None = None
    backend: str = "interpreter"
    playouts: bool = False

    def load(self) -> Game:
        """The Game (cached in this process). Raises MeepleError for broken rules."""
        return _load(self)


@lru_cache(maxsize=8)
def _load(c: Campaign) -> Game:
    return api.load(c.game, c.players, c.variant, backend=c.backend)


@dataclass(frozen=True)
class GameRecord:
    """One game's outcome. Seats are 0-based here (shown P1..Pn in files and tables).

    ``winners``: the winning seats after the tie-breakers (several: a shared win);
    ``scores``: each seat's final score; ``decisions``: the actions taken (game length);
    ``tie_broken``: the top score was tied, so a tie-breaker (or the shared win) decided."""

    seed: int
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    decisions: int
    tie_broken: bool


@dataclass(frozen=True)
class ChunkResult:
    """What a worker sends back for a chunk of seeds: the records, in seed order, or the seed
    of the first game that failed with the error's text (the parent replays it to raise the
    error with its place in the rules: the same seed fails the same way)."""

    records: list[GameRecord]
    failed_seed: int | None = None
    error: str | None = None


def play_chunk(campaign: Campaign, start: int, count: int) -> ChunkResult:
    """Play the games on seeds ``start .. start+count-1``: the unit of work of every executor
    (a module-level function, so process pools and Dask can pickle a reference to it)."""
    game = campaign.load()
    records: list[GameRecord] = []
    for seed in range(start, start + count):
        try:
            record = _playout_record(game, seed) if campaign.playouts else _api_record(game, seed)
        except MeepleError as e:
            return ChunkResult(records, seed, str(e))
        records.append(record)
    return ChunkResult(records)


def _api_record(game: Game, seed: int) -> GameRecord:
    r = api.play(game, seed=seed, record_log=False)
    return GameRecord(seed, tuple(r.winners), tuple(r.scores), r.decisions, r.tie_broken)


def _playout_record(game: Game, seed: int) -> GameRecord:
    """One game as a playout (uniform choices seeded with ``seed``), recorded as api.play does."""
    state = game.playout(seed)
    return GameRecord(
        seed,
        tuple(state.winners()),
        tuple(state.scores()),
        state.move_number,
        api.tie_broken(state),
    )


def chunks(n: int, seed: int, size: int) -> list[tuple[int, int]]:
    """(first seed, count) pieces covering ``seed .. seed+n-1`` in order."""
    return [(seed + i, min(size, n - i)) for i in range(0, n, size)]


def chunk_size(n: int, workers: int) -> int:
    """Games per chunk: about 8 chunks per worker (so the last ones balance the load), at most
    200 games (so progress and the file advance), at least 1."""
    return max(1, min(200, math.ceil(n / (8 * max(1, workers)))))


def _pool_context() -> Any:
    # forkserver: workers forked from a clean server, not from this process with its progress
    # bar thread (fork with threads can deadlock); spawn where there is no forkserver. The
    # server imports meeple once, so each worker starts without importing it again.
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["meeple.simulate"])
    return ctx


def run(
    campaign: Campaign,
    n: int,
    seed: int = 0,
    jobs: int = 1,
    dask: str | None = None,
) -> Iterator[GameRecord]:
    """Play ``n`` games on seeds ``seed .. seed+n-1``; yield their records in seed order.

    ``jobs``: worker processes (1: this process). ``dask``: "local" starts a Dask LocalCluster
    of ``jobs`` worker processes; any other value is the address of a running scheduler
    (``tcp://host:8786``). Raises MeepleError for bad arguments, broken rules, or the first
    game (in seed order) whose rules fail, naming its seed."""
    if n < 1:
        raise MeepleError("-n must be at least 1")
    if jobs < 1:
        raise MeepleError(f"--jobs must be at least 1, not {jobs}")
    most = MAX_JOBS_PER_CORE * (os.cpu_count() or 1)
    if jobs > most and (dask is None or dask == "local"):
        raise MeepleError(
            f"--jobs {jobs} is more worker processes than this machine can use",
            expected=f"at most {most} ({MAX_JOBS_PER_CORE} per core)",
            suggestion="for more workers, run a Dask cluster and give --dask its address",
        )
    campaign.load()  # broken rules or a bad player count fail here, once, with their place
    if dask is not None:
        yield from _run_dask(campaign, n, seed, jobs, dask)
        return
    if jobs == 1:
        for start, count in chunks(n, seed, chunk_size(n, 1)):
            yield from _records(campaign, play_chunk(campaign, start, count))
        return
    pool = ProcessPoolExecutor(jobs, mp_context=_pool_context())
    try:
        yield from _in_order(pool, campaign, n, seed, jobs)
    except BrokenProcessPool:
        raise MeepleError(
            "a worker process died",
            suggestion="out of memory? try fewer --jobs; a script calling meeple.simulate.run "
            "with jobs > 1 must start from `if __name__ == '__main__':`",
        ) from None
    finally:
        # on an error or Ctrl-C, chunks not started yet are dropped instead of played
        pool.shutdown(wait=True, cancel_futures=True)


def _in_order(
    executor: Executor | Any, campaign: Campaign, n: int, seed: int, workers: int
) -> Iterator[GameRecord]:
    """Submit the chunks, at most 4 per worker in flight (memory stays bounded for millions of
    games), and yield their records in seed order."""
    pending: deque[Future[ChunkResult]] = deque()
    todo = iter(chunks(n, seed, chunk_size(n, workers)))
    window = 4 * workers
    for start, count in todo:
        pending.append(executor.submit(play_chunk, campaign, start, count))
        if len(pending) >= window:
            break
    while pending:
        result = pending.popleft().result()
        nxt = next(todo, None)
        if nxt is not None:
            pending.append(executor.submit(play_chunk, campaign, *nxt))
        yield from _records(campaign, result)


def _records(campaign: Campaign, result: ChunkResult) -> list[GameRecord]:
    if result.failed_seed is not None:
        try:  # replay the failing game here: the same error, with its place in the rules
            api.play(campaign.load(), seed=result.failed_seed, record_log=False)
        except MeepleError as e:
            e.message += f" (in the game with seed {result.failed_seed})"
            raise
        raise MeepleError(f"{result.error} (in the game with seed {result.failed_seed})")
    return result.records


def _run_dask(
    campaign: Campaign, n: int, seed: int, jobs: int, address: str
) -> Iterator[GameRecord]:
    try:
        from distributed import Client, LocalCluster  # noqa: PLC0415  (optional: meeple[ai])
    except ImportError:
        raise MeepleError(
            "--dask needs Dask's distributed scheduler",
            suggestion="pip install 'meeple[ai]' (or: pip install 'dask[distributed]')",
        ) from None
    if address == "local":
        # worker processes (the games are pure Python: threads would share one GIL); on the
        # loopback interface and with no dashboard, so nothing listens on a public port
        cluster = LocalCluster(
            n_workers=jobs,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
        with cluster, Client(cluster) as client:
            yield from _in_order(client, campaign, n, seed, jobs)
        return
    workers = _check_scheduler(address)
    try:
        client = Client(address, timeout=f"{DASK_CONNECT_TIMEOUT}s")
    except Exception as e:  # noqa: BLE001  (whatever distributed raises, say which address)
        raise MeepleError(
            f"cannot connect to the Dask scheduler at {address}: {type(e).__name__}: {e}",
            expected="'local' or a scheduler address such as tcp://host:8786",
        ) from None
    with client:
        yield from _in_order(client, campaign, n, seed, workers)


async def _scheduler_workers(address: str, worker_wait: float) -> tuple[str, int]:
    """Connect to ``address``, ask the scheduler who it is, and ask again every half second
    while it has no workers, for at most ``worker_wait`` seconds: (server type, workers)."""
    import asyncio  # noqa: PLC0415

    from distributed.comm import connect  # noqa: PLC0415  (optional: meeple[ai])

    # connect() bounds the TCP connection by its timeout but not the handshake read after it;
    # its own timeout a little shorter, so that when nothing listens it says so (an OSError)
    # before the outer bound reports a server that accepted and did not answer
    comm = await asyncio.wait_for(
        connect(address, timeout=0.9 * DASK_CONNECT_TIMEOUT), DASK_CONNECT_TIMEOUT
    )
    try:
        deadline = asyncio.get_running_loop().time() + worker_wait
        while True:
            await comm.write({"op": "identity", "n_workers": 0, "reply": True})
            info = await asyncio.wait_for(comm.read(), DASK_CONNECT_TIMEOUT)
            if not isinstance(info, dict) or info.get("type") != "Scheduler":
                return (str(info.get("type") if isinstance(info, dict) else type(info)), 0)
            workers = int(info.get("n_workers", 0))
            if workers > 0 or asyncio.get_running_loop().time() >= deadline:
                return ("Scheduler", workers)
            await asyncio.sleep(0.5)
    finally:
        comm.abort()


def _check_scheduler(address: str) -> int:
    """The number of workers of the Dask scheduler at ``address``, within a bounded time.

    distributed's own ``Client(address, timeout=...)`` bounds the TCP connection but not the
    handshake read after it, so a server that accepts and never answers (a web server, a
    proxy) hangs it, and one that answers something else can make it try to allocate
    exabytes. This asks in a separate thread and gives up after the timeouts: a MeepleError
    naming the address when nothing answers like a scheduler, or it has no workers."""
    import asyncio  # noqa: PLC0415
    import threading  # noqa: PLC0415

    outcome: dict[str, Any] = {}

    def ask() -> None:
        try:
            outcome["answer"] = asyncio.run(
                asyncio.wait_for(
                    _scheduler_workers(address, DASK_WORKER_WAIT),
                    DASK_CONNECT_TIMEOUT + DASK_WORKER_WAIT,
                )
            )
        except BaseException as e:  # noqa: BLE001  (reported below, whatever it is)
            outcome["error"] = e

    # a daemon thread: one stuck in a read does not keep the command from exiting
    asker = threading.Thread(target=ask, name="meeple-dask-check", daemon=True)
    asker.start()
    asker.join(DASK_CONNECT_TIMEOUT + DASK_WORKER_WAIT + 5)
    expected = "the address of a running Dask scheduler, such as tcp://host:8786, or 'local'"
    error = outcome.get("error")
    if "answer" not in outcome:
        if isinstance(error, ValueError):  # a malformed address
            raise MeepleError(f"bad Dask scheduler address {address!r}: {error}", expected=expected)
        if error is None or isinstance(error, (TimeoutError, asyncio.TimeoutError)):
            why = (
                "something accepted the connection but did not answer as a Dask scheduler "
                f"within {DASK_CONNECT_TIMEOUT:g} s"
            )
        elif isinstance(error, OSError):
            why = str(error)
        else:  # a reply that is not Dask's protocol, decoded as garbage
            why = f"the reply was not Dask's protocol ({type(error).__name__}: {error})"
        raise MeepleError(
            f"no Dask scheduler answered at {address}: {why}",
            expected=expected,
            suggestion="start one with `dask scheduler` and give the address it prints",
        )
    kind, workers = outcome["answer"]
    if kind != "Scheduler":
        raise MeepleError(
            f"no Dask scheduler answered at {address}: a Dask {kind} answered",
            expected=expected,
        )
    if workers == 0:
        raise MeepleError(
            f"the Dask scheduler at {address} has no workers (waited {DASK_WORKER_WAIT:g} s)",
            suggestion=f"start some with `dask worker {address}`",
        )
    return workers


# ---------------------------------------------------------------------------- statistics
@dataclass
class Sample:
    """The outcomes of n games of one rule set, gathered record by record (compact arrays, so
    millions of games fit). Seats are 0-based."""

    name: str
    seats: int
    wins: list[float] = field(default_factory=list)  # per seat, a shared win counts 1/k
    score_sums: list[float] = field(default_factory=list)  # per seat
    score_squares: list[float] = field(default_factory=list)  # per seat, for the interval
    spreads: array[int] = field(default_factory=lambda: array("q"))  # best minus worst score
    lengths: array[int] = field(default_factory=lambda: array("q"))  # decisions taken
    ties: array[int] = field(default_factory=lambda: array("b"))  # 1: the top score was tied

    def __post_init__(self) -> None:
        for name in ("wins", "score_sums", "score_squares"):
            if not getattr(self, name):
                setattr(self, name, [0.0] * self.seats)

    @property
    def n(self) -> int:
        return len(self.lengths)

    def add(self, r: GameRecord) -> None:
        for w in r.winners:
            self.wins[w] += 1 / len(r.winners)
        for p, s in enumerate(r.scores):
            self.score_sums[p] += s
            self.score_squares[p] += s * s
        self.spreads.append(max(r.scores) - min(r.scores))
        self.lengths.append(r.decisions)
        self.ties.append(1 if r.tie_broken else 0)

    def mean_score(self, p: int) -> tuple[float, float, float]:
        """Seat ``p``'s mean score and its 95% normal-approximation interval."""
        n, m = self.n, self.score_sums[p] / self.n
        if n < 2:
            return (m, m, m)
        var = max(0.0, (self.score_squares[p] - n * m * m) / (n - 1))
        half = Z95 * math.sqrt(var / n)
        return (m, m - half, m + half)


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (fine for small n and rates near 0 or 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def even_test(wins: float, n: int, seats: int) -> tuple[float, float]:
    """How far a seat's win rate is from an even ``1/seats``: (z, two-sided p-value), z in
    standard errors of the even rate (binomial, normal approximation)."""
    p0 = 1 / seats
    se = math.sqrt(p0 * (1 - p0) / n)
    z = (wins / n - p0) / se if se > 0 else 0.0
    return z, math.erfc(abs(z) / math.sqrt(2))


# ---------------------------------------------------------------------------- streamed files
def columns(seats: int) -> list[str]:
    """The columns of a streamed file for a game of ``seats`` seats (P1..Pn)."""
    return [
        "seed",
        "game",
        "variant",
        "players",
        "winners",
        *[f"score_{player_name(p)}" for p in range(seats)],
        "decisions",
        "tie_broken",
    ]


class RecordWriter:
    """Streams records to ``path``: CSV, or Parquet for a ``.parquet`` name (needs pyarrow).
    Written chunk by chunk (``write`` then ``flush``), so a long run's file grows as it goes and
    an interrupted run keeps what it played. Raises MeepleError when the file cannot be
    written or its format is unknown."""

    FORMATS = (".csv", ".parquet")

    def __init__(self, path: str | Path, game: str, seats: int) -> None:
        self.path = Path(path)
        self.game, self.seats = game, seats
        self.rows: list[dict[str, Any]] = []
        self._csv: Any = None
        self._file: IO[str] | None = None
        self._parquet: Any = None
        self._schema: Any = None
        suffix = self.path.suffix.lower()
        if suffix not in self.FORMATS:
            raise MeepleError(
                f"cannot tell the format of {self.path}",
                expected="a file name ending in .csv or .parquet",
            )
        try:
            if suffix == ".csv":
                self._file = open(self.path, "w", newline="", encoding="utf-8")  # noqa: SIM115
                self._csv = csv.DictWriter(self._file, columns(seats))
                self._csv.writeheader()
            else:
                self._open_parquet()
        except OSError as e:
            raise MeepleError(f"cannot write {self.path}: {e.strerror}") from None

    def _open_parquet(self) -> None:
        try:
            import pyarrow as pa  # noqa: PLC0415  (optional)
            import pyarrow.parquet as pq  # noqa: PLC0415
        except ImportError:
            raise MeepleError(
                f"{self.path}: writing Parquet needs pyarrow",
                suggestion="pip install 'meeple[ai]' (or pyarrow), or write a .csv file",
            ) from None
        types = {"seed": pa.int64(), "players": pa.int64(), "decisions": pa.int64()}
        types["tie_broken"] = pa.bool_()
        for p in range(self.seats):
            types[f"score_{player_name(p)}"] = pa.int64()
        self._schema = pa.schema([(c, types.get(c, pa.string())) for c in columns(self.seats)])
        self._parquet = pq.ParquetWriter(str(self.path), self._schema)

    def write(self, r: GameRecord, variant: str) -> None:
        row: dict[str, Any] = {
            "seed": r.seed,
            "game": self.game,
            "variant": variant,
            "players": len(r.scores),
            "winners": " ".join(player_name(p) for p in r.winners),
            "decisions": r.decisions,
            "tie_broken": r.tie_broken,
        }
        for p, s in enumerate(r.scores):
            row[f"score_{player_name(p)}"] = s
        self.rows.append(row)
        if len(self.rows) >= 200:  # the file grows as the run goes
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        try:
            if self._csv is not None:
                self._csv.writerows(self.rows)
                assert self._file is not None
                self._file.flush()
            else:
                import pyarrow as pa  # noqa: PLC0415

                self._parquet.write_table(pa.Table.from_pylist(self.rows, schema=self._schema))
        except OSError as e:
            raise MeepleError(f"cannot write {self.path}: {e.strerror}") from None
        self.rows = []

    def close(self) -> None:
        self.flush()
        if self._file is not None:
            self._file.close()
        if self._parquet is not None:
            self._parquet.close()


def default_jobs() -> int:
    """The cores this process may use (for ``--jobs 0``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# ---------------------------------------------------------------------------- the command
def gather(
    campaign: Campaign,
    n: int,
    seed: int,
    *,
    name: str,
    jobs: int = 1,
    dask: str | None = None,
    out: RecordWriter | None = None,
    progress: Progress | None = None,
) -> Sample:
    """Run a campaign into a Sample, streaming each game's row to ``out`` and advancing a task
    of ``progress`` (games done of ``n``). Raises MeepleError as :func:`run` does."""
    game = campaign.load()
    sample = Sample(name, game.num_players())
    task = progress.add_task(f"{name}, {sample.seats} players", total=n) if progress else None
    variant = campaign.variant or ""
    try:
        for r in run(campaign, n, seed, jobs, dask):
            sample.add(r)
            if out is not None:
                out.write(r, variant)
            if progress is not None and task is not None:
                progress.advance(task)
    finally:
        if out is not None:
            out.flush()
    return sample


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register ``meeple simulate`` (every option with its help text)."""
    sim = sub.add_parser(
        "simulate",
        help="play many games with random players; win rates with 95%% intervals",
        description="Play N games with random players on the seeds SEED..SEED+N-1 and report "
        "each seat's win rate (95% Wilson interval, and whether it differs from an even share "
        "by more than chance), mean score and game length. Same seeds, same results, "
        "whatever --jobs or --dask.",
    )
    sim.add_argument(
        "game",
        nargs="?",
        default=DEFAULT_GAME,
        help=f"game id or rules path (default {DEFAULT_GAME})",
    )
    sim.add_argument("-n", type=int, default=100, help="number of games (default 100)")
    sim.add_argument(
        "--players", "-p", type=int, help="number of players (default: 4, or the nearest allowed)"
    )
    sim.add_argument("--seed", "-s", type=int, default=0, help="first seed (default 0)")
    sim.add_argument("--variant", help="simulate this variant of the game")
    sim.add_argument(
        "--compare", metavar="VARIANT", help="compare with this variant, on the same seeds"
    )
    sim.add_argument(
        "--plot",
        metavar="DIR",
        help="write PNG figures to DIR (win rate per seat, game length, score spread, "
        "tie-breaker use); side by side with --compare",
    )
    sim.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=1,
        help="worker processes (default 1; 0: one per core); results do not depend on it",
    )
    sim.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play on a Dask cluster: 'local' starts a local one of --jobs workers, or give a "
        "scheduler address (tcp://host:8786); needs meeple[ai]",
    )
    sim.add_argument(
        "--out",
        "-o",
        metavar="FILE",
        help="stream one row per game to FILE: .csv, or .parquet (needs pyarrow)",
    )
    sim.add_argument(
        "--backend",
        choices=api.BACKENDS,
        default="interpreter",
        help="run the rules with the interpreter (default) or as the generated Python module",
    )
    sim.add_argument(
        "--playouts",
        action="store_true",
        help="play each game as a playout (uniform choices from the game's seed, taken inline; "
        "with --backend compiled about 1.5x as fast); other games than without it",
    )
    sim.set_defaults(run=cmd_simulate)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,  # elsewhere rich leaves a blank line where the bar was
    )


def cmd_simulate(args: argparse.Namespace) -> int:
    """``meeple simulate``: the plain table, or ``--compare`` (see compare.py)."""
    if args.n < 1:
        raise MeepleError("-n must be at least 1")
    if args.jobs < 0:
        raise MeepleError(f"--jobs must be 0 (one per core) or more, not {args.jobs}")
    args.jobs = args.jobs or default_jobs()
    if args.compare:
        from . import compare  # noqa: PLC0415  (compare imports this module)

        return compare.cmd_compare(args)
    if args.plot:  # before the run: a long run must not end in "cannot write figures"
        from .compare import plot_folder  # noqa: PLC0415  (compare imports this module)

        plot_folder(Path(args.plot))
    campaign = Campaign(args.game, args.players, args.variant, args.backend, args.playouts)
    game = campaign.load()
    k, n = game.num_players(), args.n
    writer = RecordWriter(args.out, game.id, k) if args.out else None
    try:
        with _progress() as progress:
            sample = gather(
                campaign,
                n,
                args.seed,
                name=game.name,
                jobs=args.jobs,
                dask=args.dask,
                out=writer,
                progress=progress,
            )
    finally:
        if writer is not None:
            writer.close()
    out.print(summary_table(sample, f"random players, seeds {args.seed}..{args.seed + n - 1}"))
    for line in summary_notes(sample):
        out.print(line, markup=False)
    if writer is not None:
        out.print(f"wrote {args.out} ({n} rows)", markup=False)
    if args.plot:
        from . import compare  # noqa: PLC0415

        for f in compare.plot([sample], Path(args.plot)):
            out.print(f"wrote {f}", markup=False)
    return 0


def summary_table(s: Sample, how: str) -> Table:
    """Per seat: wins, win rate with its 95% Wilson interval, distance from an even share in
    standard errors (marked * beyond 1.96), mean score with its 95% interval."""
    table = Table(
        title=f"{s.n} game{'s' if s.n != 1 else ''} of {s.name}, {s.seats} players, {how}"
    )
    table.add_column("seat")
    table.add_column("wins", justify="right")
    table.add_column("win rate [95%]", justify="right")
    table.add_column(f"vs even {1 / s.seats:.1%}", justify="right")
    table.add_column("mean score [95%]", justify="right")
    for p in range(s.seats):
        lo, hi = wilson(s.wins[p], s.n)
        z, pval = even_test(s.wins[p], s.n, s.seats)
        m, mlo, mhi = s.mean_score(p)
        table.add_row(
            player_name(p),
            f"{s.wins[p]:g}",
            f"{s.wins[p] / s.n:.1%} [{lo:.1%}–{hi:.1%}]",
            f"{z:+.1f} SE{' *' if pval < 0.05 else ''}",
            f"{m:.1f} [{mlo:.1f}–{mhi:.1f}]",
        )
    return table


def summary_notes(s: Sample) -> list[str]:
    """The lines under the table: how to read it, the seats that differ from an even share by
    more than chance, the mean length and the tie-breaker share."""
    even = 1 / s.seats
    lines = [
        "win rate: a game won by several tied players counts as a shared win (1/k each); "
        "[lo–hi]: 95% Wilson score interval. vs even: the distance from an even share in "
        "standard errors; * beyond 1.96 (p < 0.05).",
    ]
    for p in range(s.seats):
        z, pval = even_test(s.wins[p], s.n, s.seats)
        if pval < 0.05:
            lines.append(
                f"note: {player_name(p)} wins {s.wins[p] / s.n:.1%} against an even {even:.1%}: "
                f"{abs(z):.1f} standard errors {'above' if z > 0 else 'below'}, more than chance "
                f"explains (p = {pval:.2g}; with {s.seats} seats tested, about "
                f"{min(1.0, 0.05 * s.seats):.0%} of fair runs show one such seat)"
            )
    ties = sum(s.ties)
    lo, hi = wilson(ties, s.n)
    lines.append(
        f"mean length: {sum(s.lengths) / s.n:.1f} decisions per game; top score tied "
        f"(tie-breaker used) in {ties / s.n:.1%} [{lo:.1%}–{hi:.1%}] of games"
    )
    return lines
