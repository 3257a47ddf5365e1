# Included into _core.pyx: PositionBase, the compiled base of xiangqi.Position, with the
# methods a search calls at every node (push, pop, copy, the move lists in a search's
# order, the queries, outcome), and the helpers Board's methods share with it (push, pop,
# the move selections, MVV-LVA).

# The Python values PositionBase answers with, made once (value modules that import no
# other part of xiangqi than _checks, errors and squares).
from xiangqi.move import MOVES as _MOVES, NULL_MOVE as _NULL_MOVE, Move as _Move
from xiangqi.pieces import Color as _Color, PieceType as _PieceType
from copyreg import _slotnames
from xiangqi.squares import (
    BB_ALL as _BB_ALL, SquareSet as _SquareSet, check_square as _check_square,
)

# pop()'s answer by public move code (from_square * 90 + to_square); 0 is the null move.
cdef tuple MOVE_OF = (_NULL_MOVE, *_MOVES[1:])
cdef object MOVE_TYPE = _Move
# piece_type_at's answer by piece type, color_at's by side.
cdef tuple PIECE_TYPES = tuple(_PieceType)
cdef tuple COLORS = (_Color.RED, _Color.BLACK)


# MVV-LVA's piece values by type (king, advisor, elephant, horse, rook, cannon, pawn):
# ordered_moves sorts captures by 8 * value(captured) + 7 - value(mover), highest first.
cdef extern from *:
    """
    static const int XQ_ORDER_VALUE[7] = {7, 2, 2, 4, 6, 5, 1};
    """
    const int ORDER_VALUE "XQ_ORDER_VALUE"[7]


cdef int split_mask(object mask, str name, uint64_t* out) except -1:
    # A square mask (an int, bit i = public square i, 0..2**90-1) as out[0] (squares
    # 0..63) and out[1] (64..89); else TypeError / ValueError.
    if isinstance(mask, bool):
        raise TypeError(f"{name} must be an int or a SquareSet, got bool")
    try:
        number = PyNumber_Index(mask)
    except TypeError:
        raise TypeError(
            f"{name} must be an int or a SquareSet, got {type(mask).__name__}") from None
    if number < 0 or number >> 90:
        raise ValueError(f"{name} must be in 0..2**90-1 (bit i = square i), got {number}")
    out[0] = <uint64_t>(number & 0xFFFFFFFFFFFFFFFF)
    out[1] = <uint64_t>(number >> 64)
    return 0


cdef list moves_of(list table, const int* moves, int n):
    # [table[public_code(moves[i])] for i < n]: the core's moves as the table's entries
    # (table: 8100 entries, by from_square * 90 + to_square; the callers check its length).
    cdef list out = PyList_New(n)
    cdef object item
    cdef int i
    for i in range(n):
        item = <object>PyList_GET_ITEM(table, public_code(moves[i]))
        Py_INCREF(item)     # PyList_SET_ITEM steals this reference
        PyList_SET_ITEM(out, i, item)
    return out


cdef int switched_code(int code, bint move_rule, bint perpetual_rulings) noexcept:
    # outcome()'s code with the move rule (move_rule=False: the game goes on) or the
    # perpetual check, chase and mate-threat rulings (perpetual_rulings=False: a
    # repetition is a draw) switched off. Both are judged after the board verdict, and
    # the move rule last, so switching off one never hides another verdict.
    cdef int end = code & 15
    if not move_rule and end == END_MOVE_RULE:
        return 0
    if not perpetual_rulings and (end == END_PERPETUAL_CHECK or end == END_PERPETUAL_CHASE
                                  or end >= END_PERPETUAL_MATE_THREAT):
        return END_REPETITION
    return code


cdef inline int play_move(Board board, int mv) except -1:
    # Play mv (checked by the caller: legal, or pseudo-legal for push_pseudo) and record it.
    board._reserve(board.nply + 2)    # may raise MemoryError; nothing has changed yet
    # From here on no Python code runs, so another thread never sees a half-made move.
    push_ply(&board.st, board.plies, board.nply, mv)
    board.plies[board.nply + 1].check = in_check(&board.st, board.st.side)
    board.nply += 1
    return 0


cdef inline int push_move(Board board, int mv) except -1:
    # Board.push's work: 1 when the legal mv was played, 0 (nothing changed) when illegal.
    if not board._is_legal(mv):
        return 0
    play_move(board, mv)
    return 1


cdef inline int pop_move(Board board) except -1:
    # Board.pop's work: undo the last push, return it as from_square * 90 + to_square.
    if not board.nply:
        raise IndexError("pop from a position with no moves to undo")
    cdef int mv = board.plies[board.nply].move
    if not mv:
        return board._pop_null()
    unmake_move(&board.st, mv, board.plies[board.nply].captured)
    board.nply -= 1
    return public_code(mv)


cdef inline Board board_of(PositionBase pos):
    if pos.board is None:
        raise TypeError("this Position has no board (made by __new__ without __init__)")
    return pos.board


cdef inline bint flag_arg(object value, str name) except -1:
    # A switch: True or False only (a truthy 2, "no" or None would switch silently); the
    # refusal is xiangqi._checks.check_bool's, the one rule and message.
    if value is True:
        return 1
    if value is False:
        return 0
    return check_bool(name, value)


cdef int copy_extra(object source, object target) except -1:
    # What a subclass of Position stores beyond PositionBase: its slots' values (unset
    # ones stay unset) and its __dict__, copied shallowly onto target (copy()).
    cdef str name
    for name in _slotnames(type(source)):
        try:
            value = getattr(source, name)
        except AttributeError:
            continue
        setattr(target, name, value)
    extra = getattr(source, "__dict__", None)
    if extra:
        target.__dict__.update(extra)
    return 0


cdef inline object mask_arg(object mask):
    # A square mask for select_moves: a SquareSet as its int, anything else as given
    # (select_moves checks it is an int in 0..2**90-1).
    return int(mask) if isinstance(mask, _SquareSet) else mask


cdef inline int square_arg(object square) except -1:
    # A public square: exact ints are checked by the core, anything else converted by
    # xiangqi.squares.check_square (its TypeError / ValueError) first.
    if type(square) is not int:
        square = _check_square(square)
    return check_square(square)


@cython.auto_pickle(False)    # Position pickles itself (position.py's __reduce__)
@cython.no_gc    # holds a Board and a LegalMoves of that Board: never a cycle
cdef class PositionBase:
    """The compiled base of xiangqi.Position: the methods a search calls at every node,
    which a Python method would slow by its frame (a Python outcome() measured 1.40x
    push + pop; this one 1.27x, benchmarks/callgrind_counts.sh). Position subclasses it
    and adds no instance attribute, so a Position holds no Python reference the garbage
    collector would need to track (gc.is_tracked(pos) is False; a subclass that adds a
    __dict__ is tracked as usual)."""

    cdef Board board                     # the position and its history (_board)
    cdef object legal_view               # the LegalMoveView of board (_legal_moves)

    def __cinit__(self):
        # A Python subclass (Position) is a heap type, and CPython tracks every instance
        # of one. An instance whose class adds no storage (no __dict__, no slot) holds
        # only a Board and its LegalMoves, neither of which can lead back to it: it can
        # never be part of a cycle, so it is untracked, as CPython untracks tuples of
        # atoms. A subclass that adds storage stays tracked.
        cdef PyTypeObject* cls = Py_TYPE(self)
        if (PyObject_IS_GC(self) and not cls.tp_dictoffset
                and cls.tp_basicsize == (<PyTypeObject*>PositionBase).tp_basicsize):
            PyObject_GC_UnTrack(<void*>self)

    @property
    def _board(self):
        """The core Board holding the position and its history (TypeError if none:
        a Position made by __new__ without __init__)."""
        return board_of(self)

    @_board.setter
    def _board(self, Board board not None):
        self.board = board

    @property
    def _legal_moves(self):
        """The LegalMoveView of _board, made on first use (Position.legal_moves), or None."""
        return self.legal_view

    @_legal_moves.setter
    def _legal_moves(self, view):
        # None, or a view of this position's own Board over the shared move table: one
        # that cannot lead back here. A Position is untracked, so a cycle through it
        # would never be collected.
        cdef PyTypeObject* cls = Py_TYPE(view)
        if view is not None and not (
                isinstance(view, LegalMoves) and not cls.tp_dictoffset
                and cls.tp_basicsize == (<PyTypeObject*>LegalMoves).tp_basicsize
                and (<LegalMoves>view).board is self.board
                and (<LegalMoves>view).table is _MOVES
                and (<LegalMoves>view).move_type is _Move):
            raise TypeError(
                "_legal_moves must be None or a LegalMoveView of this position's _board")
        self.legal_view = view

    def push(self, move):
        """Play a legal move. An illegal one raises IllegalMoveError and changes nothing.

        ``Move.null()`` passes (python-chess's null move, for null-move pruning): the
        side to move changes and nothing else; it is refused (IllegalMoveError) while
        the side to move is in check. The halfmove clock and move number count it, as
        python-chess's do; the rulings (is_repetition, outcome: repetition, perpetual
        check and chase) look no further back than the last null move, as Stockfish's
        repetition detection does, so a pass never makes or breaks a repetition with
        the positions before it. pop() undoes it like any move. Pseudo-legal moves:
        push_pseudo_legal().
        """
        cdef Board board = board_of(self)
        if type(move) is MOVE_TYPE and push_move(
                board, move_of(move.from_square, move.to_square)):
            return None
        self._push_refused(move)    # Python: the null move, or the error naming why

    def pop(self):
        """Undo the last pushed move and return it; IndexError if there is none."""
        return MOVE_OF[pop_move(board_of(self))]

    def copy(self, stack=True):
        """An independent copy of the same class; with stack=False it forgets the moves.
        (stack is True or False: python-chess's stack=n, the last n moves, is not kept.)"""
        cdef Board board = board_of(self)
        cdef bint history = flag_arg(stack, "stack")
        cdef PositionBase other = PositionBase.__new__(type(self))
        other.board = board.copy(history)
        other.legal_view = None
        cdef PyTypeObject* cls = Py_TYPE(self)
        if cls.tp_dictoffset or cls.tp_basicsize != (<PyTypeObject*>PositionBase).tp_basicsize:
            copy_extra(self, other)    # a subclass's slots or __dict__
        return other

    def piece_type_at(self, square):
        """The kind of the piece on square (0..89), or None if it is empty."""
        cdef int pc = board_of(self).st.squares[SQUARE_OF[square_arg(square)]]
        return PIECE_TYPES[PIECE_TYPE[pc]] if pc else None

    def color_at(self, square):
        """The colour of the piece on square (0..89), or None if it is empty."""
        cdef int pc = board_of(self).st.squares[SQUARE_OF[square_arg(square)]]
        return COLORS[pc >= 32] if pc else None

    def is_capture(self, move):
        """Does move (a Move) land on a piece of the other side than the piece it moves?
        (Legality is not checked; squares 0..89.)"""
        cdef Board board = board_of(self)
        if not isinstance(move, MOVE_TYPE):
            raise TypeError(
                f"is_capture() takes a Move (Move.from_iccs('h2e2')), got {type(move).__name__}")
        cdef int pc = board.st.squares[SQUARE_OF[check_square(move.from_square)]]
        cdef int cap = board.st.squares[SQUARE_OF[check_square(move.to_square)]]
        return bool(pc and cap and (pc >= 32) != (cap >= 32))

    def generate_legal_moves(self, from_mask=_BB_ALL, to_mask=_BB_ALL):
        """The legal moves from a square of from_mask to a square of to_mask, as
        python-chess's ``generate_legal_moves``: each mask a SquareSet or an int (bit i =
        square i, 0..89; xiangqi.BB_ALL, the default, is every square), filtered in the
        core. An iterator over a list made at the call, so pushing while iterating is safe."""
        return iter(board_of(self).select_moves(
            _MOVES, mask_arg(from_mask), mask_arg(to_mask), False))

    def generate_legal_captures(self, from_mask=_BB_ALL, to_mask=_BB_ALL):
        """The legal captures among generate_legal_moves(from_mask, to_mask), as
        python-chess's ``generate_legal_captures`` (in generation order; in MVV-LVA order:
        ordered_moves(captures_only=True))."""
        return iter(board_of(self).select_moves(
            _MOVES, mask_arg(from_mask), mask_arg(to_mask), True))

    def ordered_moves(self, captures_only=False):
        """The legal moves in a search's order, in one core call: the captures first, in
        MVV-LVA order, then the other moves in generation order; only the captures (a
        quiescence search's moves) when captures_only. A new list of shared Move objects.

        MVV-LVA: the most valuable victim first, then the least valuable mover, by the
        values king 7, rook 6, cannon 5, horse 4, advisor 2, elephant 2, pawn 1 (the key
        8 * value(captured) + 7 - value(mover), highest first; ties in generation order).
        """
        return board_of(self).ordered_moves(
            _MOVES, flag_arg(captures_only, "captures_only"), False)

    def ordered_moves_with_pieces(self, captures_only=False):
        """ordered_moves() with the pieces of each move, for an engine's own ordering or
        evaluation: ``(moves, movers, captured)``, where ``movers[i]`` is the code of the
        piece ``moves[i]`` moves and ``captured[i]`` the code of the piece it takes, 0 for
        none (bytes: indexing gives ints). A code is Piece.code, 1 + type + 7 * color
        (PieceType KING..PAWN = 0..6, RED 0, BLACK 1): ``(code - 1) % 7`` is the type,
        ``code > 7`` means Black."""
        return board_of(self).ordered_moves(
            _MOVES, flag_arg(captures_only, "captures_only"), True)

    def zobrist_hash(self):
        """The 64-bit Zobrist key of the pieces and side to move, an int (stable across
        runs and versions of the key table; kept incrementally by push and pop): the
        key for a transposition table (python-chess's chess.polyglot.zobrist_hash)."""
        cdef Board board = board_of(self)
        return board.plies[board.nply].key

    def outcome(self, repetitions=3, move_limit=120, rules=DEFAULT_RULES, *,
                move_rule=True, perpetual_rulings=True):
        """How the game ended by the rules, or None while it goes on (see xiangqi.rules).

        repetitions: how many occurrences of a position rule on a repetition (3 in
        play; 2 rules at the first repetition, as engines do in search). move_limit:
        plies without a capture that draw (120 = the 60-move rule); a side's checks
        beyond its first ten in that stretch do not count (Asian rules). rules: "asian"
        (the default) or "chinese" (xiangqi.Rules). move_rule=False: the move rule
        never ends the game. perpetual_rulings=False: a repetition is a draw whoever
        checks, chases or threatens mate (no perpetual check or chase ruling, under
        either rule set), as engines judge repetitions in search. Bad values raise
        TypeError or ValueError.
        """
        cdef Board board = board_of(self)
        cdef bint by_move_rule = flag_arg(move_rule, "move_rule")
        cdef bint by_rulings = flag_arg(perpetual_rulings, "perpetual_rulings")
        cdef int code = board._outcome(repetitions, move_limit, rules)
        if code and not (by_move_rule and by_rulings):
            code = switched_code(code, by_move_rule, by_rulings)
        return OUTCOMES[code]
