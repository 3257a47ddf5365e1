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

from .._files import NotRegularFileError, PathArg, open_input
from ..errors import XiangqiError


def read_input(path: PathArg, what: str, *, regular: bool = True) -> bytes:
    """The bytes of the input file path (what names it in messages), opened by
    xiangqi._files.open_input: XiangqiError for a directory, or a file that is not a regular
    one when regular (else a FIFO or pipe is read as it comes: one with no writer reads as
    empty), an OSError naming it when it cannot be read."""
    try:
        handle = open_input(path, regular=regular)
    except (IsADirectoryError, NotRegularFileError) as exc:
        kind = "a directory" if isinstance(exc, IsADirectoryError) else "not a regular file"
        raise XiangqiError(
            f"the {what} {os.fsdecode(path)!r} is {kind} (a match reads it again: give a "
            "regular file)"
        ) from None
    with handle:
        return handle.read()


def sha256(data: bytes) -> str:
    """The hex SHA-256 of data (what a results file records of an openings file or book)."""
    return hashlib.sha256(data).hexdigest()
