# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the fast path. The pseudo-legal generator, check detection that works back
# from the king, and the threat map that lets most moves skip make/test/unmake.
#
# It works on `BoardState*` pointers, not memoryviews: the batch call copies
# thousands of states without the GIL, and perft walks millions of nodes; a view per
# state would cost an acquisition each (the book path, reference.pxd, takes views).
#
# Map (one line per function; all [fast]):
#   is_piece(pc, opp, first, slots)   pc is one of opp's pieces in those slots
#   generate_pseudo(b, moves)         pseudo-legal moves, same set and order as the book's
#   line_attacked(b, q, d, opp)       ray from q: rook or facing king first, or cannon second
#   stepper_attacks(b, q, side)       is side's king on q attacked by a pawn or a horse?
#   in_check(b, side)                 is side's king attacked (pawns, horses, rays)
#   toward(k, sq)                     direction from k to sq on a shared line, else 0
#   lines_changed_attack(b, k, frm, to, opp)   after a move: does opp attack k through frm or to?
#   move_exposes(b, k, frm, to)       after a non-king move: did it uncover the king on k?
#   move_checks(b, frm, to)           after a move: is the side to move in check? (cheaper)
#   mark_threats(b, k, hot)           the threat map: squares a move must touch to matter
#   threat_map(b, k, hot, whole)      ... or, not whole, only whether in check (then no map)
#   is_legal_pseudo(b, mv, k, checked)  make, the cheapest sufficient test, unmake
#   evasion_filter(b, moves, n, k, keep)   legal_filter's loop in check: rays asked once
#   legal_filter(b, moves, keep)      generate + keep the legal ones (or only count them)
#   generate_legal_moves(b, moves)    legal moves into a caller's MAX_MOVES buffer
#   count_legal_moves(b)              how many legal moves (perft's last ply)

from libc.string cimport memset

cdef extern from *:
    # Cython's own branch hint (__builtin_expect where the compiler has it): marks the
    # full in_check of is_legal_pseudo as the rare path, so the compiler keeps it out of
    # line instead of inlining it into perft's counting loop (measured: 4% fewer
    # instructions for perft(4) than with it inlined).
    bint unlikely(bint) noexcept nogil

from xiangqi.core.state cimport BoardState, MAX_MOVES, OFF_BOARD, make_move, unmake_move
from xiangqi.core.tables cimport (
    ADVISOR_STEPS, ADVISOR_ZONE, CANNON_DIRS, ELEPHANT_EYES, ELEPHANT_STEPS, ELEPHANT_ZONE,
    HORSE_ATTACK_LEG, HORSE_LEGS, HORSE_STEPS, KING_STEPS, KING_ZONE,
    PAWN_STEPS, ROOK_DIRS, first_piece, horse_leg, own_half, pawn_attacks,
)


cdef inline bint is_piece(int pc, int opp_base, int first_slot, int slots) noexcept nogil:
    return <unsigned int>(pc - opp_base - first_slot) < <unsigned int>slots


cdef inline int generate_pseudo(BoardState* b, int* moves) noexcept nogil:
    # The same moves as the book's generator, in the same order, but the off-board
    # sentinel (which has both side bits set) replaces the on-board tests of horse,
    # rook and cannon, and rays advance by addition.
    cdef int side = b.side
    cdef int side_tag = 16 + 16 * side
    cdef const unsigned char* sq = b.squares
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
                    to = first_piece(sq, to, d)     # past the screen
                    if not (sq[to] & side_tag):
                        moves[n] = p | (to << 8)
                        n += 1
    for slot in range(11, 16):
        p = b.piece_square[side_tag + slot]
        if p:
            # Sideways once across the river, then forward (the book's order). Stated by
            # the pawn's square, not PAWN_ZONE's destinations, so that a composition's
            # pawn behind its start rank moves forward too (same moves otherwise).
            if not own_half(p, side):
                for k in range(2):
                    to = p + PAWN_STEPS[side][k]
                    if not (sq[to] & side_tag):
                        moves[n] = p | (to << 8)
                        n += 1
            to = p + PAWN_STEPS[side][2]
            if not (sq[to] & side_tag):
                moves[n] = p | (to << 8)
                n += 1
    return n


cdef inline bint line_attacked(const BoardState* b, int q, int d, int opp) noexcept nogil:
    # Along direction d from the king on q: is the first piece an enemy rook or the
    # enemy king (facing), or the second piece, behind one screen, an enemy cannon?
    cdef int sq = first_piece(b.squares, q, d), pc = b.squares[sq]
    if is_piece(pc, opp, 7, 2) or pc == opp:
        return 1
    if pc == OFF_BOARD:
        return 0
    return is_piece(b.squares[first_piece(b.squares, sq, d)], opp, 9, 2)


cdef inline bint stepper_attacks(const BoardState* b, int q, int side) noexcept nogil:
    # Is side's king on q attacked by a pawn or a horse (the attacks that are no ray)?
    cdef int opp = 32 - 16 * side
    cdef int k, p, leg
    # Pawns: one step behind the king (as the attacker moves) or beside it.
    if is_piece(b.squares[q - PAWN_STEPS[1 - side][2]], opp, 11, 5):
        return 1
    if is_piece(b.squares[q - 1], opp, 11, 5) or is_piece(b.squares[q + 1], opp, 11, 5):
        return 1
    # Horses: a horse a jump away whose leg (seen from the king) is empty, asked of
    # side's opponent's two horses (as mark_threats does), not of the eight squares.
    for k in range(5, 7):
        p = b.piece_square[opp + k]
        if p:
            leg = HORSE_ATTACK_LEG[p - q + 256]
            if leg and not b.squares[q + leg]:
                return 1
    return 0


cdef inline bint in_check(const BoardState* b, int side) noexcept nogil:
    cdef int q = b.piece_square[16 + 16 * side]
    cdef int opp = 32 - 16 * side
    cdef int k
    if not q:
        return 0    # no king: only an empty Board() that was never loaded
    if stepper_attacks(b, q, side):
        return 1
    # Rays: the first piece may be a rook or the facing king; the second a cannon.
    for k in range(4):
        if line_attacked(b, q, ROOK_DIRS[k], opp):
            return 1
    return 0


cdef inline int toward(int k, int sq) noexcept nogil:
    if ((sq ^ k) & 0xf0) == 0:
        return 1 if sq > k else -1
    if ((sq ^ k) & 0x0f) == 0:
        return 16 if sq > k else -16
    return 0


cdef inline bint lines_changed_attack(const BoardState* b, int k, int frm, int to,
                                      int opp) noexcept nogil:
    # After a move frm -> to, with the king on k not attacked before it: is k attacked
    # now by opp's pieces along a line through frm or to, or by a horse whose leg was
    # frm? (The only attacks a move can open or close apart from the mover's own.)
    cdef int d_from = toward(k, frm), d_to = toward(k, to), d = frm - k, j, p
    if d_from and line_attacked(b, k, d_from, opp):
        return 1
    if d_to and d_to != d_from and line_attacked(b, k, d_to, opp):
        return 1
    if d == 15 or d == -15 or d == 17 or d == -17:
        for j in range(5, 7):
            p = b.piece_square[opp + j]
            if p and HORSE_ATTACK_LEG[p - k + 256] == d:
                return 1
    return 0


cdef inline bint move_exposes(const BoardState* b, int k, int frm, int to) noexcept nogil:
    # After a non-king move frm -> to by a side that was not in check (b.side is now
    # the opponent): is that side's king on k attacked? Only lines through frm or to
    # and the horse leg on frm can have changed, so only those are tested.
    return lines_changed_attack(b, k, frm, to, 16 + 16 * b.side)


cdef inline bint move_checks(const BoardState* b, int frm, int to) noexcept nogil:
    # After a move frm -> to (made: b.side is the side to move now), when the side to
    # move was not in check before it (true after every legal move): is it in check
    # now? in_check(b, b.side)'s answer, testing only what the move changed: the moved
    # piece's own attack from to, and lines_changed_attack.
    cdef int k = b.piece_square[16 + 16 * b.side]
    cdef int opp = 32 - 16 * b.side, pc = b.squares[to], leg
    if not k:
        return 0
    if is_piece(pc, opp, 5, 2):
        leg = horse_leg(to, k)
        if leg and not b.squares[leg]:
            return 1
    elif is_piece(pc, opp, 11, 5):
        if pawn_attacks(to, k, b.side ^ 1):
            return 1
    return lines_changed_attack(b, k, frm, to, opp)


cdef inline bint threat_map(const BoardState* b, int k, unsigned char* hot,
                            bint whole) noexcept nogil:
    # Is the side to move (king on k) in check? Found while marking hot[sq] = 1 on every
    # square where a move starting or ending there could leave its king attacked: the
    # king itself; the squares between the king and an enemy rook or king with at most
    # one piece between them, or an enemy cannon with at most two (one move changes that
    # count by at most one); the leg square of each enemy horse a jump away. In check,
    # every square is hot. (mark_threats; threat_map with whole false stops at the
    # first attack found, the map then unfinished: legal_filter's evasions need none.)
    # The cannon screen and the facing kings are written here as a count of the pieces
    # between the king and each enemy rook, cannon or king (0 attacks for a rook or king,
    # 1 for a cannon), not with first_piece: the map needs every point of the segment
    # marked and the pieces on it counted up to two, in perft's innermost loop. This is
    # the one specialised statement of those two rules in production (not measured
    # against a first_piece version).
    cdef int opp = 32 - 16 * b.side, slot, p, d, sq, between
    # The pawn test of in_check, written out again on purpose: sharing it through one more
    # inline function changed the compiler's inlining and cost 4% of perft's instructions.
    cdef bint checked = (is_piece(b.squares[k - PAWN_STEPS[b.side ^ 1][2]], opp, 11, 5)
                         or is_piece(b.squares[k - 1], opp, 11, 5)
                         or is_piece(b.squares[k + 1], opp, 11, 5))
    if checked and not whole:
        return 1
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
                    if not whole:
                        return 1
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
                if not whole:
                    return 1
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


cdef inline bint mark_threats(const BoardState* b, int k, unsigned char* hot) noexcept nogil:
    # threat_map's whole map (api.pxd's and rl.pxd's loops read it in check too).
    return threat_map(b, k, hot, 1)


cdef inline bint is_legal_pseudo(BoardState* b, int mv, int k, bint checked) noexcept nogil:
    # Is the pseudo-legal mv (one that mark_threats flagged) legal for the side to move,
    # whose king is on k? Make, test, unmake: the full in_check for king moves and
    # evasions, otherwise only the lines through the move's squares (move_exposes).
    cdef int frm = mv & 255, cap
    cdef bint attacked
    cap = make_move(b, mv)
    if unlikely(checked or frm == k):
        attacked = in_check(b, b.side ^ 1)
    else:
        attacked = move_exposes(b, k, frm, mv >> 8)
    unmake_move(b, mv, cap)
    return not attacked


cdef inline void evasion_squares(const BoardState* b, int k, unsigned char* part,
                                 unsigned char* rays) noexcept nogil:
    # For the side to move, in check with its king on k: part[sq] = 1 on every square
    # of every attack on k (the points from k to an attacking rook, king or cannon,
    # screens included; an attacking horse and its leg; an attacking pawn), as in_check
    # finds the attacks, 0 elsewhere (part: 256 bytes); rays[j]: is k attacked along
    # ROOK_DIRS[j]? A move of a piece other than the king ends the check only if it
    # starts or ends on a part square.
    cdef int opp = 32 - 16 * b.side, side = b.side
    cdef int j, d, p, q
    memset(part, 0, 256)
    for j in range(4):
        d = ROOK_DIRS[j]
        rays[j] = line_attacked(b, k, d, opp)
        if rays[j]:
            p = first_piece(b.squares, k, d)
            if not (is_piece(b.squares[p], opp, 7, 2) or b.squares[p] == opp):
                p = first_piece(b.squares, p, d)    # a cannon, past its screen
            q = k
            while q != p:
                q += d
                part[q] = 1
    for j in range(5, 7):
        p = b.piece_square[opp + j]
        if p:
            d = HORSE_ATTACK_LEG[p - k + 256]
            if d and not b.squares[k + d]:
                part[p] = 1
                part[k + d] = 1
    for j in range(3):
        q = k - PAWN_STEPS[1 - side][2] if j == 2 else k - 1 + 2 * j
        if is_piece(b.squares[q], opp, 11, 5):
            part[q] = 1


cdef inline bint evasion_legal(BoardState* b, int frm, int to, int k,
                               const unsigned char* part,
                               const unsigned char* rays) noexcept nogil:
    # Is the pseudo-legal move frm -> to legal for the side to move, in check with its
    # king on k (part, rays: evasion_squares')? A move of another piece that touches
    # no part square is illegal unmade. The rest are made and tested, but a move
    # changes the rays from k only in the directions of its two squares, so the other
    # directions keep what they were before it (rays) and only the pawns, the horses
    # and those directions are tested again. King moves get the full in_check.
    cdef int opp = 32 - 16 * b.side, side = b.side, cap, j, d, d_from, d_to
    cdef bint attacked
    if frm != k and not (part[frm] | part[to]):
        return 0                    # the check stands
    cap = make_move(b, frm | (to << 8))
    if frm == k:
        attacked = in_check(b, side)
    else:
        attacked = stepper_attacks(b, k, side)
        if not attacked:
            d_from = toward(k, frm)
            d_to = toward(k, to)
            for j in range(4):
                d = ROOK_DIRS[j]
                if d == d_from or d == d_to:
                    if line_attacked(b, k, d, opp):
                        attacked = 1
                        break
                elif rays[j]:
                    attacked = 1
                    break
    unmake_move(b, frm | (to << 8), cap)
    return not attacked


cdef inline int evasion_filter(BoardState* b, int* moves, int n, int k,
                               bint keep) noexcept nogil:
    # legal_filter's loop for a side in check (king on k): evasion_legal on each move.
    cdef unsigned char rays[4]
    cdef unsigned char part[256]
    cdef int i, kept = 0, mv
    cdef bint ok
    evasion_squares(b, k, part, rays)
    for i in range(n):
        mv = moves[i]
        ok = evasion_legal(b, mv & 255, mv >> 8, k, part, rays)
        if keep:
            if ok:
                moves[kept] = mv
                kept += 1
        else:
            kept += ok
    return kept


cdef inline int legal_filter(BoardState* b, int* moves, bint keep) noexcept nogil:
    # Generate into moves, then keep the legal ones at the front (keep) or only count
    # them (not keep: perft's last ply). Called with a constant keep, so the compiler
    # makes two specialised copies. A side in check goes through evasion_filter.
    cdef int n = generate_pseudo(b, moves)
    cdef int k = b.piece_square[16 + 16 * b.side]
    cdef unsigned char hot[256]
    cdef bint checked, ok
    cdef int i, kept = 0, mv
    if not k:
        return 0    # no king: only an empty Board() that was never loaded
    checked = threat_map(b, k, hot, 0)
    if unlikely(checked):
        return evasion_filter(b, moves, n, k, keep)
    for i in range(n):
        mv = moves[i]
        ok = not (hot[mv & 255] | hot[mv >> 8]) or is_legal_pseudo(b, mv, k, checked)
        if keep:
            if ok:
                moves[kept] = mv
                kept += 1
        else:
            kept += ok
    return kept


cdef inline int generate_legal_moves(BoardState* b, int* moves) noexcept nogil:
    return legal_filter(b, moves, 1)


cdef inline int count_legal_moves(BoardState* b) noexcept nogil:
    cdef int moves[MAX_MOVES]
    return legal_filter(b, moves, 0)
