# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled rules core: the book's 16x16 board, move generation, check detection, perft.

Everything C-level trusts its inputs; the ``def`` methods of ``Board`` are the
boundary and check every value a caller passes. See ``_core.pxd`` for the map.
"""

from cpython.list cimport PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from xiangqi.core.attacks cimport attackers_of, pin_mask

# ---------------------------------------------------------------------------
# Tables. Filled once at import by _init_tables() from geometry, read-only after.
# ---------------------------------------------------------------------------

# Step of each horse jump (the book's KnightDir), in the book's order.
cdef int HORSE_STEPS[8]
# Leg square of each jump, relative to the horse (the book's KnightCheck).
cdef int HORSE_LEGS[8]
# Leg square of each jump relative to the square jumped to: where the leg sits
# as seen from a king that a horse at king - HORSE_STEPS[k] attacks.
cdef int HORSE_CHECK_LEGS[8]
# One-step king moves (KingDir), advisor diagonals (AdvisorDir).
cdef int KING_STEPS[4]
cdef int ADVISOR_STEPS[4]
# Elephant jumps (BishopDir) and the eye square each passes (BishopCheck).
cdef int ELEPHANT_STEPS[4]
cdef int ELEPHANT_EYES[4]
# Ray directions of rooks (RookDir) and cannons (CannonDir).
cdef int ROOK_DIRS[4]
cdef int CANNON_DIRS[4]
# Pawn steps by side: left, right, forward (PawnDir[2]).
cdef int PAWN_STEPS[2][3]

# Zone tables, index = 16x16 square, value 1 where the kind may stand.
cdef unsigned char ON_BOARD[256]        # KnightPosition: any point of the board
cdef unsigned char KING_ZONE[256]       # KingPosition: the nine points of both palaces
cdef unsigned char ADVISOR_ZONE[256]    # AdvisorPosition: five points of each palace
cdef unsigned char ELEPHANT_ZONE[256]   # BishopPosition: seven points on each side
cdef unsigned char PAWN_ZONE[2][256]    # PawnPosition[side]: where that side's pawn may step to
cdef unsigned char RED_HALF[256]        # 1 on rows 8..12 (Red's side of the river)

# Piece id -> piece type (KING..PAWN); 255 for ids that are no piece.
cdef unsigned char PIECE_TYPE[48]
# First slot and number of slots of each piece type within a side.
cdef int TYPE_FIRST_SLOT[7]
cdef int TYPE_SLOTS[7]

# Index sq - k + 256 (k a king square) -> offset from k of the leg a horse on sq
# needs to attack that king (one of +-15, +-17), 0 if sq is not a jump away.
cdef int HORSE_ATTACK_LEG[512]

# Public square (file + 9 * rank) <-> 16x16 square. PUBLIC_OF is 255 off the board.
cdef unsigned char SQUARE_OF[90]
cdef unsigned char PUBLIC_OF[256]

# Tables of the second, independent algorithm (ElephantEye's legalMove); they
# share nothing with the generator tables above.
# Index dst - src + 256 -> 1 king step, 2 advisor step, 3 elephant step, 0 none.
cdef unsigned char EE_LEGAL_SPAN[512]
# Index dst - src + 256 -> offset of the horse leg from src, 0 if not a horse jump.
cdef int EE_HORSE_PIN[512]
# 16x16 square -> 1 inside either palace.
cdef unsigned char EE_IN_FORT[256]

PIECE_NAMES = ("king", "advisor", "elephant", "horse", "rook", "cannon", "pawn")
SIDE_NAMES = ("Red", "Black")
FILE_NAMES = "abcdefghi"


cdef inline int to_sq(int square) noexcept nogil:
    # public (file + 9 * rank, rank 0 = Red's back rank) -> 16x16 (row 12 = Red's back rank)
    return (12 - square // 9) * 16 + 3 + square % 9


cdef void _init_tables() noexcept:
    cdef int sq, row, col, k, side, rel, d, dr, dc, i
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
        RED_HALF[sq] = ON_BOARD[sq] and row >= 8
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
        EE_IN_FORT[sq] = 0
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

    # Second algorithm: spans and horse pins by coordinate difference.
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
    for row in range(3, 13):
        for col in range(6, 9):
            if row <= 5 or row >= 10:
                EE_IN_FORT[row * 16 + col] = 1

    for i in range(512):
        HORSE_ATTACK_LEG[i] = 0
    for k in range(8):
        # A horse on king - HORSE_STEPS[k] attacks through king + HORSE_CHECK_LEGS[k].
        HORSE_ATTACK_LEG[256 - HORSE_STEPS[k]] = HORSE_CHECK_LEGS[k]


_init_tables()


# ---------------------------------------------------------------------------
# Move generation: the book's routines (section 4.2). Each appends pseudo-legal
# moves of the piece on p to moves[n:] and returns the new count.
# ---------------------------------------------------------------------------

cdef inline int save_move(int* moves, int n, int p, int to) noexcept nogil:
    # ports SaveMove of 4.2 (store a pseudo-legal move)
    moves[n] = p | (to << 8)
    return n + 1


cdef inline int knight_move(const BoardState* b, int p, int side_tag, int* moves, int n) noexcept nogil:
    # ports KnightMove
    cdef int k, to, leg
    for k in range(8):
        to = p + HORSE_STEPS[k]
        if ON_BOARD[to]:
            leg = p + HORSE_LEGS[k]
            if not b.squares[leg]:
                if not (b.squares[to] & side_tag):
                    n = save_move(moves, n, p, to)
    return n


cdef inline int king_move(const BoardState* b, int p, int side_tag, int* moves, int n) noexcept nogil:
    # ports KingMove
    cdef int k, to
    for k in range(4):
        to = p + KING_STEPS[k]
        if KING_ZONE[to]:
            if not (b.squares[to] & side_tag):
                n = save_move(moves, n, p, to)
    return n


cdef inline int advisor_move(const BoardState* b, int p, int side_tag, int* moves, int n) noexcept nogil:
    # ports AdvisorMove
    cdef int k, to
    for k in range(4):
        to = p + ADVISOR_STEPS[k]
        if ADVISOR_ZONE[to]:
            if not (b.squares[to] & side_tag):
                n = save_move(moves, n, p, to)
    return n


cdef inline int bishop_move(const BoardState* b, int p, int side_tag, int* moves, int n) noexcept nogil:
    # ports BishopMove
    cdef int k, to, eye
    for k in range(4):
        to = p + ELEPHANT_STEPS[k]
        if ELEPHANT_ZONE[to]:
            eye = p + ELEPHANT_EYES[k]
            if not b.squares[eye]:
                if not (b.squares[to] & side_tag):
                    n = save_move(moves, n, p, to)
    return n


cdef inline int rook_move(const BoardState* b, int p, int side_tag, int* moves, int n) noexcept nogil:
    # ports RookMove
    cdef int k, j, to
    for k in range(4):
        for j in range(1, 10):
            to = p + j * ROOK_DIRS[k]
            if not ON_BOARD[to]:
                break
            if not b.squares[to]:
                n = save_move(moves, n, p, to)
            elif b.squares[to] & side_tag:
                break
            else:
                n = save_move(moves, n, p, to)
                break
    return n


cdef inline int cannon_move(const BoardState* b, int p, int side_tag, int* moves, int n) noexcept nogil:
    # ports CannonMove
    cdef int k, j, to, over
    for k in range(4):
        over = 0
        for j in range(1, 10):
            to = p + j * CANNON_DIRS[k]
            if not ON_BOARD[to]:
                break
            if not b.squares[to]:
                if not over:
                    n = save_move(moves, n, p, to)
            else:
                if not over:
                    over = 1
                else:
                    if not (b.squares[to] & side_tag):
                        n = save_move(moves, n, p, to)
                    break
    return n


cdef inline int pawn_move(const BoardState* b, int p, int side, int side_tag, int* moves, int n) noexcept nogil:
    # ports PawnMove
    cdef int k, to
    for k in range(3):
        to = p + PAWN_STEPS[side][k]
        if PAWN_ZONE[side][to]:
            if not (b.squares[to] & side_tag):
                n = save_move(moves, n, p, to)
    return n


cdef int generate_pseudo_book(BoardState* b, int* moves) noexcept nogil:
    """All pseudo-legal moves of the side to move by the book's routines, slot by slot."""
    cdef int side = b.side
    cdef int side_tag = 16 + 16 * side
    cdef int n = 0, slot, p
    for slot in range(16):
        p = b.piece_square[side_tag + slot]
        if not p:
            continue
        if slot == 0:
            n = king_move(b, p, side_tag, moves, n)
        elif slot <= 2:
            n = advisor_move(b, p, side_tag, moves, n)
        elif slot <= 4:
            n = bishop_move(b, p, side_tag, moves, n)
        elif slot <= 6:
            n = knight_move(b, p, side_tag, moves, n)
        elif slot <= 8:
            n = rook_move(b, p, side_tag, moves, n)
        elif slot <= 10:
            n = cannon_move(b, p, side_tag, moves, n)
        else:
            n = pawn_move(b, p, side, side_tag, moves, n)
    return n


cdef int generate_pseudo(BoardState* b, int* moves) noexcept nogil:
    """All pseudo-legal moves of the side to move: the fast path.

    The same moves as generate_pseudo_book, in the same order, but the off-board
    sentinel (which has both side bits set) replaces the on-board tests of horse,
    rook and cannon, and rays advance by addition.
    """
    cdef int side = b.side
    cdef int side_tag = 16 + 16 * side
    cdef const unsigned char* sq = b.squares
    cdef const unsigned char* pawn_zone = PAWN_ZONE[side]
    cdef int n = 0, slot, p, k, to, d
    p = b.piece_square[side_tag]
    if p:
        for k in range(4):
            to = p + KING_STEPS[k]
            if KING_ZONE[to] and not (sq[to] & side_tag):
                moves[n] = p | (to << 8)
                n += 1
    for slot in range(1, 3):
        p = b.piece_square[side_tag + slot]
        if p:
            for k in range(4):
                to = p + ADVISOR_STEPS[k]
                if ADVISOR_ZONE[to] and not (sq[to] & side_tag):
                    moves[n] = p | (to << 8)
                    n += 1
    for slot in range(3, 5):
        p = b.piece_square[side_tag + slot]
        if p:
            for k in range(4):
                to = p + ELEPHANT_STEPS[k]
                if ELEPHANT_ZONE[to] and not sq[p + ELEPHANT_EYES[k]] and not (sq[to] & side_tag):
                    moves[n] = p | (to << 8)
                    n += 1
    for slot in range(5, 7):
        p = b.piece_square[side_tag + slot]
        if p:
            for k in range(8):
                to = p + HORSE_STEPS[k]
                if not (sq[to] & side_tag) and not sq[p + HORSE_LEGS[k]]:
                    moves[n] = p | (to << 8)
                    n += 1
    for slot in range(7, 9):
        p = b.piece_square[side_tag + slot]
        if p:
            for k in range(4):
                d = ROOK_DIRS[k]
                to = p + d
                while not sq[to]:
                    moves[n] = p | (to << 8)
                    n += 1
                    to += d
                if not (sq[to] & side_tag):
                    moves[n] = p | (to << 8)
                    n += 1
    for slot in range(9, 11):
        p = b.piece_square[side_tag + slot]
        if p:
            for k in range(4):
                d = CANNON_DIRS[k]
                to = p + d
                while not sq[to]:
                    moves[n] = p | (to << 8)
                    n += 1
                    to += d
                if sq[to] != OFF_BOARD:
                    to += d
                    while not sq[to]:
                        to += d
                    if not (sq[to] & side_tag):
                        moves[n] = p | (to << 8)
                        n += 1
    for slot in range(11, 16):
        p = b.piece_square[side_tag + slot]
        if p:
            for k in range(3):
                to = p + PAWN_STEPS[side][k]
                if pawn_zone[to] and not (sq[to] & side_tag):
                    moves[n] = p | (to << 8)
                    n += 1
    return n


# ---------------------------------------------------------------------------
# Make / unmake.
# ---------------------------------------------------------------------------

cdef int make_move(BoardState* b, int mv) noexcept nogil:
    """Play mv, flip the side to move, and return the captured piece id (0 if none)."""
    cdef int frm = mv & 255, to = mv >> 8
    cdef int pc = b.squares[frm], cap = b.squares[to]
    b.piece_square[pc] = to
    if cap:
        b.piece_square[cap] = 0
    b.squares[to] = pc
    b.squares[frm] = 0
    b.side ^= 1
    return cap


cdef void unmake_move(BoardState* b, int mv, int cap) noexcept nogil:
    """Undo make_move(mv), given the piece it captured."""
    cdef int frm = mv & 255, to = mv >> 8
    cdef int pc = b.squares[to]
    b.squares[frm] = pc
    b.squares[to] = cap
    b.piece_square[pc] = frm
    if cap:
        b.piece_square[cap] = to
    b.side ^= 1


# ---------------------------------------------------------------------------
# Check detection.
# ---------------------------------------------------------------------------

cdef bint book_check(const BoardState* b, int side) noexcept nogil:
    # ports Check(lSide) of section 4.6, without the book's two defects: each rook
    # and each cannon is judged on its own (r and the screen count start afresh).
    cdef int w_king = b.piece_square[16], b_king = b.piece_square[32]
    cdef int opp_tag = 32 - side * 16       # the book's SideTag: the attacker's base id
    cdef int fside = 1 - side
    cdef int p, q, n, m, i, k, r, step, over
    if not w_king or not b_king:
        return 0
    # Kings facing on one file with nothing between (flying general).
    if w_king % 16 == b_king % 16:
        r = 1
        p = w_king - 16
        while p != b_king:
            if b.squares[p]:
                r = 0
                break
            p -= 16
        if r:
            return 1
    q = b.piece_square[48 - opp_tag]
    # Horses.
    for i in range(5, 7):
        p = b.piece_square[opp_tag + i]
        if not p:
            continue
        for k in range(8):
            n = p + HORSE_STEPS[k]
            if n != q:
                continue
            if ON_BOARD[n]:
                m = p + HORSE_LEGS[k]
                if not b.squares[m]:
                    return 1
    # Rooks.
    for i in range(7, 9):
        p = b.piece_square[opp_tag + i]
        if not p:
            continue
        r = 1
        if p % 16 == q % 16:
            step = -16 if p > q else 16
        elif p // 16 == q // 16:
            step = -1 if p > q else 1
        else:
            continue
        p += step
        while p != q:
            if b.squares[p]:
                r = 0
                break
            p += step
        if r:
            return 1
    # Cannons.
    for i in range(9, 11):
        p = b.piece_square[opp_tag + i]
        if not p:
            continue
        over = 0
        if p % 16 == q % 16:
            step = -16 if p > q else 16
        elif p // 16 == q // 16:
            step = -1 if p > q else 1
        else:
            continue
        p += step
        while p != q:
            if b.squares[p]:
                if not over:
                    over = 1
                else:
                    over = 2
                    break
            p += step
        if over == 1:
            return 1
    # Pawns.
    for i in range(11, 16):
        p = b.piece_square[opp_tag + i]
        if not p:
            continue
        for k in range(3):
            n = p + PAWN_STEPS[fside][k]
            if n == q and PAWN_ZONE[fside][n]:
                return 1
    return 0


cdef inline bint is_piece(int pc, int opp_base, int first_slot, int slots) noexcept nogil:
    # pc is one of the opponent's pieces of the kind occupying slots first_slot..+slots-1
    return <unsigned int>(pc - opp_base - first_slot) < <unsigned int>slots


cdef inline bint line_attacked(const BoardState* b, int q, int d, int opp) noexcept nogil:
    # Along direction d from the king on q: is the first piece an enemy rook or the
    # enemy king (facing), or the second piece, behind one screen, an enemy cannon?
    cdef int sq = q + d, pc
    while not b.squares[sq]:
        sq += d
    pc = b.squares[sq]
    if is_piece(pc, opp, 7, 2) or pc == opp:
        return 1
    if pc == OFF_BOARD:
        return 0
    sq += d
    while not b.squares[sq]:
        sq += d
    return is_piece(b.squares[sq], opp, 9, 2)


cdef bint in_check(const BoardState* b, int side) noexcept nogil:
    """Is side's king attacked? Works back from the king: pawns, horses, then rays."""
    cdef int q = b.piece_square[16 + 16 * side]
    cdef int opp = 32 - 16 * side
    cdef int k
    if not q:
        return 0    # no king: only an empty Board() that was never loaded
    # Pawns: one step behind the king (as the attacker moves) or beside it.
    if is_piece(b.squares[q - PAWN_STEPS[1 - side][2]], opp, 11, 5):
        return 1
    if is_piece(b.squares[q - 1], opp, 11, 5) or is_piece(b.squares[q + 1], opp, 11, 5):
        return 1
    # Horses: a horse a jump away whose leg (seen from the king) is empty.
    for k in range(8):
        if is_piece(b.squares[q - HORSE_STEPS[k]], opp, 5, 2) and not b.squares[q + HORSE_CHECK_LEGS[k]]:
            return 1
    # Rays: the first piece may be a rook or the facing king; the second a cannon.
    for k in range(4):
        if line_attacked(b, q, ROOK_DIRS[k], opp):
            return 1
    return 0


cdef inline int toward(int k, int sq) noexcept nogil:
    # Direction from k to sq when they share a rank or file, else 0.
    if ((sq ^ k) & 0xf0) == 0:
        return 1 if sq > k else -1
    if ((sq ^ k) & 0x0f) == 0:
        return 16 if sq > k else -16
    return 0


cdef inline bint move_exposes(const BoardState* b, int k, int frm, int to) noexcept nogil:
    # After a non-king move frm -> to by a side that was not in check (b.side is now
    # the opponent): is that side's king on k attacked? Only lines through frm or to
    # and the horse leg on frm can have changed, so only those are tested.
    cdef int opp = 16 + 16 * b.side
    cdef int d_from = toward(k, frm), d_to = toward(k, to), d = frm - k, j
    if d_from and line_attacked(b, k, d_from, opp):
        return 1
    if d_to and d_to != d_from and line_attacked(b, k, d_to, opp):
        return 1
    if d == 15 or d == -15 or d == 17 or d == -17:
        for j in range(8):
            if HORSE_CHECK_LEGS[j] == d and is_piece(b.squares[k - HORSE_STEPS[j]], opp, 5, 2):
                return 1
    return 0


# ---------------------------------------------------------------------------
# Legal moves and perft.
# ---------------------------------------------------------------------------

cdef inline bint mark_threats(const BoardState* b, int k, unsigned char* hot) noexcept nogil:
    # Is the side to move (king on k) in check? Found while marking hot[sq] = 1 on every
    # square where a move starting or ending there could leave its king attacked: the
    # king itself; the squares between the king and an enemy rook or king with at most
    # one piece between them, or an enemy cannon with at most two (one move changes that
    # count by at most one); the leg square of each enemy horse a jump away. In check,
    # every square is hot.
    cdef int opp = 32 - 16 * b.side, slot, p, d, sq, between
    cdef bint checked = (is_piece(b.squares[k - PAWN_STEPS[b.side ^ 1][2]], opp, 11, 5)
                         or is_piece(b.squares[k - 1], opp, 11, 5)
                         or is_piece(b.squares[k + 1], opp, 11, 5))
    memset(hot, 0, 256)
    hot[k] = 1
    for slot in range(11):
        p = b.piece_square[opp + slot]
        if not p:
            continue
        if slot == 5 or slot == 6:
            d = HORSE_ATTACK_LEG[p - k + 256]
            if d:
                if b.squares[k + d]:
                    hot[k + d] = 1
                else:
                    checked = 1
        elif slot == 0 or slot >= 7:
            d = toward(k, p)
            if not d:
                continue
            between = 0
            sq = k + d
            while sq != p:
                between += b.squares[sq] != 0
                sq += d
            if between == (1 if slot >= 9 else 0):
                checked = 1
            elif between > (2 if slot >= 9 else 1):
                continue
            sq = k + d
            while sq != p:
                hot[sq] = 1
                sq += d
            hot[p] = 1
    if checked:
        memset(hot, 1, 256)
    return checked


cdef inline bint is_legal_pseudo(BoardState* b, int mv, int k, bint checked) noexcept nogil:
    # Is the pseudo-legal mv (one that mark_threats flagged) legal for the side to move,
    # whose king is on k? Make, test, unmake: the full in_check for king moves and
    # evasions, otherwise only the lines through the move's squares (move_exposes).
    cdef int frm = mv & 255, cap
    cdef bint attacked
    cap = make_move(b, mv)
    if checked or frm == k:
        attacked = in_check(b, b.side ^ 1)
    else:
        attacked = move_exposes(b, k, frm, mv >> 8)
    unmake_move(b, mv, cap)
    return not attacked


cdef int generate_legal_moves(BoardState* b, int* moves) noexcept nogil:
    """Fill moves with the legal moves of the side to move; return their number."""
    cdef int n = generate_pseudo(b, moves)
    cdef int k = b.piece_square[16 + 16 * b.side]
    cdef unsigned char hot[256]
    cdef bint checked
    cdef int i, kept = 0, mv
    if not k:
        return 0    # no king: only an empty Board() that was never loaded
    checked = mark_threats(b, k, hot)
    for i in range(n):
        mv = moves[i]
        if not (hot[mv & 255] | hot[mv >> 8]) or is_legal_pseudo(b, mv, k, checked):
            moves[kept] = mv
            kept += 1
    return kept


cdef int count_legal_moves(BoardState* b) noexcept nogil:
    """Number of legal moves of the side to move (perft's last ply: nothing is kept)."""
    cdef int moves[MAX_MOVES]
    cdef int n = generate_pseudo(b, moves)
    cdef int k = b.piece_square[16 + 16 * b.side]
    cdef unsigned char hot[256]
    cdef bint checked
    cdef int i, count = 0, mv
    if not k:
        return 0    # no king: only an empty Board() that was never loaded
    checked = mark_threats(b, k, hot)
    for i in range(n):
        mv = moves[i]
        count += not (hot[mv & 255] | hot[mv >> 8]) or is_legal_pseudo(b, mv, k, checked)
    return count


cdef int generate_legal_book(BoardState* b, int* moves) noexcept nogil:
    # The book's path: pseudo-legal moves of the book's routines kept by the legal
    # SaveMove of 4.6 (make, Check(side), unmake).
    cdef int n = generate_pseudo_book(b, moves)
    cdef int mover = b.side, i, kept = 0, mv, cap
    for i in range(n):
        mv = moves[i]
        cap = make_move(b, mv)
        if not book_check(b, mover):
            moves[kept] = mv
            kept += 1
        unmake_move(b, mv, cap)
    return kept


cdef long long perft_nodes(BoardState* b, int depth) noexcept nogil:
    """Leaf count at depth; the last ply is counted without being walked into."""
    cdef int moves[MAX_MOVES]
    cdef int n, i, mv, cap
    cdef long long total = 0
    if depth <= 0:
        return 1
    if depth == 1:
        return count_legal_moves(b)
    n = generate_legal_moves(b, moves)
    for i in range(n):
        mv = moves[i]
        cap = make_move(b, mv)
        total += perft_nodes(b, depth - 1)
        unmake_move(b, mv, cap)
    return total


cdef long long perft_full(BoardState* b, int depth) noexcept nogil:
    """perft that makes and unmakes every move down to the leaves (no bulk counting)."""
    cdef int moves[MAX_MOVES]
    cdef int n, i, mv, cap
    cdef long long total = 0
    if depth <= 0:
        return 1
    n = generate_legal_moves(b, moves)
    for i in range(n):
        mv = moves[i]
        cap = make_move(b, mv)
        total += 1 if depth == 1 else perft_full(b, depth - 1)
        unmake_move(b, mv, cap)
    return total


cdef long long perft_book(BoardState* b, int depth) noexcept nogil:
    # Reference perft: the book's generator and Check only.
    cdef int moves[MAX_MOVES]
    cdef int n, i, cap
    cdef long long total = 0
    if depth <= 0:
        return 1
    n = generate_legal_book(b, moves)
    if depth == 1:
        return n
    for i in range(n):
        cap = make_move(b, moves[i])
        total += perft_book(b, depth - 1)
        unmake_move(b, moves[i], cap)
    return total


# ---------------------------------------------------------------------------
# The second algorithm: ElephantEye's single-move validator.
# ---------------------------------------------------------------------------

cdef bint legal_move_ee(const BoardState* b, int mv) noexcept nogil:
    # ports legalMove (pseudo-legality of one move; the caller adds the check test)
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


# ---------------------------------------------------------------------------
# The Python boundary.
# ---------------------------------------------------------------------------

def square_name(int square):
    """Name of a public square (0..89, file + 9 * rank), e.g. 40 -> 'e4'."""
    if not 0 <= square < 90:
        raise ValueError(f"square must be in 0..89, got {square}")
    return FILE_NAMES[square % 9] + str(square // 9)


cdef inline int check_int(object value, str name, int low, int high) except -1:
    # An int (not a float, not a bool) in low..high, else TypeError / ValueError.
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {value}")
    return value


cdef inline int check_square(object square) except -1:
    # A public square 0..89; like Move, the boundary refuses bools and floats.
    return check_int(square, "square", 0, 89)


cdef void clear_board(BoardState* b) noexcept nogil:
    # An empty board: no pieces, sentinels off the board, Red to move.
    cdef int sq
    memset(b, 0, sizeof(BoardState))
    for sq in range(256):
        if not ON_BOARD[sq]:
            b.squares[sq] = OFF_BOARD


cdef inline bint may_stand(int pt, int color, int sq) noexcept nogil:
    # Can a piece of this kind and color ever stand on sq in a real game?
    cdef bint own_half = RED_HALF[sq] == (color == 0)
    if pt == KING:
        return KING_ZONE[sq] and own_half
    if pt == ADVISOR:
        return ADVISOR_ZONE[sq] and own_half
    if pt == ELEPHANT:
        return ELEPHANT_ZONE[sq] and own_half
    if pt == PAWN:
        return PAWN_ZONE[color][sq]
    return ON_BOARD[sq]


cdef str too_many(int color, int pt):
    n = TYPE_SLOTS[pt]
    return f"{SIDE_NAMES[color]} has more than {n} {PIECE_NAMES[pt]}{'s' if n > 1 else ''}"


cdef str misplaced(int color, int pt, int square):
    where = f"{SIDE_NAMES[color]} {PIECE_NAMES[pt]} on {square_name(square)}"
    why = (
        "is outside its palace",
        "is not on one of the five advisor points of its palace",
        "is not on one of the seven elephant points of its side",
        "is off the board",
        "is off the board",
        "is off the board",
        "is behind its start rank or off the pawn files before the river",
    )[pt]
    return f"{where} {why}"


cdef class Board:
    """One xiangqi position in the book's layout, plus the undo records of push().

    The boundary speaks public squares (0..89, file + 9 * rank, rank 0 on Red's
    side) and piece codes 0 (empty) or 1 + type + 7 * color, type in
    KING..PAWN = 0..6 and color Red = 0, Black = 1.
    """

    def __cinit__(self):
        clear_board(&self.st)
        self.history = []

    def load(self, const unsigned char[::1] codes not None, object side_to_move):
        """Replace the position with 90 piece codes and a side to move, after checking it.

        Raises ValueError naming the first problem: piece counts, a piece on a
        point its kind can never reach, facing kings, or the side not to move
        being in check. On error the board is left unchanged.
        """
        cdef BoardState st
        cdef int counts[2][7]
        cdef int square, code, pt, color, sq, pc, k
        if codes.shape[0] != 90:
            raise ValueError(f"expected 90 squares, got {codes.shape[0]}")
        cdef int side = check_int(side_to_move, "side (0 Red, 1 Black)", 0, 1)
        clear_board(&st)
        memset(counts, 0, sizeof(counts))
        st.side = side
        for square in range(90):
            code = codes[square]
            if code == 0:
                continue
            if code > 14:
                raise ValueError(f"piece code {code} on {square_name(square)} is not in 0..14")
            pt = (code - 1) % 7
            color = (code - 1) // 7
            sq = SQUARE_OF[square]
            if counts[color][pt] == TYPE_SLOTS[pt]:
                raise ValueError(too_many(color, pt))
            if not may_stand(pt, color, sq):
                raise ValueError(misplaced(color, pt, square))
            pc = 16 + 16 * color + TYPE_FIRST_SLOT[pt] + counts[color][pt]
            counts[color][pt] += 1
            st.squares[sq] = pc
            st.piece_square[pc] = sq
        for color in range(2):
            if counts[color][KING] == 0:
                raise ValueError(f"{SIDE_NAMES[color]} has no king")
        # Kings facing on an open file.
        sq = st.piece_square[16] - 16
        while sq != st.piece_square[32] and sq >= 0x33 and not st.squares[sq]:
            sq -= 16
        if sq == st.piece_square[32]:
            raise ValueError(f"the kings face each other on file {FILE_NAMES[(sq % 16) - 3]}")
        if in_check(&st, 1 - side):
            raise ValueError(f"{SIDE_NAMES[1 - side]} is in check but it is {SIDE_NAMES[side]}'s move")
        memcpy(&self.st, &st, sizeof(BoardState))
        self.history = []

    def codes(self):
        """The 90 piece codes by public square, as bytes."""
        cdef bytearray out = bytearray(90)
        cdef int square
        cdef int pc
        for square in range(90):
            pc = self.st.squares[SQUARE_OF[square]]
            if pc:
                out[square] = 1 + PIECE_TYPE[pc] + 7 * (pc >= 32)
        return bytes(out)

    def piece_at(self, square):
        """Piece code on a public square, 0 if empty."""
        cdef int pc = self.st.squares[SQUARE_OF[check_square(square)]]
        if not pc:
            return 0
        return 1 + PIECE_TYPE[pc] + 7 * (pc >= 32)

    @property
    def side(self):
        """Side to move: 0 Red, 1 Black."""
        return self.st.side

    @property
    def ply(self):
        """Number of moves pushed and not yet popped."""
        return len(self.history)

    def copy(self, bint history=True):
        """An independent copy of the position, with its undo records unless history=False."""
        cdef Board other = Board.__new__(Board)
        memcpy(&other.st, &self.st, sizeof(BoardState))
        if history:
            other.history = list(self.history)
        return other

    def legal_moves(self, list table not None):
        """Legal moves as table[from_square * 90 + to_square] for each; table must hold 8100."""
        cdef int moves[MAX_MOVES]
        cdef int n, i, mv
        cdef object item
        if len(table) != 8100:
            raise ValueError("table must have 8100 entries")
        n = generate_legal_moves(&self.st, moves)
        cdef list out = PyList_New(n)
        for i in range(n):
            mv = moves[i]
            item = <object>PyList_GET_ITEM(table, PUBLIC_OF[mv & 255] * 90 + PUBLIC_OF[mv >> 8])
            Py_INCREF(item)     # PyList_SET_ITEM steals this reference
            PyList_SET_ITEM(out, i, item)
        return out

    def legal_move_indices(self, bint book=False):
        """Legal moves as from_square * 90 + to_square; book=True uses the book's Check."""
        cdef int moves[MAX_MOVES]
        cdef int n, i, mv
        n = generate_legal_book(&self.st, moves) if book else generate_legal_moves(&self.st, moves)
        return [PUBLIC_OF[moves[i] & 255] * 90 + PUBLIC_OF[moves[i] >> 8] for i in range(n)]

    def count_legal(self):
        """Number of legal moves."""
        cdef int moves[MAX_MOVES]
        return generate_legal_moves(&self.st, moves)

    def is_pseudo_legal(self, from_square, to_square):
        """The second algorithm alone: does the move follow the piece's movement rule?"""
        cdef int mv = SQUARE_OF[check_square(from_square)] | (SQUARE_OF[check_square(to_square)] << 8)
        return bool(legal_move_ee(&self.st, mv))

    def is_legal(self, from_square, to_square):
        """Is the move legal: the second algorithm, then make, own-king check, unmake."""
        cdef int mv = SQUARE_OF[check_square(from_square)] | (SQUARE_OF[check_square(to_square)] << 8)
        return bool(self._is_legal(mv))

    cdef bint _is_legal(self, int mv) noexcept:
        cdef int cap, mover = self.st.side
        cdef bint ok
        if not legal_move_ee(&self.st, mv):
            return 0
        cap = make_move(&self.st, mv)
        ok = not in_check(&self.st, mover)
        unmake_move(&self.st, mv, cap)
        return ok

    def push(self, from_square, to_square):
        """Play the move if it is legal and return True; otherwise change nothing, return False."""
        cdef int mv = SQUARE_OF[check_square(from_square)] | (SQUARE_OF[check_square(to_square)] << 8)
        cdef int cap
        if not self._is_legal(mv):
            return False
        cap = make_move(&self.st, mv)
        self.history.append(mv | (cap << 16))
        return True

    def pop(self):
        """Undo the last push(); return it as from_square * 90 + to_square."""
        if not self.history:
            raise IndexError("pop from a position with no moves to undo")
        cdef int rec = self.history.pop()
        cdef int mv = rec & 0xffff
        unmake_move(&self.st, mv, rec >> 16)
        return PUBLIC_OF[mv & 255] * 90 + PUBLIC_OF[mv >> 8]

    def is_check(self, bint book=False):
        """Is the side to move in check? book=True uses the book's Check routine."""
        if book:
            return bool(book_check(&self.st, self.st.side))
        return bool(in_check(&self.st, self.st.side))

    def perft(self, object depth, bint bulk=True, bint book=False):
        """Number of leaf nodes of the legal move tree at depth (releases the GIL).

        bulk=True counts the last ply's legal moves without playing them; bulk=False
        makes and unmakes every leaf; book=True uses only the book's routines.
        """
        cdef long long n
        cdef int plies = check_int(depth, "depth", 0, MAX_DEPTH)
        # Count on a copy taken with the GIL held: another thread may push or pop on
        # this Board while the count runs without the GIL.
        cdef BoardState st = self.st
        with nogil:
            if book:
                n = perft_book(&st, plies)
            elif bulk:
                n = perft_nodes(&st, plies)
            else:
                n = perft_full(&st, plies)
        return n

    def attackers(self, side, square):
        """Public squares (ascending) of side's pieces that attack a public square.

        See xiangqi/core/attacks.pxd for what attacking means (cannon screens and
        the facing kings included); the square may be empty or hold any piece.
        """
        cdef int who = check_int(side, "side (0 Red, 1 Black)", 0, 1)
        cdef int q = SQUARE_OF[check_square(square)]
        cdef int found[32]
        cdef int n = attackers_of(self.st.squares, who, q, found)
        return sorted([PUBLIC_OF[found[i]] for i in range(n)])

    def pin_mask(self, square):
        """Bit mask (bit i = public square i) of where the piece on square may stand
        without exposing its king; all 90 bits when it is not pinned or there is no piece."""
        cdef unsigned char mask[256]
        cdef int sq
        cdef object out = 0
        pin_mask(self.st.squares, SQUARE_OF[check_square(square)], mask)
        for sq in range(90):
            if mask[SQUARE_OF[sq]]:
                out |= (<object>1) << sq
        return out

    def gives_check(self, from_square, to_square):
        """Would the move put the other side in check? None if it does not follow its
        piece's movement rule (the second algorithm), else a bool; the board is unchanged."""
        cdef int mv = SQUARE_OF[check_square(from_square)] | (SQUARE_OF[check_square(to_square)] << 8)
        cdef int cap, mover = self.st.side
        cdef bint checks
        if not legal_move_ee(&self.st, mv):
            return None
        cap = make_move(&self.st, mv)
        checks = in_check(&self.st, 1 - mover)
        unmake_move(&self.st, mv, cap)
        return bool(checks)

    def divide(self, object depth):
        """perft split by root move: list of (from_square * 90 + to_square, count)."""
        cdef int moves[MAX_MOVES]
        cdef int n, i, cap
        cdef long long count
        cdef int plies = check_int(depth, "depth", 1, MAX_DEPTH)
        cdef BoardState st = self.st    # a private copy, as in perft()
        n = generate_legal_moves(&st, moves)
        out = []
        for i in range(n):
            cap = make_move(&st, moves[i])
            with nogil:
                count = perft_nodes(&st, plies - 1)
            unmake_move(&st, moves[i], cap)
            out.append((PUBLIC_OF[moves[i] & 255] * 90 + PUBLIC_OF[moves[i] >> 8], count))
        return out


cdef long long fill_batch(BoardState* states, Py_ssize_t count, unsigned short* buf,
                          long long* offsets) noexcept nogil:
    # Legal moves of each state as public codes from * 90 + to, back to back in buf;
    # offsets[i]..offsets[i + 1] delimit state i's moves. Returns how many were written.
    cdef int moves[MAX_MOVES]
    cdef int n, j
    cdef Py_ssize_t i
    cdef long long total = 0
    for i in range(count):
        n = generate_legal_moves(&states[i], moves)
        for j in range(n):
            buf[total + j] = PUBLIC_OF[moves[j] & 255] * 90 + PUBLIC_OF[moves[j] >> 8]
        total += n
        offsets[i + 1] = offsets[i] + n
    return total


def legal_moves_batch(list boards not None):
    """Legal moves of many positions at once, as two flat buffers, without Move objects.

    Returns (moves, offsets): moves is a memoryview of uint16 codes
    from_square * 90 + to_square, and the moves of boards[i] are
    moves[offsets[i]:offsets[i + 1]]; offsets is a memoryview of int64 with
    len(boards) + 1 entries. Both can be wrapped by numpy.frombuffer without a copy.
    Generation runs without the GIL, on copies of the boards taken with it held,
    BATCH_CHUNK boards at a time.
    """
    cdef tuple held = tuple(boards)     # the caller's list may change meanwhile
    cdef Py_ssize_t count = len(held), i, first, size
    cdef long long total = 0
    cdef unsigned short* buf
    cdef BoardState* states
    cdef bytearray offset_bytes = bytearray(8 * (count + 1))
    cdef long long[::1] offsets = memoryview(offset_bytes).cast("q")
    for i in range(count):
        if not isinstance(held[i], Board):
            raise TypeError(f"boards[{i}] is not a Board")
    buf = <unsigned short*>malloc(sizeof(unsigned short) * MAX_MOVES * (count + 1))
    states = <BoardState*>malloc(sizeof(BoardState) * BATCH_CHUNK)
    if buf == NULL or states == NULL:
        free(buf)
        free(states)
        raise MemoryError()
    try:
        offsets[0] = 0
        for first in range(0, count, BATCH_CHUNK):
            size = min(BATCH_CHUNK, count - first)
            for i in range(size):
                states[i] = (<Board>held[first + i]).st
            with nogil:
                total += fill_batch(states, size, buf + total, &offsets[first])
        move_bytes = bytearray((<char*>buf)[:2 * total])
    finally:
        free(buf)
        free(states)
    return memoryview(move_bytes).cast("H"), memoryview(offset_bytes).cast("q")


def book_tables():
    """The direction, leg/eye and position tables as Python lists, for tests to compare
    with the book's printed tables. Position tables are 256 entries, 16x16 order."""
    return {
        "KnightDir": [HORSE_STEPS[k] for k in range(8)],
        "KnightCheck": [HORSE_LEGS[k] for k in range(8)],
        "KingDir": [KING_STEPS[k] for k in range(4)],
        "AdvisorDir": [ADVISOR_STEPS[k] for k in range(4)],
        "BishopDir": [ELEPHANT_STEPS[k] for k in range(4)],
        "BishopCheck": [ELEPHANT_EYES[k] for k in range(4)],
        "RookDir": [ROOK_DIRS[k] for k in range(4)],
        "CannonDir": [CANNON_DIRS[k] for k in range(4)],
        "PawnDir": [[PAWN_STEPS[s][k] for k in range(3)] for s in range(2)],
        "KnightPosition": [ON_BOARD[i] for i in range(256)],
        "KingPosition": [KING_ZONE[i] for i in range(256)],
        "AdvisorPosition": [ADVISOR_ZONE[i] for i in range(256)],
        "BishopPosition": [ELEPHANT_ZONE[i] for i in range(256)],
        "PawnPosition": [[PAWN_ZONE[s][i] for i in range(256)] for s in range(2)],
        "HorseCheckLegs": [HORSE_CHECK_LEGS[k] for k in range(8)],
        "LegalSpan": [EE_LEGAL_SPAN[i] for i in range(512)],
        "HorsePin": [EE_HORSE_PIN[i] for i in range(512)],
        "InFort": [EE_IN_FORT[i] for i in range(256)],
    }
