# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the second, independent algorithm: ElephantEye's single-move validator
# (legalMove). It judges one move by coordinate differences and shares no table or
# routine with either generator, so that tests can set it against them; its tables
# live here, apart from tables.pxd (same storage scheme: static C arrays written
# into _core.c as C constant expressions, so they exist before any code runs).
#
# Map (one line per function; all [validator]):
#   legal_move_ee(b, mv)      ports legalMove: does mv follow its piece's movement rule?
#                             (pseudo-legality only; the caller adds the check test)

from xiangqi.core.state cimport BoardState
from xiangqi.core.tables cimport ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, PIECE_TYPE, ROOK

cdef extern from *:
    """
    /* Constant expressions of the index (only the XQ_R* repeaters come from
       core/tables.pxd): d = dst - src, one of the steps below, else 0. */
    #define EE_D(i) ((i) - 256)
    #define EE_SPAN(i) (EE_D(i) == 1 || EE_D(i) == -1 || EE_D(i) == 16 || EE_D(i) == -16 ? 1 \
        : EE_D(i) == 15 || EE_D(i) == -15 || EE_D(i) == 17 || EE_D(i) == -17 ? 2 \
        : EE_D(i) == 30 || EE_D(i) == -30 || EE_D(i) == 34 || EE_D(i) == -34 ? 3 : 0),
    #define EE_PIN(i) (EE_D(i) == 31 || EE_D(i) == 33 ? 16 \
        : EE_D(i) == -31 || EE_D(i) == -33 ? -16 \
        : EE_D(i) == 18 || EE_D(i) == -14 ? 1 : EE_D(i) == 14 || EE_D(i) == -18 ? -1 : 0),
    XQ_TABLE unsigned char EE_LEGAL_SPAN[512] = {XQ_R512(EE_SPAN, 0)};
    XQ_TABLE int EE_HORSE_PIN[512] = {XQ_R512(EE_PIN, 0)};
    /* ElephantEye's ccInFort: rows 3..5 and 10..12, columns 6..8. */
    #define EE_FORT(i) (((i) >> 4 >= 3 && (i) >> 4 <= 5) || ((i) >> 4 >= 10 && (i) >> 4 <= 12)) \
        && ((i) & 15) >= 6 && ((i) & 15) <= 8,
    XQ_TABLE unsigned char EE_IN_FORT[256] = {XQ_R256(EE_FORT, 0)};
    """
    # Index dst - src + 256 -> 1 king step, 2 advisor step, 3 elephant step, 0 none.
    const unsigned char EE_LEGAL_SPAN[512]
    # Index dst - src + 256 -> offset of the horse leg from src, 0 if not a horse jump.
    const int EE_HORSE_PIN[512]
    # 16x16 square -> 1 inside either palace.
    const unsigned char EE_IN_FORT[256]


cdef inline bint legal_move_ee(const BoardState* b, int mv) noexcept nogil:
    cdef int src = mv & 255, dst = mv >> 8
    cdef int self_tag = 16 + 16 * b.side
    cdef int pc_src = b.squares[src], pc_dst = b.squares[dst]
    cdef int pt, pin, delta
    if not (pc_src & self_tag):
        return 0
    if pc_dst & self_tag:
        return 0
    pt = PIECE_TYPE[pc_src]
    if pt == KING:
        return EE_IN_FORT[dst] and EE_LEGAL_SPAN[dst - src + 256] == 1
    if pt == ADVISOR:
        return EE_IN_FORT[dst] and EE_LEGAL_SPAN[dst - src + 256] == 2
    if pt == ELEPHANT:
        return (((src ^ dst) & 0x80) == 0 and EE_LEGAL_SPAN[dst - src + 256] == 3
                and b.squares[(src + dst) >> 1] == 0)
    if pt == HORSE:
        pin = src + EE_HORSE_PIN[dst - src + 256]
        return pin != src and b.squares[pin] == 0
    if pt == ROOK or pt == CANNON:
        if ((src ^ dst) & 0xf0) == 0:
            delta = -1 if dst < src else 1
        elif ((src ^ dst) & 0x0f) == 0:
            delta = -16 if dst < src else 16
        else:
            return 0
        pin = src + delta
        while pin != dst and b.squares[pin] == 0:
            pin += delta
        if pin == dst:
            return pc_dst == 0 or pt == ROOK
        if pc_dst != 0 and pt == CANNON:
            pin += delta
            while pin != dst and b.squares[pin] == 0:
                pin += delta
            return pin == dst
        return 0
    if pt == PAWN:
        # Across the river (dst's half is the far one) a pawn may also step sideways.
        if (dst & 0x80) == (b.side << 7) and (dst == src - 1 or dst == src + 1):
            return 1
        return dst == src - 16 + (b.side << 5)
    return 0
