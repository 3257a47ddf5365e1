"""Public square numbers and names.

Squares are numbered 0..89 as ``file + 9 * rank``: files a..i run from Red's
left, ranks 0..9 count from Red's side, so "a0" is 0, "e0" (Red's king) is 4
and "i9" is 89. These are the coordinates of ICCS move text (``h2e2``).
"""

from __future__ import annotations

FILE_NAMES = "abcdefghi"
RANK_NAMES = "0123456789"

#: Name of every square, indexed by square number: SQUARE_NAMES[4] == "e0".
SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)
_SQUARE_OF_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}

SQUARES = range(90)


def square(file: int, rank: int) -> int:
    """Square number of a file (0..8, a..i) and rank (0..9, from Red's side)."""
    if not (0 <= file < 9 and 0 <= rank < 10):
        raise ValueError(f"file must be 0..8 and rank 0..9, got file {file}, rank {rank}")
    return file + 9 * rank


def square_file(sq: int) -> int:
    """File index 0..8 (a..i) of a square number 0..89."""
    return sq % 9


def square_rank(sq: int) -> int:
    """Rank index 0..9 (from Red's side) of a square number 0..89."""
    return sq // 9


def square_name(sq: int) -> str:
    """Name ("a0".."i9") of a square number 0..89."""
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> int | None:
    """Square number 0..89 of a name such as "e0", or None if it names no square."""
    return _SQUARE_OF_NAME.get(name)
