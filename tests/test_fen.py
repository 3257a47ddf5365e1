"""FEN in and out: round trips, accepted variants, and every kind of rejection."""

from __future__ import annotations

import pytest
from conftest import make_fen

import xiangqi

ROUND_TRIP = [
    xiangqi.START_FEN,
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/4K4 b - - 12 40",
    "2bak4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
]


@pytest.mark.parametrize("fen", ROUND_TRIP)
def test_fen_round_trips(fen: str) -> None:
    assert xiangqi.Position(fen).fen() == fen


def test_start_position_is_the_default() -> None:
    assert xiangqi.Position().fen() == xiangqi.START_FEN
    assert (
        xiangqi.START_FEN == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    )


def test_piece_at_uses_public_squares() -> None:
    pos = xiangqi.Position()
    king = pos.piece_at(xiangqi.parse_square("e0"))  # type: ignore[arg-type]
    assert king == xiangqi.Piece(xiangqi.RED, xiangqi.PieceType.KING)
    assert pos.piece_at(xiangqi.square(7, 2)) == xiangqi.Piece(
        xiangqi.RED, xiangqi.PieceType.CANNON
    )
    assert pos.piece_at(xiangqi.square(0, 9)) == xiangqi.Piece(
        xiangqi.BLACK, xiangqi.PieceType.ROOK
    )
    assert pos.piece_at(40) is None
    assert pos.turn == xiangqi.RED


def test_side_letters_and_short_forms() -> None:
    board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
    assert xiangqi.Position(f"{board} r - - 0 1").fen() == xiangqi.START_FEN
    assert xiangqi.Position(f"{board} w").fen() == xiangqi.START_FEN
    assert xiangqi.Position(f"{board} w 0 1").fen() == xiangqi.START_FEN
    assert xiangqi.Position(f"{board} b").turn == xiangqi.BLACK


def test_blank_runs_tabs_and_counters_of_any_size_read_as_written() -> None:
    board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
    # Single spaces take a fast path; runs of blanks, tabs and line ends the general one.
    assert xiangqi.Position(f"  {board}\tw \r\n- -  7   12\n").fen() == f"{board} w - - 7 12"
    assert xiangqi.Position(f"{board} w - - 0 1 ").fen() == xiangqi.START_FEN
    # Small counters are looked up; large or zero-padded ones are parsed.
    assert xiangqi.Position(f"{board} b - - 999 1000").fen() == f"{board} b - - 999 1000"
    assert xiangqi.Position(f"{board} w - - 007 010").fen() == f"{board} w - - 7 10"
    assert (
        xiangqi.Position(f"{board} w - - 123456789 987654321")
        .fen()
        .endswith(" 123456789 987654321")
    )


def test_e_and_h_letters_are_read_as_elephant_and_horse() -> None:
    fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
    assert xiangqi.Position(fen).fen() == xiangqi.START_FEN


def test_helper_make_fen_agrees_with_parser() -> None:
    fen = make_fen({"e0": "K", "d9": "k", "c5": "P"})
    assert fen == "3k5/9/9/9/2P6/9/9/9/9/4K4 w - - 0 1"
    assert xiangqi.Position(fen).fen() == fen


BAD = [
    ("", "expected 6 fields"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w - - 0 1", "has 9 ranks, expected 10"),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w - - 0 1",
        "rank 0 has 10 files",
    ),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w - - 0 1", "rank 1 has 8 files"),
    # Ranks of 8 and 10 files add up to 90 points: each rank is counted, not only the total
    # (this board once loaded silently as 3k5/9/.../4K4).
    ("3k5/8/9/9/9/9/9/9/9/4K5 w", "rank 8 has 8 files, expected 9"),
    ("3k5/9/9/9/9/9/9/9/9/4K5 w", "rank 0 has 10 files, expected 9"),
    # Fields split by runs of blanks, tabs and line ends read as by single spaces.
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR \t w  - - 0", "got 5"),
    ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1000000000", "at most 9 digits"),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
        "unknown piece letter 'X'",
    ),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1", "side to move"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1", "castling"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -1 1", "halfmove clock"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0", "move number"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "halfmove clock"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1", "Red has no king"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w - - 0 1", "more than 1 king"),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/1R7/RNBAKABNR w - - 0 1",
        "more than 2 rooks",
    ),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "more than 5 pawns"),
]


@pytest.mark.parametrize("fen, message", BAD)
def test_bad_fen_is_rejected_with_a_reason(fen: str, message: str) -> None:
    with pytest.raises(xiangqi.InvalidFenError, match=message) as info:
        xiangqi.Position(fen)
    assert repr(fen) in str(info.value)


PLACEMENT = [
    ({"d3": "K"}, "Red king on d3 is outside its palace"),
    ({"c0": "K"}, "Red king on c0 is outside its palace"),
    ({"e8": "k", "d0": "K"}, None),  # legal: black king on e8 is inside its palace
    ({"e1": "A"}, None),
    ({"d1": "A"}, "Red advisor on d1"),
    ({"e5": "a"}, "Black advisor on e5"),
    ({"e2": "B"}, None),
    ({"d2": "B"}, "Red elephant on d2"),
    ({"c5": "B"}, "Red elephant on c5"),  # across the river
    ({"a7": "b"}, None),
    ({"a2": "b"}, "Black elephant on a2"),
    ({"a4": "P"}, None),
    ({"b4": "P"}, "Red pawn on b4"),
    ({"b5": "P"}, None),
    ({"a2": "P"}, "Red pawn on a2"),
    ({"i6": "p"}, None),
    ({"h5": "p"}, "Black pawn on h5"),
    ({"a7": "p"}, "Black pawn on a7"),
    ({"h4": "p"}, None),
]


@pytest.mark.parametrize("pieces, message", PLACEMENT)
def test_pieces_only_on_points_their_kind_can_reach(
    pieces: dict[str, str], message: str | None
) -> None:
    board = dict(pieces)
    if "K" not in board.values():
        board["e0"] = "K" if "e0" not in board else board["e0"]
    if "k" not in board.values():
        board["d9"] = "k"
    fen = make_fen(board)
    if message is None:
        assert xiangqi.Position(fen).fen() == fen
    else:
        with pytest.raises(xiangqi.InvalidFenError, match=message):
            xiangqi.Position(fen)


def test_kings_facing_is_rejected() -> None:
    with pytest.raises(xiangqi.InvalidFenError, match="kings face each other on file e"):
        xiangqi.Position(make_fen({"e0": "K", "e9": "k"}))


def test_side_not_to_move_in_check_is_rejected() -> None:
    fen = make_fen({"e0": "K", "d9": "k", "d5": "R"}, side="w")
    with pytest.raises(xiangqi.InvalidFenError, match="Black is in check but it is Red's move"):
        xiangqi.Position(fen)
    # The same board with Black to move is fine.
    assert xiangqi.Position(fen.replace(" w ", " b ")).is_check()


@pytest.mark.parametrize("value", [None, 42, b"fen", ["fen"]])
def test_non_string_fen_is_a_type_error(value: object) -> None:
    with pytest.raises(TypeError):
        xiangqi.Position(value)  # type: ignore[arg-type]


def test_errors_are_value_errors() -> None:
    for cls in (xiangqi.InvalidFenError, xiangqi.InvalidMoveError, xiangqi.IllegalMoveError):
        assert issubclass(cls, ValueError)
        assert issubclass(cls, xiangqi.XiangqiError)


def test_core_load_checks_only_what_keeps_it_memory_safe() -> None:
    # Kings facing, a king outside its palace and a missing king are placement errors
    # that xiangqi.fen reports; the raw core loads such boards (it stays in its arrays).
    from xiangqi import _core
    from xiangqi.fen import parse_fen

    for board, message in [
        ({"e0": "K", "e9": "k"}, "kings face each other"),
        ({"a0": "K", "d9": "k"}, "Red king on a0 is outside its palace"),
        ({"d9": "k"}, "Red has no king"),
    ]:
        fen = make_fen(board)
        with pytest.raises(xiangqi.InvalidFenError, match=message):
            xiangqi.Position(fen)
        core = _core.Board()
        core.load(parse_fen(fen).codes, 0)
        assert core.codes() == parse_fen(fen).codes
    # What would overflow the core's piece slots is refused by the core itself.
    codes = bytearray(90)
    codes[0:3] = bytes([5, 5, 5])  # three red rooks
    with pytest.raises(ValueError, match="more than 2 pieces of code 5"):
        _core.Board().load(bytes(codes), 0)
