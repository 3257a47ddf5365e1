# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the state of one position and its only change, make/unmake.
#
# Map (one line per function):
#   clear_board(b)             an empty board: sentinels off the board, Red to move  [shared]
#   make_move(b, mv) -> cap    play mv, flip the side, return the captured id        [shared]
#   unmake_move(b, mv, cap)    undo make_move(mv) given what it captured             [shared]
# Both move paths (book and fast) and perft use the same make/unmake: there is one
# rule for how a move changes the board, so it is written once.

from libc.string cimport memset

from xiangqi.core.tables cimport ON_BOARD

cdef enum:
    MAX_MOVES = 128     # pseudo-legal moves of one position never exceed 119
    OFF_BOARD = 0xFF    # what squares[] holds off the board: stops every ray walk

# All state of one position. A plain struct so nogil code and batch jobs can
# copy and walk it without touching Python.
cdef struct BoardState:
    unsigned char squares[256]      # piece id on each 16x16 square, 0 empty, OFF_BOARD off it
    unsigned char piece_square[48]  # square of each piece id, 0 = captured or absent
    int side                        # side to move: 0 Red, 1 Black


cdef inline void clear_board(BoardState* b) noexcept nogil:
    cdef int sq
    memset(b, 0, sizeof(BoardState))
    for sq in range(256):
        if not ON_BOARD[sq]:
            b.squares[sq] = OFF_BOARD


cdef inline int make_move(BoardState* b, int mv) noexcept nogil:
    cdef int frm = mv & 255, to = mv >> 8
    cdef int pc = b.squares[frm], cap = b.squares[to]
    b.piece_square[pc] = to
    if cap:
        b.piece_square[cap] = 0
    b.squares[to] = pc
    b.squares[frm] = 0
    b.side ^= 1
    return cap


cdef inline void unmake_move(BoardState* b, int mv, int cap) noexcept nogil:
    cdef int frm = mv & 255, to = mv >> 8
    cdef int pc = b.squares[to]
    b.squares[frm] = pc
    b.squares[to] = cap
    b.piece_square[pc] = frm
    if cap:
        b.piece_square[cap] = to
    b.side ^= 1
