"""xiangqi: Xiangqi (Chinese chess) rules with a compiled core.

Game records live in xiangqi.pgn (XQF files in xiangqi.records.xqf), move notation in
xiangqi.notation and pictures in xiangqi.svg (import them by name, as with python-chess's
chess.pgn).

Squares are public numbers 0..89 (file + 9 * rank; files a..i from Red's left,
ranks 0..9 from Red's side), and moves are written in ICCS ("h2e2").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

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
    BB_ALL,
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
    from .pgn import Game
    from .puzzles import find_mates as find_mates

#: The version of the library (PEP 440).
__version__ = "0.1.0"

#: The version of the Cython API (``xiangqi/core/api.pxd``'s ``API_VERSION``) this
#: installation ships; an engine built against it can compare the two when imported.
CYTHON_API_VERSION = 1


def get_include() -> str:
    """The folder to give Cython (``include_path``) and the C compiler (``include_dirs``) so
    that ``from xiangqi.core.api cimport ...`` finds this installation's headers, as
    ``numpy.get_include()`` does for NumPy's: the folder that holds the ``xiangqi`` package.
    See https://xiangqi-rules.readthedocs.io/en/latest/cython-api.html.
    """
    import os

    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def open_games(source: object, *, format: str | None = None) -> Iterator[Game]:
    """The games of a game-record file (PGN in any encoding, XQF, ...), its format recognised
    from its content: see xiangqi.records.open_games (imported on first use)."""
    from .records import open_games as _open_games

    return _open_games(source, format=format)  # type: ignore[arg-type]


def __getattr__(name: str) -> Any:
    """find_mates, xiangqi.puzzles.find_mates itself, imported on first use (so that
    ``import xiangqi`` loads no puzzle code and the signature is written once)."""
    if name == "find_mates":
        from .puzzles import find_mates

        return find_mates
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BLACK",
    "RED",
    "SQUARE_NAMES",
    "SQUARES",
    "BB_ALL",
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
    "CYTHON_API_VERSION",
    "find_mates",
    "generate_legal",
    "get_include",
    "legal_moves_batch",
    "open_games",
    "parse_square",
    "perft",
    "square",
    "square_file",
    "square_name",
    "square_rank",
]
