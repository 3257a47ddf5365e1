"""perft against published and engine-verified counts (tests/data/perft.txt).

Each case names its source. `perft:` lines run by default; `perft-slow:` lines only
with `-m slow`. Both the fast path and the book's reference path are checked.
"""

from __future__ import annotations

import pytest
from conftest import PerftCase, load_perft_cases

import xiangqi
from xiangqi import _core

CASES = load_perft_cases()
PARAMS = [
    pytest.param(
        case.fen,
        depth,
        nodes,
        id=f"{case.id}-d{depth}",
        marks=[pytest.mark.slow] if depth in case.slow else [],
    )
    for case in CASES
    for depth, nodes in case.counts.items()
]


def test_data_file_is_complete() -> None:
    assert len(CASES) >= 7
    for case in CASES:
        assert case.fen and case.source and case.counts, case.id
        xiangqi.Position(case.fen)


def test_start_position_published_counts() -> None:
    # Chess Programming Wiki, "Perft Results" (Xiangqi): 44, 1920, 79666, 3290240.
    pos = xiangqi.Position()
    assert [xiangqi.perft(pos, d) for d in range(1, 5)] == [44, 1920, 79666, 3290240]
    assert pos.perft(0) == 1


@pytest.mark.parametrize("fen, depth, nodes", PARAMS)
def test_perft(fen: str, depth: int, nodes: int) -> None:
    pos = xiangqi.Position(fen)
    assert pos.perft(depth) == nodes
    assert pos.perft(depth, bulk=False) == nodes  # every leaf made and unmade
    assert pos.fen() == xiangqi.Position(fen).fen()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_book_path_equals_fast_path(case: PerftCase) -> None:
    pos = xiangqi.Position(case.fen)
    depth = 3 if len(pos.legal_moves()) < 60 else 2
    assert _core._reference_perft(pos._board, depth) == pos.perft(depth)


@pytest.mark.parametrize("case", CASES[:4], ids=[c.id for c in CASES[:4]])
def test_divide_sums_to_perft(case: PerftCase) -> None:
    pos = xiangqi.Position(case.fen)
    split = pos.divide(2)
    assert set(split) == set(pos.legal_moves())
    assert sum(split.values()) == pos.perft(2)
    for move, count in split.items():
        pos.push(move)
        assert pos.perft(1) == count
        pos.pop()


@pytest.mark.slow
def test_start_position_depth_5() -> None:
    assert xiangqi.Position().perft(5) == 133_312_995
