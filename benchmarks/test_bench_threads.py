"""Thread benchmark: perft on several positions with 1 and with 2 worker threads.

The core's perft releases the GIL, so two threads working on two different
Positions should run in parallel on a machine with two free cores. Each job
gets its own Position: a Position (and its core Board) is not safe to share
between threads. The 2-thread test also times the jobs on 1 and on 2 threads
in alternating rounds (outside the benchmark's own timing) and records the
wall-time speed-up and the process CPU time per wall second of both kinds of
run in extra_info. On an idle 2-core machine cpu/wall is near 1 for one thread
and near 2 for two; if both stay near the same value the machine is busy (or
the GIL is held) and the speed-up says little. Nothing asserts on time; the leaf
counts are checked.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from statistics import median
from typing import Any

import pytest
from positions import (
    ELEPHANT_OPENING,
    ENDGAME_PERFT,
    EVASION_PERFT,
    MIDGAME_PERFT,
    START_FEN,
    START_PERFT,
)

from xiangqi import Position

#: (fen, depth, expected leaves), largest first so the pool balances the two threads:
#: nine positions, about 43M leaves in all, none more than 28% of the total.
JOBS: list[tuple[str, int, int]] = sorted(
    [
        (START_FEN, 4, START_PERFT[3]),
        (ELEPHANT_OPENING.fen, 4, ELEPHANT_OPENING.counts[3]),
        *((case.fen, 4, case.counts[3]) for case in MIDGAME_PERFT if case.name != "cpw_pos3"),
        *((case.fen, 5, case.counts[4]) for case in MIDGAME_PERFT if case.name == "cpw_pos3"),
        *((case.fen, 5, case.counts[4]) for case in ENDGAME_PERFT + EVASION_PERFT),
    ],
    key=lambda job: -job[2],
)
TOTAL_NODES = sum(expected for _, _, expected in JOBS)
ROUNDS = 3


def _run(positions: list[tuple[Position, int]], workers: int) -> list[int]:
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda job: job[0].perft(job[1]), positions))


@pytest.mark.parametrize("workers", [1, 2], ids=lambda n: f"{n}_thread{'s' * (n > 1)}")
def test_perft_threads(benchmark: Any, record_rate: Any, workers: int) -> None:
    benchmark.group = "perft threads"
    positions = [(Position(fen), depth) for fen, depth, _ in JOBS]
    counts = benchmark.pedantic(_run, args=(positions, workers), rounds=ROUNDS, iterations=1)
    assert counts == [expected for _, _, expected in JOBS]

    extra: dict[str, object] = {"threads": workers, "jobs": len(JOBS)}
    if workers > 1 and benchmark.stats is not None:
        # Interleave 1-thread and 2-thread rounds so a change in the machine's load
        # hits both alike. cpu/wall near 2 means both threads really ran at once.
        wall: dict[int, list[float]] = {1: [], workers: []}
        cpu: dict[int, list[float]] = {1: [], workers: []}
        for _ in range(ROUNDS):
            for n in (1, workers):
                wall0, cpu0 = time.perf_counter(), time.process_time()
                assert _run(positions, n) == counts
                wall[n].append(time.perf_counter() - wall0)
                cpu[n].append(time.process_time() - cpu0)
        extra["serial_seconds"] = round(median(wall[1]), 4)
        extra["parallel_seconds"] = round(median(wall[workers]), 4)
        extra["speedup"] = round(median(wall[1]) / median(wall[workers]), 2)
        extra["serial_cpu_per_wall"] = round(sum(cpu[1]) / sum(wall[1]), 2)
        extra["parallel_cpu_per_wall"] = round(sum(cpu[workers]) / sum(wall[workers]), 2)
    record_rate(benchmark, "nodes", TOTAL_NODES, **extra)
