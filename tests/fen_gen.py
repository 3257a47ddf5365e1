"""Pure-Python xiangqi FEN helpers for the tests, independent of the library.

Used by the oracle tests to (a) check that every FEN in tests/data/perft.txt is
a legal position by the placement rules, and (b) generate random legal sparse
endgame positions.  Nothing here imports ``xiangqi``: the point is to have a
second, separately written opinion about what a legal setup is.

Coordinates: square = file + 9 * rank, files a..i = 0..8 from Red's left,
rank 0 = Red's back rank, rank 9 = Black's back rank.  In FEN text the first
row is rank 9.  Upper case = Red, lower case = Black.
"""

from __future__ import annotations

import random

RED, BLACK = 0, 1
PIECE_LETTERS = "KABNRCP"
MAX_COUNT = {"K": 1, "A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}

Board = dict[int, str]


def sq(file: int, rank: int) -> int:
    return file + 9 * rank


def file_of(s: int) -> int:
    return s % 9


def rank_of(s: int) -> int:
    return s // 9


def color_of(piece: str) -> int:
    return RED if piece.isupper() else BLACK


def _mirror(points):
    return {(f, 9 - r) for (f, r) in points}


_RED_PALACE = {(f, r) for f in (3, 4, 5) for r in (0, 1, 2)}
_RED_ADVISOR = {(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)}
_RED_ELEPHANT = {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}

ALLOWED_POINTS = {
    ("K", RED): _RED_PALACE,
    ("K", BLACK): _mirror(_RED_PALACE),
    ("A", RED): _RED_ADVISOR,
    ("A", BLACK): _mirror(_RED_ADVISOR),
    ("B", RED): _RED_ELEPHANT,
    ("B", BLACK): _mirror(_RED_ELEPHANT),
}


def pawn_point_ok(color: int, file: int, rank: int) -> bool:
    """A pawn never stands behind its start rank, and before crossing the
    river it can only be on the a/c/e/g/i files."""
    own_rank = rank if color == RED else 9 - rank  # 0 = own back rank
    if own_rank < 3:
        return False
    if own_rank in (3, 4):
        return file % 2 == 0
    return True


def point_ok(piece: str, s: int) -> bool:
    kind, color = piece.upper(), color_of(piece)
    f, r = file_of(s), rank_of(s)
    if kind == "P":
        return pawn_point_ok(color, f, r)
    pts = ALLOWED_POINTS.get((kind, color))
    return pts is None or (f, r) in pts


def parse_fen(fen: str) -> tuple[Board, int]:
    """Board and side to move ('w' = Red, 'b' = Black).  Raises ValueError."""
    parts = fen.split()
    if len(parts) < 2:
        raise ValueError("FEN needs at least placement and side fields")
    rows = parts[0].split("/")
    if len(rows) != 10:
        raise ValueError("FEN needs 10 rows")
    board: Board = {}
    for i, row in enumerate(rows):
        rank = 9 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            elif ch.upper() in PIECE_LETTERS:
                if f > 8:
                    raise ValueError(f"row {row!r} too long")
                board[sq(f, rank)] = ch
                f += 1
            else:
                raise ValueError(f"bad piece letter {ch!r}")
        if f != 9:
            raise ValueError(f"row {row!r} does not have 9 files")
    if parts[1] not in ("w", "b"):
        raise ValueError("side must be w or b")
    return board, (RED if parts[1] == "w" else BLACK)


def board_to_fen(board: Board, side: int) -> str:
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get(sq(f, rank))
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + (" w" if side == RED else " b") + " - - 0 1"


def king_square(board: Board, color: int) -> int | None:
    k = "K" if color == RED else "k"
    for s, p in board.items():
        if p == k:
            return s
    return None


def _on_board(f: int, r: int) -> bool:
    return 0 <= f < 9 and 0 <= r < 10


def kings_facing(board: Board) -> bool:
    rk, bk = king_square(board, RED), king_square(board, BLACK)
    if rk is None or bk is None or file_of(rk) != file_of(bk):
        return False
    lo, hi = sorted((rank_of(rk), rank_of(bk)))
    f = file_of(rk)
    return all(sq(f, r) not in board for r in range(lo + 1, hi))


def attacked(board: Board, target: int, by: int) -> bool:
    """Is `target` attacked by a rook, cannon, horse, pawn or (flying) king of
    colour `by`?  Advisors and elephants can never reach the enemy king's
    palace, so they are not needed for check detection."""
    tf, tr = file_of(target), rank_of(target)

    def own(p, kind):
        return p is not None and p.upper() == kind and color_of(p) == by

    # rook / cannon / king along lines
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        f, r = tf + df, tr + dr
        screens = 0
        while _on_board(f, r):
            p = board.get(sq(f, r))
            if p is not None:
                if screens == 0:
                    if own(p, "R"):
                        return True
                    if own(p, "K") and df == 0:  # flying general
                        return True
                elif screens == 1 and own(p, "C"):
                    return True
                screens += 1
                if screens > 1:
                    break
            f, r = f + df, r + dr
    # horse: the horse at (tf+df, tr+dr) is blocked by its leg next to itself
    for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
        f, r = tf + df, tr + dr
        if not _on_board(f, r) or not own(board.get(sq(f, r)), "N"):
            continue
        # leg is one orthogonal step from the horse towards the target
        if abs(df) == 2:
            leg = sq(f - df // 2, r)
        else:
            leg = sq(f, r - dr // 2)
        if leg not in board:
            return True
    # pawns: forward for Red is +rank; sideways only after crossing the river
    fwd = 1 if by == RED else -1
    p = board.get(sq(tf, tr - fwd)) if _on_board(tf, tr - fwd) else None
    if own(p, "P"):
        return True
    for df in (1, -1):
        if _on_board(tf + df, tr):
            p = board.get(sq(tf + df, tr))
            if own(p, "P"):
                crossed = tr >= 5 if by == RED else tr <= 4
                if crossed:
                    return True
    return False


def in_check(board: Board, color: int) -> bool:
    k = king_square(board, color)
    return k is not None and attacked(board, k, 1 - color)


def legality_problems(fen: str) -> list[str]:
    """Empty list iff the FEN is a legal setup by the placement rules:
    one king each, kings/advisors/elephants on their points, pawns never
    behind their start rank nor on b/d/f/h before the river, piece counts not
    above the initial ones, kings not facing, side not to move not in check."""
    try:
        board, side = parse_fen(fen)
    except ValueError as e:
        return [str(e)]
    problems = []
    counts: dict[str, int] = {}
    for s, p in board.items():
        counts[p] = counts.get(p, 0) + 1
        if not point_ok(p, s):
            problems.append(f"{p} on illegal point {'abcdefghi'[file_of(s)]}{rank_of(s)}")
    for kind, mx in MAX_COUNT.items():
        for letter in (kind, kind.lower()):
            n = counts.get(letter, 0)
            if kind == "K" and n != 1:
                problems.append(f"{n} kings {letter}")
            elif n > mx:
                problems.append(f"{n} pieces {letter}")
    if problems:
        return problems
    if kings_facing(board):
        problems.append("kings face each other")
    if in_check(board, 1 - side):
        problems.append("side not to move is in check")
    return problems


def is_legal_fen(fen: str) -> bool:
    return not legality_problems(fen)


def random_sparse_fen(
    rng: random.Random, red: str = "", black: str = "", side: int | None = None, tries: int = 10000
) -> str:
    """A random legal position with the two kings plus the given extra
    pieces, e.g. red="RN", black="AA".  Each piece is put on a random point
    allowed for it; setups that break any rule are redrawn."""
    pieces = ["K"] + [c.upper() for c in red] + ["k"] + [c.lower() for c in black]
    for _ in range(tries):
        board: Board = {}
        ok = True
        for p in pieces:
            cands = [s for s in range(90) if s not in board and point_ok(p, s)]
            if not cands:
                ok = False
                break
            board[rng.choice(cands)] = p
        if not ok:
            continue
        stm = rng.randrange(2) if side is None else side
        fen = board_to_fen(board, stm)
        if is_legal_fen(fen):
            return fen
    raise RuntimeError("could not place pieces legally")
