"""Print perft speed with and without bulk counting, and the 2-thread speed-up.

    python benchmarks/perft_table.py [--rounds N]

For the start position, three middlegames and two endgames (benchmarks/positions.py)
it runs perft at each case's bench depth with bulk counting at the last ply
(pos.perft(d)) and with every leaf made and unmade (pos.perft(d, bulk=False)),
best of N rounds, and checks the leaf counts. Then it runs the same jobs on one
thread and on two (perft releases the GIL), and for comparison in one and two
processes (the machine's own limit on parallel work), and prints the speed-ups.
Figures are leaf nodes per second; everything runs in this one process.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from positions import ENDGAME_PERFT, MIDGAME_PERFT, START_FEN, START_PERFT, PerftCase  # noqa: E402

from xiangqi import Position  # noqa: E402

CASES = [PerftCase("start", START_FEN, START_PERFT, 5, "CPW"), *MIDGAME_PERFT, *ENDGAME_PERFT]


def best_rate(pos: Position, depth: int, expected: int, bulk: bool, rounds: int) -> float:
    best = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        nodes = pos.perft(depth, bulk=bulk)
        elapsed = time.perf_counter() - start
        if nodes != expected:
            raise SystemExit(f"perft mismatch: {nodes} != {expected} for {pos.fen()}")
        best = max(best, nodes / elapsed)
    return best


JOBS = [(c.fen, 4) for c in CASES] * 4  # 24 jobs of 0.1M to 3.3M leaves each


def _job(job: tuple[str, int]) -> int:
    return Position(job[0]).perft(job[1])


def threads(workers: int) -> float:
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(_job, JOBS))
    return time.perf_counter() - start


def processes(workers: int) -> float:
    # The same jobs in separate processes: what the machine itself allows in parallel.
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(pool.map(_job, JOBS[:workers]))  # start the workers
        start = time.perf_counter()
        list(pool.map(_job, JOBS))
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'position':34s} {'depth':>5s} {'leaves':>12s} {'bulk n/s':>14s} {'full n/s':>14s}")
    for case in CASES:
        pos = Position(case.fen)
        depth, expected = case.bench_depth, case.bench_nodes
        bulk = best_rate(pos, depth, expected, True, args.rounds)
        full = best_rate(pos, depth, expected, False, args.rounds)
        print(f"{case.name:34s} {depth:5d} {expected:12,d} {bulk:14,.0f} {full:14,.0f}")
    print(f"\n{len(JOBS)} perft jobs, wall time (os.cpu_count() = {os.cpu_count()}):")
    for name, run in (("threads", threads), ("processes", processes)):
        one = min(run(1) for _ in range(args.rounds))
        two = min(run(2) for _ in range(args.rounds))
        print(f"  {name:9s}  1: {one:.2f} s   2: {two:.2f} s   speed-up {one / two:.2f}x")


if __name__ == "__main__":
    main()
