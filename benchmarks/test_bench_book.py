"""Opening-book benchmarks: ``find_all`` on ElephantEye's BOOK.DAT, beside ``generate_legal``.

The positions are those of the first 20 plies of the 100 master games of
tests/data/games/wukong and their mirror images (4,000; the engine's mirror lookup is
exercised); each timed call probes every one and consumes what it yields. The tests assert
the work was done (the start position's 16 entries, the number of positions with entries)
and record calls per second in benchmark.extra_info. benchmarks/book_rates.py prints the
same rates with a building-vs-reading comparison.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import xiangqi
from xiangqi import Position
from xiangqi.book import ElephantEyeReader, open_reader

ROOT = Path(__file__).resolve().parents[1]
BOOK_DAT = ROOT / "tests" / "data" / "books" / "BOOK.DAT"
WUKONG = ROOT / "tests" / "data" / "games" / "wukong" / "wukong_iccs.pgn"


@pytest.fixture(scope="module")
def dat() -> ElephantEyeReader:
    reader = open_reader(BOOK_DAT)
    assert isinstance(reader, ElephantEyeReader)
    return reader


@pytest.fixture(scope="module")
def openings() -> list[Position]:
    out = []
    for game in xiangqi.open_games(WUKONG):
        pos = game.board()
        for move in game.mainline_moves()[:20]:
            out.append(pos.copy(stack=False))
            pos.push(move)
    return out + [p.flip_horizontal() for p in out]


def test_find_all_start(benchmark: Any, record_rate: Any, dat: ElephantEyeReader) -> None:
    benchmark.group = "book"
    pos = Position()
    entries = benchmark(lambda: list(dat.find_all(pos)))
    assert len(entries) == 16
    record_rate(benchmark, "calls", 1)


def test_find_all_openings(
    benchmark: Any, record_rate: Any, dat: ElephantEyeReader, openings: list[Position]
) -> None:
    benchmark.group = "book"
    find_all = dat.find_all

    def run() -> int:
        hits = 0
        for pos in openings:
            for _entry in find_all(pos):
                hits += 1
        return hits

    hits = benchmark(run)
    assert hits > len(openings)  # most positions have entries, the start has 16
    record_rate(benchmark, "calls", len(openings), entries=hits)


def test_generate_legal_openings(
    benchmark: Any, record_rate: Any, openings: list[Position]
) -> None:
    benchmark.group = "book"
    generate = xiangqi.generate_legal
    total = benchmark(lambda: sum(len(generate(pos)) for pos in openings))
    assert total == sum(pos.perft(1) for pos in openings)
    record_rate(benchmark, "calls", len(openings))
