"""``meeple simulate GAME --compare VARIANT``: the game and a variant on the same seeds, side by
side with 95% confidence intervals; ``--plot DIR`` writes the figures as PNG (matplotlib, Agg),
for one sample (plain ``simulate``) or two side by side. The games themselves are played by
simulate.py (process pool or Dask, progress bar, streamed file)."""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from meeple.dsl.errors import MeepleError
from meeple.runtime.values import player_name

from .simulate import Z95, Campaign, RecordWriter, Sample, gather, wilson
from .simulate import _progress as progress_bar

__all__ = ["Sample", "comparison_rows", "mean_ci", "plot", "wilson"]

out = Console(highlight=False, soft_wrap=True, emoji=False)


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal-approximation interval."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return (m, m, m)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return (m, m - half, m + half)


def _pct(p: float, lo: float, hi: float) -> str:
    return f"{p:.1%} [{lo * 100:.0f}–{hi * 100:.0f}]"


def _num(m: float, lo: float, hi: float) -> str:
    return f"{m:.0f} [{lo:.0f}–{hi:.0f}]" if abs(m) >= 100 else f"{m:.1f} [{lo:.1f}–{hi:.1f}]"


def comparison_rows(a: Sample, b: Sample) -> list[tuple[str, str, str, str]]:
    """(measure, first, second, difference) rows; intervals are 95%. Differences of means are
    paired (the same seeds), so they are tighter than the two intervals suggest."""
    rows = []
    for p in range(max(a.seats, b.seats)):
        cells = []
        for s in (a, b):
            if p < s.seats:
                cells.append(_pct(s.wins[p] / s.n, *wilson(s.wins[p], s.n)))
            else:
                cells.append("-")
        diff = ""
        if p < a.seats and p < b.seats:
            pa, pb = a.wins[p] / a.n, b.wins[p] / b.n
            half = Z95 * math.sqrt(pa * (1 - pa) / a.n + pb * (1 - pb) / b.n)
            diff = f"{pb - pa:+.1%} ± {half:.1%}"
        rows.append((f"win rate {player_name(p)}", cells[0], cells[1], diff))
    for label, xa, xb in (
        ("score spread", a.spreads, b.spreads),
        ("game length", a.lengths, b.lengths),
    ):
        d = [float(y - x) for x, y in zip(xa, xb, strict=True)]
        m, lo, hi = mean_ci(d)
        rows.append(
            (
                label,
                _num(*mean_ci([float(x) for x in xa])),
                _num(*mean_ci([float(x) for x in xb])),
                f"{m:+.1f} ± {(hi - lo) / 2:.1f}",
            )
        )
    ta, tb = sum(a.ties), sum(b.ties)
    pa, pb = ta / a.n, tb / b.n
    half = Z95 * math.sqrt(pa * (1 - pa) / a.n + pb * (1 - pb) / b.n)
    rows.append(
        (
            "tie-breaker used",
            _pct(pa, *wilson(ta, a.n)),
            _pct(pb, *wilson(tb, b.n)),
            f"{pb - pa:+.1%} ± {half:.1%}",
        )
    )
    return rows


def plot_folder(folder: Path) -> Path:
    """Make ``folder`` for the figures (and its parents); MeepleError if it cannot be made or
    written. Called before a run as well, so that a long run does not end in this error."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise MeepleError(f"cannot write figures to {folder}: {e.strerror}") from None
    if not os.access(folder, os.W_OK):
        raise MeepleError(f"cannot write figures to {folder}: permission denied")
    return folder


def plot(samples: Sequence[Sample], folder: Path) -> list[Path]:
    """Write the figures of one sample, or of several side by side (win rate per seat with 95%
    Wilson intervals, game length, score spread, tie-breaker share) as PNG files into
    ``folder``; returns their paths."""
    import matplotlib  # noqa: PLC0415  (only --plot needs it)

    matplotlib.use("Agg")  # headless: no display needed
    import matplotlib.pyplot as plt  # noqa: PLC0415

    plot_folder(folder)
    files = []
    names = [s.name for s in samples]
    n = samples[0].n
    each = " each" if len(samples) > 1 else ""

    fig, ax = plt.subplots(figsize=(7, 4))
    seats = max(s.seats for s in samples)
    width = 0.8 / len(samples)
    for j, s in enumerate(samples):
        xs = [p + (j - (len(samples) - 1) / 2) * width for p in range(s.seats)]
        rates = [s.wins[p] / s.n for p in range(s.seats)]
        cis = [wilson(s.wins[p], s.n) for p in range(s.seats)]
        err = _error_bars(rates, cis)
        ax.bar(xs, rates, width, yerr=err, capsize=3, label=s.name)
    if len({s.seats for s in samples}) == 1:  # what every seat wins when the game favours none
        ax.axhline(1 / seats, color="grey", linestyle="--", label=f"1/{seats}")
    ax.set_xticks(range(seats), [player_name(p) for p in range(seats)])
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(f"Win rate per seat, {n} games{each}")
    ax.legend()
    files.append(_save(fig, folder / "win_rate.png"))

    for key, title, xlabel in (
        ("lengths", "Game length", "decisions per game"),
        ("spreads", "Score spread", "best score minus worst score"),
    ):
        fig, ax = plt.subplots(figsize=(7, 4))
        data = [list(getattr(s, key)) for s in samples]
        ax.hist(data, bins=20, label=names, alpha=0.8)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.set_title(f"{title}, {n} games{each}")
        ax.legend()
        files.append(
            _save(fig, folder / f"{'game_length' if key == 'lengths' else 'score_spread'}.png")
        )

    fig, ax = plt.subplots(figsize=(5, 4))
    rates = [sum(s.ties) / s.n for s in samples]
    cis = [wilson(sum(s.ties), s.n) for s in samples]
    err = _error_bars(rates, cis)
    ax.bar(names, rates, yerr=err, capsize=4, color=[f"C{j}" for j in range(len(samples))])
    ax.set_ylabel("share of games (95% interval)")
    ax.set_title("Games decided by a tie-breaker")
    files.append(_save(fig, folder / "tie_breaker.png"))
    return files


def _error_bars(rates: list[float], cis: list[tuple[float, float]]) -> list[list[float]]:
    """matplotlib's yerr: distances from each rate down and up to its interval's ends."""
    return [
        # max(0, ...): at a rate of 0 or 1 the interval's end is the rate itself, up to rounding
        [max(0.0, r - lo) for r, (lo, _) in zip(rates, cis, strict=True)],
        [max(0.0, hi - r) for r, (_, hi) in zip(rates, cis, strict=True)],
    ]


def _save(fig: object, path: Path) -> Path:
    import matplotlib.pyplot as plt  # noqa: PLC0415

    fig.tight_layout()  # type: ignore[attr-defined]
    fig.savefig(path, dpi=100)  # type: ignore[attr-defined]
    plt.close(fig)  # type: ignore[arg-type]
    return path


def cmd_compare(args: argparse.Namespace) -> int:
    """``simulate --compare``: the game (or ``--variant``) against the ``--compare`` variant, on
    the same seeds, with the progress bar, ``--jobs``/``--dask`` and ``--out`` of simulate (both
    samples in one file, told apart by the variant column)."""
    if args.n < 1:
        raise MeepleError("-n must be at least 1")
    if args.plot:
        plot_folder(Path(args.plot))
    first = Campaign(args.game, args.players, args.variant, args.backend, args.playouts)
    players = first.load().num_players()
    second = Campaign(args.game, players, args.compare, args.backend, args.playouts)
    second.load()
    name_a = args.variant or "rules as printed"
    writer = RecordWriter(args.out, first.load().id, players) if args.out else None
    jobs, dask = getattr(args, "jobs", 1), getattr(args, "dask", None)
    try:
        with progress_bar() as progress:
            a, b = [
                gather(
                    c,
                    args.n,
                    args.seed,
                    name=name,
                    jobs=jobs,
                    dask=dask,
                    out=writer,
                    progress=progress,
                )
                for c, name in ((first, name_a), (second, args.compare))
            ]
    finally:
        if writer is not None:
            writer.close()
    table = Table(
        title=f"{args.n} games each, {players} players, random players, "
        f"seeds {args.seed}..{args.seed + args.n - 1} (95% intervals)"
    )
    for col in ("measure", name_a, args.compare, "difference"):
        table.add_column(col, justify="left" if col == "measure" else "right", no_wrap=True)
    for row in comparison_rows(a, b):
        table.add_row(*row)
    out.print(table)
    out.print(
        "[lo–hi]: 95% interval (win rates in %, Wilson score intervals). Score spread: best "
        "minus worst score; game length: decisions; tie-breaker used: the top score was tied. "
        "A game won by several tied players counts as a shared win; differences of spread and "
        "length are paired by seed.",
        markup=False,
    )
    if writer is not None:
        out.print(f"wrote {args.out} ({2 * args.n} rows)", markup=False)
    if args.plot:
        for f in plot([a, b], Path(args.plot)):
            out.print(f"wrote {f}", markup=False)
    return 0
