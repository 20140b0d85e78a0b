"""``meeple simulate GAME --compare VARIANT``: the game and a variant on the same seeds, side by
side with 95% confidence intervals; ``--plot DIR`` writes the figures as PNG (matplotlib, Agg)."""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from meeple.dsl.errors import MeepleError
from meeple.interpreter.game import Game
from meeple.interpreter.values import player_name

from . import api

out = Console(highlight=False, soft_wrap=True, emoji=False)
Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass
class Sample:
    """The outcomes of n games of one rule set: per game, what the comparison reports."""

    name: str
    seats: int
    wins: list[float] = field(default_factory=list)  # per seat, shared wins count 1/k
    spreads: list[int] = field(default_factory=list)  # best score minus worst score
    lengths: list[int] = field(default_factory=list)  # decisions taken
    ties: list[bool] = field(default_factory=list)  # top score tied: the tie-breaker decided

    @property
    def n(self) -> int:
        return len(self.lengths)


def run_sample(game: Game, n: int, seed: int, name: str) -> Sample:
    """Play ``n`` games with random players on seeds ``seed .. seed+n-1``."""
    s = Sample(name, game.num_players(), [0.0] * game.num_players())
    for i in range(n):
        try:
            r = api.play(game, seed=seed + i, record_log=False)
        except MeepleError as e:
            e.message += f" ({name}, in the game with seed {seed + i})"
            raise
        for w in r.winners:
            s.wins[w] += 1 / len(r.winners)
        s.spreads.append(max(r.scores) - min(r.scores))
        s.lengths.append(r.decisions)
        s.ties.append(r.tie_broken)
    return s


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (fine for small n and rates near 0 or 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


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


def plot(a: Sample, b: Sample, folder: Path) -> list[Path]:
    """Write the comparison figures (win rate per seat, game length, score spread, tie-breaker
    share) as PNG files into ``folder``; returns their paths."""
    import matplotlib  # noqa: PLC0415  (only --plot needs it)

    matplotlib.use("Agg")  # headless: no display needed
    import matplotlib.pyplot as plt  # noqa: PLC0415

    folder.mkdir(parents=True, exist_ok=True)
    files = []
    names = [a.name, b.name]

    fig, ax = plt.subplots(figsize=(7, 4))
    seats = max(a.seats, b.seats)
    width = 0.38
    for j, s in enumerate((a, b)):
        xs = [p + (j - 0.5) * width for p in range(s.seats)]
        rates = [s.wins[p] / s.n for p in range(s.seats)]
        cis = [wilson(s.wins[p], s.n) for p in range(s.seats)]
        err = _error_bars(rates, cis)
        ax.bar(xs, rates, width, yerr=err, capsize=3, label=s.name)
    if a.seats == b.seats:  # what every seat wins when the game favours none
        ax.axhline(1 / a.seats, color="grey", linestyle="--", label=f"1/{a.seats}")
    ax.set_xticks(range(seats), [player_name(p) for p in range(seats)])
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(f"Win rate per seat, {a.n} games each")
    ax.legend()
    files.append(_save(fig, folder / "win_rate.png"))

    for key, title, xlabel in (
        ("lengths", "Game length", "decisions per game"),
        ("spreads", "Score spread", "best score minus worst score"),
    ):
        fig, ax = plt.subplots(figsize=(7, 4))
        data = [getattr(a, key), getattr(b, key)]
        ax.hist(data, bins=20, label=names, alpha=0.8)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.set_title(f"{title}, {a.n} games each")
        ax.legend()
        files.append(
            _save(fig, folder / f"{'game_length' if key == 'lengths' else 'score_spread'}.png")
        )

    fig, ax = plt.subplots(figsize=(5, 4))
    rates = [sum(s.ties) / s.n for s in (a, b)]
    cis = [wilson(sum(s.ties), s.n) for s in (a, b)]
    err = _error_bars(rates, cis)
    ax.bar(names, rates, yerr=err, capsize=4, color=["C0", "C1"])
    ax.set_ylabel("share of games (95% interval)")
    ax.set_title("Games decided by a tie-breaker")
    files.append(_save(fig, folder / "tie_breaker.png"))
    return files


def _error_bars(rates: list[float], cis: list[tuple[float, float]]) -> list[list[float]]:
    """matplotlib's yerr: distances from each rate down and up to its interval's ends."""
    return [
        [r - lo for r, (lo, _) in zip(rates, cis, strict=True)],
        [hi - r for r, (_, hi) in zip(rates, cis, strict=True)],
    ]


def _save(fig: object, path: Path) -> Path:
    import matplotlib.pyplot as plt  # noqa: PLC0415

    fig.tight_layout()  # type: ignore[attr-defined]
    fig.savefig(path, dpi=100)  # type: ignore[attr-defined]
    plt.close(fig)  # type: ignore[arg-type]
    return path


def cmd_compare(args: argparse.Namespace) -> int:
    """``simulate --compare``: the game (or ``--variant``) against the ``--compare`` variant."""
    if not args.compare:
        raise MeepleError("--plot needs --compare VARIANT")
    if args.n < 1:
        raise MeepleError("-n must be at least 1")
    first = api.load(args.game, args.players, args.variant, backend=args.backend)
    players = first.num_players()
    second = api.load(args.game, players, args.compare, backend=args.backend)
    name_a = args.variant or "rules as printed"
    a = run_sample(first, args.n, args.seed, name_a)
    b = run_sample(second, args.n, args.seed, args.compare)
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
        "[lo–hi]: 95% interval (win rates in %). Score spread: best minus worst score; game "
        "length: decisions; tie-breaker used: the top score was tied. A game won by several "
        "tied players counts as a shared win; differences of spread and length are paired by "
        "seed.",
        markup=False,
    )
    if args.plot:
        for f in plot(a, b, Path(args.plot)):
            out.print(f"wrote {f}", markup=False)
    return 0
