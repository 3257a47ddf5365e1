# The RL room of the compiled core: the fixed action space, observation planes,
# legal-action masks and the game-end judge of the vectorised environment.
#
# Everything here works on the core's BoardState (see xiangqi/_core.pxd for the
# 16x16 layout, piece ids and the name legend) and runs without the GIL. It is
# cimported by the RL boundary, xiangqi/_rl.pxi, which _core.pyx includes: one
# extension, so the generator tables (core/tables.pxd, read-only C constants made by
# the compiler) and every rule exist once in the built module.
#
# Views. Every position is seen from the side to move ("the mover"), so that it
# always looks like Red to move: for Black the ranks are flipped (rank r -> 9 - r,
# files kept), the convention of AlphaZero and PettingZoo's chess. A "view
# square" is file + 9 * rank in the mover's view (0..89).
#
# Actions. The 2,086 (from, to) view-square pairs that some piece can make on an
# otherwise empty board: lines along a rank or file (rook, and the king's and pawn's
# steps), horse jumps, advisor diagonals in either palace, elephant jumps on either
# side. Index order: by from_square * 90 + to_square. Both palaces and both halves
# are counted, as the AlphaZero-xiangqi projects do, though the mover only uses its own.
#
# Planes, uint8, (C, 10, 9): plane[c][rank][file] in the mover's view, so a plane's
# flat index is the view square. 0..6 the mover's king, advisors, elephants,
# horses, rooks, cannons, pawns (1 where one stands); 7..13 the opponent's, same
# order; 14 repetition count (every entry: how many times this position occurred
# earlier since the last capture, saturating at 255; the game-end history's count,
# judge.pxd count_occurrences - 1); 15 no-capture clock (every entry: plies since the
# last capture, saturating at 255); then, for history=k,
# k blocks of 14 piece planes for the positions 1..k plies earlier (same view as
# the current one; zeros before the first recorded position).
#
# Short locals as in _core.pxd, plus: view (view square), a (action index).

from libc.string cimport memset

from xiangqi.core.movegen cimport (
    generate_legal_moves,
    generate_pseudo,
    is_legal_pseudo,
    mark_threats,
)
from xiangqi.core.asian cimport outcome_code
from xiangqi.core.chinese cimport cxa_outcome_code
from xiangqi.core.history cimport PlyRecord
from xiangqi.core.state cimport MAX_MOVES, BoardState
from xiangqi.core.tables cimport ADVISOR_ZONE, ELEPHANT_ZONE, PIECE_TYPE, SQUARE_OF


cdef enum:
    NUM_ACTIONS = 2086
    PIECE_PLANES = 14
    BASE_PLANES = 16            # 14 piece planes, repetition, no-capture clock
    REPETITION_PLANE = 14
    NO_CAPTURE_PLANE = 15
    NO_CAPTURE_LIMIT = 120      # plies without a capture that draw the game (60 moves each)
    REPETITIONS = 3             # occurrences of a position that rule on a repetition
    PLANE_SIZE = 90

# What judge_end says about a game after a move ("the mover" made that move).
cdef enum:
    ONGOING = 0
    MOVER_WINS = 1              # the opponent has no legal move, or checked/chased perpetually
    MOVER_LOSES = 2             # the mover checked or chased perpetually
    DRAW = 3                    # insufficient material, repetition, the move rule
    TRUNCATED = 4               # max_plies reached with the game undecided

# The tables live in verbatim C so this room owns them; init_rl_tables() fills them
# once at import, from geometry, and they are read-only after. Why not const tables made
# by the compiler (as tables.pxd's and zobrist.pxd's): the action numbering is a running
# count over the 8,100 (from, to) pairs that piece_can_go accepts, which the C
# preprocessor cannot number; a generated 8,100-entry literal would be a second source of
# the geometry. They are written only by init_rl_tables, once, before any Python code can
# reach the RL boundary (the module's import runs it), and nothing writes them after:
# STYLE.md's "nothing mutable at module level" is kept in behaviour, not by the type.
cdef extern from *:
    """
    /* view square * 90 + view square -> action index, -1 if no piece could make it */
    static short xq_rl_action_of[8100];
    /* action index -> view from * 90 + view to */
    static short xq_rl_action_code[2086];
    /* action index -> the action of the left-right mirrored move */
    static short xq_rl_mirror[2086];
    /* [mover][16x16 square] -> view square, 255 off the board */
    static unsigned char xq_rl_view_of[2][256];
    /* [mover][view square] -> 16x16 square */
    static unsigned char xq_rl_sq_of_view[2][90];
    /* [mover][piece id] -> piece plane 0..13, 255 for ids that are no piece */
    static unsigned char xq_rl_plane_of[2][48];
    """
    short ACTION_OF "xq_rl_action_of"[8100]
    short ACTION_CODE "xq_rl_action_code"[2086]
    short MIRROR "xq_rl_mirror"[2086]
    unsigned char VIEW_OF "xq_rl_view_of"[2][256]
    unsigned char SQ_OF_VIEW "xq_rl_sq_of_view"[2][90]
    unsigned char PLANE_OF "xq_rl_plane_of"[2][48]


cdef inline int piece_can_go(int frm, int to) noexcept nogil:
    # Could some piece make frm -> to (view squares) on an empty board?
    cdef int fr = frm // 9, ff = frm % 9, tr = to // 9, tf = to % 9
    cdef int dr = tr - fr, df = tf - ff
    cdef int adr = dr if dr >= 0 else -dr
    cdef int adf = df if df >= 0 else -df
    if frm == to:
        return 0
    if dr == 0 or df == 0:
        return 1                                    # rook line (covers king and pawn steps)
    if (adr == 1 and adf == 2) or (adr == 2 and adf == 1):
        return 1                                    # horse jump
    # Advisors and elephants: between two of their points (tables.pxd's zones; two
    # elephant points a jump apart are always on one half, two advisor points a step
    # apart in one palace).
    if adr == 1 and adf == 1:
        return ADVISOR_ZONE[SQUARE_OF[frm]] and ADVISOR_ZONE[SQUARE_OF[to]]
    if adr == 2 and adf == 2:
        return ELEPHANT_ZONE[SQUARE_OF[frm]] and ELEPHANT_ZONE[SQUARE_OF[to]]
    return 0


cdef inline int init_rl_tables() noexcept nogil:
    # Fills every table; returns the number of actions found (NUM_ACTIONS when right).
    cdef int frm, to, a, count = 0, mover, view, public, pc, mf, mt, sq
    for frm in range(90):
        for to in range(90):
            ACTION_OF[frm * 90 + to] = -1
            if piece_can_go(frm, to):
                if count < NUM_ACTIONS:
                    ACTION_OF[frm * 90 + to] = count
                    ACTION_CODE[count] = frm * 90 + to
                count += 1
    for a in range(NUM_ACTIONS):
        frm = ACTION_CODE[a] // 90
        to = ACTION_CODE[a] % 90
        mf = frm - frm % 9 + 8 - frm % 9
        mt = to - to % 9 + 8 - to % 9
        MIRROR[a] = ACTION_OF[mf * 90 + mt]
    for mover in range(2):
        for sq in range(256):
            VIEW_OF[mover][sq] = 255
        for public in range(90):
            # Black's view flips the ranks and keeps the files.
            view = public if mover == 0 else (public % 9) + 9 * (9 - public // 9)
            sq = (12 - public // 9) * 16 + 3 + public % 9     # the core's 16x16 index
            VIEW_OF[mover][sq] = view
            SQ_OF_VIEW[mover][view] = sq
        for pc in range(48):
            PLANE_OF[mover][pc] = 255
            if pc >= 16:
                PLANE_OF[mover][pc] = PIECE_TYPE[pc] + (0 if (pc >> 4) - 1 == mover else 7)
    return count


cdef inline int move_to_action(int mv, int mover) noexcept nogil:
    # Core move (16x16 from | to << 8) of the mover -> action index (never -1 for a real move).
    return ACTION_OF[VIEW_OF[mover][mv & 255] * 90 + VIEW_OF[mover][mv >> 8]]


cdef inline int action_to_move(int a, int mover) noexcept nogil:
    # Action index (0..NUM_ACTIONS-1, trusted) of the mover -> core move.
    cdef int code = ACTION_CODE[a]
    return SQ_OF_VIEW[mover][code // 90] | (SQ_OF_VIEW[mover][code % 90] << 8)


cdef inline void write_piece_planes(const BoardState* b, int mover,
                                    unsigned char* planes) noexcept nogil:
    # planes: PIECE_PLANES * PLANE_SIZE bytes, cleared here, filled from mover's view.
    cdef int pc, sq
    memset(planes, 0, PIECE_PLANES * PLANE_SIZE)
    for pc in range(16, 48):
        sq = b.piece_square[pc]
        if sq:
            planes[PLANE_OF[mover][pc] * PLANE_SIZE + VIEW_OF[mover][sq]] = 1


cdef inline int move_piece_planes(const BoardState* b, int mover, unsigned char* planes,
                                  unsigned short* placed, int count) noexcept nogil:
    # write_piece_planes for planes that hold exactly the count ones listed in placed
    # (byte offsets): clears those, sets the new ones, records them; returns how many.
    # Touches a few dozen bytes instead of clearing 1,260 (the VectorEnv's path).
    cdef int pc, sq, j, n = 0, at
    for j in range(count):
        planes[placed[j]] = 0
    for pc in range(16, 48):
        sq = b.piece_square[pc]
        if sq:
            at = PLANE_OF[mover][pc] * PLANE_SIZE + VIEW_OF[mover][sq]
            planes[at] = 1
            placed[n] = <unsigned short>at
            n += 1
    return n


cdef inline void write_counter_planes(unsigned char* planes, int repetitions,
                                      int no_capture) noexcept nogil:
    # planes: the start of the observation; fills planes 14 and 15 (saturating at 255).
    memset(planes + REPETITION_PLANE * PLANE_SIZE, min(repetitions, 255), PLANE_SIZE)
    memset(planes + NO_CAPTURE_PLANE * PLANE_SIZE, min(no_capture, 255), PLANE_SIZE)


cdef inline int legal_actions(BoardState* b, short* actions) noexcept nogil:
    # The mover's legal moves as action indices (at most MAX_MOVES); returns how many.
    cdef int moves[MAX_MOVES]
    cdef int n = generate_legal_moves(b, moves), i
    for i in range(n):
        actions[i] = move_to_action(moves[i], b.side)
    return n


cdef inline int mark_legal_actions(BoardState* b, short* actions, unsigned char* mask,
                                   bint* checked) noexcept nogil:
    # The VectorEnv's step: legal_actions, each action also set to 1 in mask (cleared by
    # the caller), and *checked = is the mover in check. This is movegen.pxd's
    # legal_filter with the action lookup and mask write folded into its loop; the check
    # is mark_threats' answer, which spares the step a separate in_check.
    cdef int moves[MAX_MOVES]
    cdef unsigned char hot[256]
    cdef const unsigned char* view = VIEW_OF[b.side]
    cdef int n = generate_pseudo(b, moves), k = b.piece_square[16 + 16 * b.side]
    cdef int i, kept = 0, mv, a
    cdef bint check
    checked[0] = 0
    if not k:
        return 0    # no king: never in a VectorEnv (its start position passed Position)
    check = mark_threats(b, k, hot)
    checked[0] = check
    for i in range(n):
        mv = moves[i]
        if not (hot[mv & 255] | hot[mv >> 8]) or is_legal_pseudo(b, mv, k, check):
            a = ACTION_OF[view[mv & 255] * 90 + view[mv >> 8]]
            actions[kept] = <short>a
            mask[a] = 1
            kept += 1
    return kept


cdef inline int judge_end(BoardState* b, const PlyRecord* plies, int n, int legal_count,
                          int occurrences, int max_plies, bint chinese) noexcept nogil:
    # How a vectorised game stands after a move, in the env's terms. The verdict is
    # Position.outcome()'s, from the same function: asian.pxd's outcome_code, or with
    # chinese set chinese.pxd's cxa_outcome_code, handed the legal-move count and occurrence
    # count the step has already computed; only truncation at max_plies is the env's own.
    cdef int code
    if chinese:
        code = cxa_outcome_code(b, plies, n, REPETITIONS, NO_CAPTURE_LIMIT, legal_count,
                                occurrences)
    else:
        code = outcome_code(b, plies, n, REPETITIONS, NO_CAPTURE_LIMIT, legal_count,
                            occurrences)
    if code == 0:
        return TRUNCATED if n >= max_plies else ONGOING
    if code >> 4 == 0:
        return DRAW
    # a winner (1 + its colour); the mover made the move into b, so it is 1 - b.side
    return MOVER_WINS if (code >> 4) - 1 != b.side else MOVER_LOSES


cdef inline unsigned long long splitmix_next(unsigned long long* state) noexcept nogil:
    # The next output of a SplitMix64 stream (seeds the sampler's streams).
    cdef unsigned long long z
    state[0] += 0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)
