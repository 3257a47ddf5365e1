# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: repetitions judged by the Chinese Xiangqi Association's rules (《中国象棋竞赛规则》,
# 2020 棋例 chapter; the project's reading: tests/data/chinese_rules/README.md).
#
# Map (one line per function; [rules]; everything but cxa_outcome_code's cheap tests runs
# only when a repetition is judged):
#   cxa_value(pc, sq, chaser)           material value on the book's scale (1999 25.3)
#   cxa_gain(pc, sq, chaser)            its worth as a chase target (a pawn at home: 0)
#   cxa_see(r, sq, side, depth, chaser) what side wins by a capture sequence on sq (>= 0)
#   cxa_rooted(r, a, sq)               may the piece on sq be taken back after a takes it
#   cxa_take(r, a, sq, side)            what a wins by taking on sq, the whole exchange there
#   cxa_plain(r, sq, side)              the best cxa_take on sq, any attacker
#   cxa_near(v, a)                      may a piece on a change what attacks v
#   cxa_exposed(r, a, sq, side)         what the capture a x sq gives away elsewhere
#   cxa_mated_after(r, a, sq, side)     may the opponent mate after a takes on sq
#   cxa_win(r, sq, side, moved)         what side wins by taking the piece on sq next move
#                                       (less the exchange offers, 兑, and the captures
#                                       that give away more: 被牵子捉子)
#   cxa_win_without(r, a, sq, side)     cxa_win with the piece on a off the board
#   cxa_targets(r, side, moved)         enemy pieces side would win next move (bit per slot)
#   cxa_piece_targets(r, side, a, moved)  enemy pieces side's piece on a would win
#   cxa_best_gain(r, side, target)      the most side wins by taking one piece next move
#   cxa_even_back(r, a, sq, side)       is the piece on a offered for the like one on sq (兑)
#   cxa_check_net(r, side, depth, won, moved, old)   what side surely wins through a check
#   cxa_check_wins(r, side, moved, old) pieces side newly wins through a check (将军得子)
#   cxa_mates(r, side, depth, budget)   side mates by checks within depth of its moves (杀)
#   cxa_mate_threat(r, side, budget)    cxa_mates to CXA_MATE_DEPTH, then deeper in budget
#   cxa_threats(r, side, moved, old, by_check)   cxa_targets and cxa_check_wins together
#   cxa_termination(kinds)              the END_* naming a forbidden side's span
#   cxa_classify(squares, side, plies, n, first, kinds)   each side's kinds of move
#   cxa_judge(squares, side, plies, n, count)    END_* | winner << 4 for the repetition
#   cxa_outcome_code(b, plies, n, count, limit, legal, occurrences)   the whole verdict
#                                       under the Chinese rules
#
# Nothing here knows how a piece moves: attacks come from attacks.pxd (attackers_of),
# legality from movegen.pxd (in_check, generate_legal_moves) and from judge.pxd's
# capture_legal (the one "may this piece take there" test), play from state.pxd, and
# what the Asian rules judge alike from judge.pxd: the end codes, the verdict's start
# (no legal move, material: board_verdict), the repetition window (span_start) and its
# replay (replay_span).
#
# The kinds of move (2020 24.1-24.8) and how each is decided here (the readings are
# tuned on the book's cases, tests/test_chinese_rule_cases.py, which says which it misses):
#   将 check      the move gave check (the history's check flag).
#   杀 mate       with the mover to move again (its opponent passing), the mover mates by
#                 a series of checks of at most CXA_MATE_DEPTH (3) of its moves, every
#                 defence considered (2020 24.2 "a check or a series of checks"; the
#                 README's reading 3: mate in one, two or three), or, deepening one move
#                 at a time, of at most CXA_MATE_DEEP (6) within CXA_MATE_NODES move
#                 generations (reading 25: 24.2 sets no limit; 图7 is a four-check mate).
#   捉 chase      with the mover to move again, it wins material next move: some enemy
#                 piece (not the king; pawns at home are no material) that a piece of
#                 the mover other than the king and the pawns (their own attacks are
#                 idle: 1999 27.1, 27.2) may legally take, for more than the whole
#                 exchange on that square then costs (unprotected, a fake root, a
#                 stronger piece, fewer defenders than attackers: 少根, a joint attack),
#                 unless the capture uncovers a piece of its own to a new attacker that
#                 then wins more (a pinned attacker, 2020 图23; leaving a piece it
#                 protects does not count: a root may chase, 1999 细则4, 2020 图22);
#                 or a check after which every reply leaves it such a gain (将军得子).
#                 The chase must be new: a piece won after the move, by a capture or
#                 through a check, that was not won before it, or one the moved piece
#                 now wins by its own capture or a joint attack it takes part in and did
#                 not before, though another piece or a check did (cxa_piece_targets: a
#                 chase is by a piece, 2020 参考图45, 图30's variation) (从捉到捉 is
#                 idle: 1999 细则2, 细则6; for a move answering a check, what could be
#                 won before the check is not new either: 2020 26.1.4); a check-win
#                 counts by the pieces it wins (the one the check takes, and the one
#                 the best exchange takes after each reply), so a check-win of another
#                 piece is a new chase. An
#                 exchange offer (兑) chases nothing: the moved piece offered for a like
#                 one (even when taking it would check: 2020 图2, cxa_check_net), or a 少根
#                 gain resting on a like piece the target may take back evenly (cxa_win).
#                 Gains are counted on the book's scale (cxa_value), where a crossed
#                 pawn's value floats: a pawn for a horse or cannon is even, a pawn for a
#                 rook gains (1999 细则10; 2020 图24).
#   闲 idle       anything else: exchange offers, sacrifices, blocks and shadowing win
#                 nothing; a king move that answers a check (2020 图17).
# The heaviest effect names the move: check, then mate threat, then chase.
# Verdict: a side is forbidden when none of its moves in the span is idle (长将, 长杀, 长捉
# of one piece or several, and the mixtures 一将一捉, 一将一杀, 一杀一捉). A side that
# checked with every move while the other did not loses in any case (1999 26.1);
# otherwise one side forbidden and the other not: the forbidden side loses; both or
# neither: a draw.
# Issue 31: a pawn that has not crossed the river is no target (1999 25.3, 29.3:
# cxa_gain); a gain is the target's value less the whole exchange on its square (1999
# 28.16, 29.1: cxa_see to CXA_SEE_FULL, so 少根 and joint attacks chase); a move that
# answers a check chases only what could not be taken before the check (2020 26.1.4:
# cxa_classify also counts the threats before the checking move as old); a 少根 gain
# that rests on a like piece the target may take back evenly, or the moved piece offered
# for a like one, is an exchange offer (1999 28.5, 28.16: cxa_win); a capture that gives
# away more than it wins by uncovering a stronger piece is no gain (2020 图23: cxa_exposed).
# Third push (readings 21-25): a pawn at home is worth nothing inside an exchange too
# (cxa_value); the moved piece is offered for exchange only when the opponent's capture
# of it is an even trade, else it is given away and its attack chases (cxa_even_back's
# even: 1999 细则5, 细则12); a check wins something new only when every reply loses a
# piece no check won before the move (cxa_check_net's old); a capture the opponent
# answers by mate, searched as deep as a mate threat, wins nothing (cxa_mated_after:
# 1999 29.4, 细则7); mate threats deeper than three checks within a budget
# (cxa_mate_threat).
# Simplified: check-wins by one check only (CXA_CHECK_DEPTH; two finds 图16's 抽车 but
# also rules 图5's old capture a chase); the defensive key
# point (1999 27.3); the pawn's attacks in mutual perpetual attacks (1999 细则11); the
# book's long sequences without a threefold repetition; spans longer than CXA_MAX_SPAN
# plies are judged for checks only.

from xiangqi.core.attacks cimport attackers_of, on_own_half, slot_kind
from xiangqi.core.history cimport PlyRecord
from xiangqi.core.judge cimport (
    END_CHECK_AND_CHASE,
    END_CHECK_AND_MATE_THREAT,
    END_CHECK_MATE_THREAT_AND_CHASE,
    END_MATE_THREAT_AND_CHASE,
    END_MOVE_RULE,
    END_PERPETUAL_CHASE,
    END_PERPETUAL_CHECK,
    END_PERPETUAL_MATE_THREAT,
    END_REPETITION,
    board_verdict,
    capture_legal,
    replay_span,
    span_start,
)
from xiangqi.core.movegen cimport generate_legal_moves, in_check
from xiangqi.core.state cimport MAX_MOVES, BoardState, make_move, unmake_move

# Kinds of move, as bits (a side's span is the union of its moves' kinds).
cdef enum:
    CXA_CHECK = 1
    CXA_MATE = 2
    CXA_CHASE = 4
    CXA_IDLE = 8

cdef enum:
    CXA_MATE_DEPTH = 3      # moves of the mating side always searched for a mate threat
    CXA_MATE_DEEP = 6       # moves searched further, within CXA_MATE_NODES (reading 25)
    CXA_MATE_NODES = 2000   # move generations the deeper searches may spend, per move
    CXA_CHECK_DEPTH = 1     # checks in a series searched for a check that wins material
    CXA_SEE_FULL = 64       # depth of a whole exchange sequence (more than the pieces)
    CXA_MAX_SPAN = 512      # longest span analysed for mate threats and chases (plies)


cdef inline int cxa_value(int pc, int sq, int chaser) noexcept nogil:
    # Rook 8, horse 4, cannon 4, advisor 2, elephant 2, pawn at home 0 (no material, as a
    # target and inside an exchange alike: 1999 25.3 "未过河兵(卒)不算子力"; reading 21),
    # king 100 (never captured: captures are legal moves), as the side `chaser` counts its
    # gains. A crossed
    # pawn's value floats between an advisor's and a horse's (1999 25.3, 细则10; 2020
    # 图24): a pawn for a horse or cannon, or an advisor or elephant for a pawn, is even,
    # never a gain; so the chaser counts an enemy crossed pawn it wins at the low end (2)
    # and one of its own it gives up at the high end (4). A pawn for a rook still gains.
    cdef int kind = slot_kind(pc)
    if kind == 0:
        return 100
    if kind == 4:
        return 8
    if kind == 3 or kind == 5:
        return 4
    if kind == 6:
        if on_own_half(sq, (pc >> 4) - 1):
            return 0
        return 4 if (pc >> 4) - 1 == chaser else 2
    return 2


cdef inline int cxa_gain(int pc, int sq, int chaser) noexcept nogil:
    # What winning the piece pc on sq is worth to `chaser` as a chase target: its value
    # (cxa_value), but nothing for a pawn that has not crossed the river, which is no
    # material (1999 25.3, 29.3).
    if slot_kind(pc) == 6 and on_own_half(sq, (pc >> 4) - 1):
        return 0
    return cxa_value(pc, sq, chaser)


cdef inline int cxa_see(BoardState* r, int sq, int side, int depth, int chaser) noexcept nogil:
    # What side wins by capturing on sq, each side taking with its least valuable legal
    # attacker and free to stop, for at most depth captures (a static exchange; >= 0),
    # every piece valued as `chaser` counts it (cxa_value). r is restored.
    cdef int out[32]
    cdef int n = attackers_of(r.squares, side, sq, out)
    cdef int i, a, v, best = -1, best_v = 1000, cap, gain, mv
    if depth <= 0:
        return 0
    for i in range(n):
        a = out[i]
        v = cxa_value(r.squares[a], a, chaser)
        if v < best_v and capture_legal(r, a, sq):
            best = a
            best_v = v
    if best < 0:
        return 0
    gain = cxa_value(r.squares[sq], sq, chaser)
    mv = best | (sq << 8)
    cap = make_move(r, mv)
    gain -= cxa_see(r, sq, 1 - side, depth - 1, chaser)
    unmake_move(r, mv, cap)
    return gain if gain > 0 else 0


cdef inline bint cxa_rooted(BoardState* r, int a, int sq) noexcept nogil:
    # Has the piece on sq a root against the piece on a: after a takes it, may its side
    # take back on sq? r is restored.
    cdef int out[32]
    cdef int mv = a | (sq << 8), cap, n, i
    cdef bint found = 0
    cap = make_move(r, mv)
    n = attackers_of(r.squares, (cap >> 4) - 1, sq, out)
    for i in range(n):
        if capture_legal(r, out[i], sq):
            found = 1
            break
    unmake_move(r, mv, cap)
    return found


cdef inline int cxa_take(BoardState* r, int a, int sq, int side) noexcept nogil:
    # What side's piece on a wins by taking the enemy piece on sq (which it may legally
    # take): the piece's value less what the whole exchange on sq then costs (cxa_see).
    # Can be negative. r is restored.
    cdef int mv = a | (sq << 8), cap, net
    cap = make_move(r, mv)
    net = cxa_value(cap, sq, side) - cxa_see(r, sq, 1 - side, CXA_SEE_FULL, side)
    unmake_move(r, mv, cap)
    return net


cdef inline int cxa_plain(BoardState* r, int sq, int side) noexcept nogil:
    # What side wins by taking the enemy piece on sq next move, by any piece, the king
    # and the pawns included, through the whole exchange on sq (>= 0); nothing else
    # considered. The opponent's answer in cxa_exposed. r is restored.
    cdef int out[32]
    cdef int n = attackers_of(r.squares, side, sq, out)
    cdef int i, net, best = 0
    for i in range(n):
        if capture_legal(r, out[i], sq):
            net = cxa_take(r, out[i], sq, side)
            if net > best:
                best = net
    return best


cdef inline bint cxa_near(int v, int a) noexcept nogil:
    # Could a piece leaving or entering square a change what attacks square v? Lines (the
    # rook's, the cannon's and its screens, the kings' file) run along ranks and files;
    # a horse's leg and an elephant's eye stand next to the squares they block.
    cdef int dr = (v >> 4) - (a >> 4), df = (v & 15) - (a & 15)
    return dr == 0 or df == 0 or (-1 <= dr <= 1 and -1 <= df <= 1)


cdef inline int cxa_exposed(BoardState* r, int a, int sq, int side) noexcept nogil:
    # What side's capture a x sq gives away elsewhere (>= 0): the most the opponent may
    # then win by taking a piece of side's that the capture uncovers to a new attacker (a
    # pinned attacker that opens a line to a stronger piece, 2020 图23 被牵子捉子), less
    # the most it may win before the capture. A root that leaves the piece it protects
    # gives nothing away here: a piece that is itself a root may chase (1999 细则4, 2020
    # 图22). r is restored.
    cdef int out[32]
    cdef int attackers[16]
    cdef int own = 16 + 16 * side, j, v, g, mv = a | (sq << 8), cap, before = 0, after = 0
    for j in range(1, 16):
        v = r.piece_square[own + j]
        attackers[j] = 0
        if v and v != a and (cxa_near(v, a) or cxa_near(v, sq)):
            attackers[j] = attackers_of(r.squares, 1 - side, v, out)
    cap = make_move(r, mv)
    for j in range(1, 16):
        v = r.piece_square[own + j]
        if (v and v != sq and (cxa_near(v, a) or cxa_near(v, sq))
                and attackers_of(r.squares, 1 - side, v, out) > attackers[j]):
            g = cxa_plain(r, v, 1 - side)
            if g > after:
                after = g
    unmake_move(r, mv, cap)
    if after == 0:
        return 0        # nothing uncovered (the usual case): the scan before is not needed
    for j in range(1, 16):
        v = r.piece_square[own + j]
        if v and v != a:
            g = cxa_plain(r, v, 1 - side)
            if g > before:
                before = g
    return after - before if after > before else 0


cdef inline bint cxa_even_back(BoardState* r, int a, int sq, int side, bint even) noexcept nogil:
    # Is side's piece on a offered to the enemy piece on sq for a like one (同等子力,
    # 1999 28.5): of equal value, and may the enemy piece take it back without loss on
    # the whole exchange there? With even set, only an even trade counts: taking the
    # piece on a wins the enemy nothing on the whole exchange (a piece it may take for
    # nothing is given away, 送吃, not offered for exchange: 28.5 "互换", 1999 细则5,
    # 细则12; reading 22). r is restored.
    cdef int mv = sq | (a << 8), cap, net
    if cxa_value(r.squares[a], a, side) != cxa_value(r.squares[sq], sq, side):
        return 0
    if not capture_legal(r, sq, a):
        return 0
    cap = make_move(r, mv)
    net = cxa_value(cap, a, side) - cxa_see(r, a, side, CXA_SEE_FULL, side)
    unmake_move(r, mv, cap)
    return net == 0 if even else net >= 0


cdef inline bint cxa_mated_after(BoardState* r, int a, int sq, int side) noexcept nogil:
    # After side's piece on a takes the piece on sq, may the opponent mate by a check or
    # a series of checks, searched as a mate threat is (cxa_mate_threat: three checking
    # moves always, then up to CXA_MATE_DEEP within CXA_MATE_NODES)? Such a capture wins
    # nothing (1999 29.4 "得子后...不致被将死", 细则7; reading 24). As deep as 杀 itself:
    # in 2020 参考图35 Black's cannon takes a rook, before Black's rook parries, into a
    # mate by five checks, and the book calls the parry a chase of that rook. r is
    # restored.
    cdef int mv = a | (sq << 8), cap
    cdef bint mated
    cdef int budget = CXA_MATE_NODES
    cap = make_move(r, mv)
    mated = cxa_mate_threat(r, 1 - side, &budget)
    unmake_move(r, mv, cap)
    return mated


cdef inline int cxa_win(BoardState* r, int sq, int side, int moved) noexcept nogil:
    # What side wins by taking the enemy piece on sq next move (>= 0): the best, over
    # side's attackers other than the king and the pawns (their own attacks are idle)
    # that may legally take, of the piece's value less what the whole exchange on sq
    # then costs (cxa_see: every attacker of both sides, the king and pawns included, so
    # a piece attacked by more pieces than defend it, 少根, or jointly by several, can be
    # won: 1999 28.16, 29.1 "完整交换过程得子"). A pawn that has not crossed the river is
    # no target. Exchange offers (兑, 1999 28.5 "走子可与同等子力互换吃去") win nothing:
    # when an attacker worth as much as the piece (同等子力: a rook for a rook, a horse
    # for a cannon, an advisor for an elephant) may be taken back by it without loss on
    # the whole exchange there, and without that attacker nothing is won, there is no
    # gain if (1) that attacker is the piece that just moved (on `moved`): the move
    # offers it, even to an unprotected piece (2020 参考图5, 9: 长兑); or (2) the piece
    # has a root against it: a 少根 gain that rests on a like piece the target may
    # exchange is no 少根 (1999 28.16; 2020 图21, 参考图4). An unprotected piece
    # uncovered to a like one (2020 图25) and a gain that stays without the like piece
    # (2020 图11: 捉兼兑按捉, 1999 细则5) are chases. moved: -1 for neither reading, 0 for
    # (2) alone (no move made: the threats before a move, the gain after a check's
    # reply). r is restored.
    cdef int out[32]
    cdef int n = attackers_of(r.squares, side, sq, out)
    cdef int i, a, pc, kind, net, best = 0
    if cxa_gain(r.squares[sq], sq, side) == 0:
        return 0        # a pawn at home is no target (1999 25.3, 29.3)
    for i in range(n):
        a = out[i]
        kind = slot_kind(r.squares[a])
        if kind == 0 or kind == 6 or not capture_legal(r, a, sq):
            continue
        net = cxa_take(r, a, sq, side)
        # One that gives away more elsewhere wins nothing (2020 图23), nor one the
        # opponent answers by mate (1999 29.4, 细则7).
        if (net > best and cxa_exposed(r, a, sq, side) <= net
                and not cxa_mated_after(r, a, sq, side)):
            best = net
    if moved < 0 or best == 0:
        return best
    for i in range(n):
        a = out[i]
        pc = r.squares[a]
        kind = slot_kind(pc)
        if kind == 0 or kind == 6 or not capture_legal(r, a, sq):
            continue
        # No like piece, taking it back loses, or (the moved piece) it is taken for
        # nothing: no even exchange offered.
        if not cxa_even_back(r, a, sq, side, a == moved):
            continue
        if a != moved and not cxa_rooted(r, a, sq):
            continue    # an unprotected piece uncovered to an equal one: a chase
        # Without the equal piece, is there still a gain? If not, the move offers it.
        if cxa_win_without(r, a, sq, side) == 0:
            return 0
    return best


cdef inline int cxa_win_without(BoardState* r, int a, int sq, int side) noexcept nogil:
    # cxa_win(r, sq, side, -1) with side's piece on a taken off the board. r is restored.
    cdef int pc = r.squares[a], net
    r.squares[a] = 0
    r.piece_square[pc] = 0
    net = cxa_win(r, sq, side, -1)
    r.squares[a] = pc
    r.piece_square[pc] = a
    return net


cdef inline unsigned int cxa_targets(BoardState* r, int side, int moved) noexcept nogil:
    # Bit j set for each enemy piece (slot j) that side would win if it were to move.
    cdef int enemy = 32 - 16 * side, j, v
    cdef unsigned int found = 0
    for j in range(1, 16):
        v = r.piece_square[enemy + j]
        if v and cxa_win(r, v, side, moved) > 0:
            found |= 1u << j
    return found


cdef inline unsigned int cxa_piece_targets(BoardState* r, int side, int a,
                                           int moved) noexcept nogil:
    # Bit j set for each enemy piece (slot j) that side's piece on a would win, if side
    # were to move: by its own capture (cxa_take, less what it gives away, cxa_exposed),
    # or as a partner of a joint attack (联合捉, 2020 24.3) that wins nothing without it;
    # either way a gain for side at all (cxa_win: no exchange offer). r is restored.
    cdef int enemy = 32 - 16 * side, j, v, net, pc = r.squares[a], kind = slot_kind(pc)
    cdef unsigned int found = 0
    if kind == 0 or kind == 6:
        return 0        # the king's and the pawns' own attacks are idle
    for j in range(1, 16):
        v = r.piece_square[enemy + j]
        if not v or not cxa_gain(r.squares[v], v, side) or not capture_legal(r, a, v):
            continue
        if cxa_win(r, v, side, moved) == 0:
            continue
        net = cxa_take(r, a, v, side)
        if net > 0 and cxa_exposed(r, a, v, side) <= net and not cxa_mated_after(r, a, v, side):
            found |= 1u << j
            continue
        # Without the piece, is the gain gone? Then it takes part in a joint attack.
        if cxa_win_without(r, a, v, side) == 0:
            found |= 1u << j
    return found


cdef inline int cxa_best_gain(BoardState* r, int side, int* target) noexcept nogil:
    # The most side wins by taking one enemy piece (0 if nothing); target gets that
    # piece's slot (0 if nothing). A 少根 gain that rests on an equal piece the target
    # may take back evenly is no gain here either (cxa_win's second reading).
    cdef int enemy = 32 - 16 * side, j, v, g, best = 0
    target[0] = 0
    for j in range(1, 16):
        v = r.piece_square[enemy + j]
        if v:
            g = cxa_win(r, v, side, 0)
            if g > best:
                best = g
                target[0] = j
    return best


cdef inline int cxa_check_net(BoardState* r, int side, int depth, unsigned int* won,
                              int moved, unsigned int old) noexcept nogil:
    # With side to move: the most it surely wins through a check (0 if nothing): over its
    # checks, the least over the replies of what the check took, less what the reply
    # took, plus the best that follows (one capture, cxa_best_gain, or, depth > 1, a
    # further check: a series of checks, 1999 29.1). won gets the pieces (bit per enemy
    # slot) of every check that wins something not in old after every reply: the one it
    # took and those it wins after each reply, less old. A check after which one reply
    # loses only pieces in old (what was won before the move) wins nothing new: the
    # defender chooses the reply (1999 29.1-29.2, 细则6; reading 23).
    # A check with no reply is a mate, judged as a mate threat instead. A check by the
    # piece that just moved (on moved; -1: none) taking a like piece that could take it
    # back evenly is that piece's exchange offer (兑, cxa_even_back), no win. r is restored.
    cdef int moves[MAX_MOVES]
    cdef int replies[MAX_MOVES]
    cdef int n, m, i, k, cap, cap2, net, deeper, worst, target, best = 0, saved = r.side
    cdef unsigned int got, more, lost, capbit
    cdef bint fresh
    r.side = side
    n = generate_legal_moves(r, moves)
    for i in range(n):
        if ((moves[i] & 255) == moved and r.squares[moves[i] >> 8]
                and cxa_even_back(r, moved, moves[i] >> 8, side, 1)):
            continue
        cap = make_move(r, moves[i])
        if in_check(r, 1 - side):
            m = generate_legal_moves(r, replies)
            worst = 0
            got = 0
            fresh = 1
            capbit = 0
            if cap and cxa_gain(cap, moves[i] >> 8, side):
                capbit = 1u << (cap & 15)
            if m:
                worst = 1000
                for k in range(m):
                    cap2 = make_move(r, replies[k])
                    net = cxa_best_gain(r, side, &target)
                    lost = (1u << target) if target else 0
                    if depth > 1:
                        more = 0
                        deeper = cxa_check_net(r, side, depth - 1, &more, -1, old)
                        if deeper > 0:
                            lost |= more
                        if deeper > net:
                            net = deeper
                    lost = (lost | capbit) & ~old
                    got |= lost
                    fresh = fresh and lost != 0
                    if cap:
                        net += cxa_gain(cap, moves[i] >> 8, side)
                    if cap2:
                        net -= cxa_value(cap2, replies[k] >> 8, side)
                    unmake_move(r, replies[k], cap2)
                    if net < worst:
                        worst = net
                    if worst <= 0 or not fresh:
                        break
            if worst > 0 and fresh:
                won[0] |= got | (capbit & ~old)
                if worst > best:
                    best = worst
        unmake_move(r, moves[i], cap)
    r.side = saved
    return best


cdef inline unsigned int cxa_check_wins(BoardState* r, int side, int moved,
                                        unsigned int old) noexcept nogil:
    # With side to move: the enemy pieces (bit per slot) it wins through a check or a
    # series of at most CXA_CHECK_DEPTH checks (cxa_check_net), other than those in old,
    # by a check that wins one of them after every reply. r is restored.
    cdef unsigned int found = 0
    cxa_check_net(r, side, CXA_CHECK_DEPTH, &found, moved, old)
    return found


cdef inline bint cxa_mates(BoardState* r, int side, int depth, int* budget) noexcept nogil:
    # With side to move: can it mate by checks within depth of its moves, every defence
    # considered? budget: move generations still allowed, one spent per node; at 0 the
    # search stops and answers no (nothing proven). r is restored.
    cdef int moves[MAX_MOVES]
    cdef int replies[MAX_MOVES]
    cdef int n, m, i, k, cap, cap2, saved = r.side
    cdef bint every
    if budget[0] <= 0:
        return 0
    budget[0] -= 1
    r.side = side
    n = generate_legal_moves(r, moves)
    for i in range(n):
        cap = make_move(r, moves[i])
        if in_check(r, 1 - side):
            m = generate_legal_moves(r, replies)
            every = m == 0
            if not every and depth > 1:
                every = 1
                for k in range(m):
                    cap2 = make_move(r, replies[k])
                    every = cxa_mates(r, side, depth - 1, budget)
                    unmake_move(r, replies[k], cap2)
                    if not every:
                        break
            if every:
                unmake_move(r, moves[i], cap)
                r.side = saved
                return 1
        unmake_move(r, moves[i], cap)
    r.side = saved
    return 0


cdef inline bint cxa_mate_threat(BoardState* r, int side, int* budget) noexcept nogil:
    # With side to move: can it mate by a series of checks, every defence considered (杀,
    # 2020 24.2, which sets no limit on the checks)? Within CXA_MATE_DEPTH of its moves
    # always; then, deepening one move at a time up to CXA_MATE_DEEP, while budget (move
    # generations, shared by the span's moves) lasts. r is restored.
    cdef int full = 1 << 30, depth
    if cxa_mates(r, side, CXA_MATE_DEPTH, &full):
        return 1
    for depth in range(CXA_MATE_DEPTH + 1, CXA_MATE_DEEP + 1):
        if budget[0] <= 0:
            return 0
        if cxa_mates(r, side, depth, budget):
            return 1
    return 0


cdef inline unsigned int cxa_threats(BoardState* r, int side, int moved, unsigned int old,
                                     unsigned int* by_check) noexcept nogil:
    # What side would win if it were to move (bit per enemy slot): by a capture
    # (cxa_targets) or through a check (cxa_check_wins, less old, which by_check gets).
    by_check[0] = cxa_check_wins(r, side, moved, old)
    return cxa_targets(r, side, moved) | by_check[0]


cdef inline int cxa_termination(int kinds) noexcept nogil:
    # The END_* that names a forbidden side's span from its kinds of move.
    if kinds == CXA_CHECK:
        return END_PERPETUAL_CHECK
    if kinds == CXA_MATE:
        return END_PERPETUAL_MATE_THREAT
    if kinds == CXA_CHASE:
        return END_PERPETUAL_CHASE
    if kinds == CXA_CHECK | CXA_CHASE:
        return END_CHECK_AND_CHASE
    if kinds == CXA_CHECK | CXA_MATE:
        return END_CHECK_AND_MATE_THREAT
    if kinds == CXA_MATE | CXA_CHASE:
        return END_MATE_THREAT_AND_CHASE
    return END_CHECK_MATE_THREAT_AND_CHASE


cdef inline void cxa_classify(const unsigned char* squares, int side, const PlyRecord* plies,
                              int n, int first, int* kinds) noexcept nogil:
    # Replay the span plies[first + 1 .. n] on a private board and classify each move:
    # kinds[side] gets the union of that side's CXA_* kinds. Stops early once both sides
    # have an idle move (the verdict is then a draw whatever the rest are).
    cdef int i, mover, mv, kind
    cdef bint king_reply
    cdef unsigned int before, own_before, checks_before, more
    cdef int budget
    cdef BoardState r
    kinds[0] = kinds[1] = 0
    replay_span(&r, squares, plies, n, first)
    for i in range(first + 1, n + 1):
        mover = side ^ ((n - i + 1) & 1)
        mv = plies[i].move
        if plies[i].check:
            kind = CXA_CHECK
        elif n - first > CXA_MAX_SPAN:
            kind = CXA_IDLE     # too long to analyse: checks only
        else:
            # A king move answering a check is idle whatever it threatens (2020 图17).
            king_reply = plies[i - 1].check and slot_kind(r.squares[mv & 255]) == 0
            # before: what the mover could win before the move, by a capture or through
            # a check; own_before: what the moving piece could win by a capture of its
            # own or a joint attack it takes part in (a win through a check before does
            # not make that chase old: 2020 图30's variation).
            before = own_before = checks_before = 0
            if not king_reply:
                before = cxa_threats(&r, mover, 0, 0, &checks_before)
                own_before = cxa_piece_targets(&r, mover, mv & 255, 0)
                if plies[i - 1].check and i - 1 > 0:
                    # The move answers a check: what the mover could win before the
                    # check was given does not become new by the answer (2020 26.1.4).
                    unmake_move(&r, plies[i - 1].move, plies[i - 1].captured)
                    before |= cxa_threats(&r, mover, 0, 0, &more)
                    checks_before |= more
                    own_before |= cxa_piece_targets(&r, mover, mv & 255, 0)
                    make_move(&r, plies[i - 1].move)
            make_move(&r, mv)
            budget = CXA_MATE_NODES
            if king_reply:
                kind = CXA_IDLE
            elif cxa_mate_threat(&r, mover, &budget):
                kind = CXA_MATE
            elif cxa_threats(&r, mover, mv >> 8, checks_before, &more) & ~before:
                kind = CXA_CHASE
            elif cxa_piece_targets(&r, mover, mv >> 8, mv >> 8) & ~own_before:
                # The moved piece wins a piece it could not win before, though another
                # piece could: a new chase by that piece (1999 细则2, 细则6; 2020 参考图45).
                kind = CXA_CHASE
            else:
                kind = CXA_IDLE
            unmake_move(&r, mv, plies[i].captured)
        make_move(&r, mv)
        kinds[mover] |= kind
        if kinds[0] & kinds[1] & CXA_IDLE:
            return      # both sides idle once: the span is allowed to both, whatever follows


cdef inline int cxa_judge(const unsigned char* squares, int side, const PlyRecord* plies,
                          int n, int count) noexcept nogil:
    # The verdict on the current position under the Chinese rules when it has occurred
    # `count` times: END_* | winner << 4 (winner 1 + colour), END_REPETITION for a draw,
    # 0 when it has not.
    cdef int first = span_start(plies, n, count), i, loser
    cdef int kinds[2]
    cdef bint all_check[2]
    cdef bint forbidden[2]
    if first < 0:
        return 0
    cxa_classify(squares, side, plies, n, first, kinds)
    for i in range(2):
        all_check[i] = kinds[i] == CXA_CHECK
        forbidden[i] = not (kinds[i] & CXA_IDLE)
    if all_check[0] != all_check[1]:
        loser = 0 if all_check[0] else 1
        return END_PERPETUAL_CHECK | ((2 - loser) << 4)
    if forbidden[0] != forbidden[1]:
        loser = 0 if forbidden[0] else 1
        return cxa_termination(kinds[loser]) | ((2 - loser) << 4)
    return END_REPETITION


cdef inline int cxa_outcome_code(BoardState* b, const PlyRecord* plies, int n, int count,
                                 int limit, int legal, int occurrences) noexcept nogil:
    # outcome_code (asian.pxd) under the Chinese rules: no legal move, insufficient
    # material (board_verdict, shared), repetition (cxa_judge), then the natural move
    # limit: `limit` plies without a capture, checks counted like any move (1999 4.2.4; no
    # check discount). legal, occurrences: as outcome_code's (-1: count them here).
    cdef int code = board_verdict(b, plies[n].check, legal)
    if code:
        return code
    if occurrences < 0 or occurrences >= count:
        code = cxa_judge(b.squares, b.side, plies, n, count)
        if code:
            return code
    if plies[n].clock >= limit:
        return END_MOVE_RULE
    return 0
