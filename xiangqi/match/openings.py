"""Openings: start positions and book moves from a PGN or FEN/EPD file, and their order."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence

from .._checks import check_int
from ..errors import XiangqiError
from ..move import Move
from ..pgn import read_games
from ..position import Position

# -- openings ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Opening:
    """A start position (FEN) and the book moves played from it."""

    fen: str
    moves: tuple[Move, ...] = ()

    @classmethod
    def from_position(cls, pos: Position) -> Opening:
        """The opening of a Position: its root and its move stack."""
        root = pos.copy()
        moves = tuple(root.move_stack)
        while root.move_stack:
            root.pop()
        return cls(root.fen(), moves)

    def position(self) -> Position:
        """A Position after the book moves, with them on its move stack."""
        pos = Position(self.fen)
        for move in self.moves:
            pos.push(move)
        return pos


def load_openings(
    path: str | os.PathLike[str], *, plies: int | None = None, format: str | None = None
) -> list[Opening]:
    """Openings from a PGN file (main lines, cut to plies) or a FEN/EPD list (one a line).

    format is "pgn" or "epd"; None guesses from the name (.pgn) or the text (a tag line).
    The file must be UTF-8 (a BOM is allowed). Blank lines and lines starting with "#" in a
    FEN list are skipped; an EPD line's first four fields are its position.
    """
    if plies is not None:
        plies = check_int("opening plies", plies, 0)
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise XiangqiError(
            f"openings file is not UTF-8 (byte {exc.start}: {raw[exc.start : exc.start + 4]!r}):"
            f" {os.fspath(path)!r}"
        ) from None
    if format is None:
        is_pgn = os.fspath(path).lower().endswith(".pgn") or text.lstrip().startswith("[")
        format = "pgn" if is_pgn else "epd"
    openings: list[Opening] = []
    if format == "pgn":
        for number, game in enumerate(read_games(text), 1):
            if game.errors:
                raise XiangqiError(
                    f"openings file {os.fspath(path)!r}, game {number}: {game.errors[0]}"
                )
            moves = tuple(game.mainline_moves())
            openings.append(Opening(game.board().fen(), moves if plies is None else moves[:plies]))
    elif format in ("epd", "fen"):
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            try:
                pos = Position(" ".join(fields[:6]))
            except ValueError:
                try:
                    pos = Position(" ".join(fields[:4]) + " 0 1")
                except ValueError as exc:
                    raise XiangqiError(
                        f"openings file {os.fspath(path)!r}, line {number}: {exc}"
                    ) from None
            openings.append(Opening(pos.fen()))
    else:
        raise XiangqiError(f"openings format must be pgn or epd, got {format!r}")
    if not openings:
        raise XiangqiError(f"no openings in {os.fspath(path)!r}")
    return openings


def _openings(
    openings: Sequence[Position | Opening] | str | os.PathLike[str] | None,
    plies: int | None,
    format: str | None,
) -> list[Opening]:
    if openings is None:
        return []
    if isinstance(openings, (str, os.PathLike)):
        return load_openings(openings, plies=plies, format=format)
    book: list[Opening] = []
    for item in openings:
        if isinstance(item, Position):
            item = Opening.from_position(item)
        if not isinstance(item, Opening):
            raise TypeError(f"openings are Positions or Openings, got {type(item).__name__}")
        if plies is not None:
            item = Opening(item.fen, item.moves[:plies])
        book.append(item)
    return book
