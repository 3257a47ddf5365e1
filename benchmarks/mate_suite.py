"""The xiangqibench 0.1.1 mate suite: every case solved at its length, with the proof
that no shorter mate exists, one core, with node counts and times per case.

    python benchmarks/mate_suite.py                  # the shipped cases
    python benchmarks/mate_suite.py --download       # cases from the PyPI wheel itself
    python benchmarks/mate_suite.py --fairy /usr/games/fairy-stockfish   # and `go mate N`
    python benchmarks/mate_suite.py --checks-only

Prints a table (case, stated plies, found plies, nodes, seconds; with --fairy also
Fairy-Stockfish's mate score and time for `go mate N`, one thread, N = (plies + 1) / 2)
and the totals. The stated lengths are the suite's own (verified by Pikafish). The
search runs on the calling thread (one core); Fairy-Stockfish finds a mate of at most
N moves and stops, while this search also proves each shorter length has none.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from xiangqi import _core  # noqa: E402
from xiangqi.engine import Limit, Mate, SimpleEngine  # noqa: E402
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

    def __init__(self, command: str) -> None:
        self.engine = SimpleEngine.popen_uci(command)
        self.engine.configure({"Threads": 1})

    def go_mate(self, fen: str, moves: int) -> tuple[int | None, float]:
        """The mate score (moves; None if none) of `go mate moves`, and the seconds taken."""
        pos = position_of(fen)
        self.engine.ping()
        start = time.perf_counter()
        score = self.engine.analyse(pos, Limit(mate=moves))["score"].relative
        elapsed = time.perf_counter() - start
        return (score.moves if isinstance(score, Mate) else None), elapsed

    def close(self) -> None:
        self.engine.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--download", action="store_true", help="cases from the PyPI wheel")
    parser.add_argument("--fairy", help="also run this Fairy-Stockfish's `go mate N`")
    parser.add_argument("--checks-only", action="store_true", help="the attacker only checks")
    args = parser.parse_args()
    cases = (
        download_cases()
        if args.download
        else [json.loads(line) for line in CASES.read_text().splitlines() if line.strip()]
    )
    fairy = Fairy(args.fairy) if args.fairy else None
    header = f"{'case':32} {'plies':>5} {'found':>5} {'nodes':>10} {'seconds':>8}"
    print(header + (f" {'fsf mate':>8} {'fsf s':>8}" if fairy else ""))
    solved = equal = 0
    total_nodes = 0
    total_time = fairy_time = 0.0
    fairy_equal = 0
    for case in cases:
        plies = int(case["win_in_plies"])  # type: ignore[call-overload]
        pos = position_of(str(case["fen"]))
        start = time.perf_counter()
        status, line, nodes, _ = _core.find_mate(pos._board, plies, args.checks_only, None)
        elapsed = time.perf_counter() - start
        found = len(line) if status == 1 else 0
        solved += status == 1
        equal += found == plies
        total_nodes += nodes
        total_time += elapsed
        row = f"{case['id']!s:32} {plies:5d} {found or '-':>5} {nodes:10d} {elapsed:8.3f}"
        if fairy:
            score, seconds = fairy.go_mate(str(case["fen"]), (plies + 1) // 2)
            fairy_time += seconds
            fairy_equal += score is not None and 2 * score - 1 == plies
            row += f" {score if score is not None else '-':>8} {seconds:8.3f}"
        print(row, flush=True)
    print(
        f"total: {len(cases)} cases, {solved} solved, {equal} at the stated length, "
        f"{total_nodes} nodes, {total_time:.2f} s (one core, {os.cpu_count()} CPUs here)"
    )
    if fairy:
        fairy.close()
        print(f"Fairy-Stockfish go mate: {fairy_equal} scores equal, {fairy_time:.2f} s")
    return 0 if equal == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
