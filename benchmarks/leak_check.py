"""Leak check: a million generate_legal calls and a million push/pop pairs keep memory flat.

Workloads: generate_legal, push/pop pairs, Position(fen).fen(), is_legal/is_check/copy, and
legal_moves_batch (counted in boards). Each runs a warm-up, then its operations in checkpoints;
at every checkpoint the script prints tracemalloc's current and peak traced size (Python
allocations since the warm-up) and the resident set size from /proc/self/statm (ru_maxrss
where there is no /proc). It exits 1 if, after warm-up, RSS grows by more than
--max-rss-growth-mb or tracemalloc's current size by more than --max-traced-growth-kb in any
workload, or if the interned Move objects' reference counts drift.

    python benchmarks/leak_check.py                 # 1,000,000 ops per workload (about 1 min)
    python benchmarks/leak_check.py --ops 100000    # the shorter run of tests/test_leaks.py

A leak here would be Python objects (a missed decref in the Cython boundary, a list kept
alive), which shows in both measures, or C buffers (legal_moves_batch mallocs), which shows in
RSS. Last, the reference counts of the interned Move objects must not drift: an extra incref
in legal_moves would leak nothing measurable but would be a bug.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import time
import tracemalloc
from array import array
from collections.abc import Callable
from pathlib import Path

try:
    import xiangqi
except ImportError:  # run from a checkout without installing
    sys.path.append(str(Path(__file__).resolve().parents[1]))
    import xiangqi

from xiangqi import Position, generate_legal
from xiangqi.move import MOVES

FENS = (
    xiangqi.START_FEN,
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
    "3akab2/9/4b4/p3p1p1p/2p6/6P2/P1P1c3P/4C4/9/2BAKAB2 w - - 3 20",
    "2bak4/4a4/4b4/9/2R6/9/9/4C4/4n4/3K5 w - - 0 40",
    "4k4/4a4/4b4/9/9/9/9/9/4p4/3K5 w - - 0 60",
)
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_bytes() -> int:
    """Current resident set size (peak size where /proc is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * PAGE
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def workloads() -> dict[str, Callable[[int], None]]:
    """Each takes a count n and does n operations of its kind."""
    positions = [Position(fen) for fen in FENS]
    move_lists = [generate_legal(pos) for pos in positions]
    # The last FEN is a position with no legal move (困毙): generate_legal only.
    playable = [(pos, moves) for pos, moves in zip(positions, move_lists) if moves]

    def legal(n: int) -> None:
        for i in range(n):
            generate_legal(positions[i % len(positions)])

    def push_pop(n: int) -> None:
        # Cycle through every legal move of every position: captures, checks and quiet moves.
        pairs = [(pos, move) for pos, moves in playable for move in moves]
        for i in range(n):
            pos, move = pairs[i % len(pairs)]
            pos.push(move)
            pos.pop()

    def batch(n: int) -> None:
        # legal_moves_batch mallocs its buffers and frees them; n boards per call of 100.
        for _ in range(max(n // 100, 1)):
            moves, offsets = xiangqi.legal_moves_batch(positions * 20)
            assert len(offsets) == 101

    def fen_text(n: int) -> None:
        for i in range(n):
            Position(FENS[i % len(FENS)]).fen()

    def queries(n: int) -> None:
        # is_legal, is_check and copy: the other calls that cross the core boundary.
        for i in range(n):
            pos, moves = playable[i % len(playable)]
            pos.is_legal(moves[i % len(moves)])
            pos.is_check()
            if i % 8 == 0:
                pos.copy()

    return {
        "generate_legal": legal,
        "push+pop": push_pop,
        "Position+fen": fen_text,
        "queries": queries,
        "batch": batch,
    }


#: Operations per workload, as a share of --ops (parsing FEN under tracemalloc is slow).
SHARE = {
    "generate_legal": 1.0,
    "push+pop": 1.0,
    "Position+fen": 0.02,
    "queries": 0.2,
    "batch": 1.0,
}


def run(ops: int, checkpoints: int, max_rss_growth: int, max_traced_growth: int) -> bool:
    ok = True
    header = ("workload", "ops", "seconds", "traced KiB", "peak KiB", "RSS MiB")
    print("{:<15} {:>9} {:>8} {:>11} {:>9} {:>8}".format(*header))
    for name, work in workloads().items():
        n = max(int(ops * SHARE[name]), checkpoints)
        step = n // checkpoints
        work(min(step, 50_000))  # warm-up: caches, interned objects, allocator arenas
        # Checkpoint figures go into a list made before tracing starts, so that recording
        # them allocates nothing that tracemalloc would count as growth.
        traced_at = array("q", [0] * (checkpoints + 1))
        rss_at = array("q", [0] * (checkpoints + 1))
        gc.collect()
        tracemalloc.start()
        traced_at[0] = tracemalloc.get_traced_memory()[0]
        rss_at[0] = rss_bytes()
        start = time.perf_counter()
        for k in range(1, checkpoints + 1):
            work(step)
            gc.collect()
            traced, peak = tracemalloc.get_traced_memory()
            traced_at[k] = traced
            rss_at[k] = rss_bytes()
            print(
                f"{name:<15} {k * step:>9} {time.perf_counter() - start:>8.1f} "
                f"{traced / 1024:>11.1f} {peak / 1024:>9.1f} {rss_at[k] / 2**20:>8.1f}",
                flush=True,
            )
        tracemalloc.stop()
        traced_growth = traced_at[checkpoints] - traced_at[0]
        rss_growth = max(rss_at) - rss_at[0]
        verdict = "ok"
        if rss_growth > max_rss_growth or traced_growth > max_traced_growth:
            verdict = "LEAK?"
            ok = False
        print(
            f"{name:<15} after warm-up: RSS {rss_growth / 2**20:+.2f} MiB, "
            f"traced {traced_growth / 1024:+.1f} KiB: {verdict}",
            flush=True,
        )
    return ok


def refcounts_flat(ops: int) -> bool:
    """generate_legal hands out the interned Move objects with hand-made reference counting;
    after many calls every Move's reference count must be back where it started."""
    pos = Position()
    before = [sys.getrefcount(move) for move in MOVES]
    for _ in range(ops):
        generate_legal(pos)
    after = [sys.getrefcount(move) for move in MOVES]
    changed = [
        (str(MOVES[i]), before[i], after[i]) for i in range(len(MOVES)) if before[i] != after[i]
    ]
    print(f"Move refcounts after {ops} generate_legal calls: {len(changed)} changed {changed[:5]}")
    return not changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--ops", type=int, default=1_000_000, help="generate_legal calls and push/pop pairs"
    )
    parser.add_argument("--checkpoints", type=int, default=10)
    parser.add_argument("--max-rss-growth-mb", type=float, default=4.0)
    parser.add_argument("--max-traced-growth-kb", type=float, default=64.0)
    args = parser.parse_args(argv)
    print(f"xiangqi {xiangqi.__version__}, core {xiangqi._core.__file__}")
    ok = run(
        args.ops,
        args.checkpoints,
        int(args.max_rss_growth_mb * 2**20),
        int(args.max_traced_growth_kb * 1024),
    )
    ok = refcounts_flat(min(args.ops, 100_000)) and ok
    print("memory flat" if ok else "memory grew: see the rows marked LEAK?")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
