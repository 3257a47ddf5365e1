# Batch calls: many boards' legal moves in one call, generated without the GIL.
# Included by _core.pyx (one extension; see its docstring).

from cpython.exc cimport PyErr_CheckSignals
from libc.stdlib cimport free, malloc

from xiangqi.core.movegen cimport generate_legal_moves
from xiangqi.core.state cimport BoardState, MAX_MOVES
from xiangqi.core.tables cimport PUBLIC_OF


cdef long long fill_batch(BoardState* states, Py_ssize_t count, unsigned short* buf,
                          long long* offsets) noexcept nogil:
    # Legal moves of each state as public codes from * 90 + to, back to back in buf;
    # offsets[i]..offsets[i + 1] delimit state i's moves. Returns how many were written.
    cdef int moves[MAX_MOVES]
    cdef int n, j
    cdef Py_ssize_t i
    cdef long long total = 0
    for i in range(count):
        n = generate_legal_moves(&states[i], moves)
        for j in range(n):
            buf[total + j] = public_code(moves[j])
        total += n
        offsets[i + 1] = offsets[i] + n
    return total


def legal_moves_batch(list boards not None):
    """Legal moves of many positions at once, as two flat buffers, without Move objects.

    Returns (moves, offsets): moves is a memoryview of uint16 codes
    from_square * 90 + to_square, and the moves of boards[i] are
    moves[offsets[i]:offsets[i + 1]]; offsets is a memoryview of int64 with
    len(boards) + 1 entries. Both can be wrapped by numpy.frombuffer without a copy.
    Generation runs without the GIL, on copies of the boards taken with it held,
    BATCH_CHUNK boards at a time.
    """
    cdef tuple held = tuple(boards)     # the caller's list may change meanwhile
    cdef Py_ssize_t count = len(held), i, first, size
    cdef long long total = 0
    cdef unsigned short* buf
    cdef BoardState* states
    cdef bytearray offset_bytes = bytearray(8 * (count + 1))
    cdef long long[::1] offsets = memoryview(offset_bytes).cast("q")
    for i in range(count):
        if not isinstance(held[i], Board):
            raise TypeError(f"boards[{i}] is not a Board")
    buf = <unsigned short*>malloc(sizeof(unsigned short) * MAX_MOVES * (count + 1))
    states = <BoardState*>malloc(sizeof(BoardState) * BATCH_CHUNK)
    if buf == NULL or states == NULL:
        free(buf)
        free(states)
        raise MemoryError()
    try:
        offsets[0] = 0
        for first in range(0, count, BATCH_CHUNK):
            size = min(BATCH_CHUNK, count - first)
            for i in range(size):
                states[i] = (<Board>held[first + i]).st
            with nogil:
                total += fill_batch(states, size, buf + total, &offsets[first])
            PyErr_CheckSignals()    # Ctrl-C between chunks (about 10 ms each)
        move_bytes = bytearray((<char*>buf)[:2 * total])
    finally:
        free(buf)
        free(states)
    return memoryview(move_bytes).cast("H"), memoryview(offset_bytes).cast("q")
