"""xiangqi: Xiangqi (Chinese chess) rules with a compiled core.

Game records live in xiangqi.pgn (XQF files in xiangqi.records.xqf), move notation in
xiangqi.notation and pictures in xiangqi.svg (import them by name, as with python-chess's
chess.pgn).

Squares are public numbers 0..89 (file + 9 * rank; files a..i from Red's left,
ranks 0..9 from Red's side), and moves are written in ICCS ("h2e2").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .batch import generate_legal, legal_moves_batch, perft
from .errors import (
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    SearchLimitReached,
    XiangqiError,
)
from .fen import START_FEN, Status
from .move import Move
from .pieces import BLACK, RED, Color, Piece, PieceType
from .position import Position
from .rules import Outcome, Rules, Termination
from .squares import (
    SQUARE_NAMES,
    SQUARES,
    SquareSet,
    parse_square,
    square,
    square_file,
    square_name,
    square_rank,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .pgn import Game
    from .puzzles import MateAnswer

#: The version of the library (PEP 440).
__version__ = "0.1.0"


def open_games(source: object, *, format: str | None = None) -> Iterator[Game]:
    """The games of a game-record file (PGN in any encoding, XQF, ...), its format recognised
    from its content: see xiangqi.records.open_games (imported on first use)."""
    from .records import open_games as _open_games

    return _open_games(source, format=format)  # type: ignore[arg-type]


def find_mates(
    positions: Iterable[Position | str],
    max_plies: int,
    *,
    checks_only: bool = False,
    node_limit: int | None = None,
    threads: int | None = None,
    hash_mb: int = 64,
) -> list[MateAnswer]:
    """Position.find_mate over many positions on a pool of threads that search without the
    GIL: see xiangqi.puzzles.find_mates (imported on first use)."""
    from .puzzles import find_mates as _find_mates

    return _find_mates(
        positions,
        max_plies,
        checks_only=checks_only,
        node_limit=node_limit,
        threads=threads,
        hash_mb=hash_mb,
    )


__all__ = [
    "BLACK",
    "RED",
    "SQUARE_NAMES",
    "SQUARES",
    "SquareSet",
    "Status",
    "START_FEN",
    "Rules",
    "Termination",
    "Color",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "Move",
    "Outcome",
    "Piece",
    "PieceType",
    "Position",
    "SearchLimitReached",
    "XiangqiError",
    "__version__",
    "find_mates",
    "generate_legal",
    "legal_moves_batch",
    "open_games",
    "parse_square",
    "perft",
    "square",
    "square_file",
    "square_name",
    "square_rank",
]
