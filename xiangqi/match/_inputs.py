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


def read_input(
    path: PathArg, what: str, *, regular: bool = True, setting: str | None = None
) -> bytes:
    """The bytes of the input file path (what names it in messages, with the match setting
    that gave it when setting is given), opened by xiangqi._files.open_input: XiangqiError
    for a directory, or a file that is not a regular one when regular (else a FIFO or pipe
    is read as it comes: one with no writer reads as empty), an OSError of the same kind
    naming it (and the setting) when it cannot be read."""
    named = what if setting is None else f"{what} ({setting})"
    try:
        handle = open_input(path, regular=regular)
    except (IsADirectoryError, NotRegularFileError) as exc:
        kind = "a directory" if isinstance(exc, IsADirectoryError) else "not a regular file"
        raise XiangqiError(
            f"the {named} {os.fsdecode(path)!r} is {kind} (a match reads it again: give a "
            "regular file)"
        ) from None
    except OSError as exc:  # missing, unreadable: the same kind, naming what it was for
        if exc.errno is None:
            raise
        raise type(exc)(
            exc.errno, f"the {named} cannot be read: {exc.strerror}", os.fsdecode(path)
        ) from None
    with handle:
        try:
            return handle.read()
        except OSError as exc:
            if exc.errno is None:
                raise
            raise type(exc)(
                exc.errno, f"the {named} cannot be read: {exc.strerror}", os.fsdecode(path)
            ) from None


def sha256(data: bytes) -> str:
    """The hex SHA-256 of data (what a results file records of an openings file or book)."""
    return hashlib.sha256(data).hexdigest()
