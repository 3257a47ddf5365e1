"""The match's input files, each read once and without ever blocking.

A match reads its openings file, an opening book and, to resume, a results file and the PGN
it names. Each is opened with ``O_NONBLOCK`` (a FIFO with no writer cannot hang the open)
and checked with ``fstat`` before a byte is read: a file the match must read again (a book,
a resumed match's results, PGN, openings) must be a regular file; an openings file given to
a new match may also be a pipe (``--openings <(cat op.pgn)``), read once, its bytes both
parsed and hashed.
"""

from __future__ import annotations

import hashlib
import os
import stat

from .._files import PathArg
from ..errors import XiangqiError


def read_input(path: PathArg, what: str, *, regular: bool = True) -> bytes:
    """The bytes of the input file path (what names it in messages): XiangqiError for a
    file that is not a regular one when regular (else a FIFO or pipe is read as it comes: one
    with no writer reads as empty), an OSError naming it when it cannot be read."""
    name = os.fsdecode(os.fspath(path))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode) or (regular and not stat.S_ISREG(mode)):
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise XiangqiError(
                f"the {what} {name!r} is {kind} (a match reads it again: give a regular file)"
            )
        os.set_blocking(fd, True)
        with open(fd, "rb", closefd=False) as handle:
            return handle.read()
    finally:
        os.close(fd)


def sha256(data: bytes) -> str:
    """The hex SHA-256 of data (what a results file records of an openings file or book)."""
    return hashlib.sha256(data).hexdigest()
