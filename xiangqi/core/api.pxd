# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# The Cython API: the stable surface a compiled engine cimports (docs/cython-api.md).
#
#     from xiangqi.core.api cimport xq_board, xq_generate, xq_make, xq_unmake, ...
#
# Build with cythonize(..., include_path=[xiangqi.get_include()]). Every function here is
# a `cdef inline` over the rooms of the core (state, movegen, attacks, zobrist), so it
# compiles INTO the cimporting extension: the hot paths are plain C, nothing links
# against xiangqi._core, and the tables are `static const` arrays the compiler builds.
# The rooms behind this file may change; the names, signatures and meanings below stay
# as long as API_VERSION does (a change that breaks a caller raises it). The struct
# layout of xq_board and the encodings are part of that promise.
#
# Encodings (as in _core.pxd):
#   sq      a 16x16 index: rows 3..12 (row 12 is Red's back rank) and columns 3..11 are
#           the board; xq_square / xq_public convert from and to public squares 0..89
#           (file + 9 * rank, rank 0 on Red's side).
#   pc      a piece id: 0 empty, else 16 + 16 * side + slot (side 0 Red, 1 Black; slots
#           0 king, 1-2 advisors, 3-4 elephants, 5-6 horses, 7-8 rooks, 9-10 cannons,
#           11-15 pawns); xq_piece_type / xq_piece_side decode it.
#   mv      an int, from_sq | to_sq << 8; 0 is no move.
#
# Map (all nogil and noexcept, free of Python objects, unless marked [GIL]):
#   xq_generate(b, moves) -> n            legal moves into moves[XQ_MAX_MOVES]
#   xq_generate_captures(b, moves) -> n   legal captures only
#   xq_generate_evasions(b, moves) -> n   legal moves when in check, else 0
#   xq_generate_pseudo(b, moves) -> n     pseudo-legal moves (movement rules only)
#   xq_count_legal(b) -> n                how many legal moves (no buffer)
#   xq_make(b, mv) -> captured            play a legal mv; returns the captured id (0: none)
#   xq_unmake(b, mv, captured)            undo xq_make
#   xq_make_null(b) / xq_unmake_null(b)   pass / undo the pass (the side flips)
#   xq_in_check(b) / xq_side_in_check(b, side)
#   xq_attackers(b, side, sq, out) -> n   side's pieces attacking sq, into out[32]
#   xq_key(b)                             Zobrist key from scratch (= Position.zobrist_hash())
#   xq_key_after(key, b, mv)              the key after mv, called BEFORE xq_make(b, mv)
#   xq_key_after_null(key)                the key after a null move
#   xq_is_repetition(keys, n, window)     keys[n - 1] seen before, same side to move
#   xq_set_position(b, position)  [GIL]   copy a xiangqi.Position's board into b
#   xq_set_fen(b, fen)            [GIL]   parse FEN (xiangqi's parser) into b
#   xq_history_keys(position, keys, capacity) [GIL]  the keys of the position's game
#   xq_piece_type, xq_piece_side, xq_square, xq_public, xq_from, xq_to, xq_move

from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from xiangqi._core cimport Board
from xiangqi.core.attacks cimport attackers_of
from xiangqi.core.movegen cimport (
    count_legal_moves, generate_legal_moves, generate_pseudo, in_check, is_legal_pseudo,
    mark_threats,
)
from xiangqi.core.state cimport BoardState, MAX_MOVES, make_move, unmake_move
from xiangqi.core.tables cimport PIECE_TYPE, PUBLIC_OF, SQUARE_OF
from xiangqi.core.zobrist cimport ZOBRIST_OUTPUT, ZOBRIST_SIDE_INDEX, key_from_scratch, table_key

cdef enum:
    API_VERSION = 1         # raised when a name here changes meaning or signature
    XQ_MAX_MOVES = MAX_MOVES    # room a move buffer needs (no position has more than 119)
    XQ_RED = 0
    XQ_BLACK = 1
    XQ_KING = 0             # piece types, as xiangqi.PieceType
    XQ_ADVISOR = 1
    XQ_ELEPHANT = 2
    XQ_HORSE = 3
    XQ_ROOK = 4
    XQ_CANNON = 5
    XQ_PAWN = 6

# One position: squares[256] (piece id per 16x16 square, 0 empty, 0xFF off the board),
# piece_square[48] (16x16 square of each piece id, 0 when captured or absent) and side
# (0 Red, 1 Black to move). A plain struct: copy it with `=` or memcpy.
ctypedef BoardState xq_board


# -- moves ---------------------------------------------------------------------------------

cdef inline int xq_generate(xq_board* b, int* moves) noexcept nogil:
    # The legal moves of the side to move into moves (room for XQ_MAX_MOVES); how many.
    # 0 means the side to move has lost (checkmate or 困毙: no legal move loses).
    return generate_legal_moves(b, moves)


cdef inline int xq_generate_pseudo(xq_board* b, int* moves) noexcept nogil:
    # Pseudo-legal moves (they may leave the own king attacked or the kings facing).
    return generate_pseudo(b, moves)


cdef inline int xq_count_legal(xq_board* b) noexcept nogil:
    # How many legal moves the side to move has (perft's last ply; no buffer needed).
    return count_legal_moves(b)


cdef inline int xq_generate_captures(xq_board* b, int* moves) noexcept nogil:
    # The legal captures into moves (room for XQ_MAX_MOVES); how many. Only the captures
    # are tested for legality (the threat map, then make/test/unmake where it matters).
    cdef int n = generate_pseudo(b, moves)
    cdef int k = b.piece_square[16 + 16 * b.side]
    cdef unsigned char hot[256]
    cdef int i, kept = 0, mv
    cdef bint checked
    if not k:
        return 0
    checked = mark_threats(b, k, hot)
    for i in range(n):
        mv = moves[i]
        if b.squares[mv >> 8] and (
                not (hot[mv & 255] | hot[mv >> 8]) or is_legal_pseudo(b, mv, k, checked)):
            moves[kept] = mv
            kept += 1
    return kept


cdef inline int xq_generate_evasions(xq_board* b, int* moves) noexcept nogil:
    # In check: every legal move (each one answers the check). Not in check: 0 moves.
    if not in_check(b, b.side):
        return 0
    return generate_legal_moves(b, moves)


cdef inline int xq_make(xq_board* b, int mv) noexcept nogil:
    # Play mv (a move xq_generate gave for this position): the side to move flips.
    # Returns the captured piece id (0: none), which xq_unmake needs.
    return make_move(b, mv)


cdef inline void xq_unmake(xq_board* b, int mv, int captured) noexcept nogil:
    # Undo xq_make(b, mv), which returned captured.
    unmake_move(b, mv, captured)


cdef inline void xq_make_null(xq_board* b) noexcept nogil:
    # Pass: only the side to move changes. Do not pass in check (the rules forbid it).
    b.side ^= 1


cdef inline void xq_unmake_null(xq_board* b) noexcept nogil:
    b.side ^= 1


# -- questions ------------------------------------------------------------------------------

cdef inline bint xq_in_check(const xq_board* b) noexcept nogil:
    # Is the side to move in check (its king attacked, the facing kings included)?
    return in_check(b, b.side)


cdef inline bint xq_side_in_check(const xq_board* b, int side) noexcept nogil:
    # Is side's king (0 Red, 1 Black) attacked? False when side has no king.
    return in_check(b, side & 1)


cdef inline int xq_attackers(const xq_board* b, int side, int sq, int* out) noexcept nogil:
    # The 16x16 squares of side's pieces that attack the on-board square sq, into out
    # (room for 32); how many. Attacks ignore pins, as Position.attackers does. An sq off
    # the board gives 0.
    if sq < 0 or sq > 255 or PUBLIC_OF[sq] == 255:
        return 0
    return attackers_of(b.squares, side & 1, sq, out)


# -- keys and repetition ----------------------------------------------------------------------

cdef inline uint64_t xq_key(const xq_board* b) noexcept nogil:
    # The position's Zobrist key, from scratch: the same 64-bit value as the Python
    # Position.zobrist_hash() (SplitMix64 keys, documented in xiangqi/core/zobrist.pxd).
    return key_from_scratch(b.squares, b.side)


cdef inline uint64_t xq_key_after(uint64_t key, const xq_board* b, int mv) noexcept nogil:
    # The key after mv, from the key before it; call it BEFORE xq_make(b, mv).
    cdef int frm = mv & 255, to = mv >> 8
    cdef int pc = b.squares[frm], cap = b.squares[to]
    key ^= table_key(pc, frm) ^ table_key(pc, to) ^ ZOBRIST_OUTPUT[ZOBRIST_SIDE_INDEX - 1]
    if cap:
        key ^= table_key(cap, to)
    return key


cdef inline uint64_t xq_key_after_null(uint64_t key) noexcept nogil:
    # The key after a null move (only the side to move changed).
    return key ^ ZOBRIST_OUTPUT[ZOBRIST_SIDE_INDEX - 1]


cdef inline bint xq_is_repetition(const uint64_t* keys, int n, int window) noexcept nogil:
    # keys[0..n-1] are the keys of a line of play, keys[n - 1] the current position: does
    # it occur earlier among the last `window` entries (the plies since the last capture
    # or null move, say), with the same side to move (every second entry)? A search's
    # draw test; the rulings on perpetual check and chase are the Python layer's
    # (Position.outcome).
    cdef int i, stop = n - 1 - window
    if stop < 0:
        stop = 0
    i = n - 3
    while i >= stop:
        if keys[i] == keys[n - 1]:
            return 1
        i -= 2
    return 0


# -- encodings --------------------------------------------------------------------------------

cdef inline int xq_piece_type(int pc) noexcept nogil:
    # Piece id -> XQ_KING..XQ_PAWN (0..6); -1 for an empty square or the off-board mark.
    if pc < 16 or pc > 47:
        return -1
    return PIECE_TYPE[pc]


cdef inline int xq_piece_side(int pc) noexcept nogil:
    # Piece id -> 0 Red, 1 Black; -1 for an empty square or the off-board mark.
    if pc < 16 or pc > 47:
        return -1
    return (pc >> 4) - 1


cdef inline int xq_square(int square) noexcept nogil:
    # Public square 0..89 -> 16x16 index; -1 outside 0..89.
    if square < 0 or square > 89:
        return -1
    return SQUARE_OF[square]


cdef inline int xq_public(int sq) noexcept nogil:
    # 16x16 index -> public square 0..89; -1 off the board.
    if sq < 0 or sq > 255 or PUBLIC_OF[sq] == 255:
        return -1
    return PUBLIC_OF[sq]


cdef inline int xq_from(int mv) noexcept nogil:
    return mv & 255


cdef inline int xq_to(int mv) noexcept nogil:
    return (mv >> 8) & 255


cdef inline int xq_move(int frm, int to) noexcept nogil:
    return frm | (to << 8)


# -- from Python (these take the GIL; call them once, before the search) -----------------------

cdef inline int xq_set_position(xq_board* b, object position) except -1:
    # Copy a xiangqi.Position's board and side to move into b. TypeError if position is
    # no Position or holds no board. (The Position keeps its own board; b is a copy.)
    import xiangqi
    if not isinstance(position, xiangqi.Position):
        raise TypeError(f"xq_set_position takes a xiangqi.Position, got {type(position).__name__}")
    cdef object inner = position._board
    if not isinstance(inner, Board):     # a Position whose _board was replaced (None...)
        raise TypeError(f"xq_set_position: the Position holds no board ({type(inner).__name__})")
    cdef Board board = <Board>inner
    memcpy(b, &board.st, sizeof(BoardState))
    return 0


cdef inline int xq_set_fen(xq_board* b, object fen) except -1:
    # Parse a FEN with xiangqi's own parser (xiangqi.InvalidFenError, a ValueError, on bad
    # text; b is then unchanged) and copy its board into b.
    import xiangqi
    return xq_set_position(b, xiangqi.Position(fen))


cdef inline int xq_history_keys(object position, uint64_t* keys, int capacity) except -1:
    # The Zobrist keys of the position's game, oldest first, the current position last
    # (Position's root, then one per pushed move), into keys; at most `capacity` (the
    # latest ones); returns how many. With xq_is_repetition a search sees repetitions of
    # positions played before its root. capacity <= 0: returns 0 and writes nothing.
    # TypeError if position is no Position or holds no board.
    import xiangqi
    if not isinstance(position, xiangqi.Position):
        raise TypeError(f"xq_history_keys takes a xiangqi.Position, got {type(position).__name__}")
    cdef object inner = position._board
    if not isinstance(inner, Board):     # a Position whose _board was replaced (None...)
        raise TypeError(f"xq_history_keys: the Position holds no board ({type(inner).__name__})")
    cdef Board board = <Board>inner
    cdef int total = board.nply + 1, first, i
    if capacity <= 0:
        return 0
    first = total - capacity if total > capacity else 0
    for i in range(first, total):
        keys[i - first] = board.plies[i].key
    return total - first
