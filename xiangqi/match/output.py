"""The match's output files: checked against its inputs, written beside, moved over at the end.

A match writes its PGN and results to temporary files in the target's directory and moves
each over its target (``os.replace``, atomic on one file system) only once the match has a
result: complete, decided by the SPRT, interrupted with Ctrl-C, or stopped by an error after
it had played games. A match that fails before producing anything, or a process killed
outright, leaves every existing file as it was (and at worst a ``.NAME.*.part`` file).
An output that is the same file as an input (the openings, an engine's program, the results
being resumed), or as the other output, is refused by identity (device and inode, so a hard
link or a symlink under another name is caught), before any engine starts.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Mapping
from typing import TextIO

from ..errors import XiangqiError


def _same(a: str, b: str) -> bool:
    """Are a and b one file: by identity when both exist, else by their resolved paths."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_outputs(outputs: Mapping[str, str | None], inputs: Iterable[str]) -> None:
    """Refuse (XiangqiError) an output that is a directory, lies in no directory, is one of
    inputs, or is the same file as another output. outputs maps an option name (for the
    message) to a path or None."""
    given = [(what, path) for what, path in outputs.items() if path is not None]
    sources = list(inputs)
    for n, (what, path) in enumerate(given):
        if os.path.isdir(path):
            raise XiangqiError(f"{what} {path!r} is a directory")
        folder = os.path.dirname(os.path.realpath(path))
        if not os.path.isdir(folder):
            raise XiangqiError(f"{what} {path!r}: no directory {folder!r}")
        for source in sources:
            if os.path.exists(path) and _same(path, source):
                raise XiangqiError(
                    f"{what} {path!r} is the same file as the input {source!r}; "
                    "refusing to overwrite an input"
                )
        for other_what, other in given[n + 1 :]:
            if _same(path, other):
                raise XiangqiError(f"{what} and {other_what} name the same file: {path!r}")


class ReplacingFile:
    """A UTF-8 text file written beside target and moved over it by commit().

    The target's symlink is followed (the file it points to is replaced, the link kept);
    a replaced file keeps its permission bits, a new one gets the umask's.
    """

    def __init__(self, target: str | os.PathLike[str]) -> None:
        self.target = os.path.realpath(target)
        folder, name = os.path.split(self.target)
        fd, self.temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=folder)
        self.handle: TextIO = open(fd, "w", encoding="utf-8")  # noqa: SIM115

    def commit(self) -> None:
        """Flush, sync and move the temporary file over the target."""
        self.handle.flush()
        os.fsync(self.handle.fileno())
        self.handle.close()
        try:
            mode = stat.S_IMODE(os.stat(self.target).st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(self.temporary, mode)
        os.replace(self.temporary, self.target)

    def discard(self) -> None:
        """Close and delete the temporary file; the target stays as it was."""
        self.handle.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.temporary)
