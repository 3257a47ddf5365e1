# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the move rule and material, shared by every rule set.
#
# Map (one line per function):
#   move_rule_reached(plies, n, limit)   the no-capture limit reached (AXF's 60-move
#                                        rule, with its discount of excess checks)
#   insufficient_material(piece_square)  neither side has a rook, horse, cannon or pawn
#
# Sources: the Asian rules' numbered articles (core/asian.pxd's header) that could be
# found give no article for either rule here. The move rule follows the summary "a draw
# may be claimed when no piece was taken and a side gave no more than 10 checks in the
# last 60 moves" (chesshub.com's Asian-rules page, archived 2005) as Pikafish and
# Fairy-Stockfish count it; insufficient material is the library's own (neither side
# can give check), not a rule-book clause.

from xiangqi.core.history cimport PlyRecord

cdef enum:
    CHECKS_COUNTED = 10     # checks per side that count towards the move rule


cdef inline bint move_rule_reached(const PlyRecord* plies, int n, int limit) noexcept nogil:
    # Has the no-capture count reached limit plies? A side's checks beyond its first
    # CHECKS_COUNTED in the no-capture stretch do not count, nor do the replies to them:
    # two plies off per excess check, as Pikafish and Fairy-Stockfish count (pyffish
    # agrees ply for ply, tests/test_rules.py). Plies before the root are counted as
    # plain moves: their checks are not known.
    cdef long long clock = plies[n].clock
    cdef int i, mover, stop
    cdef int checks[2]
    if clock < limit:
        return 0
    checks[0] = checks[1] = 0
    stop = n - <int>(clock if clock < n else n)
    for i in range(stop + 1, n + 1):
        if plies[i].check:
            mover = ((n - i) & 1)   # relative: 0 = the side that made the last move
            checks[mover] += 1
    for mover in range(2):
        if checks[mover] > CHECKS_COUNTED:
            clock -= 2 * (checks[mover] - CHECKS_COUNTED)
    return clock >= limit


cdef inline bint insufficient_material(const unsigned char* where) noexcept nogil:
    # Neither side has a rook, horse, cannon or pawn (where: the core's piece_square[48]).
    cdef int side, slot
    for side in range(2):
        for slot in range(5, 16):
            if where[16 + 16 * side + slot]:
                return 0
    return 1
