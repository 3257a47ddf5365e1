# The compiled mate-search boundary, included into xiangqi/_core.pyx (one extension: the
# search calls the same inlined generator and check test as Board). It checks what
# Python hands it, copies the board with the GIL held, allocates the search's table
# and move lists, searches without the GIL and frees them on every path.
# The search itself lives in xiangqi/core/mate.pxd (the game, the table, the order).

from libc.stdlib cimport calloc

from xiangqi.core.dfpn cimport dfpn_mate_search, mate_search
from xiangqi.core.mate cimport (
    DfpnEntry, FAIL, GROW_AT, MATE_MAX_PLIES, MateFrame, MateSearch, STOP, STOP_ASKED, STOP_LIMIT,
    TTEntry, WIN,
)
from xiangqi.core.judge cimport has_legal_move
from xiangqi.core.movegen cimport move_checks

cdef enum:
    MATE_TABLE_MIN_BITS = 12    # the smallest table (a small node limit needs no more)
    MATE_HISTORY = 120          # plies of the game's history a line may repeat (at most)
    MATE_HASH_MB_MAX = 1 << 16  # the largest hash_mb accepted (64 GB)
    MATE_MOVE_LIMIT = 120       # the move rule's limit: Position.outcome()'s default
    MATE_CLOCK_MAX = 1 << 30    # clocks beyond this are as good as infinite
    # method "auto": df-pn from this max_plies on, iterative deepening below (measured
    # with benchmarks/mate_suite.py)
    DFPN_FROM = 9


cdef int table_bits(long long budget, long long entry, long long limit) noexcept:
    # The largest power of two of entries of entry bytes within budget bytes (at least
    # 2**MATE_TABLE_MIN_BITS), and no more than a quarter of the node limit needs.
    cdef int bits = MATE_TABLE_MIN_BITS
    while (entry << (bits + 1)) <= budget and (1LL << (bits - 1)) <= limit:
        bits += 1
    return bits


cdef int event_is_set(void* event) noexcept nogil:
    # MateSearch.poll_stop for a threading.Event: has another thread set it? 1 or 0;
    # -1 when asking raised (a Ctrl-C whose handler ran inside is_set, or the event's
    # own error): the exception stays set on this thread, the search stops, and
    # find_mate raises it (as it raises a signal handler's, STOP_SIGNAL).
    with gil:
        try:
            return 1 if (<object>event).is_set() else 0
        except BaseException as error:
            PyErr_SetObject(type(error), error)
            return -1


def find_mate(Board board not None, object max_plies, object checks_only=False,
              object node_limit=None, object stop=None, object hash_mb=64,
              object method="auto"):
    """Search board for the side to move's shortest forced mate within max_plies plies.

    The search runs without the GIL on a copy of the board. Returns a tuple (status,
    line, nodes, proven): status 1 with line the mate as public move codes from_square *
    90 + to_square (attacker's shortest mate, defender's longest resistance); status 0
    when proven that there is no mate within max_plies; status -1 when node_limit
    stopped the search first; status 0, nothing searched, when Board.outcome() (its
    defaults) says the game has already ended. nodes is the number of positions visited;
    proven is the longest length (plies) proven to hold no mate. max_plies is 1..99;
    checks_only a bool; node_limit None or an int of at least 1. KeyboardInterrupt (on
    the main thread) stops the search, and so does setting stop (None or a
    threading.Event, asked every few thousand nodes): status -1 as at node_limit.
    hash_mb (1..65536) bounds the tables in megabytes: a quarter for what is proven
    (16-byte entries), a sixteenth for the positions' reply counts (8-byte entries), the
    rest for df-pn's open numbers (16-byte entries; df-pn only). They start at 4,096
    entries each and double as the search visits more positions, up to that bound or
    until the machine cannot give more.
    method: "dfpn" (iterative deepening and df-pn in turns, for the mate and again for
    none shorter: core/dfpn.pxd's dfpn_mate_search), "id" (iterative deepening, full
    width, alone) or "auto" (id up to 8 plies, "dfpn" from 9).
    """
    cdef int plies = check_int(max_plies, "max_plies", 1, MATE_MAX_PLIES)
    # A mate ends with the attacker's move: its length is odd, so a mate within an even
    # max_plies is one within max_plies - 1, and the searches take an odd length.
    cdef int odd = plies - 1 + (plies & 1)
    cdef long long limit = 1LL << 62
    cdef int bits, dbits, cbits, status, length = 0, proven = 0, i, size, megabytes
    cdef bint use_dfpn
    cdef int n = board.nply - board.null_base, root
    cdef PlyRecord* view = board.plies + board.null_base
    cdef MateSearch s
    cdef int line[MATE_MAX_PLIES + 1]
    check_bool("checks_only", checks_only)
    if stop is not None and not isinstance(stop, threading.Event):
        raise TypeError(f"stop must be None or a threading.Event, got {type(stop).__name__}")
    if node_limit is not None:
        limit = check_counter(node_limit, "node_limit", 1)
    megabytes = check_int(hash_mb, "hash_mb", 1, MATE_HASH_MB_MAX)
    if not isinstance(method, str):
        raise TypeError(f"method must be a str, got {type(method).__name__}")
    if method not in ("auto", "dfpn", "id"):
        raise ValueError(f"method must be 'auto', 'dfpn' or 'id', got {method!r}")
    # The search's check test (move_checks) needs the side not to move out of check, as
    # every legal position has it (Position.find_mate says so first, with the FEN).
    if in_check(&board.st, board.st.side ^ 1):
        raise ValueError("find_mate: the side not to move is in check")
    # A game outcome() has already ended (by any rule) has no mate to find.
    if board._outcome(DEFAULT_REPETITIONS, DEFAULT_MOVE_LIMIT, DEFAULT_RULES):
        return 0, None, 0, plies
    use_dfpn = method == "dfpn" or (method == "auto" and plies > DFPN_FROM - 1)
    bits = table_bits((<long long>megabytes << 20) // 4, sizeof(TTEntry), limit)
    dbits = table_bits((<long long>megabytes << 20) * 11 // 16, sizeof(DfpnEntry), limit)
    cbits = table_bits((<long long>megabytes << 20) // 16, sizeof(uint64_t), limit)
    memset(&s, 0, sizeof(MateSearch))
    s.b = board.st
    s.limit = limit
    s.watch = on_main_thread()
    if stop is not None:
        s.poll_stop = event_is_set
        s.stop_ctx = <void*>stop    # stop, an argument, outlives the search
    s.next_poll = 1 << 15
    s.checks_only = checks_only
    # The tables start at 2**MATE_TABLE_MIN_BITS entries (or their bound, if smaller)
    # and double as the search grows (core/mate.pxd's grow_tables).
    s.max_mask = (1ULL << bits) - 1
    s.mask = (1ULL << min(bits, MATE_TABLE_MIN_BITS)) - 1
    s.table = <TTEntry*>calloc(s.mask + 1, sizeof(TTEntry))
    s.max_cmask = (1ULL << cbits) - 1
    s.cmask = (1ULL << min(cbits, MATE_TABLE_MIN_BITS)) - 1
    s.counts = <uint64_t*>calloc(s.cmask + 1, sizeof(uint64_t))
    if use_dfpn:
        s.max_dmask = (1ULL << dbits) - 1
        s.dmask = (1ULL << min(dbits, MATE_TABLE_MIN_BITS)) - 1
        s.dtable = <DfpnEntry*>calloc(s.dmask + 1, sizeof(DfpnEntry))
    s.grow_at = GROW_AT * <long long>(s.mask + 1)
    # The game's history since the last capture (and null move) is part of the line: a
    # position repeated from it is judged as one repeated within the search.
    root = <int>min(<long long>n, view[n].clock, <long long>MATE_HISTORY)
    size = root + MATE_MAX_PLIES + 2
    s.root = root
    s.frames = <MateFrame*>malloc(sizeof(MateFrame) * size)
    s.keys = <uint64_t*>malloc(sizeof(uint64_t) * size)
    s.checked = <unsigned char*>calloc(size, 1)
    s.clocks = <int*>malloc(sizeof(int) * size)
    s.move_limit = MATE_MOVE_LIMIT
    try:
        if s.table == NULL or s.counts == NULL or (use_dfpn and s.dtable == NULL):
            raise MemoryError("find_mate could not allocate its tables (their first 64 KB)")
        if s.frames == NULL or s.keys == NULL or s.checked == NULL or s.clocks == NULL:
            raise MemoryError("find_mate could not allocate its line")
        for i in range(root + 1):
            s.keys[i] = view[n - root + i].key
            s.checked[i] = view[n - root + i].check
            s.clocks[i] = <int>min(view[n - root + i].clock, <long long>MATE_CLOCK_MAX)
        s.keys[root] = key_from_scratch(s.b.squares, s.b.side)
        with nogil:
            if use_dfpn:
                status = dfpn_mate_search(&s, odd, line, &length, &proven)
            else:
                status = mate_search(&s, odd, line, &length, &proven)
    finally:
        free(s.table)
        free(s.counts)
        free(s.dtable)
        free(s.frames)
        free(s.keys)
        free(s.checked)
        free(s.clocks)
    if status == STOP and s.stop != STOP_LIMIT and s.stop != STOP_ASKED:
        raise_pending()
    if status == WIN:
        return 1, [public_code(line[i])
                   for i in range(length)], s.nodes, proven
    if status == FAIL:
        return 0, None, s.nodes, plies  # none within odd: none within plies either
    if status == STOP:
        return -1, None, s.nodes, proven
    raise RuntimeError("mate search lost its line (a bug: please report it)")


def _move_check_flags(Board board not None):
    """For the tests: for each legal move's public code (from_square * 90 + to_square),
    what the mate search's own tests say after it: (move_checks: does it give check?,
    has_legal_move: has the other side a legal reply?), as a dict; the tests hold them
    against tests/fen_gen.py's in_check and pyffish's legal moves."""
    cdef int moves[MAX_MOVES]
    cdef int n, i, mv, cap
    cdef bint checks, replies
    cdef dict out = {}
    n = generate_legal_moves(&board.st, moves)
    for i in range(n):
        mv = moves[i]
        cap = make_move(&board.st, mv)
        checks = move_checks(&board.st, mv & 255, mv >> 8)
        replies = has_legal_move(&board.st, checks)
        unmake_move(&board.st, mv, cap)
        out[public_code(mv)] = (bool(checks), bool(replies))
    return out
