"""perft benchmarks: leaf nodes per second of the core's perft on fixed FENs.

Each test asserts the published leaf count and records nodes per second in
benchmark.extra_info. Deep runs (more than DEEP_NODES leaves) use
benchmark.pedantic with 3 rounds of 1 iteration.
"""

from __future__ import annotations

from typing import Any

import pytest
from positions import (
    ENDGAME_PERFT,
    MIDGAME_PERFT,
    START_FEN,
    START_PERFT,
    PerftCase,
)

import xiangqi

DEEP_NODES = 5_000_000


def _bench_perft(benchmark: Any, record_rate: Any, fen: str, depth: int, expected: int) -> None:
    pos = xiangqi.Position(fen)
    assert pos.fen() == fen
    if expected > DEEP_NODES:
        nodes = benchmark.pedantic(xiangqi.perft, args=(pos, depth), rounds=3, iterations=1)
    else:
        nodes = benchmark(xiangqi.perft, pos, depth)
    assert nodes == expected
    assert pos.fen() == fen  # perft leaves the position as it found it
    record_rate(benchmark, "nodes", nodes, depth=depth)


@pytest.mark.parametrize("depth", [4, 5])
def test_perft_start(benchmark: Any, record_rate: Any, depth: int) -> None:
    benchmark.group = "perft"
    _bench_perft(benchmark, record_rate, START_FEN, depth, START_PERFT[depth - 1])


@pytest.mark.parametrize("case", MIDGAME_PERFT, ids=lambda c: c.name)
def test_perft_midgame(benchmark: Any, record_rate: Any, case: PerftCase) -> None:
    benchmark.group = "perft"
    _bench_perft(benchmark, record_rate, case.fen, case.bench_depth, case.bench_nodes)


@pytest.mark.parametrize("case", ENDGAME_PERFT, ids=lambda c: c.name)
def test_perft_endgame(benchmark: Any, record_rate: Any, case: PerftCase) -> None:
    benchmark.group = "perft"
    _bench_perft(benchmark, record_rate, case.fen, case.bench_depth, case.bench_nodes)
