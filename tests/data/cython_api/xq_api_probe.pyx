# cython: language_level=3, boundscheck=False, wraparound=False
"""A tiny consumer of xiangqi's Cython API (tests/test_cython_api.py compiles it against
xiangqi.get_include()): each function drives the API and returns Python values to check."""

from libc.stdint cimport uint64_t
from libc.string cimport memcmp

from xiangqi.core.api cimport (
    API_VERSION, XQ_MAX_MOVES, xq_attackers, xq_board, xq_count_legal, xq_from, xq_generate,
    xq_generate_captures, xq_generate_evasions, xq_generate_pseudo, xq_history_keys,
    xq_in_check, xq_is_repetition, xq_key, xq_key_after, xq_key_after_null, xq_make,
    xq_make_null, xq_public, xq_set_fen, xq_set_position, xq_side_in_check, xq_square, xq_to,
    xq_unmake, xq_unmake_null,
)

VERSION = API_VERSION


cdef long long walk(xq_board* b, int depth) noexcept nogil:
    cdef int moves[XQ_MAX_MOVES]
    cdef int n, i, cap
    cdef long long total = 0
    if depth == 0:
        return 1
    if depth == 1:
        return xq_count_legal(b)
    n = xq_generate(b, moves)
    for i in range(n):
        cap = xq_make(b, moves[i])
        total += walk(b, depth - 1)
        xq_unmake(b, moves[i], cap)
    return total


def perft(str fen, int depth):
    cdef xq_board b
    xq_set_fen(&b, fen)
    return walk(&b, depth)


def moves(str fen, str kind):
    """Sorted (from, to) public squares of one generator."""
    cdef xq_board b
    cdef int buf[XQ_MAX_MOVES]
    cdef int n, i
    xq_set_fen(&b, fen)
    if kind == "all":
        n = xq_generate(&b, buf)
    elif kind == "captures":
        n = xq_generate_captures(&b, buf)
    elif kind == "evasions":
        n = xq_generate_evasions(&b, buf)
    else:
        n = xq_generate_pseudo(&b, buf)
    return sorted((xq_public(xq_from(buf[i])), xq_public(xq_to(buf[i]))) for i in range(n))


def make_unmake(position):
    """For each legal move: ((from, to), key after the move by xq_key_after, by xq_key
    from scratch, in check after it), after checking unmake restored the board and key.
    Returns (rows, root key, in check at the root)."""
    cdef xq_board b, saved
    cdef int buf[XQ_MAX_MOVES]
    cdef int n, i, cap
    cdef uint64_t key, after
    xq_set_position(&b, position)
    saved = b
    key = xq_key(&b)
    rows = []
    n = xq_generate(&b, buf)
    for i in range(n):
        after = xq_key_after(key, &b, buf[i])
        cap = xq_make(&b, buf[i])
        rows.append(((xq_public(xq_from(buf[i])), xq_public(xq_to(buf[i]))),
                     after, xq_key(&b), bool(xq_in_check(&b))))
        xq_unmake(&b, buf[i], cap)
        if memcmp(&b, &saved, sizeof(xq_board)) != 0 or xq_key(&b) != key:
            raise AssertionError(f"unmake did not restore move {i}")
    return rows, key, bool(xq_in_check(&b))


def null_keys(str fen):
    """(xq_key_after_null of the key, xq_key after xq_make_null, restored by unmake)."""
    cdef xq_board b
    xq_set_fen(&b, fen)
    cdef uint64_t key = xq_key(&b)
    xq_make_null(&b)
    cdef uint64_t passed = xq_key(&b)
    xq_unmake_null(&b)
    return xq_key_after_null(key), passed, xq_key(&b) == key


def attackers(str fen, int side, int square):
    cdef xq_board b
    cdef int out[32]
    cdef int n, i
    xq_set_fen(&b, fen)
    n = xq_attackers(&b, side, xq_square(square), out)
    return sorted(xq_public(out[i]) for i in range(n))


def side_in_check(str fen, int side):
    cdef xq_board b
    xq_set_fen(&b, fen)
    return bool(xq_side_in_check(&b, side))


def history_keys(position, int capacity):
    cdef uint64_t keys[64]
    cdef int n = xq_history_keys(position, keys, min(capacity, 64))
    return [keys[i] for i in range(n)]


def is_repetition(list keys, int window):
    cdef uint64_t buf[64]
    cdef int i
    for i in range(len(keys)):
        buf[i] = keys[i]
    return bool(xq_is_repetition(buf, len(keys), window))


def set_position(position):
    cdef xq_board b
    xq_set_position(&b, position)
    return xq_key(&b)
