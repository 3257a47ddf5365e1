r"""UVa 10196 "Check The Check": tell which king, if any, is in check.

The judge's input is a sequence of 8x8 boards (8 lines of 8 characters; ``.`` is
empty, upper case is white, lower case is black), separated by blank lines and
ended by a board made only of ``.``, which is not processed.  For every board
before it we print one line::

    Game #1: black king is in check.
    Game #2: white king is in check.
    Game #3: no king is in check.

Run it as ``python examples/uva10196.py < input.txt``.

Coordinates: square ``index = 8 * row + column`` where row 0 is the *first* line
of the board text (black's back rank, rank 8) and column 0 is file a.  White
moves "up" the board, i.e. towards row 0; black moves down, towards row 7.

How it works
------------
Instead of generating every piece's moves, we work back from each king along
the lines an attacker would have to use (the same idea as ``in_check`` in the
xiangqi core): the 8 knight jumps, the 8 adjacent squares, the 2 squares from
which an enemy pawn would capture, and the 8 sliding rays.  For every king
square and colour these lines are precomputed once at import as
``operator.itemgetter`` objects over the 64-character board string, so looking
at a king's surroundings is a handful of C-level calls and no per-square
Python loop:

* knights, adjacent king, pawns: ``"n" in knights(board)`` and so on;
* sliders: the rays are fetched in one call, each ray read outwards from the
  king and prefixed by a marker (``/`` orthogonal, ``\`` diagonal), joined
  into one short string, and a precompiled regex ``/\.*[rq]|\\\.*[bq]``
  (for a white king) asks whether some ray is empty squares followed by an
  enemy rook or queen (resp. bishop or queen).  Any other piece, own or enemy,
  ends the ray because ``\.*`` only skips empty squares.

Rays and jumps are built on 8x8 (row, column) coordinates and stop at the
board's edge, so nothing wraps from the h-file to the a-file of the next row.

Choices where the statement is silent
-------------------------------------
* Both kings in check: the statement promises this never happens.  We report
  the white king, the first of the three answers the statement lists (white is
  also checked first, and black is not examined once white is in check).
* Input layout: boards are found by splitting the input on any whitespace, so
  ``\r\n`` line ends, trailing spaces, any number of blank lines (including
  none) between boards and a missing final newline are all accepted.  Rows that
  are not 8 characters long are cut or padded with ``.``.
* No terminating empty board: we stop at the end of the input; a trailing
  partial board (fewer than 8 rows) is ignored.
* A board with a missing king (not the all-``.`` board) is answered normally:
  a king that is not there cannot be in check.  With several kings of one
  colour only the first one (in reading order) is examined.
* Pawns on the first or last rank attack like any other pawn of their colour
  (a white pawn on row 0 attacks nothing on the board).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from operator import itemgetter
from typing import NamedTuple

SIZE = 8
SQUARES = SIZE * SIZE
EMPTY_BOARD = "." * SQUARES

# Appended to every board so that the precomputed index tuples can refer to
# these marker characters (at indices 64, 65, 66) as well as to squares.
MARKERS = "/\\ "
ORTHO_MARK, DIAG_MARK, NOTHING = SQUARES, SQUARES + 1, SQUARES + 2

ORTHOGONAL_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONAL_STEPS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
KNIGHT_STEPS = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
KING_STEPS = ORTHOGONAL_STEPS + DIAGONAL_STEPS

# Row offset from a king to the enemy pawns that could capture it.  Black pawns
# capture downwards (row + 1), so they attack a white king from row - 1; white
# pawns capture upwards (row - 1), so they attack a black king from row + 1.
PAWN_ROW_FROM_KING = {"white": -1, "black": 1}

WHITE_CHECK = "white king is in check."
BLACK_CHECK = "black king is in check."
NO_CHECK = "no king is in check."

Getter = Callable[[str], "tuple[str, ...] | str"]


class AttackLines(NamedTuple):
    """Getters picking, out of a marked board, the squares that can hold an attacker."""

    knights: Getter
    neighbours: Getter
    pawns: Getter
    rays: Getter


class Attackers(NamedTuple):
    """The enemy pieces that can attack a king of one colour."""

    knight: str
    king: str
    pawn: str
    sliding: Callable[[str], re.Match[str] | None]


def _on_board(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def _ray(row: int, col: int, d_row: int, d_col: int) -> list[int]:
    """Squares from (row, col) outwards in one direction up to the edge, start excluded."""
    squares = []
    row, col = row + d_row, col + d_col
    while _on_board(row, col):
        squares.append(row * SIZE + col)
        row, col = row + d_row, col + d_col
    return squares


def _jumps(row: int, col: int, steps: tuple[tuple[int, int], ...]) -> list[int]:
    """Squares one step away from (row, col), for each step that stays on the board."""
    return [(row + dr) * SIZE + (col + dc) for dr, dc in steps if _on_board(row + dr, col + dc)]


def _attack_lines(square: int, colour: str) -> AttackLines:
    """Precompute the getters for a king of `colour` standing on `square`."""
    row, col = divmod(square, SIZE)
    rays: list[int] = []
    for mark, steps in ((ORTHO_MARK, ORTHOGONAL_STEPS), (DIAG_MARK, DIAGONAL_STEPS)):
        for d_row, d_col in steps:
            ray = _ray(row, col, d_row, d_col)
            if ray:
                rays += (mark, *ray)
    pawn_row = PAWN_ROW_FROM_KING[colour]
    pawns = _jumps(row, col, ((pawn_row, -1), (pawn_row, 1)))
    return AttackLines(
        knights=itemgetter(*_jumps(row, col, KNIGHT_STEPS)),
        neighbours=itemgetter(*_jumps(row, col, KING_STEPS)),
        # A king on the edge row may have no pawn squares; the blank marker keeps
        # the getter non-empty (itemgetter needs at least one index).
        pawns=itemgetter(NOTHING, *pawns),
        rays=itemgetter(*rays),
    )


def _attackers(rook: str, bishop: str, queen: str, knight: str, king: str, pawn: str) -> Attackers:
    """Describe an enemy army by its piece letters."""
    sliding = re.compile(rf"/\.*[{rook}{queen}]|\\\.*[{bishop}{queen}]").search
    return Attackers(knight, king, pawn, sliding)


WHITE_KING_LINES = tuple(_attack_lines(square, "white") for square in range(SQUARES))
BLACK_KING_LINES = tuple(_attack_lines(square, "black") for square in range(SQUARES))
# A white king is attacked by black (lower-case) pieces and vice versa.
BLACK_ARMY = _attackers("r", "b", "q", "n", "k", "p")
WHITE_ARMY = _attackers("R", "B", "Q", "N", "K", "P")


def _attacked(marked: str, lines: AttackLines, enemy: Attackers) -> bool:
    """Whether an enemy piece attacks the king whose lines are `lines`."""
    knights, neighbours, pawns, rays = lines
    return (
        enemy.knight in knights(marked)
        or enemy.king in neighbours(marked)
        or enemy.pawn in pawns(marked)
        or enemy.sliding("".join(rays(marked))) is not None
    )


def check_status(board: str) -> str:
    """Answer for one board given as 64 characters, row 0 (black's side) first.

    Returns ``"white king is in check."``, ``"black king is in check."`` or
    ``"no king is in check."``.  If both kings were in check (the statement
    rules this out) the white king is reported.
    """
    marked = board + MARKERS
    king = board.find("K")
    if king >= 0 and _attacked(marked, WHITE_KING_LINES[king], BLACK_ARMY):
        return WHITE_CHECK
    king = board.find("k")
    if king >= 0 and _attacked(marked, BLACK_KING_LINES[king], WHITE_ARMY):
        return BLACK_CHECK
    return NO_CHECK


def boards(text: str) -> list[str]:
    """Split a judge input into boards of 64 characters, up to the empty board.

    Boards are read as groups of 8 non-blank lines, whatever the blank lines,
    line ends or trailing spaces around them.  The all-``.`` board ends the
    input and is not returned (nor is anything after it); a trailing partial
    board is dropped.
    """
    rows = text.split()
    if not set(map(len, rows)) <= {SIZE}:
        rows = [row[:SIZE].ljust(SIZE, ".") for row in rows]
    flat = "".join(rows)
    found = [flat[start : start + SQUARES] for start in range(0, len(flat) - SQUARES + 1, SQUARES)]
    if EMPTY_BOARD in found:
        del found[found.index(EMPTY_BOARD) :]
    return found


def solve(text: str) -> str:
    """Solve a whole judge input; return the judge's output, one line per board."""
    return "".join(
        f"Game #{number}: {check_status(board)}\n"
        for number, board in enumerate(boards(text), start=1)
    )


def main() -> int:
    """Read the judge's input from standard input and print the answers."""
    text = sys.stdin.buffer.read().decode("latin-1")
    sys.stdout.write(solve(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
