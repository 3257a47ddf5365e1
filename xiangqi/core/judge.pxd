# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: what both rule sets (core/asian.pxd, core/chinese.pxd) judge alike: the end
# codes, the board verdict (no legal move, insufficient material), the repetition
# window of a history and its replay on a private board, and the one "may this piece
# take there" test the chase judges of both rule sets ask.
#
# Map (one line per function):
#   END_*                                  the terminations of every rule set
#   safe_after(b, frm, to, side, k, quiet) is the pseudo-legal move frm -> to legal
#   has_legal_move(b, checked)             the side to move has a legal move
#   board_verdict(b, checked, legal)       no legal move, insufficient material: the
#                                          start of every rule set's verdict
#   scan_window(plies, n, count, first)    occurrences of the current position in the
#                                          repetition window (the one scan)
#   count_occurrences(plies, n)            times the current position has occurred
#   span_start(plies, n, count)            where the judged span starts (-1: none)
#   replay_load(r, squares)                a private board for replaying a span
#   replay_span(r, squares, plies, n, first)   that board at the span's first position
#   capture_legal(r, frm, to)              may the piece on frm legally take on to?
#
# The repetition window: the positions since the last capture with the current side to
# move (plies n - 4, n - 6, ... down to n - clock; two plies back cannot be equal). A
# ruling is made when the current position has occurred `count` times in it; the "span"
# is every move from the earliest of those occurrences to now (count - 1 cycles).

from libc.stdint cimport uint64_t
from libc.string cimport memset

from xiangqi.core.attacks cimport attacks_point
from xiangqi.core.history cimport PlyRecord
from xiangqi.core.material cimport insufficient_material
from xiangqi.core.movegen cimport evasion_legal, evasion_squares, in_check, move_exposes
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

# outcome codes (xiangqi.rules.Termination uses the same numbers); the winner sits above
# them: code = termination | winner << 4, winner 0 draw, 1 + colour.
cdef enum:
    END_CHECKMATE = 1
    END_STALEMATE = 2               # no legal move while not in check: a loss
    END_PERPETUAL_CHECK = 3
    END_PERPETUAL_CHASE = 4
    END_REPETITION = 5              # a draw
    END_MOVE_RULE = 6               # a draw
    END_INSUFFICIENT_MATERIAL = 7   # a draw
    # Terminations only the Chinese rules give (core/chinese.pxd).
    END_PERPETUAL_MATE_THREAT = 8           # 长杀
    END_CHECK_AND_CHASE = 9                 # 一将一捉
    END_CHECK_AND_MATE_THREAT = 10          # 一将一杀
    END_MATE_THREAT_AND_CHASE = 11          # 一杀一捉
    END_CHECK_MATE_THREAT_AND_CHASE = 12    # all three kinds of attack in one cycle

cdef enum:
    WINDOW_ALL = 0x7FFFFFFF     # scan_window's count for "every occurrence"


cdef inline bint safe_after(BoardState* b, int frm, int to, int side, int k,
                            bint quiet, const unsigned char* part,
                            const unsigned char* rays) noexcept nogil:
    # Is the pseudo-legal move frm -> to legal for side (to move), whose king is on k?
    # In check (not quiet), movegen's evasion_legal (part, rays: evasion_squares').
    # Otherwise a non-king move that starts and ends off the king's rank and file, and
    # does not start on a horse-leg square next to the king, cannot expose the king (no
    # ray through the king changes, no cannon screen appears, no horse leg opens), so
    # it is legal without being made; any other is made and tested: a king move by
    # in_check, another only on the lines through its squares (move_exposes).
    cdef int d = frm - k, cap
    cdef bint attacked
    if not quiet:
        return evasion_legal(b, frm, to, k, part, rays)
    if (frm != k and (frm ^ k) & 0xF0 and (frm ^ k) & 0x0F
            and (to ^ k) & 0xF0 and (to ^ k) & 0x0F
            and d != 15 and d != -15 and d != 17 and d != -17):
        return 1
    cap = make_move(b, frm | (to << 8))
    if frm != k:
        attacked = move_exposes(b, k, frm, to)
    else:
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
    # measurably faster. To check: build a scratch copy of the tree whose body here is
    # `return count_legal_moves(b) > 0`, run `bash benchmarks/callgrind_counts.sh TREE`
    # on both trees and compare the row "middlegame push+outcome+pop x 10,000" (one such
    # run gave 58.3 M instructions for the scratch copy against 34.5 M for this walk).
    cdef int side = b.side, side_tag = 16 + 16 * side
    cdef const unsigned char* sq = b.squares
    cdef int slot, p, k, to, d
    cdef int king = b.piece_square[side_tag]
    cdef bint quiet
    cdef unsigned char part[256]
    cdef unsigned char rays[4]
    if not king:
        return 0
    quiet = not checked
    if checked:
        evasion_squares(b, king, part, rays)
    for slot in range(15, -1, -1):
        p = b.piece_square[side_tag + slot]
        if not p:
            continue
        if slot >= 11:
            for k in range(3):
                to = p + PAWN_STEPS[side][k]
                # Forward always, sideways across the river (as movegen.generate_pseudo).
                if ((k == 2 or not own_half(p, side)) and not (sq[to] & side_tag)
                        and safe_after(b, p, to, side, king, quiet, part, rays)):
                    return 1
        elif slot >= 7:             # rooks (7, 8) and cannons (9, 10)
            for k in range(4):
                d = ROOK_DIRS[k]
                to = p + d
                while not sq[to]:
                    if safe_after(b, p, to, side, king, quiet, part, rays):
                        return 1
                    to += d
                if slot <= 8:
                    if not (sq[to] & side_tag) and safe_after(b, p, to, side, king, quiet,
                                                              part, rays):
                        return 1
                elif sq[to] != OFF_BOARD:
                    to = first_piece(sq, to, d)     # past the screen
                    if not (sq[to] & side_tag) and safe_after(b, p, to, side, king, quiet,
                                                              part, rays):
                        return 1
        elif slot >= 5:
            for k in range(8):
                to = p + HORSE_STEPS[k]
                if (not (sq[to] & side_tag) and not sq[p + HORSE_LEGS[k]]
                        and safe_after(b, p, to, side, king, quiet, part, rays)):
                    return 1
        elif slot >= 3:
            for k in range(4):
                to = p + ELEPHANT_STEPS[k]
                if (ELEPHANT_ZONE[to] and not sq[p + ELEPHANT_EYES[k]] and not (sq[to] & side_tag)
                        and safe_after(b, p, to, side, king, quiet, part, rays)):
                    return 1
        elif slot >= 1:
            for k in range(4):
                to = p + ADVISOR_STEPS[k]
                if (ADVISOR_ZONE[to] and not (sq[to] & side_tag)
                        and safe_after(b, p, to, side, king, quiet, part, rays)):
                    return 1
        else:
            for k in range(4):
                to = p + KING_STEPS[k]
                if (KING_ZONE[to] and not (sq[to] & side_tag)
                        and safe_after(b, p, to, side, king, quiet, part, rays)):
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


cdef inline int scan_window(const PlyRecord* plies, int n, int count,
                            int* first) noexcept nogil:
    # The one scan of the repetition window (see the header): how many times the current
    # position (plies[n]) occurs in it, itself included, stopping at the count-th; first
    # gets the ply of the earliest occurrence counted (n when it is the only one).
    cdef uint64_t key = plies[n].key
    cdef long long back = plies[n].clock if plies[n].clock < n else n
    cdef int stop = n - <int>back, i = n - 4, seen = 1
    first[0] = n
    while i >= stop:
        if plies[i].key == key:
            seen += 1
            first[0] = i
            if seen >= count:
                break
        i -= 2
    return seen


cdef inline int count_occurrences(const PlyRecord* plies, int n) noexcept nogil:
    # How many times the current position has occurred since the last capture, itself
    # included (the Asian rules' art. 5: moves "that return to the same state").
    cdef int first
    return scan_window(plies, n, WINDOW_ALL, &first)


cdef inline int span_start(const PlyRecord* plies, int n, int count) noexcept nogil:
    # The ply of the earliest of the `count` occurrences of the current position in the
    # window, -1 when it has occurred fewer times (no ruling).
    cdef int first
    if scan_window(plies, n, count, &first) < count:
        return -1
    return first


cdef inline void replay_load(BoardState* r, const unsigned char* squares) noexcept nogil:
    # A private board for replaying a span: the squares, the piece list rebuilt from them.
    # Its side is never read (the judges pass sides explicitly); make/unmake keep it paired.
    cdef int sq, pc
    memset(r, 0, sizeof(BoardState))
    for sq in range(256):
        pc = squares[sq]
        r.squares[sq] = pc
        if pc and pc != OFF_BOARD:
            r.piece_square[pc] = sq


cdef inline void replay_span(BoardState* r, const unsigned char* squares,
                             const PlyRecord* plies, int n, int first) noexcept nogil:
    # r = the position at plies[first], taken back from the current one (squares, whose
    # history is plies[0..n]): the board a judge replays plies[first + 1 .. n] on.
    cdef int i = n
    replay_load(r, squares)
    while i > first:
        unmake_move(r, plies[i].move, plies[i].captured)
        i -= 1


cdef inline bint capture_legal(BoardState* r, int frm, int to) noexcept nogil:
    # May the piece on frm legally take the piece on to (its own king safe afterwards)?
    # Its movement rule is attacks.pxd's attacks_point; the king's safety in_check's.
    cdef int mover = (r.squares[frm] >> 4) - 1, cap
    cdef bint ok
    if not attacks_point(r.squares, frm, to):
        return 0
    cap = make_move(r, frm | (to << 8))
    ok = not in_check(r, mover)
    unmake_move(r, frm | (to << 8), cap)
    return ok
