"""Users' files, written one way: the one home for every command or function that writes a
user's output file (records, books, match results).

The rules (the docs' records page, "Users' files":
https://xiangqi-rules.readthedocs.io/en/latest/records.html#users-files):

- ``check_output`` runs BEFORE anything is read or written. It refuses (OutputFileError) an
  output that is a directory (or names one: a trailing slash), a FIFO, a character or block
  device (``/dev/null``) or a socket: such a thing is never opened (``os.stat`` only, so a
  FIFO cannot hang) nor replaced. It refuses a process's open file descriptor
  (``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``: the file a shell redirected there
  would be replaced, not written to), an existing file the caller may not write (a
  writable directory does not make another user's file ours), an output that is the same
  file as an input BY IDENTITY (device and inode: a hard link or a symbolic link under
  another name is caught), and an output whose directory does not exist. It returns the
  real target: a symbolic link is followed, so the file it points to is replaced and the
  link stays a link.
- ``replace_file`` and ``ReplacingFile`` write a temporary file beside the real target,
  flush and fsync it, give it the old file's permission bits (a new file: ``0o666`` less
  the umask; another owner's file keeps its owner, and then its bits, set-user-ID included,
  when root replaces it) and move it over the target with ``os.replace``. On any failure (a
  full disk, an exception in the writer, Ctrl-C) the old file is left untouched and the
  temporary file is removed; an error of the temporary file names the output.
- ``open_input`` opens a user's input file for reading without ever blocking on the open
  (a FIFO with no writer, a device) and checks what it opened: the one opener of every
  input read by path (records, books, puzzles, a match's files).
- Paths may be str (undecodable bytes kept by surrogateescape), bytes or os.PathLike; a
  path is never encoded strictly as UTF-8.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import re
import secrets
import signal
import stat
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any, TypeVar, Union

from ._checks import check_bool
from .errors import OutputFileError, XiangqiError

__all__ = [
    "NotRegularFileError",
    "OutputFileError",
    "PathArg",
    "ReplacingFile",
    "check_output",
    "check_outputs",
    "file_id",
    "new_file_mode",
    "open_input",
    "replace_file",
]

#: A path as the OS takes it.
PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
#: An input to compare an output with: a path, a (st_dev, st_ino) pair, or None (ignored).
InputArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", tuple[int, int], None]

T = TypeVar("T")

#: The errors only a write gives (an OSError without a file name, raised by writing the
#: temporary file, is named as the output; one from reading an input is not).
_WRITE_ERRORS = frozenset(
    getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EROFS") if hasattr(errno, name)
)

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _text(path: object, what: str) -> str:
    """path as a str (bytes decoded as the OS does, with surrogateescape); TypeError if it
    is no path."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(
            f"the {what} is a path (str, bytes or os.PathLike), got {type(path).__name__}"
        )
    text = os.fsdecode(os.fspath(path))
    if not text:
        raise OutputFileError(f"the {what} is an empty path")
    if "\0" in text:
        raise OutputFileError(f"the {what} path holds a NUL character: {text!r}")
    return text


def _inputs(inputs: object) -> list[InputArg]:
    """inputs as a list, each item checked: a path, a (st_dev, st_ino) pair or None."""
    if isinstance(inputs, (str, bytes, os.PathLike)) or not isinstance(inputs, Iterable):
        raise TypeError(
            "inputs is an iterable of paths or (st_dev, st_ino) pairs (one path goes in a "
            f"list), got {type(inputs).__name__}"
        )
    items = list(inputs)
    for item in items:
        if isinstance(item, tuple):
            if len(item) != 2 or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in item
            ):
                raise TypeError(
                    f"an identity in inputs is a (st_dev, st_ino) pair of ints, got {item!r}"
                )
        elif item is not None:
            _text(item, "input")
    return items


#: The folders of a process's open file descriptors, as os.path.realpath gives them
#: (/dev/fd is /proc/self/fd; /proc/self is /proc/<pid>).
_DESCRIPTORS = re.compile(r"/proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/(?:fd|map_files)")


def _descriptor_link(text: str) -> bool:
    """Whether path is, or is a symbolic link (chain) to, a process's file descriptor
    (/dev/stdout, /dev/fd/N, /proc/self/fd/N): its "target" is whatever that descriptor
    has open, which is not a file of that name."""
    path = text
    for _ in range(40):  # the kernel's own limit on a chain of links
        folder = os.path.realpath(os.path.dirname(path))
        if _DESCRIPTORS.fullmatch(folder):
            return True
        try:
            link = os.readlink(path)
        except (OSError, ValueError):
            return False
        path = os.path.join(folder, link)
    return False


def file_id(handle: object) -> tuple[int, int] | None:
    """The (st_dev, st_ino) of an open file (None if it has no file descriptor)."""
    try:
        st = os.fstat(handle.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError, TypeError):
        return None
    return st.st_dev, st.st_ino


def _refuse_kind(st: os.stat_result, path: str, what: str) -> None:
    for test, kind in _KINDS:
        if test(st.st_mode):
            raise OutputFileError(
                f"the {what} is {kind}, not a regular file: {path!r}; "
                "refusing to replace or open it"
            )
    if not stat.S_ISREG(st.st_mode):
        raise OutputFileError(f"the {what} is not a regular file: {path!r}")


def check_output(path: PathArg, *, inputs: Iterable[InputArg] = (), what: str = "output") -> str:
    """Check an output path before anything is written; return the real target path.

    Refuses (OutputFileError, naming the path and the reason) a directory, a FIFO, a
    character or block device and a socket (never opened: ``os.stat`` only, so a FIFO
    cannot hang), an output that is the same file as one of inputs (paths, or
    (st_dev, st_ino) pairs; None is skipped) by identity, so that hard and symbolic links
    count, and an output whose directory does not exist. The returned path is absolute
    with symbolic links resolved: the file a link points to is what gets replaced.
    what names the output in messages ("output", "--pgn", ...).

    Also refused: a path that names a directory (``new/``, ``x/.``), a process's open file
    descriptor (``/dev/stdout``, ``/dev/fd/1``: write to a named file instead) and an
    existing file the caller may not write. inputs is an iterable (TypeError for one path
    or None; one path goes in a list).
    """
    sources = _inputs(inputs)
    text = _text(path, what)
    if os.path.basename(text) in ("", ".", ".."):
        raise OutputFileError(
            f"the {what} names a directory, not a file: {text!r}; give a file name"
        )
    if _descriptor_link(text):
        raise OutputFileError(
            f"the {what} is a process's open file descriptor, not a file: {text!r}; "
            "refusing to replace the file it has open (write to a named file)"
        )
    real = os.path.realpath(text)
    try:
        st: os.stat_result | None = os.stat(text)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OutputFileError(f"the {what} cannot be written: {text!r} ({exc.strerror})") from None
    if st is not None:
        _refuse_kind(st, text, what)
        if not _may_write(real):
            raise OutputFileError(
                f"the {what} cannot be written: {text!r} (permission denied: the file is "
                "not writable by this user; refusing to replace it)"
            )
    folder = os.path.dirname(real)
    try:
        folder_st = os.stat(folder)
    except OSError:
        folder_st = None
    if folder_st is None or not stat.S_ISDIR(folder_st.st_mode):
        raise OutputFileError(f"the {what} {text!r} is in no directory: {folder!r} does not exist")
    for item in sources:
        if item is None:
            continue
        if isinstance(item, tuple):
            same = st is not None and item == (st.st_dev, st.st_ino)
            source = "being read"
        else:
            source_text = _text(item, "input")
            source = repr(source_text)
            try:
                other = os.stat(source_text)
            except OSError:
                same = os.path.realpath(source_text) == real
            else:
                same = st is not None and (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino)
        if same:
            raise OutputFileError(
                f"the {what} is also the input (the same file as the input {source}): "
                f"{text!r}; refusing to overwrite an input (write to another file, then rename it)"
            )
    return real


def check_outputs(
    outputs: Mapping[str, PathArg | None], inputs: Iterable[InputArg] = ()
) -> dict[str, str]:
    """check_output for each output (a mapping from its name in messages, such as
    "--pgn", to a path or None for none), and refuse two outputs that name one file.
    Returns the real target of each output given."""
    if not isinstance(outputs, Mapping):
        raise TypeError(
            "check_outputs() takes a mapping from each output's name to its path, "
            f"got {type(outputs).__name__}"
        )
    sources = _inputs(inputs)
    checked: dict[str, str] = {}
    for what, path in outputs.items():
        if path is None:
            continue
        real = check_output(path, inputs=sources, what=what)
        for other_what, other in checked.items():
            if _same_target(real, other):
                raise OutputFileError(
                    f"{what} and {other_what} name the same file: {_text(path, what)!r}"
                )
        checked[what] = real
    return checked


def _may_write(path: str) -> bool:
    """Whether this process may write the existing file path (by its effective ids)."""
    if os.access in os.supports_effective_ids:
        return os.access(path, os.W_OK, effective_ids=True)
    return os.access(path, os.W_OK)


def _same_target(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a == b


def new_file_mode() -> int:
    """The permission bits a new file gets: 0o666 less the process's umask (read from
    /proc/self/status, so that no other thread sees a changed umask; elsewhere by the
    os.umask round trip)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o077)  # the strictest value while it is read
    os.umask(umask)
    return 0o666 & ~umask


class ReplacingFile:
    """A file written beside its target and moved over it by commit(): the target is
    replaced whole or not at all.

    ``ReplacingFile(path, text=True)`` checks path with check_output (refusing a FIFO, a
    device, a directory...), opens a temporary file in the target's directory (the real
    target's: a symbolic link is written through and stays a link) and exposes it as
    ``.handle`` (UTF-8 text, or binary with text=False). ``commit()`` flushes, fsyncs, gives
    it the permission bits of the file it replaces (a new file: 0o666 less the umask) and
    moves it over the target; ``discard()`` removes it, leaving the target as it was. As a
    context manager it commits on a normal exit and discards on an exception (Ctrl-C
    included). A long-running writer (a match appending game by game) keeps it open.
    """

    handle: IO[Any]

    def __init__(
        self,
        path: PathArg,
        text: bool = True,
        *,
        inputs: Iterable[InputArg] = (),
        what: str = "output",
        encoding: str = "utf-8",
    ) -> None:
        check_bool("text", text)
        if not isinstance(encoding, str):
            raise TypeError(f"encoding must be a str, got {type(encoding).__name__}")
        codecs.lookup(encoding)  # LookupError for an unknown encoding, before any file
        self.target = check_output(path, inputs=inputs, what=what)
        self.shown = _text(path, what)  # the output as given: what errors name
        self.what = what
        self.done = False
        folder, name = os.path.split(self.target)
        # Short enough that the temporary name fits in NAME_MAX whatever the target's.
        stem = os.fsdecode(os.fsencode(name)[:64])
        self.temporary = ""  # nothing made yet: _remove removes nothing
        held = _hold_signals()
        try:
            fd = self._create(folder, stem)
            try:
                raw = open(fd, "wb")  # noqa: SIM115 -- owns fd from here
            except BaseException:
                os.close(fd)
                raise
            try:
                self.handle = io.TextIOWrapper(raw, encoding=encoding) if text else raw
            except BaseException:  # an encoding that is no text encoding ("hex")
                raw.close()
                raise
        except BaseException:
            self._remove()
            _release_signals(held)
            raise
        try:
            _release_signals(held)  # a signal held meanwhile arrives here
        except BaseException:  # Ctrl-C, or SIGTERM made an exception by the CLI's handler
            self.discard()
            raise

    def _create(self, folder: str, stem: str) -> int:
        """A new temporary file beside the target, made exclusively (mode 0600, as mkstemp
        makes it). Its path is self.temporary before it exists, so whatever interrupts the
        making (an exception from a signal handler, on any thread's delivery), _remove
        finds it."""
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL
        flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
        for _ in range(100):
            self.temporary = os.path.join(folder, f".{stem}.{secrets.token_hex(4)}.part")
            try:
                return os.open(self.temporary, flags, 0o600)
            except FileExistsError:  # another writer's: not ours to remove
                self.temporary = ""
            except OSError as exc:  # the folder is read-only, full...: name the output
                self.temporary = ""
                raise OSError(exc.errno, exc.strerror, self.shown) from None
        raise FileExistsError(errno.EEXIST, "no free temporary file name beside", self.shown)

    def _named(self, exc: OSError) -> OSError:
        """exc naming the output instead of the temporary file (or nothing)."""
        if exc.errno is None or exc.filename not in (None, self.temporary):
            return exc
        return OSError(exc.errno, exc.strerror or os.strerror(exc.errno), self.shown)

    def __enter__(self) -> ReplacingFile:
        return self

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        if self.done:
            return
        if kind is None:
            self.commit()
        else:
            self.discard()

    def commit(self) -> None:
        """Flush, fsync and move the temporary file over the target (keeping the old file's
        permission bits). On a failure the temporary file is removed and the target is left
        as it was, and the error is raised."""
        if self.done:
            raise ValueError(f"this ReplacingFile of {self.target!r} was already closed")
        self.done = True
        try:
            self.handle.flush()
            os.fsync(self.handle.fileno())
            self.handle.close()
            try:
                old: os.stat_result | None = os.stat(self.target)
            except FileNotFoundError:
                old = None
            if old is None:
                os.chmod(self.temporary, new_file_mode())
            else:
                # Checked again: a match runs for hours; a FIFO made meanwhile stays.
                _refuse_kind(old, self.target, self.what)
                # The owner first: chown clears the set-user-ID and set-group-ID bits.
                with contextlib.suppress(OSError):  # root replacing another user's file
                    if hasattr(os, "chown") and (old.st_uid, old.st_gid) != _owner(self.temporary):
                        os.chown(self.temporary, old.st_uid, old.st_gid)
                os.chmod(self.temporary, stat.S_IMODE(old.st_mode))
            os.replace(self.temporary, self.target)
        except OSError as exc:
            with contextlib.suppress(Exception):
                self.handle.close()
            self._remove()
            raise self._named(exc) from None
        except BaseException:
            with contextlib.suppress(Exception):
                self.handle.close()
            self._remove()
            raise
        _sync_directory(os.path.dirname(self.target))

    def discard(self) -> None:
        """Close and delete the temporary file; the target stays as it was."""
        self.done = True
        try:
            with contextlib.suppress(OSError):
                self.handle.close()
        finally:
            self._remove()

    def _remove(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.temporary)


#: The signals a user stops a program with; the CLI turns each into an exception.
_STOPPING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def _hold_signals() -> object:
    """Hold the stopping signals on the main thread while a temporary file comes into being,
    so that the exception a handler raises for one cannot fall between the file's creation
    and the code that removes it (it arrives at _release_signals instead). The previous
    mask, or None where signals are not held (another thread, no pthread_sigmask)."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    if threading.current_thread() is not threading.main_thread():
        return None  # Python runs signal handlers on the main thread only
    return signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)


def _release_signals(held: object) -> None:
    """Restore the mask _hold_signals returned; a signal held meanwhile is handled here
    (Python runs its handler as pthread_sigmask returns)."""
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # type: ignore[arg-type]


def _owner(path: str) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_uid, st.st_gid


def _sync_directory(folder: str) -> None:
    """Make the rename durable (best effort: not every system opens directories)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def replace_file(
    path: PathArg,
    write: Callable[[IO[bytes]], T],
    *,
    inputs: Iterable[InputArg] = (),
    what: str = "output",
) -> T:
    """Write a file whole or not at all and return what write returned.

    path is checked with check_output (against inputs); write(out) fills a binary
    temporary file beside the real target, which then replaces it (see ReplacingFile).
    On any failure (an exception in write, a full disk, Ctrl-C) the old file is untouched
    and no temporary file remains.
    """
    if not callable(write):
        raise TypeError(f"replace_file() takes a callable writer, got {type(write).__name__}")
    replacing = ReplacingFile(path, text=False, inputs=inputs, what=what)
    try:
        result = write(replacing.handle)
    except OSError as exc:
        replacing.discard()
        if exc.filename is None and exc.errno in _WRITE_ERRORS:  # writing the temporary file
            raise replacing._named(exc) from None
        raise
    except BaseException:
        replacing.discard()
        raise
    replacing.commit()
    return result


class NotRegularFileError(XiangqiError):
    """An input that had to be a regular file and was not (a FIFO, a device, a socket)."""

    def __init__(self, path: str) -> None:
        super().__init__(f"the input {path!r} is not a regular file")
        #: The input's path, as given.
        self.path = path


def open_input(path: PathArg, *, regular: bool) -> IO[bytes]:
    """path opened for binary reading; the caller closes it.

    The open never blocks (``O_NONBLOCK``: a FIFO with no writer, a device), then the open
    file is checked (``fstat``: what was opened, not what a name pointed to before) and
    read as usual, blocking. A directory raises IsADirectoryError naming path. With
    regular, anything but a regular file raises NotRegularFileError (a file read again, or
    found in a folder); without, a FIFO or a pipe such as ``<(...)`` is read as it comes,
    and one with no writer reads as empty. An OSError of the open names path.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fsdecode(path))
        if regular and not stat.S_ISREG(mode):
            raise NotRegularFileError(os.fsdecode(path))
        os.set_blocking(fd, True)
        return open(fd, "rb")  # noqa: SIM115 -- the caller closes it
    except BaseException:
        os.close(fd)
        raise
