"""Sides, piece kinds and pieces.

Glossary (Red's name first in each pair): 帅/将 king (general), FEN K;
仕/士 advisor (guard), A; 相/象 elephant (bishop), B, E is also read;
马 horse (knight), N, H is also read; 车 rook (chariot), R; 炮 cannon, C;
兵/卒 pawn (soldier), P. Upper case is Red, lower case is Black.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ._checks import check_enum, check_int


class Color(enum.IntEnum):
    """Side: RED (moves first, starts on ranks 0..4) or BLACK.

    The numbers are the core's and the arrays': RED = 0, BLACK = 1. A Color has no
    truth value: ``bool(color)``, ``if pos.turn:`` and ``not color`` raise TypeError.
    python-chess's ``WHITE`` is ``True``, so there ``if board.turn:`` means "White to
    move" and ``not color`` is the other colour; with RED = 0 either idiom would
    silently mean the opposite here, so both fail loudly instead. Write
    ``pos.turn == RED`` and ``~color`` (the other Color).
    """

    RED = 0
    BLACK = 1

    def __bool__(self) -> bool:
        raise TypeError(
            f"a Color has no truth value (python-chess's WHITE is True, but RED is 0): "
            f"compare with RED or BLACK, and write ~color for the other side, not "
            f"'not color' (got {self!s})"
        )

    def __invert__(self) -> Color:
        return Color.BLACK if self is Color.RED else Color.RED

    def __str__(self) -> str:
        # "Color.BLACK" on every Python (3.11 changed IntEnum's str() to the bare number).
        return f"Color.{self.name}"


#: Red, the side that moves first (``Color.RED``, 0).
RED = Color.RED
#: Black, the side that moves second (``Color.BLACK``, 1).
BLACK = Color.BLACK


class PieceType(enum.IntEnum):
    """Kind of piece, numbered as in the compiled core."""

    KING = 0
    ADVISOR = 1
    ELEPHANT = 2
    HORSE = 3
    ROOK = 4
    CANNON = 5
    PAWN = 6

    def __str__(self) -> str:
        return f"PieceType.{self.name}"


#: FEN letter of each piece type (Red's, upper case).
PIECE_LETTERS = "KABNRCP"
#: Letters also accepted when reading: E for elephant, H for horse.
_LETTER_TYPES = {ch: PieceType(i) for i, ch in enumerate(PIECE_LETTERS)}
_LETTER_TYPES.update({"E": PieceType.ELEPHANT, "H": PieceType.HORSE})


@dataclass(frozen=True)
class Piece:
    """A piece: its color and its type."""

    color: Color
    piece_type: PieceType

    def __post_init__(self) -> None:
        object.__setattr__(self, "color", check_enum("color", self.color, Color))
        object.__setattr__(self, "piece_type", check_enum("piece_type", self.piece_type, PieceType))

    @property
    def code(self) -> int:
        """The core's code: 1 + type + 7 * color (0 means empty)."""
        return 1 + int(self.piece_type) + 7 * int(self.color)

    @classmethod
    def from_code(cls, code: int) -> Piece:
        """Piece of a core code 1..14 (0, empty, and anything else is refused)."""
        return PIECES[check_int("code", code, 1, 14) - 1]

    def symbol(self) -> str:
        """FEN letter: upper case for Red, lower case for Black."""
        letter = PIECE_LETTERS[self.piece_type]
        return letter if self.color == RED else letter.lower()

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece | None:
        """Piece of a FEN letter (ASCII KABNRCP, E and H also read), or None if unknown."""
        if not isinstance(symbol, str):
            raise TypeError(f"piece symbol must be a str, got {type(symbol).__name__}")
        ok = len(symbol) == 1 and symbol.isascii()
        pt = _LETTER_TYPES.get(symbol.upper()) if ok else None
        if pt is None:
            return None
        return cls(RED if symbol.isupper() else BLACK, pt)

    def __str__(self) -> str:
        return self.symbol()


PIECES = tuple(Piece(Color(c), PieceType(t)) for c in range(2) for t in range(7))
