# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled rules core: the book's 16x16 board, move generation, check detection, perft.

This file is the Python boundary only: the ``def`` functions and ``Board``'s methods
check every value a caller passes, then call the rooms of ``xiangqi/core/*.pxd``
(cdef inline functions compiled into this one extension). See ``_core.pxd`` for the map.
The batch calls (``_batch.pxi``), the book's reference path (``_reference.pxi``) and the
RL boundary (batch encoders, masks, ``VectorCore``: ``_rl.pxi``) are included at the
end: one extension, so the kernel is compiled once and its tables exist once.
"""

cimport cython
from cpython.list cimport PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.exc cimport PyErr_CheckSignals, PyErr_Occurred, PyErr_SetObject
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.number cimport PyNumber_Index
from cpython.object cimport Py_TYPE, PyTypeObject
from cpython.pythread cimport PyThread_get_thread_ident
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from xiangqi.core.attacks cimport attackers_of, attacks_from, pin_mask
from xiangqi.core.movegen cimport generate_legal_moves, generate_pseudo, in_check
from xiangqi.core.perft cimport Ply, perft
from xiangqi.core.state cimport (
    BoardState, MAX_MOVES, clear_board, make_move, unmake_move,
)
from xiangqi.core.tables cimport PIECE_TYPE, PUBLIC_OF, SQUARE_OF, TYPE_FIRST_SLOT, TYPE_SLOTS
from xiangqi.core.validator cimport REASON_CANNON_SCREENS, legal_move_ee, move_reason_ee
from xiangqi.core.asian cimport outcome_code
from xiangqi.core.chase cimport chased_now
from xiangqi.core.chinese cimport cxa_outcome_code
from xiangqi.core.history cimport COUNTER_MAX, PlyRecord, push_ply
from xiangqi.core.judge cimport (
    END_CHECK_MATE_THREAT_AND_CHASE, END_MOVE_RULE, END_PERPETUAL_CHASE, END_PERPETUAL_CHECK,
    END_PERPETUAL_MATE_THREAT, END_REPETITION, count_occurrences, replay_load,
)
from xiangqi.core.zobrist cimport key_from_scratch, side_key

import threading

cdef extern from "Python.h":
    int PyObject_IS_GC(object obj)
    void PyObject_GC_UnTrack(void* op)
from xiangqi._checks import check_bool, check_int as check_int_py

# outcome()'s rule sets by name, recognised by identity first as a fast path (string
# literals are interned, so a caller's "chinese" is usually this one; rule_set() decides).
cdef object DEFAULT_RULES = "asian"
cdef object CHINESE_RULES = "chinese"
# outcome()'s default counts, recognised by identity the same way (3 and 120 are the
# interpreter's shared small ints, so a caller's 3 is this 3; any other value is checked).
cdef object DEFAULT_REPETITIONS = 3
cdef object DEFAULT_MOVE_LIMIT = 120


cdef int rule_set(object rules) except -1:
    # 0 for the Asian rules, 1 for the Chinese ones: the names of xiangqi.Rules (a str
    # enum, so its members compare equal to these), else TypeError / ValueError.
    if not isinstance(rules, str):
        raise TypeError(f"rules must be a str ('asian' or 'chinese'), got {type(rules).__name__}")
    if rules == "asian":
        return 0
    if rules == "chinese":
        return 1
    raise ValueError(f"rules must be 'asian' or 'chinese', got {str.__repr__(rules)}")


# ---------------------------------------------------------------------------
# The Python boundary.
# ---------------------------------------------------------------------------

cdef inline int check_int(object value, str name, int low, int high) except -1:
    # An integer in low..high, else TypeError / ValueError. The value is converted to a C
    # integer first (operator.index semantics: int, int subclasses, NumPy integers; not
    # bool, not float) and the range is checked in C, so neither an int subclass's
    # comparison operators nor a huge value can steer what indexes the core's arrays.
    cdef int overflow = 0
    cdef long long v
    if type(value) is int:
        # Fast path (every push and square query): an exact int in range. Anything
        # else, errors included, takes the general path below.
        v = PyLong_AsLongLongAndOverflow(value, &overflow)
        if not overflow and low <= v <= high:
            return <int>v
    number = check_int_py(name, value)  # the one type rule and message (exact int)
    v = PyLong_AsLongLongAndOverflow(number, &overflow)
    if overflow:
        raise ValueError(f"{name} must be in {low}..{high}, got a {number.bit_length()}-bit number")
    if v < low or v > high:
        raise ValueError(f"{name} must be in {low}..{high}, got {v}")
    return <int>v


cdef inline long long check_counter(object value, str name, long long low) except -1:
    # A FEN counter in low..COUNTER_MAX, converted like check_int (not bool, not float).
    cdef int overflow = 0
    cdef long long v
    number = check_int_py(name, value)  # the one type rule and message (exact int)
    v = PyLong_AsLongLongAndOverflow(number, &overflow)
    if overflow or v < low or v > COUNTER_MAX:
        raise ValueError(f"{name} must be in {low}..{COUNTER_MAX}")
    return v


cdef inline int check_square(object square) except -1:
    # A public square 0..89 (see check_int).
    return check_int(square, "square", 0, 89)


cdef inline int move_of(object from_square, object to_square) except -1:
    # The core's move code of two public squares, each checked.
    return SQUARE_OF[check_square(from_square)] | (SQUARE_OF[check_square(to_square)] << 8)


cdef inline int public_code(int mv) noexcept nogil:
    # The core's move (from | to << 8, 16x16 indexes) as from_square * 90 + to_square.
    return PUBLIC_OF[mv & 255] * 90 + PUBLIC_OF[mv >> 8]


cdef inline int piece_code(int pc) noexcept nogil:
    # Piece.code of the core's piece id pc (not 0): 1 + type + 7 * color.
    return 1 + PIECE_TYPE[pc] + 7 * (pc >= 32)


cdef int raise_pending() except -1:
    # A signal handler raised while perft ran without the GIL (see core/perft.pxd); its
    # exception is still set on this thread: returning -1 propagates it.
    if PyErr_Occurred() == NULL:
        raise RuntimeError("perft stopped without an exception")
    return -1


cdef inline bint on_main_thread() noexcept:
    # Python runs signal handlers only on the main thread; elsewhere perft never polls.
    return PyThread_get_thread_ident() == MAIN_THREAD


cdef unsigned long MAIN_THREAD = threading.main_thread().ident


cdef object public_mask(const int* found, int n):
    # The 16x16 squares found[0..n) as a Python int, bit i = public square i.
    cdef unsigned long long low = 0, high = 0
    cdef int i, square
    for i in range(n):
        square = PUBLIC_OF[found[i]]
        if square < 64:
            low |= 1ULL << square
        else:
            high |= 1ULL << (square - 64)
    if high:
        return (<object>high << 64) | low
    return low


cdef class Board:
    """One xiangqi position in the book's layout, plus the undo records of push().

    The boundary speaks public squares (0..89, file + 9 * rank, rank 0 on Red's
    side) and piece codes 0 (empty) or 1 + type + 7 * color, type in
    KING..PAWN = 0..6 and color Red = 0, Black = 1.
    """

    def __cinit__(self):
        clear_board(&self.st)
        self.plies = NULL
        self.capacity = 0
        self._reserve(64)
        self.fullmove0 = 1
        self._reset_history(0)

    def __dealloc__(self):
        free(self.plies)

    cdef int _reserve(self, int entries) except -1:
        # Room for `entries` history entries; MemoryError (nothing changed) if none is left.
        cdef int capacity = self.capacity
        cdef PlyRecord* grown
        if entries <= capacity:
            return 0
        while capacity < entries:
            capacity = capacity * 2 if capacity else 64
        grown = <PlyRecord*>realloc(self.plies, sizeof(PlyRecord) * capacity)
        if grown == NULL:
            raise MemoryError()
        self.plies = grown
        self.capacity = capacity
        return 0

    cdef void _reset_history(self, long long clock) noexcept:
        # Forget the moves: the current position becomes the root, with this halfmove clock.
        self.nply = 0
        self.null_base = 0
        self.plies[0].key = key_from_scratch(self.st.squares, self.st.side)
        self.plies[0].move = 0
        self.plies[0].captured = 0
        self.plies[0].clock = clock
        self.plies[0].check = in_check(&self.st, self.st.side)

    def load(self, const unsigned char[::1] codes not None, object side_to_move,
             object halfmove_clock=0, object fullmove_number=1):
        """Replace the position with 90 piece codes (by public square) and a side to move.

        Checks only what keeps the core inside its arrays: 90 codes, each 0..14, no
        more pieces of a kind than the core has slots for (1 king, 2 of each of
        advisor, elephant, horse, rook and cannon, 5 pawns per side), side 0 or 1,
        and the FEN counters (halfmove clock 0..2**62, move number 1..2**62).
        Whether the position is legal (kings, placement, check) is judged in Python,
        by xiangqi.fen, before Position loads a board. The history is cleared: the
        position becomes the root. On error nothing changes.
        """
        cdef BoardState st
        cdef int counts[2][7]
        cdef int square, code, pt, color, sq, pc
        if codes.shape[0] != 90:
            raise ValueError(f"expected 90 piece codes, got {codes.shape[0]}")
        cdef int side = check_int(side_to_move, "side (0 Red, 1 Black)", 0, 1)
        cdef long long clock = check_counter(halfmove_clock, "halfmove clock", 0)
        cdef long long fullmove = check_counter(fullmove_number, "move number", 1)
        clear_board(&st)
        memset(counts, 0, sizeof(counts))
        st.side = side
        for square in range(90):
            code = codes[square]
            if code == 0:
                continue
            if code > 14:
                raise ValueError(f"piece code {code} at square {square} is not in 0..14")
            pt = (code - 1) % 7
            color = (code - 1) // 7
            if counts[color][pt] == TYPE_SLOTS[pt]:
                raise ValueError(
                    f"more than {TYPE_SLOTS[pt]} pieces of code {code}: the core has no slot"
                )
            sq = SQUARE_OF[square]
            pc = 16 + 16 * color + TYPE_FIRST_SLOT[pt] + counts[color][pt]
            counts[color][pt] += 1
            st.squares[sq] = pc
            st.piece_square[pc] = sq
        memcpy(&self.st, &st, sizeof(BoardState))
        self.fullmove0 = fullmove
        self._reset_history(clock)

    def codes(self):
        """The 90 piece codes by public square, as bytes."""
        cdef bytearray out = bytearray(90)
        cdef int square
        cdef int pc
        for square in range(90):
            pc = self.st.squares[SQUARE_OF[square]]
            if pc:
                out[square] = piece_code(pc)
        return bytes(out)

    def piece_at(self, square):
        """Piece code on a public square, 0 if empty."""
        cdef int pc = self.st.squares[SQUARE_OF[check_square(square)]]
        if not pc:
            return 0
        return piece_code(pc)

    @property
    def side(self):
        """Side to move: 0 Red, 1 Black."""
        return self.st.side

    @property
    def ply(self):
        """Number of moves pushed and not yet popped."""
        return self.nply

    @property
    def halfmove_clock(self):
        """Plies since the last capture (FEN field 5), counting from the root's clock."""
        return self.plies[self.nply].clock

    @property
    def fullmove_number(self):
        """FEN move number: the root's, plus one after each Black move."""
        cdef int root_side = self.st.side ^ (self.nply & 1)
        return self.fullmove0 + (self.nply + root_side) // 2

    def set_counters(self, object halfmove_clock, object fullmove_number):
        """Set the current halfmove clock and move number (the moves pushed are kept)."""
        cdef long long clock = check_counter(halfmove_clock, "halfmove clock", 0)
        cdef long long fullmove = check_counter(fullmove_number, "move number", 1)
        cdef int root_side = self.st.side ^ (self.nply & 1)
        self.plies[self.nply].clock = clock
        self.fullmove0 = fullmove - (self.nply + root_side) // 2

    def clocks(self):
        """The halfmove clock of every history entry, root first (for pickling: a clock
        set mid-game with set_counters is not what replaying the moves gives)."""
        return [self.plies[i].clock for i in range(self.nply + 1)]

    def set_clocks(self, object clocks):
        """Set every history entry's halfmove clock, root first (the inverse of clocks());
        the sequence must have ply + 1 entries, each 0..2**62. On error nothing changes."""
        cdef tuple values = tuple(clocks)
        cdef Py_ssize_t i
        if len(values) != self.nply + 1:
            raise ValueError(f"expected {self.nply + 1} clocks, got {len(values)}")
        checked = [check_counter(v, "halfmove clock", 0) for v in values]
        for i in range(self.nply + 1):
            self.plies[i].clock = checked[i]

    def copy(self, bint history=True):
        """An independent copy of the position, with its history unless history=False."""
        cdef Board other = Board.__new__(Board)
        cdef int root_side
        other._reserve(self.nply + 1 if history else 1)
        memcpy(&other.st, &self.st, sizeof(BoardState))
        if history:
            memcpy(other.plies, self.plies, sizeof(PlyRecord) * (self.nply + 1))
            other.nply = self.nply
            other.null_base = self.null_base
            other.fullmove0 = self.fullmove0
        else:
            root_side = self.st.side ^ (self.nply & 1)
            other.fullmove0 = self.fullmove0 + (self.nply + root_side) // 2
            other._reset_history(self.plies[self.nply].clock)
        return other

    def moves(self):
        """The moves pushed and not popped, oldest first, as from_square * 90 + to_square."""
        cdef int i, mv
        out = []
        for i in range(1, self.nply + 1):
            mv = self.plies[i].move
            out.append(public_code(mv) if mv else 0)
        return out

    def peek(self):
        """The last pushed move as from_square * 90 + to_square; IndexError if none."""
        if not self.nply:
            raise IndexError("no moves have been pushed")
        cdef int mv = self.plies[self.nply].move
        return public_code(mv) if mv else 0

    def zobrist_hash(self):
        """64-bit Zobrist key of the position, kept incrementally (see core/zobrist.pxd)."""
        return self.plies[self.nply].key

    def zobrist_from_scratch(self):
        """The same key computed from the whole board (for tests)."""
        return key_from_scratch(self.st.squares, self.st.side)

    def occurrences(self):
        """How many times the current position has occurred since the last capture."""
        return count_occurrences(self.plies + self.null_base, self.nply - self.null_base)

    def outcome(self, object repetitions=3, object move_limit=120, object rules=DEFAULT_RULES):
        """The rules' verdict as termination | winner << 4 (0: the game goes on).

        repetitions (2..1000) is how many occurrences of a position rule a repetition;
        move_limit (1..2**31-1) the plies without capture that draw; rules "asian" or
        "chinese". See core/asian.pxd and core/chinese.pxd.
        """
        return self._outcome(repetitions, move_limit, rules)

    cdef int _outcome(self, object repetitions, object move_limit, object rules) except -1:
        # outcome()'s code under the rule set named by rules: the Asian verdict is
        # core/asian.pxd's outcome_code, the Chinese one core/chinese.pxd's.
        cdef int count = -1, limit = 0, overflow = 0
        cdef long long value
        cdef bint chinese = 0
        # The rulings look no further back than the last null move (see push_null).
        cdef PlyRecord* view = self.plies + self.null_base
        cdef int n = self.nply - self.null_base
        if rules is not DEFAULT_RULES:
            chinese = rules is CHINESE_RULES or rule_set(rules) == 1
        # Fast paths (this runs after every ply of a game): the defaults themselves, then
        # exact ints in range; any other value goes through check_int, which converts it
        # or raises the error.
        if repetitions is DEFAULT_REPETITIONS and move_limit is DEFAULT_MOVE_LIMIT:
            count, limit = 3, 120
        elif type(repetitions) is int and type(move_limit) is int:
            value = PyLong_AsLongLongAndOverflow(repetitions, &overflow)
            if not overflow and 2 <= value <= 1000:
                count = <int>value
                value = PyLong_AsLongLongAndOverflow(move_limit, &overflow)
                if not overflow and 1 <= value <= 2147483647:
                    limit = <int>value
                else:
                    count = -1
        if count < 0:
            count = check_int(repetitions, "repetitions", 2, 1000)
            limit = check_int(move_limit, "move_limit", 1, 2147483647)
        if chinese:
            return cxa_outcome_code(&self.st, view, n, count, limit, -1, -1)
        return outcome_code(&self.st, view, n, count, limit, -1, -1)

    def chased(self, object side):
        """Public squares of the pieces `side` chases now (diagnostic; see core/asian.pxd)."""
        cdef BoardState r
        cdef int chaser = check_int(side, "side (0 Red, 1 Black)", 0, 1)
        cdef unsigned int mask
        cdef int slot
        replay_load(&r, self.st.squares)
        mask = chased_now(&r, chaser)
        return sorted(PUBLIC_OF[r.piece_square[32 - 16 * chaser + slot]]
                      for slot in range(16) if mask & (1u << slot))

    def legal_moves(self, list table not None):
        """Legal moves as table[from_square * 90 + to_square] for each; table must hold 8100."""
        cdef int moves[MAX_MOVES]
        cdef int n
        if len(table) != 8100:
            raise ValueError("table must have 8100 entries")
        n = generate_legal_moves(&self.st, moves)
        return moves_of(table, moves, n)

    def select_moves(self, list table not None, object from_mask, object to_mask,
                     bint captures_only):
        """Legal moves as table[from_square * 90 + to_square] whose from square is in
        from_mask and to square in to_mask (ints, bit i = public square i, each
        0..2**90-1), only captures when captures_only; generation order."""
        cdef int moves[MAX_MOVES]
        cdef uint64_t masks[4]
        cdef int n, i, mv, kept = 0, frm, to
        if len(table) != 8100:
            raise ValueError("table must have 8100 entries")
        split_mask(from_mask, "from_mask", masks)
        split_mask(to_mask, "to_mask", masks + 2)
        n = generate_legal_moves(&self.st, moves)
        for i in range(n):
            mv = moves[i]
            if captures_only and not self.st.squares[mv >> 8]:
                continue
            frm = PUBLIC_OF[mv & 255]
            to = PUBLIC_OF[mv >> 8]
            if (masks[frm >> 6] >> (frm & 63)) & 1 and (masks[2 + (to >> 6)] >> (to & 63)) & 1:
                moves[kept] = mv
                kept += 1
        return moves_of(table, moves, kept)

    def ordered_moves(self, list table not None, bint captures_only, bint pieces):
        """Legal moves as table[from_square * 90 + to_square], captures first in MVV-LVA
        order (ORDER_VALUE: the most valuable victim, then the least valuable mover;
        ties in generation order), then the other moves in generation order; only the
        captures when captures_only. With pieces, a tuple (moves, movers, captured):
        bytes of the moving piece's code and the captured piece's code (0: none) per
        move, codes 1 + type + 7 * color."""
        cdef int moves[MAX_MOVES]
        cdef int keys[MAX_MOVES]
        cdef int quiet[MAX_MOVES]
        cdef int n, i, j, mv, key, ncap = 0, nquiet = 0, pc, cap
        cdef bytearray movers, captured
        if len(table) != 8100:
            raise ValueError("table must have 8100 entries")
        n = generate_legal_moves(&self.st, moves)
        for i in range(n):
            mv = moves[i]
            cap = self.st.squares[mv >> 8]
            if not cap:
                if not captures_only:
                    quiet[nquiet] = mv
                    nquiet += 1
                continue
            pc = self.st.squares[mv & 255]
            key = 8 * ORDER_VALUE[PIECE_TYPE[cap]] + 7 - ORDER_VALUE[PIECE_TYPE[pc]]
            # Insertion sort, descending and stable: at most 119 moves, few of them captures.
            j = ncap
            while j > 0 and keys[j - 1] < key:
                keys[j] = keys[j - 1]
                moves[j] = moves[j - 1]
                j -= 1
            keys[j] = key
            moves[j] = mv
            ncap += 1
        memcpy(moves + ncap, quiet, sizeof(int) * nquiet)
        n = ncap + nquiet
        if not pieces:
            return moves_of(table, moves, n)
        movers = bytearray(n)
        captured = bytearray(n)
        for i in range(n):
            mv = moves[i]
            movers[i] = piece_code(self.st.squares[mv & 255])
            cap = self.st.squares[mv >> 8]
            if cap:
                captured[i] = piece_code(cap)
        return moves_of(table, moves, n), bytes(movers), bytes(captured)

    def legal_move_indices(self):
        """Legal moves as from_square * 90 + to_square."""
        cdef int moves[MAX_MOVES]
        cdef int n, i
        n = generate_legal_moves(&self.st, moves)
        return [public_code(moves[i]) for i in range(n)]

    def count_legal(self):
        """Number of legal moves."""
        cdef int moves[MAX_MOVES]
        return generate_legal_moves(&self.st, moves)

    def is_pseudo_legal(self, from_square, to_square):
        """The second algorithm alone: does the move follow the piece's movement rule?"""
        cdef int mv = move_of(from_square, to_square)
        return bool(legal_move_ee(&self.st, mv))

    def movement_reason(self, from_square, to_square):
        """Why the move breaks its piece's movement rule, by the second algorithm:
        (REASON_* code of core/validator.pxd, detail); 0 when it does not. The detail
        is a public square (the blocking piece) or, for a cannon's screens, a count."""
        cdef int mv = move_of(from_square, to_square), detail
        cdef int code = move_reason_ee(&self.st, mv, &detail)
        if code == REASON_CANNON_SCREENS:
            return code, detail
        return code, PUBLIC_OF[detail] if detail else 0

    def is_legal(self, from_square, to_square):
        """Is the move legal: the second algorithm, then make, own-king check, unmake."""
        cdef int mv = move_of(from_square, to_square)
        return bool(self._is_legal(mv))

    cdef bint _is_legal(self, int mv) noexcept:
        # A side without a king (taken in a from_diagram position) has no legal move. Only
        # the side to move can lack one (push_null, set_fen and the turn setter refuse
        # the rest). Tested last: elsewhere it cost push+pop 0.4-1.3% in instructions.
        cdef int cap, mover = self.st.side
        cdef bint ok
        if not legal_move_ee(&self.st, mv):
            return 0
        cap = make_move(&self.st, mv)
        ok = not in_check(&self.st, mover)
        unmake_move(&self.st, mv, cap)
        return ok and self.st.piece_square[16 + 16 * mover] != 0

    def push_pseudo(self, from_square, to_square):
        """Play a pseudo-legal move (it follows its piece's movement rule, whether or not
        it leaves the own king attacked): 0 when played; else nothing changes and the
        answer says why: 1 the move breaks the movement rule (or moves no piece of the
        side to move), 2 it would capture a king, 3 a king is gone (the game is over)."""
        cdef int mv = move_of(from_square, to_square)
        if not (self.st.piece_square[16] and self.st.piece_square[32]):
            return 3
        if not legal_move_ee(&self.st, mv):
            return 1
        if self.st.squares[mv >> 8] in (16, 32):
            return 2
        play_move(self, mv)
        return 0

    def push(self, from_square, to_square):
        """Play the move if it is legal and return True; otherwise change nothing, return False."""
        return push_move(self, move_of(from_square, to_square)) == 1

    def pop(self):
        """Undo the last push(); return it as from_square * 90 + to_square."""
        return pop_move(self)

    def is_check(self):
        """Is the side to move in check (including by the facing king)?"""
        return bool(in_check(&self.st, self.st.side))

    def in_check(self, object side):
        """Is side's king (0 Red, 1 Black) attacked, whoever is to move?"""
        return bool(in_check(&self.st, check_int(side, "side (0 Red, 1 Black)", 0, 1)))

    def perft(self, object depth, bint bulk=True):
        """Number of leaf nodes of the legal move tree at depth 0..64 (releases the GIL).

        bulk=True counts the last ply's legal moves without playing them; bulk=False
        makes and unmakes every leaf. Ctrl-C (KeyboardInterrupt) stops the count.
        """
        cdef long long n
        cdef int plies = check_int(depth, "depth", 0, MAX_DEPTH)
        cdef bint watch = on_main_thread()
        # Count on a copy taken with the GIL held: another thread may push or pop on
        # this Board while the count runs without the GIL.
        cdef BoardState st = self.st
        cdef Ply* stack = <Ply*>malloc(sizeof(Ply) * (plies + 1))
        if stack == NULL:
            raise MemoryError()
        try:
            with nogil:
                n = perft(&st, stack, plies, bulk, watch)
        finally:
            free(stack)
        if n < 0:
            raise_pending()
        return n

    def attackers(self, side, square):
        """Public squares (ascending) of side's pieces that attack a public square.

        See xiangqi/core/attacks.pxd for what attacking means (cannon screens and
        the facing kings included); the square may be empty or hold any piece.
        """
        cdef int who = check_int(side, "side (0 Red, 1 Black)", 0, 1)
        cdef int q = SQUARE_OF[check_square(square)]
        cdef int found[32]
        cdef int n = attackers_of(self.st.squares, who, q, found)
        return sorted([PUBLIC_OF[found[i]] for i in range(n)])

    def pin_mask(self, square):
        """Bit mask (bit i = public square i) of where the piece on square may stand
        without exposing its king; all 90 bits when it is not pinned or there is no piece."""
        cdef unsigned char mask[256]
        cdef int sq
        cdef object out = 0
        pin_mask(self.st.squares, SQUARE_OF[check_square(square)], mask)
        for sq in range(90):
            if mask[SQUARE_OF[sq]]:
                out |= (<object>1) << sq
        return out

    def gives_check(self, from_square, to_square):
        """Would the move put the other side in check? None if it does not follow its
        piece's movement rule (the second algorithm), else a bool; the board is unchanged."""
        cdef int frm = SQUARE_OF[check_square(from_square)]
        cdef int mv = frm | (SQUARE_OF[check_square(to_square)] << 8)
        cdef int cap, mover = self.st.side
        cdef bint checks
        if not legal_move_ee(&self.st, mv):
            return None
        cap = make_move(&self.st, mv)
        checks = in_check(&self.st, 1 - mover)
        unmake_move(&self.st, mv, cap)
        return bool(checks)

    # -- python-chess habits: null moves, pseudo-legal moves, attack masks ----------

    def push_null(self):
        """Pass (python-chess's Move.null()): the side to move changes, no piece moves.

        Refused (False, nothing changed) while the side to move is in check: passing
        then would leave a position the rules forbid; and once a king was taken (a
        from_diagram position), when no move is legal. The history gets an entry whose
        move is 0; the halfmove clock counts it, and the rulings (repetition, perpetual
        check and chase) look no further back than the last null move, as Stockfish's
        repetition detection does. Returns True.
        """
        cdef PlyRecord* prev
        cdef PlyRecord* ply
        if in_check(&self.st, self.st.side) or not (
                self.st.piece_square[16] and self.st.piece_square[32]):
            return False
        self._reserve(self.nply + 2)    # may raise MemoryError; nothing has changed yet
        prev = &self.plies[self.nply]
        ply = &self.plies[self.nply + 1]
        self.st.side ^= 1
        ply.key = prev.key ^ side_key()
        ply.move = 0
        ply.captured = 0
        ply.clock = prev.clock + 1 if prev.clock < COUNTER_MAX else prev.clock
        ply.check = 0   # the side that passed was not in check, so neither is the other
        self.nply += 1
        self.null_base = self.nply
        return True

    cdef int _pop_null(self) noexcept:
        # Undo a null move on top of the history (plies[nply].move == 0, nply > 0).
        cdef int i
        self.st.side ^= 1
        self.nply -= 1
        i = self.nply
        while i > 0 and self.plies[i].move:
            i -= 1
        self.null_base = i
        return 0

    def pseudo_legal_moves(self, list table not None):
        """Pseudo-legal moves (movement rules only; they may leave the king attacked),
        as table[from_square * 90 + to_square]; table must hold 8100 entries."""
        cdef int moves[MAX_MOVES]
        cdef int n, i
        if len(table) != 8100:
            raise ValueError("table must have 8100 entries")
        n = generate_pseudo(&self.st, moves)
        return [table[public_code(moves[i])]
                for i in range(n)]

    def attackers_mask(self, side, square):
        """attackers() as a bit mask (bit i = public square i)."""
        cdef int who = check_int(side, "side (0 Red, 1 Black)", 0, 1)
        cdef int q = SQUARE_OF[check_square(square)]
        cdef int found[32]
        cdef int n = attackers_of(self.st.squares, who, q, found)
        return public_mask(found, n)

    def attacks_mask(self, square):
        """Bit mask (bit i = public square i) of the points the piece on a public square
        attacks (see core/attacks.pxd); 0 for an empty square."""
        cdef int found[32]
        cdef int n = attacks_from(self.st.squares, SQUARE_OF[check_square(square)], found)
        return public_mask(found, n)

    def divide(self, object depth):
        """perft split by root move: list of (from_square * 90 + to_square, count).

        depth is 1..64; Ctrl-C (KeyboardInterrupt) stops it.
        """
        cdef int moves[MAX_MOVES]
        cdef int n, i, cap
        cdef long long count
        cdef int plies = check_int(depth, "depth", 1, MAX_DEPTH)
        cdef bint watch = on_main_thread()
        cdef BoardState st = self.st    # a private copy, as in perft()
        cdef Ply* stack = <Ply*>malloc(sizeof(Ply) * plies)
        if stack == NULL:
            raise MemoryError()
        out = []
        try:
            n = generate_legal_moves(&st, moves)
            for i in range(n):
                cap = make_move(&st, moves[i])
                with nogil:
                    count = perft(&st, stack, plies - 1, 1, watch)
                unmake_move(&st, moves[i], cap)
                if count < 0:
                    raise_pending()
                PyErr_CheckSignals()
                out.append((public_code(moves[i]), count))
        finally:
            free(stack)
        return out


# -- the legal-move view (python-chess's board.legal_moves), compiled ----------------

cdef class LegalMoves:
    """The legal moves of a Board as a view: iterate, len(), ``in``, call for a new list.

    table is the 8100-entry list of Move objects by from_square * 90 + to_square, and
    move_type the Move class (``in`` takes only those). Iterating keeps the generated
    list with the position's Zobrist key, and the next len() takes it while the key
    still matches: list(view) asks iter() then len() (its length hint), and so
    generates once. A kept list answers one len() at most, and only for its position.
    """
    cdef readonly Board board
    cdef list table
    cdef object move_type
    cdef list kept
    cdef uint64_t kept_key

    def __cinit__(self, Board board not None, list table not None, object move_type):
        if len(table) != 8100:
            raise ValueError("table must have 8100 entries")
        self.board = board
        self.table = table
        self.move_type = move_type
        self.kept = None

    def __call__(self):
        """A new list of the legal moves."""
        return self.board.legal_moves(self.table)

    def __iter__(self):
        cdef list moves = self.board.legal_moves(self.table)
        self.kept = moves
        self.kept_key = self.board.plies[self.board.nply].key
        return iter(moves)

    def __len__(self):
        cdef int moves[MAX_MOVES]
        cdef list kept = self.kept
        self.kept = None
        if kept is not None and self.kept_key == self.board.plies[self.board.nply].key:
            return len(kept)
        return generate_legal_moves(&self.board.st, moves)

    def __bool__(self):
        cdef int moves[MAX_MOVES]
        return generate_legal_moves(&self.board.st, moves) > 0

    def __contains__(self, move):
        """Is move (a Move) legal? Asked of the single-move validator, not generation."""
        if not isinstance(move, self.move_type):
            return False
        return self.board.is_legal(move.from_square, move.to_square)

    def count(self):
        """Number of legal moves (python-chess's ``legal_moves.count()``)."""
        cdef int moves[MAX_MOVES]
        return generate_legal_moves(&self.board.st, moves)


cdef tuple outcome_table():
    # Position.outcome()'s answer for each core code (termination | winner << 4, winner
    # 0 draw, 1 Red, 2 Black; 0 while the game goes on is None; terminations up to the
    # Chinese rules' last, core/judge.pxd). The values come from
    # xiangqi.rules (a value module that imports only xiangqi.pieces); Outcome is
    # frozen, so every call shares them.
    from xiangqi.rules import _outcome_of_code
    return tuple(
        _outcome_of_code(code)
        if 1 <= code & 15 <= END_CHECK_MATE_THREAT_AND_CHASE and code >> 4 <= 2 else None
        for code in range(48)
    )


cdef tuple OUTCOMES = outcome_table()


# -- included boundaries: one extension, so the kernel is compiled once ------------------
# _position.pxi: PositionBase (Position's compiled methods); _batch.pxi: legal_moves_batch;
# _reference.pxi: the book's reference path (tests only);
# _rl.pxi: the RL boundary (batch encoders, legal-action masks, VectorEnv's C state).

include "_position.pxi"
include "_batch.pxi"
include "_reference.pxi"
include "_rl.pxi"
include "_book.pxi"
include "_mate.pxi"
