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
import stat
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, NamedTuple, Union

from .._checks import check_bool
from .._files import (
    NotRegularFileError,
    OutputFileError,
    PathArg,
    check_output,
    file_id,
    open_input,
    replace_file,
)
from .._words import counted, format_name
from ..errors import XiangqiError
from .common import UnwritableGameError

if TYPE_CHECKING:
    from ..pgn import Game

__all__ = [
    "HEAD_BYTES",
    "ConvertSummary",
    "OutputFileError",
    "RecordFileError",
    "RecordFormat",
    "UnknownFormatError",
    "SkippedFile",
    "UnwritableGameError",
    "convert",
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


def format_for_path(path: PathArg, *, writing: bool = False) -> RecordFormat:
    """The format a file name's extension names (".pgn" -> PGN); with writing=True, one that
    has a writer. UnknownFormatError if none."""
    name = os.fsdecode(os.fspath(path))
    suffix = os.path.splitext(name)[1].lower()
    for fmt in formats():
        if suffix in fmt.extensions and (fmt.write is not None or not writing):
            return fmt
    kinds = [f for f in formats() if f.write is not None or not writing]
    known = ", ".join(ext for f in kinds for ext in f.extensions)
    what = "written" if writing else "read"
    raise UnknownFormatError(
        f"no game-record format is {what} as {suffix or 'a file without an extension'!r} "
        f"(known: {known}): {name!r}"
    )


def _output_format(path: PathArg, name: str | None, what: str) -> RecordFormat:
    """The format to write path in: the one named (name, the argument what), else the one
    path's extension names. A name that contradicts a known extension (DhtmlXQ into a
    ".pgn") is refused with UnknownFormatError naming both, before anything is written."""
    if name is None:
        return format_for_path(path, writing=True)
    fmt = find_format(name)
    shown = os.fsdecode(os.fspath(path))
    suffix = os.path.splitext(shown)[1].lower()
    named = [f for f in formats() if suffix in f.extensions]
    if named and fmt not in named:
        raise UnknownFormatError(
            f"the output format {name!r} ({what}) contradicts the extension {suffix!r} of "
            f"{shown!r}, which names {named[0].name}: give the output a "
            f"{fmt.extensions[0]!r} name, or leave {what.split(',')[0]} out"
        )
    return fmt


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
    is used up or closed. A path is opened without waiting for a writer: a FIFO (or a pipe
    such as ``/dev/fd/63``) is read as it comes, and one that nobody writes reads as empty.
    """
    fmt = find_format(format) if format is not None else None
    if isinstance(source, (str, os.PathLike)):
        handle = open_input(source, regular=False)  # closed by _games_then_close
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
        self.file_id = file_id(handle)

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


def _games_then_close(fmt: RecordFormat, handle: IO[bytes]) -> Iterator[Game]:
    with handle:
        yield from fmt.read(handle)


def _open_binary(handle: IO[bytes], fmt: RecordFormat | None) -> Iterator[Game]:
    if fmt is None:
        fmt, handle = _sniffed(handle)
    return fmt.read(handle)


def _sniffed(handle: IO[bytes], where: object = None) -> tuple[RecordFormat, IO[bytes]]:
    """The format of an open binary file by its first bytes, and the file to read it from
    (rewound; a pipe is wrapped so that the bytes sniffed are read again)."""
    seekable = False
    try:
        seekable = handle.seekable()
    except (AttributeError, OSError, ValueError):
        pass
    start = handle.tell() if seekable else 0
    head = handle.read(HEAD_BYTES)
    if not isinstance(head, bytes):
        raise TypeError(f"read() gave {type(head).__name__}, expected bytes")
    if seekable:
        handle.seek(start)
    else:  # a pipe: keep what was read in front of the rest
        handle = io.BufferedReader(_Chained(head, handle))
    return _sniff(head, where), handle


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
    games: Iterable[Game],
    path: PathArg,
    *,
    format: str | None = None,
) -> int:
    """Write games to a file in the format its extension names (or format); return how many.

    Every argument is checked before any file is touched, and the file is written by the
    users'-file rules of :func:`convert` (xiangqi._files): the games go to a temporary file
    beside path, which replaces path only when all are written, so a failure (a game the
    format cannot hold, a full disk) leaves the file that was at path as it was. An output
    that is a directory, a FIFO, a device or a socket, or the file the games are read from
    (``write_games(open_games(p), p)``, the same file by identity, whatever its name), is
    refused with RecordFileError. No game at all (an empty list) is refused with
    XiangqiError and the old file is left: an empty file is no game record. An item that
    is not a Game is a TypeError naming it.
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(
            f"write_games() takes a path (str, bytes or os.PathLike), got {type(path).__name__}"
        )
    fmt = _output_format(path, format, "format")
    write = fmt.write
    if write is None:
        raise UnknownFormatError(f"the {fmt.name} format has no writer")
    if not isinstance(games, Iterable):
        raise TypeError(f"write_games() takes an iterable of Games, got {type(games).__name__}")
    shown = os.fsdecode(os.fspath(path))

    def write_some(out: IO[bytes]) -> int:
        n = write(_only_games(games, "write_games()"), out)
        if not n:
            raise XiangqiError(f"no game to write: {shown!r} not written (left as it was)")
        return n

    return replace_file(path, write_some, inputs=[getattr(games, "file_id", None)])


def _only_games(games: Iterable[object], who: str) -> Iterator[Game]:
    """The games, each checked to be a Game (TypeError naming the item that is not)."""
    from ..pgn import Game

    for number, game in enumerate(games):
        if not isinstance(game, Game):
            raise TypeError(
                f"{who} takes Games; item {number} is not a Game: {game!r:.60} "
                f"({type(game).__name__})"
            )
        yield game


class SkippedFile(NamedTuple):
    """A file (or folder) that convert did not read, and why."""

    #: The path, as found (a folder's entry joined to the folder's path).
    path: str
    #: Why it was skipped ("not a game record of a known format ...", "the output itself").
    reason: str


@dataclass(frozen=True)
class ConvertSummary:
    """What :func:`convert` did."""

    #: The file written (its real path: a symbolic link resolved).
    output: str
    #: The format written ("pgn", "xqf", "dhtml").
    format: str
    #: How many games were written.
    games: int
    #: How many plies their main lines hold, together.
    plies: int
    #: The files read, in the order they were read.
    files: tuple[str, ...]
    #: The files (and folders) found in the input folders but not read, each with its reason.
    skipped: tuple[SkippedFile, ...]
    #: How many games were written with errors (moves that could not be played: game.errors).
    games_with_errors: int
    #: The first such error, or None.
    first_error: str | None


def convert(
    inputs: PathArg | Iterable[PathArg],
    output: PathArg,
    *,
    to: str | None = None,
    from_format: str | None = None,
    notation: str = "ICCS",
    recursive: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> ConvertSummary:
    """Read every game of one or several game-record files and folders, write them to ONE file.

    inputs is a path or a list of paths (str, bytes or os.PathLike). A file is read in the
    format recognised from its content (or from_format: "pgn", "xqf", ...); an error in it
    stops the conversion. A folder gives every game record in it, recognised by content, in
    name order: a file that is no record, cannot be read, or is not of from_format is skipped
    and listed in the summary with the reason (so are hidden files, files that are not
    regular, subfolders, and the output itself: that very name in that folder, an earlier
    result); with recursive=True the subfolders are read too, at any depth (symbolic links to
    folders are not followed). A file reached twice is read once. A file named as an input
    is read whatever it is (a FIFO or a pipe such as ``<(...)`` as it comes; a FIFO nobody
    writes reads as empty, it does not hang); a file found in a folder is read only if it is
    a regular file when it is opened.

    The output's format is to ("pgn", "xqf", "dhtml") or the one its extension names; PGN is
    written with moves in notation ("ICCS", "WXF", "Chinese", "SAN"). XQF and DhtmlXQ hold
    one game a file: a second game raises UnknownFormatError.

    Every argument is checked before any input is read: the output must not be one of the
    inputs nor any file found in an input folder under another name (by identity: a hard or
    symbolic link to a folder's file is refused, not skipped), a directory, a FIFO, a
    device, a socket or a process's file descriptor (``/dev/stdout``), nor a file the caller
    may not write (OutputFileError, a ValueError; see xiangqi._files); the games go to a
    temporary file beside it that replaces it only when every game is written, so any
    failure (a bad record, a full disk, Ctrl-C) leaves the old output as it was. No game
    found at all is an error too (XiangqiError; the old output is left): an empty file is no
    game record. progress(games, plies), if given, is called
    after each game written. Returns a ConvertSummary.
    """
    sources = _input_list(inputs)
    if not isinstance(output, (str, bytes, os.PathLike)):
        raise TypeError(
            f"convert() takes an output path (str, bytes or os.PathLike), "
            f"got {type(output).__name__}"
        )
    out_fmt = _output_format(output, to, "to, --to")
    if out_fmt.name == "pgn":
        write: Callable[[Iterable[Game], IO[bytes]], int] | None = pgn_writer(notation)
    else:
        write = out_fmt.write
        if not isinstance(notation, str):
            raise TypeError(f"notation must be a str, got {type(notation).__name__}")
        if notation.upper() != "ICCS":
            raise UnknownFormatError(
                f"a move notation ({notation!r}) is for PGN output, not {out_fmt.name}"
            )
    if write is None:
        raise UnknownFormatError(f"the {out_fmt.name} format has no writer")
    in_fmt = find_format(from_format) if from_format is not None else None
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, got {type(progress).__name__}")
    check_bool("recursive", recursive)

    # The files to read, listed before anything is written (the temporary output file is
    # made later, so it is never listed).
    out_text = os.fsdecode(os.fspath(output))
    out_real = os.path.realpath(out_text)
    skipped: list[SkippedFile] = []
    files = input_files(sources, out_text, recursive, skipped)

    read: list[str] = []
    state = {"games": 0, "plies": 0, "bad": 0}
    first_error: list[str] = []

    def games() -> Generator[Game, None, None]:
        for _path, _number, game in input_games(files, in_fmt, skipped, read):
            state["games"] += 1
            state["plies"] += sum(1 for _ in game.mainline())
            if game.errors:
                state["bad"] += 1
                if not first_error:
                    first_error.append(str(game.errors[0]))
            if progress is not None:
                progress(state["games"], state["plies"])
            yield game

    def write_some(out: IO[bytes]) -> int:
        assert write is not None
        n = write(produced, out)
        if not n:
            found = f"{counted(len(read), 'file')} read, {len(skipped)} skipped"
            raise XiangqiError(
                f"no game found in the inputs ({found}): {out_text!r} not written (left as it was)"
            )
        return n

    produced = games()
    try:  # replace_file checks output (check_output) before write_some reads an input
        replace_file(output, write_some, inputs=[p for p, _ in files])
    finally:
        produced.close()
    return ConvertSummary(
        output=out_real,
        format=out_fmt.name,
        games=state["games"],
        plies=state["plies"],
        files=tuple(read),
        skipped=tuple(skipped),
        games_with_errors=state["bad"],
        first_error=first_error[0] if first_error else None,
    )


def input_files(
    sources: list[str], output: str | None, recursive: bool, skipped: list[SkippedFile]
) -> list[tuple[str, bool]]:
    """The files to read for the inputs sources (paths, see _input_list): each as (path,
    named), named True for a file given itself (an error in it is raised) and False for one
    found in a folder (an error in it skips it). The one home of the expansion of convert's
    and xiangqi.book.build's inputs.

    A folder gives its regular files in name order (and, if recursive, its subfolders'),
    what it holds that is no such file going to skipped with the reason (hidden files,
    subfolders, links to folders, FIFOs). A folder's entry that IS output (that name in
    that folder: an earlier result) is skipped as "the output itself"; one that is output's
    file under another name (a link either way) stays an input, so check_output refuses
    output. A missing input raises FileNotFoundError, before anything is read.
    """
    out_entry = _entry(output) if output is not None else None
    try:
        out_st: os.stat_result | None = os.stat(output) if output is not None else None
    except OSError:
        out_st = None
    files: list[tuple[str, bool]] = []
    for source in sources:
        st = os.stat(source)  # a missing input: FileNotFoundError, before anything is written
        if stat.S_ISDIR(st.st_mode):
            for path in _folder_files(source, recursive, skipped, top=True):
                if out_st is not None:
                    try:
                        same = os.path.samestat(os.stat(path), out_st)
                    except OSError as exc:  # in a folder that can be listed, not entered
                        skipped.append(SkippedFile(path, f"cannot be read: {exc.strerror}"))
                        continue
                    if same and _entry(path) == out_entry:
                        skipped.append(SkippedFile(path, "the output itself"))
                        continue
                files.append((path, False))
        else:
            files.append((source, True))
    return files


def input_games(
    files: list[tuple[str, bool]],
    in_fmt: RecordFormat | None,
    skipped: list[SkippedFile],
    read: list[str],
    done: str = "written",
    seen: dict[tuple[int, int], str] | None = None,
) -> Generator[tuple[str, int, Game], None, None]:
    """(path, number, game) for every game of files (from input_files), number counting
    from 1 in its file. Each file is recognised by its content (a named file: in_fmt if
    given); a folder's file that cannot be read, is no game record or not of in_fmt, or
    fails partway (its games so far were given) goes to skipped with the reason, as does a
    file reached twice (by identity); a named file's error is raised. The paths of the
    files read whole go to read; done is what the caller does with the games ("written":
    a partly read file's reason says they were); seen (file identity -> path) carries the
    files read over calls."""
    if seen is None:
        seen = {}
    for path, is_named in files:
        try:
            # A folder's file must still be a regular file when opened (not swapped for a FIFO).
            handle = open_input(path, regular=not is_named)
        except OSError as exc:
            if is_named:
                raise
            skipped.append(SkippedFile(path, f"cannot be read: {exc.strerror}"))
            continue
        except NotRegularFileError:  # a folder's file made a FIFO after it was listed
            skipped.append(SkippedFile(path, "not a regular file (when it was opened)"))
            continue
        try:
            identity = file_id(handle)
            if identity is not None and identity in seen:
                skipped.append(SkippedFile(path, f"the same file as {seen[identity]!r}"))
                continue
            if identity is not None:
                seen[identity] = path
            stream: IO[bytes]
            try:
                if is_named and in_fmt is not None:
                    fmt, stream = in_fmt, handle
                else:
                    fmt, stream = _sniffed(handle, path)
            except (UnknownFormatError, OSError) as exc:
                if is_named:
                    raise
                skipped.append(SkippedFile(path, _reason(exc)))
                continue
            if in_fmt is not None and fmt is not in_fmt:
                shown = f"{format_name(fmt.name)} record, not {format_name(in_fmt.name)}"
                skipped.append(SkippedFile(path, shown))
                continue
            count = 0
            failed = False
            reader = iter(fmt.read(stream))
            try:
                while True:
                    try:
                        game = next(reader)
                    except StopIteration:
                        break
                    except (ValueError, OSError) as exc:  # XiangqiError, UnicodeError
                        if is_named:
                            raise
                        was = "was" if count == 1 else "were"
                        after = f" (after {counted(count, 'game')}, which {was} {done})"
                        after = after if count else ""
                        skipped.append(SkippedFile(path, f"{_reason(exc)}{after}"))
                        failed = True
                        break
                    count += 1
                    yield path, count, game
            finally:
                close = getattr(reader, "close", None)
                if close is not None:
                    close()
            if not failed:
                read.append(path)
        finally:
            handle.close()


class InputFiles:
    """Paths given one at a time (xiangqi.book.build's games, a lazy iterable's too),
    expanded by input_files and read by input_games as convert reads its inputs; the
    skipped files collect in skipped, and each file is read once over all the paths."""

    def __init__(self, target: str, recursive: bool, what: str = "output") -> None:
        self.target, self.recursive, self.what = target, recursive, what
        self.skipped: list[SkippedFile] = []
        self._expanded: dict[str, list[tuple[str, bool]]] = {}
        self._seen: dict[tuple[int, int], str] = {}

    def files(self, item: PathArg) -> list[tuple[str, bool]]:
        """item's files (a folder's, or item itself), listed once and checked against the
        target (check_output: not the target by identity)."""
        source = os.fsdecode(os.fspath(item))
        files = self._expanded.get(source)
        if files is None:
            files = input_files([source], self.target, self.recursive, self.skipped)
            self._expanded[source] = files
            check_output(self.target, inputs=[path for path, _ in files], what=self.what)
        return files

    def listed(self, items: Iterable[object]) -> list[str]:
        """The files of the paths among items (other items are left alone), listed now."""
        paths = [i for i in items if isinstance(i, (str, bytes, os.PathLike))]
        return [path for item in paths for path, _ in self.files(item)]

    def games(self, item: PathArg) -> Generator[tuple[str, int, Game], None, None]:
        """(path, number, game) for item's games (input_games: a game "counted")."""
        return input_games(self.files(item), None, self.skipped, [], "counted", self._seen)


def _reason(exc: BaseException) -> str:
    """Why a file found in a folder was skipped (its path is named beside)."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot be read: {exc.strerror}"
    if isinstance(exc, UnknownFormatError) and "not a game record of a known format" in str(exc):
        return "not a game record of a known format"
    return str(exc)


def _input_list(inputs: object) -> list[str]:
    """The inputs as a list of str paths (bytes decoded as the OS does)."""
    if isinstance(inputs, (str, bytes, os.PathLike)):
        items: list[object] = [inputs]
    elif isinstance(inputs, Iterable):
        items = list(inputs)
    else:
        raise TypeError(
            f"convert() takes a path or a list of paths as inputs, got {type(inputs).__name__}"
        )
    if not items:
        raise XiangqiError("convert() needs at least one input")
    paths = []
    for item in items:
        if not isinstance(item, (str, bytes, os.PathLike)):
            raise TypeError(
                f"an input is a path (str, bytes or os.PathLike), got {type(item).__name__}"
            )
        paths.append(os.fsdecode(os.fspath(item)))
    return paths


def _folder_files(
    folder: str, recursive: bool, skipped: list[SkippedFile], top: bool = False
) -> list[str]:
    """The regular files of folder (and, if recursive, of its subfolders, depth first), in
    name order; what is left out goes to skipped with its reason. A folder named as an input
    (top) that cannot be listed raises OSError. Iterative: any depth of folders works."""
    found: list[str] = []
    listing = _listed(folder, skipped, top)
    stack = [iter(listing)] if listing is not None else []
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        path = entry.path
        if entry.name.startswith("."):
            skipped.append(SkippedFile(path, "a hidden file"))
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                if recursive:
                    inner = _listed(path, skipped)
                    if inner is not None:
                        stack.append(iter(inner))
                else:
                    skipped.append(SkippedFile(path, "a folder (read with recursive)"))
            elif entry.is_dir():
                skipped.append(SkippedFile(path, "a symbolic link to a folder (not followed)"))
            elif entry.is_file():
                found.append(path)
            else:
                skipped.append(SkippedFile(path, "not a regular file"))
        except OSError as exc:
            skipped.append(SkippedFile(path, f"cannot be read: {exc.strerror}"))
    return found


def _listed(
    folder: str, skipped: list[SkippedFile], top: bool = False
) -> list[os.DirEntry[str]] | None:
    """folder's entries in name order (by their bytes); None, with the reason in skipped, if
    it cannot be listed (an OSError for the top folder)."""
    try:
        with os.scandir(folder) as listing:
            return sorted(listing, key=lambda e: os.fsencode(e.name))
    except OSError as exc:
        if top:
            raise
        skipped.append(SkippedFile(folder, f"cannot be listed: {exc.strerror}"))
        return None


def _entry(path: str) -> str:
    """The directory entry path names: its folder's real path and its own name (a symbolic
    link is its own entry, not its target's)."""
    folder, name = os.path.split(path)
    return os.path.join(os.path.realpath(folder), name)


#: The error for a refused output file (the same class as xiangqi.errors.OutputFileError): a
#: directory, a FIFO, a device or a socket, a file that is also an input, a path in no directory.
RecordFileError = OutputFileError


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
    from ..pgn._base import check_format

    name = check_format(notation)

    def write(games: Iterable[Game], out: IO[bytes]) -> int:
        n = 0
        for game in _only_games(games, "the PGN writer"):
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
        for game in _only_games(games, f"the {name} writer"):
            if n:
                raise UnknownFormatError(
                    f"{format_name(name)} file holds one game; got more than one"
                )
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
