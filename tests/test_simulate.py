"""Simulation at scale: ``meeple simulate`` over a process pool and on Dask gives the same records
as one process; rows streamed to CSV/Parquet; the table's 95% intervals and its note on seats
that differ from an even share by more than chance."""

from __future__ import annotations

import argparse
import csv
import socket
import threading
import time
from pathlib import Path

import pytest

from meeple import simulate
from meeple.cli import _parser, main
from meeple.simulate import Campaign, GameRecord, Sample, even_test, run, wilson

SMALL = Campaign("harbour-guilds")  # ~30 decisions a game: the cheapest shipped game


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_two_jobs_give_the_records_and_table_of_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    outputs = []
    for jobs in ("1", "2"):
        f = tmp_path / f"jobs{jobs}.csv"
        code, out, _ = _run(
            capsys, "simulate", "harbour-guilds", "-n", "12", "--seed", "5", "-j", jobs,
            "--out", str(f),
        )  # fmt: skip
        assert code == 0
        outputs.append((out.replace(str(f), "FILE"), f.read_text()))
    assert outputs[0] == outputs[1]
    rows = list(csv.DictReader(outputs[0][1].splitlines()))
    assert [int(r["seed"]) for r in rows] == list(range(5, 17))
    game = SMALL.load()
    for r in rows[:3]:  # each row is that seed's game, replayed here
        played = simulate.play_chunk(SMALL, int(r["seed"]), 1).records[0]
        assert r["winners"] == " ".join(f"P{p + 1}" for p in played.winners)
        scores = [int(r[f"score_P{p + 1}"]) for p in range(game.num_players())]
        assert scores == list(played.scores) and int(r["decisions"]) == played.decisions


def test_a_dask_cluster_plays_the_same_records() -> None:
    distributed = pytest.importorskip("distributed")
    one = list(run(SMALL, 10, seed=3))
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        on_dask = list(run(SMALL, 10, seed=3, dask=cluster.scheduler_address))
    assert on_dask == one and [r.seed for r in one] == list(range(3, 13))


@pytest.mark.deep
def test_dask_local_cluster_of_processes_and_a_pool_match_one_process(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("distributed")
    files = []
    for how in (["-j", "1"], ["-j", "2"], ["-j", "2", "--dask", "local"]):
        f = tmp_path / f"{len(files)}.csv"
        code, _, _ = _run(
            capsys, "simulate", "shadow-of-the-sun", "-n", "60", "--backend", "compiled",
            "--out", str(f), *how,
        )  # fmt: skip
        assert code == 0
        files.append(f.read_text())
    assert files[0] == files[1] == files[2] and len(files[0].splitlines()) == 61


def test_parquet_rows(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    f = tmp_path / "games.parquet"
    code, _, _ = _run(capsys, "simulate", "harbour-guilds", "-n", "7", "-p", "3", "--out", str(f))
    assert code == 0
    t = pq.read_table(f).to_pylist()
    assert [r["seed"] for r in t] == list(range(7))
    assert set(t[0]) == set(simulate.columns(3)) and all(r["players"] == 3 for r in t)
    assert all(r["winners"].startswith("P") for r in t)


def test_bad_output_file_and_jobs_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = _run(capsys, "simulate", "-n", "2", "--out", str(tmp_path / "x.xlsx"))
    assert code == 2 and "ending in .csv or .parquet" in err
    code, _, err = _run(capsys, "simulate", "-n", "2", "--jobs", "-3")
    assert code == 2 and "--jobs" in err
    code, _, err = _run(capsys, "simulate", "-n", "2", "--out", str(tmp_path / "no/dir/x.csv"))
    assert code == 2 and "cannot write" in err
    code, _, err = _run(capsys, "simulate", "-n", "2", "--jobs", "100000")
    assert code == 2 and "more worker processes than this machine can use" in err


def test_table_gives_wilson_intervals_and_even_share_distance(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, "simulate", "harbour-guilds", "-n", "20", "-p", "4")
    assert code == 0
    assert "win rate [95%]" in out and "vs even 25.0%" in out and "Wilson" in out
    rows = [line for line in out.splitlines() if line.startswith("│ P")]
    assert len(rows) == 4
    wins = float(rows[0].split("│")[2])
    lo, hi = wilson(wins, 20)
    assert f"[{lo:.1%}–{hi:.1%}]" in rows[0]


def _sample(wins_per_seat: list[int]) -> Sample:
    s = Sample("test", len(wins_per_seat))
    for p, w in enumerate(wins_per_seat):
        for _ in range(w):
            s.add(GameRecord(0, (p,), (1,) * len(wins_per_seat), 10, False))
    return s


def test_a_seat_off_an_even_share_by_more_than_chance_gets_a_note() -> None:
    # the example: 27.1% against an even 25% is 2.4 standard errors in 2500 games
    z, pval = even_test(677.5, 2500, 4)
    assert round(z, 1) == 2.4 and 0.01 < pval < 0.02
    fair = simulate.summary_notes(_sample([625, 625, 625, 625]))
    assert not any(line.startswith("note:") for line in fair)
    skewed = simulate.summary_notes(_sample([678, 607, 607, 608]))
    notes = [line for line in skewed if line.startswith("note:")]
    assert len(notes) == 1 and notes[0].startswith("note: P1 wins 27.1% against an even 25.0%")
    assert "2.4 standard errors above" in notes[0]


def test_mean_score_interval() -> None:
    s = Sample("t", 2)
    for a in (1, 2, 3, 4):
        s.add(GameRecord(0, (0,), (a, 0), 1, False))
    m, lo, hi = s.mean_score(0)
    assert m == 2.5 and round(hi - m, 4) == round(1.959963984540054 * 1.2909944 / 2, 4)


def test_every_simulate_option_has_help() -> None:
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)).choices[
        "simulate"
    ]
    for action in sub._actions:
        assert action.help and action.help != argparse.SUPPRESS, action.dest


class _Server:
    """A local TCP server that accepts connections and then says ``reply`` (or nothing) and
    never closes them: a web server, a proxy, anything that is not a Dask scheduler."""

    def __init__(self, reply: bytes = b"") -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.reply, self.held = reply, []
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        try:
            while True:
                conn, _ = self.sock.accept()
                self.held.append(conn)
                if self.reply:
                    conn.sendall(self.reply)
        except OSError:  # closed
            return

    def close(self) -> None:
        self.sock.close()
        for c in self.held:
            c.close()


@pytest.mark.parametrize(
    "reply",
    [b"", b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n" + b"\xff" * 64],
    ids=["silent", "not-dask"],
)
def test_dask_address_where_no_scheduler_answers_fails_in_bounded_time(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, reply: bytes
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(simulate, "DASK_CONNECT_TIMEOUT", 2.0)
    server = _Server(reply)
    try:
        started = time.monotonic()
        code, _, err = _run(capsys, "simulate", "-n", "3", "--dask", server.address)
    finally:
        server.close()
    assert code == 2 and f"no Dask scheduler answered at {server.address}" in err
    assert "Traceback" not in err and time.monotonic() - started < 15


def test_dask_address_where_nothing_listens_fails_cleanly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(simulate, "DASK_CONNECT_TIMEOUT", 2.0)
    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    code, _, err = _run(capsys, "simulate", "-n", "3", "--dask", address)
    assert code == 2 and f"no Dask scheduler answered at {address}" in err
    assert "Timed out trying to connect" in err and "accepted the connection" not in err


def test_dask_scheduler_without_workers_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(simulate, "DASK_WORKER_WAIT", 1.0)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        started = time.monotonic()
        code, _, err = _run(capsys, "simulate", "-n", "3", "--dask", cluster.scheduler_address)
    assert code == 2, err
    assert f"the Dask scheduler at {cluster.scheduler_address} has no workers (waited 1 s)" in err
    assert time.monotonic() - started < 15


def test_playouts_give_each_seed_its_playout_on_any_number_of_jobs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--playouts``: each row is ``Game.playout(seed)``'s game, whatever --jobs."""
    outputs = []
    for jobs in ("1", "2"):
        f = tmp_path / f"jobs{jobs}.csv"
        code, out, _ = _run(
            capsys, "simulate", "harbour-guilds", "-n", "8", "--seed", "3", "-j", jobs,
            "--playouts", "--backend", "compiled", "--out", str(f),
        )  # fmt: skip
        assert code == 0
        outputs.append((out.replace(str(f), "FILE"), f.read_text()))
    assert outputs[0] == outputs[1]
    rows = list(csv.DictReader(outputs[0][1].splitlines()))
    game = Campaign("harbour-guilds", backend="compiled").load()
    for r in rows:
        final = game.playout(int(r["seed"]))
        assert r["winners"] == " ".join(f"P{p + 1}" for p in final.winners())
        assert [int(r[f"score_P{p + 1}"]) for p in range(4)] == final.scores()
        assert int(r["decisions"]) == final.move_number
    # not the games of the default random players
    default = simulate.play_chunk(SMALL, 3, 8).records
    assert [d.decisions for d in default] != [int(r["decisions"]) for r in rows]
