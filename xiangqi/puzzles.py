"""Mate puzzles: the Puzzle record, loaders for puzzle collections, verify, find_mates.

A puzzle is a start diagram (FEN), a solution line (ICCS moves) and a goal ("mate in
N": the side to move mates with its N-th move, N = (plies + 1) / 2). Collections are
read from JSON Lines (one object a line: ``fen``, ``moves`` or ``first_winning_move``,
``plies``/``win_in_plies`` or ``goal``), CSV (a header naming ``fen`` and ``moves``,
python-chess's puzzle layout) and game records through xiangqi.open_games (an XQF
puzzle file: its start diagram and its main line). Nothing a file holds is silently
replaced or dropped: a line or game that does not read as written raises
PuzzleFileError, naming the file and the line or game.

verify(puzzle) proves, with the mate search of Position.find_mate, that the stated
solution is a forced mate of the stated length: every attacker's move keeps a mate in
the plies left, every defender's move is a longest resistance, and nothing shorter
exists. Squares are public numbers 0..89 (file + 9 * rank); moves are ICCS.
"""

from __future__ import annotations

import concurrent.futures
import csv
import json
import os
import re
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from ._checks import check_bool, check_int
from ._files import open_input
from ._words import counted
from .errors import IllegalMoveError, InvalidFenError, SearchLimitReached, XiangqiError
from .fen import Status
from .move import Move
from .position import Position
from .records import open_games

if TYPE_CHECKING:
    from .pgn import Game

#: Longest search Position.find_mate accepts (plies).
__all__ = [
    "MAX_PLIES",
    "Puzzle",
    "PuzzleFileError",
    "PuzzleFileNotFoundError",
    "Verdict",
    "find_mates",
    "position_of",
    "puzzle_from_record",
    "read_csv",
    "read_games",
    "read_jsonl",
    "read_puzzles",
    "verify",
]

#: The longest solution a puzzle may ask for, in plies.
MAX_PLIES = 99
_GOAL = re.compile(r"^\s*mate\s+in\s+([0-9]+)\s*$", re.IGNORECASE | re.ASCII)

MateAnswer = list[Move] | None | SearchLimitReached


def position_of(fen: str) -> Position:
    """The position of a puzzle's FEN: Position(fen), else a composition's diagram
    (Position.from_diagram(fen, composition=True)); InvalidFenError if neither reads it."""
    try:
        return Position(fen)
    except InvalidFenError as error:
        try:
            return Position.from_diagram(fen, composition=True)
        except InvalidFenError:
            raise error from None


@dataclass(frozen=True)
class Puzzle:
    """One mate puzzle: a FEN, a solution line, the mate's length in plies, a source.

    ``solution`` may be only the first moves (a collection giving the key move alone);
    any iterable of Moves is taken and kept as a tuple (anything else: TypeError);
    ``plies`` is the stated length (odd; None when the collection does not say: verify
    then takes the solution's own length). ``goal`` reads "mate in N".
    """

    fen: str
    solution: tuple[Move, ...] = ()
    plies: int | None = None
    source: str = ""
    name: str = ""
    extra: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.fen, str):
            raise TypeError(f"fen must be a str, got {type(self.fen).__name__}")
        solution = self.solution
        if isinstance(solution, (str, bytes, Move)) or not isinstance(solution, Iterable):
            raise TypeError(
                "solution must be an iterable of Move objects, got "
                f"{type(solution).__name__}: {_short(solution)}"
            )
        moves = tuple(solution)  # a generator is read once, here; a list becomes hashable
        for index, move in enumerate(moves):
            if not isinstance(move, Move):
                raise TypeError(
                    f"solution[{index}] must be a Move, got {type(move).__name__}: {_short(move)}"
                )
        object.__setattr__(self, "solution", moves)
        if self.plies is not None:
            plies = check_int("plies", self.plies, 1, MAX_PLIES)
            if plies % 2 == 0:
                raise ValueError(f"a mate takes an odd number of plies, got plies={plies}")
        position_of(self.fen)  # InvalidFenError now, not at verify()

    @property
    def goal(self) -> str:
        """The goal as text, "mate in N" (N the attacker's moves), or "mate" if unstated."""
        return "mate" if self.plies is None else f"mate in {(self.plies + 1) // 2}"

    def position(self) -> Position:
        """The start position (see position_of)."""
        return position_of(self.fen)


class PuzzleFileError(XiangqiError):
    """A puzzle file's line or game that does not read as a puzzle: the message names the
    file (when it has a name), the line (JSON Lines, CSV) or the game (a game-record file)
    and what is wrong. ``source``, ``line`` and ``game`` hold the same (None where not
    known); the error that caused it is its ``__cause__``."""

    def __init__(
        self, message: str, source: str = "", line: int | None = None, game: int | None = None
    ) -> None:
        super().__init__(message)
        self.source = source
        self.line = line
        self.game = game


class PuzzleFileNotFoundError(PuzzleFileError, FileNotFoundError):
    """A puzzle file that does not exist: a PuzzleFileError that ``except
    FileNotFoundError`` (and ``except OSError``) still catches, as io.UnsupportedOperation
    is both an OSError and a ValueError. ``errno`` is ENOENT; ``source`` names the file."""


def _unreadable(error: OSError, name: str) -> PuzzleFileError:
    """The PuzzleFileError for a puzzle file that cannot be opened (missing, a folder, no
    permission): it names the file and why; a missing file's is a PuzzleFileNotFoundError."""
    why = error.strerror or str(error)
    kind = PuzzleFileNotFoundError if isinstance(error, FileNotFoundError) else PuzzleFileError
    found = kind(f"{name}: cannot be read as a puzzle file: {why}", name)
    if isinstance(found, OSError):
        found.errno = error.errno
    return found


#: What reading one line or one game may raise (bad text, bad values, JSON nested beyond
#: the interpreter's depth, CSV's own errors, undecodable bytes): each becomes a
#: PuzzleFileError naming the line. Anything else is a bug and is not hidden.
_READ_ERRORS = (ValueError, TypeError, ArithmeticError, RecursionError, csv.Error)


def _short(value: object) -> str:
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _moves(text: object) -> tuple[Move, ...]:
    if text is None or text == "":
        return ()
    items: list[object] = (
        list(text.split()) if isinstance(text, str)
        else list(text) if isinstance(text, (list, tuple))
        else [text]  # refused below, naming what it is
    )  # fmt: skip
    if not all(isinstance(item, str) for item in items):
        raise TypeError(
            f"moves must be ICCS text or a list of it, got {type(text).__name__}: {_short(text)}"
        )
    moves = tuple(Move.from_iccs(str(item)) for item in items)
    for ply, move in enumerate(moves, 1):
        if not move:
            raise XiangqiError(f"move {ply} of the solution is a pass ('0000'): no puzzle move")
    return moves


def _plies(record: dict[str, object]) -> int | None:
    """The stated length: every length field given must agree (none is dropped)."""
    found: dict[str, int] = {}
    for key in ("plies", "win_in_plies", "mate_plies"):
        value = record.get(key)
        if value not in (None, ""):
            if isinstance(value, str):
                digits = value.strip()
                if not (digits.isascii() and digits.isdigit() and len(digits) <= 3):
                    raise XiangqiError(
                        f"{key} must be a number of plies (1..{MAX_PLIES}), got {value[:40]!r}"
                    )
                value = int(digits)
            found[key] = check_int(key, value)
    goal = record.get("goal")
    if goal not in (None, ""):
        matched = _GOAL.match(goal) if isinstance(goal, str) else None
        if not matched or len(matched.group(1)) > 3:
            raise XiangqiError(f"goal must read 'mate in N', got {_short(goal)}")
        if int(matched.group(1)) == 0:
            raise XiangqiError(f"goal {_short(goal)} is refused: a mate takes at least one move")
        found["goal"] = 2 * int(matched.group(1)) - 1
    if len(set(found.values())) > 1:
        said = ", ".join(f"{key} gives {counted(value, 'ply')}" for key, value in found.items())
        raise XiangqiError(f"the stated lengths disagree: {said}")
    return next(iter(found.values()), None)


def _solution(record: dict[str, object]) -> tuple[Move, ...]:
    """The solution: ``moves``, ``solution`` or ``first_winning_move``; those given must agree."""
    given = {
        key: _moves(record[key])
        for key in ("moves", "solution", "first_winning_move")
        if record.get(key) not in (None, "", [], ())
    }
    lines = [line for key, line in given.items() if key != "first_winning_move"]
    if len(set(lines)) > 1:
        raise XiangqiError("the fields moves and solution give different lines")
    line = lines[0] if lines else ()
    first = given.get("first_winning_move")
    if first is not None:
        if len(first) != 1:
            raise XiangqiError(f"first_winning_move must be one move, got {len(first)}")
        if line and line[0] != first[0]:
            raise XiangqiError(
                f"first_winning_move {first[0]} is not the solution's first move {line[0]}"
            )
        line = line or first
    return line


def puzzle_from_record(record: dict[str, object], source: str = "") -> Puzzle:
    """A Puzzle from one record (a JSON object or a CSV row, keys case-insensitive):
    ``fen``; ``moves``/``solution`` (ICCS, space-separated or a list) or
    ``first_winning_move``; ``plies``/``win_in_plies``/``mate_plies`` or ``goal``
    ("mate in N"); ``source``; ``name``/``id``. Other keys are kept in ``extra``.

    Nothing given is dropped: two keys that differ only in case, or fields that give
    different solutions or lengths, raise XiangqiError; so does a FEN that neither
    Position nor a composition's diagram reads (see position_of)."""
    if not isinstance(record, dict):
        raise TypeError(f"a puzzle record must be a dict, got {type(record).__name__}")
    lowered: dict[str, object] = {}
    for key, value in record.items():
        name = str(key).strip().lower()
        if name in lowered:
            raise XiangqiError(f"the key {name!r} is given twice (keys are case-insensitive)")
        lowered[name] = value
    fen = lowered.get("fen")
    if not isinstance(fen, str):
        raise XiangqiError(f"a puzzle record needs a 'fen' string, got keys {sorted(lowered)}")
    title = next((lowered[k] for k in ("name", "id") if lowered.get(k) not in (None, "")), "")
    return Puzzle(
        fen=fen,
        solution=_solution(lowered),
        plies=_plies(lowered),
        source=str(lowered.get("source") or source),
        name=str(title),
        extra=lowered,
    )


_BOM = "\ufeff"


def _open(source: str | os.PathLike[str] | IO[str] | IO[bytes]) -> tuple[IO[Any], str, bool]:
    """The file of source (opened in binary when it is a path, decoded line by line by
    _lines), its name, and whether this reader owns (closes) it."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not isinstance(path, str):
            raise TypeError(f"source must be a str path, got {type(path).__name__}")
        try:
            return open_input(path, regular=False), path, True  # a FIFO: no hang
        except OSError as error:
            raise _unreadable(error, path) from error
    if isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError("source must be a path or an open file, got bytes (wrap in io.BytesIO)")
    if hasattr(source, "read"):
        name = getattr(source, "name", "")
        return source, name if isinstance(name, str) else "", False
    raise TypeError(f"source must be a path or a file, got {type(source).__name__}")


def _lines(handle: IO[Any], where: str) -> Iterator[str]:
    """The lines of a file, each with its line end: bytes are decoded as UTF-8 (a leading
    BOM dropped) one line at a time, so an undecodable byte is reported on its own line;
    lines end at \\n, \\r\\n or \\r. A text file's lines are taken as it gives them."""
    number = 0
    lines = iter(handle)
    while True:
        try:
            raw = next(lines)
        except StopIteration:
            return
        except UnicodeDecodeError as error:  # a text file decodes ahead of its lines
            raise PuzzleFileError(
                f"{where} after line {number}: not readable text ({error})", where, number + 1
            ) from error
        # Bytes split at \r too (bytes.splitlines knows only \n, \r\n and \r); text is
        # taken as the file splits it (str.splitlines would also split at U+2028, which a
        # JSON string may hold).
        pieces = raw.splitlines(keepends=True) if isinstance(raw, bytes) else [raw]
        for piece in pieces:
            number += 1
            if isinstance(piece, bytes):
                try:
                    piece = piece.decode("utf-8")
                except UnicodeDecodeError as error:
                    raise PuzzleFileError(
                        f"{where} line {number}: not UTF-8 text: byte "
                        f"{piece[error.start : error.start + 1]!r} at column {error.start + 1}",
                        where,
                        number,
                    ) from error
            elif not isinstance(piece, str):
                raise TypeError(f"the file gave a {type(piece).__name__}, not text")
            if number == 1 and piece.startswith(_BOM):
                piece = piece[1:]
            yield piece


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    record: dict[str, object] = {}
    for key, value in pairs:
        if key in record:
            raise XiangqiError(f"the key {key!r} is given twice")
        record[key] = value
    return record


def read_jsonl(source: str | os.PathLike[str] | IO[str] | IO[bytes]) -> Iterator[Puzzle]:
    """The puzzles of a JSON Lines file (UTF-8, one object a line; see puzzle_from_record):
    a path or an open file (text or binary).

    Anything wrong with a line (not JSON, not an object, a bad field, bytes that are not
    UTF-8, nesting too deep) raises PuzzleFileError (a XiangqiError) naming the file and
    the line number; the puzzles before it have been yielded."""
    handle, name, owned = _open(source)
    where = name or "JSON Lines"
    try:
        number = 0
        for line in _lines(handle, where):
            number += 1
            if not line.strip():
                continue
            try:
                record = json.loads(line, object_pairs_hook=_unique_keys)
                if not isinstance(record, dict):
                    raise XiangqiError(f"expected a JSON object, got {type(record).__name__}")
                puzzle = puzzle_from_record(record, name)
            except _READ_ERRORS as error:
                raise PuzzleFileError(f"{where} line {number}: {error}", name, number) from error
            yield puzzle
    finally:
        if owned:
            handle.close()


def read_csv(source: str | os.PathLike[str] | IO[str] | IO[bytes]) -> Iterator[Puzzle]:
    """The puzzles of a CSV file (UTF-8) whose header names at least ``fen`` (and
    ``moves``; more columns as puzzle_from_record); a file without a header is read as
    two columns, ``fen,moves``. A path or an open file (text or binary).

    Anything wrong with a row (a bad field, more cells than the header names, a header
    naming a column twice, a quote left open, bytes that are not UTF-8, CSV's own
    errors) raises
    PuzzleFileError (a XiangqiError) naming the file and the row's line number."""
    handle, name, owned = _open(source)
    where = name or "CSV"
    try:
        rows = csv.reader(_lines(handle, where), strict=True)  # a quote left open: an error
        header: list[str] | None = None
        while True:
            try:
                row = next(rows)
            except StopIteration:
                break
            except csv.Error as error:
                line = rows.line_num
                raise PuzzleFileError(f"{where} line {line}: {error}", name, line) from error
            line = rows.line_num
            if not row or not any(cell.strip() for cell in row):
                continue
            try:
                if header is None:
                    lowered = [cell.strip().lower() for cell in row]
                    if "fen" in lowered:
                        twice = sorted(c for c, n in Counter(lowered).items() if c and n > 1)
                        if twice:
                            raise XiangqiError(f"the header names {', '.join(twice)} twice")
                        header = lowered
                        continue
                    header = ["fen", "moves"]
                if len(row) > len(header) and any(cell.strip() for cell in row[len(header) :]):
                    raise XiangqiError(
                        f"the row has {len(row)} cells, the header names {len(header)} "
                        f"columns ({','.join(header)})"
                    )
                unnamed = next(
                    (i for i, (k, c) in enumerate(zip(header, row)) if not k and c.strip()), None
                )
                if unnamed is not None:
                    raise XiangqiError(
                        f"cell {unnamed + 1} ({_short(row[unnamed])}) is under a column the "
                        "header does not name"
                    )
                record: dict[str, object] = {k: c for k, c in zip(header, row) if k}
                puzzle = puzzle_from_record(record, name)
            except _READ_ERRORS as error:
                raise PuzzleFileError(f"{where} line {line}: {error}", name, line) from error
            yield puzzle
    finally:
        if owned:
            handle.close()


def read_games(source: str | os.PathLike[str] | IO[bytes]) -> Iterator[Puzzle]:
    """Puzzles of a game-record file read through xiangqi.open_games (an XQF puzzle
    collection, PGN, ...): each game's start diagram and its main line. The goal is
    "mate in N" when the main line ends in a mate (the side to move at its end has no
    legal move), else unstated.

    A game the record reader could not read as written (any entry in its ``errors``: a
    FEN tag refused, a move it could not play, ...) raises PuzzleFileError naming the
    file, the game's number and the reader's first error: its start or its line would
    not be the file's. Game records hold only positions Position() reads, so a
    composition whose pawn stands behind its start is refused there: give such puzzles
    as JSON Lines or CSV."""
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if not isinstance(name, str):
            raise TypeError(f"source must be a str path, got {type(name).__name__}")
    elif isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError("source must be a path or an open file, got bytes (wrap in io.BytesIO)")
    elif not hasattr(source, "read"):
        raise TypeError(f"source must be a path or a file, got {type(source).__name__}")
    else:
        found = getattr(source, "name", "")
        name = found if isinstance(found, str) else ""
    where = name or "record file"
    number = 0
    try:
        games = open_games(source)
    except OSError as error:
        raise _unreadable(error, where) from error
    except _READ_ERRORS as error:
        raise PuzzleFileError(f"{where}: {error}", name) from error
    try:
        while True:
            try:
                game = next(games)
            except StopIteration:
                return
            except _READ_ERRORS as error:
                raise PuzzleFileError(
                    f"{where} game {number + 1}: {error}", name, game=number + 1
                ) from error
            number += 1
            if game.errors:
                more = f" (and {len(game.errors) - 1} more)" if len(game.errors) > 1 else ""
                raise PuzzleFileError(
                    f"{where} game {number}: not read as written: {game.errors[0]}{more}",
                    name,
                    game=number,
                ) from game.errors[0]
            passes = [ply for ply, move in enumerate(game.mainline_moves(), 1) if not move]
            if passes:
                raise PuzzleFileError(
                    f"{where} game {number}: move {passes[0]} of the main line is a pass "
                    "(a null move): no puzzle move",
                    name,
                    game=number,
                )
            yield _game_puzzle(game, name)
    finally:
        games.close()  # type: ignore[attr-defined]  # open_games's iterator closes its file


def _game_puzzle(game: Game, name: str) -> Puzzle:
    headers = dict(game.headers)
    moves = tuple(game.mainline_moves())
    fen = game.fen
    end = position_of(fen)
    for move in moves:
        end.push(move)  # the reader played them: legal
    plies = len(moves) if moves and len(moves) % 2 == 1 and not end.has_legal_moves() else None
    title = headers.get("Title") or headers.get("Event") or ""
    extra: dict[str, object] = dict(headers)
    return Puzzle(fen=fen, solution=moves, plies=plies, source=name, name=title, extra=extra)


def read_puzzles(source: str | os.PathLike[str]) -> Iterator[Puzzle]:
    """The puzzles of a file, by its name's ending: .jsonl/.json/.ndjson (read_jsonl),
    .csv (read_csv), anything else through xiangqi.open_games (read_games)."""
    if not isinstance(source, (str, os.PathLike)) or not isinstance(os.fspath(source), str):
        raise TypeError(f"source must be a str path, got {type(source).__name__}")
    ending = os.fspath(source).lower().rsplit(".", 1)[-1]
    if ending in ("jsonl", "json", "ndjson"):
        return read_jsonl(source)
    if ending == "csv":
        return read_csv(source)
    return read_games(source)


# -- verify ------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What verify found: ``ok``; ``plies``, the shortest mate's length (None when there
    is none within the stated length); ``failed_at``, the solution's ply (0-based) where
    it fails, or None; ``reason``, one sentence."""

    ok: bool
    plies: int | None
    failed_at: int | None
    reason: str

    def __bool__(self) -> bool:
        return self.ok


def _mate_length(pos: Position, plies: int, node_limit: int | None) -> int | None:
    line = pos.find_mate(plies, node_limit=node_limit)
    return None if line is None else len(line)


def _first_illegal(pos: Position, line: tuple[Move, ...]) -> tuple[int, str] | None:
    """The ply (0-based) of the first illegal move of line played from pos, and why."""
    replay = pos.copy()
    for ply, move in enumerate(line):
        if not move:  # Position.push plays a pass; a puzzle's line holds moves only
            return ply, f"move {ply + 1} of the solution is a pass (0000), not a move"
        try:
            replay.push(move)
        except IllegalMoveError as error:
            return ply, f"move {ply + 1} of the solution: {error}"
    return None


def verify(puzzle: Puzzle, *, node_limit: int | None = None) -> Verdict:
    """Prove that the puzzle's solution is a forced mate of its stated length, or say where
    it fails.

    Checked: a mate of exactly the stated length is the shortest there is; each attacker's
    move of the solution still mates in the plies left; each defender's move is a longest
    resistance (the attacker's shortest mate after it is as long as the plies left); a
    full solution ends in mate. A solution shorter than the stated length (the key move
    alone) is checked as far as it goes. Every move of the solution, past the stated
    length too, must be legal where it is played: the first that is not is named, with
    why, in the reason and by failed_at (also when the position alone already fails).

    Raises:
        SearchLimitReached: node_limit was reached by one of the searches.
    """
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"puzzle must be a Puzzle, got {type(puzzle).__name__}")
    pos = puzzle.position()
    illegal = _first_illegal(pos, puzzle.solution)  # anywhere, past the stated length too
    stated = puzzle.plies if puzzle.plies is not None else len(puzzle.solution)

    def failed(plies: int | None, reason: str) -> Verdict:
        # A failure judged on the position alone still names an illegal move of the line.
        if illegal is None:
            return Verdict(False, plies, None, reason)
        return Verdict(False, plies, illegal[0], f"{reason}; {illegal[1]}")

    if stated == 0 or stated % 2 == 0:
        return failed(None, f"no stated mate length (solution has {counted(stated, 'ply')})")
    shortest = _mate_length(pos, stated, node_limit)
    if shortest is None:
        return failed(None, f"no forced mate within {counted(stated, 'ply')}")
    if shortest < stated:
        return failed(shortest, f"a shorter mate exists: {counted(shortest, 'ply')}")
    left = stated
    for ply, move in enumerate(puzzle.solution[:stated]):
        if illegal is not None and illegal[0] == ply:
            return Verdict(False, shortest, ply, illegal[1])
        pos.push(move)
        left -= 1
        if ply % 2 == 0:  # the attacker's move: the defender must be lost within `left`
            if left == 0:
                if pos.has_legal_moves():
                    return Verdict(False, shortest, ply, f"{move} does not mate")
                continue
            for reply in pos.legal_moves():
                pos.push(reply)
                after = _mate_length(pos, left - 1, node_limit)
                pos.pop()
                if after is None:
                    return Verdict(
                        False,
                        shortest,
                        ply,
                        f"{move} lets {reply} escape a mate in {counted(left, 'ply')}",
                    )
            if not pos.has_legal_moves():
                return Verdict(False, shortest, ply, f"{move} mates early, at ply {ply + 1}")
        else:  # the defender's move: the attacker's shortest mate must take all of `left`
            after = _mate_length(pos, left, node_limit)
            if after is None or after < left:
                found = "none" if after is None else counted(after, "ply")
                return Verdict(
                    False,
                    shortest,
                    ply,
                    f"{move} is not a longest resistance (mate after it: {found}, "
                    f"expected {counted(left, 'ply')})",
                )
    if illegal is not None:  # past a full solution's mate: no move is legal there
        return Verdict(False, shortest, illegal[0], illegal[1])
    return Verdict(True, shortest, None, f"forced mate in {counted(stated, 'ply')}")


# -- many positions at once ------------------------------------------------------


def find_mates(
    positions: Iterable[Position | str],
    max_plies: int,
    *,
    checks_only: bool = False,
    node_limit: int | None = None,
    threads: int | None = None,
    hash_mb: int = 64,
) -> list[MateAnswer]:
    """Position.find_mate over many positions (or FEN strings, read with position_of),
    on a pool of threads that search without the GIL.

    Returns one answer per position, in order, the same as that position's find_mate
    (its move stack included: the repetitions of its game count): the mate (a list of
    Moves), None (proven: no mate within max_plies), or the SearchLimitReached object of
    a search that reached node_limit (returned, not raised). threads: 1..256, default
    the machine's CPU count. hash_mb: the tables' megabytes per search (1..65536; a
    search per thread runs at a time). Every argument is checked before any search starts;
    positions must be an iterable of them (a single Position or FEN string is refused
    with TypeError). node_limit: per search, as find_mate's (None, the default: no
    limit). Ctrl-C (KeyboardInterrupt, or any exception in the calling thread) stops
    every search at once: no thread is left running when it propagates. There is no stop
    event: to end a batch from another thread, run find_mate on threads of your own with
    one shared stop.
    """
    plies = check_int("max_plies", max_plies, 1, MAX_PLIES)
    check_bool("checks_only", checks_only)
    limit = None if node_limit is None else check_int("node_limit", node_limit, 1, 2**62)
    workers = (os.cpu_count() or 1) if threads is None else check_int("threads", threads, 1, 256)
    megabytes = check_int("hash_mb", hash_mb, 1, 65536)
    if isinstance(positions, (str, bytes, bytearray, Position)) or not hasattr(
        type(positions), "__iter__"
    ):
        raise TypeError(
            "positions must be an iterable of Positions or FEN strings, got "
            f"{type(positions).__name__} (a single position: pass [position])"
        )
    held: list[Position] = []
    for index, item in enumerate(positions):
        if isinstance(item, str):
            try:
                held.append(position_of(item))
            except InvalidFenError as error:
                raise InvalidFenError(f"positions[{index}]: {error}") from None
        elif isinstance(item, Position):
            held.append(item.copy())  # with its moves: its repetitions count
        else:
            raise TypeError(f"positions[{index}] must be a Position or FEN str")
        if held[-1].status() & Status.OPPOSITE_CHECK:
            raise ValueError(f"positions[{index}]: the side not to move is in check")
    if not held:
        return []
    stop = threading.Event()

    def one(pos: Position) -> MateAnswer:
        try:
            return pos.find_mate(
                plies, checks_only=checks_only, node_limit=limit, stop=stop, hash_mb=megabytes
            )
        except SearchLimitReached as stopped:
            return stopped

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=min(workers, len(held)))
    try:
        futures = [pool.submit(one, pos) for pos in held]
        # Wait in short slices: a blocking wait would not see an interrupt that comes
        # without a real signal (_thread.interrupt_main) until every search had ended.
        pending = set(futures)
        while pending:
            _, pending = concurrent.futures.wait(pending, timeout=0.05)
        return [future.result() for future in futures]
    except BaseException:
        stop.set()  # every running search ends within a few milliseconds
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
