"""Opening books: read ElephantEye's ``BOOK.DAT``, build and read books of the library's own.

The shape is python-chess's ``chess.polyglot``::

    with xiangqi.book.open_reader("BOOK.DAT") as reader:
        for entry in reader.find_all(position):
            print(entry.move, entry.weight)
        move = reader.weighted_choice(position, random=rng).move

``open_reader(path)`` recognises the format from the file's content, not its name: an
SQLite file (its 16-byte header ``SQLite format 3``) is a book of the library's own, and
anything else must be a well-formed ElephantEye book, or it is refused with a
``BookError`` that names the file and the record at fault. Moves and squares are the public
ones (``Move``, squares 0..89, file + 9 * rank, rank 0 on Red's side).

ElephantEye's ``.dat`` (read exactly as ``GetBookMoves`` does, xqbase/eleeye ``eleeye/book.cpp``)
    A sequence of 8-byte little-endian records ``{uint32 lock, uint16 move, uint16 weight}``
    sorted by lock. The lock is ``elephanteye_key(position)``; the move is ``from | to << 8``
    on the engine's 16x16 board (row 3 is Black's back rank, row 12 Red's; columns 3..11 are
    files a..i). A position whose lock is not in the file is looked up again mirrored left to
    right, and the moves found there are mirrored back. Moves that are not legal in the
    position are skipped. Entries come highest weight first; equal weights keep the file's
    order (the engine's sort is a stable bubble sort). ``.dat`` entries have no win/draw/loss
    counts: those fields are None.

The library's own book (``build`` writes it; schema version 1)
    An SQLite 3 database of three tables::

        CREATE TABLE book (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE positions (
            id INTEGER PRIMARY KEY,
            key INTEGER NOT NULL UNIQUE,   -- Position.zobrist_hash(), as a signed 64-bit int
            fen TEXT NOT NULL              -- the FEN's board and side fields: "<board> w|b"
        );
        CREATE TABLE moves (
            id INTEGER PRIMARY KEY,
            position INTEGER NOT NULL REFERENCES positions (id),
            move TEXT NOT NULL,            -- ICCS, e.g. 'h2e2'
            weight INTEGER NOT NULL,       -- games that played the move from the position
            wins INTEGER NOT NULL,         -- ... and were won,
            draws INTEGER NOT NULL,        -- ... drawn,
            losses INTEGER NOT NULL,       -- ... lost by the side that played it
            UNIQUE (position, move)
        );

    ``book`` holds ``format`` = ``xiangqi-book``, ``version`` = ``1``, ``key`` =
    ``zobrist-splitmix64`` (the key function, see ``Position.zobrist_hash``), ``plies``,
    ``min_games``, ``mirror`` (``0``/``1``), ``games`` (the games read) and ``created_by``.
    ``fen`` turns back into a position with ``Position(fen)``; ``key`` is the fast way in.
    Games with no result (``*``) count in ``weight`` but in none of wins, draws, losses.
    A reader checks the format, version and key names, that stored keys match their
    positions, and every move it returns: a book built with another key (another position
    set) or a damaged one raises ``BookError`` rather than answering wrongly.
"""

from __future__ import annotations

import os
import stat
import struct
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._book_base import (
    BookError,
    Entry,
    PathLike,
    Reader,
    check_exclude,
    check_path,
    check_position,
)
from ._book_sqlite import (
    FORMAT_NAME,  # noqa: F401  (the format's names, read as xiangqi.book.FORMAT_NAME ...)
    FORMAT_VERSION,  # noqa: F401
    KEY_NAME,  # noqa: F401
    SQLiteReader,
    position_text,
    write_book,
)
from ._checks import check_bool, check_int
from ._files import ReplacingFile, check_output, open_input
from .batch import elephanteye_locks, legal_flags
from .errors import XiangqiError
from .move import MOVES, Move
from .position import Position

if TYPE_CHECKING:
    from .pgn import Game
    from .records import InputFiles, SkippedFile

__all__ = [
    "BookError",
    "BuildSummary",
    "MAX_DAT_BYTES",
    "Entry",
    "ElephantEyeReader",
    "Reader",
    "SQLiteReader",
    "build",
    "elephanteye_key",
    "open_reader",
]

#: The first 16 bytes of every SQLite 3 database file.
SQLITE_MAGIC = b"SQLite format 3\x00"

_RECORD = struct.Struct("<IHH")  # ElephantEye's BookStruct: lock, move, weight
#: The largest ElephantEye ``.dat`` a reader takes (bytes; 32 Mi records, far beyond any real
#: book: ElephantEye's own BOOK.DAT is under 100 KiB). A ``.dat`` is read whole into memory, so
#: a larger file, or a pipe that never ends (``<(yes)``), is refused with BookError once this
#: many bytes have come; a device (``/dev/zero``) is never a book and is refused unread.
MAX_DAT_BYTES = 256 * 1024 * 1024


def elephanteye_key(position: Position) -> int:
    """ElephantEye's 32-bit book key ("lock") of a position, as ``BOOK.DAT`` is sorted by.

    The XOR of the locks of the pieces (by kind and square) and, with Black to move, of
    the side lock; the locks are the engine's Zobrist table (RC4 keyed with four zero
    bytes). The counterpart of ``chess.polyglot.zobrist_hash``.
    """
    check_position(position)
    return elephanteye_locks(position)[0]


def open_reader(path: PathLike) -> Reader:
    """Open an opening book, its format recognised from its content.

    An SQLite file is read as a book of the library's own (``SQLiteReader``); anything
    else must be a well-formed ElephantEye ``.dat`` (``ElephantEyeReader``). Raises
    ``BookError`` (naming the file and, where it applies, the record) for a file that
    is neither, and OSError when the file cannot be read. Use as a context manager.

    The file is opened once: a ``.dat`` may come through a pipe (``<(cat BOOK.DAT)``) and
    is read whole from it, up to ``MAX_DAT_BYTES`` (more: ``BookError``, so a pipe that
    never ends cannot fill the memory); a device (``/dev/zero``) is refused with
    ``BookError`` unread. An SQLite book must be a regular file (SQLite reads it in
    place): one through a pipe is refused with ``BookError``.
    """
    name = check_path(path, "path")
    with open_input(name, regular=False) as handle:  # a FIFO with no writer: no hang
        regular = _check_not_device(handle, name)
        head = handle.read(len(SQLITE_MAGIC))
        if head != SQLITE_MAGIC or not regular:
            # the rest from the same handle: a pipe's bytes can be read only once
            data = _read_dat(handle, name, head)
    if head != SQLITE_MAGIC:
        return ElephantEyeReader._from_bytes(name, data)
    if not regular:
        raise BookError(
            f"{name!r} is an SQLite book but not a regular file (a pipe?): SQLite reads a "
            "book in place, so copy it to a file first"
        )
    return SQLiteReader(name)


def _check_not_device(handle: Any, name: str) -> bool:
    """BookError for a device (a character or block device is never a book); whether the
    open file is a regular one."""
    mode = os.fstat(handle.fileno()).st_mode
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise BookError(f"{name!r} is a device, not an opening book file")
    return stat.S_ISREG(mode)


def _read_dat(handle: Any, name: str, head: bytes = b"") -> bytes:
    """head and the rest of handle, at most MAX_DAT_BYTES in all, else BookError: a .dat is
    held in memory, and a pipe may never end."""
    limit = MAX_DAT_BYTES
    chunks = [head]
    size = len(head)
    while size <= limit:
        chunk = handle.read(min(1 << 20, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise BookError(
        f"{name!r} is not an opening book: not an SQLite book, and more than "
        f"{limit} bytes (xiangqi.book.MAX_DAT_BYTES) for an ElephantEye .dat"
    )


# -- ElephantEye's .dat ------------------------------------------------------------------------


def _ee_square(sq: int) -> int:
    """Public square of the engine's 16x16 index sq, or -1 off the board."""
    row, column = sq >> 4, sq & 15
    if 3 <= row <= 12 and 3 <= column <= 11:
        return column - 3 + 9 * (12 - row)
    return -1


#: Public square of each 16x16 index (-1 off the board): the engine's IN_BOARD, pregen.cpp.
_EE_SQUARE = [_ee_square(sq) for sq in range(256)]


def _mirrored(move: Move) -> Move:
    frm, to = move.from_square, move.to_square
    return MOVES[(frm + 8 - 2 * (frm % 9)) * 90 + to + 8 - 2 * (to % 9)]  # type: ignore[return-value]


class ElephantEyeReader(Reader):
    """ElephantEye's opening book (``BOOK.DAT``), read into memory and checked on opening.

    Refused with ``BookError``: a length that is not whole 8-byte records, an empty file,
    a device, more than ``MAX_DAT_BYTES``,
    records out of lock order (the engine's binary search would miss entries), a move
    whose squares are off the board or equal. Probes follow the engine's ``GetBookMoves``
    (see the module docstring); entries carry no win/draw/loss counts.
    """

    def __init__(self, path: PathLike) -> None:
        self.path = check_path(path, "path")
        with open_input(self.path, regular=False) as handle:
            _check_not_device(handle, self.path)
            data = _read_dat(handle, self.path)
        self._load(data)

    @classmethod
    def _from_bytes(cls, path: str, data: bytes) -> ElephantEyeReader:
        """A reader of data already read whole from path (open_reader's one read)."""
        reader = cls.__new__(cls)
        reader.path = path
        reader._load(data)
        return reader

    def _load(self, data: bytes) -> None:
        self._count = self._check(data)
        by_lock: dict[int, list[Entry]] = {}
        for record, (lock, raw, weight) in enumerate(_RECORD.iter_unpack(data)):
            move = MOVES[_EE_SQUARE[raw & 255] * 90 + _EE_SQUARE[raw >> 8]]
            entry = Entry(move, weight, key=lock, record=record)
            by_lock.setdefault(lock, []).append(entry)
        # Each lock's entries, highest weight first with ties in file order (sorted() is
        # stable, as the engine's bubble sort is), and their moves packed for one core
        # legality call per probe.
        stored: dict[int, tuple[tuple[Entry, ...], bytes]] = {}
        for lock, entries in by_lock.items():
            ordered = tuple(sorted(entries, key=lambda e: -e.weight))
            stored[lock] = (ordered, _pack(ordered))
        # The tables a probe reads, in one attribute: (by lock, by mirrored lock, and
        # (mirrored?, lock, legal flags) -> the entries that are legal and weigh at least 1).
        # The flags come from the probed position itself, so the result is exact even when
        # two positions share a 32-bit lock. A probe takes the tuple once, so a close() in
        # another thread (which sets it to None) lets a running probe finish on whole tables.
        self._tables: (
            tuple[
                dict[int, tuple[tuple[Entry, ...], bytes]],
                dict[int, tuple[tuple[Entry, ...], bytes]],
                dict[tuple[bool, int, bytes], tuple[Entry, ...]],
            ]
            | None
        ) = (stored, {}, {})

    def _check(self, data: bytes) -> int:
        size = len(data)
        if size == 0:
            raise BookError(f"{self.path!r} is empty: not an opening book")
        if size % _RECORD.size:
            raise BookError(
                f"{self.path!r} is not an opening book: not an SQLite book, and as an "
                f"ElephantEye .dat its {size} bytes are not whole 8-byte records (record "
                f"{size // _RECORD.size} is cut short after {size % _RECORD.size} bytes)"
            )
        last = -1
        for record, (lock, raw, _weight) in enumerate(_RECORD.iter_unpack(data)):
            if lock < last:
                raise BookError(
                    f"{self.path!r}, record {record} (byte {record * _RECORD.size}): lock "
                    f"0x{lock:08X} is below the previous record's 0x{last:08X}; an "
                    "ElephantEye book is sorted by lock (or this is not one)"
                )
            last = lock
            frm, to = _EE_SQUARE[raw & 255], _EE_SQUARE[raw >> 8]
            if frm < 0 or to < 0 or frm == to:
                where = "points off the board" if frm < 0 or to < 0 else "does not move"
                # A bad first record: most likely no book at all (a text file whose size
                # happens to be whole records), not a damaged one.
                what = "is not an opening book: not an SQLite book, and as an ElephantEye "
                what = f" {what}.dat its" if record == 0 else ","
                raise BookError(
                    f"{self.path!r}{what} record {record} (byte {record * _RECORD.size}): move "
                    f"0x{raw:04X} (from 0x{raw & 255:02X} to 0x{raw >> 8:02X} on the 16x16 "
                    f"board) {where}"
                )
        return size // _RECORD.size

    def __len__(self) -> int:
        """Number of records in the file; BookError once closed (as a probe)."""
        if self._tables is None:
            raise BookError(f"{self.path!r}: the reader is closed")
        return self._count

    def close(self) -> None:
        """Forget the records; later probes raise BookError (a probe already running in
        another thread finishes on the records it started with)."""
        self._tables = None

    def find_all(
        self,
        position: Position,
        minimum_weight: int = 1,
        exclude_moves: Collection[Move] = (),
    ) -> Iterator[Entry]:
        """The position's entries, as the engine finds them: its own lock, else its mirror
        image's (moves mirrored back); illegal moves skipped; highest weight first.

        Raises TypeError for a ``position`` that is not a Position or an ``exclude_moves``
        that is not an iterable of Moves (a lone Move or a string), BookError once closed.
        """
        if not isinstance(position, Position):
            check_position(position)
        if exclude_moves != ():
            exclude_moves = check_exclude(exclude_moves)
        tables = self._tables
        if tables is None:
            raise BookError(f"{self.path!r}: the reader is closed")
        by_lock, by_mirror, legal_cache = tables
        lock, mirror = elephanteye_locks(position)
        mirrored = False
        found = by_lock.get(lock)
        if found is None:
            found = by_mirror.get(mirror)
            if found is None:
                stored = by_lock.get(mirror)
                if stored is None:
                    return iter(())
                image = tuple(
                    Entry(_mirrored(e.move), e.weight, key=e.key, record=e.record)
                    for e in stored[0]
                )
                found = by_mirror[mirror] = (image, _pack(image))
            lock, mirrored = mirror, True
        entries, moves = found
        flags = legal_flags(position, moves)
        if minimum_weight == 1 and type(minimum_weight) is int and not exclude_moves:
            key = (mirrored, lock, flags)
            legal = legal_cache.get(key)
            if legal is None:
                legal = legal_cache[key] = tuple(
                    e for e, ok in zip(entries, flags) if ok and e.weight >= 1
                )
            return iter(legal)
        minimum_weight = check_int("minimum_weight", minimum_weight)
        return iter(
            [
                e
                for e, ok in zip(entries, flags)
                if ok and e.weight >= minimum_weight and e.move not in exclude_moves
            ]
        )


def _pack(entries: tuple[Entry, ...]) -> bytes:
    """The entries' moves as 2 bytes each, from_square * 90 + to_square (for legal_flags)."""
    return b"".join(
        (e.move.from_square * 90 + e.move.to_square).to_bytes(2, "little") for e in entries
    )


# -- building ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BuildSummary:
    """What ``build`` wrote: games read, plies counted, positions and entries kept.

    ``bad_games`` counts the games read with errors (a bad move or tag: the game counts up to
    its first bad move, as the reader keeps it); ``first_errors`` describes the first few
    (at most ``MAX_REPORTED_ERRORS``), each as ``"FILE, game N: error"`` (``"game N: error"``
    for a Game passed in; N counts from 1 in its file, or among the games passed).
    ``skipped`` lists the files found in input folders but not read, each with its reason
    (as ``xiangqi.records.convert`` reports them).
    """

    path: str
    games: int
    plies: int
    positions: int
    entries: int
    bad_games: int = 0
    first_errors: tuple[str, ...] = ()
    skipped: tuple[SkippedFile, ...] = ()


#: How many of the games with errors a BuildSummary describes.
MAX_REPORTED_ERRORS = 5


def build(
    games: Iterable[Game | PathLike] | PathLike,
    path: PathLike,
    plies: int = 20,
    min_games: int = 1,
    mirror: bool = False,
    *,
    recursive: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> BuildSummary:
    """Build a book of the library's own (an SQLite file, see the module docstring).

    Args:
        games: ``xiangqi.pgn.Game`` objects, or files and folders of game records (a
            single path, or paths among the games), read as ``xiangqi.records.convert``
            reads its inputs: a folder's files that are no record are skipped and listed
            in the summary; an error in a file named itself is raised.
        path: the book file to write, by the rules of every output file of the library
            (``xiangqi._files``): written beside the real target (a symbolic link is
            written through) under a temporary name, synced, given the old file's
            permission bits (a new file: 0o666 less the umask) and moved into place only
            when complete; on any failure the temporary file is removed and the old
            file kept. An existing file there is replaced only if it is a book of the
            library's own.
        plies: how many plies from the start of each game count (at least 1).
        min_games: keep a move only if at least this many games played it (at least 1).
        mirror: merge each position with its left-right mirror image: a game counts for
            the position it played and, with its move mirrored, for the mirror image
            (once, where the two are the same).
        recursive: read the subfolders of a folder too (``xiangqi book build -r``).
        progress: called as ``progress(games, plies)`` after each game.

    An entry's weight is the number of games that played the move from exactly that
    position within their first ``plies`` plies (a game that passes the same position
    twice counts once); wins, draws and losses are those games' results for the side
    that played it. A game counts up to its first null move (a pass is no book move) and,
    when it was read with errors, up to its first bad move; so does a Game made or edited
    by hand whose move is illegal where it is played (one whose FEN tag no position reads
    counts no ply); the summary counts such games and describes the first few. Returns a
    ``BuildSummary``.

    Raises:
        TypeError, ValueError: a bad argument (checked before anything is read).
        OutputFileError: ``path`` is a directory, a FIFO, a device or a socket, is also
            one of the inputs (by identity), or is in no directory (before anything is
            read).
        BookError: an existing file at ``path`` that is not a book of the library's own,
            a folder the book cannot be written in (checked before anything is read),
            or the book could not be written (a full disk: the old book is kept).
    """
    name = check_path(path, "path")
    plies = check_int("plies", plies, 1)
    min_games = check_int("min_games", min_games, 1)
    mirror = check_bool("mirror", mirror)
    recursive = check_bool("recursive", recursive)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, got {type(progress).__name__}")
    if isinstance(games, (str, os.PathLike)):
        games = [games]
    elif isinstance(games, (bytes, bytearray)) or not isinstance(games, Iterable):
        raise TypeError(f"games must be an iterable of Games or paths, got {type(games).__name__}")
    # The house's rules for a user's file (xiangqi._files): no directory, FIFO or device,
    # not an input (by identity), in a directory that exists; a link is written through.
    target = check_output(name, what="book")
    from .records import InputFiles

    # convert's expansion of paths; each path's files are checked against the target as
    # they are listed (InputFiles.files: check_output by identity)
    inputs = InputFiles(target, recursive, what="book")
    sources = inputs.listed(games) if isinstance(games, (list, tuple)) else []
    _refuse_non_book(target)
    folder = os.path.dirname(target) or "."
    if not os.access(folder, os.W_OK | os.X_OK):  # before reading every game
        raise BookError(f"cannot write the book {name!r}: its folder {folder!r} is not writable")

    counts: dict[int, dict[Move, list[int]]] = {}
    texts: dict[int, str] = {}
    read = counted = bad = 0
    first_errors: list[str] = []
    for where, game in _games(games, inputs):
        read += 1
        n, error = _count_game(game, plies, mirror, counts, texts)
        counted += n
        if game.errors or error:
            bad += 1
            if len(first_errors) < MAX_REPORTED_ERRORS:
                first_errors.append(f"{where}: {game.errors[0] if game.errors else error}")
        if progress is not None:
            progress(read, counted)

    # SQLite writes the temporary file beside the target by its path; the ReplacingFile's
    # own handle on it is what commit() fsyncs (the same file) before the rename, which
    # keeps the old book's permission bits. Any failure removes it and keeps the old book.
    try:
        replacing = ReplacingFile(target, text=False, inputs=sources, what="book")
    except OSError as exc:  # the folder became read-only, is full, ...
        raise BookError(f"cannot write the book {name!r}: {exc.strerror or exc}") from exc
    try:
        positions, entries = write_book(
            replacing.temporary, target, counts, texts, min_games, plies, mirror, read
        )
    except BaseException:
        replacing.discard()
        raise
    replacing.commit()
    return BuildSummary(
        name, read, counted, positions, entries, bad, tuple(first_errors), tuple(inputs.skipped)
    )


def _refuse_non_book(target: str) -> None:
    """BookError if target exists and is not a book of the library's own (a user's file)."""
    if not os.path.exists(target):
        return
    with open(target, "rb") as handle:  # a regular file: check_output refused the rest
        head = handle.read(len(SQLITE_MAGIC))
    if head != SQLITE_MAGIC:
        raise BookError(f"{target!r} exists and is not a xiangqi book: refusing to replace it")
    SQLiteReader(target).close()  # BookError if it is another SQLite file


def _games(games: Iterable[Game | PathLike], inputs: InputFiles) -> Iterator[tuple[str, Game]]:
    """(where, game) for each game: "FILE, game N" or, for a Game passed in, "game N"."""
    from .pgn import Game

    passed = 0
    for item in games:
        if isinstance(item, Game):
            passed += 1
            yield f"game {passed}", item
        elif isinstance(item, (str, os.PathLike)):
            for path, number, game in inputs.games(item):  # a lazy iterable's paths too
                yield f"{path}, game {number}", game
        else:
            raise TypeError(f"games must hold Games or paths, got {type(item).__name__}")


_SCORES = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1)}  # result -> (Red's, Black's)


def _count_game(
    game: Game,
    plies: int,
    mirror: bool,
    counts: dict[int, dict[Move, list[int]]],
    texts: dict[int, str],
) -> tuple[int, str | None]:
    """Add one game's first plies to counts (key -> move -> [games, W, D, L]): the plies
    counted, and what stopped the game short (a FEN tag no position reads, an illegal
    move: a Game made or edited by hand), or None."""
    scores = _SCORES.get(game.result)
    try:
        position = game.board()
    except XiangqiError as exc:
        return 0, f"FEN tag: {exc}"
    seen: set[tuple[int, Move]] = set()
    n = 0
    for move in game.mainline_moves()[:plies]:
        if not move:
            break  # a null move (a pass) is no book move: the game counts up to it
        if not position.is_legal(move):
            return n, f"move {n + 1} ({move}) is illegal in {position.fen()!r}"
        side = int(position.turn)
        found = [(position.zobrist_hash(), move, position)]
        if mirror:
            image = position.flip_horizontal()
            found.append((image.zobrist_hash(), _mirrored(move), image))
        for key, played, where in found:
            if (key, played) in seen:
                continue  # the same position and move twice in one game, or P == mirror(P)
            seen.add((key, played))
            text = texts.get(key)
            if text is None:
                texts[key] = position_text(where)
            cell = counts.setdefault(key, {}).setdefault(played, [0, 0, 0, 0])
            cell[0] += 1
            if scores is not None:
                cell[3 - scores[side]] += 1  # score 2 -> wins (1), 1 -> draws (2), 0 -> losses (3)
        position.push(move)
        n += 1
    return n, None
