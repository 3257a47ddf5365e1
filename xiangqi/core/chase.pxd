# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: check and chase judging of the Asian (AXF) rules over a history: perpetual
# check (art. 6-8), perpetual chase (art. 15, 18, 19, 28, 29, 32, 36, 40) and what
# "chases" means: the rules and the articles they come from are in core/asian.pxd's
# header. The Chinese rule set judges with its own room (core/chinese.pxd); what both
# share (the repetition window, its replay, capture_legal) is core/judge.pxd.
#
# Map (one line per function):
#   root_after(r, frm, to, legally) protection ("roots", real or fake)
#   chase_pairs / chased_now / new_chases            who chases whom, and newly
#   horse_pinned_rooks(r, side)     rooks that block a horse's leg aimed at their king
#   judge_repetition(...)           RULING_* at a repeated position

# No movement rule is written here: "reaches" is attacks.pxd's attacks_point, "in check"
# movegen.pxd's in_check, both built on tables.pxd's rule functions.
from xiangqi.core.attacks cimport attacks_point as reaches, slot_kind
from xiangqi.core.history cimport PlyRecord
from xiangqi.core.judge cimport capture_legal, replay_span, span_start
from xiangqi.core.movegen cimport in_check
from xiangqi.core.state cimport BoardState, make_move, unmake_move
from xiangqi.core.tables cimport own_half

# judge_repetition results, from the view of the side to move (like the engines').
cdef enum:
    RULING_NONE = 0         # the position has not occurred `count` times
    RULING_DRAW = 1         # repetition: neither side, or both, broke a rule
    RULING_WIN_CHECK = 2    # the side to move wins: the other side checked perpetually
    RULING_LOSS_CHECK = 3   # the side to move loses: it checked perpetually
    RULING_WIN_CHASE = 4    # the side to move wins: the other side chased perpetually
    RULING_LOSS_CHASE = 5   # the side to move loses: it chased perpetually

cdef enum:
    RULES_MAX_SPAN = 4096   # longest span analysed for chases (plies); longer: checks only


cdef inline bint pawn_crossed(int side, int sq) noexcept nogil:
    # Has side's pawn on sq crossed the river?
    return not own_half(sq, side)


cdef inline bint root_after(BoardState* r, int frm, int to, bint legally) noexcept nogil:
    # After the piece on frm takes the piece on to, can a piece of the victim's side take
    # back: legally (legally set: a real root), or at least reach the square (a root that
    # reaches it but may not take back is a fake root; one that no longer reaches it is no
    # root at all)?
    cdef int victim_base = 16 + 16 * (r.squares[to] >> 5), i, s, cap
    cdef bint found = 0
    cap = make_move(r, frm | (to << 8))
    for i in range(16):
        s = r.piece_square[victim_base + i]
        if s and (capture_legal(r, s, to) if legally else reaches(r.squares, s, to)):
            found = 1
            break
    unmake_move(r, frm | (to << 8), cap)
    return found


cdef inline void chase_pairs(BoardState* r, int side, unsigned int* pairs,
                             unsigned int* attacks, unsigned int* fake) noexcept nogil:
    # pairs[i] (i = attacker slot 0..15): bit j set when side's piece in slot i chases the
    # enemy piece in slot j on this board; attacks[i]: bit j set when it can legally
    # capture that piece at all (a possible target: not the king, not an uncrossed pawn),
    # protected or not; fake[i]: bit j set when it chases that piece only because the
    # piece's roots are fake (they reach the square but may not take back).
    # Slots 0 and 11..15 (king, pawns) stay 0.
    cdef int base = 16 + 16 * side, enemy = 32 - 16 * side
    cdef int i, j, a, v, at, vt
    cdef unsigned int found, hit, faked
    cdef bint checked = in_check(r, 1 - side)
    for i in range(16):
        pairs[i] = 0
        attacks[i] = 0
        fake[i] = 0
    for i in range(1, 11):          # advisors .. cannons: kings and pawns chase freely
        a = r.piece_square[base + i]
        if not a:
            continue
        at = slot_kind(i)
        found = 0
        hit = 0
        faked = 0
        for j in range(1, 16):      # every piece but the king
            v = r.piece_square[enemy + j]
            if not v:
                continue
            vt = slot_kind(j)
            if vt == 6 and not pawn_crossed(1 - side, v):
                continue
            if not capture_legal(r, a, v):
                continue
            hit |= 1u << j
            if ((at == 3 or at == 5) and vt == 4) or ((at == 1 or at == 2) and 3 <= vt <= 5):
                found |= 1u << j    # a stronger piece: protection does not help
                continue
            if checked:
                # The enemy is in check: no reply but a check evasion is legal, so
                # legality says nothing about protection here. Judge as if the check
                # were answered: any piece that reaches the square takes back.
                if at == vt and reaches(r.squares, v, a):
                    continue
                if not root_after(r, a, v, 0):
                    found |= 1u << j
                continue
            if at == vt and capture_legal(r, v, a):
                continue            # a mutual attack
            if not root_after(r, a, v, 1):
                found |= 1u << j
                if root_after(r, a, v, 0):
                    faked |= 1u << j
        pairs[i] = found
        attacks[i] = hit
        fake[i] = faked


cdef inline unsigned int chased_now(BoardState* r, int side) noexcept nogil:
    # Bit j set for each enemy piece (slot j) that side chases on this board.
    cdef unsigned int pairs[16]
    cdef unsigned int attacks[16]
    cdef unsigned int fake[16]
    cdef unsigned int found = 0
    cdef int i
    chase_pairs(r, side, pairs, attacks, fake)
    for i in range(16):
        found |= pairs[i]
    return found


cdef inline unsigned int horse_pinned_rooks(BoardState* r, int side) noexcept nogil:
    # Bit j (7 or 8) set for each enemy rook that blocks the leg of one of side's horses
    # aimed at the enemy king: the rook is "pinned by a horse" (WXF diagrams 39-41).
    cdef int enemy = 32 - 16 * side, k = r.piece_square[enemy], j, i, v, h
    cdef unsigned int found = 0
    if not k:
        return 0
    for j in range(7, 9):
        v = r.piece_square[enemy + j]
        if not v:
            continue
        for i in range(5, 7):
            h = r.piece_square[16 + 16 * side + i]
            if not h or reaches(r.squares, h, k):
                continue
            r.squares[v] = 0
            if reaches(r.squares, h, k):
                found |= 1u << j
            r.squares[v] = enemy + j
        # (the loop restores the rook whether or not the horse reached the king)
    return found


cdef inline unsigned int new_chases(BoardState* r, int mv) noexcept nogil:
    # Play mv on r (left played) and return the enemy pieces it newly chases: those
    # chased after it by an attacker that could not capture them before it (a new
    # attack, direct or discovered), or that could but found them protected and now finds
    # their roots fake (mv pinned a root, or made its recapture illegal). A root lost any
    # other way (its own line or screen opened or closed) makes no new chase: the attack
    # itself did not change (WXF diagrams 61 and 106).
    cdef int mover = r.squares[mv & 255] >> 5, i
    cdef unsigned int before[16]
    cdef unsigned int hit_before[16]
    cdef unsigned int fake_before[16]
    cdef unsigned int after[16]
    cdef unsigned int hit_after[16]
    cdef unsigned int fake_after[16]
    cdef unsigned int fresh = 0
    chase_pairs(r, mover, before, hit_before, fake_before)
    make_move(r, mv)
    chase_pairs(r, mover, after, hit_after, fake_after)
    for i in range(16):
        fresh |= after[i] & ~before[i] & (~hit_before[i] | fake_after[i])
    return fresh


cdef inline int judge_repetition(const unsigned char* squares, int side, const PlyRecord* plies,
                                 int n, int count) noexcept nogil:
    # The ruling at the current position when it has occurred `count` times (count >= 2),
    # else RULING_NONE. See the header for the rules applied.
    cdef int first = span_start(plies, n, count), i, mover
    cdef bint checking[2]
    cdef unsigned int chase[2]
    cdef unsigned int pinned[2]
    cdef BoardState r
    if first < 0:
        return RULING_NONE
    # Perpetual check: every move of a side in the span gave check. The mover of the
    # move into plies[i] is the side to move at plies[i - 1].
    checking[0] = checking[1] = 1
    for i in range(first + 1, n + 1):
        mover = side ^ ((n - i + 1) & 1)
        if not plies[i].check:
            checking[mover] = 0
    if checking[0] or checking[1]:
        if checking[0] and checking[1]:
            return RULING_DRAW
        return RULING_LOSS_CHECK if checking[side] else RULING_WIN_CHECK
    if n - first > RULES_MAX_SPAN:
        return RULING_DRAW
    # Perpetual chase: replay the span from its first position on a private board.
    replay_span(&r, squares, plies, n, first)
    chase[0] = chase[1] = 0xFFFF
    pinned[0] = pinned[1] = 0xFFFF
    for i in range(first + 1, n + 1):
        mover = side ^ ((n - i + 1) & 1)
        if chase[mover]:
            chase[mover] &= new_chases(&r, plies[i].move)
            pinned[mover] &= horse_pinned_rooks(&r, mover)
        else:
            make_move(&r, plies[i].move)
    if chase[0] and chase[1]:
        # Both sides chase: chasing a rook that a horse pins against its king is the
        # graver offence (WXF diagrams 39-41); if only one side does it, that side loses.
        chase[0] &= pinned[0]
        chase[1] &= pinned[1]
    if (chase[0] != 0) == (chase[1] != 0):
        return RULING_DRAW
    return RULING_LOSS_CHASE if chase[side] else RULING_WIN_CHASE
