"""ECCO classification rate: the 120 CCPD master games of tests/data/ecco, games per second.

Each timed call classifies every game from its first 20 plies (ICCS text in, as read from the
file, or Move objects); the rate goes into benchmark.extra_info as games_per_second. The test
checks the work: at least as many codes agree with the games' [ECCO] tags as tests/test_ecco.py
asserts.

    python -m pytest benchmarks/test_bench_ecco.py --benchmark-only
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xiangqi import Move
from xiangqi.records import ecco

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "ecco" / "ccpd_openings.txt"


def games() -> list[tuple[str, list[str]]]:
    rows = [line.split("\t") for line in DATA.read_text(encoding="utf-8").splitlines()]
    return [(code, moves.split()) for _, code, moves in rows]


@pytest.mark.parametrize("form", ["iccs", "moves"])
def test_classify_ccpd_games(benchmark: Any, record_rate: Any, form: str) -> None:
    rows = games()
    inputs: list[Any] = [
        moves if form == "iccs" else [Move.from_iccs(m) for m in moves] for _, moves in rows
    ]
    ecco.classify([])  # load the tree and the names once, outside the timing

    found = benchmark(lambda: [ecco.classify(moves) for moves in inputs])
    agree = sum(o is not None and o.code == code for o, (code, _) in zip(found, rows))
    assert agree >= 118
    record_rate(benchmark, "games", len(rows))
