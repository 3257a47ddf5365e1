"""Coverage-guided fuzz target (atheris / libFuzzer) for the puzzle readers and verify.

The first byte of an input picks what the rest is fed to:

    0  read_jsonl over the bytes as a binary file (decoded as UTF-8 line by line)
    1  read_csv over the bytes as a binary file
    2  read_jsonl over the bytes decoded (UTF-8, with replacement) as a text file
    3  read_games over the bytes as a game-record file (its format recognised by open_games)
    4  read_csv over the bytes decoded as a text file

Invariants: a reader yields Puzzles or raises PuzzleFileError (a XiangqiError) whose
message names the line (JSON Lines, CSV) or says what the file is, with ``line`` or
``game`` set; nothing else escapes (no RecursionError, _csv.Error, UnicodeDecodeError,
...). Every puzzle read has a position; one from JSON Lines or CSV writes back as a JSON
line that reads to an equal puzzle. verify() on a short puzzle (stated length at most 5,
bounded by a node limit) returns a Verdict or raises SearchLimitReached; a solution with
an illegal move (checked here by replaying it with Position.is_legal) never verifies, and
its verdict's failed_at is that move's ply whenever the failure is about the line. Any
other outcome is a finding.

The seeds (fuzz/seeds_puzzles) hold real puzzle positions from /work/shared/data/mates
(positions from the XQF puzzle collections of the walker8088/cchess project's history:
facts, no file text copied) and xiangqibench's compositions (tests/data/xiangqibench,
MIT), in the file layouts the readers take, with the faults the readers once let through.

Run: scripts/fuzz.sh (FUZZ_TARGETS=puzzles for this one), or by hand:
    python fuzz/fuzz_puzzles.py build/fuzz/corpus_puzzles fuzz/seeds_puzzles \
        -dict=fuzz/fuzz_puzzles.dict -max_total_time=60
A single input (e.g. a crash file) is replayed by passing its path.
"""

from __future__ import annotations

import io
import itertools
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness

_harness.instrument(__name__, "xiangqi.puzzles", "xiangqi.pgn", "xiangqi.records")

from xiangqi import SearchLimitReached
from xiangqi.puzzles import (
    Puzzle,
    PuzzleFileError,
    read_csv,
    read_games,
    read_jsonl,
    verify,
)

MAX_LEN = 1 << 16
#: Puzzles looked at per input, and the longest stated length verify is run on.
MAX_PUZZLES = 4
MAX_VERIFY_PLIES = 5
NODE_LIMIT = 2000


def _text(data: bytes) -> io.StringIO:
    return io.StringIO(data.decode("utf-8", "replace"), newline="")


READERS: tuple[Callable[[bytes], Iterator[Puzzle]], ...] = (
    lambda data: read_jsonl(io.BytesIO(data)),
    lambda data: read_csv(io.BytesIO(data)),
    lambda data: read_jsonl(_text(data)),
    lambda data: read_games(io.BytesIO(data)),
    lambda data: read_csv(_text(data)),
)


def first_illegal(puzzle: Puzzle) -> int | None:
    pos = puzzle.position()
    for ply, move in enumerate(puzzle.solution):
        if not pos.is_legal(move):
            return ply
        pos.push(move)
    return None


def check_puzzle(puzzle: Puzzle, from_records: bool) -> None:
    assert isinstance(puzzle, Puzzle)
    puzzle.position()
    if not from_records:
        line = json.dumps(
            {"fen": puzzle.fen, "moves": [str(m) for m in puzzle.solution], "plies": puzzle.plies}
        )
        (again,) = read_jsonl(io.StringIO(line))
        assert (again.fen, again.solution, again.plies) == (
            puzzle.fen,
            puzzle.solution,
            puzzle.plies,
        )
    stated = puzzle.plies if puzzle.plies is not None else len(puzzle.solution)
    if stated > MAX_VERIFY_PLIES:
        return
    illegal = first_illegal(puzzle)
    try:
        verdict = verify(puzzle, node_limit=NODE_LIMIT)
    except SearchLimitReached:
        return
    if illegal is not None:
        assert not verdict.ok, (puzzle, verdict)
        assert verdict.failed_at is None or verdict.failed_at <= illegal, (puzzle, verdict)
        if verdict.failed_at == illegal:
            assert f"move {illegal + 1} of the solution" in verdict.reason, verdict


def test_one_input(data: bytes) -> None:
    if not data:
        return
    kind = data[0] % len(READERS)
    puzzles = READERS[kind](data[1:MAX_LEN])
    try:
        for puzzle in itertools.islice(puzzles, MAX_PUZZLES):
            check_puzzle(puzzle, from_records=kind == 3)
    except PuzzleFileError as exc:
        text = str(exc)
        assert text, "an empty message"
        if kind == 3:
            assert exc.line is None
        else:
            assert exc.line is not None, text
            # a text file that fails to decode is named by the last line read before it
            assert f"line {exc.line}:" in text or f"after line {exc.line - 1}:" in text, text
    finally:
        close = getattr(puzzles, "close", None)
        if close is not None:
            close()


def main() -> None:
    _harness.run(test_one_input)


if __name__ == "__main__":
    main()
