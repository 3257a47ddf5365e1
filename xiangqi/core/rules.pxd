# Room: the verdict of the Asian (AXF) rule set: how a game stands after a move, from
# the rooms below it (core/history.pxd, core/chase.pxd, core/material.pxd). A second
# rule set adds its verdict beside outcome_code, reusing history and material.
#
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
# Entry points (rooms: history.pxd for the history, chase.pxd for repetition rulings,
# material.pxd for the move rule and material, this file for the verdict):
#   outcome_code(b, plies, n, count, limit, legal, occurrences)   the whole verdict for
#                                               BoardState b: END_* | winner << 4, 0 while
#                                               the game goes on (-1, -1: count them here)
#   board_verdict(b, checked, legal)            no legal move, insufficient material: the
#                                               start of every rule set's verdict
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
# Rules (the Python docstring of xiangqi.rules says the same for users).
# Clauses ("art. N") are the numbered rules of the Asian rules' chapter 4, section 4
# ("Detail Rules and Examples"; Committee of Referees, Hong Kong Chinese Chess
# Association, English translation by Eric Wu, online at www.wxf.org/xq/rule/asia/),
# whose diagram numbers are the "WXF diagrams" of the tests. Only articles whose text
# was found are cited.
# - No legal move loses, in check or not (art. 2); a side that breaks a rule and does not
#   change loses (art. 3): outcome_code rules it at the `count`-th occurrence.
# - A ruling is made when the current position has occurred `count` times (3 in play,
#   2 as engines do in search), counting only positions since the last capture with the
#   same side to move. The "span" is every move from the earliest of those occurrences
#   to now (count - 1 cycles). A repetition in which nobody breaks a rule is a draw
#   (art. 5).
# - Perpetual threats of mate are not judged: they are a draw (art. 9, 10).
# - Perpetual check: every move one side made in the span gave check (art. 6; "two
#   checks, one check back" loses for the perpetual checker, art. 8). Check outranks
#   chase: if either side checked perpetually, chases are not looked at. Both sides
#   checking perpetually is a draw (art. 7).
# - Perpetual chase: one and the same enemy piece is newly chased by every move one side
#   made in the span (chasing two or more pieces in turn is allowed: art. 32). If both
#   sides chase perpetually and exactly one of them chases a rook that its horse pins
#   against the rook's king (the rook blocks the horse's leg; art. 19, WXF diagrams
#   39-41), that side alone loses; otherwise both chasing, or neither, is a draw.
# - X "chases" victim v after a move when some piece a of X (not a king, not a pawn:
#   those may chase freely, art. 28 and 29) can legally capture v (a pinned piece may take its own
#   pinner: WXF diagrams 37, 50), v is not a king nor a pawn on its own side of the
#   river, and either
#     * a is a horse or cannon and v a rook, or a is an advisor or elephant and v a rook,
#       horse or cannon (a threat against a stronger piece counts even if protected;
#       cannons against a rook: art. 15); or
#     * v is unprotected: after a takes v, no piece of v's side can legally take back
#       (a protector that would expose its king, or a king that would step into check or
#       face the other king, is a fake root; one pinned only by a, which it may take,
#       still protects; a rook chasing an unprotected cannon: art. 18); and if a and v
#       are of one kind, v cannot legally take a (a mutual attack is no chase: a
#       perpetual offer to exchange is a draw, art. 40; an offer does not excuse a chase
#       made beside it by another piece, art. 36). If X's move gave check, recaptures
#       are judged as if the check were answered: any piece reaching the square protects.
#   The move "newly" chases v when some attacker a chases v after it and, before it,
#   a could not legally capture v at all (a new attack, direct or discovered; a
#   different piece taking up the threat is new), or could but v was protected and its
#   roots are now fake (they still reach the square but may not take back). A root
#   that no longer reaches the square (its line or cannon screen changed) makes no new
#   chase: the attack did not change (WXF diagrams 61, 106). Pieces keep their
#   identity (core piece id) through the cycle, so a fleeing piece is followed.
# Deliberate simplifications: see xiangqi/rules.py.

from xiangqi.core.chase cimport (
    RULING_DRAW,
    RULING_LOSS_CHASE,
    RULING_LOSS_CHECK,
    RULING_NONE,
    RULING_WIN_CHASE,
    RULING_WIN_CHECK,
    judge_repetition,
)
from xiangqi.core.history cimport PlyRecord
from xiangqi.core.material cimport insufficient_material, move_rule_reached
from xiangqi.core.movegen cimport in_check
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
    ROOK_DIRS,
    first_piece,
    own_half,
)

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
    # A specialised copy of generate_pseudo's walk (the rules themselves come from
    # tables.pxd: its zone and step tables and first_piece), kept because it is
    # measurably faster: with `return count_legal_moves(b) > 0` instead, 10,000
    # middlegame push + outcome() + pop took 58.3 M instructions instead of 34.5 M
    # (bash benchmarks/callgrind_counts.sh, branch once).
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
                # Forward always, sideways across the river (as movegen.generate_pseudo).
                if ((k == 2 or not own_half(p, side)) and not (sq[to] & side_tag)
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
                    to = first_piece(sq, to, d)     # past the screen
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


cdef inline int board_verdict(BoardState* b, bint checked, int legal) noexcept nogil:
    # The part of every rule set's verdict that needs no history: no legal move loses, in
    # check or not (AXF art. 2; the Chinese book the same), then insufficient material
    # draws. checked: the side to move is in check; legal: its legal-move count when the
    # caller has it (the RL step has generated the moves), -1 to find out (early exit).
    if legal == 0 or (legal < 0 and not has_legal_move(b, checked)):
        return (END_CHECKMATE if checked else END_STALEMATE) | ((2 - b.side) << 4)
    if insufficient_material(b.piece_square):
        return END_INSUFFICIENT_MATERIAL
    return 0


cdef inline int outcome_code(BoardState* b, const PlyRecord* plies, int n, int count,
                             int limit, int legal, int occurrences) noexcept nogil:
    # How the game stands: 0 while it goes on, else END_* | winner << 4 (winner 0 draw,
    # 1 + colour). b is the current position and plies[0..n] its history (plies[n]
    # describes b); count (>= 2) occurrences rule a repetition; limit is the no-capture
    # limit in plies. Order: no legal move (checkmate or stalemate, a loss), insufficient
    # material, repetition (perpetual check, perpetual chase, or a draw), the move rule.
    # legal and occurrences: the side to move's legal-move count and count_occurrences(
    # plies, n) when the caller has them (the VectorEnv step), else -1. The one verdict of
    # the Asian rules: Position.outcome() and the RL judge (rl.pxd judge_end) both call it.
    # Allocates nothing; b is left as it was.
    cdef int side = b.side, ruling = RULING_NONE
    cdef int code = board_verdict(b, plies[n].check, legal)
    if code:
        return code
    if occurrences < 0 or occurrences >= count:
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
