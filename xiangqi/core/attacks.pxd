# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: queries for the Python API (attackers, checkers, pins), worked back from the
# target point. Not on any hot path; written for clarity over speed.
#
# Map (one line per function):
#   slot_kind(pc) -> kind              piece id -> king..pawn (0..6)             [queries]
#   is_kind(pc, side, kind)            is pc side's piece of that kind           [queries]
#   on_own_half(sq, side)              tables.pxd's own_half, kept by name       [queries]
#   attackers_of(board, side, q, out)  side's pieces attacking q -> count        [queries]
#   king_faces(board, side, q)         the facing-kings rule, for the two below  [queries]
#   find_king(board, side)             16x16 square of side's king, 0 if none    [queries]
#   pin_mask(board, p, mask)           where the piece on p may stand -> pinned? [queries]
#   attacks_from(board, p, out)        points the piece on p attacks -> count    [queries]
#   attacks_point(board, p, q)         does the piece on p attack q?             [queries]
#
# Every routine reads only the 16x16 board array (`squares[256]` of the board state:
# piece id 16 + 16 * side + slot, 0 empty, 0xFF off the board). The movement rules
# (horse leg, elephant eye and river, palace, pawn by side) come from tables.pxd's
# rule functions and its step tables (HORSE_STEPS, ELEPHANT_STEPS, ADVISOR_STEPS,
# KING_STEPS, CANNON_DIRS), stated there once; this room adds only the walk along lines.
# Legend: sq/q (16x16 index), pc (piece id), side (0 Red, 1 Black), d (step).
#
# Definitions (the public docs in xiangqi/position.py repeat them):
# - A piece of `side` attacks q when it could move to q if q held an enemy piece,
#   ignoring whether that move would expose its own king: rook along an open line,
#   cannon over exactly one screen (炮架), horse unless its leg is blocked (蹩马腿),
#   elephant unless its eye is blocked (塞象眼) and only on its own half, advisor and
#   king inside their palace, pawn forward and, once across the river, sideways.
# - Kings facing (将帅对面): a king also attacks the points of the other palace on
#   its file with nothing between them where the other king could stand: empty
#   points, the other king's point, and points of the king's own pieces (which the
#   other king could otherwise capture); not points holding other enemy pieces.
# - A piece is pinned when moving it could expose its own king; its pin mask is the
#   set of points it may stand on without doing so (see pin_mask below).

from xiangqi.core.tables cimport (
    ADVISOR_STEPS, CANNON_DIRS, ELEPHANT_STEPS, HORSE_STEPS, KING_STEPS, PIECE_TYPE,
    elephant_eye, first_piece, horse_leg, in_palace, own_half, pawn_attacks, pawn_forward,
)


cdef inline int slot_kind(int pc) noexcept nogil:
    # Piece id (or slot) -> kind 0..6 (king, advisor, elephant, horse, rook, cannon, pawn).
    return PIECE_TYPE[16 + (pc & 15)]


cdef inline bint is_kind(int pc, int side, int kind) noexcept nogil:
    # Is pc a piece of side and of the given kind? (0 and the 0xFF sentinel are not.)
    return 16 <= pc < 48 and ((pc >> 4) - 1) == side and slot_kind(pc) == kind


cdef inline bint on_own_half(int sq, int side) noexcept nogil:
    # Is the on-board point sq on side's half of the river (the rule: tables.own_half)?
    return own_half(sq, side)


cdef inline bint king_faces(const unsigned char* board, int side, int q) noexcept nogil:
    # With nothing between side's king and the point q up or down its file (the caller's
    # walk ensures it): does the king attack q by facing (将帅对面)? q must be a point of
    # the other palace where the other king could stand: not one holding another enemy
    # piece (see the definitions above).
    return in_palace(q, 1 - side) and not (
        board[q] and ((board[q] >> 4) - 1) == 1 - side and (board[q] & 15))


cdef inline int add(int* out, int n, int sq) noexcept nogil:
    # Append sq to out unless it is already there (a cannon and a rook can share
    # nothing, but keep the list a set on principle). out holds at least 32 entries.
    cdef int i
    for i in range(n):
        if out[i] == sq:
            return n
    out[n] = sq
    return n + 1


cdef inline int attackers_of(const unsigned char* board, int side, int q,
                             int* out) noexcept nogil:
    # The 16x16 squares of side's pieces that attack q, written to out (room for 32);
    # returns how many. q must be on the board.
    cdef int n = 0, k, sq, d, h, e
    cdef int fwd = pawn_forward(side)           # a pawn of side steps forward by fwd
    # Pawns: one step behind q (as side moves), or beside q (tables.pawn_attacks).
    for d in range(3):
        sq = q - fwd if d == 0 else q + 2 * d - 3
        if is_kind(board[sq], side, 6) and pawn_attacks(sq, q, side):
            n = add(out, n, sq)
    # Horses: h a jump from q, its leg the point next to h along the jump's long axis.
    for k in range(8):
        h = q + HORSE_STEPS[k]
        if h < 0 or h > 255 or not is_kind(board[h], side, 3):
            continue
        if not board[horse_leg(h, q)]:
            n = add(out, n, h)
    # Elephants: two diagonal steps away, eye empty, q on side's own half.
    if on_own_half(q, side):
        for k in range(4):
            e = q + ELEPHANT_STEPS[k]
            if 0 <= e < 256 and is_kind(board[e], side, 2) and not board[elephant_eye(e, q)]:
                n = add(out, n, e)
    # Advisors and kings: one step inside side's palace.
    if in_palace(q, side):
        for k in range(4):
            if is_kind(board[q + ADVISOR_STEPS[k]], side, 1):
                n = add(out, n, q + ADVISOR_STEPS[k])
            if is_kind(board[q + KING_STEPS[k]], side, 0):
                n = add(out, n, q + KING_STEPS[k])
    # Lines: the first piece met may be a rook (or, up or down a file from a point of
    # the other palace, the facing king); the second, behind one screen, a cannon.
    # CANNON_DIRS: along the rank (k 0, 1), then up and down the file (k 2, 3).
    for k in range(4):
        d = CANNON_DIRS[k]
        sq = first_piece(board, q, d)
        if board[sq] == 0xFF:
            continue
        if is_kind(board[sq], side, 4):
            n = add(out, n, sq)
        elif k >= 2 and is_kind(board[sq], side, 0) and king_faces(board, side, q):
            n = add(out, n, sq)
        sq = first_piece(board, sq, d)      # behind one screen
        if is_kind(board[sq], side, 5):
            n = add(out, n, sq)
    return n


cdef inline int find_king(const unsigned char* board, int side) noexcept nogil:
    # 16x16 square of side's king, 0 if there is none.
    cdef int sq
    for sq in range(256):
        if board[sq] == 16 + 16 * side:
            return sq
    return 0


cdef inline void mark_segment(unsigned char* line, int k, int d, int stop) noexcept nogil:
    # line[sq] = 1 for every point from k + d up to and including stop.
    cdef int sq = k + d
    while True:
        line[sq] = 1
        if sq == stop:
            break
        sq += d


cdef inline void intersect(unsigned char* mask, const unsigned char* line) noexcept nogil:
    cdef int sq
    for sq in range(256):
        mask[sq] = mask[sq] & line[sq]


cdef inline bint pin_mask(const unsigned char* board, int p, unsigned char* mask) noexcept nogil:
    # Is the piece on p pinned to its own king? mask[sq] (256 entries) is set to 1 on
    # every point where the piece may stand without exposing its king to the pinners
    # found here, 0 elsewhere; all points when it is not pinned. Pins are:
    # - rook: p is the only piece between its king and an enemy rook on a line;
    #   mask = the points between them and the rook;
    # - kings facing: p is the only piece between the two kings on a file;
    #   mask = the points between the kings;
    # - cannon: p is one of exactly two pieces between its king and an enemy cannon;
    #   mask = the points between king and cannon and the cannon, except the other
    #   screen's point (capturing that screen would leave one screen);
    # - horse leg: p stands on the leg of an enemy horse that would attack the king;
    #   mask = p and the horse's point.
    # A move of the king itself is never "pinned"; for it the mask is all points.
    cdef int pc = board[p], side, k, d, sq, opp, h, j
    cdef int found[3]
    cdef int count
    cdef bint pinned = 0
    cdef unsigned char line[256]
    for sq in range(256):
        mask[sq] = board[sq] != 0xFF
    if pc < 16 or pc >= 48:
        return 0
    side = (pc >> 4) - 1
    opp = 1 - side
    k = find_king(board, side)
    if k == 0 or k == p:
        return 0
    # Line pins: p on a rank or file with its king, nothing else between them.
    d = 0
    if (p >> 4) == (k >> 4):
        d = 1 if p > k else -1
    elif (p & 15) == (k & 15):
        d = 16 if p > k else -16
    if d:
        count = 0
        sq = k
        while count < 3:
            sq = first_piece(board, sq, d)
            if board[sq] == 0xFF:
                break
            found[count] = sq
            count += 1
        if count >= 1 and found[0] == p and count >= 2:
            if is_kind(board[found[1]], opp, 4) or is_kind(board[found[1]], opp, 0):
                for j in range(256):
                    line[j] = 0
                mark_segment(line, k, d, found[1])
                if is_kind(board[found[1]], opp, 0):
                    line[found[1]] = 0  # the king cannot be captured
                intersect(mask, line)
                pinned = 1
        # Cannon screens: p is first or second of the two pieces before an enemy cannon.
        if count == 3 and (found[0] == p or found[1] == p) and is_kind(board[found[2]], opp, 5):
            for j in range(256):
                line[j] = 0
            mark_segment(line, k, d, found[2])
            line[found[1] if found[0] == p else found[0]] = 0
            intersect(mask, line)
            pinned = 1
    # Horse legs: an enemy horse a jump from the king whose only blocker is p.
    for j in range(8):
        h = k + HORSE_STEPS[j]
        if h < 0 or h > 255 or not is_kind(board[h], opp, 3):
            continue
        if horse_leg(h, k) == p:
            for sq in range(256):
                line[sq] = 0
            line[p] = 1
            line[h] = 1
            intersect(mask, line)
            pinned = 1
    return pinned


# -- attacks of one piece (python-chess's board.attacks(square)) --------------------
# The mirror image of attackers_of: q is in attacks_from(board, p) exactly when p is
# in attackers_of(board, side of p, q) (tests/test_peer_habits.py checks every pair).

cdef inline int attacks_from(const unsigned char* board, int p, int* out) noexcept nogil:
    # The 16x16 points the piece on p attacks, written to out (room for 32); returns
    # how many (0 for an empty point). Same definition as attackers_of above.
    cdef int pc = board[p], side, kind, n = 0, k, d, sq, e, stop, fwd
    if pc < 16 or pc >= 48:
        return 0
    side = (pc >> 4) - 1
    kind = slot_kind(pc)
    if kind == 6:       # pawn: forward, and sideways once across the river
        fwd = pawn_forward(side)
        for d in range(3):
            sq = p + fwd if d == 0 else p + 2 * d - 3
            if board[sq] != 0xFF and pawn_attacks(p, sq, side):
                out[n] = sq
                n += 1
    elif kind == 3:     # horse: a jump whose leg (next to p on the long axis) is empty
        for k in range(8):
            sq = p + HORSE_STEPS[k]
            if sq < 0 or sq > 255 or board[sq] == 0xFF:
                continue
            if not board[horse_leg(p, sq)]:
                out[n] = sq
                n += 1
    elif kind == 2:     # elephant: two diagonal steps, eye empty, on its own half
        for k in range(4):
            e = p + ELEPHANT_STEPS[k]
            if (0 <= e < 256 and board[e] != 0xFF and on_own_half(e, side)
                    and not board[elephant_eye(p, e)]):
                out[n] = e
                n += 1
    elif kind == 1 or kind == 0:    # advisor and king: one step inside its palace
        for k in range(4):
            sq = p + (ADVISOR_STEPS[k] if kind == 1 else KING_STEPS[k])
            if in_palace(sq, side):
                out[n] = sq
                n += 1
        if kind == 0:   # the facing king: up or down its file into the other palace
            for k in range(2, 4):
                d = CANNON_DIRS[k]
                sq = p + d
                while board[sq] != 0xFF:
                    if king_faces(board, side, sq):
                        out[n] = sq
                        n += 1
                    if board[sq]:
                        break
                    sq += d
    else:               # rook: up to the first piece; cannon: past exactly one screen
        for k in range(4):
            d = CANNON_DIRS[k]
            sq = p
            if kind == 5:
                sq = first_piece(board, p, d)   # the screen
                if board[sq] == 0xFF:
                    continue
            stop = first_piece(board, sq, d)
            sq += d
            while sq != stop:
                out[n] = sq
                n += 1
                sq += d
            if board[stop] != 0xFF:
                out[n] = stop
                n += 1
    return n


cdef inline bint attacks_point(const unsigned char* board, int p, int q) noexcept nogil:
    # Does the piece on p attack q (q in attacks_from(board, p))? The chase judges' one
    # "could this piece take there" test: its movement rule alone, the target's colour
    # and the mover's king safety being the caller's business.
    cdef int out[32]
    cdef int n = attacks_from(board, p, out), i
    for i in range(n):
        if out[i] == q:
            return 1
    return 0
