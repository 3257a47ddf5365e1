# Game-end judging over a position and its history: repetition lookup, perpetual check,
# perpetual chase (Asian / AXF rules), the move rule and insufficient material.
#
# Everything here is `noexcept nogil` C, so batch and RL code can call it per
# environment without the GIL. The judging functions read only:
#   squares   unsigned char[256]: the core's 16x16 board of piece ids (0 empty, 0xFF off board)
#   side      the side to move at the current position (0 Red, 1 Black)
#   plies     PlyRecord[n + 1]: plies[0] is the root (the position the history starts from),
#             plies[i] the position after the i-th move; plies[n] is the current position
# and never writes to them (the chase analysis replays moves on a private copy).
# has_legal_move and outcome_code take the BoardState itself and make/unmake moves on
# it while testing; it is restored before they return (do not share it across threads).
#
# Entry points (return codes below):
#   outcome_code(b, plies, n, count, limit)     the whole verdict for BoardState b: END_* |
#                                               winner << 4, 0 while the game goes on
#   count_occurrences(plies, n)                 times the current position has occurred
#   judge_repetition(squares, side, plies, n, count)   RULING_* for the current position
#   move_rule_reached(plies, n, limit)          1 when the no-capture limit is reached
#   insufficient_material(piece_square)         1 when neither side has an attacking piece
#   has_legal_move(b, checked)                  the side to move has a legal move
#   push_ply(b, plies, n, mv)                   the one history push: plays mv, writes
#                                               plies[n + 1] (key, move, captured, clock)
# A caller keeping its own history appends one PlyRecord per move with push_ply, then
# sets check = in_check(b, b.side) after the move (movegen.pxd).
#
# Rules (the Python docstring of xiangqi.rules says the same for users):
# - A ruling is made when the current position has occurred `count` times (3 in play,
#   2 as engines do in search), counting only positions since the last capture with the
#   same side to move. The "span" is every move from the earliest of those occurrences
#   to now (count - 1 cycles).
# - Perpetual check: every move one side made in the span gave check. Check outranks
#   chase: if either side checked perpetually, chases are not looked at. Both sides
#   checking perpetually is a draw.
# - Perpetual chase: one and the same enemy piece is newly chased by every move one side
#   made in the span. If both sides chase perpetually and exactly one of them chases a
#   rook that its horse pins against the rook's king (the rook blocks the horse's leg;
#   WXF diagrams 39-41), that side alone loses; otherwise both chasing, or neither, is
#   a draw.
# - X "chases" victim v after a move when some piece a of X (not a king, not a pawn:
#   those may chase freely) can legally capture v (a pinned piece may take its own
#   pinner: WXF diagrams 37, 50), v is not a king nor a pawn on its own side of the
#   river, and either
#     * a is a horse or cannon and v a rook, or a is an advisor or elephant and v a rook,
#       horse or cannon (a threat against a stronger piece counts even if protected); or
#     * v is unprotected: after a takes v, no piece of v's side can legally take back
#       (a protector that would expose its king, or a king that would step into check or
#       face the other king, is a fake root; one pinned only by a, which it may take,
#       still protects); and if a and v are of one kind, v cannot legally
#       take a (a mutual attack is no chase). If X's move gave check, recaptures are
#       judged as if the check were answered: any piece reaching the square protects.
#   The move "newly" chases v when some attacker a chases v after it and, before it,
#   a could not legally capture v at all (a new attack, direct or discovered; a
#   different piece taking up the threat is new), or could but v was protected and its
#   roots are now fake (they still reach the square but may not take back). A root
#   that no longer reaches the square (its line or cannon screen changed) makes no new
#   chase: the attack did not change (WXF diagrams 61, 106). Pieces keep their
#   identity (core piece id) through the cycle, so a fleeing piece is followed.
# Deliberate simplifications: see xiangqi/rules.py.

from libc.stdint cimport uint64_t
from libc.string cimport memset

from xiangqi.core.movegen cimport in_check
from xiangqi.core.zobrist cimport key_after_move
from xiangqi.core.state cimport OFF_BOARD, BoardState, make_move, unmake_move
from xiangqi.core.tables cimport (
    ADVISOR_STEPS,
    ADVISOR_ZONE,
    ELEPHANT_EYES,
    ELEPHANT_STEPS,
    ELEPHANT_ZONE,
    HORSE_LEGS,
    HORSE_STEPS,
    KING_STEPS,
    KING_ZONE,
    PAWN_STEPS,
    PAWN_ZONE,
    ROOK_DIRS,
)

# One entry of a game's history: the position after a move (plies[0]: the root).
cdef struct PlyRecord:
    uint64_t key        # Zobrist key of the position (see zobrist.pxd)
    int move            # core move that led here, from | to << 8; 0 at the root
    int captured        # core piece id that move captured, 0 if none
    long long clock     # plies since the last capture (the FEN halfmove clock)
    int check           # 1 if the side to move here is in check (the move gave check)

# judge_repetition results, from the view of the side to move (like the engines').
cdef enum:
    RULING_NONE = 0         # the position has not occurred `count` times
    RULING_DRAW = 1         # repetition: neither side, or both, broke a rule
    RULING_WIN_CHECK = 2    # the side to move wins: the other side checked perpetually
    RULING_LOSS_CHECK = 3   # the side to move loses: it checked perpetually
    RULING_WIN_CHASE = 4    # the side to move wins: the other side chased perpetually
    RULING_LOSS_CHASE = 5   # the side to move loses: it chased perpetually

# outcome_code() terminations (xiangqi.rules.Termination uses the same numbers); the
# winner sits above them: code = termination | winner << 4, winner 0 draw, 1 + colour.
cdef enum:
    END_CHECKMATE = 1
    END_STALEMATE = 2               # no legal move while not in check: a loss
    END_PERPETUAL_CHECK = 3
    END_PERPETUAL_CHASE = 4
    END_REPETITION = 5              # a draw
    END_MOVE_RULE = 6               # a draw
    END_INSUFFICIENT_MATERIAL = 7   # a draw

cdef extern from *:
    """
    #define XIANGQI_COUNTER_MAX (1LL << 62)
    """
    # The largest FEN counter a history holds (a long long); the clock stops there.
    const long long COUNTER_MAX "XIANGQI_COUNTER_MAX"

cdef enum:
    RULES_MAX_SPAN = 4096   # longest span analysed for chases (plies); longer: checks only
    CHECKS_COUNTED = 10     # checks per side that count towards the move rule


cdef inline int type_of_slot(int slot) noexcept nogil:
    # slot 0 king, 1-2 advisor, 3-4 elephant, 5-6 horse, 7-8 rook, 9-10 cannon, 11-15 pawn
    return 6 if slot >= 11 else (slot + 1) >> 1


cdef inline bint in_palace(int sq) noexcept nogil:
    cdef int row = sq >> 4, col = sq & 15
    return 6 <= col <= 8 and (row <= 5 or row >= 10) and 3 <= row <= 12


cdef inline bint pawn_crossed(int side, int sq) noexcept nogil:
    # Rows 8..12 (bit 0x80) are Red's half; a pawn has crossed on the other half.
    return (sq & 0x80) == 0 if side == 0 else (sq & 0x80) != 0


cdef inline bint reaches(const unsigned char* b, int frm, int to) noexcept nogil:
    # Could the piece on frm move to (or capture on) the occupied or empty square to,
    # by its movement rule alone? The target's colour is the caller's business.
    cdef int pc = b[frm], pt = type_of_slot(pc & 15), side = pc >> 5
    cdef int dr = (to >> 4) - (frm >> 4), dc = (to & 15) - (frm & 15)
    cdef int adr = dr if dr >= 0 else -dr, adc = dc if dc >= 0 else -dc
    cdef int step, s, between
    if pt == 0:
        return adr + adc == 1 and in_palace(to)
    if pt == 1:
        return adr == 1 and adc == 1 and in_palace(to)
    if pt == 2:
        return adr == 2 and adc == 2 and ((frm ^ to) & 0x80) == 0 and b[(frm + to) >> 1] == 0
    if pt == 3:
        if adr == 2 and adc == 1:
            return b[frm + 8 * dr] == 0
        if adr == 1 and adc == 2:
            return b[frm + dc // 2] == 0
        return 0
    if pt == 6:
        if dc == 0 and dr == (-1 if side == 0 else 1):
            return 1
        return dr == 0 and adc == 1 and pawn_crossed(side, frm)
    # rook or cannon
    if dr == 0 and dc != 0:
        step = 1 if dc > 0 else -1
    elif dc == 0 and dr != 0:
        step = 16 if dr > 0 else -16
    else:
        return 0
    between = 0
    s = frm + step
    while s != to:
        between += b[s] != 0
        s += step
    if pt == 4:
        return between == 0
    return between == (1 if b[to] else 0)


cdef inline void replay_load(BoardState* r, const unsigned char* squares) noexcept nogil:
    # A private board for replaying a cycle: the squares, the piece list rebuilt from them.
    # Its side is never read (the judge passes sides explicitly); make/unmake keep it paired.
    cdef int sq, pc
    memset(r, 0, sizeof(BoardState))
    for sq in range(256):
        pc = squares[sq]
        r.squares[sq] = pc
        if pc and pc != OFF_BOARD:
            r.piece_square[pc] = sq


cdef inline bint king_attacked(const BoardState* r, int side) noexcept nogil:
    # Is side's king attacked by any enemy piece, or facing the enemy king?
    cdef int k = r.piece_square[16 + 16 * side], enemy = 32 - 16 * side
    cdef int i, s, ek
    if not k:
        return 0
    for i in range(1, 16):
        s = r.piece_square[enemy + i]
        if s and reaches(r.squares, s, k):
            return 1
    ek = r.piece_square[enemy]
    if ek and ((ek ^ k) & 15) == 0:
        s = k + (16 if ek > k else -16)
        while s != ek and r.squares[s] == 0:
            s += 16 if ek > k else -16
        return s == ek
    return 0


cdef inline bint capture_legal(BoardState* r, int frm, int to) noexcept nogil:
    # May the piece on frm legally take the piece on to (its own king safe afterwards)?
    cdef int mover = r.squares[frm] >> 5, cap
    cdef bint ok
    if not reaches(r.squares, frm, to):
        return 0
    cap = make_move(r, frm | (to << 8))
    ok = not king_attacked(r, mover)
    unmake_move(r, frm | (to << 8), cap)
    return ok


cdef inline bint defended_after(BoardState* r, int frm, int to) noexcept nogil:
    # After the piece on frm takes the piece on to, can the victim's side legally take back?
    cdef int victim_base = 16 + 16 * (r.squares[to] >> 5), i, s, cap
    cdef bint found = 0
    cap = make_move(r, frm | (to << 8))
    for i in range(16):
        s = r.piece_square[victim_base + i]
        if s and capture_legal(r, s, to):
            found = 1
            break
    unmake_move(r, frm | (to << 8), cap)
    return found


cdef inline bint reached_after(BoardState* r, int frm, int to) noexcept nogil:
    # After the piece on frm takes the piece on to, does any piece of the victim's side
    # still reach the square (legally or not)? A root that is there but may not take back
    # is a fake root; one that no longer reaches the square is no root at all.
    cdef int victim_base = 16 + 16 * (r.squares[to] >> 5), i, s, cap
    cdef bint found = 0
    cap = make_move(r, frm | (to << 8))
    for i in range(16):
        s = r.piece_square[victim_base + i]
        if s and reaches(r.squares, s, to):
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
    cdef bint checked = king_attacked(r, 1 - side)
    for i in range(16):
        pairs[i] = 0
        attacks[i] = 0
        fake[i] = 0
    for i in range(1, 11):          # advisors .. cannons: kings and pawns chase freely
        a = r.piece_square[base + i]
        if not a:
            continue
        at = type_of_slot(i)
        found = 0
        hit = 0
        faked = 0
        for j in range(1, 16):      # every piece but the king
            v = r.piece_square[enemy + j]
            if not v:
                continue
            vt = type_of_slot(j)
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
                if not reached_after(r, a, v):
                    found |= 1u << j
                continue
            if at == vt and capture_legal(r, v, a):
                continue            # a mutual attack
            if not defended_after(r, a, v):
                found |= 1u << j
                if reached_after(r, a, v):
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


cdef inline int push_ply(BoardState* b, PlyRecord* plies, int n, int mv) noexcept nogil:
    # The one history push (Board.push and the VectorEnv step alike): play mv on b and
    # write plies[n + 1] from plies[n]: the Zobrist key (zobrist.pxd's key_after_move),
    # the move, the captured piece and the no-capture clock. The caller sets
    # plies[n + 1].check (in_check(b, b.side); the step has it from its move list).
    # Returns the captured piece id.
    cdef const PlyRecord* prev = &plies[n]
    cdef PlyRecord* ply = &plies[n + 1]
    cdef int pc = b.squares[mv & 255]
    cdef int cap = make_move(b, mv)
    ply.key = key_after_move(prev.key, pc, mv & 255, mv >> 8, cap)
    ply.move = mv
    ply.captured = cap
    ply.clock = 0 if cap else (prev.clock + 1 if prev.clock < COUNTER_MAX else prev.clock)
    return cap


cdef inline int count_occurrences(const PlyRecord* plies, int n) noexcept nogil:
    # How many times the current position (plies[n]) has occurred since the last capture,
    # itself included. Positions two plies apart cannot be equal, so the scan starts 4 back.
    cdef uint64_t key = plies[n].key
    cdef long long back = plies[n].clock if plies[n].clock < n else n
    cdef int stop = n - <int>back, i, seen = 1
    i = n - 4
    while i >= stop:
        if plies[i].key == key:
            seen += 1
        i -= 2
    return seen


cdef inline int judge_repetition(const unsigned char* squares, int side, const PlyRecord* plies,
                                 int n, int count) noexcept nogil:
    # The ruling at the current position when it has occurred `count` times (count >= 2),
    # else RULING_NONE. See the header for the rules applied.
    cdef uint64_t key = plies[n].key
    cdef long long back = plies[n].clock if plies[n].clock < n else n
    cdef int stop = n - <int>back, i, seen = 1, first = -1, mover
    cdef bint checking[2]
    cdef unsigned int chase[2]
    cdef unsigned int pinned[2]
    cdef BoardState r
    i = n - 4
    while i >= stop:
        if plies[i].key == key:
            seen += 1
            if seen >= count:
                first = i
                break
        i -= 2
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
    replay_load(&r, squares)
    i = n
    while i > first:
        unmake_move(&r, plies[i].move, plies[i].captured)
        i -= 1
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


cdef inline bint move_rule_reached(const PlyRecord* plies, int n, int limit) noexcept nogil:
    # Has the no-capture count reached limit plies? A side's checks beyond its first
    # CHECKS_COUNTED in the no-capture stretch do not count, nor do the replies to them:
    # two plies off per excess check, as Pikafish and Fairy-Stockfish count (pyffish
    # agrees ply for ply, tests/test_rules.py). Plies before the root are counted as
    # plain moves: their checks are not known.
    cdef long long clock = plies[n].clock
    cdef int i, mover, stop
    cdef int checks[2]
    if clock < limit:
        return 0
    checks[0] = checks[1] = 0
    stop = n - <int>(clock if clock < n else n)
    for i in range(stop + 1, n + 1):
        if plies[i].check:
            mover = ((n - i) & 1)   # relative: 0 = the side that made the last move
            checks[mover] += 1
    for mover in range(2):
        if checks[mover] > CHECKS_COUNTED:
            clock -= 2 * (checks[mover] - CHECKS_COUNTED)
    return clock >= limit


cdef inline bint insufficient_material(const unsigned char* where) noexcept nogil:
    # Neither side has a rook, horse, cannon or pawn (where: the core's piece_square[48]).
    cdef int side, slot
    for side in range(2):
        for slot in range(5, 16):
            if where[16 + 16 * side + slot]:
                return 0
    return 1


cdef inline bint safe_after(BoardState* b, int frm, int to, int side, int k,
                            bint quiet) noexcept nogil:
    # Is the pseudo-legal move frm -> to legal for side, whose king is on k? When quiet
    # (side is not in check), a non-king move that starts and ends off the king's rank
    # and file, and does not start on a horse-leg square next to the king, cannot expose
    # the king (no ray through the king changes, no cannon screen appears, no horse leg
    # opens), so it is legal without being made. Otherwise make, test, unmake.
    cdef int d = frm - k, cap
    cdef bint attacked
    if (quiet and frm != k and (frm ^ k) & 0xF0 and (frm ^ k) & 0x0F
            and (to ^ k) & 0xF0 and (to ^ k) & 0x0F
            and d != 15 and d != -15 and d != 17 and d != -17):
        return 1
    cap = make_move(b, frm | (to << 8))
    attacked = in_check(b, side)
    unmake_move(b, frm | (to << 8), cap)
    return not attacked


cdef inline bint has_legal_move(BoardState* b, bint checked) noexcept nogil:
    # Has the side to move a legal move? Walks the pieces from the pawns back to the king,
    # generating one piece's moves at a time (as generate_pseudo does) and stops at the
    # first legal one: in most positions the first move tried is legal, so this costs a
    # few comparisons, not a whole generation. checked: is the side to move in check
    # (in_check(b, b.side); a history has it as plies[n].check). b is left as it was.
    cdef int side = b.side, side_tag = 16 + 16 * side
    cdef const unsigned char* sq = b.squares
    cdef int slot, p, k, to, d
    cdef int king = b.piece_square[side_tag]
    cdef bint quiet
    if not king:
        return 0
    quiet = not checked
    for slot in range(15, -1, -1):
        p = b.piece_square[side_tag + slot]
        if not p:
            continue
        if slot >= 11:
            for k in range(3):
                to = p + PAWN_STEPS[side][k]
                if (PAWN_ZONE[side][to] and not (sq[to] & side_tag)
                        and safe_after(b, p, to, side, king, quiet)):
                    return 1
        elif slot >= 7:             # rooks (7, 8) and cannons (9, 10)
            for k in range(4):
                d = ROOK_DIRS[k]
                to = p + d
                while not sq[to]:
                    if safe_after(b, p, to, side, king, quiet):
                        return 1
                    to += d
                if slot <= 8:
                    if not (sq[to] & side_tag) and safe_after(b, p, to, side, king, quiet):
                        return 1
                elif sq[to] != OFF_BOARD:
                    to += d
                    while not sq[to]:
                        to += d
                    if not (sq[to] & side_tag) and safe_after(b, p, to, side, king, quiet):
                        return 1
        elif slot >= 5:
            for k in range(8):
                to = p + HORSE_STEPS[k]
                if (not (sq[to] & side_tag) and not sq[p + HORSE_LEGS[k]]
                        and safe_after(b, p, to, side, king, quiet)):
                    return 1
        elif slot >= 3:
            for k in range(4):
                to = p + ELEPHANT_STEPS[k]
                if (ELEPHANT_ZONE[to] and not sq[p + ELEPHANT_EYES[k]]
                        and not (sq[to] & side_tag) and safe_after(b, p, to, side, king, quiet)):
                    return 1
        elif slot >= 1:
            for k in range(4):
                to = p + ADVISOR_STEPS[k]
                if (ADVISOR_ZONE[to] and not (sq[to] & side_tag)
                        and safe_after(b, p, to, side, king, quiet)):
                    return 1
        else:
            for k in range(4):
                to = p + KING_STEPS[k]
                if (KING_ZONE[to] and not (sq[to] & side_tag)
                        and safe_after(b, p, to, side, king, quiet)):
                    return 1
    return 0


cdef inline int outcome_code(BoardState* b, const PlyRecord* plies, int n, int count,
                             int limit) noexcept nogil:
    # How the game stands: 0 while it goes on, else END_* | winner << 4 (winner 0 draw,
    # 1 + colour). b is the current position and plies[0..n] its history (plies[n]
    # describes b); count (>= 2) occurrences rule a repetition; limit is the no-capture
    # limit in plies. Order: no legal move (checkmate or stalemate, a loss), insufficient
    # material, repetition (perpetual check, perpetual chase, or a draw), the move rule.
    # Allocates nothing; b is left as it was.
    cdef int side = b.side, ruling
    cdef bint checked = plies[n].check
    if not has_legal_move(b, checked):
        return (END_CHECKMATE if checked else END_STALEMATE) | ((2 - side) << 4)
    if insufficient_material(b.piece_square):
        return END_INSUFFICIENT_MATERIAL
    ruling = judge_repetition(b.squares, side, plies, n, count)
    if ruling == RULING_DRAW:
        return END_REPETITION
    if ruling == RULING_WIN_CHECK:
        return END_PERPETUAL_CHECK | ((1 + side) << 4)
    if ruling == RULING_LOSS_CHECK:
        return END_PERPETUAL_CHECK | ((2 - side) << 4)
    if ruling == RULING_WIN_CHASE:
        return END_PERPETUAL_CHASE | ((1 + side) << 4)
    if ruling == RULING_LOSS_CHASE:
        return END_PERPETUAL_CHASE | ((2 - side) << 4)
    if move_rule_reached(plies, n, limit):
        return END_MOVE_RULE
    return 0
