"""Position: one xiangqi position over the compiled core, with make/unmake history.

Squares are public numbers 0..89 (file + 9 * rank, rank 0 on Red's side); see
xiangqi.squares. With xiangqi.batch (and the RL calls), the only module that talks to
xiangqi._core.
"""

from __future__ import annotations

import copyreg
import functools
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

try:
    from . import _core
except ImportError as exc:  # a source checkout whose compiled core was never built
    import os as _os

    _here = _os.path.dirname(_os.path.abspath(__file__))
    raise ImportError(
        f"xiangqi's compiled core (xiangqi._core) is not built in {_here}. Build it in place "
        "with `pip install -e .` or `python setup.py build_ext --inplace` (needs Cython and a "
        "C compiler), or run from outside this source tree to use an installed xiangqi."
    ) from exc
from ._checks import check_bool, check_enum, check_int
from ._chess_names import ChessNames
from ._mate_search import MateSearch
from ._reasons import lower_rank_hint, movement_reason
from .errors import IllegalMoveError, InvalidFenError
from .fen import (
    START_FEN,
    Status,
    board_fen,
    check_counts,
    check_placement,
    parse_fen,
    placement_status,
    side_in_check_error,
)
from .move import MOVE_OF_CODE, MOVES, Move
from .pieces import PIECES, Color, Piece, PieceType
from .squares import SQUARE_NAMES, SquareSet, check_square, quote, square_set

if TYPE_CHECKING:
    from .rules import Rules

_P = TypeVar("_P", bound="Position")

#: The largest counter FEN text carries (the parser reads at most nine digits); fen()
#: writes larger counters as this, so that every FEN this library writes loads again.
MAX_COUNTER = 999_999_999

#: Color by the core's side number (a tuple lookup, cheaper than Color(side)).
_COLORS = (Color.RED, Color.BLACK)


def _check_move(move: object, method: str) -> Move:
    if not isinstance(move, Move):
        raise TypeError(
            f"{method}() takes a Move (Move.from_iccs('h2e2')), got {type(move).__name__}"
        )
    return move


def _checked_board(
    codes: bytes, side: int, fen: str, halfmove_clock: int = 0, fullmove_number: int = 1
) -> _core.Board:
    """A core Board of 90 piece codes, a side and the FEN counters, after every check FEN
    text gets. fen is the text quoted in the InvalidFenError (a FEN, or an edit's board).
    """
    board = _core.Board()
    try:
        board.load(codes, side, halfmove_clock, fullmove_number)  # refuses only memory hazards
    except ValueError:
        check_counts(codes, fen)  # raises the InvalidFenError naming the kind
        raise
    check_placement(codes, fen, counts=False)
    if board.in_check(1 - side):
        raise side_in_check_error(side, fen)
    return board


class LegalMoveView(_core.LegalMoves):
    """The legal moves of a Position, as python-chess's ``board.legal_moves``.

    Iterate it, take ``len()``, test ``move in view`` (asked of the core's single-move
    validator, without generating), or call it: ``pos.legal_moves()`` returns a new
    list as it always has. The view reads the position when used, so it stays current.

    Each Position makes its view once, on first use, and keeps it: edits reload the
    same core Board. The view is compiled (xiangqi._core.LegalMoves): iterating,
    ``len()`` and calling run no Python frame, and ``list(pos.legal_moves)``
    generates the moves once.
    """

    __slots__ = ()

    if TYPE_CHECKING:  # the compiled methods, typed with Move for the checker

        def __call__(self) -> list[Move]: ...
        def __iter__(self) -> Iterator[Move]: ...

    def __new__(cls, board: _core.Board) -> LegalMoveView:
        return super().__new__(cls, board, MOVES, Move)

    @property
    def _board(self) -> _core.Board:
        return self.board

    def __repr__(self) -> str:
        return f"<LegalMoveView ({', '.join(sorted(str(m) for m in self))})>"

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError("a LegalMoveView is not picklable; pickle its Position")


class PseudoLegalMoveView(functools.partial[list[Move]]):
    """The pseudo-legal moves of a Position, as python-chess's ``board.pseudo_legal_moves``:
    the moves that follow the movement rules, including those that leave the own king
    attacked. Iterate it, ``count()`` it, test ``move in view``, or call it for a list."""

    __slots__ = ()

    def __new__(cls, board: _core.Board) -> PseudoLegalMoveView:
        return super().__new__(cls, board.pseudo_legal_moves, MOVES)

    def __iter__(self) -> Iterator[Move]:
        return iter(self())

    def __bool__(self) -> bool:
        return bool(self())

    def __contains__(self, move: object) -> bool:
        board = self.func.__self__  # type: ignore[attr-defined]
        return (
            isinstance(move, Move)
            and bool(move)
            and bool(board.is_pseudo_legal(move.from_square, move.to_square))
        )

    def count(self) -> int:
        """Number of pseudo-legal moves."""
        return len(self())

    def __repr__(self) -> str:
        return f"<PseudoLegalMoveView ({', '.join(sorted(str(m) for m in self))})>"

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError("a PseudoLegalMoveView is not picklable; pickle its Position")


class Position(_core.PositionBase, ChessNames, MateSearch):
    """A xiangqi position: pieces, side to move, counters, and the moves pushed so far.

    ``Position()`` is the start position; ``Position(fen)`` any other. Invalid
    FEN raises InvalidFenError (a ValueError) naming what is wrong.

    All state, the history and the counters included, lives in one core Board: every
    public call that changes the position is one core call, so a Position shared
    between threads can be misused (python-chess's contract holds: one object, one
    thread at a time) but never left half-changed.

    ``outcome()``, ``push()``, ``pop()``, ``copy()``, ``piece_type_at()``,
    ``color_at()``, ``is_capture()``, ``zobrist_hash()``, ``ordered_moves()`` and
    python-chess's ``generate_legal_moves()`` and ``generate_legal_captures()`` are
    inherited from ``xiangqi._core.PositionBase`` (compiled: the calls a search makes at
    every node cost no Python frame). Writing an engine on it:
    https://xiangqi-rules.readthedocs.io/en/latest/writing-an-engine.html.
    """

    # _board and _legal_moves (the LegalMoveView of _board, or None until first asked
    # for) are PositionBase's compiled attributes, set when a Position is made (_load,
    # copy); edits reload the same Board, so the view never goes stale. No slot here: a
    # Position then holds no reference the garbage collector tracks (see PositionBase).
    __slots__ = ()

    _board: _core.Board
    _legal_moves: LegalMoveView | None

    def __init__(self, fen: str = START_FEN) -> None:
        self._load(fen)

    def _load(self, fen: str) -> None:
        parsed = parse_fen(fen)
        self._board = _checked_board(
            parsed.codes, parsed.side, fen, parsed.halfmove_clock, parsed.fullmove_number
        )
        self._legal_moves = None  # made on first use (see legal_moves)

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture (FEN field 5); push() counts it, pop() restores it.

        Xiangqi's rule sets judge long games by move count rather than by this clock;
        it is kept for FEN and for callers who want a 60- or 120-ply rule. Setting it
        takes an int >= 0.
        """
        return int(self._board.halfmove_clock)

    @halfmove_clock.setter
    def halfmove_clock(self, value: int) -> None:
        clock = check_int("halfmove clock", value, 0)
        self._board.set_counters(clock, self._board.fullmove_number)

    @property
    def fullmove_number(self) -> int:
        """The move number (FEN field 6): 1 at the start, up by one after each Black move.

        Setting it takes an int >= 1. fen() writes at most MAX_COUNTER (999,999,999).
        """
        return int(self._board.fullmove_number)

    @fullmove_number.setter
    def fullmove_number(self, value: int) -> None:
        number = check_int("move number", value, 1)
        self._board.set_counters(self._board.halfmove_clock, number)

    # -- reading the position -------------------------------------------------

    def fen(self) -> str:
        """The position as six-field FEN text ("w" for Red to move).

        Counters above MAX_COUNTER are written as MAX_COUNTER, so the text always loads.
        """
        side = "w" if self._board.side == 0 else "b"
        return (
            f"{board_fen(self._board.codes())} {side} - - "
            f"{min(self.halfmove_clock, MAX_COUNTER)} {min(self.fullmove_number, MAX_COUNTER)}"
        )

    def board_fen(self) -> str:
        """Only the board field of the FEN."""
        return board_fen(self._board.codes())

    @property
    def turn(self) -> Color:
        """The side to move: RED or BLACK (``bool(RED)`` is True, as python-chess's WHITE).

        Setting it is an edit (python-chess lets ``board.turn = BLACK`` be assigned):
        the position with the other side to move must be one FEN could load (the side
        not to move not in check), else InvalidFenError and nothing changes; the move
        stack is cleared. Setting the side already to move changes nothing.
        """
        return _COLORS[self._board.side]

    @turn.setter
    def turn(self, color: Color) -> None:
        side = int(check_enum("color", color, Color))
        if side != self._board.side:
            self._replace(self._board.codes(), side)

    def ply(self) -> int:
        """Plies since the start of the game, from the move number and the side to move.

        As python-chess's ``ply()``: ``2 * (fullmove_number - 1)``, plus 1 when Black
        is to move; a FEN with move number 1 and Black to move gives 1.
        """
        board = self._board
        return 2 * (int(board.fullmove_number) - 1) + int(board.side)

    def pieces(self, piece_type: PieceType, color: Color) -> SquareSet:
        """The squares (0..89) of color's pieces of piece_type, as a SquareSet."""
        code = (
            1
            + int(check_enum("piece_type", piece_type, PieceType))
            + 7 * int(check_enum("color", color, Color))
        )
        codes = self._board.codes()
        mask, at = 0, codes.find(code)
        while at >= 0:
            mask |= 1 << at
            at = codes.find(code, at + 1)
        return square_set(mask)

    # -- what the rules forbid (python-chess's status() and is_valid()) --------------

    def status(self) -> Status:
        """Status.VALID (0) for a position the rules allow, else the flags of what is wrong.

        Position(fen) and the edits only ever hold valid positions; a diagram loaded with
        Position.from_diagram() may have OPPOSITE_CHECK (the side not to move is in
        check) and KINGS_FACING, and NO_RED_KING / NO_BLACK_KING once a move of such a
        diagram has captured a king.
        """
        board = self._board
        flags = placement_status(board.codes())
        if board.in_check(1 - board.side):
            flags |= Status.OPPOSITE_CHECK
        return flags

    def is_valid(self) -> bool:
        """Is status() Status.VALID? (python-chess's is_valid().)"""
        return self.status() == Status.VALID

    def piece_at(self, square: int) -> Piece | None:
        """The piece on a public square (0..89), or None if it is empty."""
        # The core checks a plain int's range itself; anything else is converted first.
        code = self._board.piece_at(square if type(square) is int else check_square(square))
        return PIECES[code - 1] if code else None

    def piece_map(self) -> dict[int, Piece]:
        """Every piece by public square (0..89)."""
        codes = self._board.codes()
        return {sq: PIECES[c - 1] for sq, c in enumerate(codes) if c}

    def king(self, color: Color) -> int | None:
        """Public square (0..89) of the king of color (RED or BLACK), None if it has none
        (it was taken in a from_diagram position), as python-chess answers."""
        code = Piece(check_enum("color", color, Color), PieceType.KING).code
        codes = self._board.codes()
        return codes.index(code) if code in codes else None

    # -- moves -----------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoveView:
        """The legal moves of the side to move: iterate, ``len()``, ``in``, or call it.

        ``list(pos.legal_moves)`` and ``move in pos.legal_moves`` work as in
        python-chess, and ``pos.legal_moves()`` still returns a new list of shared
        Move objects (public squares 0..89), as generate_legal() does. The view is made
        on first use, once per Position, and reads the position when used.
        """
        view = self._legal_moves
        if view is None:
            view = self._legal_moves = LegalMoveView(self._board)
        return view

    @property
    def pseudo_legal_moves(self) -> PseudoLegalMoveView:
        """The moves that follow the movement rules, whether or not they leave the own
        king attacked: python-chess's ``board.pseudo_legal_moves`` (iterate, ``in``,
        ``count()``, or call it for a new list)."""
        return PseudoLegalMoveView(self._board)

    def is_legal(self, move: Move) -> bool:
        """Is move legal here? Checked by the core's single-move validator, not by generation."""
        _check_move(move, "is_legal")
        return bool(self._board.is_legal(move.from_square, move.to_square))

    def is_pseudo_legal(self, move: Move) -> bool:
        """Does move follow its piece's movement rule, ignoring whether it leaves a check?"""
        _check_move(move, "is_pseudo_legal")
        return bool(self._board.is_pseudo_legal(move.from_square, move.to_square))

    def _push_refused(self, move: object) -> None:
        """push()'s slow path (PositionBase.push): a Move the core did not play."""
        move = _check_move(move, "push")
        if type(move) is not Move:  # a subclass of Move: played as its squares
            if self._board.push(move.from_square, move.to_square):
                return
        if move.from_square == move.to_square:  # the null move (a0 to a0 never is legal)
            if self._board.push_null():
                return
            side = "Red" if self._board.side == 0 else "Black"
            why = self._king_gone() or f"{side} is in check and may not pass"
            raise IllegalMoveError(f"illegal null move: {why}, in {self.fen()!r}")
        raise self._illegal(move)

    def push_pseudo_legal(self, move: Move) -> None:
        """Play a pseudo-legal move: one that follows its piece's movement rule, even if it
        leaves the own king attacked (for engines that search pseudo-legal moves and test
        was_into_check() after the push). pop() undoes it as any move.

        Refused (IllegalMoveError, nothing changed): a move that breaks its piece's
        movement rule or moves no piece of the side to move, a move that would capture a
        king, and any move once a king is gone. ``Move.null()`` is push()'s null move.
        After a pseudo-legal move that left its king attacked, the position is one that
        Position.from_diagram() would load (the side not to move in check): the next side
        may capture that king with push() (its side then has no move and has lost, as
        outcome() says), and the rulings (outcome(), is_repetition) judge the history as
        it stands, every pushed move counted as played.
        """
        if type(move) is not Move:
            move = _check_move(move, "push_pseudo_legal")
        if not move:
            self.push(move)
            return
        refused = self._board.push_pseudo(move.from_square, move.to_square)
        if refused:
            if refused == 2:
                why = f"it would capture the king on {SQUARE_NAMES[move.to_square]}"
            elif refused == 3:
                why = self._king_gone()
            else:
                why = self._why_illegal(move)
            raise IllegalMoveError(f"illegal move {move}: {why}, in {self.fen()!r}")

    def was_into_check(self) -> bool:
        """Is the side that just moved (the side not to move) in check? python-chess's
        ``was_into_check()``: True only after push_pseudo_legal() of a move that left
        its king attacked, or in a from_diagram() position with the side not to move in
        check."""
        return bool(self._board.in_check(1 - self._board.side))

    def push_iccs(self, text: str) -> Move:
        """Parse ICCS text ("h2e2", or "H2-E2"), play it, and return the Move."""
        move = self.parse_iccs(text)
        self.push(move)
        return move

    def push_wxf(self, text: str) -> Move:
        """Parse WXF text ("C2.5"), play it, and return the Move (see xiangqi.notation)."""
        move = self.parse_wxf(text)
        self.push(move)
        return move

    def push_chinese(self, text: str) -> Move:
        """Parse Chinese text ("炮二平五"), play it, and return the Move (see xiangqi.notation)."""
        move = self.parse_chinese(text)
        self.push(move)
        return move

    def push_san(self, text: str) -> Move:
        """Parse SAN text ("Che3"), play it, and return the Move, as python-chess's push_san.

        The one SAN reader is xiangqi.notation.parse_san; see Position.parse_san.
        """
        move = self.parse_san(text)
        self.push(move)
        return move

    def parse_san(self, text: str) -> Move:
        """The legal move that SAN text names here ("Che3", "Hg8", "Rxa10+").

        SAN as Fairy-Stockfish, Cutechess and XBoard-style GUIs write xiangqi (ranks 1..10, or
        XBoard's 0..9); the one SAN reader is xiangqi.notation.parse_san. Raises
        InvalidMoveError for malformed text, IllegalMoveError when no legal move (or more than
        one) fits it.
        """
        from .notation import parse_san

        return parse_san(self, text)

    def san(self, move: Move) -> str:
        """SAN text of a legal move here, e.g. "Che3" (the one writer: xiangqi.notation.san)."""
        from .notation import san

        return san(self, move)

    def parse_iccs(self, text: str) -> Move:
        """The legal move that ICCS text names here: "h2e2" or dashed "H2-E2" (either case).

        The one ICCS reader is xiangqi.notation.parse_iccs; this is a shortcut to it.
        Raises InvalidMoveError for malformed text, IllegalMoveError for an illegal move.
        """
        from .notation import parse_iccs

        return parse_iccs(self, text)

    def _illegal(self, move: Move, text: str | None = None) -> IllegalMoveError:
        """The IllegalMoveError for move, naming why it is illegal here (and, for a move read
        from text, that ICCS ranks run 0..9 when it is legal one rank lower)."""
        read = f" (read from {quote(text)})" if text is not None else ""
        hint = lower_rank_hint(self, move) if text is not None else ""
        return IllegalMoveError(
            f"illegal move {move}{read}: {self._why_illegal(move)}, in {self.fen()!r}{hint}"
        )

    def peek(self) -> Move:
        """The last pushed move; IndexError if there is none."""
        return MOVE_OF_CODE[self._board.peek()]

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed and not popped, oldest first (a new list)."""
        return [MOVE_OF_CODE[code] for code in self._board.moves()]

    def _king_gone(self) -> str:
        """Why no move is legal when a king was taken (a from_diagram position), else ''."""
        for color, name in ((Color.RED, "Red"), (Color.BLACK, "Black")):
            if self.king(color) is None:
                return f"{name}'s king was taken: the game is over and no move is legal"
        return ""

    def _why_illegal(self, move: Move) -> str:
        """Why move is illegal here, in words (the movement rule it breaks, or the check)."""
        frm, to = move.from_square, move.to_square
        piece = self.piece_at(frm)
        side = "Red" if self.turn == Color.RED else "Black"
        gone = self._king_gone()
        if gone:
            return gone
        if piece is None:
            return f"there is no piece on {SQUARE_NAMES[frm]}"
        if piece.color != self.turn:
            other = "Black" if side == "Red" else "Red"
            return f"the piece on {SQUARE_NAMES[frm]} is {other}'s and it is {side}'s move"
        if self.is_pseudo_legal(move):
            board = self.piece_map()
            board[to] = board.pop(frm)
            kings = sorted(sq for sq, p in board.items() if p.piece_type == PieceType.KING)
            facing = kings[0] % 9 == kings[1] % 9 and not any(
                sq in board for sq in range(kings[0] + 9, kings[1], 9)
            )
            why = " (the kings would face each other)" if facing else ""
            return f"it would leave {side}'s king in check{why}"
        code, detail = self._board.movement_reason(frm, to)
        return movement_reason(code, detail, piece, frm, to)

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

    def is_repetition(self, count: int = 3) -> bool:
        """Has the current position occurred at least count times (python-chess's
        ``is_repetition``)? Counted as repetition_count() counts."""
        return bool(self._board.occurrences() >= check_int("count", count))

    def repetition_count(self) -> int:
        """How many times the current position (pieces and side to move) has occurred,
        this time included, since the last capture and the last null move: 1 for a
        position new in that stretch. The count outcome()'s repetitions compares with."""
        return int(self._board.occurrences())

    def is_game_over(
        self, repetitions: int = 3, move_limit: int = 120, rules: Rules | str = "asian"
    ) -> bool:
        """Has the game ended by the rules (outcome() is not None)?"""
        return bool(self._board.outcome(repetitions, move_limit, rules))

    def result(
        self, repetitions: int = 3, move_limit: int = 120, rules: Rules | str = "asian"
    ) -> str:
        """ "1-0", "0-1" or "1/2-1/2" when the game has ended by the rules, else "*"."""
        outcome = self.outcome(repetitions, move_limit, rules)
        return "*" if outcome is None else outcome.result()

    def perft(self, depth: int, bulk: bool = True) -> int:
        """Leaf count of the legal move tree at depth, counted in the core without the GIL.

        bulk=True (the default) counts the last ply's legal moves without playing
        them; bulk=False makes and unmakes every leaf move (same count, slower).
        """
        return int(self._board.perft(depth, bulk))

    def divide(self, depth: int) -> dict[Move, int]:
        """perft(depth) split by root move: {Move: leaf count under it}, in ICCS order."""
        counts = {MOVES[i]: n for i, n in self._board.divide(depth)}
        return {m: counts[m] for m in sorted(counts, key=str)}  # type: ignore[misc]

    # -- attacks, checks and pins (answered by the core; see xiangqi/core/attacks.pxd) --

    def attackers(self, color: Color, square: int) -> SquareSet:
        """The squares (0..89) of color's pieces that attack square, as a SquareSet.

        A piece attacks a square when it could move there if the square held an
        enemy piece, whether or not that move would expose its own king: a cannon
        attacks over exactly one screen, a horse unless its leg is blocked, an
        elephant unless its eye is blocked. A king also attacks, along an open file,
        the points of the other palace where the other king could stand (empty, the
        other king's, or holding the first king's own pieces): the kings may not face.
        """
        # The core checks plain ints (and Colors, an int type) itself: the common call
        # runs no Python check and builds the SquareSet from the core's bit mask.
        if type(color) is not Color:
            color = check_enum("color", color, Color)
        return square_set(
            self._board.attackers_mask(
                color, square if type(square) is int else check_square(square)
            )
        )

    def attackers_mask(self, color: Color, square: int) -> int:
        """attackers() as an int bit mask (bit i = square i), as python-chess's."""
        if type(color) is not Color:
            color = check_enum("color", color, Color)
        return int(self._board.attackers_mask(color, check_square(square)))

    def attacks(self, square: int) -> SquareSet:
        """The squares the piece on square (0..89) attacks, as python-chess's ``attacks()``.

        The same definition as attackers(): t is in attacks(s) exactly when s is in
        attackers(color of the piece on s, t); so a cannon attacks the points beyond its
        first screen up to the next piece, not the empty points it could move to. Empty
        for an empty square.
        """
        return square_set(
            self._board.attacks_mask(square if type(square) is int else check_square(square))
        )

    def attacks_mask(self, square: int) -> int:
        """attacks() as an int bit mask (bit i = square i), as python-chess's."""
        return int(self._board.attacks_mask(check_square(square)))

    def is_attacked_by(self, color: Color, square: int) -> bool:
        """Does any piece of color attack square (0..89)? See attackers()."""
        if type(color) is not Color:
            color = check_enum("color", color, Color)
        return (
            self._board.attackers_mask(
                color, square if type(square) is int else check_square(square)
            )
            != 0
        )

    def checkers(self) -> SquareSet:
        """Squares of the pieces giving check to the side to move (the facing king
        included); empty when it has no king (taken in a from_diagram position)."""
        king = self.king(self.turn)
        if king is None:
            return SquareSet()
        return self.attackers(~self.turn, king)

    def gives_check(self, move: Move) -> bool:
        """Would the legal move put the other side in check? IllegalMoveError if it is illegal."""
        _check_move(move, "gives_check")
        if not self._board.is_legal(move.from_square, move.to_square):
            raise self._illegal(move)
        return bool(self._board.gives_check(move.from_square, move.to_square))

    def pin(self, color: Color, square: int) -> SquareSet:
        """Where color's piece on square may stand without exposing its king (all 90 if free).

        As python-chess's ``pin``: a SquareSet of every square when the piece is not
        pinned (or square holds no piece of color). Xiangqi pins are: the only piece
        between its king and an enemy rook (the points between and the rook), or
        between the two kings on a file (the points between); one of exactly two
        pieces between its king and an enemy cannon (the points between and the
        cannon, but not the other screen's point); a piece on the leg of an enemy
        horse that would attack the king (its own point and the horse's). Several
        pins intersect. A piece moving onto a line can also expose its king by
        becoming a cannon's only screen; that is not a pin of the piece.
        """
        who = check_enum("color", color, Color)
        sq = check_square(square)
        piece = self.piece_at(sq)
        if piece is None or piece.color != who:
            return SquareSet((1 << 90) - 1)
        return SquareSet(self._board.pin_mask(sq))

    def is_pinned(self, color: Color, square: int) -> bool:
        """Is color's piece on square pinned to its king? See pin()."""
        return len(self.pin(color, square)) < 90

    # -- editing (each edit is checked as FEN is, and forgets the move stack) ------

    def _replace(self, codes: bytes | bytearray, side: int) -> None:
        """Load codes and side after the FEN checks; on refusal change nothing."""
        codes = bytes(codes)
        fen = f"{board_fen(codes)} {'wb'[side]}"
        counters = self.halfmove_clock, self.fullmove_number
        _checked_board(codes, side, fen, *counters)  # raises before anything changes
        # Reload this Position's own board (the checks above passed on a scratch board,
        # so this one core call cannot fail): pos.legal_moves stays bound to it.
        self._board.load(codes, side, *counters)

    def set_fen(self, fen: str) -> None:
        """Load FEN text into this Position (python-chess's ``set_fen``), clearing the moves.

        Checked as Position(fen); on InvalidFenError nothing changes. The object, and
        the view pos.legal_moves, stay the same.
        """
        parsed = parse_fen(fen)
        counters = parsed.halfmove_clock, parsed.fullmove_number
        _checked_board(parsed.codes, parsed.side, fen, *counters)  # raises before any change
        self._board.load(parsed.codes, parsed.side, *counters)

    def set_board_fen(self, fen: str) -> None:
        """Replace the pieces from a FEN board field (python-chess's ``set_board_fen``).

        The side to move and the counters are kept, the move stack is cleared; checked
        as set_piece_at() (InvalidFenError, nothing changed).
        """
        if not isinstance(fen, str):
            raise TypeError(f"board FEN must be a str, got {type(fen).__name__}")
        if " " in fen.strip():
            raise InvalidFenError(f"expected only the board field of a FEN, got {quote(fen)}")
        parsed = parse_fen(f"{fen.strip()} w")
        self._replace(parsed.codes, self._board.side)

    @classmethod
    def from_diagram(cls: type[_P], fen: str, composition: bool = False) -> _P:
        """Load a diagram the rules forbid, for display and analysis (python-chess's
        ``Board(fen)`` followed by ``is_valid()``); status() says what is wrong.

        Accepted here, refused by Position(fen): the side not to move in check
        (Status.OPPOSITE_CHECK) and kings facing on an open file (KINGS_FACING). Moves,
        rulings and queries work on such a diagram as on any position and never fail;
        where the side to move can capture the other king, that capture is a legal move
        (the side without a king then has no move: it has lost).

        Still refused, with InvalidFenError naming the problem: FEN syntax errors, a
        missing king, more pieces of a kind than a side has (the core holds one slot per
        piece), and pieces on points their kind never reaches (a king outside its
        palace, an advisor, elephant or pawn off its points): the core's generator and
        its single-move validator both assume every piece stands where its kind can
        stand, and would read such a piece's moves differently. Edits of the result
        (set_piece_at, turn, ...) are checked as usual.

        composition=True reads a composed problem (排局): pawns may also stand behind
        their start rank or between the pawn files (Status.PAWN_OFF_POINTS) and move as
        any pawn; the side not to move in check is refused (it cannot be played on).
        """
        check_bool("composition", composition)
        parsed = parse_fen(fen)
        codes = parsed.codes
        check_counts(codes, fen)
        check_placement(codes, fen, counts=False, facing=composition, pawns=not composition)
        pos = cls.__new__(cls)
        board = _core.Board()
        board.load(codes, parsed.side, parsed.halfmove_clock, parsed.fullmove_number)
        if composition and board.in_check(1 - parsed.side):
            raise side_in_check_error(parsed.side, fen)
        pos._board = board
        pos._legal_moves = None
        return pos

    def set_piece_at(self, square: int, piece: Piece | None) -> None:
        """Put piece on square (0..89), or empty it for None.

        The result must be a position FEN could load (kings in their palaces, piece
        counts, no facing kings, the side not to move not in check); otherwise
        InvalidFenError is raised and nothing changes. The move stack is cleared.
        """
        sq = check_square(square)
        if piece is not None and not isinstance(piece, Piece):
            raise TypeError(f"piece must be a Piece or None, got {type(piece).__name__}")
        codes = bytearray(self._board.codes())
        codes[sq] = piece.code if piece is not None else 0
        self._replace(codes, self._board.side)

    def remove_piece_at(self, square: int) -> Piece | None:
        """Remove and return the piece on square (0..89), checked as set_piece_at()."""
        piece = self.piece_at(square)
        if piece is not None:
            self.set_piece_at(square, None)
        return piece

    def clear(self) -> None:
        """Leave only the two kings, Red's on e0 and Black's on d9, Red to move, counters reset.

        Unlike chess, a xiangqi position needs both kings, and they may not face each
        other on an open file, so this is one of the emptiest boards FEN can load. Add
        pieces with set_piece_at(), or set a whole board at once with set_piece_map().
        """
        self.set_piece_map(
            {4: Piece(Color.RED, PieceType.KING), 84: Piece(Color.BLACK, PieceType.KING)}
        )
        if self._board.side != 0:
            self._replace(self._board.codes(), 0)
        self._board.set_counters(0, 1)

    def set_piece_map(self, pieces: Mapping[int, Piece]) -> None:
        """Replace every piece at once: {square (0..89): Piece}, checked as set_piece_at().

        The way to move a king in an edit, since a position without one is refused.
        """
        if not isinstance(pieces, Mapping):
            raise TypeError(
                f"pieces must be a mapping of squares to Pieces, got {type(pieces).__name__}"
            )
        codes = bytearray(90)
        for square, piece in pieces.items():
            if not isinstance(piece, Piece):
                raise TypeError(f"pieces must map squares to Pieces, got {type(piece).__name__}")
            codes[check_square(square)] = piece.code
        self._replace(codes, self._board.side)

    def transform(self: _P, mapping: Callable[[int], int]) -> _P:
        """A new Position with the piece on each square s moved to mapping(s) (0..89).

        mapping must send the 90 squares to 90 different squares; the side to move and
        the counters are kept, the move stack is not. A result FEN could not load
        raises InvalidFenError.
        """
        codes = self._board.codes()
        out = bytearray(90)
        seen = set()
        for sq in range(90):
            target = check_square(mapping(sq))
            seen.add(target)
            out[target] = codes[sq]
        if len(seen) != 90:
            raise ValueError("transform mapping must send the 90 squares to 90 different squares")
        other = self.copy(stack=False)
        other._replace(out, self._board.side)
        return other

    def flip_horizontal(self: _P) -> _P:
        """A new Position mirrored left to right (file a <-> i): a symmetry of the rules.

        The flip of a diagram from_diagram() reads (a composition's too) is read the same way.
        """
        codes = self._board.codes()
        out = bytearray(90)
        for sq in range(90):
            out[sq - sq % 9 + 8 - sq % 9] = codes[sq]
        return self._symmetric(out, self._board.side)

    def mirror(self: _P) -> _P:
        """A new Position with ranks flipped and colours swapped, the other side to move.

        Red's pieces become Black's on the mirrored rank and the reverse, so the new
        side to move stands as the old one did: the same game seen from the other side.
        The mirror of a diagram from_diagram() reads (a composition's too) is read the same way.
        """
        codes = self._board.codes()
        out = bytearray(90)
        for sq in range(90):
            code = codes[sq]
            if code:
                out[sq % 9 + 9 * (9 - sq // 9)] = code + 7 if code <= 7 else code - 7
        return self._symmetric(out, 1 - self._board.side)

    def _symmetric(self: _P, codes: bytearray, side: int) -> _P:
        """A new Position of codes and side, an image of this one under a symmetry of the
        rules: as checked as this one was, so a diagram (from_diagram, a composition too)
        gives a diagram. Counters kept, move stack not."""
        other = self.copy(stack=False)
        try:
            other._replace(codes, side)
        except InvalidFenError as exc:
            fen = f"{board_fen(bytes(codes))} {'wb'[side]} - - {self.halfmove_clock} "
            fen += str(self.fullmove_number)
            for composition in (False, True):
                try:
                    diagram = Position.from_diagram(fen, composition=composition)
                except InvalidFenError:
                    continue
                other._board, other._legal_moves = diagram._board, None
                return other
            raise exc
        return other

    # -- copying, comparing, showing -------------------------------------------

    def __copy__(self: _P) -> _P:
        return self.copy()

    def __deepcopy__(self: _P, memo: dict[int, Any]) -> _P:
        import copy

        other = self.copy()
        extra = getattr(self, "__dict__", None)
        if extra:
            other.__dict__.update(copy.deepcopy(extra, memo))
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the class, the position before the pushed moves, those moves (ICCS),
        the exact counters (every history entry's halfmove clock) and any attributes a
        subclass added (its __dict__, and its slots' values)."""
        root = self.copy()
        moves = [root.pop().iccs() for _ in range(root._board.ply)]
        state = dict(getattr(self, "__dict__", {}))
        counters = (root.halfmove_clock, root.fullmove_number)
        # Every entry's clock: one set mid-game is not what replaying the moves gives.
        clocks = self._board.clocks()
        missing = object()
        slots = {
            name: value
            for name in copyreg._slotnames(type(self))  # type: ignore[attr-defined]
            if (value := getattr(self, name, missing)) is not missing
        }
        args = (type(self), root.fen(), moves[::-1], counters, state, clocks)
        return _restore, (*args, slots) if slots else args

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

        return board(self, lastmove=self.peek() if self._board.ply else None)


def _restore(
    cls: type[Position],
    fen: str,
    moves: list[str],
    counters: tuple[int, int] | None = None,
    state: dict[str, Any] | None = None,
    clocks: list[int] | None = None,
    slots: dict[str, Any] | None = None,
) -> Position:
    pos = cls.__new__(cls)
    try:
        Position._load(pos, fen)
    except InvalidFenError:  # a diagram the rules forbid (Position.from_diagram)
        try:
            diagram = Position.from_diagram(fen)
        except InvalidFenError:
            diagram = Position.from_diagram(fen, composition=True)
        pos._board, pos._legal_moves = diagram._board, None
    if counters is not None:
        pos._board.set_counters(*counters)
    for text in moves:
        move = Move.from_iccs(text)
        if move in pos.legal_moves or not move:
            pos.push(move)
        else:  # a move push_pseudo_legal() played (it left its king attacked)
            pos.push_pseudo_legal(move)
    if clocks is not None:
        pos._board.set_clocks(clocks)
    if state:
        pos.__dict__.update(state)
    for name, value in (slots or {}).items():
        setattr(pos, name, value)
    return pos
