"""What a python-chess user reaches for: views, edits, symmetries, copies, errors.

Expected values come from outside the code under test: FEN text rewritten by string
operations here, published counts (44 moves, perft 3 = 79,666), the rules' own
symmetries, or the documented error contract.
"""

from __future__ import annotations

import copy
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import xiangqi
from xiangqi import (
    BLACK,
    RED,
    Color,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Piece,
    PieceType,
    Position,
    XiangqiError,
)

MIDDLEGAME = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"


# -- legal_moves: a callable view ------------------------------------------------------------


def test_legal_moves_is_a_view_and_still_callable() -> None:
    pos = Position()
    assert len(list(pos.legal_moves)) == 44  # the published count for the start position
    assert len(pos.legal_moves) == 44 and pos.legal_moves.count() == 44
    assert sorted(map(str, pos.legal_moves())) == sorted(map(str, pos.legal_moves))
    assert Move.from_iccs("h2e2") in pos.legal_moves
    assert Move.from_iccs("h2h8") not in pos.legal_moves
    assert "h2e2" not in pos.legal_moves  # not a Move: never "in", never an error
    view = pos.legal_moves
    pos.push(Move.from_iccs("h2e2"))
    assert Move.from_iccs("h9g7") in view and Move.from_iccs("h2e2") not in view  # stays current
    assert bool(view)
    assert "h9g7" in repr(view)


def test_legal_moves_view_follows_edits_and_copies() -> None:
    pos = Position()
    view = pos.legal_moves
    assert pos.legal_moves is view  # one view per Position, not one per access
    other = pos.copy()
    pos.clear()  # kings e0 and d9: Red's king may go to e1 or f0; d0 would face d9
    assert sorted(map(str, view)) == ["e0e1", "e0f0"] and len(view) == 2
    assert pos.legal_moves is view
    assert len(other.legal_moves) == 44 and other.legal_moves is not view  # the copy's own
    pos.set_piece_at(xiangqi.parse_square("a0"), xiangqi.Piece.from_symbol("R"))
    # the rook: b0, c0, d0 along rank 0 (its own king on e0 stops it), a1..a9 up its file
    assert Move.from_iccs("a0a9") in view and len(view) == 2 + 3 + 9
    with pytest.raises(AttributeError):
        pos.legal_moves = view  # type: ignore[misc]


def test_legal_moves_of_a_lost_position_is_empty_and_falsy() -> None:
    pos = Position("3k5/4R4/3R5/9/9/9/9/9/9/5K3 b - - 0 1")  # checkmated (rook d7, rook e8)
    assert not pos.legal_moves and list(pos.legal_moves) == [] and pos.is_checkmate()


# -- notation shortcuts ------------------------------------------------------------------------


def test_push_wxf_chinese_and_one_iccs_parser() -> None:
    pos = Position()
    assert pos.push_wxf("C2.5") == Move.from_iccs("h2e2")
    assert pos.push_chinese("马８进７") == Move.from_iccs("h9g7")
    assert pos.parse_iccs("H0-G2") == Move.from_iccs("h0g2")  # dashed, upper case
    assert pos.parse_iccs("h0g2") == Move.from_iccs("h0g2")
    assert pos.push_iccs("H0-G2") == Move.from_iccs("h0g2")
    with pytest.raises(IllegalMoveError, match="h2h3"):
        pos.parse_iccs("h2h3")  # no piece on h2 any more
    with pytest.raises(InvalidMoveError):
        pos.parse_iccs("h2-h")


# -- the newcomer's stumbles -------------------------------------------------------------------


def test_print_turn_names_the_side() -> None:
    pos = Position()
    pos.push(Move.from_iccs("h2e2"))
    assert str(pos.turn) == "Color.BLACK" and f"{pos.turn!s}" == "Color.BLACK"
    assert str(PieceType.HORSE) == "PieceType.HORSE"


def test_divide_is_in_iccs_order() -> None:
    counts = Position().divide(2)
    assert list(counts) == sorted(counts, key=str)
    assert next(iter(counts.items())) == (Move.from_iccs("a0a1"), 44)


def test_square_names_and_numbers_are_checked() -> None:
    assert xiangqi.square_name(0) == "a0" and xiangqi.square_name(89) == "i9"
    for bad in (90, 95, -1, -90):
        with pytest.raises(ValueError, match="0..89"):
            xiangqi.square_name(bad)
    with pytest.raises(TypeError):
        xiangqi.square_name("e0")  # type: ignore[arg-type]
    assert xiangqi.parse_square("e0") == 4
    for bad in ("", "e10", "j0", "E0", "e", "ｅ0", "e٣", " e0"):
        with pytest.raises(ValueError, match="square name"):
            xiangqi.parse_square(bad)
    with pytest.raises(TypeError):
        xiangqi.parse_square(4)  # type: ignore[arg-type]


def test_start_fen_has_one_name() -> None:
    # START_FEN (xiangqi.fen) is the one name; the STARTING_FEN alias was removed before 0.1.0.
    assert xiangqi.START_FEN == Position().fen()
    assert not hasattr(xiangqi, "STARTING_FEN") and "STARTING_FEN" not in xiangqi.__all__


def test_counters_have_docstrings_and_checked_setters() -> None:
    assert "capture" in (Position.halfmove_clock.__doc__ or "")
    assert "move number" in (Position.fullmove_number.__doc__ or "")
    pos = Position()
    pos.fullmove_number = 7
    pos.halfmove_clock = 3
    assert pos.fen().endswith(" 3 7")
    for name, value, error in [
        ("fullmove_number", 0, ValueError),
        ("halfmove_clock", -1, ValueError),
        ("fullmove_number", "2", TypeError),
        ("halfmove_clock", 1.0, TypeError),
    ]:
        with pytest.raises(error):
            setattr(pos, name, value)
    assert pos.fen().endswith(" 3 7")


def test_cli_perft_zero_prints_one(capsys: pytest.CaptureFixture[str]) -> None:
    from xiangqi.__main__ import main

    assert main(["perft", "0"]) == 0
    assert "perft(0) =              1" in capsys.readouterr().out


def test_unbuilt_checkout_explains_how_to_build(tmp_path: Path) -> None:
    """python -m xiangqi in a source tree without the compiled core says how to build it."""
    package = Path(xiangqi.__file__).parent
    shutil.copytree(package, tmp_path / "xiangqi", ignore=shutil.ignore_patterns("*.so", "*.pyd"))
    # -S: no site-packages, so an editable install's import hook cannot find the real tree.
    done = subprocess.run(
        [sys.executable, "-S", "-m", "xiangqi", "perft", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode != 0
    assert "is not built" in done.stderr and "build_ext --inplace" in done.stderr
    assert "circular import" not in done.stderr.splitlines()[-1]


# -- wrong types and bad values ------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda p: p.is_legal("h2e2"), TypeError, "takes a Move"),
        (lambda p: p.is_pseudo_legal((1, 2)), TypeError, "takes a Move"),
        (lambda p: p.push("h2e2"), TypeError, "takes a Move"),
        (lambda p: xiangqi.generate_legal(xiangqi.START_FEN), TypeError, "Position"),
        (lambda p: xiangqi.perft(xiangqi.START_FEN, 1), TypeError, "Position"),
        (lambda p: p.king(2), ValueError, r"color must be one of RED \(0\), BLACK \(1\), got 2"),
        (lambda p: p.king("red"), TypeError, "color"),
        (lambda p: p.piece_at(90), ValueError, "0..89"),
        (lambda p: p.piece_at(True), TypeError, "square"),
        (lambda p: p.piece_at("e0"), TypeError, "square"),
        (lambda p: Piece.from_code(0), ValueError, "1..14"),
        (lambda p: Piece.from_code(15), ValueError, "1..14"),
        (lambda p: Piece.from_code(None), TypeError, "int"),
        (lambda p: Piece("red", PieceType.KING), TypeError, "Color"),
        (lambda p: p.set_piece_at(4, "K"), TypeError, "Piece"),
        (lambda p: p.attackers(RED, 4.0), TypeError, "square"),
    ],
)
def test_wrong_types_and_values(call: object, error: type, match: str) -> None:
    pos = Position()
    fen = pos.fen()
    with pytest.raises(error, match=match):
        call(pos)  # type: ignore[operator]
    assert pos.fen() == fen


def test_move_squares_are_checked() -> None:
    with pytest.raises(TypeError, match="^from_square must be an int, got bool: True$"):
        Move(True, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^from_square must be an int, got str: 'a0'$"):
        Move("a0", 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^to_square must be in 0\.\.89, got 90$"):
        Move(2, 90)
    with pytest.raises(ValueError, match="change squares"):
        Move(4, 4)


class Liar(int):
    """An int whose comparisons all say yes."""

    def __lt__(self, other: object) -> bool:
        return True

    __le__ = __gt__ = __ge__ = __lt__


def test_lying_int_subclasses_are_read_by_their_real_value() -> None:
    pos = Position()
    with pytest.raises(ValueError, match="0..89"):
        xiangqi.square_name(Liar(10**9))
    with pytest.raises(ValueError, match="0..89"):
        pos.attackers(RED, Liar(-5))
    with pytest.raises(ValueError, match="RED"):
        pos.king(Liar(7))
    with pytest.raises(ValueError, match="0..89"):
        Move(Liar(100), 3)
    with pytest.raises(ValueError, match="at least 1"):
        pos.fullmove_number = Liar(0)
    assert type(Move(Liar(4), 13).from_square) is int


def test_numpy_integers_are_squares() -> None:
    np = pytest.importorskip("numpy")
    move = Move(np.int64(22), np.int16(25))
    assert type(move.from_square) is int and move == Move.from_iccs("e2h2")
    pos = Position()
    assert pos.piece_at(np.int64(4)) == Piece(RED, PieceType.KING)
    assert pos.king(np.int8(1)) == 85


@pytest.mark.parametrize(
    "parse",
    [
        lambda t: Position(t),
        lambda t: Move.from_iccs(t),
        lambda t: Position().parse_iccs(t),
        lambda t: xiangqi.parse_square(t),
    ],
)
def test_messages_quote_a_bounded_prefix(parse: object) -> None:
    huge = "h" * 2_000_000
    with pytest.raises(ValueError) as info:
        parse(huge)  # type: ignore[operator]
    assert len(str(info.value)) < 1000


# Every character outside ASCII whose upper or lower case is ASCII (the class of
# lookalikes case-insensitive matching could let through: dotless i, long s, the Kelvin
# sign, the ligatures...), plus a full-width letter, a dotted capital I and a non-ASCII digit.
def _case_lookalikes() -> list[str]:
    # Every code point is looked at; a block of 4,096 without any case mapping (most of
    # them: CJK, the private use areas...) is passed over at once, as its whole text.
    found = []
    for start in range(128, sys.maxunicode + 1, 4096):
        block = "".join(map(chr, range(start, min(start + 4096, sys.maxunicode + 1))))
        if block.upper() == block and block.lower() == block:
            continue
        found += [c for c in block if c.upper().isascii() or c.lower().isascii()]
    return found


LOOKALIKES = _case_lookalikes() + ["\uff48", "\u0130", "\u0660"]


@pytest.mark.parametrize("char", LOOKALIKES)
def test_parsers_refuse_unicode_lookalikes(char: str) -> None:
    pos = Position()
    texts = {
        "iccs": [
            "i0i1".replace("i", char, 1),
            "h2e2".replace("h", char),
            "h2e2".replace("2", char),
        ],
        "dashed": ["I0-I1".replace("I", char, 1), "H2-E2".replace("2", char, 1)],
        "fen": [xiangqi.START_FEN.replace("k", char), xiangqi.START_FEN.replace("1", char)],
    }
    for text in texts["iccs"] + texts["dashed"]:
        with pytest.raises(InvalidMoveError):
            pos.parse_iccs(text)
        with pytest.raises(InvalidMoveError):
            Move.from_iccs(text)
    for text in texts["fen"]:
        if text != xiangqi.START_FEN:
            with pytest.raises(InvalidFenError):
                Position(text)
    with pytest.raises(ValueError):
        xiangqi.parse_square("e0".replace("e", char))
    assert Piece.from_symbol(char) is None
    for text in ("C2.5".replace("C", char), "C2.5".replace("2", char), char + "2.5"):
        with pytest.raises(XiangqiError):
            pos.parse_wxf(text)


def test_fen_fields_split_on_ascii_blanks_only() -> None:
    board = xiangqi.START_FEN.split()[0]
    assert Position(f"{board}\tw").fen() == xiangqi.START_FEN
    for space in ("\u3000", "\u00a0", "\x1c"):
        with pytest.raises(InvalidFenError):
            Position(f"{board}{space}w")


# -- FEN counters: what the library writes, it reads ---------------------------------------------


def test_counters_past_the_fen_limit_still_write_loadable_fen() -> None:
    pos = Position(xiangqi.START_FEN.replace(" 0 1", " 999999999 999999999"))
    for text in ("h2e2", "h9g7", "h0g2", "i9h9"):
        pos.push_iccs(text)
    assert pos.fullmove_number == 1_000_000_001 and pos.halfmove_clock == 1_000_000_003
    again = Position(pos.fen())
    assert again.fen() == pos.fen()
    assert again.fullmove_number == 999_999_999  # written clamped to the parser's ceiling
    for clone in (copy.deepcopy(pos), pickle.loads(pickle.dumps(pos)), pos.copy()):
        assert clone.fullmove_number == 1_000_000_001  # copies keep the exact counters
        assert clone.halfmove_clock == 1_000_000_003 and clone.move_stack == pos.move_stack
        clone.pop()
        assert clone.fullmove_number == 1_000_000_000


# -- subclasses, copies and pickles ----------------------------------------------------------


class Annotated(Position):
    """A user's subclass with its own attribute."""

    def __init__(self, fen: str = xiangqi.START_FEN, note: str = "") -> None:
        super().__init__(fen)
        self.note = note


@pytest.mark.parametrize(
    "clone",
    [
        lambda p: p.copy(),
        copy.copy,
        copy.deepcopy,
        lambda p: pickle.loads(pickle.dumps(p)),
        lambda p: pickle.loads(pickle.dumps(p, protocol=0)),
    ],
)
def test_subclass_survives_copy_and_pickle(clone: object) -> None:
    pos = Annotated(MIDDLEGAME, note="game 7")
    pos.push(min(pos.legal_moves))
    other = clone(pos)  # type: ignore[operator]
    assert type(other) is Annotated and other.note == "game 7"
    assert other == pos and other.fen() == pos.fen() and other.move_stack == pos.move_stack
    other.pop()
    assert pos.fen() != other.fen()  # independent
    assert type(pos.mirror()) is Annotated and type(pos.flip_horizontal()) is Annotated


# -- edits -----------------------------------------------------------------------------------------


def test_set_and_remove_pieces_with_fen_validation() -> None:
    pos = Position()
    assert pos.remove_piece_at(xiangqi.parse_square("a0")) == Piece(RED, PieceType.ROOK)
    assert pos.remove_piece_at(xiangqi.parse_square("a1")) is None
    pos.set_piece_at(xiangqi.parse_square("e4"), Piece(RED, PieceType.ROOK))
    assert pos.piece_at(xiangqi.parse_square("e4")) == Piece(RED, PieceType.ROOK)
    assert pos.board_fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4R4/P1P1P1P1P/1C5C1/9/1NBAKABNR"
    refused = [
        (xiangqi.parse_square("a1"), Piece(RED, PieceType.CANNON), "more than 2 cannons"),
        (xiangqi.parse_square("e5"), Piece(RED, PieceType.KING), "more than 1 king"),
        (xiangqi.parse_square("a5"), Piece(RED, PieceType.ADVISOR), "advisor"),
        (xiangqi.parse_square("e0"), None, "Red has no king"),
        (xiangqi.parse_square("e3"), Piece(RED, PieceType.ROOK), "more than 2 rooks|check"),
    ]
    pos.push_iccs("h2h3")
    fen = pos.fen()
    for square, piece, match in refused:
        with pytest.raises(InvalidFenError, match=match):
            pos.set_piece_at(square, piece)
        assert pos.fen() == fen and pos.move_stack == [Move.from_iccs("h2h3")]  # unchanged
    pos.remove_piece_at(xiangqi.parse_square("i0"))
    assert pos.move_stack == []  # an edit forgets the moves: their undo records no longer fit


def test_edit_refuses_check_on_the_side_not_to_move() -> None:
    fen = "4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1"  # a red pawn on e5 between the kings
    pos = Position(fen)
    with pytest.raises(InvalidFenError, match="Black is in check"):
        pos.set_piece_at(xiangqi.parse_square("a9"), Piece(RED, PieceType.ROOK))
    with pytest.raises(InvalidFenError, match="face each other"):
        pos.remove_piece_at(xiangqi.parse_square("e5"))
    assert pos.fen() == fen
    # Moving a king is one edit of the whole board.
    pos.set_piece_map({3: Piece(RED, PieceType.KING), 85: Piece(BLACK, PieceType.KING)})
    assert pos.board_fen() == "4k4/9/9/9/9/9/9/9/9/3K5"
    with pytest.raises(TypeError):
        pos.set_piece_map({3: "K"})  # type: ignore[dict-item]


def test_clear_leaves_the_two_kings() -> None:
    pos = Position(MIDDLEGAME)
    pos.push(min(pos.legal_moves))
    pos.clear()
    assert pos.fen() == "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1" and pos.move_stack == []
    assert pos.turn == RED and pos.fullmove_number == 1


def flip_fen_horizontally(fen: str) -> str:
    board, rest = fen.split(" ", 1)
    rows = []
    for row in board.split("/"):
        expanded = "".join("." * int(c) if c.isdigit() else c for c in row)[::-1]
        rows.append(expanded)
    out = "/".join(rows)
    for n in range(9, 0, -1):
        out = out.replace("." * n, str(n))
    return f"{out} {rest}"


def mirror_fen(fen: str) -> str:
    board, side, rest = fen.split(" ", 2)
    return f"{'/'.join(board.split('/')[::-1]).swapcase()} {'b' if side == 'w' else 'w'} {rest}"


@pytest.mark.parametrize(
    "fen",
    [
        xiangqi.START_FEN,
        MIDDLEGAME,
        "4k4/4a4/3a5/9/9/9/9/9/4C4/3AK4 b - - 3 40",
    ],
)
def test_symmetries_match_fen_rewritten_by_hand_and_keep_perft(fen: str) -> None:
    pos = Position(fen)
    flipped = pos.flip_horizontal()
    assert flipped.fen() == flip_fen_horizontally(fen)
    assert flipped.perft(3) == pos.perft(3)
    mirrored = pos.mirror()
    assert mirrored.fen() == mirror_fen(fen)
    assert mirrored.perft(3) == pos.perft(3)
    assert pos.fen() == fen  # the original is untouched
    # A rank flip alone puts pieces where they may never stand: refused.
    with pytest.raises(InvalidFenError):
        pos.transform(lambda sq: sq % 9 + 9 * (9 - sq // 9))
    with pytest.raises(ValueError, match="different squares"):
        pos.transform(lambda sq: 0)
    assert pos.transform(lambda sq: sq).fen() == fen


def test_start_position_mirror_is_the_start_with_black_to_move() -> None:
    assert Position().mirror().fen() == xiangqi.START_FEN.replace(" w ", " b ")
    assert Position().perft(3) == 79666


def test_errors_are_value_errors() -> None:
    for error in (InvalidFenError, InvalidMoveError, IllegalMoveError):
        assert issubclass(error, XiangqiError) and issubclass(error, ValueError)
    assert Color(0) is RED


def test_iccs_text_may_carry_ascii_blanks_only() -> None:
    # The ICCS grammar is ASCII; Unicode blanks (no-break, ideographic, line separator)
    # are not part of it, so they are refused rather than stripped.
    pos = Position()
    assert pos.parse_iccs(" h2e2\t") == Move.from_iccs("h2e2")
    for space in ("\u3000", "\u00a0", "\u2028", "\x1c"):
        with pytest.raises(InvalidMoveError):
            pos.parse_iccs(f"h2e2{space}")
