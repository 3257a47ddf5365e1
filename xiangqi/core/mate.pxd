# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the forced-mate search. Proves the shortest forced mate of the side to move
# (the attacker) within a number of plies, or that there is none, on the fast path's
# own generator and check test (movegen.pxd): no second movement model.
#
# Map (one line per function; all [fast]):
#   tt_entry(s, key)              the table slot of key (NULL when it holds another key)
#   tt_store(s, key, ...)         record what is proven about key
#   occurrences(s, ply, key, &last, &first)   how often key stands already on the line
#   perpetual_check(s, first, last)   does that span make the defender check forever?
#   judge_return(s, ply, key)     what the repetition rules let the move to ply do
#   tick(s)                       count a node; stop at the node limit, on a signal or
#                                 when poll_stop says so
#   solve(s, ply, d)              attacker's node (even distance from the root): can it
#                                 mate within d plies? defender's node (odd distance): is
#                                 it mated within d plies?
#   exact_attack(s, ply, d, &mv)  the shortest mate within d from an attacker's node
#   mate_line(s, found, line, &length)   the line of a mate proven to take found plies
#   mate_search(s, max_plies, line, &length, &proven)   iterative deepening, then the line
#   child_numbers(s, f, k, d)     df-pn: what the tables know of a child
#   mid(s, ply, d, thpn, thdn, ...)   df-pn: one node, searched until a threshold
#   dfpn(s, ply, d, &length)      df-pn: a node proven or disproven (infinite thresholds)
#   dfpn_mate_search(s, max_plies, line, &length, &proven)   df-pn proof, df-pn disproof
#                                 of a shorter mate, then the line
#
# The game searched: the attacker moves on odd plies (1, 3, ...), the defender on even
# ones; a side with no legal move has lost (in check or not: 将死 and 困毙 alike), so
# a mate is always an odd number of plies and the attacker loses when it is the one
# without a move. With checks_only the attacker may play only moves that give check
# (连将杀); the defender keeps every legal move.
#
# Results: WIN (proven mate within d), WIN_PATH (the same, but the proof used the line's
# history: a repetition judged by judge_return), FAIL (proven none within d), FAIL_PATH
# (none found, but the proof used the line's history, or an escape by a check, which
# another line could make a forbidden perpetual check), STOP (node limit, a signal or
# poll_stop; nothing proven). WIN_PATH = WIN | FAIL_PATH, so `r | FAIL_PATH` marks a
# result line-bound.
#
# Repetition: the line is the game's history since the last capture (plies 0..root - 1,
# filled by the boundary), then the search's moves from the root. A move that returns
# to a position of the line is judged by judge_return as the rules judge repetitions
# (the site's page "How games end: the two rule books"): the game ends at a position's
# third occurrence, ruled on the span since the first of the three; a one-sided perpetual
# check loses (both rule sets: Asian rules; CXA 1999 26.1), anything else the search
# calls a draw (chases are not judged).
#   - The defender may check until the rules end the game: a move that makes a second
#     occurrence is searched on (REPEAT; within d plies it cannot last forever). A
#     move that makes a third occurrence on a span in which every defender move gave
#     check and not every attacker move did (its one-sided perpetual check, its loss)
#     is not played (SKIP): it must defend otherwise (one left with no other move has
#     lost by the rules, not been mated: no mate is reported). Any other defender move
#     that makes a third occurrence ends the game undecided or lost for the attacker:
#     it refutes (ESCAPE).
#   - The attacker plays a move that closes the defender's perpetual-check cycle at a
#     second occurrence (REPEAT; the defender must then leave the cycle before a
#     third) and a second occurrence of a position of the game before the root
#     (REPEAT: the game goes on), but no other return to a position of the search's
#     path, and nothing that makes a third occurrence (SKIP: the game ends there, and
#     not by a mate, even where the rules give the attacker the win). The skips of
#     returns do not change which mates exist: along a shortest mate with the longest
#     resistance the distance to mate falls by one every ply, so no position of the
#     path repeats unless the defender's checks force it (the exception above).
#
# The move rule (Position.outcome()'s default, s.move_limit = 120 plies without a
# capture, move_rule_at as core/material.pxd's move_rule_reached): a position it rules
# is a draw, unless the side to move has no legal move (outcome() rules that first: a
# mate by the move that reaches the limit counts). s.clocks[ply] is the line's halfmove
# clock. A node is "bound" when clocks[ply] + d reaches the limit (the rule may bite
# within its d plies; every ancestor of a bound node is bound, since a capture only
# lowers the clock): it reads no "mated within" from the table (proven where the
# rule did not bite) and stores no "not mated within" (the rule may be why); what a
# bound node proves mated holds at any clock, so it is stored.
# What judge_return allowed depends on the line, so a result that used it (a REPEAT
# played, a SKIP, an ESCAPE: WIN_PATH, FAIL_PATH) is not stored in the transposition
# table; nor is a defender's escape by a check (FAIL_PATH: on another line the same
# check may close a forbidden cycle), so what the table holds does not depend on the
# line that reached its position. (It may still meet a line on which one of its
# positions already stands twice, where a third occurrence would end the game: the
# table does not count occurrences.)

# Transposition table: a fixed power-of-two array of TTEntry owned by one search (the
# boundary allocates and frees it), index = key & mask, one entry per slot, a new key
# replaces the old. An entry holds what is proven about one position (Zobrist key,
# side to move included): "mated within `mate` plies" and "not mated within `nomate`
# plies" (0 = nothing proven), and the move that proved it (the attacker's mating move,
# the defender's refutation), tried first next time.
#
# Move order: the attacker tries its table move, then checks that leave the defender
# fewest replies (a check with none is mate at once), then captures by the value of
# the piece taken, then the rest. The defender tries its table move, then checks
# (an attacker in check has few moves and may have none), then captures, then the rest.
#
# Stack use: solve recurses one level per ply (at most MATE_MAX_PLIES deep,
# a few hundred bytes a frame); the move lists live in the caller's heap array of
# MateFrame, one per ply, so a deep search needs no large C stack.
#
# Legend as in _core.pxd: sq (16x16 index), pc (piece id), mv (move), cap (captured id),
# d (plies still allowed), ply (distance from the root).

from libc.stdint cimport uint64_t

from xiangqi.core.movegen cimport count_legal_moves, generate_legal_moves, in_check
from xiangqi.core.perft cimport SIGNAL_EVERY, poll_signals
from xiangqi.core.material cimport CHECKS_COUNTED
from xiangqi.core.state cimport BoardState, MAX_MOVES, make_move, unmake_move
from xiangqi.core.tables cimport PIECE_TYPE
from xiangqi.core.zobrist cimport key_after_move

cdef enum:
    MATE_MAX_PLIES = 99     # longest search the boundary accepts
    FAIL = 0
    WIN = 1
    FAIL_PATH = 2
    WIN_PATH = 3
    STOP = -1
    STOP_LIMIT = 1          # MateSearch.stop: the node limit was reached
    STOP_SIGNAL = 2         # MateSearch.stop: a signal handler raised (exception set)
    STOP_ASKED = 3          # MateSearch.stop: poll_stop said stop (another thread asked)
    # judge_return's verdicts on a move (see the header): a new position, played; a
    # repetition the rules do not end, played (its result depends on the line); not
    # played (an attacker's return, a defender's forbidden perpetual check); the
    # defender's move ends the game, not lost for it.
    PLAY = 0
    REPEAT = 1
    SKIP = 2
    ESCAPE = 3
    FIRST = 1 << 20         # move score of the table move
    CHECK = 1 << 16         # move score of a check (attacker: minus its reply count)
    CAPTURE = 1 << 8        # move score of a capture (plus the victim's value)

# Capture order: value of a piece type (king, advisor, elephant, horse, rook, cannon, pawn).
cdef extern from *:
    """
    static const int XQ_MATE_VALUE[7] = {0, 2, 2, 4, 9, 5, 1};
    """
    const int MATE_VALUE "XQ_MATE_VALUE"[7]

# What is proven about one position; see the header.
cdef struct TTEntry:
    uint64_t key            # Zobrist key (zobrist.pxd), side to move included
    int move                # the move that proved it (0: none)
    unsigned char mate      # the side to move is mated within this many plies (0: unknown)
    unsigned char nomate    # ... and is not mated within this many (0: nothing proven)

# The proof-number search's numbers of one position at one depth (see the df-pn
# section below): not yet proven either way. The depth is mixed into the stored key.
cdef struct DfpnEntry:
    uint64_t key            # Zobrist key ^ depth_salt(d)
    unsigned int pn         # proof number: how many more leaves to prove it, at least
    unsigned int dn         # disproof number: ... to disprove it

# The move list of one ply, and its order; the df-pn children's numbers.
cdef struct MateFrame:
    int moves[MAX_MOVES]
    int score[MAX_MOVES]
    unsigned char check[MAX_MOVES]  # does the move give check?
    int n
    int best                # solve() at an attacker's node: the move that won
    uint64_t child[MAX_MOVES]       # df-pn: the key after the move
    unsigned int pn[MAX_MOVES]      # df-pn: the child's proof number (0: proven)
    unsigned int dn[MAX_MOVES]      # df-pn: the child's disproof number (0: disproven)
    unsigned char length[MAX_MOVES]  # df-pn: a proven child's mate length (plies)
    unsigned char path[MAX_MOVES]   # df-pn: the child's final value depends on the line

# One search: the board it walks and everything it owns (allocated by the caller).
cdef struct MateSearch:
    BoardState b            # the position being searched (a copy)
    TTEntry* table          # transposition table, mask + 1 entries
    uint64_t mask
    DfpnEntry* dtable       # df-pn's open numbers, dmask + 1 entries
    uint64_t dmask
    MateFrame* frames       # frames[ply], ply root..root + MATE_MAX_PLIES + 1
    uint64_t* keys          # keys[ply]: Zobrist key of the line's position at ply
    unsigned char* checked  # checked[ply]: did the move to ply give check?
    int* clocks             # clocks[ply]: plies since the last capture (the halfmove clock)
    int move_limit          # the move rule's limit in plies (Position.outcome's, 120)
    int root                # the root's ply: 0..root - 1 hold the game's history
    long long nodes         # positions visited (moves made)
    long long limit         # stop when nodes reaches this
    long long next_poll     # nodes at which to poll for signals (when watch)
    bint watch              # poll signals (main thread only)
    bint (*poll_stop)(void* ctx) noexcept nogil  # asked every SIGNAL_EVERY nodes: stop?
    void* stop_ctx          # its argument (NULL poll_stop: never asked)
    bint checks_only        # the attacker plays only checks
    int stop                # 0, STOP_LIMIT or STOP_SIGNAL

cdef inline TTEntry* tt_entry(MateSearch* s, uint64_t key) noexcept nogil:
    cdef TTEntry* e = &s.table[key & s.mask]
    if e.key == key and (e.mate or e.nomate):
        return e
    return NULL

cdef inline void tt_store(MateSearch* s, uint64_t key, int mate, int nomate,
                          int mv) noexcept nogil:
    # Record "mated within mate" (mate > 0) or "not mated within nomate" (nomate > 0).
    cdef TTEntry* e = &s.table[key & s.mask]
    if e.key != key:
        e.key = key
        e.mate = 0
        e.nomate = 0
    if mate and (e.mate == 0 or mate < e.mate):
        e.mate = <unsigned char>mate
    if nomate > e.nomate:
        e.nomate = <unsigned char>nomate
    if mv:
        e.move = mv

cdef inline int occurrences(const MateSearch* s, int ply, uint64_t key, int* last,
                            int* first) noexcept nogil:
    # How often key stands already on the line (same side to move), counting at most 2
    # (a third occurrence ends the game): last gets the ply of the latest, first that of
    # the earliest counted (the start of the span the rules judge, as core/judge.pxd's
    # scan_window). Positions two plies apart differ, so look 4, 6, ... back.
    cdef int i = ply - 4, seen = 0
    last[0] = -1
    first[0] = -1
    while i >= 0:
        if s.keys[i] == key:
            if seen == 0:
                last[0] = i
            first[0] = i
            seen += 1
            if seen == 2:
                break
        i -= 2
    return seen

cdef inline bint perpetual_check(const MateSearch* s, int first, int last) noexcept nogil:
    # The cycle of the moves to plies first + 1 .. last: did every defender move (to a
    # ply of the root's parity) give check, and not every attacker move (the others)?
    cdef int p
    cdef bint attacker_checks = 1
    for p in range(first + 1, last + 1):
        if not s.checked[p]:
            if (p - s.root) & 1:
                attacker_checks = 0
            else:
                return 0
    return not attacker_checks

cdef inline int judge_return(const MateSearch* s, int ply, uint64_t key) noexcept nogil:
    # What the move to ply (its key and s.checked[ply] set) may do, by the repetition
    # rules (see the header): PLAY, REPEAT, SKIP or ESCAPE.
    cdef int last, first, seen = occurrences(s, ply, key, &last, &first)
    cdef bint forbidden
    if seen == 0:
        return PLAY
    # A third occurrence: the rules rule on the span since the first of the three; a
    # second: the cycle it closes (the defender may not even begin a perpetual check).
    forbidden = perpetual_check(s, first if seen == 2 else last, ply)
    if (ply - s.root) & 1:              # the attacker's move
        if seen == 2:
            return SKIP                 # the game ends there, and not by a mate
        if forbidden:
            return REPEAT               # it closes the defender's perpetual check
        if last >= s.root:
            return SKIP                 # a return on the path
        return REPEAT                   # a second occurrence of a position of the game
    if seen == 1:
        return REPEAT                   # a second occurrence ends nothing: search on
    if forbidden:
        return SKIP                     # its own loss by the rules: defend otherwise
    return ESCAPE                       # a draw, or the attacker's perpetual check loses

cdef inline bint move_rule_at(const MateSearch* s, int ply) noexcept nogil:
    # Does the move rule end the game at ply (the side to move has a legal move)? As
    # core/material.pxd's move_rule_reached on the line: the clock reached
    # s.move_limit, less two plies for each check of a side beyond its first
    # CHECKS_COUNTED in the no-capture stretch (plies before the line: plain moves).
    cdef int clock = s.clocks[ply], i, stop, mover
    cdef int checks[2]
    if clock < s.move_limit:
        return 0
    checks[0] = checks[1] = 0
    stop = ply - (clock if clock < ply else ply)
    for i in range(stop + 1, ply + 1):
        if s.checked[i]:
            mover = (ply - i) & 1
            checks[mover] += 1
    for mover in range(2):
        if checks[mover] > CHECKS_COUNTED:
            clock -= 2 * (checks[mover] - CHECKS_COUNTED)
    return clock >= s.move_limit

cdef inline bint tick(MateSearch* s) noexcept nogil:
    # Count one node; true when the search must stop.
    s.nodes += 1
    if s.nodes >= s.limit:
        s.stop = STOP_LIMIT
        return 1
    if s.nodes >= s.next_poll:
        s.next_poll = s.nodes + SIGNAL_EVERY
        if s.watch and poll_signals():
            s.stop = STOP_SIGNAL
            return 1
        if s.poll_stop != NULL and s.poll_stop(s.stop_ctx):
            s.stop = STOP_ASKED
            return 1
    return 0

cdef inline void sort_moves(MateFrame* f) noexcept nogil:
    # Insertion sort by score, highest first (stable: the generator's order breaks ties).
    cdef int i, j, mv, sc
    cdef unsigned char ch
    for i in range(1, f.n):
        mv = f.moves[i]
        sc = f.score[i]
        ch = f.check[i]
        j = i - 1
        while j >= 0 and f.score[j] < sc:
            f.moves[j + 1] = f.moves[j]
            f.score[j + 1] = f.score[j]
            f.check[j + 1] = f.check[j]
            j -= 1
        f.moves[j + 1] = mv
        f.score[j + 1] = sc
        f.check[j + 1] = ch

cdef inline int solve(MateSearch* s, int ply, int d) noexcept nogil:
    # One node: the attacker's at even plies (can it mate within d plies, d odd, at
    # least 1?), the defender's at odd ones (is it mated within d, d even, whatever it
    # plays?). One function for both roles, so the recursion is a call to itself.
    cdef BoardState* b = &s.b
    cdef MateFrame* f = &s.frames[ply]
    cdef uint64_t key = s.keys[ply], child
    cdef TTEntry* e
    cdef int hint = 0, i, kept = 0, mv, cap, pc, replies = 0, r, verdict, played = 0
    cdef bint checks, path = 0, cut = 0, attacker = not ((ply - s.root) & 1)
    # bound: the move rule may end the game within d plies (see the header): what the
    # table says is mated may not be here, and no "not mated" is stored from here.
    cdef bint bound = s.clocks[ply] + d >= s.move_limit
    f.n = generate_legal_moves(b, f.moves)
    if not attacker:
        if f.n == 0:
            return WIN                  # no legal move: the defender has lost
        if d == 0:
            return FAIL
    if bound and move_rule_at(s, ply):
        return FAIL                     # the move rule: a draw
    e = tt_entry(s, key)
    if e != NULL:
        if e.mate and e.mate <= d and not bound:
            f.best = e.move
            return WIN
        if e.nomate >= d:
            return FAIL
        hint = e.move
    if attacker:
        for i in range(f.n):
            mv = f.moves[i]
            cap = make_move(b, mv)
            if tick(s):
                unmake_move(b, mv, cap)
                return STOP
            checks = in_check(b, b.side)
            if checks or (d == 1 and not s.checks_only):
                replies = count_legal_moves(b)
                if replies == 0:        # mate (or no move at all): the shortest win
                    unmake_move(b, mv, cap)
                    tt_store(s, key, 1, 0, mv)
                    f.best = mv
                    return WIN
            unmake_move(b, mv, cap)
            if d == 1 or (s.checks_only and not checks):
                continue                # cannot mate in one / not a check
            f.moves[kept] = mv
            f.check[kept] = checks
            if mv == hint:
                f.score[kept] = FIRST
            elif checks:
                f.score[kept] = CHECK - replies
            elif cap:
                f.score[kept] = CAPTURE + MATE_VALUE[PIECE_TYPE[cap]]
            else:
                f.score[kept] = 0
            kept += 1
        if d == 1:
            tt_store(s, key, 0, 1, 0)
            return FAIL
        f.n = kept
    else:
        for i in range(f.n):
            mv = f.moves[i]
            cap = make_move(b, mv)
            checks = in_check(b, b.side)
            f.check[i] = checks
            if mv == hint:
                f.score[i] = FIRST
            elif checks:
                f.score[i] = CHECK + MATE_VALUE[PIECE_TYPE[cap]] if cap else CHECK
            elif cap:
                f.score[i] = CAPTURE + MATE_VALUE[PIECE_TYPE[cap]]
            else:
                f.score[i] = 0
            unmake_move(b, mv, cap)
    sort_moves(f)
    for i in range(f.n):
        mv = f.moves[i]
        pc = b.squares[mv & 255]
        cap = make_move(b, mv)
        if not attacker and tick(s):
            unmake_move(b, mv, cap)
            return STOP
        child = key_after_move(key, pc, mv & 255, mv >> 8, cap)
        s.checked[ply + 1] = f.check[i]
        verdict = judge_return(s, ply + 1, child)
        if verdict == SKIP or verdict == ESCAPE:
            unmake_move(b, mv, cap)
            if verdict == ESCAPE:
                return FAIL_PATH        # the defender ends the game by the rules
            if attacker:
                path = 1                # the attacker may not repeat here
            else:
                cut = 1                 # a forbidden perpetual check: defend otherwise
            continue
        s.keys[ply + 1] = child
        s.clocks[ply + 1] = 0 if cap else s.clocks[ply] + 1
        r = solve(s, ply + 1, d - 1)
        unmake_move(b, mv, cap)
        if verdict == REPEAT and r != STOP:
            r |= FAIL_PATH              # WIN -> WIN_PATH, FAIL -> FAIL_PATH: line-bound
        if r == STOP:
            return STOP
        if attacker:
            if r == WIN or r == WIN_PATH:
                f.best = mv
                if r == WIN:
                    tt_store(s, key, d, 0, mv)
                    return WIN
                return WIN_PATH
            if r == FAIL_PATH:
                path = 1
        else:
            played = 1
            if r == FAIL:
                if f.check[i]:
                    return FAIL_PATH    # an escape by a check: true on this line only
                if not bound:
                    tt_store(s, key, 0, d, mv)
                return FAIL
            if r == FAIL_PATH:
                return FAIL_PATH
            if r == WIN_PATH:
                cut = 1
    if not attacker:
        if not played:
            return FAIL_PATH            # every move a forbidden check: lost by rule, not mated
        if cut:
            return WIN_PATH
        tt_store(s, key, d, 0, 0)
        return WIN
    if path:
        return FAIL_PATH
    if not bound:
        tt_store(s, key, 0, d, 0)
    return FAIL

cdef inline int exact_attack(MateSearch* s, int ply, int d, int* mv) noexcept nogil:
    # The attacker's shortest mate from ply, known to be within d: its length (odd),
    # with the mating line's first move in mv; 0 if none was found (cannot happen on
    # a line of exact distances, see the header), STOP if the search was stopped.
    cdef int dd = 1, r
    while dd <= d:
        r = solve(s, ply, dd)
        if r == STOP:
            return STOP
        if r == WIN or r == WIN_PATH:
            mv[0] = s.frames[ply].best
            return dd
        dd += 2
    return 0

# -- df-pn: the proof-number search (Nagai 2002) -------------------------------------
#
# mid(s, ply, d, thpn, thdn) searches the node "can the attacker mate within d plies"
# (the same question as solve) depth first, always into the most proving child: at
# the attacker's node (OR) the child of least proof number, at the defender's (AND)
# the child of least disproof number, until the node's numbers reach the thresholds
# (then it returns them open) or it is proven (pn 0) or disproven (dn 0). The child's
# thresholds use the 1 + epsilon trick (Pawlewicz and Lew; KomoringHeights): a
# child runs until its number passes the second best's by a quarter, so the search
# does not bounce between two near-equal children. The depth d is part of the node,
# so the graph has no cycles and every proof is a proof within d plies.
#
# Numbers live in the frame of the node's ply while it is searched (its children's
# pn, dn, mate length and path flag), so a final value that depends on the line
# (judge_return's REPEAT, SKIP or ESCAPE, or an escape by a check, exactly as solve
# marks it) stays on the line and never enters a table. Final values that do not
# depend on it go to the table solve uses (TTEntry: "mated within mate plies", "not
# mated within nomate plies": usable at other depths too); open numbers go to the
# df-pn table (DfpnEntry, keyed by the position and d), which only steers the search.
#
# The initial numbers of a child: the attacker's move gets pn = the defender's reply
# count (a check with few replies first), dn = 1; the defender's reply pn = dn = 1.

cdef enum:
    PN_INF = 0x3FFFFFFF     # a final number (pn of a disproven node, dn of a proven one)
    OPEN = 4                # mid's result: neither proven nor disproven yet
    DFPN_LEAF = 3           # mid hands a node of at most this many plies to solve

cdef inline uint64_t depth_salt(int d) noexcept nogil:
    return <uint64_t>(d + 1) * 0x9E3779B97F4A7C15ULL

cdef inline unsigned int add_numbers(unsigned int a, unsigned int b) noexcept nogil:
    # a + b for a sum of open numbers: capped below PN_INF (PN_INF means final).
    cdef unsigned long long t = <unsigned long long>a + b
    return <unsigned int>(t if t < PN_INF - 1 else PN_INF - 1)

cdef inline void child_numbers(MateSearch* s, MateFrame* f, int k, int d,
                               bint bound) noexcept nogil:
    # What the tables know of child k (its key in f.child[k]) searched within d plies:
    # proven, disproven, or open numbers; leaves f's guesses when they know nothing.
    cdef uint64_t key = f.child[k]
    cdef TTEntry* e = tt_entry(s, key)
    cdef DfpnEntry* de
    if e != NULL:
        if e.mate and e.mate <= d and not bound:
            f.pn[k] = 0
            f.dn[k] = PN_INF
            f.length[k] = e.mate
            return
        if e.nomate >= d:
            f.pn[k] = PN_INF
            f.dn[k] = 0
            return
    key ^= depth_salt(d)
    de = &s.dtable[key & s.dmask]
    if de.key == key:
        f.pn[k] = de.pn if de.pn else 1
        f.dn[k] = de.dn if de.dn else 1

cdef inline unsigned int threshold_next(unsigned int second, unsigned int limit) noexcept nogil:
    # The 1 + epsilon threshold: a quarter above the second best, at most limit.
    cdef unsigned long long t = <unsigned long long>second + second // 4 + 1
    return <unsigned int>(t if t < limit else limit)

cdef inline int mid(MateSearch* s, int ply, int d, unsigned int thpn, unsigned int thdn,
                    unsigned int* out_pn, unsigned int* out_dn, int* out_length) noexcept nogil:
    # One df-pn node at ply (the attacker's at even distance from the root), d plies
    # allowed. Returns WIN or WIN_PATH (out_length: the proof's mate length), FAIL or
    # FAIL_PATH, OPEN (out_pn, out_dn: the numbers that passed a threshold) or STOP.
    cdef BoardState* b = &s.b
    cdef MateFrame* f = &s.frames[ply]
    cdef uint64_t key = s.keys[ply], child
    cdef TTEntry* e
    cdef DfpnEntry* de
    cdef int hint = 0, i, k, kept = 0, mv, cap, pc, replies, verdict, best, r, length
    cdef int child_length
    cdef unsigned int pn, dn, second, cpn, cdn, cthpn, cthdn
    cdef bint checks, path = 0, skipped = 0, attacker = not ((ply - s.root) & 1)
    cdef bint bound = s.clocks[ply] + d >= s.move_limit    # as in solve
    out_length[0] = 0
    if d <= DFPN_LEAF:
        # Near the leaves the full-width search is cheaper than the numbers' upkeep.
        r = solve(s, ply, d)
        if r == WIN or r == WIN_PATH:
            out_pn[0] = 0
            out_dn[0] = PN_INF
            e = tt_entry(s, key)
            out_length[0] = e.mate if e != NULL and e.mate and e.mate <= d else d
        elif r != STOP:
            out_pn[0] = PN_INF
            out_dn[0] = 0
        return r
    f.n = generate_legal_moves(b, f.moves)
    if not attacker:
        if f.n == 0:
            out_pn[0] = 0
            out_dn[0] = PN_INF
            return WIN                  # no legal move: the defender has lost
        if d == 0:
            out_pn[0] = PN_INF
            out_dn[0] = 0
            return FAIL
    if bound and move_rule_at(s, ply):
        out_pn[0] = PN_INF              # the move rule: a draw
        out_dn[0] = 0
        return FAIL
    e = tt_entry(s, key)
    if e != NULL:
        if e.mate and e.mate <= d and not bound:
            f.best = e.move
            out_pn[0] = 0
            out_dn[0] = PN_INF
            out_length[0] = e.mate
            return WIN
        if e.nomate >= d:
            out_pn[0] = PN_INF
            out_dn[0] = 0
            return FAIL
        hint = e.move
    for i in range(f.n):
        mv = f.moves[i]
        pc = b.squares[mv & 255]
        cap = make_move(b, mv)
        if tick(s):
            unmake_move(b, mv, cap)
            return STOP
        checks = in_check(b, b.side)
        replies = 1
        if attacker:
            if checks or not s.checks_only:
                replies = count_legal_moves(b)
                if replies == 0:
                    unmake_move(b, mv, cap)     # mate (or no move at all) in one
                    tt_store(s, key, 1, 0, mv)
                    f.best = mv
                    out_pn[0] = 0
                    out_dn[0] = PN_INF
                    out_length[0] = 1
                    return WIN
            if d == 1 or (s.checks_only and not checks):
                unmake_move(b, mv, cap)
                continue
        child = key_after_move(key, pc, mv & 255, mv >> 8, cap)
        s.checked[ply + 1] = checks
        verdict = judge_return(s, ply + 1, child)
        unmake_move(b, mv, cap)
        if verdict == SKIP:
            skipped = 1                 # not played here: the result is the line's
            continue
        if verdict == ESCAPE:           # the defender ends the game by the rules
            out_pn[0] = PN_INF
            out_dn[0] = 0
            return FAIL_PATH
        f.moves[kept] = mv
        f.check[kept] = checks
        f.child[kept] = child
        f.path[kept] = verdict == REPEAT
        f.length[kept] = 0
        if mv == hint:
            f.score[kept] = FIRST
        elif checks:
            f.score[kept] = CHECK - replies if attacker else CHECK + (
                MATE_VALUE[PIECE_TYPE[cap]] if cap else 0)
        elif cap:
            f.score[kept] = CAPTURE + MATE_VALUE[PIECE_TYPE[cap]]
        else:
            f.score[kept] = 0
        f.pn[kept] = <unsigned int>replies if attacker else 1
        f.dn[kept] = 1
        child_numbers(s, f, kept, d - 1, bound)
        kept += 1
    f.n = kept
    if kept == 0:
        # The attacker: no mate in one at d == 1, or no move (lost), or none allowed;
        # the defender: every move a forbidden perpetual check (lost by rule, not mated).
        out_pn[0] = PN_INF
        out_dn[0] = 0
        if skipped or not attacker:
            return FAIL_PATH
        if not bound:
            tt_store(s, key, 0, d, 0)
        return FAIL
    while True:
        best = 0
        length = 0
        if attacker:                    # OR: pn the least, dn the sum
            pn = PN_INF
            dn = 0
            second = PN_INF
            for k in range(kept):
                if f.pn[k] < pn or (f.pn[k] == pn and (
                        (pn == 0 and f.length[k] < f.length[best])
                        or (pn != 0 and f.score[k] > f.score[best]))):
                    second = pn
                    pn = f.pn[k]
                    best = k
                elif f.pn[k] < second:
                    second = f.pn[k]
                dn = add_numbers(dn, f.dn[k])
            if pn == 0:
                length = f.length[best] + 1
                path = f.path[best]
                dn = PN_INF
            elif dn == 0:
                path = skipped
                for k in range(kept):
                    path = path or f.path[k]
                pn = PN_INF
        else:                           # AND: dn the least, pn the sum
            dn = PN_INF
            pn = 0
            second = PN_INF
            for k in range(kept):
                # Among disproven replies, prefer one that holds on every line.
                if f.dn[k] < dn or (f.dn[k] == dn and (
                        (dn == 0 and (f.path[best] or f.check[best])
                         and not (f.path[k] or f.check[k]))
                        or (dn != 0 and f.score[k] > f.score[best]))):
                    second = dn
                    dn = f.dn[k]
                    best = k
                elif f.dn[k] < second:
                    second = f.dn[k]
                pn = add_numbers(pn, f.pn[k])
                if f.length[k] > length:
                    length = f.length[k]
            if dn == 0:
                path = f.path[best] or f.check[best]   # an escape by a check: this line's
                pn = PN_INF
            elif pn == 0:
                length += 1
                path = skipped          # a forbidden perpetual check was not played
                for k in range(kept):
                    path = path or f.path[k]
                dn = PN_INF
        if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
            break
        if attacker:
            cthpn = threshold_next(second, thpn)
            cthdn = thdn - dn + f.dn[best]
        else:
            cthdn = threshold_next(second, thdn)
            cthpn = thpn - pn + f.pn[best]
        if cthpn > PN_INF:
            cthpn = PN_INF
        if cthdn > PN_INF:
            cthdn = PN_INF
        mv = f.moves[best]
        cap = make_move(b, mv)
        s.keys[ply + 1] = f.child[best]
        s.checked[ply + 1] = f.check[best]
        s.clocks[ply + 1] = 0 if cap else s.clocks[ply] + 1
        r = mid(s, ply + 1, d - 1, cthpn, cthdn, &cpn, &cdn, &child_length)
        unmake_move(b, mv, cap)
        if r == STOP:
            return STOP
        f.pn[best] = cpn
        f.dn[best] = cdn
        f.length[best] = <unsigned char>child_length
        if r == WIN_PATH or r == FAIL_PATH:
            f.path[best] = 1
    out_pn[0] = pn
    out_dn[0] = dn
    out_length[0] = length
    if pn == 0:
        f.best = f.moves[best]
        if path:
            return WIN_PATH
        tt_store(s, key, length, 0, f.moves[best] if attacker else 0)
        return WIN
    if dn == 0:
        if path:
            return FAIL_PATH
        if not bound:
            tt_store(s, key, 0, d, 0 if attacker else f.moves[best])
        return FAIL
    key ^= depth_salt(d)
    de = &s.dtable[key & s.dmask]
    de.key = key
    de.pn = pn
    de.dn = dn
    return OPEN

cdef inline int dfpn(MateSearch* s, int ply, int d, int* length) noexcept nogil:
    # Can the side to move at ply (the attacker's or the defender's node) be proven to
    # win (attacker: mate within d; defender: mated within d)? WIN / WIN_PATH with the
    # proof's mate length in length, FAIL / FAIL_PATH, or STOP.
    cdef unsigned int pn, dn
    cdef int r
    if d <= 0 and not ((ply - s.root) & 1):
        return FAIL
    r = mid(s, ply, d, PN_INF, PN_INF, &pn, &dn, length)
    return STOP if r == OPEN else r     # (cannot be OPEN at infinite thresholds)

cdef inline int mate_line(MateSearch* s, int found, int* line, int* length) noexcept nogil:
    # The line of a mate proven to take exactly found plies from the root: WIN with
    # line[0..length), STOP, or -2 (a bug: the proof did not hold).
    cdef int d, ply = s.root, mv = 0, i, n, cap, pc, dd, best, best_mv
    cdef int verdict
    cdef int reply = 0
    cdef uint64_t key
    cdef MateFrame* f
    # The line: at each attacker node its shortest mate, at each defender node the reply
    # whose shortest mate is longest. The caller sets the node limit for reading it.
    d = found
    while True:
        d = exact_attack(s, ply, d, &mv)
        if d <= 0:
            return STOP if d == STOP else -2
        key = s.keys[ply]
        pc = s.b.squares[mv & 255]
        cap = make_move(&s.b, mv)
        line[ply - s.root] = mv
        ply += 1
        s.keys[ply] = key_after_move(key, pc, mv & 255, mv >> 8, cap)
        s.checked[ply] = in_check(&s.b, s.b.side)
        s.clocks[ply] = 0 if cap else s.clocks[ply - 1] + 1
        if d == 1:
            break
        # The defender: every legal reply, its attacker's exact distance.
        f = &s.frames[ply]
        n = generate_legal_moves(&s.b, f.moves)
        best = -1
        best_mv = 0
        for i in range(n):
            mv = f.moves[i]
            key = s.keys[ply]
            pc = s.b.squares[mv & 255]
            cap = make_move(&s.b, mv)
            s.keys[ply + 1] = key_after_move(key, pc, mv & 255, mv >> 8, cap)
            s.checked[ply + 1] = in_check(&s.b, s.b.side)
            s.clocks[ply + 1] = 0 if cap else s.clocks[ply] + 1
            verdict = judge_return(s, ply + 1, s.keys[ply + 1])
            if verdict == SKIP:
                unmake_move(&s.b, mv, cap)
                continue                # forbidden to the defender (see solve)
            if verdict == ESCAPE:
                unmake_move(&s.b, mv, cap)
                return -2               # solve proved the mate: it cannot escape
            dd = exact_attack(s, ply + 1, d - 2, &reply)
            unmake_move(&s.b, mv, cap)
            if dd == STOP:
                return STOP
            if dd > best:
                best = dd
                best_mv = mv
        if best <= 0:
            return -2
        # exact_attack reused frames[ply + 1] only; this ply's list is intact.
        mv = best_mv
        key = s.keys[ply]
        pc = s.b.squares[mv & 255]
        cap = make_move(&s.b, mv)
        line[ply - s.root] = mv
        ply += 1
        s.keys[ply] = key_after_move(key, pc, mv & 255, mv >> 8, cap)
        s.checked[ply] = in_check(&s.b, s.b.side)
        s.clocks[ply] = 0 if cap else s.clocks[ply - 1] + 1
        d = best
    length[0] = ply - s.root
    return WIN

cdef inline int mate_search(MateSearch* s, int max_plies, int* line, int* length,
                            int* proven) noexcept nogil:
    # Iterative deepening over d = 1, 3, ... up to max_plies: WIN with the line in
    # line[0..length) (attacker's shortest mate, defender's longest resistance), FAIL
    # when proven there is none within max_plies, STOP when stopped (proven[0]: the
    # longest d proven to have no mate, 0 if none). Expects s.root and s.keys[0..root],
    # s.checked[1..root] set (the game's history, then the root).
    cdef int d = 1, r
    cdef long long budget = s.limit
    proven[0] = 0
    length[0] = 0
    while d <= max_plies:
        r = solve(s, s.root, d)
        if r == STOP:
            return STOP
        if r == WIN or r == WIN_PATH:
            s.limit = s.nodes + budget  # reading the line: as many nodes again
            return mate_line(s, d, line, length)
        proven[0] = d
        d += 2
    return FAIL

cdef inline int dfpn_mate_search(MateSearch* s, int max_plies, int* line, int* length,
                                 int* proven) noexcept nogil:
    # mate_search's contract, by df-pn: prove a mate within max_plies whose proof takes
    # L plies (or prove there is none: FAIL), then disprove a mate within L - 2 (or
    # prove a shorter one and go on from its length), then the line as mate_search's
    # (mate_line; its proofs partly in the table by then). proven[0] stays 0 until a
    # disproof ends.
    cdef int r, found = 0, shorter = 0
    cdef long long budget = s.limit
    proven[0] = 0
    length[0] = 0
    r = dfpn(s, s.root, max_plies, &found)
    if r == STOP:
        return STOP
    if r == FAIL or r == FAIL_PATH:
        proven[0] = max_plies
        return FAIL
    while found > 1:
        r = dfpn(s, s.root, found - 2, &shorter)
        if r == STOP:
            return STOP
        if r == FAIL or r == FAIL_PATH:
            proven[0] = found - 2
            break
        found = shorter
    s.limit = s.nodes + budget          # reading the line: as many nodes again
    return mate_line(s, found, line, length)
