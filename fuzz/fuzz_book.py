"""Coverage-guided fuzz target (atheris / libFuzzer): the opening-book readers, both formats.

The first input byte picks what the rest builds:

    0  the bytes as a file, whatever they are (``open_reader`` sniffs the format);
    1  an ElephantEye ``.dat`` of records made from the input: each record's lock is the
       ElephantEye key of one of the probed positions or of its mirror image (or a raw lock),
       its move and weight are input bytes; sorted by lock, or left as they come;
    2  the same ``.dat`` read through a pipe (``/dev/fd/N``, fed by a thread);
    3  a real book of the library's own (built once from a short game) with input bytes
       written over some of its bytes (the header, the schema, the rows);
    4  that book with one field of one row set to a value from the input through SQLite
       (a move's text, a count, a key, a FEN, a ``book`` row's value).

Then every probe is made on the start position, a few positions of the game and their
mirror images: ``find_all`` (with ``minimum_weight`` and ``exclude_moves``), ``find``,
``get``, ``choice``, ``weighted_choice`` (seeded), ``len``; then ``close()`` and one probe more.

Invariants: opening raises nothing but BookError (a file that is no book, or a damaged one;
OSError never: the file is there); every probe returns or raises BookError (a damaged row)
or IndexError (``find``/``choice`` with no entry); every entry's move is legal in the probed
position, its weight at least 1, its counts (SQLite) whole and within the weight; entries
come highest weight first; a .dat read through a pipe answers as the same bytes read from a
file; a probe after close() raises BookError. Any other outcome is a finding.

Run: scripts/fuzz.sh (FUZZ_TARGETS=book for this one), or by hand:
    python fuzz/fuzz_book.py build/fuzz/corpus_book fuzz/seeds_book -max_total_time=60
A single input (e.g. a crash file) is replayed by passing its path.

Seeds: fuzz/seeds_book/, replayed by tests/test_book_fuzz.py. ``bookdat_head_lgpl`` holds
the first 32 records (256 bytes) of ElephantEye's ``BOOK.DAT``, (c) the ElephantEye authors,
GNU LGPL 2.1 (the book and its licence: tests/data/books/).
"""

from __future__ import annotations

import os
import random
import sqlite3
import struct
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness

_harness.instrument(__name__, "xiangqi.book")

from xiangqi import Move, Position
from xiangqi.book import BookError, Entry, Reader, build, elephanteye_key, open_reader
from xiangqi.pgn import Game

GAME_MOVES = ("h2e2", "h9g7", "h0g2", "i9h9", "b2d2", "b9c7")


def _positions() -> list[Position]:
    pos = Position()
    out = [pos.copy()]
    for iccs in GAME_MOVES:
        pos.push(Move.from_iccs(iccs))
        out.append(pos.copy())
    out += [p.flip_horizontal() for p in out[1:]]
    return out


POSITIONS = _positions()
LOCKS = [elephanteye_key(p) for p in POSITIONS]


def _book_bytes() -> bytes:
    game = Game()
    for iccs in GAME_MOVES:
        game.add_move(Move.from_iccs(iccs))
    game.result = "1-0"
    with tempfile.TemporaryDirectory(prefix="xiangqi-fuzz-book-") as root:
        path = os.path.join(root, "seed.xqbook")
        build([game], path, plies=len(GAME_MOVES), mirror=True)
        with open(path, "rb") as handle:
            return handle.read()


BOOK = _book_bytes()
FIELDS = (
    ("moves", "move"),
    ("moves", "weight"),
    ("moves", "wins"),
    ("moves", "losses"),
    ("moves", "position"),
    ("positions", "key"),
    ("positions", "fen"),
    ("book", "value"),
)


def _dat(b: _harness.Bytes) -> bytes:
    records = []
    count = b.byte() % 40
    for _ in range(count):
        pick = b.byte()
        if pick < 224:
            lock = LOCKS[pick % len(LOCKS)]
        else:
            lock = int.from_bytes(b.chunk(5)[:4].ljust(4, b"\0"), "little")
        move = b.byte() | b.byte() << 8
        weight = b.byte() | b.byte() << 8
        records.append((lock, move, weight))
    if b.byte() & 7:
        records.sort(key=lambda r: r[0])
    return b"".join(struct.pack("<IHH", *r) for r in records)


def _value(b: _harness.Bytes) -> object:
    kind = b.byte() % 5
    raw = b.chunk(24)
    if kind == 0:
        return raw.decode("utf-8", "replace")
    if kind == 1:
        return raw  # a BLOB where text or a number belongs
    if kind == 2:
        return int.from_bytes(raw[:8].ljust(8, b"\0"), "little", signed=True)
    if kind == 3:
        return None
    return float(len(raw)) / 3


def _feed(fd: int, data: bytes) -> threading.Thread:
    def write() -> None:
        try:
            with open(fd, "wb") as out:
                out.write(data)
        except BrokenPipeError:
            pass

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def _open(path: str) -> Reader | None:
    try:
        return open_reader(path)
    except BookError:
        return None


def _check_entries(entries: list[Entry], pos: Position) -> None:
    weights = [e.weight for e in entries]
    assert weights == sorted(weights, reverse=True), weights
    for e in entries:
        assert pos.is_legal(e.move), (e, pos.fen())
        assert e.weight >= 1, e
        if e.wins is not None:
            assert e.draws is not None and e.losses is not None
            assert 0 <= e.wins + e.draws + e.losses <= e.weight, e


def _answers(reader: Reader) -> list[object]:
    """Every probe's answer (entries, or the error's type) on every position."""
    out: list[object] = []
    for pos in POSITIONS:
        try:
            entries = list(reader.find_all(pos))
        except BookError:
            out.append("BookError")
            continue
        _check_entries(entries, pos)
        out.append(entries)
        if entries:
            heavy = list(reader.find_all(pos, minimum_weight=entries[0].weight))
            assert heavy == [e for e in entries if e.weight >= entries[0].weight]
            rest = list(reader.find_all(pos, exclude_moves={entries[0].move}))
            assert rest == [e for e in entries if e.move != entries[0].move]
            assert reader.find(pos) == entries[0] == reader.get(pos)
            assert reader.choice(pos, random=random.Random(1)) in entries
            assert reader.weighted_choice(pos, random=random.Random(2)) in entries
        else:
            assert reader.get(pos) is None
    return out


def _probe(reader: Reader) -> list[object]:
    try:
        answers = _answers(reader)
        assert len(reader) >= 0
    except BookError:
        answers = ["BookError"]
    reader.close()
    try:
        reader.find_all(POSITIONS[0])
    except BookError:
        pass
    else:
        raise AssertionError("a probe after close() did not raise BookError")
    return answers


def test_one_input(data: bytes) -> None:
    b = _harness.Bytes(data)
    mode = b.byte() % 5
    with tempfile.TemporaryDirectory(prefix="xiangqi-fuzz-book-") as root:
        path = os.path.join(root, "book")
        if mode == 0:
            content = data[1:]
        elif mode in (1, 2):
            content = _dat(b)
        else:
            content = BOOK
        with open(path, "wb") as handle:
            handle.write(content)
        if mode == 3:
            with open(path, "r+b") as handle:
                for _ in range(b.byte() % 8 + 1):
                    at = (b.byte() << 8 | b.byte()) % len(content)
                    handle.seek(at)
                    handle.write(b.chunk(8) or b"\xff")
        elif mode == 4:
            table, column = FIELDS[b.byte() % len(FIELDS)]
            row = b.byte() % 4 + 1
            db = sqlite3.connect(path)
            try:
                db.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (_value(b), row))
                db.commit()
            except sqlite3.Error:
                pass  # a value the schema refuses: the book stays as built
            finally:
                db.close()
        reader = _open(path)
        answers = None if reader is None else _probe(reader)
        if mode == 2:
            read_end, write_end = os.pipe()
            writer = _feed(write_end, content)
            try:
                piped = _open(f"/dev/fd/{read_end}")
            finally:
                os.close(read_end)
                writer.join(10)
            assert (piped is None) == (reader is None), "a pipe and a file disagree"
            if piped is not None:
                assert _probe(piped) == answers, "a pipe and a file answer differently"


def main() -> None:
    _harness.run(test_one_input)


if __name__ == "__main__":
    main()
