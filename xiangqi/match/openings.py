"""Openings: start positions and book moves from a PGN or FEN/EPD file, and their order."""

from __future__ import annotations

import dataclasses
import os
import random
import threading
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from .._checks import check_int
from ..book import Reader, open_reader
from ..errors import XiangqiError
from ..fen import START_FEN
from ..move import Move
from ..pgn import read_games
from ..position import Position
from ._inputs import read_input

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
    if format is not None and not isinstance(format, str):
        raise TypeError(f"openings format must be text, got {type(format).__name__}")
    return parse_openings(read_input(path, "openings file", regular=False), path, plies, format)


def parse_openings(
    raw: bytes, path: str | os.PathLike[str], plies: int | None, format: str | None
) -> list[Opening]:
    """The openings of a file's bytes (path names it; see load_openings)."""
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


# -- where a match's openings come from ---------------------------------------------------------


@runtime_checkable
class OpeningSource(Protocol):
    """Where a match takes the opening of each round (a game pair) from.

    An :class:`OpeningList` (a file's or a list's openings in file or shuffled order) is
    one; any object with these two methods is another (an opening book that picks a line
    for each round plugs in here: pass it as run_match's ``openings``). Both methods must
    give the same answer for the same round every time: a resumed match replays a round
    from its index.
    """

    def opening(self, round_index: int) -> Opening:
        """The opening of round round_index (0-based)."""
        ...

    def index(self, round_index: int) -> int | None:
        """Which opening that is (the results file's "opening"), or None."""
        ...


@dataclasses.dataclass(frozen=True)
class OpeningList:
    """Openings played in turn (round k takes opening k modulo their number), in the
    order given or shuffled with a seed; no openings: every game starts from the start."""

    openings: tuple[Opening, ...] = ()
    order: tuple[int, ...] | None = None

    @classmethod
    def shuffled(cls, openings: Sequence[Opening], seed: int | None) -> OpeningList:
        """The openings in an order shuffled with seed (random.Random(seed).shuffle)."""
        order = list(range(len(openings)))
        random.Random(seed).shuffle(order)
        return cls(tuple(openings), tuple(order))

    def index(self, round_index: int) -> int | None:
        """Which opening round round_index plays (None: the start position)."""
        if not self.openings:
            return None
        index = round_index % len(self.openings)
        return index if self.order is None else self.order[index]

    def opening(self, round_index: int) -> Opening:
        """The opening of round round_index."""
        index = self.index(round_index)
        return Opening(Position().fen()) if index is None else self.openings[index]


#: How many plies a match plays from an opening book when not told (xiangqi match --book).
DEFAULT_BOOK_PLIES = 8

#: Rounds whose book lines one open of the book makes.
_CHUNK = 64


class BookOpenings:
    """Each round's opening drawn from an opening book (:mod:`xiangqi.book`).

    Round k plays up to ``plies`` moves from the start position, each a weighted choice
    from the book (as :meth:`xiangqi.book.Reader.weighted_choice` picks) with a generator
    seeded from ``seed`` and k, so a round's line is the same every time it is asked for
    (the two games of a pair share it with colours reversed, and a resumed match replays
    it); where the book has no move the line stops and the engines play on. The book is
    opened here to check it (:class:`xiangqi.book.BookError` if it is no book) and again
    for each 64 rounds' lines, which are kept; a lock lets the runner's threads share it.
    """

    def __init__(self, path: str | os.PathLike[str], plies: int, seed: int) -> None:
        self.path = os.fspath(path)
        self.plies = check_int("book plies", plies, 1, 1000)
        self.seed = check_int("seed", seed)
        with open_reader(self.path):
            pass
        self._lines: dict[int, Opening] = {}
        self._lock = threading.Lock()

    def opening(self, round_index: int) -> Opening:
        """The book line of round round_index (from the start position)."""
        round_index = check_int("round", round_index, 0)
        with self._lock:
            if round_index not in self._lines:
                # One open of the book makes the lines of the next _CHUNK rounds; each
                # round's generator is seeded by the round alone, so chunks change nothing.
                with open_reader(self.path) as reader:
                    for k in range(round_index, round_index + _CHUNK):
                        if k not in self._lines:
                            self._lines[k] = self._line(reader, k)
            return self._lines[round_index]

    def _line(self, reader: Reader, round_index: int) -> Opening:
        rng = random.Random(f"xiangqi-book:{self.seed}:{round_index}")
        pos = Position(START_FEN)
        for _ in range(self.plies):
            try:
                entry = reader.weighted_choice(pos, random=rng)
            except IndexError:
                break
            pos.push(entry.move)
        return Opening.from_position(pos)

    def index(self, round_index: int) -> int | None:
        """None: a book line is not one of a list's openings (the PGN shows its moves)."""
        return None


OPENING_ORDERS = ("sequential", "random")


def opening_source(
    openings: OpeningSource | Sequence[Position | Opening] | str | os.PathLike[str] | None,
    plies: int | None = None,
    format: str | None = None,
    order: str = "sequential",
    seed: int | None = None,
) -> OpeningSource:
    """The OpeningSource of run_match's openings argument: a file for load_openings (with
    plies and format), Positions or Openings, an OpeningSource as it is, or None (the start
    position); order "sequential" or "random" (shuffled with seed)."""
    if order not in OPENING_ORDERS:
        raise XiangqiError(f"opening order must be sequential or random, got {order!r}")
    if seed is not None:
        seed = check_int("seed", seed)
    if isinstance(openings, OpeningSource) and not isinstance(openings, (str, os.PathLike)):
        return openings
    if openings is None:
        return OpeningList()
    if isinstance(openings, (str, os.PathLike)):
        book = load_openings(openings, plies=plies, format=format)
    else:
        if isinstance(openings, (bytes, bytearray)) or not isinstance(openings, Sequence):
            raise TypeError(
                "openings must be a file name, an OpeningSource or a list of Positions or "
                f"Openings, got {type(openings).__name__}"
            )
        if plies is not None:
            plies = check_int("opening plies", plies, 0)
        book = []
        for item in openings:
            if isinstance(item, Position):
                item = Opening.from_position(item)
            if not isinstance(item, Opening):
                raise TypeError(f"openings are Positions or Openings, got {type(item).__name__}")
            if plies is not None:
                item = Opening(item.fen, item.moves[:plies])
            book.append(item)
    if order == "random" and book:
        return OpeningList.shuffled(book, seed)
    return OpeningList(tuple(book))
