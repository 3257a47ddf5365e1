"""Calls over many positions at once, or over a position's whole move tree, answered by
the compiled core in one call: legal-move lists, perft, batches of positions, and the
book probes' key and legality checks. Squares are public numbers 0..89."""

from __future__ import annotations

from collections.abc import Iterable

from .move import MOVES, Move

# position first: its import of the core says how to build an unbuilt checkout.
from .position import Position

# isort: split
from . import _core


def generate_legal(position: Position) -> list[Move]:
    """All legal moves of the side to move in position (same as position.legal_moves()).

    A new list of shared Move objects (public squares 0..89); the order is not part
    of the API.
    """
    if not isinstance(position, Position):
        raise TypeError(
            f"generate_legal() takes a Position (Position(fen) for FEN text), "
            f"got {type(position).__name__}"
        )
    return position._board.legal_moves(MOVES)


def perft(position: Position, depth: int) -> int:
    """Leaf count of the legal move tree of position at depth (same as position.perft())."""
    if not isinstance(position, Position):
        raise TypeError(f"perft() takes a Position, got {type(position).__name__}")
    return int(position._board.perft(depth))


def legal_moves_batch(positions: Iterable[Position | str]) -> tuple[memoryview, memoryview]:
    """Legal moves of many positions (Position objects or FEN strings) as flat buffers.

    Returns (moves, offsets), two memoryviews: moves holds uint16 codes
    from_square * 90 + to_square (public squares 0..89), and the moves of the i-th
    position are moves[offsets[i]:offsets[i + 1]] (offsets: int64, one more entry
    than positions). No Move objects are built; numpy.frombuffer wraps both
    without copying. A bad FEN raises InvalidFenError.
    """
    boards = [p._board if isinstance(p, Position) else Position(p)._board for p in positions]
    return _core.legal_moves_batch(boards)


def elephanteye_locks(position: Position) -> tuple[int, int]:
    """ElephantEye's 32-bit book locks of position and of its left-right mirror image.

    For xiangqi.book (its public face is ``xiangqi.book.elephanteye_key``): computed in
    the core from the piece list, so a book probe costs one call. The mirror image reads
    files a..i as i..a (public square file + 9 * rank as 8 - file + 9 * rank).
    """
    return _core.elephanteye_locks(position._board)


def legal_flags(position: Position, moves: bytes) -> bytes:
    """One byte per move, 1 where it is legal in position (for xiangqi.book's probes).

    ``moves`` holds 2 bytes per move, little-endian ``from_square * 90 + to_square``; one
    core call checks them all, as ``Position.is_legal`` checks one.
    """
    return _core.legal_flags(position._board, moves)
