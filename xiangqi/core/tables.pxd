# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the geometry tables of the generators (both the book's and the fast path).
#
# Storage scheme: a .pxd cannot own module-level C arrays (only a .pyx can), so the
# arrays are `static` C arrays written verbatim into the one translation unit that
# cimports this file (xiangqi/_core.c), by the `cdef extern from *` block below.
# _core.pyx calls init_tables() once at import; after that they are read-only.
# A second extension cimporting this file would get its own copy and would have to
# call init_tables() itself.
#
# Map (one line per function):
#   to_sq(square)   public square -> 16x16 index                    [shared]
#   init_tables()   fills every table below from geometry           [shared, import time]

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
    static int HORSE_STEPS[8], HORSE_LEGS[8], HORSE_CHECK_LEGS[8];
    static int KING_STEPS[4], ADVISOR_STEPS[4], ELEPHANT_STEPS[4], ELEPHANT_EYES[4];
    static int ROOK_DIRS[4], CANNON_DIRS[4], PAWN_STEPS[2][3];
    static unsigned char ON_BOARD[256], KING_ZONE[256], ADVISOR_ZONE[256];
    static unsigned char ELEPHANT_ZONE[256], PAWN_ZONE[2][256];
    static unsigned char PIECE_TYPE[48];
    static int TYPE_FIRST_SLOT[7], TYPE_SLOTS[7];
    static int HORSE_ATTACK_LEG[512];
    static unsigned char SQUARE_OF[90], PUBLIC_OF[256];
    """
    # Step of each horse jump (the book's KnightDir), in the book's order.
    int HORSE_STEPS[8]
    # Leg square of each jump, relative to the horse (the book's KnightCheck).
    int HORSE_LEGS[8]
    # Leg square of each jump relative to the square jumped to: where the leg sits
    # as seen from a king that a horse at king - HORSE_STEPS[k] attacks.
    int HORSE_CHECK_LEGS[8]
    # One-step king moves (KingDir), advisor diagonals (AdvisorDir).
    int KING_STEPS[4]
    int ADVISOR_STEPS[4]
    # Elephant jumps (BishopDir) and the eye square each passes (BishopCheck).
    int ELEPHANT_STEPS[4]
    int ELEPHANT_EYES[4]
    # Ray directions of rooks (RookDir) and cannons (CannonDir).
    int ROOK_DIRS[4]
    int CANNON_DIRS[4]
    # Pawn steps by side: left, right, forward (PawnDir[2]).
    int PAWN_STEPS[2][3]
    # Zone tables, index = 16x16 square, value 1 where the kind may stand.
    unsigned char ON_BOARD[256]         # KnightPosition: any point of the board
    unsigned char KING_ZONE[256]        # KingPosition: the nine points of both palaces
    unsigned char ADVISOR_ZONE[256]     # AdvisorPosition: five points of each palace
    unsigned char ELEPHANT_ZONE[256]    # BishopPosition: seven points on each side
    unsigned char PAWN_ZONE[2][256]     # PawnPosition[side]: where that side's pawn may step to
    # Piece id -> piece type (KING..PAWN); 255 for ids that are no piece.
    unsigned char PIECE_TYPE[48]
    # First slot and number of slots of each piece type within a side.
    int TYPE_FIRST_SLOT[7]
    int TYPE_SLOTS[7]
    # Index sq - k + 256 (k a king square) -> offset from k of the leg a horse on sq
    # needs to attack that king (one of +-15, +-17), 0 if sq is not a jump away.
    int HORSE_ATTACK_LEG[512]
    # Public square (file + 9 * rank) <-> 16x16 square. PUBLIC_OF is 255 off the board.
    unsigned char SQUARE_OF[90]
    unsigned char PUBLIC_OF[256]


cdef inline int to_sq(int square) noexcept nogil:
    # public (file + 9 * rank, rank 0 = Red's back rank) -> 16x16 (row 12 = Red's back rank)
    return (12 - square // 9) * 16 + 3 + square % 9


cdef inline void init_tables() noexcept:
    cdef int sq, row, col, k, side, rel, dr, dc, i
    cdef int knight_dir[8]
    cdef int king_dir[4]
    cdef int advisor_dir[4]
    cdef int bishop_dir[4]
    cdef int rook_dir[4]
    cdef int cannon_dir[4]
    # The book's direction arrays, in its order (section 4.2).
    knight_dir[:] = [+0x0e, -0x12, -0x21, -0x1f, -0x0e, +0x12, +0x1f, +0x21]
    king_dir[:] = [-0x10, +0x01, +0x10, -0x01]
    advisor_dir[:] = [-0x11, -0x0f, +0x11, +0x0f]
    bishop_dir[:] = [-0x22, -0x1e, +0x22, +0x1e]
    rook_dir[:] = [-0x01, -0x10, +0x01, +0x10]
    cannon_dir[:] = [-0x01, +0x01, -0x10, +0x10]
    for k in range(8):
        HORSE_STEPS[k] = knight_dir[k]
        # The leg is one orthogonal step along the jump's long side.
        dr = (knight_dir[k] + 0x22) // 16 - 2
        dc = knight_dir[k] - 16 * dr
        HORSE_LEGS[k] = 16 * (dr // 2) if (dr == 2 or dr == -2) else dc // 2
        HORSE_CHECK_LEGS[k] = HORSE_LEGS[k] - HORSE_STEPS[k]
    for k in range(4):
        KING_STEPS[k] = king_dir[k]
        ADVISOR_STEPS[k] = advisor_dir[k]
        ELEPHANT_STEPS[k] = bishop_dir[k]
        ELEPHANT_EYES[k] = bishop_dir[k] // 2   # the midpoint of a two-by-two jump
        ROOK_DIRS[k] = rook_dir[k]
        CANNON_DIRS[k] = cannon_dir[k]
    for side in range(2):
        PAWN_STEPS[side][0] = -1
        PAWN_STEPS[side][1] = +1
        PAWN_STEPS[side][2] = -16 if side == 0 else +16

    for sq in range(256):
        row = sq // 16
        col = sq % 16
        PUBLIC_OF[sq] = 255
        ON_BOARD[sq] = 3 <= row <= 12 and 3 <= col <= 11
        KING_ZONE[sq] = 6 <= col <= 8 and (3 <= row <= 5 or 10 <= row <= 12)
        rel = row - 3 if row <= 7 else row - 10
        ADVISOR_ZONE[sq] = KING_ZONE[sq] and (rel + col - 6) % 2 == 0
        rel = row - 3 if row <= 7 else row - 8
        ELEPHANT_ZONE[sq] = (ON_BOARD[sq] and rel % 2 == 0 and (col - 3) % 2 == 0
                             and (rel // 2 + (col - 3) // 2) % 2 == 1)
        # A pawn stands on its own half only on the five pawn files (rows 8, 9 for
        # Red; 6, 7 for Black) and anywhere once across the river.
        PAWN_ZONE[0][sq] = ON_BOARD[sq] and (row <= 7 or (row <= 9 and (col - 3) % 2 == 0))
        PAWN_ZONE[1][sq] = ON_BOARD[sq] and (row >= 8 or (row >= 6 and (col - 3) % 2 == 0))
    for i in range(90):
        SQUARE_OF[i] = to_sq(i)
        PUBLIC_OF[to_sq(i)] = i

    for i in range(48):
        PIECE_TYPE[i] = 255
    TYPE_FIRST_SLOT[:] = [0, 1, 3, 5, 7, 9, 11]
    TYPE_SLOTS[:] = [1, 2, 2, 2, 2, 2, 5]
    for side in range(2):
        for k in range(7):
            for i in range(TYPE_SLOTS[k]):
                PIECE_TYPE[16 + 16 * side + TYPE_FIRST_SLOT[k] + i] = k

    for i in range(512):
        HORSE_ATTACK_LEG[i] = 0
    for k in range(8):
        # A horse on king - HORSE_STEPS[k] attacks through king + HORSE_CHECK_LEGS[k].
        HORSE_ATTACK_LEG[256 - HORSE_STEPS[k]] = HORSE_CHECK_LEGS[k]
