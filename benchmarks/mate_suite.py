"""The xiangqibench 0.1.1 mate suite and a set of deep mates from real puzzles: every
case solved at its length, with the proof that no shorter mate exists, one core, with
node counts and times per case.

    python benchmarks/mate_suite.py                  # the shipped cases
    python benchmarks/mate_suite.py --download       # cases from the PyPI wheel itself
    python benchmarks/mate_suite.py --fairy /usr/games/fairy-stockfish   # and `go mate N`
    python benchmarks/mate_suite.py --checks-only
    python benchmarks/mate_suite.py --deep /work/shared/data/mates/dev.jsonl \
        --node-limit 20000000 --fairy /usr/games/fairy-stockfish   # and the deep mates
    python benchmarks/mate_suite.py --method id      # the iterative deepening alone
    python benchmarks/mate_suite.py --repeat 3       # each time the least of 3 runs

--deep FILE adds a second table: JSON lines {"fen", "plies"} (lengths from
Fairy-Stockfish's alpha-beta, which can miss a shorter mate); a shorter mate found
is checked by replaying its line (every move legal, the last one ends the game by
checkmate per Position.outcome()) and reported. --node-limit bounds each search
(a case stopped there counts as not settled); the totals give the peak memory of
the process (the search's tables are hash_mb, default 64 MB, per search).

Prints a table (case, stated plies, found plies, nodes, seconds; with --fairy also
Fairy-Stockfish's mate score and time for `go mate N`, one thread, N = (plies + 1) / 2)
and the totals. This search runs every case of every table first, then (its process
started only then) Fairy-Stockfish: each program is timed on its own. --repeat N runs
each case N times in each program and keeps the least time of each, with that run's
answer (Fairy-Stockfish's hash cleared before every run, as each of this search's runs
starts with empty tables): on a shared machine one run's time can be a fifth more than
the least, and Fairy-Stockfish's twice as much. Every option (and the --deep file) is checked before
the first search. The stated lengths are the suite's own (verified by Pikafish). The
search runs on the calling thread (one core); Fairy-Stockfish finds a mate of at most
N moves and stops, while this search also proves each shorter length has none.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# The checkout's xiangqi when its core is built in place; else the installed one (the
# sdist's tree, where the installed wheel's tests run this script, has no core built).
if any((HERE.parent / "xiangqi" / f"_core{suffix}").exists() for suffix in EXTENSION_SUFFIXES):
    sys.path.insert(0, str(HERE.parent))

from xiangqi import Status, Termination, _core  # noqa: E402
from xiangqi.engine import EngineError, Limit, Mate, SimpleEngine  # noqa: E402
from xiangqi.move import Move  # noqa: E402
from xiangqi.puzzles import position_of  # noqa: E402

CASES = HERE.parent / "tests" / "data" / "xiangqibench" / "cases.jsonl"


def download_cases() -> list[dict[str, object]]:
    """The cases of the xiangqibench 0.1.1 wheel, fetched with pip from PyPI."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "-q",
                "xiangqibench==0.1.1",
                "-d",
                tmp,
            ],
            check=True,
        )
        wheel = next(Path(tmp).glob("xiangqibench-0.1.1-*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            text = archive.read("xiangqibench/data/cases.jsonl").decode()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


class Fairy:
    """A Fairy-Stockfish process through the library's client, one thread."""

    def __init__(self, command: str, seconds: float) -> None:
        self.seconds = seconds
        self.engine = SimpleEngine.popen_uci(command)
        self.engine.configure({"Threads": 1})

    def go_mate(self, fen: str, moves: int) -> tuple[int | None, float]:
        """The mate score (moves; None if none) of `go mate moves`, and the seconds taken
        (at most self.seconds: a search stopped there counts as none), from an empty hash."""
        pos = position_of(fen)
        self.engine.configure({"Clear Hash": None})
        self.engine.ping()
        start = time.perf_counter()
        score = self.engine.analyse(pos, Limit(mate=moves, time=self.seconds))["score"].relative
        elapsed = time.perf_counter() - start
        return (score.moves if isinstance(score, Mate) else None), elapsed

    def close(self) -> None:
        self.engine.close()


def line_mates(fen: str, codes: list[int]) -> bool:
    """Does the line (public codes from * 90 + to) replay legally from fen and end the
    game by checkmate, won by the side to move at fen?"""
    pos = position_of(fen)
    winner = pos.turn
    for code in codes:
        move = Move(code // 90, code % 90)
        if not pos.is_legal(move) or pos.outcome() is not None:
            return False
        pos.push(move)
    outcome = pos.outcome()
    return (
        outcome is not None
        and outcome.termination is Termination.CHECKMATE
        and outcome.winner == winner
    )


def read_deep(path: str) -> list[tuple[str, str, int]]:
    """The --deep file's cases (name, fen, plies), every line checked before any search
    runs: ValueError naming the line for what cannot be one (not a JSON object with a
    FEN string of a position whose side not to move is out of check, plies not an int
    in 1..99), OSError for a file that cannot be read."""
    cases: list[tuple[str, str, int]] = []
    for number, text in enumerate(Path(path).read_text().splitlines(), 1):
        if not text.strip():
            continue
        where = f"{path}, line {number}"
        try:
            row = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"{where}: not JSON ({error})") from None
        fen = row.get("fen") if isinstance(row, dict) else None
        plies = row.get("plies") if isinstance(row, dict) else None
        if not isinstance(fen, str) or type(plies) is not int or not 1 <= plies <= 99:
            raise ValueError(f'{where}: expected {{"fen": str, "plies": 1..99}}')
        try:
            pos = position_of(fen)
        except ValueError as error:  # InvalidFenError
            raise ValueError(f"{where}: {error}") from None
        if pos.status() & Status.OPPOSITE_CHECK:
            raise ValueError(f"{where}: the side not to move is in check")
        cases.append((f"{Path(path).stem}:{len(cases) + 1}", fen, plies))
    return cases


def least_search(fen: str, plies: int, args: argparse.Namespace) -> tuple[int, Any, int, float]:
    """This search on one case, args.repeat times: (status, line, nodes, least seconds)."""
    pos = position_of(fen)
    elapsed = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        status, line, nodes, _ = _core.find_mate(
            pos._board,
            plies,
            args.checks_only,
            args.node_limit,
            None,
            args.hash_mb,
            args.method,
        )
        elapsed = min(elapsed, time.perf_counter() - start)
    return status, line, nodes, elapsed


def least_fairy(fairy: Fairy, fen: str, plies: int, repeat: int) -> tuple[int | None, float]:
    """`go mate N` on one case, repeat times: the least time and that run's score (a run
    stopped at --fairy-seconds says no mate and takes the longest)."""
    score, seconds = None, float("inf")
    for _ in range(repeat):
        run_score, run_seconds = fairy.go_mate(fen, (plies + 1) // 2)
        if run_seconds < seconds:
            score, seconds = run_score, run_seconds
    return score, seconds


def run(
    title: str,
    cases: list[tuple[str, str, int]],
    args: argparse.Namespace,
    fairy: Fairy | None,
    ours: list[tuple[int, Any, int, float]] | None = None,
) -> tuple[int, int]:
    """One table: (name, fen, stated plies) per case; returns (settled, cases). ours:
    this search's least_search of each case, when main ran them already; else they run
    here, then Fairy-Stockfish on every case: each program is timed on its own (run case
    by case in turn, each search followed the engine's and ran up to a fifth slower)."""
    print(f"-- {title}")
    header = f"{'case':32} {'plies':>5} {'found':>5} {'nodes':>10} {'seconds':>8}"
    if ours is None:
        ours = [least_search(fen, plies, args) for _, fen, plies in cases]
    theirs = [
        least_fairy(fairy, fen, plies, args.repeat) if fairy is not None else (None, 0.0)
        for _, fen, plies in cases
    ]
    print(header + (f" {'fsf mate':>8} {'fsf s':>8}" if fairy else ""))
    settled = equal = shorter = checked = 0
    total_nodes = 0
    total_time = fairy_time = 0.0
    fairy_equal = 0
    for (name, fen, plies), (status, line, nodes, elapsed), (score, seconds) in zip(
        cases, ours, theirs
    ):
        found = len(line) if status == 1 and line is not None else 0
        settled += status >= 0
        equal += found == plies
        if 0 < found < plies:
            shorter += 1
            checked += line is not None and line_mates(fen, line)
        total_nodes += nodes
        total_time += elapsed
        shown = found or ("-" if status == 0 else "stop")
        row = f"{name:32} {plies:5d} {shown:>5} {nodes:10d} {elapsed:8.3f}"
        if fairy:
            fairy_time += seconds
            fairy_equal += score is not None and 2 * score - 1 == plies
            row += f" {score if score is not None else '-':>8} {seconds:8.3f}"
        print(row, flush=True)
    print(
        f"total: {len(cases)} cases, {settled} settled, {equal} at the stated length, "
        f"{shorter} shorter (lines replayed to checkmate: {checked}), {total_nodes} nodes, "
        f"{total_time:.2f} s (one core, {os.cpu_count()} CPUs here"
        + (f"; each the least of {args.repeat} runs)" if args.repeat > 1 else ")")
    )
    if fairy:
        print(
            f"Fairy-Stockfish go mate: {fairy_equal} scores equal, {fairy_time:.2f} s"
            + (f" (each the least of {args.repeat} runs)" if args.repeat > 1 else "")
        )
    return settled, len(cases)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        epilog="Run with no options for the xiangqibench table alone.",
    )
    parser.add_argument("--download", action="store_true", help="cases from the PyPI wheel")
    parser.add_argument("--fairy", help="also run this Fairy-Stockfish's `go mate N`")
    parser.add_argument("--checks-only", action="store_true", help="the attacker only checks")
    parser.add_argument("--fairy-seconds", type=float, default=120.0, help="per go mate")
    parser.add_argument("--deep", help="also these deep mates (JSON lines: fen, plies)")
    parser.add_argument("--node-limit", type=int, default=None, help="per search")
    parser.add_argument("--hash-mb", type=int, default=64, help="tables per search (MB)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="run each search N times, keep the least time"
    )
    parser.add_argument(
        "--method",
        default="auto",
        choices=["auto", "dfpn", "id"],
        help="auto: as find_mate; dfpn: df-pn and the deepening in turns at every length; "
        "id: iterative deepening alone",
    )
    args = parser.parse_args()
    # Every value checked before the first search (a bad one used to end the run with a
    # traceback, --deep's only after the whole first table).
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    if args.node_limit is not None and args.node_limit < 1:
        parser.error(f"--node-limit must be at least 1, got {args.node_limit}")
    if not 1 <= args.hash_mb <= 65536:
        parser.error(f"--hash-mb must be in 1..65536, got {args.hash_mb}")
    if not (math.isfinite(args.fairy_seconds) and args.fairy_seconds > 0):
        parser.error(f"--fairy-seconds must be a positive number, got {args.fairy_seconds}")
    deep = []
    if args.deep:
        try:
            deep = read_deep(args.deep)
        except (OSError, ValueError) as error:
            parser.error(f"--deep: {error}")
    try:
        bench = (
            download_cases()
            if args.download
            else [json.loads(line) for line in CASES.read_text().splitlines() if line.strip()]
        )
    except (subprocess.CalledProcessError, StopIteration, OSError, KeyError) as error:
        # pip failed (no network, no such release), or its wheel lacks the cases file
        parser.error(f"--download: could not fetch xiangqibench 0.1.1's cases: {error}")
    if args.fairy:
        try:
            Fairy(args.fairy, args.fairy_seconds).close()  # checked before the first search
        except EngineError as error:
            parser.error(f"--fairy: {error}")
    tables = [
        (
            "xiangqibench 0.1.1",
            [(str(c["id"]), str(c["fen"]), int(c["win_in_plies"])) for c in bench],  # type: ignore[arg-type]
        )
    ]
    if args.deep:
        tables.append((f"deep mates: {args.deep}", deep))
    # This search on every table first, with no engine process (nor its client's threads)
    # beside it: with them, the same searches took up to a fifth longer.
    ours = [[least_search(fen, plies, args) for _, fen, plies in cases] for _, cases in tables]
    fairy = Fairy(args.fairy, args.fairy_seconds) if args.fairy else None
    settled = count = 0
    try:
        for (title, cases), found in zip(tables, ours):
            more, total = run(title, cases, args, fairy, found)
            settled += more
            count += total
    finally:
        if fairy:
            fairy.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this process: {peak:.0f} MB (hash_mb {args.hash_mb} per search)")
    return 0 if settled == count else 1


if __name__ == "__main__":
    sys.exit(main())
