# The map of the compiled core. One extension, xiangqi._core: this file and _core.pyx
# are its Python boundary; the algorithms live in rooms, xiangqi/core/*.pxd, as
# cdef inline functions that _core.pyx cimports (so hot calls inline across files).
#
# Rooms (dependencies point up this list; each file opens with a map of its functions
# and the path each belongs to: [book reference], [fast], [validator] or [shared]):
#   core/tables.pxd     piece kinds; the step, leg, eye and zone tables, computed from
#                       geometry at compile time (storage scheme explained there); the
#                       movement rules as inline functions, each stated once
#   core/state.pxd      BoardState (all state of one position), MAX_MOVES, OFF_BOARD;
#                       clear_board, make_move, unmake_move (shared by every path)
#   core/reference.pxd  the book's routines over typed memoryviews: KnightMove ..
#                       PawnMove, Check, the legal SaveMove, the book perft [book reference]
#   core/movegen.pxd    the fast generator, in_check, the threat map, legal filtering [fast]
#   core/validator.pxd  ElephantEye's single-move validator and its own tables [validator]
#   core/perft.pxd      perft on the fast path [fast]
#   core/attacks.pxd    queries: attackers of a point, pins (cannon screens, facing
#                       kings, horse legs) over the board array alone [queries]
#   core/zobrist.pxd    Zobrist keys: the seeded generator, keys from scratch, one move
#   core/eleeye_key.pxd ElephantEye's opening-book key (BOOK.DAT's 32-bit lock), generated
#                       by scripts/gen_eleeye_key.py, apart from zobrist.pxd on purpose;
#                       boundary _book.pxi
#   core/history.pxd    the history entry (PlyRecord), the one push
#   core/material.pxd   the move rule and insufficient material
#   core/judge.pxd      what both rule sets share: the end codes, the board verdict
#                       (has_legal_move, board_verdict), the repetition window
#                       (count_occurrences, span_start) and its replay, capture_legal
#   core/chase.pxd      perpetual check and chase judging (Asian rules)
#   core/asian.pxd      the Asian rule set's verdict over those rooms: outcome_code
#   core/chinese.pxd    repetitions by the Chinese (CXA) rules: kinds of move (check, mate
#                       threat, chase, idle), the verdict, cxa_outcome_code
#   core/mate.pxd       the forced-mate search (iterative deepening, transposition
#                       table) on movegen's generator and check test; boundary _mate.pxi
#   core/dfpn.pxd       the proof-number mate search (df-pn) over mate.pxd's game
#   core/rl.pxd         the RL action space, observation planes, legal-action masks and
#                       the vectorised environment's game-end judge; boundary _rl.pxi
#   core/api.pxd        the public Cython API for compiled engines (xq_* names, nogil,
#                       API_VERSION): a stable facade over the rooms above, cimported by
#                       other extensions through xiangqi.get_include(); _core uses none of it
#
# Three paths exist on purpose: the book reference (the port, readable), the fast
# path (what the API uses) and the validator (an independent second algorithm);
# tests set each against the others. Outside the two oracles (reference.pxd, validator.pxd)
# each movement rule is stated once, in tables.pxd (its XQ_* macros, which build the
# tables, and its rule functions: horse_leg, elephant_eye, own_half, in_palace,
# first_piece, pawn_forward); the rooms call those. The specialised copies kept for
# speed say so where they stand (movegen.mark_threats, judge.has_legal_move).
#
# Glossary (Red's name first in each pair):
#   帅/将 king (general)   仕/士 advisor   相/象 elephant (the book's "Bishop")
#   马 horse (the book's "Knight")   车 rook (chariot)   炮 cannon   兵/卒 pawn (soldier)
#   九宫 palace; 河界 river; 蹩马腿 horse leg blocked; 塞象眼 elephant eye blocked;
#   炮架 cannon screen; 将帅对面 kings facing (flying general); 将军 check;
#   将死 checkmate; 困毙 no legal move (loses in xiangqi).
#
# The board is the book's 16x16 mailbox: index sq = row * 16 + column, rows 3..12
# (row 3 is Black's back rank, row 12 Red's) and columns 3..11 are on the board;
# every other entry is an off-board sentinel that the zone tables mark 0.
# Rows 8..12 are Red's half, so `sq & 0x80` is set exactly on Red's half.
#
# A piece id is 0 for empty, else 16 + 16 * side + slot (side 0 Red, 1 Black).
# Slots: 0 king, 1-2 advisors, 3-4 elephants, 5-6 horses, 7-8 rooks,
# 9-10 cannons, 11-15 pawns. `pc & side_tag(side)` tests "belongs to side".
#
# A move is an int: from_sq | to_sq << 8; 0 is "no move".
#
# Name legend for short locals: sq (16x16 index), square (public 0..89,
# file + 9 * rank), pc (piece id), pt (piece type 0..6 = king, advisor,
# elephant, horse, rook, cannon, pawn), mv (encoded move), cap (captured
# piece id), side (0 Red, 1 Black), q (the king's square being tested).

from xiangqi.core.history cimport PlyRecord
from xiangqi.core.state cimport BoardState

cdef enum:
    MAX_DEPTH = 64      # deepest perft the boundary accepts
    BATCH_CHUNK = 4096  # boards copied per GIL release in legal_moves_batch

cdef class Board:
    cdef BoardState st              # the position: squares, piece list, side to move
    cdef PlyRecord* plies                 # the one history: plies[0] the root, plies[nply] now
    cdef int nply                   # moves pushed and not popped
    cdef int capacity               # entries allocated in plies
    cdef long long fullmove0        # FEN move number at the root
    cdef int null_base              # plies index of the last null move (0: none); see push_null
    cdef bint _is_legal(self, int mv) noexcept
    cdef int _reserve(self, int entries) except -1
    cdef void _reset_history(self, long long clock) noexcept
    cdef int _outcome(self, object repetitions, object move_limit, object rules) except -1
    cdef int _pop_null(self) noexcept
