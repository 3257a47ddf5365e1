# Zobrist keys of xiangqi positions: a seeded generator, keys from scratch, and the
# incremental update of one move.
#
# Generator: SplitMix64 (Steele, Lea and Flood 2014; Vigna's reference C code) with
# seed 0. Its n-th output (n = 1, 2, ...) is mix(n * 0x9E3779B97F4A7C15), where mix is
# the finaliser below; n = 1 gives 0xE220A8397B1DCDAF. Being a pure function of n,
# no table is stored and the keys are the same on every run and platform.
#
#   key of a piece  = output n = 1 + (code - 1) * 90 + square
#                     code = 1 + type + 7 * color (type KING..PAWN = 0..6, Red 0, Black 1),
#                     square = public square 0..89 (file + 9 * rank)
#   key of "Black to move" = output n = 1 + 14 * 90 = 1261
#
# The key of a position is the XOR of the keys of its pieces, and of the side key
# when Black is to move. Pieces are keyed by kind, not by slot, so two rooks that
# swap places give the same key.
#
# Legend as in _core.pxd: sq (16x16 index), pc (core piece id 16 + 16 * side + slot).

from libc.stdint cimport uint64_t

from xiangqi.core.tables cimport PIECE_TYPE, PUBLIC_OF

cdef enum:
    ZOBRIST_SIDE_INDEX = 1261   # generator output number of the side key

cdef extern from *:
    """
    /* The generator's outputs 1..1261 as a read-only table made by the compiler
       (constant expressions; XQ_R* from core/tables.pxd): ZOBRIST_OUTPUT[n - 1]. */
    #define XQ_SM1(z) (((z) ^ ((z) >> 30)) * 0xBF58476D1CE4E5B9ULL)
    #define XQ_SM2(z) (((z) ^ ((z) >> 27)) * 0x94D049BB133111EBULL)
    #define XQ_SM3(z) ((z) ^ ((z) >> 31))
    #define XQ_SPLITMIX(n) XQ_SM3(XQ_SM2(XQ_SM1((unsigned long long)(n) * 0x9E3779B97F4A7C15ULL)))
    #define XQ_E_SPLITMIX(i) XQ_SPLITMIX((i) + 1),
    XQ_TABLE unsigned long long ZOBRIST_OUTPUT[1261] = {
        XQ_R1024_(XQ_E_SPLITMIX, 0) XQ_R128(XQ_E_SPLITMIX, 1024) XQ_R64(XQ_E_SPLITMIX, 1152)
        XQ_R32(XQ_E_SPLITMIX, 1216) XQ_R8(XQ_E_SPLITMIX, 1248) XQ_R4(XQ_E_SPLITMIX, 1256)
        XQ_E_SPLITMIX(1260)};
    """
    const unsigned long long ZOBRIST_OUTPUT[1261]


cdef inline uint64_t splitmix64(uint64_t n) noexcept nogil:
    # The n-th output of SplitMix64 seeded with 0.
    cdef uint64_t z = n * <uint64_t>0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int piece_code(int pc) noexcept nogil:
    # Core piece id -> public code 1 + type + 7 * color. Slots 0, 1-2, 3-4, 5-6,
    # 7-8, 9-10 are king .. cannon ((slot + 1) >> 1); slots 11-15 are pawns.
    cdef int slot = pc & 15
    cdef int pt = 6 if slot >= 11 else (slot + 1) >> 1
    return 1 + pt + 7 * ((pc >> 4) - 1)


cdef inline int public_square(int sq) noexcept nogil:
    # 16x16 index (rows 3..12, row 12 = Red's back rank; columns 3..11) -> file + 9 * rank.
    return (sq & 15) - 3 + 9 * (12 - (sq >> 4))


cdef inline uint64_t piece_key(int pc, int sq) noexcept nogil:
    # Key of piece id pc standing on 16x16 square sq.
    return splitmix64(1 + (piece_code(pc) - 1) * 90 + public_square(sq))


cdef inline uint64_t side_key() noexcept nogil:
    return splitmix64(ZOBRIST_SIDE_INDEX)


cdef inline uint64_t key_from_scratch(const unsigned char* squares, int side) noexcept nogil:
    # Key of a whole board (squares[256] of piece ids, 0 empty, 0xFF off the board).
    cdef uint64_t key = side_key() if side else 0
    cdef int sq, pc
    for sq in range(0x33, 0xCC):
        pc = squares[sq]
        if pc and pc != 0xFF:
            key ^= piece_key(pc, sq)
    return key


cdef inline uint64_t table_key(int pc, int sq) noexcept nogil:
    # piece_key(pc, sq) read from ZOBRIST_OUTPUT (a test compares the two everywhere).
    return ZOBRIST_OUTPUT[(PIECE_TYPE[pc] + 7 * ((pc >> 4) - 1)) * 90 + PUBLIC_OF[sq]]


cdef inline uint64_t key_after_move(uint64_t key, int pc, int frm, int to, int cap) noexcept nogil:
    # Key after piece pc moves frm -> to capturing cap (0 if none); the side flips. The
    # one Zobrist update of every history (Board.push and the VectorEnv step alike).
    key ^= table_key(pc, frm) ^ table_key(pc, to) ^ ZOBRIST_OUTPUT[ZOBRIST_SIDE_INDEX - 1]
    if cap:
        key ^= table_key(cap, to)
    return key
