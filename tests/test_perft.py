"""perft against published and engine-verified counts (tests/data/perft.txt).

Each case names its source. `perft:` lines run by default; `perft-slow:` lines only
with `-m slow`. Both the fast path and the book's reference path are checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

import xiangqi

DATA = Path(__file__).parent / "data" / "perft.txt"


@dataclass
class Case:
    id: str
    fen: str = ""
    source: str = ""
    counts: list[tuple[int, int, bool]] = field(default_factory=list)  # depth, nodes, slow


def load_cases() -> list[Case]:
    cases: list[Case] = []
    for raw in DATA.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(":")
        value = value.strip()
        if key == "id":
            cases.append(Case(value))
        elif key == "fen":
            cases[-1].fen = value
        elif key == "source":
            cases[-1].source = value
        elif key in ("perft", "perft-slow"):
            depth, nodes = value.split()
            cases[-1].counts.append((int(depth), int(nodes), key == "perft-slow"))
    return cases


CASES = load_cases()
PARAMS = [
    pytest.param(
        case.fen, depth, nodes, id=f"{case.id}-d{depth}", marks=[pytest.mark.slow] if slow else []
    )
    for case in CASES
    for depth, nodes, slow in case.counts
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
def test_book_path_equals_fast_path(case: Case) -> None:
    pos = xiangqi.Position(case.fen)
    depth = 3 if len(pos.legal_moves()) < 60 else 2
    assert pos._board.perft(depth, book=True) == pos.perft(depth)


@pytest.mark.parametrize("case", CASES[:4], ids=[c.id for c in CASES[:4]])
def test_divide_sums_to_perft(case: Case) -> None:
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
