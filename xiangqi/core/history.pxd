# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: a game's history (one PlyRecord per position), shared by Board (Position) and
# the VectorEnv step, and by every rule set (its repetition window: core/judge.pxd).
#
# Map (one line per function):
#   push_ply(b, plies, n, mv)     the one history push: plays mv, writes plies[n + 1]
#                                 (key, move, captured, clock); the caller sets .check

from libc.stdint cimport uint64_t

from xiangqi.core.state cimport BoardState, make_move
from xiangqi.core.zobrist cimport key_after_move

# One entry of a game's history: the position after a move (plies[0]: the root).
cdef struct PlyRecord:
    uint64_t key        # Zobrist key of the position (see zobrist.pxd)
    int move            # core move that led here, from | to << 8; 0 at the root
    int captured        # core piece id that move captured, 0 if none
    long long clock     # plies since the last capture (the FEN halfmove clock)
    int check           # 1 if the side to move here is in check (the move gave check)

cdef extern from *:
    """
    #define XIANGQI_COUNTER_MAX (1LL << 62)
    """
    # The largest FEN counter a history holds (a long long); the clock stops there.
    const long long COUNTER_MAX "XIANGQI_COUNTER_MAX"


cdef inline int push_ply(BoardState* b, PlyRecord* plies, int n, int mv) noexcept nogil:
    # The one history push (Board.push and the VectorEnv step alike): play mv on b and
    # write plies[n + 1] from plies[n]: the Zobrist key (zobrist.pxd's key_after_move),
    # the move, the captured piece and the no-capture clock. The caller sets
    # plies[n + 1].check (in_check(b, b.side); the step has it from its move list).
    # Returns the captured piece id.
    cdef const PlyRecord* prev = &plies[n]
    cdef PlyRecord* ply = &plies[n + 1]
    cdef int pc = b.squares[mv & 255]
    cdef int cap = make_move(b, mv)
    ply.key = key_after_move(prev.key, pc, mv & 255, mv >> 8, cap)
    ply.move = mv
    ply.captured = cap
    ply.clock = 0 if cap else (prev.clock + 1 if prev.clock < COUNTER_MAX else prev.clock)
    return cap
