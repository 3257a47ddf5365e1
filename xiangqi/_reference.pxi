# The book's reference path and its tables, for tests only: internal entry points, not
# part of the production API. Included by _core.pyx (one extension; see its docstring).

from xiangqi.core.reference cimport (
    REFERENCE_MAX_DEPTH, View, book_check, generate_legal_book, perft_book,
)
from xiangqi.core.state cimport BoardState, MAX_MOVES
from xiangqi.core.tables cimport (
    ADVISOR_STEPS, ADVISOR_ZONE, CANNON_DIRS, ELEPHANT_EYES, ELEPHANT_STEPS, ELEPHANT_ZONE,
    HORSE_CHECK_LEGS, HORSE_LEGS, HORSE_STEPS, KING_STEPS, KING_ZONE, ON_BOARD, PAWN_STEPS,
    PAWN_ZONE, PUBLIC_OF, ROOK_DIRS,
)
from xiangqi.core.validator cimport EE_HORSE_PIN, EE_IN_FORT, EE_LEGAL_SPAN


# ---------------------------------------------------------------------------
# The book's reference path, for tests only: internal entry points, not part of
# the production API (Board has no book= switches). Each makes the typed
# memoryviews of the board and piece list once and hands them to reference.pxd.
# ---------------------------------------------------------------------------

cdef inline View board_view(BoardState* st):
    return <unsigned char[:256]>st.squares


cdef inline View piece_view(BoardState* st):
    return <unsigned char[:48]>st.piece_square


def _reference_is_check(Board board not None):
    """The book's Check(side to move) on board (reference path; tests only)."""
    return bool(book_check(board_view(&board.st), piece_view(&board.st), board.st.side))


def _reference_legal_move_indices(Board board not None):
    """Legal moves by the book's generator and legal SaveMove, as from * 90 + to (tests only)."""
    cdef int moves[MAX_MOVES]
    cdef int n, i
    cdef BoardState st = board.st
    n = generate_legal_book(&st, board_view(&st), piece_view(&st), moves)
    return [PUBLIC_OF[moves[i] & 255] * 90 + PUBLIC_OF[moves[i] >> 8] for i in range(n)]


def _reference_perft(Board board not None, object depth):
    """perft by the book's routines only (reference path; tests only; depth 0..6)."""
    cdef int plies = check_int(depth, "depth", 0, REFERENCE_MAX_DEPTH)
    cdef BoardState st = board.st
    cdef View squares = board_view(&st), pieces = piece_view(&st)
    cdef long long n
    with nogil:
        n = perft_book(&st, squares, pieces, plies)
    return n


def book_tables():
    """The direction, leg/eye and position tables as Python lists, for tests to compare
    with the book's printed tables. Position tables are 256 entries, 16x16 order."""
    return {
        "KnightDir": [HORSE_STEPS[k] for k in range(8)],
        "KnightCheck": [HORSE_LEGS[k] for k in range(8)],
        "KingDir": [KING_STEPS[k] for k in range(4)],
        "AdvisorDir": [ADVISOR_STEPS[k] for k in range(4)],
        "BishopDir": [ELEPHANT_STEPS[k] for k in range(4)],
        "BishopCheck": [ELEPHANT_EYES[k] for k in range(4)],
        "RookDir": [ROOK_DIRS[k] for k in range(4)],
        "CannonDir": [CANNON_DIRS[k] for k in range(4)],
        "PawnDir": [[PAWN_STEPS[s][k] for k in range(3)] for s in range(2)],
        "KnightPosition": [ON_BOARD[i] for i in range(256)],
        "KingPosition": [KING_ZONE[i] for i in range(256)],
        "AdvisorPosition": [ADVISOR_ZONE[i] for i in range(256)],
        "BishopPosition": [ELEPHANT_ZONE[i] for i in range(256)],
        "PawnPosition": [[PAWN_ZONE[s][i] for i in range(256)] for s in range(2)],
        "HorseCheckLegs": [HORSE_CHECK_LEGS[k] for k in range(8)],
        "LegalSpan": [EE_LEGAL_SPAN[i] for i in range(512)],
        "HorsePin": [EE_HORSE_PIN[i] for i in range(512)],
        "InFort": [EE_IN_FORT[i] for i in range(256)],
    }
