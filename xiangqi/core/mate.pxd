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
#   gives_check(s, mv)            after mv: is the side to move in check?
#   grown_table(old, mask, size)  a table doubled, its entries moved
#   grow_table(&table, &mask, &max_mask, size)   double one table, unless at its bound
#   grow_tables(s)                double the tables (up to hash_mb) as the search grows
#   rule_bound(s, ply, d)         may the move rule end the game within d plies of ply?
#   tick(s)                       count a node; stop at the node limit, on a signal or
#                                 when poll_stop says so
#   solve(s, ply, d)              attacker's node (even distance from the root): can it
#                                 mate within d plies? defender's node (odd distance): is
#                                 it mated within d plies?
# (The proof-number search, from 9 plies on, the reading of the line and the two
# searches' drivers are the next room: core/dfpn.pxd.)
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

# Transposition table: a power-of-two array of TTEntry owned by one search (the
# boundary allocates it small and frees it; grow_tables doubles it as the search
# grows, up to hash_mb), index = key & mask, one entry per slot, a new key
# replaces the old. An entry holds what is proven about one position (Zobrist key,
# side to move included): "mated within `mate` plies" and "not mated within `nomate`
# plies" (0 = nothing proven), and the move that proved it (the attacker's mating move,
# the defender's refutation), tried first next time.
#
# Reply counts: the move order and df-pn's first numbers ask how many legal moves a
# position has (count_legal_moves), often of the same position again (each deepening,
# each df-pn visit). count_replies keeps the answers in a third table of its own: a
# uint64_t per slot, the key's low 56 bits and the count in the high 8 (0: empty; only
# counts above 0 are kept, so a mate is always counted, never remembered). The mate
# test at the last ply asks has_legal_move directly: kept there too, its answers cost
# more time in memory than they saved (measured: xiangqibench 1.05 s against 0.99 s,
# the least of six runs each, though 2% fewer instructions).
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
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy

from xiangqi.core.movegen cimport (
    count_legal_moves, generate_legal_moves, move_checks,
)
from xiangqi.core.judge cimport has_legal_move
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
    FIRST = 1 << 20         # move score of the table move (df-pn's)
    SCORED = 4              # score_moves: the moves are scored and sorted
    CHECK = 1 << 16         # move score of a check (attacker: minus its reply count)
    CAPTURE = 1 << 8        # move score of a capture (plus the victim's value)
    GROW_AT = 8             # tables double at this many nodes per entry (grow_tables)

cdef extern from *:
    """
    #define XQ_COUNT_KEY_BITS 0x00FFFFFFFFFFFFFFULL
    """
    const uint64_t COUNT_KEY_BITS "XQ_COUNT_KEY_BITS"   # count_replies: the key's part

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
    DfpnEntry* dtable       # df-pn's open numbers, dmask + 1 entries (NULL: no df-pn)
    uint64_t dmask
    uint64_t* counts        # count_replies' table, cmask + 1 entries
    uint64_t cmask
    uint64_t max_mask       # the largest mask each table may grow to (hash_mb's bound)
    uint64_t max_dmask
    uint64_t max_cmask
    long long grow_at       # nodes at which grow_tables next doubles them
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
    # Asked every SIGNAL_EVERY nodes: stop? 1 (asked to), 0, or -1 (an exception is set
    # on this thread: stop, and the boundary raises it).
    int (*poll_stop)(void* ctx) noexcept nogil
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
        e.move = 0
        e.mate = 0
        e.nomate = 0
    # The move goes with the fact it proved: a mate (the attacker's mating move) or a
    # refutation (the defender's reply), kept only when that fact improves, so the move
    # of a "mated within" is always one that mates within it.
    if mate and (e.mate == 0 or mate < e.mate):
        e.mate = <unsigned char>mate
        if mv:
            e.move = mv
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

cdef inline bint rule_bound(const MateSearch* s, int ply, int d) noexcept nogil:
    # May the move rule end the game within d plies of ply? (A "bound" node: see the
    # header.) What the table says is mated may not be here, and no "not mated" is
    # stored from here.
    return s.clocks[ply] + d >= s.move_limit

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

cdef inline bint gives_check(MateSearch* s, int mv) noexcept nogil:
    # After mv (made): is the side to move in check? move_checks, which needs the side to
    # move not in check before the move: true after every legal move, and at the root
    # (the boundary refuses a root whose side not to move is in check).
    return move_checks(&s.b, mv & 255, mv >> 8)

cdef inline void* grown_table(void* old, uint64_t mask, size_t size) noexcept nogil:
    # A table twice the size of old (mask + 1 entries of size bytes, TTEntry or
    # DfpnEntry: each begins with its uint64_t key, 0 in an empty slot) holding old's
    # entries, or NULL when the memory is not there. No two old entries meet in one new
    # slot: an entry at i moves to i or i + mask + 1, as one more bit of its key says.
    cdef char* new = <char*>calloc(2 * (mask + 1), size)
    cdef const char* entry
    cdef uint64_t i, key
    if new != NULL:
        for i in range(mask + 1):
            entry = <const char*>old + i * size
            key = (<const uint64_t*>entry)[0]
            if key:
                memcpy(new + (key & (2 * mask + 1)) * size, entry, size)
    return new

cdef inline void grow_table(void** table, uint64_t* mask, uint64_t* max_mask,
                            size_t size) noexcept nogil:
    # Double *table (entries of size bytes) in place of the old one, unless it is at
    # *max_mask already; where the memory is not there, *max_mask becomes *mask.
    cdef void* grown
    if mask[0] < max_mask[0]:
        grown = grown_table(table[0], mask[0], size)
        if grown == NULL:
            max_mask[0] = mask[0]
        else:
            free(table[0])
            table[0] = grown
            mask[0] = 2 * mask[0] + 1

cdef inline void grow_tables(MateSearch* s) noexcept nogil:
    # The tables start small (a short search touches little memory) and double each
    # time the nodes visited reach GROW_AT times their entries, up to hash_mb's bound; a
    # doubling the machine cannot give ends the growth (a smaller table costs time,
    # never correctness). Called by tick, between moves: no entry pointer is held.
    # GROW_AT 8, not 2: every page of a new table is a page fault the first time it is
    # touched, and a small table stays in the caches. xiangqibench, the least of eight
    # interleaved runs: 0.80 s against 0.87 s (41,000 page faults to 13,000, 8% more
    # nodes); the real puzzles of dev.jsonl: the same nodes and time.
    grow_table(<void**>&s.table, &s.mask, &s.max_mask, sizeof(TTEntry))
    grow_table(<void**>&s.counts, &s.cmask, &s.max_cmask, sizeof(uint64_t))
    if s.dtable != NULL:
        grow_table(<void**>&s.dtable, &s.dmask, &s.max_dmask, sizeof(DfpnEntry))
    if (s.mask < s.max_mask or s.cmask < s.max_cmask
            or (s.dtable != NULL and s.dmask < s.max_dmask)):
        s.grow_at = GROW_AT * <long long>max(s.mask, s.cmask, s.dmask)
    else:
        s.grow_at = 1LL << 62

cdef inline int count_replies(MateSearch* s, uint64_t key) noexcept nogil:
    # count_legal_moves(&s.b), the position made on s.b, whose Zobrist key is key: from
    # the table when it holds it (see the header), else counted and kept.
    cdef uint64_t* c = &s.counts[key & s.cmask]
    cdef int n
    if c[0] and not ((c[0] ^ key) & COUNT_KEY_BITS):
        return <int>(c[0] >> 56)
    n = count_legal_moves(&s.b)
    if n:
        c[0] = (key & COUNT_KEY_BITS) | (<uint64_t>n << 56)
    return n

cdef inline bint tick(MateSearch* s) noexcept nogil:
    # Count one node; true when the search must stop.
    cdef int asked
    s.nodes += 1
    if s.nodes >= s.grow_at:
        grow_tables(s)
    if s.nodes >= s.limit:
        s.stop = STOP_LIMIT
        return 1
    if s.nodes >= s.next_poll:
        s.next_poll = s.nodes + SIGNAL_EVERY
        if s.watch and poll_signals():
            s.stop = STOP_SIGNAL
            return 1
        if s.poll_stop != NULL:
            asked = s.poll_stop(s.stop_ctx)
            if asked:
                s.stop = STOP_ASKED if asked > 0 else STOP_SIGNAL
                return 1
    return 0

cdef inline void sort_moves(MateFrame* f, int start) noexcept nogil:
    # Stable sort of f.moves[start..f.n) by score, highest first (the generator's order
    # breaks ties). Scores are never negative and most moves score 0 (quiet): one pass
    # from the back moves the quiet ones to the end in their order and sets the others
    # aside, which are then sorted by insertion at the front, so a crowded board's sixty
    # quiet moves cost one pass, not a quadratic.
    cdef int scored_moves[MAX_MOVES]
    cdef int scored_score[MAX_MOVES]
    cdef unsigned char scored_check[MAX_MOVES]
    cdef int i, j, k = 0, w = f.n, mv, sc
    cdef unsigned char ch
    for i in range(f.n - 1, start - 1, -1):
        if f.score[i]:
            scored_moves[k] = f.moves[i]    # (backwards: read back from the end below)
            scored_score[k] = f.score[i]
            scored_check[k] = f.check[i]
            k += 1
        else:
            w -= 1
            f.moves[w] = f.moves[i]
            f.score[w] = 0
            f.check[w] = f.check[i]
    for i in range(k):
        mv = scored_moves[k - 1 - i]
        sc = scored_score[k - 1 - i]
        ch = scored_check[k - 1 - i]
        j = start + i - 1
        while j >= start and f.score[j] < sc:
            f.moves[j + 1] = f.moves[j]
            f.score[j + 1] = f.score[j]
            f.check[j + 1] = f.check[j]
            j -= 1
        f.moves[j + 1] = mv
        f.score[j + 1] = sc
        f.check[j + 1] = ch

cdef inline int score_moves(MateSearch* s, int ply, int d, int start) noexcept nogil:
    # Score solve's moves f.moves[start..f.n) at ply and sort them, best first: SCORED.
    # The attacker's are made (a node each) and its mate in one is found here (WIN,
    # stored), its checks scored by the defender's replies (fewest first); at d 1 that
    # is all it can do (FAIL, stored). Under checks_only its other moves are dropped.
    # The defender's checks are scored by the attacker's replies when 4 or more plies
    # remain (fewest first: a defender that can mate the attacker tries that first);
    # at d 2 any check refutes the mate in one cheaply, so the capture's value is
    # enough. STOP when the search must stop.
    cdef BoardState* b = &s.b
    cdef MateFrame* f = &s.frames[ply]
    cdef uint64_t key = s.keys[ply]
    cdef int i, kept = start, mv, cap, pc, replies = 0
    cdef bint checks
    if not ((ply - s.root) & 1):
        for i in range(start, f.n):
            mv = f.moves[i]
            pc = b.squares[mv & 255]
            cap = make_move(b, mv)
            if tick(s):
                unmake_move(b, mv, cap)
                return STOP
            checks = gives_check(s, mv)
            if d == 1:
                if (checks or not s.checks_only) and not has_legal_move(b, checks):
                    unmake_move(b, mv, cap)     # mate (or no move at all): the shortest win
                    tt_store(s, key, 1, 0, mv)
                    f.best = mv
                    return WIN
            elif checks:
                replies = count_replies(s, key_after_move(key, pc, mv & 255, mv >> 8, cap))
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
            if checks:
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
        for i in range(start, f.n):
            mv = f.moves[i]
            pc = b.squares[mv & 255]
            cap = make_move(b, mv)
            checks = gives_check(s, mv)
            f.check[i] = checks
            if checks:
                if d >= 4:
                    f.score[i] = CHECK - count_replies(
                        s, key_after_move(key, pc, mv & 255, mv >> 8, cap))
                else:
                    f.score[i] = CHECK + (MATE_VALUE[PIECE_TYPE[cap]] if cap else 0)
            elif cap:
                f.score[i] = CAPTURE + MATE_VALUE[PIECE_TYPE[cap]]
            else:
                f.score[i] = 0
            unmake_move(b, mv, cap)
    sort_moves(f, start)
    return SCORED

cdef inline int solve(MateSearch* s, int ply, int d) noexcept nogil:
    # One node: the attacker's at even plies (can it mate within d plies, d odd, at
    # least 1?), the defender's at odd ones (is it mated within d, d even, whatever it
    # plays?). One function for both roles, so the recursion is a call to itself.
    cdef BoardState* b = &s.b
    cdef MateFrame* f = &s.frames[ply]
    cdef uint64_t key = s.keys[ply], child
    cdef TTEntry* e
    cdef int hint = 0, i, start = 0, mv, cap, pc, r, verdict, played = 0
    cdef bint path = 0, cut = 0, attacker = not ((ply - s.root) & 1)
    cdef bint bound = rule_bound(s, ply, d)
    # The table first: what it knows needs no moves generated. (A position it holds
    # had legal moves, and its answer is the move rule's too.)
    e = tt_entry(s, key)
    if e != NULL:
        if e.mate and e.mate <= d and not bound:
            f.best = e.move
            return WIN
        if e.nomate >= d:
            return FAIL
        hint = e.move
    f.n = generate_legal_moves(b, f.moves)
    if not attacker:
        if f.n == 0:
            return WIN                  # no legal move: the defender has lost
        if d == 0:
            return FAIL
    if bound and move_rule_at(s, ply):
        return FAIL                     # the move rule: a draw
    if hint and d > 1:
        # The table's move first, alone: when it settles the node (a refutation, a
        # mate again), the other moves are never scored.
        for i in range(f.n):
            if f.moves[i] == hint:
                f.moves[i] = f.moves[0]
                f.moves[0] = hint
                start = 1
                break
    if not start:
        r = score_moves(s, ply, d, 0)
        if r != SCORED:
            return r
    i = -1
    while True:
        i += 1
        if i == start and start:
            r = score_moves(s, ply, d, 1)   # the table's move did not settle it
            if r != SCORED:
                return r
        if i >= f.n:
            break
        mv = f.moves[i]
        pc = b.squares[mv & 255]
        cap = make_move(b, mv)
        if (not attacker or i < start) and tick(s):
            unmake_move(b, mv, cap)
            return STOP
        if i < start:
            f.check[0] = gives_check(s, mv)
            if attacker and s.checks_only and not f.check[0]:
                unmake_move(b, mv, cap)
                continue
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
