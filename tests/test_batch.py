"""legal_moves_batch agrees with generate_legal position by position."""

from __future__ import annotations

import random

import pytest

import xiangqi


def random_positions(count: int, seed: int) -> list[xiangqi.Position]:
    rng = random.Random(seed)
    out = []
    pos = xiangqi.Position()
    while len(out) < count:
        moves = pos.legal_moves()
        if not moves or len(pos.move_stack) > 120:
            pos = xiangqi.Position()
            continue
        pos.push(rng.choice(moves))
        out.append(pos.copy(stack=False))
    return out


def test_batch_matches_generate_legal() -> None:
    positions = random_positions(500, seed=7)
    moves, offsets = xiangqi.legal_moves_batch(positions)
    assert moves.format == "H" and offsets.format == "q"
    assert len(offsets) == len(positions) + 1 and offsets[0] == 0
    for i, pos in enumerate(positions):
        batch = sorted(divmod(code, 90) for code in moves[offsets[i] : offsets[i + 1]])
        single = sorted((m.from_square, m.to_square) for m in xiangqi.generate_legal(pos))
        assert batch == single
    assert offsets[len(positions)] == len(moves)


def test_batch_accepts_fen_strings_and_empty_input() -> None:
    moves, offsets = xiangqi.legal_moves_batch([xiangqi.START_FEN, "3k5/9/9/9/9/9/9/9/9/4K4 w"])
    # Start position: 44; a lone red king on e0 with the black king on d9: f0 and e1.
    assert list(offsets) == [0, 44, 46]
    assert sorted(moves[44:46]) == [4 * 90 + 5, 4 * 90 + 13]  # e0f0, e0e1
    moves, offsets = xiangqi.legal_moves_batch([])
    assert len(moves) == 0 and list(offsets) == [0]


def test_batch_rejects_bad_input() -> None:
    with pytest.raises(xiangqi.InvalidFenError):
        xiangqi.legal_moves_batch(["not a fen"])
    with pytest.raises(TypeError):
        xiangqi._core.legal_moves_batch([object()])


def test_batch_buffers_work_with_numpy() -> None:
    np = pytest.importorskip("numpy")
    moves, offsets = xiangqi.legal_moves_batch([xiangqi.Position()])
    codes = np.frombuffer(moves, dtype=np.uint16)
    assert codes.shape == (44,)
    assert int(np.frombuffer(offsets, dtype=np.int64)[-1]) == 44
