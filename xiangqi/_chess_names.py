"""python-chess's names for Position operations (chess.Board's spelling), as a base of Position.

parse_uci, push_uci, uci, san_and_push and variation_san behave as python-chess's do where the
two games coincide. They live here, not in position.py, so that module keeps one idea (the
board and its rules); Position inherits them and the reference lists them with Position's.
Squares are the public 0..89; UCI text is ICCS with ranks 0..9 ("h2e2"), as UCI xiangqi
engines write it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from .move import Move
from .pieces import Color

if TYPE_CHECKING:
    from .position import Position


def _check_move(move: object, method: str) -> Move:
    if not isinstance(move, Move):
        raise TypeError(
            f"{method}() takes a Move (Move.from_iccs('h2e2')), got {type(move).__name__}"
        )
    return move


class ChessNames:
    """python-chess's names for Position operations; a base of Position, not used alone."""

    __slots__ = ()

    def parse_uci(self, uci: str) -> Move:
        """The legal move that UCI text names here, as python-chess's ``Board.parse_uci``.

        UCI xiangqi engines write moves as ICCS squares with ranks 0..9 ("h2e2"), so this is
        ``Move.from_uci`` (the strict lower-case form) plus a legality check on squares
        0..89. "0000" returns ``Move.null()`` unchecked, as in python-chess. Raises
        InvalidMoveError for malformed text, IllegalMoveError for a move not legal here;
        the position is never changed.
        """
        pos = cast("Position", self)
        move = Move.from_uci(uci)
        if move and not pos.is_legal(move):
            raise pos._illegal(move, uci)
        return move

    def push_uci(self, uci: str) -> Move:
        """Parse UCI text ("h2e2") with parse_uci, play it, and return the Move.

        python-chess's ``Board.push_uci``. Raises as parse_uci does (and IllegalMoveError for
        "0000" while in check, as push does), changing nothing.
        """
        pos = cast("Position", self)
        move = pos.parse_uci(uci)
        pos.push(move)
        return move

    def uci(self, move: Move) -> str:
        """UCI text of a move (squares 0..89 as ICCS, e.g. "h2e2"), python-chess's ``Board.uci``."""
        return _check_move(move, "uci").uci()

    def san_and_push(self, move: Move) -> str:
        """SAN text of a legal move here, then play it: python-chess's ``Board.san_and_push``.

        Raises IllegalMoveError (changing nothing) for a move not legal here.
        """
        pos = cast("Position", self)
        text = pos.san(move)
        pos.push(move)
        return text

    def variation_san(self, variation: Iterable[Move]) -> str:
        """A line of legal moves from here in SAN with move numbers, as python-chess's.

        "1. Che3 Hg8 2. Hg3" when Red moves first; "1...Hg8 2. Hg3" when Black does (the
        number is the FEN's fullmove number). Each move must be legal after the ones
        before it, or IllegalMoveError names it; the position is never changed.
        """
        pos = cast("Position", self)
        board = pos.copy(stack=False)
        words: list[str] = []
        for move in variation:
            _check_move(move, "variation_san")
            if not board.is_legal(move):
                raise board._illegal(move)
            number = board.fullmove_number
            if board.turn == Color.RED:
                words.append(f"{number}. {board.san_and_push(move)}")
            elif not words:
                words.append(f"{number}...{board.san_and_push(move)}")
            else:
                words.append(board.san_and_push(move))
        return " ".join(words)
