"""One front door to game records: recognise a file's format from its content, read its games,
write games in a format named by a file's extension.

Each format registers a ``RecordFormat``: a name, the file extensions it is written with, a
``sniff`` that looks at the first bytes of a file (``HEAD_BYTES`` of them) and says whether
they are this format's, a ``read`` that yields the games of a binary file, and optionally a
``write`` that writes games to a binary file. ``open_games(source)`` asks the sniffs in order
of ``priority`` (binary formats with a magic number first, then CBF's XML, PGN by its
structure, DhtmlXQ by its tag) and reads with the first that says yes; a file no format
recognises (a Markdown file, prose) is refused with UnknownFormatError. Games are
``xiangqi.pgn.Game`` trees; squares are public numbers 0..89. Readers record what they
skip on ``game.errors`` (with the game number and ply), as the PGN reader does.

Registered here: PGN (any encoding, see xiangqi.pgn; read and write), XQF (read and write),
CCBridge's CBR, CBL and CBF (read; see xiangqi.records.cbr) and DhtmlXQ (read and write; see
xiangqi.records.dhtml). Other modules add theirs with ``register``.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Union

from ..errors import XiangqiError
from .common import UnwritableGameError

if TYPE_CHECKING:
    from ..pgn import Game

__all__ = [
    "HEAD_BYTES",
    "RecordFileError",
    "RecordFormat",
    "UnknownFormatError",
    "UnwritableGameError",
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


def _sniff(head: bytes, where: object = None) -> RecordFormat:
    for fmt in formats():
        if fmt.sniff(head):
            return fmt
    name = f"{os.fspath(where)!r} is " if isinstance(where, (str, os.PathLike)) else ""
    known = ", ".join(f.name for f in formats())
    raise UnknownFormatError(
        f"{name}not a game record of a known format ({known}): starts {head[:24]!r}"
    )


def open_games(source: Source, *, format: str | None = None) -> Iterator[Game]:
    """The games of a game-record file, in any registered format, recognised from its content.

    source is a path (str or os.PathLike) or an open file (binary; a text file is read as PGN).
    format ("pgn", "xqf", ...) skips the recognition. Games are read lazily: a collection
    of many games is never held in memory at once. A path's file is closed when the iterator
    is used up or closed.
    """
    fmt = find_format(format) if format is not None else None
    if isinstance(source, (str, os.PathLike)):
        handle = open(source, "rb")  # closed by _games_then_close
        try:
            if fmt is None:
                fmt = _sniff(handle.read(HEAD_BYTES), source)
                handle.seek(0)
        except BaseException:
            handle.close()
            raise
        return _Games(_games_then_close(fmt, handle), handle, owned=True)
    if isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError("open_games() takes a path or an open file, got bytes (wrap in io.BytesIO)")
    if not hasattr(source, "read"):
        raise TypeError(f"open_games() takes a path or an open file, got {type(source).__name__}")
    if isinstance(source, io.TextIOBase):
        if fmt is not None and fmt.name != "pgn":
            raise UnknownFormatError(f"a text file can only be read as PGN, not {fmt.name}")
        from ..pgn import read_games

        return _Games(read_games(source), source)
    return _Games(_open_binary(source, fmt), source)  # type: ignore[arg-type]


class _Games(Iterator["Game"]):
    """The games open_games reads, and the identity (device, inode) of the file they come
    from, so that write_games refuses to write over its own input."""

    __slots__ = ("_games", "_handle", "file_id")

    def __init__(self, games: Iterator[Game], handle: object, owned: bool = False) -> None:
        self._games = games
        self._handle = handle if owned else None  # a file open_games opened, closed by close()
        self.file_id = _file_id(handle)

    def __iter__(self) -> _Games:
        return self

    def __next__(self) -> Game:
        return next(self._games)

    def close(self) -> None:
        """Stop reading (closes the file open_games opened)."""
        close = getattr(self._games, "close", None)
        if close is not None:
            close()
        if self._handle is not None:
            self._handle.close()  # type: ignore[attr-defined]


def _file_id(handle: object) -> tuple[int, int] | None:
    try:
        st = os.fstat(handle.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


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

    Every argument is checked before any file is touched; the games go to a temporary file
    beside path, which replaces path only when all are written: a failure (a game the format
    cannot hold) leaves the file that was at path as it was. Writing over the file the games
    are read from (``write_games(open_games(p), p)``, the same file by identity, whatever its
    name) is refused with RecordFileError.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(
            f"write_games() takes a path (str or os.PathLike), got {type(path).__name__}"
        )
    fmt = find_format(format) if format is not None else format_for_path(path, writing=True)
    write = fmt.write
    if write is None:
        raise UnknownFormatError(f"the {fmt.name} format has no writer")
    if not isinstance(games, Iterable):
        raise TypeError(f"write_games() takes an iterable of Games, got {type(games).__name__}")
    check_output(path, [getattr(games, "file_id", None)])
    return replace_file(path, lambda out: write(games, out))


class RecordFileError(XiangqiError):
    """An output file that is also an input (or not a file): writing it would destroy a game."""


def check_output(
    path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str] | tuple[int, int] | None]
) -> None:
    """Refuse an output path that is a directory or the same file as one of inputs (paths, or
    (device, inode) pairs), by identity: hard links and symbolic links count, names do not."""
    target = os.fspath(path)
    if os.path.isdir(target):
        raise RecordFileError(f"the output is a directory: {target!r}")
    try:
        st = os.stat(target)
    except OSError:
        return  # a new file: it is no input
    for item in inputs:
        if item is None:
            continue
        if isinstance(item, tuple):
            same = item == (st.st_dev, st.st_ino)
        else:
            try:
                other = os.stat(item)
            except OSError:
                continue
            same = (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino)
        if same:
            raise RecordFileError(
                f"the output is also the input (the same file): {target!r}; "
                "write to another file, then rename it"
            )


def replace_file(path: str | os.PathLike[str], write: Callable[[IO[bytes]], int]) -> int:
    """Write a file whole or not at all: write(out) fills a temporary file in path's directory,
    which then replaces path (keeping the permissions of the file it replaces); on any
    failure the temporary file is removed and path is left as it was."""
    import stat
    import tempfile

    target = os.fspath(path)
    directory, name = os.path.split(os.path.abspath(target))
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            count = write(out)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise
    return count


# -- PGN --------------------------------------------------------------------------------------


def _pgn_sniff(head: bytes) -> bool:
    """Text with PGN's structure: a tag pair line or move text first (pgn.reader.looks_like_pgn),
    in UTF-8, GB18030 or Big5 (UTF-16 with its BOM). Not a fallback for any text: a Markdown
    file or prose is no game record."""
    from ..pgn.structure import looks_like_pgn

    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return looks_like_pgn(head.decode("utf-16", errors="replace"))
    if b"\x00" in head:
        return False
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    return any(
        looks_like_pgn(head.decode(encoding, errors="replace"))
        for encoding in ("utf-8", "gb18030", "cp950")
    )


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


# Asked after the binary formats and CBF's XML, before DhtmlXQ (whose records sit inside web
# pages and forum posts, so it is found by its tag anywhere): a PGN that quotes a DhtmlXQ
# snippet in a comment is PGN by its structure.
register(
    RecordFormat(
        "pgn", (".pgn",), _pgn_sniff, _pgn_read, lambda g, o: pgn_writer()(g, o), priority=65
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


_CBF_START = re.compile(
    rb"(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<ChineseChessRecord[\s>]", re.S
)


def _cbf_sniff(head: bytes) -> bool:
    """XML whose root element is ChineseChessRecord (not a text that names it somewhere)."""
    return _CBF_START.match(head) is not None


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


# Text that holds "[DhtmlXQ" (a page, a forum post): asked after PGN.
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
