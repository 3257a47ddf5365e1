# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: perft on the fast path. Works only on C types; never builds a Move.
#
# Map (one line per function; [fast]):
#   perft(b, depth, bulk)   leaf count at depth; bulk counts the last ply's legal
#                           moves without playing them, otherwise every leaf is made
#                           and unmade (one routine: the two used to be separate copies)
# The book's perft (perft_book) is the reference path and lives in book.pxd.

from xiangqi.core.movegen cimport count_legal_moves, generate_legal_moves
from xiangqi.core.state cimport BoardState, MAX_MOVES, make_move, unmake_move


cdef inline long long perft(BoardState* b, int depth, bint bulk) noexcept nogil:
    cdef int moves[MAX_MOVES]
    cdef int n, i, mv, cap
    cdef long long total = 0
    if depth <= 0:
        return 1
    if depth == 1 and bulk:
        return count_legal_moves(b)
    n = generate_legal_moves(b, moves)
    for i in range(n):
        mv = moves[i]
        cap = make_move(b, mv)
        total += 1 if depth == 1 else perft(b, depth - 1, bulk)
        unmake_move(b, mv, cap)
    return total
