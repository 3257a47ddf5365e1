# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the second, independent algorithm: ElephantEye's single-move validator
# (legalMove). It judges one move by coordinate differences and shares no table or
# routine with either generator, so that tests can set it against them; its tables
# live here, apart from tables.pxd (same storage scheme: static C arrays written
# into _core.c as C constant expressions, so they exist before any code runs).
#
# Map (one line per function; all [validator]):
#   move_reason_ee(b, mv, d)  ports legalMove, returning which rule fails (REASON_*)
#   legal_move_ee(b, mv)      does mv follow its piece's movement rule? (move_reason_ee
#                             == REASON_LEGAL; pseudo-legality only, the caller adds the
#                             check test)

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


# move_reason_ee results: why a move breaks its piece's movement rule (0: it does not).
# Checked in this order: the piece's own rule, then the target square; *detail gets the
# square named (16x16) or, for CANNON_SCREENS, how many pieces stand between.
# xiangqi/position.py turns each code into words.
cdef enum:
    REASON_LEGAL = 0
    REASON_NO_PIECE = 1         # no piece of the side to move on the from square
    REASON_KING_STEP = 2        # a king moves one point along a rank or file
    REASON_KING_PALACE = 3      # ... and stays in its palace
    REASON_ADVISOR_STEP = 4     # an advisor moves one point diagonally
    REASON_ADVISOR_PALACE = 5   # ... and stays in its palace
    REASON_ELEPHANT_STEP = 6    # an elephant moves two points diagonally
    REASON_ELEPHANT_RIVER = 7   # ... and never crosses the river
    REASON_ELEPHANT_EYE = 8     # ... and its eye (*detail) is empty
    REASON_HORSE_STEP = 9       # a horse moves one point orthogonally, then one diagonally
    REASON_HORSE_LEG = 10       # ... and its leg (*detail) is empty
    REASON_LINE = 11            # a rook or cannon moves along a rank or file
    REASON_PATH_BLOCKED = 12    # ... through empty points (*detail: the first piece)
    REASON_CANNON_SCREENS = 13  # a cannon captures over exactly one screen (*detail: count)
    REASON_PAWN_BACKWARDS = 14  # a pawn never moves backwards
    REASON_PAWN_STEP = 15       # a pawn moves one point forward (or sideways)
    REASON_PAWN_SIDEWAYS = 16   # ... sideways only across the river
    REASON_OWN_PIECE = 17       # the target holds a piece of the mover's side


cdef inline int move_reason_ee(const BoardState* b, int mv, int* detail) noexcept nogil:
    # ElephantEye's legalMove, telling which rule fails (REASON_*); legal_move_ee is
    # this == REASON_LEGAL, so the explanation and the judgement are one code.
    cdef int src = mv & 255, dst = mv >> 8
    cdef int self_tag = 16 + 16 * b.side
    cdef int pc_src = b.squares[src], pc_dst = b.squares[dst]
    cdef int pt, pin, delta, span, count
    detail[0] = 0
    if not (pc_src & self_tag):
        return REASON_NO_PIECE
    if src == dst:
        return REASON_OWN_PIECE     # (the line walk below needs two squares)
    pt = PIECE_TYPE[pc_src]
    span = EE_LEGAL_SPAN[dst - src + 256]
    if pt == KING:
        if span != 1:
            return REASON_KING_STEP
        if not EE_IN_FORT[dst]:
            return REASON_KING_PALACE
    elif pt == ADVISOR:
        if span != 2:
            return REASON_ADVISOR_STEP
        if not EE_IN_FORT[dst]:
            return REASON_ADVISOR_PALACE
    elif pt == ELEPHANT:
        if span != 3:
            return REASON_ELEPHANT_STEP
        if ((src ^ dst) & 0x80) != 0:
            return REASON_ELEPHANT_RIVER
        if b.squares[(src + dst) >> 1] != 0:
            detail[0] = (src + dst) >> 1
            return REASON_ELEPHANT_EYE
    elif pt == HORSE:
        pin = src + EE_HORSE_PIN[dst - src + 256]
        if pin == src:
            return REASON_HORSE_STEP
        if b.squares[pin] != 0:
            detail[0] = pin
            return REASON_HORSE_LEG
    elif pt == ROOK or pt == CANNON:
        if ((src ^ dst) & 0xf0) == 0:
            delta = -1 if dst < src else 1
        elif ((src ^ dst) & 0x0f) == 0:
            delta = -16 if dst < src else 16
        else:
            return REASON_LINE
        pin = src + delta
        count = 0
        while pin != dst:
            if b.squares[pin] != 0:
                if count == 0:
                    detail[0] = pin
                count += 1
            pin += delta
        if pt == ROOK or pc_dst == 0:
            if count:
                return REASON_PATH_BLOCKED
        elif not (pc_dst & self_tag) and count != 1:
            detail[0] = count
            return REASON_CANNON_SCREENS
    elif pt == PAWN:
        # Forward is -16 for Red (side 0), +16 for Black; across the river (dst's half is
        # the far one) a pawn may also step sideways.
        if ((dst >> 4) - (src >> 4)) * (1 - 2 * b.side) > 0:
            return REASON_PAWN_BACKWARDS
        if span != 1:
            return REASON_PAWN_STEP
        if (dst == src - 1 or dst == src + 1) and (src & 0x80) != (b.side << 7):
            return REASON_PAWN_SIDEWAYS
    if pc_dst & self_tag:
        return REASON_OWN_PIECE
    return REASON_LEGAL


cdef inline bint legal_move_ee(const BoardState* b, int mv) noexcept nogil:
    # Does mv follow its piece's movement rule (pseudo-legality only)?
    cdef int detail
    return move_reason_ee(b, mv, &detail) == REASON_LEGAL
