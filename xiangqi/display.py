"""Text pictures of a position: an ASCII board and a board in Chinese piece characters.

Both draw Red at the bottom: rank 9 (Black's back rank) is the top line and rank 0 the
bottom one, files a..i run left to right, as in ICCS square names ("e0" is Red's king).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .pieces import Color, Piece
from .squares import FILE_NAMES

if TYPE_CHECKING:
    from .position import Position

__all__ = ["PIECE_CHARACTERS", "ascii_board", "piece_character", "unicode_board"]

#: Chinese character of each piece, by color then by piece type (KING..PAWN). Red's rook, horse
#: and cannon use the traditional forms 俥傌炮 and Black's 车马砲, so that every piece is
#: told apart without color, as on printed diagrams and many wooden sets.
PIECE_CHARACTERS: dict[Color, str] = {
    Color.RED: "帅仕相傌俥炮兵",
    Color.BLACK: "将士象马车砲卒",
}

# Full-width forms, two columns wide in every terminal font, so the grid stays aligned
# around the CJK piece characters.
_POINT = "＋"  # an empty intersection
_ACROSS = "－"  # a rank line between two points
_DOWN = "｜"  # a file line between two ranks
_GAP = "\u3000"  # ideographic space: two columns of nothing
_SLASH, _BACKSLASH = "／", "＼"  # palace diagonals


def piece_character(piece: Piece) -> str:
    """The Chinese character of a piece (Red 帅仕相傌俥炮兵, Black 将士象马车砲卒)."""
    return PIECE_CHARACTERS[piece.color][piece.piece_type]


def ascii_board(pos: Position) -> str:
    """An ASCII picture: ranks 9..0 down the left, files a..i below, FEN letters, "." empty.

    A dashed line between ranks 5 and 4 is the river.
    """
    lines = []
    for rank in range(9, -1, -1):
        cells = []
        for file in range(9):
            piece = pos.piece_at(file + 9 * rank)
            cells.append(piece.symbol() if piece else ".")
        lines.append(f"{rank} {' '.join(cells)}")
        if rank == 5:
            lines.append("  " + "-" * 17)
    lines.append("  " + " ".join(FILE_NAMES))
    return "\n".join(lines)


def _palace_marks(lower_rank: int) -> tuple[str, str] | None:
    """The diagonals drawn between lower_rank and the rank above, in the d-e and e-f gaps."""
    if lower_rank in (0, 7):  # the palace centre (e1, e8) is above: lines fan out below it
        return _SLASH, _BACKSLASH
    if lower_rank in (1, 8):  # the centre is below: lines close in on it
        return _BACKSLASH, _SLASH
    return None


def unicode_board(pos: Position) -> str:
    """A picture in Chinese piece characters with grid, palace diagonals and the river 楚河 汉界.

    Red (帅仕相傌俥炮兵) is at the bottom. Above the board are Black's file numbers 1..9, below
    it Red's 九..一 and the file letters a..i; the ranks 9..0 run down the left.
    """
    lines = ["  " + "   ".join("123456789")]
    for rank in range(9, -1, -1):
        points = []
        for file in range(9):
            piece = pos.piece_at(file + 9 * rank)
            points.append(piece_character(piece) if piece else _POINT)
        lines.append(f"{rank} " + _ACROSS.join(points))
        if rank == 0:
            break
        if rank == 5:  # the river: only the edge files cross it
            river = _GAP + "楚" + _GAP + "河" + _GAP * 7 + "汉" + _GAP + "界" + _GAP
            lines.append("  " + _DOWN + river + _DOWN)
            continue
        gaps = [_GAP] * 8
        marks = _palace_marks(rank - 1)
        if marks:
            gaps[3], gaps[4] = marks
        lines.append("  " + "".join(_DOWN + gap for gap in gaps) + _DOWN)
    lines.append("  " + "  ".join("九八七六五四三二一"))
    lines.append("  " + "   ".join(FILE_NAMES))
    return "\n".join(lines)
