"""Shared helpers: tiny FENs written by naming squares, and move-list comparison."""

from __future__ import annotations

import xiangqi

FILES = "abcdefghi"


def make_fen(pieces: dict[str, str], side: str = "w") -> str:
    """FEN of a board given as {"e0": "K", "d9": "k", ...}; written independently of fen.py."""
    grid = [["" for _ in range(9)] for _ in range(10)]
    for name, letter in pieces.items():
        grid[int(name[1])][FILES.index(name[0])] = letter
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for cell in grid[rank]:
            if cell:
                row += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {side} - - 0 1"


def position(pieces: dict[str, str], side: str = "w") -> xiangqi.Position:
    """Position with the two kings at e0/d9 unless the caller places them."""
    board = dict(pieces)
    if "K" not in board.values():
        board["e0"] = "K"
    if "k" not in board.values():
        board["d9"] = "k"
    return xiangqi.Position(make_fen(board, side))


def moves_from(pos: xiangqi.Position, square: str) -> set[str]:
    """ICCS text of the legal moves starting on square."""
    return {str(m) for m in pos.legal_moves() if str(m)[:2] == square}


def iccs_set(moves: list[xiangqi.Move]) -> list[str]:
    """Sorted ICCS strings: generation order is not part of the API."""
    return sorted(str(m) for m in moves)
