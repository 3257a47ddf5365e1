# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the geometry tables of the generators (both the book's and the fast path).
#
# Storage scheme: a .pxd cannot own module-level C arrays (only a .pyx can), so the
# arrays are `static const` C arrays written into each translation unit that cimports
# this file, by the `cdef extern from *` block below. Every entry is a C constant
# expression of its index, evaluated by the compiler: the tables exist, filled and
# read-only, before any code runs, so no extension can forget to initialise them or
# change them (tests/test_core_tables.py pins them to the book's printed tables).
# The direction arrays are the book's, in its order (section 4.2).
#
# Map (one line per function):
#   horse_leg, elephant_eye, own_half, in_palace, first_piece, pawn_forward,
#   pawn_attacks    the movement rules, each stated once (below the tables)

cdef enum:
    KING = 0
    ADVISOR = 1
    ELEPHANT = 2
    HORSE = 3
    ROOK = 4
    CANNON = 5
    PAWN = 6

cdef extern from *:
    """
    /* A table: read-only, and no warning in an extension that uses only some. */
    #if defined(__GNUC__) || defined(__clang__)
    #define XQ_TABLE static const __attribute__((unused))
    #else
    #define XQ_TABLE static const
    #endif
    /* Repeat F(i) for a run of indexes; each F(i) expands to "value,". */
    #define XQ_R2(F, i) F(i) F((i) + 1)
    #define XQ_R4(F, i) XQ_R2(F, i) XQ_R2(F, (i) + 2)
    #define XQ_R8(F, i) XQ_R4(F, i) XQ_R4(F, (i) + 4)
    #define XQ_R16(F, i) XQ_R8(F, i) XQ_R8(F, (i) + 8)
    #define XQ_R32(F, i) XQ_R16(F, i) XQ_R16(F, (i) + 16)
    #define XQ_R64(F, i) XQ_R32(F, i) XQ_R32(F, (i) + 32)
    #define XQ_R128(F, i) XQ_R64(F, i) XQ_R64(F, (i) + 64)
    #define XQ_R256(F, i) XQ_R128(F, i) XQ_R128(F, (i) + 128)
    #define XQ_R512(F, i) XQ_R256(F, i) XQ_R256(F, (i) + 256)
    #define XQ_R1024_(F, i) XQ_R512(F, i) XQ_R512(F, (i) + 512)

    /* A 16x16 square's row and column; rows 3..12 and columns 3..11 are the board. */
    #define XQ_ROW(sq) ((sq) >> 4)
    #define XQ_COL(sq) ((sq) & 15)
    #define XQ_ON(sq) (XQ_ROW(sq) >= 3 && XQ_ROW(sq) <= 12 && XQ_COL(sq) >= 3 && XQ_COL(sq) <= 11)
    /* Both palaces: columns 6..8, rows 3..5 (Black) and 10..12 (Red). */
    #define XQ_PALACE(sq) (XQ_COL(sq) >= 6 && XQ_COL(sq) <= 8 && \
        ((XQ_ROW(sq) >= 3 && XQ_ROW(sq) <= 5) || (XQ_ROW(sq) >= 10 && XQ_ROW(sq) <= 12)))
    /* Row counted from the back rank of the half the square is in (palace: 10 for Red). */
    /* The river: rows 8..15 (bit 0x80) are Red's half, rows 0..7 Black's. */
    #define XQ_OWN_HALF(sq, side) (((sq) >> 7) != (side))
    #define XQ_REL_PALACE(sq) (XQ_OWN_HALF(sq, 1) ? XQ_ROW(sq) - 3 : XQ_ROW(sq) - 10)
    #define XQ_REL_HALF(sq) (XQ_OWN_HALF(sq, 1) ? XQ_ROW(sq) - 3 : XQ_ROW(sq) - 8)
    /* Advisors: the palace corners and centre. Elephants: the seven points of each half
       two rows and two columns apart, starting on the corner files' middle rows. */
    #define XQ_ADVISOR(sq) (XQ_PALACE(sq) && (XQ_REL_PALACE(sq) + XQ_COL(sq) - 6) % 2 == 0)
    #define XQ_ELEPHANT(sq) (XQ_ON(sq) && XQ_REL_HALF(sq) % 2 == 0 && (XQ_COL(sq) - 3) % 2 == 0 \
        && (XQ_REL_HALF(sq) / 2 + (XQ_COL(sq) - 3) / 2) % 2 == 1)
    /* A pawn stands on its own half only on the five pawn files (rows 8, 9 for Red;
       6, 7 for Black) and anywhere once across the river. */
    #define XQ_PAWN_FILE(sq) ((XQ_COL(sq) - 3) % 2 == 0)
    #define XQ_PAWN_RED(sq) (XQ_ON(sq) \
        && (!XQ_OWN_HALF(sq, 0) || (XQ_ROW(sq) <= 9 && XQ_PAWN_FILE(sq))))
    #define XQ_PAWN_BLACK(sq) (XQ_ON(sq) \
        && (!XQ_OWN_HALF(sq, 1) || (XQ_ROW(sq) >= 6 && XQ_PAWN_FILE(sq))))
    #define XQ_PUBLIC(sq) (XQ_ON(sq) ? XQ_COL(sq) - 3 + 9 * (12 - XQ_ROW(sq)) : 255)
    #define XQ_SQUARE(i) ((12 - (i) / 9) * 16 + 3 + (i) % 9)
    /* Piece id 16 + 16 * side + slot -> type: slot 0 king, 1-2 advisors, 3-4
       elephants, 5-6 horses, 7-8 rooks, 9-10 cannons, 11-15 pawns; 255 below 16. */
    #define XQ_TYPE(i) ((i) < 16 ? 255 : ((i) & 15) >= 11 ? 6 : (((i) & 15) + 1) >> 1)
    /* A horse at king - s (s one of the eight jumps) attacks the king through the leg
       at king + (leg of the jump s) - s; index d + 256 with d = -s. The leg is one
       orthogonal step along the jump's long side. */
    #define XQ_JUMP(s) ((s) == 14 || (s) == -18 || (s) == -33 || (s) == -31 || \
        (s) == -14 || (s) == 18 || (s) == 31 || (s) == 33)
    #define XQ_JUMP_LEG(s) ((s) >= 31 ? 16 : (s) <= -31 ? -16 : (s) == 18 || (s) == -14 ? 1 : -1)
    #define XQ_ATTACK_LEG(i) (XQ_JUMP(256 - (i)) ? XQ_JUMP_LEG(256 - (i)) - (256 - (i)) : 0)

    #define XQ_E_ON(sq) XQ_ON(sq),
    #define XQ_E_PALACE(sq) XQ_PALACE(sq),
    #define XQ_E_ADVISOR(sq) XQ_ADVISOR(sq),
    #define XQ_E_ELEPHANT(sq) XQ_ELEPHANT(sq),
    #define XQ_E_PAWN_RED(sq) XQ_PAWN_RED(sq),
    #define XQ_E_PAWN_BLACK(sq) XQ_PAWN_BLACK(sq),
    #define XQ_E_PUBLIC(sq) XQ_PUBLIC(sq),
    #define XQ_E_SQUARE(i) XQ_SQUARE(i),
    #define XQ_E_TYPE(i) XQ_TYPE(i),
    #define XQ_E_ATTACK_LEG(i) XQ_ATTACK_LEG(i),

    /* The horse's jumps in the book's order; the leg tables come from XQ_JUMP_LEG, the
       one statement of the horse-leg rule (蹩马腿). */
    #define XQ_HORSE_STEP(k) ((k) == 0 ? +0x0e : (k) == 1 ? -0x12 : (k) == 2 ? -0x21 \
        : (k) == 3 ? -0x1f : (k) == 4 ? -0x0e : (k) == 5 ? +0x12 : (k) == 6 ? +0x1f : +0x21)
    #define XQ_E_HORSE_STEP(k) XQ_HORSE_STEP(k),
    #define XQ_E_HORSE_LEG(k) XQ_JUMP_LEG(XQ_HORSE_STEP(k)),
    #define XQ_E_HORSE_CHECK_LEG(k) (XQ_JUMP_LEG(XQ_HORSE_STEP(k)) - XQ_HORSE_STEP(k)),
    /* Elephant jumps; the eye (塞象眼) of a jump frm -> to is its midpoint. */
    #define XQ_ELEPHANT_STEP(k) ((k) == 0 ? -0x22 : (k) == 1 ? -0x1e : (k) == 2 ? +0x22 : +0x1e)
    #define XQ_EYE(frm, to) ((frm) + ((to) - (frm)) / 2)
    #define XQ_E_ELEPHANT_STEP(k) XQ_ELEPHANT_STEP(k),
    #define XQ_E_ELEPHANT_EYE(k) XQ_EYE(0, XQ_ELEPHANT_STEP(k)),
    XQ_TABLE int HORSE_STEPS[8] = {XQ_R8(XQ_E_HORSE_STEP, 0)};
    XQ_TABLE int HORSE_LEGS[8] = {XQ_R8(XQ_E_HORSE_LEG, 0)};
    XQ_TABLE int HORSE_CHECK_LEGS[8] = {XQ_R8(XQ_E_HORSE_CHECK_LEG, 0)};
    XQ_TABLE int KING_STEPS[4] = {-0x10, +0x01, +0x10, -0x01};
    XQ_TABLE int ADVISOR_STEPS[4] = {-0x11, -0x0f, +0x11, +0x0f};
    XQ_TABLE int ELEPHANT_STEPS[4] = {XQ_R4(XQ_E_ELEPHANT_STEP, 0)};
    XQ_TABLE int ELEPHANT_EYES[4] = {XQ_R4(XQ_E_ELEPHANT_EYE, 0)};
    XQ_TABLE int ROOK_DIRS[4] = {-0x01, -0x10, +0x01, +0x10};
    XQ_TABLE int CANNON_DIRS[4] = {-0x01, +0x01, -0x10, +0x10};
    XQ_TABLE int PAWN_STEPS[2][3] = {{-1, +1, -16}, {-1, +1, +16}};
    XQ_TABLE unsigned char ON_BOARD[256] = {XQ_R256(XQ_E_ON, 0)};
    XQ_TABLE unsigned char KING_ZONE[256] = {XQ_R256(XQ_E_PALACE, 0)};
    XQ_TABLE unsigned char ADVISOR_ZONE[256] = {XQ_R256(XQ_E_ADVISOR, 0)};
    XQ_TABLE unsigned char ELEPHANT_ZONE[256] = {XQ_R256(XQ_E_ELEPHANT, 0)};
    XQ_TABLE unsigned char PAWN_ZONE[2][256] = {
        {XQ_R256(XQ_E_PAWN_RED, 0)}, {XQ_R256(XQ_E_PAWN_BLACK, 0)}};
    XQ_TABLE unsigned char PIECE_TYPE[48] = {XQ_R32(XQ_E_TYPE, 0) XQ_R16(XQ_E_TYPE, 32)};
    XQ_TABLE int TYPE_FIRST_SLOT[7] = {0, 1, 3, 5, 7, 9, 11};
    XQ_TABLE int TYPE_SLOTS[7] = {1, 2, 2, 2, 2, 2, 5};
    XQ_TABLE int HORSE_ATTACK_LEG[512] = {XQ_R512(XQ_E_ATTACK_LEG, 0)};
    XQ_TABLE unsigned char SQUARE_OF[90] = {
        XQ_R64(XQ_E_SQUARE, 0) XQ_R16(XQ_E_SQUARE, 64) XQ_R8(XQ_E_SQUARE, 80)
        XQ_R2(XQ_E_SQUARE, 88)};
    XQ_TABLE unsigned char PUBLIC_OF[256] = {XQ_R256(XQ_E_PUBLIC, 0)};
    """
    # Step of each horse jump (the book's KnightDir), in the book's order.
    const int HORSE_STEPS[8]
    # Leg square of each jump, relative to the horse (the book's KnightCheck).
    const int HORSE_LEGS[8]
    # Leg square of each jump relative to the square jumped to: where the leg sits
    # as seen from a king that a horse at king - HORSE_STEPS[k] attacks.
    const int HORSE_CHECK_LEGS[8]
    # One-step king moves (KingDir), advisor diagonals (AdvisorDir).
    const int KING_STEPS[4]
    const int ADVISOR_STEPS[4]
    # Elephant jumps (BishopDir) and the eye square each passes (BishopCheck).
    const int ELEPHANT_STEPS[4]
    const int ELEPHANT_EYES[4]
    # Ray directions of rooks (RookDir) and cannons (CannonDir).
    const int ROOK_DIRS[4]
    const int CANNON_DIRS[4]
    # Pawn steps by side: left, right, forward (PawnDir[2]).
    const int PAWN_STEPS[2][3]
    # Zone tables, index = 16x16 square, value 1 where the kind may stand.
    const unsigned char ON_BOARD[256]       # KnightPosition: any point of the board
    const unsigned char KING_ZONE[256]      # KingPosition: the nine points of both palaces
    const unsigned char ADVISOR_ZONE[256]   # AdvisorPosition: five points of each palace
    const unsigned char ELEPHANT_ZONE[256]  # BishopPosition: seven points on each side
    const unsigned char PAWN_ZONE[2][256]   # PawnPosition[side]: where that side's pawn may step to
    # Piece id -> piece type (KING..PAWN); 255 for ids that are no piece.
    const unsigned char PIECE_TYPE[48]
    # First slot and number of slots of each piece type within a side.
    const int TYPE_FIRST_SLOT[7]
    const int TYPE_SLOTS[7]
    # Index sq - k + 256 (k a king square) -> offset from k of the leg a horse on sq
    # needs to attack that king (one of +-15, +-17), 0 if sq is not a jump away.
    const int HORSE_ATTACK_LEG[512]
    # Public square (file + 9 * rank) <-> 16x16 square. PUBLIC_OF is 255 off the board.
    const unsigned char SQUARE_OF[90]
    const unsigned char PUBLIC_OF[256]
    # The elephant-eye rule as a function (the macro that built ELEPHANT_EYES).
    int XQ_EYE(int frm, int to) noexcept nogil
    # The river as a function (the macro the zone tables are built with).
    bint XQ_OWN_HALF(int sq, int side) noexcept nogil


# -- The movement rules, each stated once ------------------------------------------------
# The generator, the threat map, the attack and pin queries (attacks.pxd), the chase
# judges (judge.pxd, chase.pxd, chinese.pxd) and the RL action space (rl.pxd) state a rule only by
# these functions or by the tables above, which are built from the XQ_* macros (one
# macro per rule). The two deliberate oracles keep their own: reference.pxd (the book's
# routines, over these tables but in its own code) and validator.pxd (ElephantEye's
# tables and arithmetic). All take 16x16 squares 0..255.

cdef inline int horse_leg(int h, int q) noexcept nogil:
    # The point a horse on h needs empty to jump to q (蹩马腿); 0 if q is no jump from h.
    cdef int d = HORSE_ATTACK_LEG[h - q + 256]
    return q + d if d else 0


cdef inline int elephant_eye(int frm, int to) noexcept nogil:
    # The point an elephant jumping frm -> to needs empty (塞象眼): the midpoint.
    return XQ_EYE(frm, to)


cdef inline bint own_half(int sq, int side) noexcept nogil:
    # Is the on-board point sq on side's own half of the river? (Red's half has 0x80 set.)
    return XQ_OWN_HALF(sq, side)


cdef inline bint in_palace(int sq, int side) noexcept nogil:
    # One of the nine points of side's palace (九宫).
    return KING_ZONE[sq] and own_half(sq, side)


cdef inline int first_piece(const unsigned char* board, int sq, int d) noexcept nogil:
    # The first point after sq along direction d that is not empty: a piece, or the
    # off-board sentinel (0xFF, which has both side bits). A rook takes there; a cannon
    # (炮架) takes at first_piece(board, first_piece(board, sq, d), d), over one screen.
    # From an off-board sq it returns the next point out, also off the board (the margin
    # is wider than one step), so a cannon's second call needs no test.
    sq += d
    while not board[sq]:
        sq += d
    return sq


cdef inline int pawn_forward(int side) noexcept nogil:
    # The step of side's pawn towards the enemy (-16 for Red, +16 for Black).
    return PAWN_STEPS[side][2]


cdef inline bint pawn_attacks(int frm, int to, int side) noexcept nogil:
    # Does side's pawn on frm attack (could it move to) to? One point forward, or one
    # sideways once it has crossed the river (the table PAWN_ZONE says the same for moves).
    return to == frm + pawn_forward(side) or (
        (to == frm - 1 or to == frm + 1) and not own_half(frm, side))
