"""The library's own opening book: an SQLite file (schema version 1), read and written.

The format (its tables, its ``book`` rows, what a reader checks) is described in the
``xiangqi.book`` docstring. Here: the schema, the check of a book's tables against it, the
refusal of a WAL book with unmerged writes, ``SQLiteReader`` (public, re-exported and
documented by ``xiangqi.book``) and ``write_book``, what ``xiangqi.book.build`` writes with.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Collection, Iterator
from typing import Any

from . import __version__
from ._book_base import (
    BookError,
    Entry,
    PathLike,
    Reader,
    check_exclude,
    check_path,
    check_position,
)
from ._checks import check_int
from ._files import NotRegularFileError, open_input
from .errors import InvalidMoveError, XiangqiError
from .move import Move
from .position import Position

#: What the ``book`` table's ``format``, ``version`` and ``key`` rows hold in this version.
FORMAT_NAME = "xiangqi-book"
FORMAT_VERSION = 1
KEY_NAME = "zobrist-splitmix64"

_SCHEMA = """
CREATE TABLE book (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE positions (
    id INTEGER PRIMARY KEY,
    key INTEGER NOT NULL UNIQUE,
    fen TEXT NOT NULL
);
CREATE TABLE moves (
    id INTEGER PRIMARY KEY,
    position INTEGER NOT NULL REFERENCES positions (id),
    move TEXT NOT NULL,
    weight INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    UNIQUE (position, move)
);
"""

_PROBE = (
    "SELECT positions.id, positions.fen, moves.id, moves.move, moves.weight, moves.wins, "
    "moves.draws, moves.losses FROM positions JOIN moves ON moves.position = positions.id "
    "WHERE positions.key = ? ORDER BY moves.weight DESC, moves.move"
)


def _signed(key: int) -> int:
    """An unsigned 64-bit key as SQLite's signed INTEGER."""
    return key - (1 << 64) if key >= 1 << 63 else key


def position_text(position: Position) -> str:
    """The text a positions row stores: the FEN's board and side fields."""
    return f"{position.board_fen()} {'w' if position.turn == 0 else 'b'}"


class SQLiteReader(Reader):
    """A book of the library's own (an SQLite file ``build`` writes), opened read-only.

    Opening checks the ``book`` table (format, version, key function) and that the first
    stored keys belong to their positions: a book keyed for another position set is
    refused. Each probe checks that the stored position is the probed one and that every
    move is well-formed and legal there; a failure raises ``BookError`` naming the file
    and the row. Entries carry the wins, draws and losses of the side that played them.
    One reader may be probed from several threads (one at a time, under a lock).
    """

    __module__ = "xiangqi.book"  # documented, and shown in tracebacks, there

    def __init__(self, path: PathLike) -> None:
        self.path = check_path(path, "path")
        try:  # one checked open (no wait on a FIFO) for the existence, the kind and the header
            with open_input(self.path, regular=True) as handle:
                header = handle.read(20)
        except FileNotFoundError:
            raise FileNotFoundError(f"no such book file: {self.path!r}") from None
        except (IsADirectoryError, NotRegularFileError):
            raise BookError(
                f"{self.path!r} is not a regular file: an SQLite book is read in place (copy "
                "it to a file first)"
            ) from None
        _check_no_pending_log(self.path, header)
        # The path's bytes, percent-quoted: a URI that names any file name (one that is not
        # UTF-8 too, held in str as surrogate escapes) and reads it without writing;
        # immutable=1: SQLite makes no side file (a WAL book's -wal and -shm) and takes no
        # lock (a book is replaced by a rename, never changed in place).
        uri = "file:" + _uri_path(self.path) + "?mode=ro&immutable=1"
        # One lock around every use of the connection (close() included): a probe in one
        # thread and close() in another never meet inside SQLite.
        self._lock = threading.Lock()
        # key -> (positions row id, stored text, the entries checked legal there)
        self._cache: dict[int, tuple[int, str, Any]] = {}
        try:
            self._db: sqlite3.Connection | None = sqlite3.connect(
                uri, uri=True, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise self._fail(f"cannot be opened as an SQLite book ({exc})") from None
        try:
            self.meta = self._check()
        except BaseException:
            self.close()
            raise

    def _fail(self, what: str) -> BookError:
        return BookError(f"{self.path!r}: {what}")

    def _check_schema(self) -> None:
        """BookError unless each table has the format's columns and its PRIMARY KEY and
        UNIQUE constraints (each as a whole, non-partial unique index): the reader trusts
        them (one positions row a key, one moves row a position and move). More indexes
        are allowed."""
        for table, (columns, uniques) in _schema_shape(_FORMAT_DB).items():
            found_columns, found_uniques = _table_shape(self._query, table)
            if found_columns != columns:
                raise self._fail(
                    f"an SQLite file but not a xiangqi book: table {table}'s columns (name, "
                    f"type, NOT NULL, PRIMARY KEY) are {found_columns}, not the format's "
                    f"{columns}"
                )
            missing = uniques - found_uniques
            if missing:
                raise self._fail(
                    f"table {table} lacks the format's UNIQUE constraint on "
                    f"({', '.join(sorted(missing)[0])}): a damaged or hand-edited book"
                )

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """The rows of one query (the caller holds the lock, or is __init__)."""
        if self._db is None:
            raise self._fail("the reader is closed")
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise self._fail(f"not a readable xiangqi book ({exc})") from None
        except UnicodeDecodeError:
            # SQLite's own message quotes the damaged bytes, which Python cannot decode
            raise self._fail(
                "not a readable xiangqi book (SQLite reports damage: its message is not text, "
                "as a damaged schema gives)"
            ) from None

    def _check(self) -> dict[str, str]:
        rows = self._query("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = {name for (name,) in rows}
        missing = {"book", "positions", "moves"} - tables
        if missing:
            raise self._fail(
                f"an SQLite file but not a xiangqi book: no table {', '.join(sorted(missing))}"
            )
        self._check_schema()
        meta = dict(self._query("SELECT name, value FROM book"))
        found = (meta.get("format"), meta.get("version"), meta.get("key"))
        if found[0] != FORMAT_NAME:
            raise self._fail(f"book format is {found[0]!r}, expected {FORMAT_NAME!r}")
        if found[1] != str(FORMAT_VERSION):
            raise self._fail(
                f"book version {found[1]!r} is not one this library reads ({FORMAT_VERSION})"
            )
        if found[2] != KEY_NAME:
            raise self._fail(
                f"positions are keyed by {found[2]!r}, not {KEY_NAME!r}: a book for another "
                "position set"
            )
        for row_id, key, fen in self._query("SELECT id, key, fen FROM positions LIMIT 8"):
            self._check_key(row_id, key, fen)
        return meta

    def _check_key(self, row_id: int, key: int, fen: str) -> Position:
        try:
            position = Position(fen + " - - 0 1") if isinstance(fen, str) else None
        except XiangqiError as exc:
            raise self._fail(
                f"positions row {row_id}: fen {fen!r} is not a position ({exc})"
            ) from None
        if position is None or _signed(position.zobrist_hash()) != key:
            raise self._fail(
                f"positions row {row_id}: key {key} does not belong to {fen!r}: the book was "
                "keyed for another position set"
            )
        return position

    def __len__(self) -> int:
        """Number of moves rows (entries) in the book."""
        with self._lock:
            return int(self._query("SELECT count(*) FROM moves")[0][0])

    def close(self) -> None:
        """Close the database; later probes raise BookError. A probe running in another
        thread is waited for (the reader's lock), never cut off inside SQLite."""
        with self._lock:
            db, self._db = self._db, None
            self._cache = {}
        if db is not None:
            db.close()  # no other thread can reach it now: self._db is None under the lock

    def find_all(
        self,
        position: Position,
        minimum_weight: int = 1,
        exclude_moves: Collection[Move] = (),
    ) -> Iterator[Entry]:
        """The stored entries of exactly this position, highest weight first (ties by ICCS).

        Raises TypeError for a ``position`` that is not a Position or an ``exclude_moves``
        that is not an iterable of Moves (a lone Move or a string), BookError once closed
        or where the book is damaged.
        """
        check_position(position)
        if exclude_moves != ():
            exclude_moves = check_exclude(exclude_moves)
        key = _signed(position.zobrist_hash())
        with self._lock:
            if self._db is None:
                raise self._fail("the reader is closed")
            found = self._cache.get(key)
            rows = self._query(_PROBE, (key,)) if found is None else None
        if found is None:
            assert rows is not None
            if not rows:
                return iter(())
            found = (rows[0][0], rows[0][1], self._entries(rows, key))
        text = position_text(position)
        if found[1] != text:
            raise self._fail(
                f"positions row {found[0]}: stored {found[1]!r} under the key of {text!r}: "
                "the book was keyed for another position set"
            )
        # Checked against the very position probed, so later probes of it may reuse them.
        entries = found[2]
        if type(entries) is not tuple:
            entries = tuple(self._checked(position, entries))
            found = (found[0], found[1], entries)
            with self._lock:
                if self._db is not None:  # not refilled after close()
                    self._cache[key] = found
        if minimum_weight == 1 and type(minimum_weight) is int and not exclude_moves:
            return iter(entries)
        minimum_weight = check_int("minimum_weight", minimum_weight)
        return iter(
            [e for e in entries if e.weight >= minimum_weight and e.move not in exclude_moves]
        )

    def _entries(self, rows: list[Any], key: int) -> list[tuple[int, object, Entry | None]]:
        if any(row[0] != rows[0][0] for row in rows):
            raise self._fail(f"two positions rows share the key {key}: a damaged book")
        return [
            (row_id, iccs, self._entry(row_id, iccs, key, weight, wins, draws, losses))
            for _pid, _fen, row_id, iccs, weight, wins, draws, losses in rows
        ]

    def _checked(
        self, position: Position, entries: list[tuple[int, object, Entry | None]]
    ) -> Iterator[Entry]:
        seen: set[Move] = set()
        for row_id, iccs, entry in entries:
            assert entry is not None
            if entry.move in seen:
                raise self._fail(f"moves row {row_id}: {iccs} is stored twice for one position")
            seen.add(entry.move)
            if not position.is_legal(entry.move):
                raise self._fail(f"moves row {row_id}: {iccs} is not legal in {position.fen()!r}")
            yield entry

    def _entry(self, row_id: int, iccs: object, key: int, *counts: object) -> Entry:
        try:
            move = Move.from_iccs(iccs) if isinstance(iccs, str) else None
        except InvalidMoveError:
            move = None
        if not move:
            raise self._fail(f"moves row {row_id}: {iccs!r} is not a move on the board")
        if not all(type(c) is int and c >= 0 for c in counts):
            raise self._fail(f"moves row {row_id}: counts {counts!r} are not whole numbers")
        weight, wins, draws, losses = counts
        assert isinstance(weight, int) and isinstance(wins, int)
        assert isinstance(draws, int) and isinstance(losses, int)
        if wins + draws + losses > weight or weight == 0:
            raise self._fail(
                f"moves row {row_id}: {wins} wins, {draws} draws, {losses} losses do not fit "
                f"weight {weight}"
            )
        return Entry(move, weight, wins, draws, losses, key=key, record=row_id)


#: A database holding the format's schema (_SCHEMA), what _check_schema compares a book with.
_FORMAT_DB = ":memory:"


def _table_shape(
    query: Callable[[str, tuple[Any, ...]], list[Any]], table: str
) -> tuple[list[tuple[Any, ...]], set[tuple[str, ...]]]:
    """A table's columns (name, type, not null, primary key) and its whole unique indexes
    (as column-name tuples), as SQLite reports them."""
    columns = [
        (name, str(kind).upper(), notnull, pk)
        for _cid, name, kind, notnull, _default, pk in query(
            "SELECT * FROM pragma_table_info(?)", (table,)
        )
    ]
    uniques = set()
    for _seq, index, unique, _origin, partial in query(
        "SELECT * FROM pragma_index_list(?)", (table,)
    ):
        if unique and not partial:
            names = query("SELECT name FROM pragma_index_info(?) ORDER BY seqno", (index,))
            uniques.add(tuple(name for (name,) in names))
    return columns, uniques


_SHAPES: dict[str, dict[str, tuple[list[tuple[Any, ...]], set[tuple[str, ...]]]]] = {}


def _schema_shape(
    database: str,
) -> dict[str, tuple[list[tuple[Any, ...]], set[tuple[str, ...]]]]:
    """The format's tables' shapes, read by SQLite from _SCHEMA itself (made once)."""
    shape = _SHAPES.get(database)
    if shape is None:
        db = sqlite3.connect(database)
        try:
            db.executescript(_SCHEMA)

            def query(sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
                return db.execute(sql, args).fetchall()

            shape = {t: _table_shape(query, t) for t in ("book", "positions", "moves")}
        finally:
            db.close()
        _SHAPES[database] = shape
    return shape


def _check_no_pending_log(path: str, header: bytes) -> None:
    """BookError for a WAL book (header, the file's first 20 bytes: bytes 18 and 19 are 2)
    whose write-ahead log holds writes not yet in the file: a reader that makes no side
    file reads the file alone."""
    if header[18:20] != b"\x02\x02":
        return
    try:
        pending = os.stat(path + "-wal").st_size > 0
    except OSError:
        pending = False
    if pending:
        raise BookError(
            f"{path!r}: a book in WAL mode whose log {path + '-wal'!r} holds writes not yet "
            "merged into it: open it once with sqlite3 (which merges the log) or rebuild it"
        )


def _uri_path(path: str) -> str:
    """path as a ``file:`` URI's path: its bytes (os.fsencode, so a non-UTF-8 name held as
    surrogate escapes is its own bytes again) percent-quoted, '/' kept."""
    from urllib.parse import quote_from_bytes

    return quote_from_bytes(os.fsencode(os.path.abspath(path)).replace(os.sep.encode(), b"/"))


# -- writing ------------------------------------------------------------------------------------


def write_book(
    temp: str,
    target: str,
    counts: dict[int, dict[Move, list[int]]],
    texts: dict[int, str],
    min_games: int,
    plies: int,
    mirror: bool,
    games: int,
) -> tuple[int, int]:
    """Write the counted positions (key -> move -> [games, W, D, L]) and their texts to the
    new file temp as a book (moves played by fewer than min_games games left out): the
    positions and entries written. BookError naming target if SQLite cannot write it."""
    try:
        db = sqlite3.connect("file:" + _uri_path(temp) + "?mode=rw", uri=True)
        try:
            db.execute("PRAGMA journal_mode = OFF")  # a temporary file: discarded on failure
            db.execute("PRAGMA synchronous = OFF")
            db.executescript(_SCHEMA)
            meta = {
                "format": FORMAT_NAME,
                "version": str(FORMAT_VERSION),
                "key": KEY_NAME,
                "plies": str(plies),
                "min_games": str(min_games),
                "mirror": "1" if mirror else "0",
                "games": str(games),
                "created_by": f"xiangqi {__version__}",
            }
            db.executemany("INSERT INTO book VALUES (?, ?)", sorted(meta.items()))
            positions = entries = 0
            position_rows = []
            move_rows = []
            for key in sorted(counts, key=_signed):
                kept = [(m, c) for m, c in counts[key].items() if c[0] >= min_games]
                if not kept:
                    continue
                positions += 1
                position_rows.append((positions, _signed(key), texts[key]))
                for move, (weight, wins, draws, losses) in sorted(kept, key=lambda mc: str(mc[0])):
                    entries += 1
                    move_rows.append((entries, positions, str(move), weight, wins, draws, losses))
            db.executemany("INSERT INTO positions VALUES (?, ?, ?)", position_rows)
            db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?)", move_rows)
            db.commit()
        finally:
            db.close()
        return positions, entries
    except sqlite3.Error as exc:  # a full disk, a file system that refuses SQLite's locks...
        raise BookError(f"cannot write the book {target!r}: {exc}") from None
