# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: perft on the fast path. Works only on C types; never builds a Move.
#
# Map (one line per function; [fast]):
#   count_below(b, moves, n)             sum of the legal reply counts of n moves
#   play_leaves(b, moves, n)             make and unmake n leaf moves (bulk=False), count them
#   perft(b, stack, depth, bulk, watch)  leaf count at depth, or -1 if a signal handler
#                                        raised (the exception is set); bulk counts the
#                                        last ply's legal moves without playing them,
#                                        otherwise every leaf is made and unmade
#   poll_signals()                       take the GIL for a moment, run Python's signal
#                                        handlers (Ctrl-C), say whether one raised
# The book's perft (perft_book) is the reference path and lives in reference.pxd.
#
# Stack use: perft does not recurse. It walks the tree with an explicit stack of Ply
# records that the caller allocates on the heap (depth of them), so its C stack use is
# the same at every depth: one frame plus the MAX_MOVES buffer and threat map of the
# generator it calls. A thread with a 32 KB stack can count at depth 64.
#
# Interrupts: after every SIGNAL_EVERY generator calls (generate_legal_moves or
# count_legal_moves, 0.5 to 4 us each, including its make/unmake work), when `watch`
# is set, perft takes the GIL and calls PyErr_CheckSignals. The boundary sets `watch`
# only on the main thread (Python runs signal handlers nowhere else), so counts on
# other threads never wait for the GIL.

from xiangqi.core.movegen cimport count_legal_moves, generate_legal_moves
from xiangqi.core.state cimport BoardState, MAX_MOVES, make_move, unmake_move

cdef extern from "Python.h":
    # Declared here without Cython's `except -1`: the caller decides what to do.
    int check_signals "PyErr_CheckSignals"() noexcept

cdef enum:
    # Generator calls between two signal checks: 32,768 calls take about 20 to 130 ms,
    # so Ctrl-C arrives within a fraction of a second, and the GIL is taken only a few
    # dozen times a second (about 0.2% of perft's instructions, measured).
    SIGNAL_EVERY = 32768

# One level of the walk: the legal moves of the position at this ply, the next one to
# play, and what the move being explored below captured (for its unmake).
cdef struct Ply:
    int moves[MAX_MOVES]
    int n
    int i
    int cap


cdef inline bint poll_signals() noexcept nogil:
    cdef int failed
    with gil:
        failed = check_signals()
    return failed != 0


cdef inline long long count_below(BoardState* b, const int* moves, int n) noexcept nogil:
    # Bulk counting two plies from the end: the legal replies to each of the n moves.
    cdef long long total = 0
    cdef int i, mv, cap
    for i in range(n):
        mv = moves[i]
        cap = make_move(b, mv)
        total += count_legal_moves(b)
        unmake_move(b, mv, cap)
    return total


cdef inline long long play_leaves(BoardState* b, const int* moves, int n) noexcept nogil:
    # Without bulk counting, one ply from the end: make and unmake each leaf move.
    cdef int i, mv, cap
    for i in range(n):
        mv = moves[i]
        cap = make_move(b, mv)
        unmake_move(b, mv, cap)
    return n


cdef inline long long perft(BoardState* b, Ply* stack, int depth, bint bulk,
                            bint watch) noexcept nogil:
    cdef long long total = 0
    cdef long long calls = 0, next_poll = SIGNAL_EVERY
    cdef int ply = 0, left, mv, n
    cdef Ply* here
    if depth <= 0:
        return 1
    if depth == 1 and bulk:
        return count_legal_moves(b)
    n = generate_legal_moves(b, stack[0].moves)
    if depth == 1:
        return play_leaves(b, stack[0].moves, n)
    if depth == 2 and bulk:
        return count_below(b, stack[0].moves, n)
    stack[0].n = n
    stack[0].i = 0
    while ply >= 0:
        here = &stack[ply]
        if here.i == here.n:
            # Every move of this position is counted: back up and undo the move
            # that led here.
            ply -= 1
            if ply >= 0:
                here = &stack[ply]
                unmake_move(b, here.moves[here.i - 1], here.cap)
            continue
        mv = here.moves[here.i]
        here.i += 1
        left = depth - ply - 1      # plies still to play below mv (at least 1)
        here.cap = make_move(b, mv)
        if watch and calls >= next_poll:
            next_poll = calls + SIGNAL_EVERY
            if poll_signals():
                return -1
        n = generate_legal_moves(b, stack[ply + 1].moves)
        calls += 1
        if left == 2 and bulk:
            # The last two plies in one tight loop: no walk bookkeeping per leaf.
            total += count_below(b, stack[ply + 1].moves, n)
            calls += n
            unmake_move(b, mv, here.cap)
            continue
        if left == 1:
            # bulk=False, one ply from the end: the leaves in one tight loop.
            total += play_leaves(b, stack[ply + 1].moves, n)
            unmake_move(b, mv, here.cap)
            continue
        ply += 1
        stack[ply].n = n
        stack[ply].i = 0
    return total
