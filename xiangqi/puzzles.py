"""Mate puzzles: the Puzzle record, loaders for puzzle collections, verify, find_mates.

A puzzle is a start diagram (FEN), a solution line (ICCS moves) and a goal ("mate in
N": the side to move mates with its N-th move, N = (plies + 1) / 2). Collections are
read from JSON Lines (one object a line: ``fen``, ``moves`` or ``first_winning_move``,
``plies``/``win_in_plies`` or ``goal``), CSV (a header naming ``fen`` and ``moves``,
python-chess's puzzle layout) and game records through xiangqi.open_games (an XQF
puzzle file: its start diagram and its main line).

verify(puzzle) proves, with the mate search of Position.find_mate, that the stated
solution is a forced mate of the stated length: every attacker's move keeps a mate in
the plies left, every defender's move is a longest resistance, and nothing shorter
exists. Squares are public numbers 0..89 (file + 9 * rank); moves are ICCS.
"""

from __future__ import annotations

import concurrent.futures
import csv
import io
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

from ._checks import check_bool, check_int
from .errors import InvalidFenError, SearchLimitReached, XiangqiError
from .fen import Status
from .move import Move
from .position import Position
from .records import open_games

#: Longest search Position.find_mate accepts (plies).
__all__ = [
    "MAX_PLIES",
    "Puzzle",
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

MAX_PLIES = 99
_GOAL = re.compile(r"^\s*mate\s+in\s+(\d+)\s*$", re.IGNORECASE)

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
        if not all(isinstance(move, Move) for move in self.solution):
            raise TypeError("solution must hold Move objects")
        if self.plies is not None:
            plies = check_int("plies", self.plies, 1, MAX_PLIES)
            if plies % 2 == 0:
                raise ValueError(f"a mate takes an odd number of plies, got plies={plies}")

    @property
    def goal(self) -> str:
        """The goal as text, "mate in N" (N the attacker's moves), or "mate" if unstated."""
        return "mate" if self.plies is None else f"mate in {(self.plies + 1) // 2}"

    def position(self) -> Position:
        """The start position (see position_of)."""
        return position_of(self.fen)


def _moves(text: object) -> tuple[Move, ...]:
    if text is None or text == "":
        return ()
    items: list[object] = (
        list(text.split()) if isinstance(text, str)
        else list(text) if isinstance(text, (list, tuple))
        else [text]  # refused below, naming what it is
    )  # fmt: skip
    if not all(isinstance(item, str) for item in items):
        shown = repr(text)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        raise TypeError(
            f"moves must be ICCS text or a list of it, got {type(text).__name__}: {shown}"
        )
    return tuple(Move.from_iccs(str(item)) for item in items)


def _plies(record: dict[str, object]) -> int | None:
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
            return check_int(key, value)
    goal = record.get("goal")
    if isinstance(goal, str) and goal:
        found = _GOAL.match(goal)
        if not found:
            raise XiangqiError(f"goal must read 'mate in N', got {goal!r}")
        return 2 * int(found.group(1)) - 1
    return None


def puzzle_from_record(record: dict[str, object], source: str = "") -> Puzzle:
    """A Puzzle from one record (a JSON object or a CSV row, keys case-insensitive):
    ``fen``; ``moves``/``solution`` (ICCS, space-separated or a list) or
    ``first_winning_move``; ``plies``/``win_in_plies`` or ``goal`` ("mate in N");
    ``source``; ``name``/``id``. Other keys are kept in ``extra``."""
    record = {str(key).strip().lower(): value for key, value in record.items()}
    fen = record.get("fen")
    if not isinstance(fen, str):
        raise XiangqiError(f"a puzzle record needs a 'fen' string, got keys {sorted(record)}")
    moves = record.get("moves", record.get("solution"))
    if moves in (None, "") and record.get("first_winning_move"):
        moves = record["first_winning_move"]
    name = record.get("name") or record.get("id") or ""
    return Puzzle(
        fen=fen,
        solution=_moves(moves),
        plies=_plies(record),
        source=str(record.get("source") or source),
        name=str(name),
        extra=record,
    )


def _text(source: str | os.PathLike[str] | IO[str]) -> tuple[IO[str], str, bool]:
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        return open(path, encoding="utf-8-sig", newline=""), path, True
    if isinstance(source, io.TextIOBase) or hasattr(source, "read"):
        return source, getattr(source, "name", ""), False
    raise TypeError(f"source must be a path or a text file, got {type(source).__name__}")


def read_jsonl(source: str | os.PathLike[str] | IO[str]) -> Iterator[Puzzle]:
    """The puzzles of a JSON Lines file (one object a line; see puzzle_from_record).
    A bad line raises XiangqiError naming its line number."""
    handle, name, owned = _text(source)
    try:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if not isinstance(record, dict):
                    raise XiangqiError("expected a JSON object")
                yield puzzle_from_record(record, name)
            except (ValueError, TypeError) as error:
                raise XiangqiError(f"{name or 'JSON Lines'} line {number}: {error}") from error
    finally:
        if owned:
            handle.close()


def read_csv(source: str | os.PathLike[str] | IO[str]) -> Iterator[Puzzle]:
    """The puzzles of a CSV file whose header names at least ``fen`` and ``moves``
    (more columns as puzzle_from_record; a file without a header is read as
    ``fen,moves,...``). A bad row raises XiangqiError naming its line number."""
    handle, name, owned = _text(source)
    try:
        rows = csv.reader(handle)
        header: list[str] | None = None
        for row in rows:
            if not row or not any(cell.strip() for cell in row):
                continue
            if header is None:
                lowered = [cell.strip().lower() for cell in row]
                header = lowered if "fen" in lowered else ["fen", "moves"]
                if "fen" in lowered:
                    continue
            try:
                yield puzzle_from_record(dict(zip(header, row)), name)
            except (ValueError, TypeError) as error:
                raise XiangqiError(f"{name or 'CSV'} line {rows.line_num}: {error}") from error
    finally:
        if owned:
            handle.close()


def read_games(source: str | os.PathLike[str]) -> Iterator[Puzzle]:
    """Puzzles of a game-record file read through xiangqi.open_games (an XQF puzzle
    collection, PGN, ...): each game's start diagram and its main line. The goal is
    "mate in N" when the main line ends in a mate (the side to move at its end has no
    legal move), else unstated."""
    name = os.fspath(source)
    for game in open_games(source):
        headers = dict(game.headers)
        moves = tuple(game.mainline_moves())
        fen = headers.get("FEN") or game.board().fen()
        end = position_of(fen)
        plies = None
        for move in moves:
            if not end.is_legal(move):
                break
            end.push(move)
        else:
            if moves and len(moves) % 2 == 1 and not end.has_legal_moves():
                plies = len(moves)
        title = headers.get("Title") or headers.get("Event") or ""
        extra: dict[str, object] = dict(headers)
        yield Puzzle(fen=fen, solution=moves, plies=plies, source=name, name=title, extra=extra)


def read_puzzles(source: str | os.PathLike[str]) -> Iterator[Puzzle]:
    """The puzzles of a file, by its name's ending: .jsonl/.json (read_jsonl), .csv
    (read_csv), anything else through xiangqi.open_games (read_games)."""
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


def verify(puzzle: Puzzle, *, node_limit: int | None = None) -> Verdict:
    """Prove that the puzzle's solution is a forced mate of its stated length, or say where
    it fails.

    Checked: a mate of exactly the stated length is the shortest there is; each attacker's
    move of the solution is legal and still mates in the plies left; each defender's move
    is legal and a longest resistance (the attacker's shortest mate after it is as long
    as the plies left); a full solution ends in mate. A solution shorter than the stated
    length (the key move alone) is checked as far as it goes.

    Raises:
        SearchLimitReached: node_limit was reached by one of the searches.
    """
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"puzzle must be a Puzzle, got {type(puzzle).__name__}")
    pos = puzzle.position()
    stated = puzzle.plies if puzzle.plies is not None else len(puzzle.solution)
    if stated == 0 or stated % 2 == 0:
        return Verdict(False, None, None, f"no stated mate length (solution has {stated} plies)")
    shortest = _mate_length(pos, stated, node_limit)
    if shortest is None:
        return Verdict(False, None, None, f"no forced mate within {stated} plies")
    if shortest < stated:
        return Verdict(False, shortest, None, f"a shorter mate exists: {shortest} plies")
    left = stated
    for ply, move in enumerate(puzzle.solution[:stated]):
        if not pos.is_legal(move):
            return Verdict(False, shortest, ply, f"{move} is not legal in {pos.fen()}")
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
                        False, shortest, ply, f"{move} lets {reply} escape a mate in {left} plies"
                    )
            if not pos.has_legal_moves():
                return Verdict(False, shortest, ply, f"{move} mates early, at ply {ply + 1}")
        else:  # the defender's move: the attacker's shortest mate must take all of `left`
            after = _mate_length(pos, left, node_limit)
            if after is None or after < left:
                found = "none" if after is None else f"{after} plies"
                return Verdict(
                    False,
                    shortest,
                    ply,
                    f"{move} is not a longest resistance (mate after it: {found}, "
                    f"expected {left} plies)",
                )
    return Verdict(True, shortest, None, f"forced mate in {stated} plies")


# -- many positions at once ------------------------------------------------------


def find_mates(
    positions: Iterable[Position | str],
    max_plies: int,
    *,
    checks_only: bool = False,
    node_limit: int | None = None,
    threads: int | None = None,
) -> list[MateAnswer]:
    """Position.find_mate over many positions (or FEN strings, read with position_of),
    on a pool of threads that search without the GIL.

    Returns one answer per position, in order: the mate (a list of Moves), None (proven:
    no mate within max_plies), or the SearchLimitReached object of a search that
    reached node_limit (returned, not raised). threads: 1..256, default the machine's
    CPU count. Every argument is checked before any search starts.
    """
    plies = check_int("max_plies", max_plies, 1, MAX_PLIES)
    check_bool("checks_only", checks_only)
    limit = None if node_limit is None else check_int("node_limit", node_limit, 1, 2**62)
    workers = (os.cpu_count() or 1) if threads is None else check_int("threads", threads, 1, 256)
    held: list[Position] = []
    for index, item in enumerate(positions):
        if isinstance(item, str):
            held.append(position_of(item))
        elif isinstance(item, Position):
            held.append(item.copy(stack=False))
        else:
            raise TypeError(f"positions[{index}] must be a Position or FEN str")
        if held[-1].status() & Status.OPPOSITE_CHECK:
            raise ValueError(f"positions[{index}]: the side not to move is in check")

    def one(pos: Position) -> MateAnswer:
        try:
            return pos.find_mate(plies, checks_only=checks_only, node_limit=limit)
        except SearchLimitReached as stopped:
            return stopped

    if not held:
        return []
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=min(workers, len(held)))
    try:
        return list(pool.map(one, held))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
