"""Words for the core validator's reasons why a piece cannot make a move (the text of
Position's IllegalMoveError messages). Squares are public numbers 0..89."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .move import MOVES
from .pieces import Color, Piece
from .squares import SQUARE_NAMES

if TYPE_CHECKING:
    from .move import Move
    from .position import Position

#: Words for the core validator's REASON_* codes (xiangqi/core/validator.pxd), by code:
#: each takes the piece's name, the side ("Red"/"Black"), from, to and the detail
#: (a square's name, or a cannon's screen count).
_REASONS: dict[int, Callable[[str, str, str, str, int], str]] = {
    2: lambda n, s, f, t, d: "a king moves one point along a rank or file",
    3: lambda n, s, f, t, d: "a king may not leave its palace",
    4: lambda n, s, f, t, d: "an advisor moves one point diagonally",
    5: lambda n, s, f, t, d: "an advisor may not leave its palace",
    6: lambda n, s, f, t, d: "an elephant moves exactly two points diagonally",
    7: lambda n, s, f, t, d: "an elephant may not cross the river",
    8: lambda n, s, f, t, d: f"the elephant's eye on {SQUARE_NAMES[d]} is blocked",
    9: lambda n, s, f, t, d: "a horse moves one point along a rank or file, then one diagonally",
    10: lambda n, s, f, t, d: f"the horse's leg on {SQUARE_NAMES[d]} is blocked",
    11: lambda n, s, f, t, d: f"a {n} moves along a rank or file",
    12: lambda n, s, f, t, d: f"the {n}'s path is blocked on {SQUARE_NAMES[d]}",
    13: lambda n, s, f, t, d: (
        "a cannon captures by jumping exactly one screen, and there "
        + ("is none" if not d else f"are {d}")
        + f" between {f} and {t}"
    ),
    14: lambda n, s, f, t, d: "a pawn never moves backwards",
    15: lambda n, s, f, t, d: "a pawn moves one point forward, or sideways once across the river",
    16: lambda n, s, f, t, d: "a pawn moves sideways only after crossing the river",
    17: lambda n, s, f, t, d: f"{t} holds {s}'s own piece",
}


def movement_reason(code: int, detail: int, piece: Piece, frm: int, to: int) -> str:
    """Which movement rule a move of piece from frm to to breaks, in words: the core
    validator's reason code and detail (Board.movement_reason) for Position's messages."""
    words = _REASONS.get(code)
    name = piece.piece_type.name.lower()
    if words is None:
        return f"the {name} on {SQUARE_NAMES[frm]} cannot move to {SQUARE_NAMES[to]}"
    side = "Red" if piece.color == Color.RED else "Black"
    return words(name, side, SQUARE_NAMES[frm], SQUARE_NAMES[to], detail)


def lower_rank_hint(pos: Position, move: Move) -> str:
    """For an illegal move read from ICCS text: "; ICCS ranks run 0..9 ..." naming the
    move one rank lower when that one is legal in pos (the text was likely counted 1..10,
    as Fairy-Stockfish writes squares), else ""."""
    if move.from_square < 9 or move.to_square < 9:
        return ""
    lower = MOVES[(move.from_square - 9) * 90 + move.to_square - 9]
    if lower is None or not pos.is_legal(lower):
        return ""
    return (
        f"; ICCS ranks run 0..9: with ranks counted 1..10 (Fairy-Stockfish's numbering) the "
        f"text would be {lower}"
    )
