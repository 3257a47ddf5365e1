# Room: the verdict of the Asian (AXF) rule set: how a game stands after a move, from
# the rooms below it (core/judge.pxd for what both rule sets share, core/chase.pxd for
# repetition rulings, core/material.pxd for the move rule). The Chinese rule set's
# verdict is core/chinese.pxd, beside this one.
#
# Everything here is `noexcept nogil` C, so batch and RL code can call it per
# environment without the GIL. The judging functions read only:
#   squares   unsigned char[256]: the core's 16x16 board of piece ids (0 empty, 0xFF off board)
#   side      the side to move at the current position (0 Red, 1 Black)
#   plies     PlyRecord[n + 1]: plies[0] is the root (the position the history starts from),
#             plies[i] the position after the i-th move; plies[n] is the current position
# and never writes to them (the chase analysis replays moves on a private copy).
# outcome_code takes the BoardState itself and makes/unmakes moves on it while testing
# (judge.pxd's has_legal_move); it is restored before it returns (do not share it
# across threads).
#
# Entry points:
#   outcome_code(b, plies, n, count, limit, legal, occurrences)   the whole verdict for
#                                               BoardState b: END_* | winner << 4, 0 while
#                                               the game goes on (-1, -1: count them here)
# and, from the rooms below: board_verdict, has_legal_move, count_occurrences (judge.pxd),
# judge_repetition (chase.pxd: RULING_* for the current position), move_rule_reached and
# insufficient_material (material.pxd), push_ply (history.pxd: the one history push).
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
from xiangqi.core.judge cimport (
    END_MOVE_RULE,
    END_PERPETUAL_CHASE,
    END_PERPETUAL_CHECK,
    END_REPETITION,
    board_verdict,
)
from xiangqi.core.material cimport move_rule_reached
from xiangqi.core.state cimport BoardState


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
