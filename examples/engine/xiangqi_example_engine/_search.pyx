# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The example engine's search, written only against the Cython API (xiangqi.core.api).

Alpha-beta (principal variation search) with a transposition table, MVV-LVA capture
ordering, quiescence search on captures (check evasions when in check), null-move
pruning and iterative deepening. The search runs without the GIL: only the API's
inline functions and this file's C code run in it. Scores are centipawns from the side
to move; a mate in n plies scores MATE - n.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport abs, calloc, free
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from xiangqi.core.api cimport (
    API_VERSION, XQ_MAX_MOVES, xq_board, xq_count_legal, xq_from, xq_generate,
    xq_generate_captures, xq_generate_evasions, xq_history_keys, xq_in_check,
    xq_is_repetition, xq_key, xq_key_after, xq_key_after_null, xq_make, xq_make_null,
    xq_piece_side, xq_piece_type, xq_public, xq_set_fen, xq_set_position, xq_to, xq_unmake,
    xq_unmake_null,
)

import xiangqi

if xiangqi.CYTHON_API_VERSION != API_VERSION:
    raise ImportError(
        f"built against xiangqi's Cython API {API_VERSION}, but the installed xiangqi ships "
        f"{xiangqi.CYTHON_API_VERSION}: rebuild (pip install --no-build-isolation ...)"
    )

cdef enum:
    MATE = 30000
    INF = 32000
    MAX_PLY = 96
    HISTORY = 1024          # keys of the game before the root that repetition looks at
    TT_BITS = 20            # 2**20 entries of 16 bytes: 16 MB
    EXACT = 0
    LOWER = 1
    UPPER = 2

# Piece values by type (king, advisor, elephant, horse, rook, cannon, pawn), centipawns.
cdef int VALUE[7]
VALUE[:] = [0, 200, 200, 400, 900, 450, 100]

cdef struct Entry:
    uint64_t key
    int move
    short score
    signed char depth
    unsigned char flag


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int evaluate(const xq_board* b) noexcept nogil:
    # Material; 100 for a pawn across the river and 10 per row it has advanced there;
    # horses, rooks and cannons 5 per file nearer the centre, a horse across the river
    # 30. From the side to move.
    cdef int score = 0, pc, sq, pt, v, row, across
    for pc in range(16, 48):
        sq = b.piece_square[pc]
        if not sq:
            continue
        pt = xq_piece_type(pc)
        v = VALUE[pt]
        row = sq >> 4           # 3 (Black's back rank) .. 12 (Red's)
        across = (7 - row) if pc < 32 else (row - 8)    # rows past the river, if >= 0
        if pt == 6:
            if across >= 0:
                v += 100 + 10 * across
        elif 3 <= pt <= 5:
            v += 5 * (4 - abs((sq & 15) - 7))
            if pt == 3 and across >= 0:
                v += 30
        score += v if pc < 32 else -v
    return score if b.side == 0 else -score


cdef inline int mvv_lva(const xq_board* b, int mv) noexcept nogil:
    return VALUE[xq_piece_type(b.squares[xq_to(mv)])] * 16 - VALUE[
        xq_piece_type(b.squares[xq_from(mv)])] // 100


cdef inline void order(const xq_board* b, int* moves, int n, int first) noexcept nogil:
    # Sort: the table's move first, then captures by MVV-LVA, then the quiet moves.
    cdef int scores[XQ_MAX_MOVES]
    cdef int i, j, s, m
    for i in range(n):
        if moves[i] == first:
            scores[i] = 1 << 20
        elif b.squares[xq_to(moves[i])]:
            scores[i] = 1000 + mvv_lva(b, moves[i])
        else:
            scores[i] = 0
    for i in range(1, n):       # insertion sort: n is small
        s = scores[i]
        m = moves[i]
        j = i - 1
        while j >= 0 and scores[j] < s:
            scores[j + 1] = scores[j]
            moves[j + 1] = moves[j]
            j -= 1
        scores[j + 1] = s
        moves[j + 1] = m


cdef class Searcher:
    """One engine: a board, a transposition table and the search's counters."""

    cdef xq_board board
    cdef Entry* table
    cdef uint64_t mask
    cdef uint64_t keys[HISTORY + MAX_PLY + 2]
    cdef int nkeys_root         # keys of the game up to the root (the root last)
    cdef int nkeys
    cdef public long long nodes
    cdef double deadline
    cdef int stopped
    cdef int root_best
    cdef long long node_limit   # 0: none
    cdef int root_only[XQ_MAX_MOVES]    # searchmoves: the root moves allowed
    cdef int nroot_only         # 0: every legal move

    def __cinit__(self):
        self.mask = (1 << TT_BITS) - 1
        self.table = <Entry*>calloc(1 << TT_BITS, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError()
        self.set_fen(xiangqi.START_FEN)

    def __dealloc__(self):
        free(self.table)

    def set_fen(self, str fen):
        """Set the board from FEN (xiangqi's parser); the game history is forgotten."""
        xq_set_fen(&self.board, fen)
        self.keys[0] = xq_key(&self.board)
        self.nkeys_root = 1

    def set_position(self, position):
        """Set the board and the game's keys (for repetitions) from a xiangqi.Position."""
        xq_set_position(&self.board, position)
        self.nkeys_root = xq_history_keys(position, self.keys, HISTORY)

    def clear(self):
        """Empty the transposition table (a new game)."""
        cdef uint64_t i
        for i in range(self.mask + 1):
            self.table[i].key = 0
            self.table[i].move = 0

    def stop(self):
        """Ask a running search (another thread) to stop as soon as it can."""
        self.stopped = 1

    def perft(self, int depth):
        """Leaf count at depth from the board, through the API (bulk at the last ply)."""
        if depth < 0 or depth > 20:
            raise ValueError(f"depth must be 0..20, got {depth}")
        cdef long long n
        with nogil:
            n = perft_api(&self.board, depth)
        return n

    def search(self, int depth, double seconds, object info=None, object root_moves=None,
               long long nodes=0):
        """Iterative deepening to depth (1..64) or for seconds (<= 0: no limit);
        info(depth, score, nodes, seconds, best public move) after each finished depth.
        root_moves: (from_square, to_square) public pairs the root may play (UCI's
        searchmoves; the legal ones count, None or none legal: every move); nodes > 0
        stops the search after about that many nodes (UCI's go nodes).
        Returns (from_square, to_square) in public squares, or None with no legal move."""
        cdef int moves[XQ_MAX_MOVES]
        cdef int d, n, i, score = 0, best = 0
        cdef double start = now()
        if depth < 1 or depth > 64:
            raise ValueError(f"depth must be 1..64, got {depth}")
        n = xq_generate(&self.board, moves)
        if n == 0:
            return None
        self.nroot_only = 0
        if root_moves is not None:
            wanted = set(root_moves)
            for i in range(n):
                if (xq_public(xq_from(moves[i])), xq_public(xq_to(moves[i]))) in wanted:
                    self.root_only[self.nroot_only] = moves[i]
                    self.nroot_only += 1
            if self.nroot_only:
                moves[0] = self.root_only[0]
        self.node_limit = nodes if nodes > 0 else 0
        self.nodes = 0
        self.stopped = 0
        self.deadline = start + seconds if seconds > 0 else 1e300
        for d in range(1, depth + 1):
            self.root_best = 0
            with nogil:
                score = self.root(d)
            if self.root_best and (not self.stopped or not best):
                best = self.root_best
            if self.stopped:
                break
            if info is not None:
                info(d, score, self.nodes, now() - start,
                     (xq_public(xq_from(best)), xq_public(xq_to(best))))
            if score >= MATE - MAX_PLY or score <= -MATE + MAX_PLY:
                break
        if not best:
            best = moves[0]
        return xq_public(xq_from(best)), xq_public(xq_to(best))

    cdef bint out_of_time(self) noexcept nogil:
        if self.stopped:
            return 1
        if self.node_limit and self.nodes >= self.node_limit:
            self.stopped = 1
            return 1
        if (self.nodes & 1023) == 0 and now() > self.deadline:
            self.stopped = 1
        return self.stopped

    cdef int root(self, int depth) noexcept nogil:
        cdef int moves[XQ_MAX_MOVES]
        cdef int n = xq_generate(&self.board, moves), i, mv, cap, score
        cdef int alpha = -INF, beta = INF
        if self.nroot_only:
            n = self.nroot_only
            for i in range(n):
                moves[i] = self.root_only[i]
        cdef uint64_t key = self.keys[self.nkeys_root - 1]
        cdef Entry* e = &self.table[key & self.mask]
        order(&self.board, moves, n, e.move if e.key == key else 0)
        self.nkeys = self.nkeys_root
        for i in range(n):
            mv = moves[i]
            self.keys[self.nkeys] = xq_key_after(key, &self.board, mv)
            self.nkeys += 1
            cap = xq_make(&self.board, mv)
            if i == 0:
                score = -self.alphabeta(depth - 1, 1, -beta, -alpha, 1)
            else:
                score = -self.alphabeta(depth - 1, 1, -alpha - 1, -alpha, 1)
                if alpha < score < beta and not self.stopped:
                    score = -self.alphabeta(depth - 1, 1, -beta, -alpha, 1)
            xq_unmake(&self.board, mv, cap)
            self.nkeys -= 1
            if self.stopped:
                break
            if score > alpha:
                alpha = score
                self.root_best = mv
        if not self.stopped:
            e.key = key
            e.move = self.root_best
            e.score = alpha
            e.depth = depth
            e.flag = EXACT
        return alpha

    cdef int alphabeta(self, int depth, int ply, int alpha, int beta,
                       bint null_ok) noexcept nogil:
        cdef int moves[XQ_MAX_MOVES]
        cdef int n, i, mv, cap, score, best = -INF, best_move = 0, old_alpha = alpha
        cdef uint64_t key = self.keys[self.nkeys - 1]
        cdef Entry* e
        cdef bint checked
        if depth <= 0:
            return self.quiesce(ply, alpha, beta)
        self.nodes += 1
        if self.out_of_time():
            return 0
        if xq_is_repetition(self.keys, self.nkeys, self.nkeys):
            return 0
        if ply >= MAX_PLY:
            return evaluate(&self.board)
        e = &self.table[key & self.mask]
        if e.key == key and e.depth >= depth:
            score = e.score
            if score > MATE - MAX_PLY:
                score -= ply
            elif score < -MATE + MAX_PLY:
                score += ply
            if (e.flag == EXACT or (e.flag == LOWER and score >= beta)
                    or (e.flag == UPPER and score <= alpha)):
                return score
        checked = xq_in_check(&self.board)
        if checked:
            depth += 1
        elif null_ok and depth >= 3 and beta < MATE - MAX_PLY and evaluate(&self.board) >= beta:
            # Null move: pass, search shallower with a null window; fail high stands.
            self.keys[self.nkeys] = xq_key_after_null(key)
            self.nkeys += 1
            xq_make_null(&self.board)
            score = -self.alphabeta(depth - 3, ply + 1, -beta, -beta + 1, 0)
            xq_unmake_null(&self.board)
            self.nkeys -= 1
            if self.stopped:
                return 0
            if score >= beta:
                return score if score < MATE - MAX_PLY else beta
        n = xq_generate(&self.board, moves)
        if n == 0:
            return -MATE + ply      # checkmate or no legal move (困毙): both lose
        order(&self.board, moves, n, e.move if e.key == key else 0)
        for i in range(n):
            mv = moves[i]
            self.keys[self.nkeys] = xq_key_after(key, &self.board, mv)
            self.nkeys += 1
            cap = xq_make(&self.board, mv)
            if i == 0:
                score = -self.alphabeta(depth - 1, ply + 1, -beta, -alpha, 1)
            else:
                score = -self.alphabeta(depth - 1, ply + 1, -alpha - 1, -alpha, 1)
                if alpha < score < beta and not self.stopped:
                    score = -self.alphabeta(depth - 1, ply + 1, -beta, -alpha, 1)
            xq_unmake(&self.board, mv, cap)
            self.nkeys -= 1
            if self.stopped:
                return 0
            if score > best:
                best = score
                best_move = mv
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        e.key = key
        e.move = best_move
        e.depth = depth
        e.flag = LOWER if best >= beta else (UPPER if best <= old_alpha else EXACT)
        e.score = best + ply if best > MATE - MAX_PLY else (
            best - ply if best < -MATE + MAX_PLY else best)
        return best

    cdef int quiesce(self, int ply, int alpha, int beta) noexcept nogil:
        # Captures only (stand pat on the evaluation); in check, every evasion.
        cdef int moves[XQ_MAX_MOVES]
        cdef int n, i, mv, cap, score, best
        cdef bint checked = xq_in_check(&self.board)
        self.nodes += 1
        if self.out_of_time():
            return 0
        if ply >= MAX_PLY:
            return evaluate(&self.board)
        if checked:
            n = xq_generate_evasions(&self.board, moves)
            if n == 0:
                return -MATE + ply
            best = -INF
        else:
            # Standing pat is no option for a side with no legal move: it has lost
            # (困毙). A side with a capture has a move, so count only when needed.
            best = evaluate(&self.board)
            if best >= beta:
                if xq_count_legal(&self.board) == 0:
                    return -MATE + ply
                return best
            n = xq_generate_captures(&self.board, moves)
            if n == 0 and xq_count_legal(&self.board) == 0:
                return -MATE + ply
            if best > alpha:
                alpha = best
        order(&self.board, moves, n, 0)
        for i in range(n):
            mv = moves[i]
            cap = xq_make(&self.board, mv)
            score = -self.quiesce(ply + 1, -beta, -alpha)
            xq_unmake(&self.board, mv, cap)
            if self.stopped:
                return 0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


cdef long long perft_api(xq_board* b, int depth) noexcept nogil:
    # perft through the public API: generate, make, recurse, unmake; the last ply counted
    # (xq_count_legal), the last two in one loop with no call per node (as the core does).
    cdef int moves[XQ_MAX_MOVES]
    cdef int n, i, cap
    cdef long long total = 0
    if depth == 0:
        return 1
    if depth == 1:
        return xq_count_legal(b)
    n = xq_generate(b, moves)
    if depth == 2:
        for i in range(n):
            cap = xq_make(b, moves[i])
            total += xq_count_legal(b)
            xq_unmake(b, moves[i], cap)
        return total
    for i in range(n):
        cap = xq_make(b, moves[i])
        total += perft_api(b, depth - 1)
        xq_unmake(b, moves[i], cap)
    return total


def perft(str fen, int depth):
    """Leaf count at depth from fen, walked through xiangqi's Cython API."""
    cdef xq_board b
    if depth < 0 or depth > 20:
        raise ValueError(f"depth must be 0..20, got {depth}")
    xq_set_fen(&b, fen)
    cdef long long n
    with nogil:
        n = perft_api(&b, depth)
    return n


def piece_sides(str fen):
    """(Red, Black) piece counts of fen read through the API: a smoke test of the struct."""
    cdef xq_board b
    cdef int pc
    cdef int counts[2]
    counts[0] = 0
    counts[1] = 0
    xq_set_fen(&b, fen)
    for pc in range(16, 48):
        if b.piece_square[pc]:
            counts[xq_piece_side(pc)] += 1
    return counts[0], counts[1]
