# The opening-book boundary (included by _core.pyx): what xiangqi.book needs from a Board,
# through xiangqi.position. The key is the room core/eleeye_key.pxd; legality is the
# Board's own single-move check (Board._is_legal), so a book move is legal exactly when
# Position.is_legal says so.

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize

from xiangqi.core.eleeye_key cimport eleeye_locks


def elephanteye_locks(Board board not None):
    """ElephantEye's book locks of the board: (as it stands, mirrored left-right).

    Each is the 32-bit key BOOK.DAT is sorted by (see core/eleeye_key.pxd). The mirror
    image reads files a..i as i..a, side to move unchanged.
    """
    cdef unsigned int lock, mirrored
    eleeye_locks(&board.st, &lock, &mirrored)
    return lock, mirrored


def legal_flags(Board board not None, bytes moves not None):
    """One byte per move of `moves`, 1 if it is legal on the board, else 0.

    `moves` holds 2 bytes per move, little-endian from_square * 90 + to_square (public
    squares); a code that names no move (8100 and above, or from == to) is not legal.
    """
    cdef Py_ssize_t size = len(moves), n = size >> 1, i
    cdef const unsigned char* p = moves
    cdef int code, frm, to
    if size & 1:
        raise ValueError(f"moves must hold 2 bytes per move, got {size} bytes")
    cdef bytes out = PyBytes_FromStringAndSize(NULL, n)
    cdef char* flags = PyBytes_AS_STRING(out)
    for i in range(n):
        code = p[2 * i] | (p[2 * i + 1] << 8)
        frm = code // 90
        to = code - frm * 90
        if code >= 8100 or frm == to:
            flags[i] = 0
        else:
            flags[i] = board._is_legal(SQUARE_OF[frm] | (SQUARE_OF[to] << 8))
    return out
