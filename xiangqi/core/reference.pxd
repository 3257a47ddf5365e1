# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the book's reference routines (sections 4.2 and 4.6), ported close to line
# for line over typed memoryviews of the board and the piece list, so they read like
# the book: `board[leg]`, `piece[side_tag + slot]`. The views are made once at the
# boundary (_core.pyx) over a BoardState that make_move/unmake_move change in place;
# the views alias that state and only read it.
#
# This is the reference path, kept on purpose: the fast path (movegen.pxd) must agree
# with it, and tests compare the two. It is reached only through the internal
# _reference_* functions of _core.pyx, never through the production API.
#
# Map (one line per function; all [book reference]):
#   save_move                       SaveMove (pseudo-legal): append one move
#   knight_move .. pawn_move        KnightMove, KingMove, AdvisorMove, BishopMove,
#                                   RookMove, CannonMove, PawnMove
#   generate_pseudo_book            every piece of the side to move, slot by slot
#   book_check                      Check(lSide) of 4.6, without the book's two defects
#   generate_legal_book             the legal SaveMove of 4.6: make, Check, unmake
#   perft_book                      perft over the routines above (recursive; depth is
#                                   capped at REFERENCE_MAX_DEPTH by the boundary)

from xiangqi.core.state cimport BoardState, MAX_MOVES, make_move, unmake_move
from xiangqi.core.tables cimport (
    ADVISOR_STEPS, ADVISOR_ZONE, CANNON_DIRS, ELEPHANT_EYES, ELEPHANT_STEPS, ELEPHANT_ZONE,
    HORSE_LEGS, HORSE_STEPS, KING_STEPS, KING_ZONE, ON_BOARD, PAWN_STEPS, PAWN_ZONE, ROOK_DIRS,
)

ctypedef const unsigned char[::1] View

cdef enum:
    # Deepest reference perft: the routines recurse, one frame of about 1 KB per ply
    # (MAX_MOVES ints plus two view structs), so 6 plies fit a 32 KB thread stack.
    REFERENCE_MAX_DEPTH = 6


cdef inline int save_move(int* moves, int n, int p, int to) noexcept nogil:
    moves[n] = p | (to << 8)
    return n + 1


cdef inline int knight_move(View board, int p, int side_tag, int* moves, int n) noexcept nogil:
    cdef int k, to, leg
    for k in range(8):
        to = p + HORSE_STEPS[k]
        if ON_BOARD[to]:
            leg = p + HORSE_LEGS[k]
            if not board[leg]:
                if not (board[to] & side_tag):
                    n = save_move(moves, n, p, to)
    return n


cdef inline int king_move(View board, int p, int side_tag, int* moves, int n) noexcept nogil:
    cdef int k, to
    for k in range(4):
        to = p + KING_STEPS[k]
        if KING_ZONE[to]:
            if not (board[to] & side_tag):
                n = save_move(moves, n, p, to)
    return n


cdef inline int advisor_move(View board, int p, int side_tag, int* moves, int n) noexcept nogil:
    cdef int k, to
    for k in range(4):
        to = p + ADVISOR_STEPS[k]
        if ADVISOR_ZONE[to]:
            if not (board[to] & side_tag):
                n = save_move(moves, n, p, to)
    return n


cdef inline int bishop_move(View board, int p, int side_tag, int* moves, int n) noexcept nogil:
    cdef int k, to, eye
    for k in range(4):
        to = p + ELEPHANT_STEPS[k]
        if ELEPHANT_ZONE[to]:
            eye = p + ELEPHANT_EYES[k]
            if not board[eye]:
                if not (board[to] & side_tag):
                    n = save_move(moves, n, p, to)
    return n


cdef inline int rook_move(View board, int p, int side_tag, int* moves, int n) noexcept nogil:
    cdef int k, j, to
    for k in range(4):
        for j in range(1, 10):
            to = p + j * ROOK_DIRS[k]
            if not ON_BOARD[to]:
                break
            if not board[to]:
                n = save_move(moves, n, p, to)
            elif board[to] & side_tag:
                break
            else:
                n = save_move(moves, n, p, to)
                break
    return n


cdef inline int cannon_move(View board, int p, int side_tag, int* moves, int n) noexcept nogil:
    cdef int k, j, to, over
    for k in range(4):
        over = 0
        for j in range(1, 10):
            to = p + j * CANNON_DIRS[k]
            if not ON_BOARD[to]:
                break
            if not board[to]:
                if not over:
                    n = save_move(moves, n, p, to)
            else:
                if not over:
                    over = 1
                else:
                    if not (board[to] & side_tag):
                        n = save_move(moves, n, p, to)
                    break
    return n


cdef inline int pawn_move(View board, int p, int side, int side_tag, int* moves,
                          int n) noexcept nogil:
    cdef int k, to
    for k in range(3):
        to = p + PAWN_STEPS[side][k]
        if PAWN_ZONE[side][to]:
            if not (board[to] & side_tag):
                n = save_move(moves, n, p, to)
    return n


cdef inline int generate_pseudo_book(View board, View piece, int side, int* moves) noexcept nogil:
    cdef int side_tag = 16 + 16 * side
    cdef int n = 0, slot, p
    for slot in range(16):
        p = piece[side_tag + slot]
        if not p:
            continue
        if slot == 0:
            n = king_move(board, p, side_tag, moves, n)
        elif slot <= 2:
            n = advisor_move(board, p, side_tag, moves, n)
        elif slot <= 4:
            n = bishop_move(board, p, side_tag, moves, n)
        elif slot <= 6:
            n = knight_move(board, p, side_tag, moves, n)
        elif slot <= 8:
            n = rook_move(board, p, side_tag, moves, n)
        elif slot <= 10:
            n = cannon_move(board, p, side_tag, moves, n)
        else:
            n = pawn_move(board, p, side, side_tag, moves, n)
    return n


cdef inline bint book_check(View board, View piece, int side) noexcept nogil:
    # Each rook and each cannon is judged on its own (the book lets r and the screen
    # count run on from one piece to the next: its two defects).
    cdef int w_king = piece[16], b_king = piece[32]
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
            if board[p]:
                r = 0
                break
            p -= 16
        if r:
            return 1
    q = piece[48 - opp_tag]
    # Horses.
    for i in range(5, 7):
        p = piece[opp_tag + i]
        if not p:
            continue
        for k in range(8):
            n = p + HORSE_STEPS[k]
            if n != q:
                continue
            if ON_BOARD[n]:
                m = p + HORSE_LEGS[k]
                if not board[m]:
                    return 1
    # Rooks.
    for i in range(7, 9):
        p = piece[opp_tag + i]
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
            if board[p]:
                r = 0
                break
            p += step
        if r:
            return 1
    # Cannons.
    for i in range(9, 11):
        p = piece[opp_tag + i]
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
            if board[p]:
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
        p = piece[opp_tag + i]
        if not p:
            continue
        for k in range(3):
            n = p + PAWN_STEPS[fside][k]
            if n == q and PAWN_ZONE[fside][n]:
                return 1
    return 0


cdef inline int generate_legal_book(BoardState* b, View board, View piece,
                                    int* moves) noexcept nogil:
    cdef int n = generate_pseudo_book(board, piece, b.side, moves)
    cdef int mover = b.side, i, kept = 0, mv, cap
    for i in range(n):
        mv = moves[i]
        cap = make_move(b, mv)
        if not book_check(board, piece, mover):
            moves[kept] = mv
            kept += 1
        unmake_move(b, mv, cap)
    return kept


cdef inline long long perft_book(BoardState* b, View board, View piece, int depth) noexcept nogil:
    cdef int moves[MAX_MOVES]
    cdef int n, i, cap
    cdef long long total = 0
    if depth <= 0:
        return 1
    n = generate_legal_book(b, board, piece, moves)
    if depth == 1:
        return n
    for i in range(n):
        cap = make_move(b, moves[i])
        total += perft_book(b, board, piece, depth - 1)
        unmake_move(b, moves[i], cap)
    return total
