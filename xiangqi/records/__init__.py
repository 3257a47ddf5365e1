"""One front door to game records: recognise a file's format from its content, read its games,
write games in a format named by a file's extension.

Each format registers a ``RecordFormat``: a name, the file extensions it is written with, a
``sniff`` that looks at the first bytes of a file (``HEAD_BYTES`` of them) and says whether
they are this format's, a ``read`` that yields the games of a binary file, and optionally a
``write`` that writes games to a binary file. ``open_games(source)`` asks the sniffs in order
of ``priority`` (binary formats with a magic number first, PGN, the plain-text fallback,
last) and reads with the first that says yes. Games are ``xiangqi.pgn.Game`` trees; squares
are public numbers 0..89. Readers record what they skip on ``game.errors`` (with the game
number and ply), as the PGN reader does.

Registered here: PGN (any encoding, see xiangqi.pgn; read and write), XQF (read and write),
CCBridge's CBR, CBL and CBF (read; see xiangqi.records.cbr) and DhtmlXQ (read and write; see
xiangqi.records.dhtml). Other modules add theirs with ``register``.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Union

from ..errors import XiangqiError

if TYPE_CHECKING:
    from ..pgn import Game

__all__ = [
    "HEAD_BYTES",
    "RecordFormat",
    "UnknownFormatError",
    "find_format",
    "format_for_path",
    "formats",
    "open_games",
    "register",
    "write_games",
]

#: How many bytes from the start of a file the sniffs are shown.
HEAD_BYTES = 4096

Source = Union[str, "os.PathLike[str]", IO[bytes], IO[str]]


class UnknownFormatError(XiangqiError):
    """A file whose content no registered game-record format recognises, or a format name or
    file extension that names none (or none that can write)."""


@dataclass(frozen=True)
class RecordFormat:
    """A game-record format: how to recognise it, read it and (optionally) write it.

    ``sniff(head)`` gets up to HEAD_BYTES bytes from the start of a file; ``read(file)`` gets
    the binary file at its start and yields Games; ``write(games, file)`` writes games to a
    binary file and returns how many it wrote (a one-game format raises UnknownFormatError
    for a second game). Lower ``priority`` is asked first.
    """

    name: str
    extensions: tuple[str, ...]
    sniff: Callable[[bytes], bool]
    read: Callable[[IO[bytes]], Iterator[Game]]
    write: Callable[[Iterable[Game], IO[bytes]], int] | None = None
    priority: int = 50


_FORMATS: dict[str, RecordFormat] = {}


def register(fmt: RecordFormat) -> None:
    """Add a format (or replace the one of the same name)."""
    if not isinstance(fmt, RecordFormat):
        raise TypeError(f"register() takes a RecordFormat, got {type(fmt).__name__}")
    _FORMATS[fmt.name] = fmt


def formats() -> list[RecordFormat]:
    """The registered formats, in the order their sniffs are asked."""
    return sorted(_FORMATS.values(), key=lambda f: (f.priority, f.name))


def find_format(name: str) -> RecordFormat:
    """The format registered under name ("pgn", "xqf", ...); UnknownFormatError if none."""
    if not isinstance(name, str):
        raise TypeError(f"a format name is a str, got {type(name).__name__}")
    fmt = _FORMATS.get(name.lower())
    if fmt is None:
        known = ", ".join(f.name for f in formats())
        raise UnknownFormatError(f"no game-record format {name!r} (known: {known})")
    return fmt


def format_for_path(path: str | os.PathLike[str], *, writing: bool = False) -> RecordFormat:
    """The format a file name's extension names (".pgn" -> PGN); with writing=True, one that
    has a writer. UnknownFormatError if none."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    for fmt in formats():
        if suffix in fmt.extensions and (fmt.write is not None or not writing):
            return fmt
    kinds = [f for f in formats() if f.write is not None or not writing]
    known = ", ".join(ext for f in kinds for ext in f.extensions)
    what = "written" if writing else "read"
    raise UnknownFormatError(
        f"no game-record format is {what} as {suffix or 'a file without an extension'!r} "
        f"(known: {known}): {os.fspath(path)!r}"
    )


def _sniff(head: bytes) -> RecordFormat:
    for fmt in formats():
        if fmt.sniff(head):
            return fmt
    raise UnknownFormatError(f"not a game record of a known format: starts {head[:16]!r}")


def open_games(source: Source, *, format: str | None = None) -> Iterator[Game]:
    """The games of a game-record file, in any registered format, recognised from its content.

    source is a path (str or os.PathLike) or an open file (binary; a text file is read as PGN).
    format ("pgn", "xqf", ...) skips the recognition. Games are read lazily: a collection
    of many games is never held in memory at once. A path's file is closed when the iterator
    is used up or closed.
    """
    fmt = find_format(format) if format is not None else None
    if isinstance(source, (str, os.PathLike)):
        return _open_path(source, fmt)
    if isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError("open_games() takes a path or an open file, got bytes (wrap in io.BytesIO)")
    if not hasattr(source, "read"):
        raise TypeError(f"open_games() takes a path or an open file, got {type(source).__name__}")
    if isinstance(source, io.TextIOBase):
        if fmt is not None and fmt.name != "pgn":
            raise UnknownFormatError(f"a text file can only be read as PGN, not {fmt.name}")
        from ..pgn import read_games

        return iter(read_games(source))
    return _open_binary(source, fmt)  # type: ignore[arg-type]


def _open_path(path: str | os.PathLike[str], fmt: RecordFormat | None) -> Iterator[Game]:
    handle = open(path, "rb")  # closed by _games_then_close
    try:
        if fmt is None:
            fmt = _sniff(handle.read(HEAD_BYTES))
            handle.seek(0)
    except BaseException:
        handle.close()
        raise
    return _games_then_close(fmt, handle)


def _games_then_close(fmt: RecordFormat, handle: IO[bytes]) -> Iterator[Game]:
    with handle:
        yield from fmt.read(handle)


def _open_binary(handle: IO[bytes], fmt: RecordFormat | None) -> Iterator[Game]:
    if fmt is None:
        seekable = False
        try:
            seekable = handle.seekable()
        except (AttributeError, OSError, ValueError):
            pass
        if seekable:
            start = handle.tell()
            head = handle.read(HEAD_BYTES)
            handle.seek(start)
        else:  # a pipe: keep what was read in front of the rest
            head = handle.read(HEAD_BYTES)
            if not isinstance(head, bytes):
                raise TypeError(f"read() gave {type(head).__name__}, expected bytes")
            handle = io.BufferedReader(_Chained(head, handle))
        if not isinstance(head, bytes):
            raise TypeError(f"read() gave {type(head).__name__}, expected bytes")
        fmt = _sniff(head)
    return fmt.read(handle)


class _Chained(io.RawIOBase):
    """A raw stream of some bytes already read, then the rest of a stream."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self.head = head
        self.rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def write_games(
    games: Iterable[Game], path: str | os.PathLike[str], *, format: str | None = None
) -> int:
    """Write games to a file in the format its extension names (or format); return how many.

    The file is written whole or, if writing fails (a game the format cannot hold), removed.
    """
    fmt = find_format(format) if format is not None else format_for_path(path, writing=True)
    if fmt.write is None:
        raise UnknownFormatError(f"the {fmt.name} format has no writer")
    try:
        with open(path, "wb") as out:
            return fmt.write(games, out)
    except BaseException:
        try:
            os.remove(path)
        except OSError:
            pass
        raise


# -- PGN --------------------------------------------------------------------------------------


def _pgn_sniff(head: bytes) -> bool:
    """Text: no NUL byte outside a UTF-16/32 file (PGN is the plain-text fallback)."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    return b"\x00" not in head


def _pgn_read(handle: IO[bytes]) -> Iterator[Game]:
    from ..pgn import read_games

    return iter(read_games(handle))


def pgn_writer(notation: str = "ICCS") -> Callable[[Iterable[Game], IO[bytes]], int]:
    """A PGN writer (UTF-8, games one after the other) with moves in notation ("ICCS", "WXF",
    "Chinese", "SAN"), to register or to pass to the convert command's machinery."""
    from ..pgn._base import _format_name

    name = _format_name(notation)

    def write(games: Iterable[Game], out: IO[bytes]) -> int:
        n = 0
        for game in games:
            if n:
                out.write(b"\n")
            out.write(game.to_pgn(name).encode("utf-8"))
            n += 1
        return n

    return write


register(
    RecordFormat(
        "pgn", (".pgn",), _pgn_sniff, _pgn_read, lambda g, o: pgn_writer()(g, o), priority=90
    )
)


# -- XQF --------------------------------------------------------------------------------------


def _xqf_sniff(head: bytes) -> bool:
    return len(head) >= 3 and head[:2] == b"XQ" and 10 <= head[2] <= 18


def _xqf_read(handle: IO[bytes]) -> Iterator[Game]:
    from .xqf import read_xqf

    yield read_xqf(handle)


def _one_game_writer(
    name: str, encode: Callable[[Game], bytes]
) -> Callable[[Iterable[Game], IO[bytes]], int]:
    """A writer for a format that holds one game a file: refuses a second game."""

    def write(games: Iterable[Game], out: IO[bytes]) -> int:
        n = 0
        for game in games:
            if n:
                raise UnknownFormatError(f"a {name} file holds one game; got more than one")
            out.write(encode(game))
            n += 1
        return n

    return write


def _write_xqf(game: Game) -> bytes:
    from .xqf import write_xqf

    return write_xqf(game)


register(
    RecordFormat(
        "xqf", (".xqf",), _xqf_sniff, _xqf_read, _one_game_writer("XQF", _write_xqf), priority=10
    )
)


# -- CCBridge: CBR (one game), CBL (a library), CBF (XML) --------------------------------------


def _cbr_sniff(head: bytes) -> bool:
    from .cbr import RECORD_MAGIC

    return head.startswith(RECORD_MAGIC[:15])


def _cbl_sniff(head: bytes) -> bool:
    from .cbr import LIBRARY_MAGIC

    return head.startswith(LIBRARY_MAGIC[:15])


def _cbf_sniff(head: bytes) -> bool:
    return b"<ChineseChessRecord" in head[:1024]


def _cbr_read(handle: IO[bytes]) -> Iterator[Game]:
    from .cbr import read_cbr

    yield read_cbr(handle)


def _cbl_read(handle: IO[bytes]) -> Iterator[Game]:
    from .cbr import read_cbl

    return read_cbl(handle)


def _cbf_read(handle: IO[bytes]) -> Iterator[Game]:
    from .cbr import read_cbf

    yield read_cbf(handle)


register(RecordFormat("cbr", (".cbr",), _cbr_sniff, _cbr_read, priority=10))
register(RecordFormat("cbl", (".cbl",), _cbl_sniff, _cbl_read, priority=10))
# XML text: asked before PGN, the plain-text fallback.
register(RecordFormat("cbf", (".cbf",), _cbf_sniff, _cbf_read, priority=60))


# -- DhtmlXQ ------------------------------------------------------------------------------------


def _dhtml_sniff(head: bytes) -> bool:
    from .dhtml import sniff

    return sniff(head)


def _dhtml_read(handle: IO[bytes]) -> Iterator[Game]:
    from .dhtml import read_dhtml

    yield read_dhtml(handle)


def _write_dhtml(game: Game) -> bytes:
    from .dhtml import write_dhtml

    return write_dhtml(game).encode("utf-8")


# Text that holds "[DhtmlXQ": asked before PGN, the plain-text fallback.
register(
    RecordFormat(
        "dhtml",
        (".dhtml", ".ubb"),
        _dhtml_sniff,
        _dhtml_read,
        _one_game_writer("DhtmlXQ", _write_dhtml),
        priority=70,
    )
)
