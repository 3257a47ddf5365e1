"""`xiangqi match --ray` (issue 32) on a real local Ray cluster with a real Fairy-Stockfish.

The tests marked ray start Ray (two CPUs, no dashboard) and run only inside a network
namespace with loopback only (conftest.loopback_only; .ci/run: ``unshare -n sh -c 'ip link
set lo up && python -m pytest -m ray'``), so no packet leaves loopback. Nothing of Ray is
mocked: the fault tests SIGKILL a real Ray worker process in the middle of a round (found as
the process Ray titles ``ray::play_round`` under this cluster's raylet) or a real engine
process under it. Counts are checked against the PGN, read back independently of the
runner's tally. The tests without the mark check what needs no cluster: the message when
Ray is missing (a Python started with -S, which has no site-packages) and that importing
the match package loads no Ray.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

import xiangqi
from xiangqi.__main__ import main
from xiangqi.match import run_match
from xiangqi.pgn import read_games

pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)

ROOT = Path(xiangqi.__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
OPENINGS = (
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n"
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n"
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 1 1\n"
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1\n"
)
POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


# -- without a cluster -------------------------------------------------------------------------


def test_without_ray_the_command_says_how_to_install_it(tmp_path: Path) -> None:
    # -S: no site-packages, so no Ray (nor anything else installed): a Python without Ray
    # and a path holding xiangqi alone: an installed wheel sits in site-packages beside Ray
    alone = tmp_path / "path"
    alone.mkdir()
    (alone / "xiangqi").symlink_to(Path(xiangqi.__file__).resolve().parent)
    work = tmp_path / "work"
    work.mkdir()
    argv = [sys.executable, "-S", "-m", "xiangqi", "match", "--ray", "auto"]
    argv += ["--engine", str(FAIRY), "--engine", str(FAIRY), "--results", "r.json"]
    env = dict(os.environ, PYTHONPATH=str(alone))
    proc = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert "pip install 'xiangqi-rules[ray]'" in proc.stderr
    assert list(work.iterdir()) == []  # refused before any file or engine


def test_importing_the_match_package_loads_no_ray() -> None:
    code = (
        "import sys, xiangqi.match, xiangqi.match.distributed, xiangqi.__main__; "
        "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=ENV, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_concurrency_is_refused_with_ray() -> None:
    with pytest.raises(xiangqi.XiangqiError, match="concurrency is the games at once"):
        xiangqi.match.prepare_match([str(FAIRY), str(FAIRY)], ray="auto", concurrency=2)


@pytest.mark.slow
def test_a_local_match_stopped_by_sigterm_writes_its_results_for_resume(tmp_path: Path) -> None:
    """A driver stopped by `kill` (SIGTERM) is interrupted as by Ctrl-C: the finished games
    and the results are written (exit status 143), so --resume can go on."""
    pgn, results = tmp_path / "games.pgn", tmp_path / "results.json"
    argv = [
        sys.executable, "-m", "xiangqi", "match", "--engine", f"name=a cmd={FAIRY}",
        "--engine", f"name=b cmd={FAIRY}", "--tc", "st=0.03", "--games", "40",
        "--max-plies", "20", "--pgn", str(pgn), "--results", str(results),
    ]  # fmt: skip
    proc = subprocess.Popen(argv, cwd=tmp_path, env=ENV, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while (
            time.monotonic() < deadline
            and proc.poll() is None
            and not any(
                part.read_text(encoding="utf-8").count("[Event ") >= 2
                for part in tmp_path.glob(".games.pgn.*.part")
            )
        ):
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM, err.decode()[-2000:]
    data = json.loads(results.read_text())
    assert data["totals"]["stopped"] == "interrupted" and 2 <= data["totals"]["games"] < 40
    assert len(list(read_games(pgn))) == data["totals"]["games"]


# -- on a real local cluster -------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[dict[str, Any]]:
    """A local Ray instance for the module's tests, shut down after them."""
    ray = pytest.importorskip("ray")
    info = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False).address_info
    try:
        yield info
    finally:
        ray.shutdown()


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _ppid(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return -1
    return int(stat.rsplit(")", 1)[1].split()[1])


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def round_workers(session_dir: str) -> dict[int, list[int]]:
    """This cluster's Ray worker processes now playing a round, with their child processes
    (the engines)."""
    pids = _pids()
    parents = {pid: _ppid(pid) for pid in pids}
    workers = [
        pid
        for pid in pids
        if _cmdline(pid).startswith("ray::play_round")
        and session_dir in _cmdline(parents.get(pid, -1))
    ]
    return {w: [p for p, parent in parents.items() if parent == w] for w in workers}


def pgn_tally(text: str, first: str) -> tuple[list[str], float, list[int]]:
    """From the PGN alone: the Round tags in order, the first engine's points and the
    pentanomial counts of its rounds (0, 1/2, 1, 3/2, 2 points)."""
    games = list(read_games(io.StringIO(text)))
    rounds: dict[str, float] = {}
    score = 0.0
    for game in games:
        points = POINTS[game.tags["Result"]]
        mine = points if game.tags["Red"] == first else 1 - points
        score += mine
        rounds[game.tags["Round"]] = rounds.get(game.tags["Round"], 0.0) + mine
    penta = [0] * 5
    for total in rounds.values():
        penta[int(2 * total)] += 1
    return [g.tags["Round"] for g in games], score, penta


def check_counted_once(data: dict[str, Any], pgn: str, games: int) -> None:
    """Every game number once, in the records, the totals and the PGN, which agree."""
    assert [r["game"] for r in data["games"]] == list(range(1, games + 1))
    totals = data["totals"]
    assert totals["games"] == games and totals["pairs"] == games // 2
    rounds, score, penta = pgn_tally(pgn, data["engines"][0]["name"])
    assert rounds == [str(k // 2 + 1) for k in range(games)]
    assert score == totals["score"] and penta == totals["pentanomial"]
    results = [g.tags["Result"] for g in read_games(io.StringIO(pgn))]
    assert results == [r["result"] for r in data["games"]]


def match_while(kill: Callable[[threading.Event], None], games: int) -> tuple[dict[str, Any], str]:
    """Two Fairy-Stockfish play `games` on the Ray cluster (st=0.05 a move, 30 plies: a
    round lasts about 3 s) while kill(done) runs in a thread until done is set; the
    results JSON and the PGN."""
    done = threading.Event()
    killer = threading.Thread(target=kill, args=(done,))
    killer.start()
    results, pgn = io.StringIO(), io.StringIO()
    try:
        run_match(
            [f"name=a cmd={FAIRY}", f"name=b cmd={FAIRY}"],
            games=games,
            tc="st=0.05",
            max_plies=30,
            ray="auto",
            results_out=results,
            pgn_out=pgn,
        )
    finally:
        done.set()
        killer.join()
    return json.loads(results.getvalue()), pgn.getvalue()


@pytest.mark.ray
def test_a_ray_match_is_a_local_match_plus_where_each_pair_ran(
    cluster: dict[str, Any], tmp_path: Path
) -> None:
    import ray

    book = tmp_path / "book.epd"
    book.write_text(OPENINGS, encoding="utf-8")
    engines = [f"cmd={FAIRY} 'option.Skill Level=0'", f"cmd={FAIRY}"]  # names from the engines
    settings: dict[str, Any] = dict(tc="depth=2", max_plies=60, openings=str(book))
    local = io.StringIO()
    run_match(engines, games=2, results_out=local, **settings)
    results, pgn = io.StringIO(), io.StringIO()
    result = run_match(engines, games=8, ray="auto", results_out=results, pgn_out=pgn, **settings)
    data, local_data = json.loads(results.getvalue()), json.loads(local.getvalue())
    assert set(data) == set(local_data) | {"ray"}
    assert set(data["settings"]) == set(local_data["settings"])
    assert data["settings"]["ray"] == {"address": "auto", "retries": 3, "resource": None}
    for record in data["games"]:
        assert set(record) == set(local_data["games"][0]) | {"node", "host", "attempt"}
        assert record["node"] == ray.get_runtime_context().get_node_id()
        assert record["attempt"] == 1
        assert record["opening"] == (record["round"] - 1) % 4  # sequential, colours reversed
    assert data["ray"]["retried"] == [] and len(data["ray"]["nodes"]) == 1
    check_counted_once(data, pgn.getvalue(), 8)
    # the names were read from the engines the workers started, as locally
    assert result.names[0].startswith("Fairy-Stockfish") and result.names[0].endswith("#1")
    assert data["engines"][0]["name"] == local_data["engines"][0]["name"]
    for game, record in zip(read_games(io.StringIO(pgn.getvalue())), data["games"]):
        assert game.board().fen() == OPENINGS.splitlines()[(record["round"] - 1) % 4]


@pytest.mark.ray
def test_a_worker_killed_mid_round_gets_its_pair_played_again_and_counted_once(
    cluster: dict[str, Any], tmp_path: Path
) -> None:
    session = cluster["session_dir"]
    killed: dict[str, Any] = {}

    def kill_a_worker(done: threading.Event) -> None:  # the first seen in a round, 0.3 s in
        while not done.is_set():
            busy = {w: kids for w, kids in round_workers(session).items() if kids}
            if busy:
                worker, engines = next(iter(busy.items()))
                time.sleep(0.3)
                killed.update(worker=worker, engines=engines)
                os.kill(worker, signal.SIGKILL)
                return
            time.sleep(0.02)

    data, pgn = match_while(kill_a_worker, 8)
    assert killed, "no worker was seen playing a round"
    retried = data["ray"]["retried"]
    assert len(retried) == 1 and retried[0]["attempt"] == 1, retried
    assert retried[0]["error"].startswith("WorkerCrashedError"), retried
    lost_round = retried[0]["round"]
    attempts = {r["round"]: r["attempt"] for r in data["games"]}
    assert attempts == {r: 2 if r == lost_round else 1 for r in range(1, 5)}
    check_counted_once(data, pgn, 8)
    assert data["totals"]["stopped"] == "complete"
    deadline = time.monotonic() + 10  # the dead worker's engines do not outlive it
    while time.monotonic() < deadline and any(map(_alive, killed["engines"])):
        time.sleep(0.1)
    assert not any(map(_alive, killed["engines"])), killed


@pytest.mark.ray
def test_an_engine_crashing_on_a_worker_loses_its_game_as_locally(
    cluster: dict[str, Any],
) -> None:
    session = cluster["session_dir"]
    killed: list[int] = []

    def kill_an_engine(done: threading.Event) -> None:
        while not done.is_set():
            for kids in round_workers(session).values():
                engines = [p for p in kids if "fairy-stockfish" in _cmdline(p)]
                if engines:
                    time.sleep(0.3)
                    killed.append(engines[0])
                    os.kill(engines[0], signal.SIGKILL)
                    return
            time.sleep(0.02)

    data, pgn = match_while(kill_an_engine, 4)
    assert killed
    assert data["ray"]["retried"] == []  # the round went on: an engine is not a worker
    exits = [r for r in data["games"] if "engine exited" in r["reason"]]
    assert len(exits) == 1 and exits[0]["termination"] == "abandoned", data["games"]
    assert exits[0]["result"] in ("1-0", "0-1")
    check_counted_once(data, pgn, 4)


@pytest.mark.ray
def test_the_sprt_decision_cancels_the_outstanding_rounds(cluster: dict[str, Any]) -> None:
    session = cluster["session_dir"]
    results = io.StringIO()
    began = time.monotonic()
    result = run_match(
        [f"name=weak cmd={FAIRY} 'option.Skill Level=0' depth=1", f"name=strong cmd={FAIRY}"],
        games=400,
        tc="depth=3",
        max_plies=80,
        sprt="elo0=0 elo1=150 alpha=0.1 beta=0.1",
        ray="auto",
        results_out=results,
    )
    took = time.monotonic() - began
    data = json.loads(results.getvalue())
    assert result.stopped in ("H0", "H1") and data["totals"]["stopped"] == result.stopped
    games = data["totals"]["games"]
    assert games < 400 and games % 2 == 0 and data["totals"]["pairs"] == games // 2
    # Whole pairs, each game once, in game order. Rounds finish out of order, and one still
    # playing when the SPRT decided is cancelled and not counted, so the rounds counted are
    # not always the first ones (a CI run counted rounds 1-4 and 6).
    numbers = [r["game"] for r in data["games"]]
    assert numbers == sorted(set(numbers)) and len(numbers) == games
    rounds = Counter(r["round"] for r in data["games"])
    assert set(rounds.values()) == {2}
    assert all(2 * r["round"] - 1 <= r["game"] <= 2 * r["round"] for r in data["games"])
    assert took < 120
    # no round goes on after the decision (a cancel reaches a running round asynchronously)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and round_workers(session):
        time.sleep(0.1)
    assert round_workers(session) == {}


@pytest.mark.ray
@pytest.mark.parametrize(
    "stop, code", [(signal.SIGINT, 130), (signal.SIGTERM, 128 + signal.SIGTERM)]
)  # Ctrl-C, and a driver stopped by `kill` (a closed terminal's SIGHUP is handled alike)
def test_an_interrupted_ray_match_resumes_without_replaying_finished_pairs(
    cluster: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    stop: int,
    code: int,
) -> None:
    book = tmp_path / "book.epd"
    book.write_text(OPENINGS, encoding="utf-8")
    pgn, results = tmp_path / "games.pgn", tmp_path / "results.json"
    argv = [
        sys.executable, "-m", "xiangqi", "match", "--ray", cluster["gcs_address"],
        "--engine", f"name=a cmd={FAIRY} tc=st=0.03", "--engine", f"name=b cmd={FAIRY} depth=2",
        "--games", "8", "--max-plies", "24", "--openings", str(book),
        "--opening-order", "random", "--pgn", str(pgn), "--results", str(results),
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(ROOT))  # as ray.init left it: RAY_AUTH_MODE=token
    proc = subprocess.Popen(argv, cwd=tmp_path, env=env, stderr=subprocess.PIPE)
    try:  # a second driver on the same cluster; interrupted once two pairs are written
        deadline = time.monotonic() + 120
        while (
            time.monotonic() < deadline
            and proc.poll() is None
            and not any(
                part.read_text(encoding="utf-8").count("[Event ") >= 4
                for part in tmp_path.glob(".games.pgn.*.part")
            )
        ):
            time.sleep(0.02)
        proc.send_signal(stop)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == code, err.decode()[-3000:]
    first = json.loads(results.read_text())
    assert first["totals"]["stopped"] == "interrupted" and 4 <= first["totals"]["games"] < 8
    kept_rounds = {r["round"] for r in first["games"]}  # a Ray round is counted whole
    first_pgn = {
        (g.tags["Round"], g.tags["Red"]): [m.iccs() for m in g.mainline_moves()]
        for g in read_games(pgn)
    }

    status = main(["match", "--resume", str(results)])  # on Ray again: this process's cluster
    assert status == 0, capsys.readouterr().err
    final = json.loads(results.read_text())
    assert final["totals"]["stopped"] == "complete"
    check_counted_once(final, pgn.read_text(encoding="utf-8"), 8)
    assert [r for r in final["games"] if r["round"] in kept_rounds] == first["games"]
    assert all("node" in r for r in final["games"])  # the rest was played on Ray too
    seed = final["settings"]["openings"]["seed"]
    assert seed == first["settings"]["openings"]["seed"] is not None
    expected = xiangqi.match.OpeningList.shuffled(xiangqi.match.load_openings(book), seed)
    for game, record in zip(read_games(pgn), final["games"]):
        assert game.board().fen() == expected.opening(record["round"] - 1).fen
        if record["round"] in kept_rounds:
            key = (game.tags["Round"], game.tags["Red"])
            assert [m.iccs() for m in game.mainline_moves()] == first_pgn[key]
    assert Counter(r["round"] for r in final["games"]) == {r: 2 for r in range(1, 5)}
