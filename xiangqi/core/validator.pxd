# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the second, independent algorithm: ElephantEye's single-move validator
# (legalMove). It judges one move by coordinate differences and shares no table or
# routine with either generator, so that tests can set it against them; its tables
# live here, apart from tables.pxd (same storage scheme: static C arrays written
# into _core.c, filled once by init_validator_tables()).
#
# Map (one line per function; all [validator]):
#   init_validator_tables()   fills the three tables below at import
#   legal_move_ee(b, mv)      ports legalMove: does mv follow its piece's movement rule?
#                             (pseudo-legality only; the caller adds the check test)

from xiangqi.core.state cimport BoardState
from xiangqi.core.tables cimport ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, PIECE_TYPE, ROOK

cdef extern from *:
    """
    static unsigned char EE_LEGAL_SPAN[512], EE_IN_FORT[256];
    static int EE_HORSE_PIN[512];
    """
    # Index dst - src + 256 -> 1 king step, 2 advisor step, 3 elephant step, 0 none.
    unsigned char EE_LEGAL_SPAN[512]
    # Index dst - src + 256 -> offset of the horse leg from src, 0 if not a horse jump.
    int EE_HORSE_PIN[512]
    # 16x16 square -> 1 inside either palace.
    unsigned char EE_IN_FORT[256]


cdef inline void init_validator_tables() noexcept:
    cdef int i, d, dr, dc, row, col
    for i in range(512):
        EE_LEGAL_SPAN[i] = 0
        EE_HORSE_PIN[i] = 0
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            d = 16 * dr + dc + 256
            if abs(dr) + abs(dc) == 1:
                EE_LEGAL_SPAN[d] = 1
            elif abs(dr) == 1 and abs(dc) == 1:
                EE_LEGAL_SPAN[d] = 2
            elif abs(dr) == 2 and abs(dc) == 2:
                EE_LEGAL_SPAN[d] = 3
            elif abs(dr) == 2 and abs(dc) == 1:
                EE_HORSE_PIN[d] = 16 if dr > 0 else -16
            elif abs(dr) == 1 and abs(dc) == 2:
                EE_HORSE_PIN[d] = 1 if dc > 0 else -1
    for i in range(256):
        EE_IN_FORT[i] = 0
    for row in range(3, 13):
        for col in range(6, 9):
            if row <= 5 or row >= 10:
                EE_IN_FORT[row * 16 + col] = 1


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
