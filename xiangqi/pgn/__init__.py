"""Game records in xiangqi PGN: a game tree, a streaming reader, and a lossless writer.

The dialect is the one of the xqbase "中国象棋电脑应用规范" PGN spec and the WXF game files:
tag pairs (``[Game "Chinese Chess"]`` first, then Event, Site, Date, Round, RedTeam, Red,
BlackTeam, Black, Result, and optionally ``[FEN "..."]`` for the start and
``[Format "ICCS"|"WXF"|"Chinese"|"SAN"]`` for the move text), then move text with move numbers,
``{}`` and ``;`` comments, NAGs (``$1``), variations in parentheses, and a result: ``1-0`` (Red
won), ``0-1`` (Black won), ``1/2-1/2`` or ``*``. Squares are public numbers 0..89 (see
xiangqi.squares).

The game tree follows python-chess's ``chess.pgn``: a ``Game`` is the root ``GameNode``; each
move is a ``ChildNode`` with ``move``, ``comment``, ``starting_comment`` (the comment before the
first move of a variation), ``nags`` and ``variations`` (the first is the main line).
``game.mainline_moves()`` lists the main line's moves, ``game.add_move(move)`` appends one.

The package: ``tree`` (the game tree), ``reader`` (the reader and its sources), ``writer``
(the PGN writer), ``visitor`` (the one tree walk that the PGN, XQF and DhtmlXQ writers
share) and ``structure`` (PGN told from other text by its structure, for the front door).

Reading
    Each move is recognised by its shape, whatever the Format tag says: ICCS ("H2-E2",
    "h2e2"), Chinese ("炮二平五", "马８进７", any variant xiangqi.notation reads), WXF ("C2.5",
    "C2=5", "+R+6", Fairy-Stockfish's "23=4") or SAN as Fairy-Stockfish, Cutechess and XBoard
    write xiangqi ("Che3", "Hg8", "Rxa10+"; see xiangqi.notation); full-width letters,
    digits and signs (``Ｃ２＝５``) are read as their ASCII
    forms outside comments, and two moves written together without a space (``Ｃ２＝５Ｈ８＋７``,
    ``炮二平五马８进７``) are split. Trailing "!", "?" (read as NAGs $1..$6) and check marks
    ("+", "#") are allowed after a move; move numbers may be "1.", "1..." or "1、".
    A line that starts with a tag pair always starts a game's tags, never move text (a game may
    stop at a bare move number right before the next game). Tags and moves may share a line.
    Line ends may be LF, CRLF or CR. A str is PGN text; a path (``pathlib.Path``) opens
    the file, and a str that names an existing file is refused rather than read as text.
    ``read_games`` returns an iterator and also takes binary files and
    decides their encoding once for the whole file: a BOM (UTF-8, UTF-16), else, at the first
    non-ASCII line, from the next 32 kB: UTF-8 if they decode as UTF-8, else Big5 (cp950) or
    GB18030 (which covers GBK), whichever reads more moves and more of the words of xiangqi
    records. ``encoding=`` overrides this (UTF-16 and UTF-32 included).
    From a seekable file, ``read_game(f)`` leaves the file exactly where the game's text ends,
    so ``f.tell()`` before ``read_game(f)`` is an offset to ``f.seek()`` back to. While
    ``read_games(f)`` iterates, the file stands at the start of the line where the next game
    starts (games that share a line share its offset: seeking there reads the first of them).

Errors are handled as python-chess does: a bad game does not raise, its problems are recorded.
The game keeps the moves before the first bad main-line move, ``game.errors`` holds an
InvalidPgnMoveError (text that is no move), IllegalPgnMoveError (no legal move, or more than
one, fits the text where it stands) or PgnSyntaxError (anything else skipped: a malformed tag,
an unclosed comment or variation, a stray character), each naming the game number and ply, and
the move texts from the bad one on stay in ``game.unread``. A bad move in a variation drops the
rest of that variation only. Pass ``strict=True`` to raise the first error instead.

Writing
    ``game.to_pgn(format)`` writes tags, then the tree with variations, NAGs and comments.
    Tag values escape ``\\``, ``"``, newline (``\\n``) and carriage return (``\\r``). Comments
    escape ``\\`` as ``\\\\``, ``}`` as ``\\}`` and a ``[`` that starts a comment line as
    ``\\[`` (so no comment line looks like a tag); the reader undoes exactly these escapes and
    keeps any other backslash. Whitespace around a comment is not kept, and CR in a comment is
    written as a line break. Within these rules, write -> read -> write gives the same text.
"""

from __future__ import annotations

from ._base import (
    RESULTS,
    TAG_ORDER,
    IllegalPgnMoveError,
    InvalidPgnMoveError,
    PgnError,
    PgnFormat,
    PgnMoveError,
    PgnSyntaxError,
)
from .reader import read_game, read_games
from .tree import ChildNode, Game, GameNode
from .visitor import Visitor, walk
from .writer import write_pgn

__all__ = [
    "RESULTS",
    "TAG_ORDER",
    "ChildNode",
    "Game",
    "GameNode",
    "IllegalPgnMoveError",
    "InvalidPgnMoveError",
    "PgnError",
    "PgnFormat",
    "PgnMoveError",
    "PgnSyntaxError",
    "Visitor",
    "read_game",
    "read_games",
    "walk",
    "write_pgn",
]
