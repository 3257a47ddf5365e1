"""Position: one xiangqi position over the compiled core, with make/unmake history.

Squares are public numbers 0..89 (file + 9 * rank, rank 0 on Red's side); see
xiangqi.squares. This is the only module that talks to xiangqi._core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from . import _core
from .errors import IllegalMoveError
from .fen import (
    START_FEN,
    board_fen,
    check_counts,
    check_placement,
    parse_fen,
    side_in_check_error,
)
from .move import MOVES, Move
from .pieces import Color, Piece, PieceType
from .squares import SQUARE_NAMES


class Position:
    """A xiangqi position: pieces, side to move, counters, and the moves pushed so far.

    ``Position()`` is the start position; ``Position(fen)`` any other. Invalid
    FEN raises InvalidFenError (a ValueError) naming what is wrong.
    """

    __slots__ = ("_board", "_stack", "halfmove_clock", "fullmove_number")

    _board: _core.Board
    _stack: list[tuple[Move, int]]
    halfmove_clock: int
    fullmove_number: int

    def __init__(self, fen: str = START_FEN) -> None:
        parsed = parse_fen(fen)
        board = _core.Board()
        try:
            board.load(parsed.codes, parsed.side)  # refuses only counts beyond its slots
        except ValueError:
            check_counts(parsed.codes, fen)  # raises the InvalidFenError naming the kind
            raise
        check_placement(parsed.codes, fen, counts=False)
        if board.in_check(1 - parsed.side):
            raise side_in_check_error(parsed.side, fen)
        self._board = board
        self._stack = []
        self.halfmove_clock = parsed.halfmove_clock
        self.fullmove_number = parsed.fullmove_number

    # -- reading the position -------------------------------------------------

    def fen(self) -> str:
        """The position as six-field FEN text ("w" for Red to move)."""
        side = "w" if self._board.side == 0 else "b"
        return (
            f"{board_fen(self._board.codes())} {side} - - "
            f"{self.halfmove_clock} {self.fullmove_number}"
        )

    def board_fen(self) -> str:
        """Only the board field of the FEN."""
        return board_fen(self._board.codes())

    @property
    def turn(self) -> Color:
        """The side to move: RED or BLACK."""
        return Color(self._board.side)

    def piece_at(self, square: int) -> Piece | None:
        """The piece on a public square (0..89), or None if it is empty."""
        code = self._board.piece_at(square)
        return Piece.from_code(code) if code else None

    def piece_map(self) -> dict[int, Piece]:
        """Every piece by public square (0..89)."""
        codes = self._board.codes()
        return {sq: Piece.from_code(c) for sq, c in enumerate(codes) if c}

    def king(self, color: Color) -> int:
        """Public square of the king of color."""
        code = Piece(color, PieceType.KING).code
        return self._board.codes().index(code)

    # -- moves -----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """All legal moves of the side to move (a new list of shared Move objects)."""
        return self._board.legal_moves(MOVES)

    def is_legal(self, move: Move) -> bool:
        """Is move legal here? Checked by the core's single-move validator, not by generation."""
        return bool(self._board.is_legal(move.from_square, move.to_square))

    def is_pseudo_legal(self, move: Move) -> bool:
        """Does move follow its piece's movement rule, ignoring whether it leaves a check?"""
        return bool(self._board.is_pseudo_legal(move.from_square, move.to_square))

    def push(self, move: Move) -> None:
        """Play a legal move. An illegal one raises IllegalMoveError and changes nothing."""
        if not isinstance(move, Move):
            raise TypeError(f"push() takes a Move, got {type(move).__name__}")
        captured = self._board.piece_at(move.to_square)
        if not self._board.push(move.from_square, move.to_square):
            raise IllegalMoveError(
                f"illegal move {move} ({self._why_illegal(move)}) in {self.fen()!r}"
            )
        self._stack.append((move, self.halfmove_clock))
        self.halfmove_clock = 0 if captured else self.halfmove_clock + 1
        if self._board.side == 0:
            self.fullmove_number += 1

    def push_iccs(self, text: str) -> Move:
        """Parse ICCS text ("h2e2"), play it, and return the Move."""
        move = Move.from_iccs(text)
        self.push(move)
        return move

    def parse_iccs(self, text: str) -> Move:
        """Parse ICCS text and check it is legal here; raises InvalidMoveError/IllegalMoveError."""
        move = Move.from_iccs(text)
        if not self.is_legal(move):
            raise IllegalMoveError(
                f"illegal move {move} ({self._why_illegal(move)}) in {self.fen()!r}"
            )
        return move

    def pop(self) -> Move:
        """Undo the last pushed move and return it; IndexError if there is none."""
        if not self._stack:
            raise IndexError("pop from a position with no moves to undo")
        self._board.pop()
        move, self.halfmove_clock = self._stack.pop()
        if self._board.side == 1:
            self.fullmove_number -= 1
        return move

    def peek(self) -> Move:
        """The last pushed move; IndexError if there is none."""
        if not self._stack:
            raise IndexError("no moves have been pushed")
        return self._stack[-1][0]

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed and not popped, oldest first."""
        return [move for move, _ in self._stack]

    def _why_illegal(self, move: Move) -> str:
        piece = self.piece_at(move.from_square)
        frm, to = SQUARE_NAMES[move.from_square], SQUARE_NAMES[move.to_square]
        side = "Red" if self.turn == Color.RED else "Black"
        if piece is None:
            return f"no piece on {frm}"
        if piece.color != self.turn:
            return f"the piece on {frm} is not {side}'s"
        target = self.piece_at(move.to_square)
        if target is not None and target.color == self.turn:
            return f"{to} holds {side}'s own piece"
        name = piece.piece_type.name.lower()
        if not self.is_pseudo_legal(move):
            return f"the {name} on {frm} cannot move to {to}"
        return f"it would leave {side}'s king in check or facing the other king"

    # -- game state ------------------------------------------------------------

    def is_check(self) -> bool:
        """Is the side to move in check (including by the facing king)?"""
        return bool(self._board.is_check())

    def has_legal_moves(self) -> bool:
        """Does the side to move have at least one legal move?"""
        return bool(self._board.count_legal())

    def is_checkmate(self) -> bool:
        """In check with no legal move (将死): the side to move has lost."""
        return self.is_check() and not self.has_legal_moves()

    def is_stalemate(self) -> bool:
        """Not in check but no legal move (困毙): in xiangqi this also loses."""
        return not self.is_check() and not self.has_legal_moves()

    def is_game_over(self) -> bool:
        """The side to move has no legal move (checkmate or stalemate both lose)."""
        return not self.has_legal_moves()

    def result(self) -> str:
        """ "1-0" or "0-1" when the game is over, else "*" (repetition rules are not judged)."""
        if self.has_legal_moves():
            return "*"
        return "0-1" if self.turn == Color.RED else "1-0"

    def perft(self, depth: int, bulk: bool = True) -> int:
        """Leaf count of the legal move tree at depth, counted in the core without the GIL.

        bulk=True (the default) counts the last ply's legal moves without playing
        them; bulk=False makes and unmakes every leaf move (same count, slower).
        """
        return int(self._board.perft(depth, bulk))

    def divide(self, depth: int) -> dict[Move, int]:
        """perft(depth) split by root move: {Move: leaf count under it}."""
        return {MOVES[i]: n for i, n in self._board.divide(depth)}  # type: ignore[misc]

    # -- copying, comparing, showing -------------------------------------------

    def copy(self, stack: bool = True) -> Position:
        """An independent copy; with stack=False it forgets the moves pushed so far."""
        other = Position.__new__(Position)
        other._board = self._board.copy(stack)
        other._stack = list(self._stack) if stack else []
        other.halfmove_clock = self.halfmove_clock
        other.fullmove_number = self.fullmove_number
        return other

    def __copy__(self) -> Position:
        return self.copy()

    def __reduce__(self) -> tuple[Callable[[str, list[str]], Position], tuple[str, list[str]]]:
        """Pickle as the position before the pushed moves plus those moves (ICCS)."""
        root = self.copy()
        moves = [root.pop().iccs() for _ in range(len(root._stack))]
        return _unpickle, (root.fen(), moves[::-1])

    def _key(self) -> tuple[bytes, int]:
        return self._board.codes(), self._board.side

    def __eq__(self, other: object) -> bool:
        """Equal when the pieces and the side to move are equal (counters ignored)."""
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's Board

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"

    # -- notation and pictures (text lives in the modules named; no rules there) --
    # Layering: those modules use Position (type imports only, under TYPE_CHECKING) and
    # Position imports none of them at module level, so `import xiangqi` stays light and
    # the graph points one way. These thin conveniences import lazily on first use, as
    # STYLE.md allows, so pos.wxf(), pos.unicode() and notebook SVG keep working;
    # tests/test_layering.py checks both directions.

    def wxf(self, move: Move) -> str:
        """WXF text of a legal move, e.g. "C2.5" (see xiangqi.notation)."""
        from .notation import wxf

        return wxf(self, move)

    def parse_wxf(self, text: str) -> Move:
        """The legal move that WXF text names here (see xiangqi.notation)."""
        from .notation import parse_wxf

        return parse_wxf(self, text)

    def chinese(self, move: Move) -> str:
        """Chinese text of a legal move, e.g. "炮二平五" (see xiangqi.notation)."""
        from .notation import chinese

        return chinese(self, move)

    def parse_chinese(self, text: str) -> Move:
        """The legal move that Chinese text names here (see xiangqi.notation)."""
        from .notation import parse_chinese

        return parse_chinese(self, text)

    def __str__(self) -> str:
        """An ASCII picture of the board (see xiangqi.display)."""
        from .display import ascii_board

        return ascii_board(self)

    def unicode(self) -> str:
        """A picture of the board in Chinese piece characters (see xiangqi.display)."""
        from .display import unicode_board

        return unicode_board(self)

    def _repr_svg_(self) -> str:
        """SVG picture for notebooks (see xiangqi.svg)."""
        from .svg import board

        return board(self, lastmove=self._stack[-1][0] if self._stack else None)


def _unpickle(fen: str, moves: list[str]) -> Position:
    pos = Position(fen)
    for text in moves:
        pos.push_iccs(text)
    return pos


def generate_legal(position: Position) -> list[Move]:
    """All legal moves of the side to move in position (same as position.legal_moves()).

    A new list of shared Move objects (public squares 0..89); the order is not part
    of the API.
    """
    return position._board.legal_moves(MOVES)


def perft(position: Position, depth: int) -> int:
    """Leaf count of the legal move tree of position at depth (same as position.perft())."""
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
