"""python-chess's names on Position: parse_uci, push_uci, uci, san_and_push, variation_san.

Expected values come from python-chess itself (the installed ``chess`` package) where the two
games coincide (which error for which text, the null move, the move-number format of
variation_san), from Fairy-Stockfish (pyffish) for the SAN words, and from hand-written ICCS.
"""

from __future__ import annotations

import re

import chess
import pytest

from xiangqi import Move, Position
from xiangqi.errors import IllegalMoveError, InvalidMoveError

pyffish = pytest.importorskip("pyffish")

MIDGAME = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R b - - 4 37"


def _state(pos: Position) -> tuple[str, list[Move]]:
    return pos.fen(), pos.move_stack


def _ranks1(iccs: str) -> str:
    """'h2e2' (ICCS ranks 0..9) -> 'h3e3' (pyffish's ranks 1..10)."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def _skeleton(line: str) -> str:
    """The move-number structure of a SAN line: every SAN word replaced by 'X'."""
    return re.sub(r"(^|(?<=\s)|(?<=\.\.\.))(?!\d+\.)\S+", "X", line)


def test_skeleton_helper_keeps_numbers_only() -> None:
    assert _skeleton("1. e4 e5 2. Nf3") == "1. X X 2. X"
    assert _skeleton("37...Bg6 38. fxg6") == "37...X 38. X"


# -- parse_uci / push_uci: python-chess's behaviour on the same kinds of text ----------------


@pytest.mark.parametrize(
    ("chess_text", "xiangqi_text", "error"),
    [
        ("e2e4", "h2e2", None),  # legal
        ("e2e5", "h2e3", IllegalMoveError),  # well formed, not legal here
        ("E2E4", "H2E2", InvalidMoveError),  # UCI is lower case
        ("e2", "h2", InvalidMoveError),
        ("", "", InvalidMoveError),
        ("e2e4 ", "h2e2 ", InvalidMoveError),
    ],
)
def test_parse_uci_raises_what_python_chess_raises(
    chess_text: str, xiangqi_text: str, error: type[Exception] | None
) -> None:
    board = chess.Board()
    pos = Position()
    before = _state(pos)
    if error is None:
        assert board.parse_uci(chess_text) == chess.Move.from_uci(chess_text)
        assert pos.parse_uci(xiangqi_text) == Move.from_iccs("h2e2")
    else:
        python_chess_error = getattr(chess, error.__name__)
        with pytest.raises(python_chess_error):
            board.parse_uci(chess_text)
        with pytest.raises(error):
            pos.parse_uci(xiangqi_text)
        with pytest.raises(error):
            pos.push_uci(xiangqi_text)
    assert _state(pos) == before


def test_parse_uci_error_names_the_text_and_the_position() -> None:
    pos = Position()
    with pytest.raises(IllegalMoveError, match=r"h2e3.*cannon.*rnbakabnr"):
        pos.parse_uci("h2e3")


def test_parse_uci_returns_the_null_move_unchecked_as_python_chess_does() -> None:
    assert not chess.Board().parse_uci("0000")
    assert Position().parse_uci("0000") == Move.null()


def test_push_uci_plays_and_returns_the_move() -> None:
    pos = Position()
    assert pos.push_uci("h2e2") == Move.from_iccs("h2e2")
    assert pos.push_uci("h9g7") == Move.from_iccs("h9g7")
    assert pos.move_stack == [Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]
    expected = Position()
    expected.push_iccs("h2e2")
    expected.push_iccs("h9g7")
    assert pos == expected


def test_push_uci_null_move_in_check_is_refused_and_changes_nothing() -> None:
    pos = Position("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")  # Black in check from the rook
    before = _state(pos)
    with pytest.raises(IllegalMoveError):
        pos.push_uci("0000")
    assert _state(pos) == before


def test_parse_uci_refuses_a_non_str() -> None:
    with pytest.raises(TypeError):
        Position().parse_uci(b"h2e2")  # type: ignore[arg-type]


# -- uci / san_and_push -------------------------------------------------------------------------


def test_uci_writes_iccs() -> None:
    assert Position().uci(Move.from_iccs("h0g2")) == "h0g2"
    assert Position().uci(Move.null()) == "0000" == chess.Board().uci(chess.Move.null())
    with pytest.raises(TypeError):
        Position().uci("h0g2")  # type: ignore[arg-type]


def test_san_and_push_gives_fairy_stockfish_san_and_plays() -> None:
    pos = Position()
    start = pos.fen()
    assert pos.san_and_push(Move.from_iccs("h2e2")) == pyffish.get_san(
        "xiangqi", start, _ranks1("h2e2")
    )
    assert pos.move_stack == [Move.from_iccs("h2e2")]
    before = _state(pos)
    with pytest.raises(IllegalMoveError):
        pos.san_and_push(Move.from_iccs("a0a1"))  # a Red rook, but Black is to move
    assert _state(pos) == before


# -- variation_san -------------------------------------------------------------------------------

LINES = [
    # (xiangqi FEN, ICCS line, python-chess FEN: same side to move and move number, UCI line)
    (Position().fen(), ["h2e2", "h9g7", "h0g2"], chess.STARTING_FEN, ["e2e4", "e7e5", "g1f3"]),
    (
        Position().fen(),
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"],
        chess.STARTING_FEN,
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"],
    ),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        ["h9g7", "h0g2", "i9h9"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ["e7e5", "g1f3", "b8c6"],
    ),
    (
        MIDGAME,
        ["i9i8", "i0i1"],
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 37",
        ["f8e7", "e1g1"],
    ),
    (
        MIDGAME,
        ["i9i8"],
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b - - 4 37",
        ["a7a6"],
    ),
    (Position().fen(), [], chess.STARTING_FEN, []),
]


@pytest.mark.parametrize(("fen", "line", "chess_fen", "chess_line"), LINES)
def test_variation_san_numbers_moves_as_python_chess_does(
    fen: str, line: list[str], chess_fen: str, chess_line: list[str]
) -> None:
    board = chess.Board(chess_fen)
    expected_shape = _skeleton(board.variation_san([chess.Move.from_uci(m) for m in chess_line]))
    pos = Position(fen)
    before = _state(pos)
    text = pos.variation_san([Move.from_iccs(m) for m in line])
    assert _skeleton(text) == expected_shape
    words = pyffish.get_san_moves("xiangqi", fen, [_ranks1(m) for m in line])
    assert [w for w in re.split(r"\s+|\.\.\.", text) if w and not w[0].isdigit()] == words
    assert _state(pos) == before


def test_variation_san_hand_written() -> None:
    pos = Position()
    line = [Move.from_iccs(m) for m in ("h2e2", "h9g7", "h0g2")]
    assert pos.variation_san(line) == "1. Che3 Hg8 2. Hg3"
    pos.push(line[0])
    assert pos.variation_san(line[1:]) == "1...Hg8 2. Hg3"


def test_variation_san_illegal_move_names_it_and_changes_nothing() -> None:
    pos = Position()
    pos.push_iccs("h2e2")
    before = _state(pos)
    with pytest.raises(IllegalMoveError, match="h0g2"):
        pos.variation_san([Move.from_iccs(m) for m in ("h9g7", "h0g2", "h0g2")])
    with pytest.raises(IllegalMoveError):
        pos.variation_san([Move.from_iccs("h9g7"), Move.from_iccs("h0h9")])
    with pytest.raises(TypeError):
        pos.variation_san(["h9g7"])  # type: ignore[list-item]
    assert _state(pos) == before
