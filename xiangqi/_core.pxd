# The map of the compiled core: constants, the board layout and the C-level signatures.
#
# Glossary (Red's name first in each pair):
#   帅/将 king (general)   仕/士 advisor   相/象 elephant (the book's "Bishop")
#   马 horse (the book's "Knight")   车 rook (chariot)   炮 cannon   兵/卒 pawn (soldier)
#   九宫 palace; 河界 river; 蹩马腿 horse leg blocked; 塞象眼 elephant eye blocked;
#   炮架 cannon screen; 将帅对面 kings facing (flying general); 将军 check;
#   将死 checkmate; 困毙 no legal move (loses in xiangqi).
#
# The board is the book's 16x16 mailbox: index sq = row * 16 + column, rows 3..12
# (row 3 is Black's back rank, row 12 Red's) and columns 3..11 are on the board;
# every other entry is an off-board sentinel that the zone tables mark 0.
# Rows 8..12 are Red's half, so `sq & 0x80` is set exactly on Red's half.
#
# A piece id is 0 for empty, else 16 + 16 * side + slot (side 0 Red, 1 Black).
# Slots: 0 king, 1-2 advisors, 3-4 elephants, 5-6 horses, 7-8 rooks,
# 9-10 cannons, 11-15 pawns. `pc & side_tag(side)` tests "belongs to side".
#
# A move is an int: from_sq | to_sq << 8; 0 is "no move".
#
# Name legend for short locals: sq (16x16 index), square (public 0..89,
# file + 9 * rank), pc (piece id), pt (piece type 0..6 = king, advisor,
# elephant, horse, rook, cannon, pawn), mv (encoded move), cap (captured
# piece id), side (0 Red, 1 Black), q (the king's square being tested).

from xiangqi.core.rules cimport Ply

cdef enum:
    MAX_MOVES = 128     # pseudo-legal moves of one position never exceed 119
    MAX_DEPTH = 64      # deepest perft the boundary accepts (bounds the C stack)
    BATCH_CHUNK = 4096  # boards copied per GIL release in legal_moves_batch
    KING = 0
    ADVISOR = 1
    ELEPHANT = 2
    HORSE = 3
    ROOK = 4
    CANNON = 5
    PAWN = 6
    OFF_BOARD = 0xFF    # what squares[] holds off the board: stops every ray walk

# All state of one position. A plain struct so nogil code and batch jobs can
# copy and walk it without touching Python.
cdef struct BoardState:
    unsigned char squares[256]      # piece id on each 16x16 square, 0 empty, OFF_BOARD off it
    unsigned char piece_square[48]  # square of each piece id, 0 = captured or absent
    int side                        # side to move: 0 Red, 1 Black

cdef int generate_pseudo(BoardState* b, int* moves) noexcept nogil
cdef int generate_pseudo_book(BoardState* b, int* moves) noexcept nogil
cdef int generate_legal_moves(BoardState* b, int* moves) noexcept nogil
cdef int make_move(BoardState* b, int mv) noexcept nogil
cdef void unmake_move(BoardState* b, int mv, int cap) noexcept nogil
cdef bint in_check(const BoardState* b, int side) noexcept nogil
cdef bint book_check(const BoardState* b, int side) noexcept nogil
cdef bint legal_move_ee(const BoardState* b, int mv) noexcept nogil
cdef long long perft_nodes(BoardState* b, int depth) noexcept nogil

# outcome_code() results: termination | winner << 4, 0 while the game goes on.
# Terminations (xiangqi.rules.Termination uses the same numbers):
cdef enum:
    END_CHECKMATE = 1
    END_STALEMATE = 2               # no legal move while not in check: a loss
    END_PERPETUAL_CHECK = 3
    END_PERPETUAL_CHASE = 4
    END_REPETITION = 5              # a draw
    END_MOVE_RULE = 6               # a draw
    END_INSUFFICIENT_MATERIAL = 7   # a draw
# Winners: 0 draw, 1 + colour (1 Red, 2 Black).

cdef bint has_legal_move(BoardState* b) noexcept nogil
cdef int outcome_code(BoardState* b, const Ply* plies, int n, int count, int limit) noexcept nogil

cdef class Board:
    cdef BoardState st
    cdef Ply* plies                 # the one history: plies[0] the root, plies[nply] now
    cdef int nply                   # moves pushed and not popped
    cdef int capacity               # entries allocated in plies
    cdef long long fullmove0        # FEN move number at the root
    cdef bint _is_legal(self, int mv) noexcept
    cdef int _reserve(self, int entries) except -1
    cdef void _reset_history(self, int clock) noexcept
