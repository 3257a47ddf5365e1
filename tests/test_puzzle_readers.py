"""The puzzle readers (xiangqi.puzzles: read_jsonl, read_csv, read_games, read_puzzles) and
verify's replay of a whole solution: nothing in a file is silently replaced or dropped,
and whatever is wrong with a line or a game is a PuzzleFileError (a XiangqiError) naming
the file and the line or game.

Expected values come from outside the readers: the xiangqibench suite's stated lengths
(tests/data/xiangqibench, verified by Pikafish according to the suite), the JSON, CSV
and UTF-8 definitions (what a line holds), and hand-checked moves.
"""

from __future__ import annotations

import gc
import io
import json
import sys
import warnings
from pathlib import Path

import pytest

from xiangqi import InvalidFenError, Move, XiangqiError
from xiangqi.puzzles import (
    Puzzle,
    PuzzleFileError,
    read_csv,
    read_games,
    read_jsonl,
    read_puzzles,
    verify,
)

DATA = Path(__file__).parent / "data"
CASES = {
    case["id"]: case
    for case in map(
        json.loads, (DATA / "xiangqibench" / "cases.jsonl").read_text("utf-8").splitlines()
    )
}
#: A composition (綠皮作品3): Black's pawns on f9 and f1 stand behind their start rank.
#: The suite states a mate in 3 plies beginning g5g9.
COMPOSITION = CASES["xq_jianghu_endgames_084"]
#: Red mates in one only with a7a9 (hand-checked in tests/test_mate.py).
ROOK_MATE = "4k4/7R1/R8/9/9/9/9/9/9/3K5 w - - 0 1"


def moves(text: str) -> tuple[Move, ...]:
    return tuple(Move.from_iccs(word) for word in text.split())


# -- game records -----------------------------------------------------------------------


def test_a_composition_in_a_pgn_file_is_never_read_as_the_start_position(tmp_path: Path) -> None:
    # The PGN reader refuses the FEN tag (a pawn behind its start rank) and records the
    # error; the puzzle is neither the usual start nor a puzzle without its solution.
    path = tmp_path / "compositions.pgn"
    path.write_text(
        f'[Event "綠皮作品3"]\n[FEN "{COMPOSITION["fen"]}"]\n\n1. g5g9 f9f8 2. h5h9 1-0\n',
        encoding="utf-8",
    )
    for reader in (read_games, read_puzzles):
        with pytest.raises(PuzzleFileError, match=r"compositions\.pgn game 1: .*FEN") as caught:
            list(reader(path))
        assert caught.value.game == 1 and caught.value.source == str(path)


def test_the_same_composition_reads_and_verifies_from_json_lines() -> None:
    record = {"fen": COMPOSITION["fen"], "moves": "g5g9 f9f8 h5h9", "goal": "mate in 2"}
    (puzzle,) = read_jsonl(io.StringIO(json.dumps(record) + "\n"))
    assert puzzle.fen == COMPOSITION["fen"] and puzzle.plies == COMPOSITION["win_in_plies"]
    assert verify(puzzle).ok


def test_a_game_whose_main_line_was_cut_short_is_refused(tmp_path: Path) -> None:
    # b0b1 moves from an empty square: the reader keeps the two moves before it and records
    # an error. A two-move "solution" would be a silent drop.
    path = tmp_path / "cut.pgn"
    path.write_text(
        f'[FEN "{ROOK_MATE}"]\n\n1. h8h7 e9f9 2. b0b1 *\n\n[FEN "{ROOK_MATE}"]\n\n1. a7a9 1-0\n',
        encoding="utf-8",
    )
    with pytest.raises(PuzzleFileError, match=r"cut\.pgn game 1: not read as written"):
        list(read_games(path))


def test_a_record_file_the_reader_refuses_names_the_file_and_game(tmp_path: Path) -> None:
    path = tmp_path / "broken.xqf"
    path.write_bytes(b"XQ\x0a" + b"\xff" * 1021)  # an XQF header whose board is garbage
    with pytest.raises(PuzzleFileError, match=r"broken\.xqf game 1: ") as caught:
        list(read_games(path))
    assert isinstance(caught.value.__cause__, XiangqiError)


def test_read_games_closes_the_file_it_stopped_in(tmp_path: Path) -> None:
    path = tmp_path / "cut.pgn"
    path.write_text(f'[FEN "{ROOK_MATE}"]\n\n1. b0b1 *\n', encoding="utf-8")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with pytest.raises(PuzzleFileError):
            list(read_games(path))
        gc.collect()
    assert not [w for w in seen if issubclass(w.category, ResourceWarning)]


# -- every line error names its line ----------------------------------------------------


def jsonl(*records: object) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


GOOD = {"fen": ROOK_MATE, "moves": "a7a9", "plies": 1}


@pytest.mark.parametrize(
    ("bad_line", "match"),
    [
        # JSON nested deeper than the interpreter's recursion limit (was RecursionError)
        ('{"fen": ' + "[" * (sys.getrecursionlimit() * 2) + "\n", "line 2: "),
        ("[1, 2]\n", "line 2: expected a JSON object, got list"),
        ('{"fen": "not a fen"}\n', "line 2: expected 6 fields"),  # was read, refused only by verify
        (f'{{"fen": "{ROOK_MATE}", "FEN": "{ROOK_MATE}"}}\n', "line 2: the key 'fen'"),
        (f'{{"fen": "{ROOK_MATE}", "fen": "9/9"}}\n', "line 2: the key 'fen' is given twice"),
        (json.dumps({**GOOD, "goal": "mate in 2"}) + "\n", "line 2: the stated lengths disagree"),
        (json.dumps({**GOOD, "solution": "a7a8"}) + "\n", "line 2: .*different lines"),
        (
            json.dumps({**GOOD, "first_winning_move": "a7a8"}) + "\n",
            "line 2: first_winning_move a7a8 is not the solution's first move a7a9",
        ),
    ],
)
def test_a_bad_json_line_is_a_puzzle_file_error_naming_it(bad_line: str, match: str) -> None:
    text = jsonl(GOOD) + bad_line + jsonl(GOOD)
    read = read_jsonl(io.StringIO(text))
    assert next(read).solution == moves("a7a9")  # the line before it was read
    with pytest.raises(PuzzleFileError, match=match) as caught:
        next(read)
    assert caught.value.line == 2 and isinstance(caught.value, XiangqiError)


def test_bytes_that_are_not_utf8_are_named_by_line(tmp_path: Path) -> None:
    # 0xff never occurs in UTF-8 (was UnicodeDecodeError, with no line).
    path = tmp_path / "puzzles.jsonl"
    good = jsonl(GOOD).encode()
    path.write_bytes(good * 2 + b'{"fen": "\xff"}\n' + good)
    with pytest.raises(PuzzleFileError, match=r"puzzles\.jsonl line 3: not UTF-8") as caught:
        list(read_jsonl(path))
    assert caught.value.line == 3
    csv_path = tmp_path / "puzzles.csv"
    csv_path.write_bytes(b"fen,moves\n" + f"{ROOK_MATE},a7a9\n".encode() + b"\xc3(,x\n")
    with pytest.raises(PuzzleFileError, match=r"puzzles\.csv line 3: not UTF-8"):
        list(read_csv(csv_path))


def test_a_text_file_that_cannot_decode_is_a_puzzle_file_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.jsonl"
    path.write_bytes(jsonl(GOOD).encode() + b'{"fen": "\xe9"}\n')
    with path.open(encoding="utf-8") as handle:
        with pytest.raises(PuzzleFileError, match=r"latin\.jsonl after line \d+: not readable"):
            list(read_jsonl(handle))


def test_a_binary_file_is_read_as_utf8(tmp_path: Path) -> None:
    # A BOM, \r\n and lone \r line ends (the JSON Lines and CSV texts as Windows and old
    # Macs write them).
    data = b"\xef\xbb\xbf" + jsonl(GOOD).encode().replace(b"\n", b"\r\n") + jsonl(GOOD).encode()
    assert [p.solution for p in read_jsonl(io.BytesIO(data.replace(b"\n", b"\r")))] == [
        moves("a7a9")
    ] * 2
    text = f"\ufeffid,fen,moves\r\nm1,{ROOK_MATE},a7a9\rm2,{ROOK_MATE},a7a9\n"
    assert [p.name for p in read_csv(io.BytesIO(text.encode()))] == ["m1", "m2"]


def test_a_csv_field_over_the_csv_limit_names_its_line() -> None:
    # csv's field_size_limit (131072 characters by default) raised _csv.Error unnamed.
    text = f"fen,moves\n{ROOK_MATE},a7a9\n{ROOK_MATE},{'a' * 200_000}\n"
    with pytest.raises(PuzzleFileError, match="CSV line 3: field larger than field limit"):
        list(read_csv(io.StringIO(text)))


@pytest.mark.parametrize(
    ("text", "match"),
    [
        # cells past the header's columns were dropped by zip()
        (f"fen,moves\n{ROOK_MATE},a7a9,1\n", "line 2: the row has 3 cells, the header names 2"),
        # no header: two columns; a third (the length?) was dropped
        (f"{ROOK_MATE},a7a9,1\n", "line 1: the row has 3 cells, the header names 2"),
        # a column named twice kept only the last
        (f"fen,moves,Moves\n{ROOK_MATE},a7a9,a7a8\n", "line 1: the header names moves twice"),
        (f"fen,moves\n{ROOK_MATE},a7a9\nnot a fen,a7a9\n", "line 3: expected 6 fields"),
        # a quote never closed swallowed the rest of the file into one cell
        (f'fen,moves\n{ROOK_MATE},"a7a9\n{ROOK_MATE},a7a9\n', "line 3: unexpected end of data"),
        (f'fen,moves\n{ROOK_MATE},"a7a9"x\n', "line 2: ',' expected after"),
    ],
)
def test_a_bad_csv_row_is_a_puzzle_file_error_naming_it(text: str, match: str) -> None:
    with pytest.raises(PuzzleFileError, match=match):
        list(read_csv(io.StringIO(text)))


def test_a_csv_row_with_empty_trailing_cells_reads() -> None:
    (puzzle,) = read_csv(io.StringIO(f"fen,moves\n{ROOK_MATE},a7a9,,\n"))
    assert puzzle.solution == moves("a7a9")


def test_a_puzzle_with_a_bad_fen_is_refused_when_made() -> None:
    with pytest.raises(InvalidFenError):
        Puzzle("rnbakabnr/9")


def test_read_puzzles_refuses_a_bytes_path() -> None:
    with pytest.raises(TypeError, match="str path"):
        read_puzzles(b"puzzles.jsonl")  # type: ignore[arg-type]


# -- verify replays the whole solution ------------------------------------------------


def test_verify_fails_an_illegal_move_past_the_stated_length() -> None:
    # a7a9 mates (the stated one ply); b0b1 after it moves from an empty square.
    verdict = verify(Puzzle(ROOK_MATE, moves("a7a9 b0b1"), plies=1))
    assert not verdict and verdict.failed_at == 1
    assert "move 2 of the solution" in verdict.reason and "b0b1" in verdict.reason


def test_verify_names_an_illegal_move_before_judging_the_length() -> None:
    # Stated too long (a shorter mate exists), and its third move is illegal: the illegal
    # move is what verify names (a0 is empty; the suite's mate is 3 plies).
    fen = COMPOSITION["fen"]
    verdict = verify(Puzzle(fen, moves("g5g9 f9f8 a0a1"), plies=5))
    assert not verdict and verdict.failed_at == 2 and "a0a1" in verdict.reason


# -- passes, odd headers, bad arguments and files (an outside review's findings) --------

#: Red's mate in 3 plies of docs/mates.md: e4c3 d9d8 h6d6.
MATE_IN_3 = "3k5/8P/9/7R1/9/4H4/9/9/6p2/4KA3 w - - 0 1"


@pytest.mark.parametrize(("line", "at"), [("e4c3 0000 h6d6", 1), ("0000 d9d8 h6d6", 0)])
def test_verify_fails_a_pass_in_the_solution(line: str, at: int) -> None:
    # A pass (the null move 0000) is no move of a puzzle's solution, the defender's neither.
    verdict = verify(Puzzle(MATE_IN_3, moves(line), plies=3))
    assert not verdict and verdict.failed_at == at
    assert "pass" in verdict.reason


def test_a_pass_in_a_puzzle_file_is_refused_naming_the_line(tmp_path: Path) -> None:
    record = {"fen": MATE_IN_3, "moves": "e4c3 0000 h6d6", "plies": 3}
    with pytest.raises(PuzzleFileError, match="line 2: move 2 of the solution is a pass"):
        list(read_jsonl(io.StringIO(jsonl(GOOD, record))))
    with pytest.raises(PuzzleFileError, match="line 2: move 2 of the solution is a pass"):
        list(read_jsonl(io.StringIO(jsonl(GOOD, {**record, "moves": ["e4c3", "0000"]}))))
    with pytest.raises(PuzzleFileError, match="line 2: "):  # '--' is no ICCS move at all
        list(read_csv(io.StringIO(f"fen,moves\n{MATE_IN_3},e4c3 -- h6d6\n")))
    with pytest.raises(PuzzleFileError, match="line 3: move 2 of the solution is a pass"):
        list(read_csv(io.StringIO(f"fen,moves\n{ROOK_MATE},a7a9\n{MATE_IN_3},e4c3 0000\n")))
    pgn = tmp_path / "passes.pgn"
    pgn.write_text('[Event "x"]\n[Result "*"]\n\n1. h2e2 -- 2. e2e6 *\n', encoding="utf-8")
    with pytest.raises(PuzzleFileError, match=r"passes\.pgn game 1: move 2 .* a pass"):
        list(read_games(pgn))


def test_a_wide_csv_header_is_checked_in_linear_time() -> None:
    import time

    # 10,000 columns: counting each name in the whole header took about 5 s.
    header = "fen,moves," + ",".join(f"c{i}" for i in range(10_000))
    start = time.perf_counter()
    (puzzle,) = read_csv(io.StringIO(f"{header}\n{ROOK_MATE},a7a9\n"))
    assert time.perf_counter() - start < 1.5
    assert puzzle.solution == moves("a7a9")
    with pytest.raises(PuzzleFileError, match="names c9999 twice"):
        list(read_csv(io.StringIO(f"{header},C9999\n{ROOK_MATE},a7a9\n")))


def test_a_cell_under_an_unnamed_column_is_refused() -> None:
    with pytest.raises(PuzzleFileError, match=r"line 2: cell 2 \('a7a9'\) is under a column"):
        list(read_csv(io.StringIO(f"fen,,moves,\n{ROOK_MATE},a7a9,,\n")))
    (puzzle,) = read_csv(io.StringIO(f"fen,,moves,\n{ROOK_MATE},,a7a9,\n"))  # empty: read
    assert puzzle.solution == moves("a7a9")


def test_a_puzzle_keeps_its_solution_as_a_tuple() -> None:
    line = moves("e4c3 d9d8 h6d6")
    from_generator = Puzzle(MATE_IN_3, (move for move in line), plies=3)
    assert from_generator.solution == line  # a generator was consumed by the type check
    from_list = Puzzle(MATE_IN_3, list(line), plies=3)
    assert from_list.solution == line and hash(from_list) == hash(Puzzle(MATE_IN_3, line, 3))
    assert verify(from_generator)
    with pytest.raises(TypeError, match="solution"):
        Puzzle(MATE_IN_3, "e4c3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"solution\[1\] must be a Move"):
        Puzzle(MATE_IN_3, [line[0], "e9d9"])  # type: ignore[list-item]


@pytest.mark.parametrize("source", [None, 5, b"x"])
def test_read_games_refuses_a_source_that_is_no_path_or_file(source: object) -> None:
    with pytest.raises(TypeError, match="source"):
        list(read_games(source))  # type: ignore[arg-type]


def test_a_goal_takes_ascii_digits_and_at_least_one_move() -> None:
    arabic_one = "\u0661"  # ARABIC-INDIC DIGIT ONE: a digit to str.isdigit(), not to JSON
    for key, value in (("goal", f"mate in {arabic_one}"), ("plies", arabic_one)):
        with pytest.raises(PuzzleFileError, match=key):
            list(read_jsonl(io.StringIO(jsonl({"fen": ROOK_MATE, key: value}))))
    with pytest.raises(PuzzleFileError, match="'mate in 0' is refused") as caught:
        list(read_jsonl(io.StringIO(jsonl({"fen": ROOK_MATE, "goal": "mate in 0"}))))
    assert "-1" not in str(caught.value)


@pytest.mark.parametrize("reader", [read_jsonl, read_csv, read_games])
def test_a_missing_file_or_a_folder_is_a_puzzle_file_error(reader: object, tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    with pytest.raises(PuzzleFileError, match=r"missing\.jsonl") as caught:
        list(reader(missing))  # type: ignore[operator]
    assert isinstance(caught.value, FileNotFoundError)  # still caught as before
    with pytest.raises(FileNotFoundError):
        list(reader(missing))  # type: ignore[operator]
    with pytest.raises(PuzzleFileError, match=str(tmp_path.name)) as caught:
        list(reader(tmp_path))  # type: ignore[operator]
    assert not isinstance(caught.value, FileNotFoundError)
