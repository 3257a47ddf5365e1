"""Matches played from an opening book (xiangqi match --book, run_match(book=...)).

Expected values come from outside the runner: the moves ElephantEye's own lookup lists for
the start position (tests/data/books/README.md, the shared book README), the book the test
builds itself from one game it writes, and a real Fairy-Stockfish playing on from the book.
"""

from __future__ import annotations

import io
import json
import math
import os
from collections import Counter
from pathlib import Path

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

from xiangqi import Position
from xiangqi.__main__ import main
from xiangqi.book import BookError, build, open_reader
from xiangqi.errors import XiangqiError
from xiangqi.match import BookOpenings, EngineSpec, MatchPlan, prepare_match, run_match
from xiangqi.pgn import read_game

BOOK_DAT = Path(__file__).parent / "data" / "books" / "BOOK.DAT"
needs_fairy = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)

#: ElephantEye's own listing for the start position (weights), from the book's README.
ENGINE_START_LISTING = {
    "b2e2": 1473, "h2e2": 1473, "c3c4": 546, "g3g4": 546, "c0e2": 311, "g0e2": 311,
    "b0c2": 89, "h0g2": 89, "h2d2": 42, "b2f2": 42, "b2d2": 37, "h2f2": 37,
    "b0a2": 18, "h0i2": 18, "h2c2": 2, "b2g2": 2,
}  # fmt: skip


def fairy() -> EngineSpec:
    assert FAIRY is not None
    return EngineSpec((str(FAIRY),))


@pytest.mark.slow
def test_book_lines_are_seeded_per_round_and_repeatable() -> None:
    lines = [BookOpenings(BOOK_DAT, 6, seed=5).opening(k).moves for k in range(20)]
    again = BookOpenings(BOOK_DAT, 6, seed=5)
    assert [again.opening(k).moves for k in reversed(range(20))] == lines[::-1]
    other = [BookOpenings(BOOK_DAT, 6, seed=6).opening(k).moves for k in range(20)]
    assert other != lines
    assert all(1 <= len(line) <= 6 for line in lines)


@pytest.mark.slow
def test_first_book_moves_follow_the_engines_weights() -> None:
    source = BookOpenings(BOOK_DAT, 1, seed=11)
    rounds = 2000
    counts = Counter(source.opening(k).moves[0].iccs() for k in range(rounds))
    assert set(counts) <= set(ENGINE_START_LISTING)
    total = sum(ENGINE_START_LISTING.values())
    for move, weight in ENGINE_START_LISTING.items():
        p = weight / total
        sigma = math.sqrt(rounds * p * (1 - p))
        assert abs(counts[move] - rounds * p) <= 5 * sigma + 1, (move, counts[move])


def test_a_book_line_stops_where_the_book_has_no_move(tmp_path: Path) -> None:
    pgn = tmp_path / "one.pgn"
    pgn.write_text('[Result "1-0"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n', encoding="utf-8")
    book = tmp_path / "one.book"
    build([pgn], book, plies=2)
    source = BookOpenings(book, 8, seed=1)
    assert [m.iccs() for m in source.opening(0).moves] == ["h2e2", "h9g7"]
    assert [m.iccs() for m in source.opening(7).moves] == ["h2e2", "h9g7"]


@pytest.mark.slow
@needs_fairy
def test_a_match_plays_its_openings_from_the_book_then_the_engines_take_over() -> None:
    out = io.StringIO()
    result = run_match(
        [fairy(), fairy()],
        rounds=2,
        tc="depth=1",
        book=BOOK_DAT,
        book_plies=4,
        seed=3,
        max_plies=12,
        pgn_out=out,
    )
    text = out.getvalue()
    games = []
    handle = io.StringIO(text)
    while (game := read_game(handle)) is not None:
        games.append(game)
    assert len(games) == 4 == len(result.records)
    lines = []
    with open_reader(BOOK_DAT) as reader:
        for game in games:
            nodes = list(game.mainline())
            ends = [k for k, node in enumerate(nodes) if "end of opening" in node.comment]
            assert len(ends) == 1 and ends[0] < 4 < len(nodes)  # the engines played on
            book_moves = [node.move for node in nodes[: ends[0] + 1]]
            pos = Position()
            for move in book_moves:
                assert move in {entry.move for entry in reader.find_all(pos)}
                pos.push(move)
            if len(book_moves) < 4:  # the line stopped where the book has no move
                assert not list(reader.find_all(pos))
            lines.append(book_moves)
    # the two games of a pair share the line, colours reversed
    assert lines[0] == lines[1] and lines[2] == lines[3]
    assert games[0].headers["Red"] == games[1].headers["Black"]


@pytest.mark.slow
def test_the_book_is_kept_for_a_resume(tmp_path: Path) -> None:
    plan = prepare_match(["cmd=/bin/true", "cmd=/bin/true"], rounds=5, book=BOOK_DAT, book_plies=3)
    settings = json.loads(json.dumps(plan.settings()))
    assert settings["book"]["file"] == os.path.abspath(BOOK_DAT)
    assert isinstance(settings["book"]["seed"], int)  # drawn and kept when not given
    again = MatchPlan.from_settings(settings)
    assert [again.openings.opening(k) for k in range(5)] == [
        plan.openings.opening(k) for k in range(5)
    ]
    assert os.path.abspath(BOOK_DAT) in plan.inputs()


def test_bad_book_settings_are_refused_before_anything_starts(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a book\n", encoding="utf-8")
    with pytest.raises(BookError, match="notes.txt"):
        prepare_match(["cmd=/bin/true", "cmd=/bin/true"], book=text)
    with pytest.raises(XiangqiError, match="not both"):
        prepare_match(["cmd=/bin/true", "cmd=/bin/true"], book=BOOK_DAT, openings=[Position()])
    with pytest.raises(XiangqiError, match="needs a book"):
        prepare_match(["cmd=/bin/true", "cmd=/bin/true"], book_plies=4)
    with pytest.raises(ValueError, match="book.plies"):
        prepare_match(["cmd=/bin/true", "cmd=/bin/true"], book=BOOK_DAT, book_plies=0)


def test_the_command_refuses_a_file_that_is_no_book(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    text = tmp_path / "notes.txt"
    text.write_text("not a book\n", encoding="utf-8")
    pgn = tmp_path / "out.pgn"
    code = main(
        ["match", "--engine", "cmd=/bin/true", "--engine", "cmd=/bin/true",
         "--book", str(text), "--pgn", str(pgn)]
    )  # fmt: skip
    assert code != 0
    assert "notes.txt" in capsys.readouterr().err
    assert not pgn.exists()
