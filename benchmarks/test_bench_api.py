"""Python API benchmarks: generate_legal, push/pop, is_check, Position(fen) and fen().

Each timed call does a known number of operations over fixed positions (the
start position, or the 50 random middlegames of positions.RANDOM_MIDGAME_FENS),
and the rate per operation goes into benchmark.extra_info. The tests assert
that the work was done right (move counts against perft(1), FEN round trips).
"""

from __future__ import annotations

from typing import Any

import pytest
from positions import MIDGAME_PERFT, OPENING_LINES, RANDOM_MIDGAME_FENS, START_FEN

import xiangqi
from xiangqi import Position

#: Indexes of RANDOM_MIDGAME_FENS whose side to move is in check (agrees with
#: pyffish.gives_check("xiangqi", fen, [])).
MIDGAMES_IN_CHECK = [5]


@pytest.fixture(scope="module")
def midgames() -> list[Position]:
    return [Position(fen) for fen in RANDOM_MIDGAME_FENS]


def test_fixed_positions_load() -> None:
    """Not a benchmark (skipped by --benchmark-only): every fixed FEN loads and round-trips."""
    assert START_FEN == xiangqi.START_FEN
    assert not Position(START_FEN).is_check()
    assert Position(MIDGAME_PERFT[1].fen).is_check()  # cpw_pos3: Red is in check
    assert len(RANDOM_MIDGAME_FENS) == 50
    assert len(set(RANDOM_MIDGAME_FENS)) == 50
    for fen in RANDOM_MIDGAME_FENS:
        assert Position(fen).fen() == fen
        assert Position(fen).has_legal_moves()
    for line, fen in OPENING_LINES.values():
        pos = Position()
        for text in line.split():
            pos.push_iccs(text)
        assert pos.fen() == fen


# -- move generation -----------------------------------------------------------


def test_generate_legal_start(benchmark: Any, record_rate: Any) -> None:
    benchmark.group = "generate_legal"
    pos = Position(START_FEN)
    moves = benchmark(xiangqi.generate_legal, pos)
    assert len(moves) == 44
    record_rate(benchmark, "calls", 1)


def test_generate_legal_midgames(
    benchmark: Any, record_rate: Any, midgames: list[Position]
) -> None:
    benchmark.group = "generate_legal"
    generate = xiangqi.generate_legal

    def run() -> int:
        return sum(len(generate(pos)) for pos in midgames)

    total = benchmark(run)
    assert total == sum(pos.perft(1) for pos in midgames)
    record_rate(benchmark, "calls", len(midgames), moves_per_call=total)


# -- make and unmake -------------------------------------------------------------


def _push_pop_all(positions: list[Position], moves: list[list[xiangqi.Move]]) -> int:
    pairs = 0
    for pos, legal in zip(positions, moves):
        push, pop = pos.push, pos.pop
        for move in legal:
            push(move)
            pop()
        pairs += len(legal)
    return pairs


def test_push_pop_start(benchmark: Any, record_rate: Any) -> None:
    benchmark.group = "push/pop"
    pos = Position(START_FEN)
    legal = pos.legal_moves()
    pairs = benchmark(_push_pop_all, [pos], [legal])
    assert pairs == 44
    assert pos.fen() == START_FEN
    record_rate(benchmark, "pairs", pairs)


def test_push_pop_midgames(benchmark: Any, record_rate: Any, midgames: list[Position]) -> None:
    benchmark.group = "push/pop"
    legal = [pos.legal_moves() for pos in midgames]
    pairs = benchmark(_push_pop_all, midgames, legal)
    assert pairs == sum(len(moves) for moves in legal)
    assert [pos.fen() for pos in midgames] == list(RANDOM_MIDGAME_FENS)
    record_rate(benchmark, "pairs", pairs)


# -- check detection -------------------------------------------------------------


def test_is_check_midgames(benchmark: Any, record_rate: Any, midgames: list[Position]) -> None:
    benchmark.group = "is_check"

    def run() -> int:
        return sum(pos.is_check() for pos in midgames)

    in_check = benchmark(run)
    assert [i for i, pos in enumerate(midgames) if pos.is_check()] == MIDGAMES_IN_CHECK
    assert in_check == len(MIDGAMES_IN_CHECK)
    record_rate(benchmark, "calls", len(midgames), positions_in_check=in_check)


# -- FEN -----------------------------------------------------------------------


def test_position_from_fen(benchmark: Any, record_rate: Any) -> None:
    benchmark.group = "fen"
    fens = RANDOM_MIDGAME_FENS

    def run() -> list[Position]:
        return [Position(fen) for fen in fens]

    positions = benchmark(run)
    assert [pos.fen() for pos in positions] == list(fens)
    record_rate(benchmark, "parses", len(fens))


def test_fen_write(benchmark: Any, record_rate: Any, midgames: list[Position]) -> None:
    benchmark.group = "fen"

    def run() -> list[str]:
        return [pos.fen() for pos in midgames]

    fens = benchmark(run)
    assert fens == list(RANDOM_MIDGAME_FENS)
    record_rate(benchmark, "writes", len(midgames))
