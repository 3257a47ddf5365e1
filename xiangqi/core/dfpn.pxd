# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Room: the proof-number mate search (df-pn), the reading of a mate's line, and the
# two searches' drivers. The same question, results, repetition rules and tables as
# core/mate.pxd's full-width search (whose header states them), searched by proof
# numbers; the full-width search takes the nodes near the leaves and the disproof of
# a shorter mate.
#
# Map (one line per function; all [fast]):
#   depth_salt(d), add_numbers(a, b)   the df-pn table's key; a capped sum of numbers
#   child_numbers(s, f, k, d)     what the tables know of a child
#   threshold_next(second, limit) the 1 + epsilon threshold
#   mid(s, ply, d, thpn, thdn, ...)   one node, searched until a threshold
#   dfpn(s, ply, d, &length)      a node proven or disproven (infinite thresholds)
#   play_on_line(s, ply, mv)      make mv, recording the line's next key, check, clock
#   mate_line(s, found, line, &length)   the line of a mate proven to take found plies
#   mate_search(s, max_plies, line, &length, &proven)   iterative deepening, then the line
#   mate_within(s, d, &length, &exact, &proven, ...)   a mate within d? deepening,
#                                 df-pn in turns
#   dfpn_mate_search(s, max_plies, line, &length, &proven)   a mate, no shorter one, the
#                                 line

from libc.stdint cimport uint64_t

from xiangqi.core.mate cimport (
    CAPTURE, CHECK, ESCAPE, FAIL, FAIL_PATH, FIRST, MATE_VALUE, REPEAT, SKIP, STOP,
    STOP_LIMIT, WIN, WIN_PATH, DfpnEntry, MateFrame, MateSearch, TTEntry, count_replies,
    gives_check, judge_return, move_rule_at, rule_bound, solve, tick, tt_entry, tt_store,
)
from xiangqi.core.movegen cimport generate_legal_moves
from xiangqi.core.state cimport BoardState, make_move, unmake_move
from xiangqi.core.tables cimport PIECE_TYPE
from xiangqi.core.zobrist cimport key_after_move

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
# count (a check with few replies first), dn = 1; the defender's reply pn = 1 and dn =
# 1, or for a check the attacker's reply count + 1 (a check that leaves the attacker
# few moves is the likeliest refutation: on the deepest real puzzles it cut df-pn's
# disproofs by up to ten times).

cdef enum:
    PN_INF = 0x3FFFFFFF     # a final number (pn of a disproven node, dn of a proven one)
    OPEN = 4                # mid's result: neither proven nor disproven yet
    DFPN_LEAF = 3           # mid hands a node of at most this many plies to solve
    PROOF_FIRST = 1 << 14       # mate_within's first budget (nodes) for the deepening
    PROOF_DFPN = 2              # ... and df-pn's, as a multiple of it
    DISPROOF_FIRST = 1 << 19    # ... and for it in the disproof of a shorter mate

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
    cdef bint bound = rule_bound(s, ply, d)
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
        checks = gives_check(s, mv)
        child = key_after_move(key, pc, mv & 255, mv >> 8, cap)
        replies = 1
        if attacker:
            if checks or not s.checks_only:
                replies = count_replies(s, child)
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
        elif checks:
            replies = count_replies(s, child)   # the attacker's evasions
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
        f.dn[kept] = 1 if attacker or not checks else <unsigned int>(replies + 1)
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

cdef inline int play_on_line(MateSearch* s, int ply, int mv) noexcept nogil:
    # Make mv at ply and record the line's next key, check and clock; the captured id.
    cdef uint64_t key = s.keys[ply]
    cdef int pc = s.b.squares[mv & 255]
    cdef int cap = make_move(&s.b, mv)
    s.keys[ply + 1] = key_after_move(key, pc, mv & 255, mv >> 8, cap)
    s.checked[ply + 1] = gives_check(s, mv)
    s.clocks[ply + 1] = 0 if cap else s.clocks[ply] + 1
    return cap

cdef inline int mate_line(MateSearch* s, int found, int* line, int* length) noexcept nogil:
    # The line of a mate proven to take exactly found plies from the root (a mate
    # within found, none within found - 2; s.frames[root].best: the first move of a
    # mate within found): WIN with line[0..length), STOP, or -2 (a bug: the proof did
    # not hold). At each attacker node, whose exact distance d is known, a proof of a
    # mate within d (dfpn, or solve) gives a mating move; at each defender node the
    # reply is one whose attacker has no mate within d - 4 (its distance is then
    # exactly d - 2, the longest resistance: the node is mated within d - 1). The
    # caller sets the node limit for reading it.
    cdef int d = found, ply = s.root, mv, i, n, cap, r, r2, verdict, chosen
    cdef MateFrame* f
    cdef TTEntry* e
    if not found & 1:
        return -2                       # a mate's length is odd (the callers' contract)
    while True:
        # The root's move is the caller's proof's (s.frames[root].best, proven to mate
        # within found: the table may not hold it, when the proof used the line).
        if ply != s.root:
            # The proof-number search where it ran (its proofs of the line's nodes may
            # not be in the table: those that used the line are not), else solve.
            if s.dtable != NULL and d > DFPN_LEAF:
                r = dfpn(s, ply, d, &r2)
            else:
                r = solve(s, ply, d)
            if r == STOP:
                return STOP
            if r != WIN and r != WIN_PATH:
                return -2
        mv = s.frames[ply].best
        play_on_line(s, ply, mv)
        line[ply - s.root] = mv
        ply += 1
        if d == 1:
            break
        # The defender: its legal replies in generation order (solve reuses only the
        # frames of later plies, so this list stays intact). First what the table
        # knows: a reply proven to hold out past d - 4 is the one; a reply proven
        # mated within d - 4 is not (its score -1, as a forbidden one's); then the
        # others in order, each searched to d - 4.
        f = &s.frames[ply]
        n = generate_legal_moves(&s.b, f.moves)
        chosen = 0
        for i in range(n):
            mv = f.moves[i]
            f.score[i] = 0
            cap = play_on_line(s, ply, mv)
            verdict = judge_return(s, ply + 1, s.keys[ply + 1])
            if verdict == ESCAPE:
                unmake_move(&s.b, mv, cap)
                return -2               # solve proved the mate: it cannot escape
            if verdict == SKIP:
                f.score[i] = -1         # forbidden to the defender (see solve)
            elif d < 5:
                chosen = mv             # every reply is mated at once
            else:
                e = tt_entry(s, s.keys[ply + 1])
                if e != NULL and e.nomate >= d - 4:
                    chosen = mv
                elif (e != NULL and e.mate and e.mate <= d - 4
                        and not rule_bound(s, ply + 1, d - 4)):
                    f.score[i] = -1     # mated sooner (solve reads the table so)
            unmake_move(&s.b, mv, cap)
            if chosen:
                break
        i = 0
        while not chosen and i < n:
            mv = f.moves[i]
            i += 1
            if f.score[i - 1] < 0:
                continue
            cap = play_on_line(s, ply, mv)
            r = solve(s, ply + 1, d - 4)
            unmake_move(&s.b, mv, cap)
            if r == STOP:
                return STOP
            if r == FAIL or r == FAIL_PATH:
                chosen = mv
        if not chosen:
            return -2
        play_on_line(s, ply, chosen)
        line[ply - s.root] = chosen
        ply += 1
        d -= 2
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

cdef inline int mate_within(MateSearch* s, int d, int* length, bint* exact, int* proven,
                            long long solve_budget, long long dfpn_budget,
                            bint deepen) noexcept nogil:
    # Is there a mate within d plies from the root? WIN (length: its length, exact[0]
    # set when no shorter one exists, else a bound), FAIL or FAIL_PATH, or STOP.
    # proven[0] rises to each length the full-width search proves to hold no mate (so
    # a search stopped here still says how far it has proven). The
    # iterative deepening (solve at 1, 3, ... plies: its first mate is the shortest)
    # (deepen; else solve at d alone, a bound) and df-pn take turns on the same
    # question, the full-width search first, each with its budget of nodes, both
    # doubled every round, until one answers: the deepening goes on from the depth it
    # had reached, and what either proves stays in the tables for the other, and
    # df-pn's open numbers too. Which one answers first
    # depends on the position, by tens of times: df-pn finds deep mates of checks in a
    # few thousand nodes; the deepening finds shallow mates, and disproves most mates
    # faster (on xiangqibench, and where there is no mate at all).
    cdef long long limit = s.limit
    cdef int r, turn, depth = 1
    exact[0] = 0
    while True:
        for turn in range(2):
            if turn == 1:
                s.limit = min(limit, s.nodes + dfpn_budget)
                r = dfpn(s, s.root, d, length)
                # The deepening has proven no mate within depth - 2: a mate it did not
                # reach yet is the shortest.
                if (r == WIN or r == WIN_PATH) and deepen and length[0] <= depth:
                    exact[0] = 1
            else:
                s.limit = min(limit, s.nodes + solve_budget)
                if not deepen:
                    depth = d
                r = FAIL
                while depth <= d:
                    r = solve(s, s.root, depth)
                    if r != FAIL and r != FAIL_PATH:
                        break
                    proven[0] = max(proven[0], depth)
                    depth += 2
                if r == WIN or r == WIN_PATH:
                    length[0] = depth
                    exact[0] = deepen
            if r != STOP:
                s.limit = limit
                return r
            if s.stop != STOP_LIMIT or s.nodes >= limit:
                s.limit = limit         # the caller's limit, a signal or a stop request
                return STOP
            s.stop = 0                  # only this turn's budget: the other's turn
        solve_budget *= 2
        dfpn_budget *= 2


cdef inline int dfpn_mate_search(MateSearch* s, int max_plies, int* line, int* length,
                                 int* proven) noexcept nogil:
    # mate_search's contract (max_plies odd): a mate within max_plies (mate_within: the
    # deepening first, df-pn in turns with PROOF_DFPN times its nodes), or none
    # (FAIL); if df-pn found it, its proof's length L may not be the shortest: then no
    # mate within L - 2 (mate_within again: solve at L - 2, df-pn with four times its
    # nodes), or a shorter one and on from there; then the line (mate_line).
    # proven[0]: the longest length the full-width search has proven to hold no mate,
    # when stopped; found - 2 once the length is proven shortest.
    cdef int r, found = 0, shorter = 0
    cdef bint exact = 0
    cdef long long budget = s.limit
    proven[0] = 0
    length[0] = 0
    r = mate_within(s, max_plies, &found, &exact, proven, PROOF_FIRST,
                    PROOF_DFPN * PROOF_FIRST, 1)
    if r == STOP:
        return STOP
    if r == FAIL or r == FAIL_PATH:
        proven[0] = max_plies
        return FAIL
    while found > 1 and not exact:
        r = mate_within(s, found - 2, &shorter, &exact, proven, DISPROOF_FIRST,
                        4 * DISPROOF_FIRST, 0)
        if r == STOP:
            return STOP
        if r == FAIL or r == FAIL_PATH:
            break
        found = shorter                 # a mate within found - 2: try shorter still
    proven[0] = found - 2 if found > 2 else 0
    s.limit = s.nodes + budget          # reading the line: as many nodes again
    return mate_line(s, found, line, length)
