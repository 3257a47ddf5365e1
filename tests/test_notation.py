"""Move text: ICCS forms, WXF and Chinese notation, both directions.

Every expected text below was worked out by hand from the published conventions (the WXF's
"Official Xiangqi piece names and notation", 象棋竞赛规则 7.5, 象棋百科全书's 着法表示 spec and
the Chinese Wikipedia's 中式记谱法), never copied from the formatter's output. Files count from
the mover's right: Red's file 1 is i and 9 is a; Black's file 1 is a and 9 is i.
"""

from __future__ import annotations

import random
import re

import pytest
from conftest import position

import xiangqi
from xiangqi import IllegalMoveError, InvalidMoveError, Move, Position
from xiangqi.notation import chinese, iccs, parse_chinese, parse_iccs, parse_wxf, wxf


def check(pos: Position, move_text: str, wxf_text: str, chinese_text: str) -> None:
    """The move writes as the two texts, and each text reads back as the move."""
    move = Move.from_iccs(move_text)
    assert wxf(pos, move) == wxf_text
    assert chinese(pos, move) == chinese_text
    assert parse_wxf(pos, wxf_text) == move
    assert parse_chinese(pos, chinese_text) == move


# -- textbook moves --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "wxf_text", "chinese_text"),
    [
        ("h2e2", "C2.5", "炮二平五"),  # the central cannon
        ("b2e2", "C8.5", "炮八平五"),
        ("h0g2", "H2+3", "马二进三"),
        ("b0c2", "H8+7", "马八进七"),
        ("i0i1", "R1+1", "车一进一"),
        ("a0a2", "R9+2", "车九进二"),
        ("c3c4", "P7+1", "兵七进一"),
        ("g0e2", "E3+5", "相三进五"),
        ("c0a2", "E7+9", "相七进九"),
        ("d0e1", "A6+5", "仕六进五"),
        ("f0e1", "A4+5", "仕四进五"),
        ("e0e1", "K5+1", "帅五进一"),
        ("h2h9", "C2+7", "炮二进七"),
        ("b2b1", "C8-1", "炮八退一"),
    ],
)
def test_red_moves_from_the_start(move: str, wxf_text: str, chinese_text: str) -> None:
    check(Position(), move, wxf_text, chinese_text)


@pytest.mark.parametrize(
    ("move", "wxf_text", "chinese_text"),
    [
        ("h9g7", "H8+7", "马8进7"),  # the screen-horse answer to the central cannon
        ("b9c7", "H2+3", "马2进3"),
        ("h7e7", "C8.5", "炮8平5"),
        ("g6g5", "P7+1", "卒7进1"),
        ("c9e7", "E3+5", "象3进5"),
        ("f9e8", "A6+5", "士6进5"),
        ("i9i8", "R9+1", "车9进1"),
        ("e9e8", "K5+1", "将5进1"),
        ("b7b8", "C2-1", "炮2退1"),
    ],
)
def test_black_moves_after_the_central_cannon(move: str, wxf_text: str, chinese_text: str) -> None:
    pos = Position()
    pos.push(Move.from_iccs("h2e2"))
    check(pos, move, wxf_text, chinese_text)


def test_black_rook_traverse_after_the_horse() -> None:
    pos = Position()
    for text in ("h2e2", "h9g7", "h0g2"):
        pos.push(Move.from_iccs(text))
    check(pos, "i9h9", "R9.8", "车9平8")


def test_rook_retreat() -> None:
    check(position({"i5": "R"}), "i5i4", "R1-1", "车一退一")


# -- tandem pieces -----------------------------------------------------------------------------


def test_two_red_rooks_on_a_file() -> None:
    pos = position({"c6": "R", "c3": "R"})  # Red's file 7
    check(pos, "c6g6", "R+.3", "前车平三")
    check(pos, "c3c1", "R--2", "后车退二")
    check(pos, "c6c9", "R++3", "前车进三")
    check(pos, "c3c5", "R-+2", "后车进二")


def test_two_black_rooks_on_a_file() -> None:
    # Black's front is the lower rank; g is Black's file 7.
    pos = position({"e9": "k", "d0": "K", "g3": "r", "g6": "r"}, "b")
    check(pos, "g3c3", "R+.3", "前车平3")
    check(pos, "g6g8", "R--2", "后车退2")
    check(pos, "g3g0", "R++3", "前车进3")


def test_two_red_horses_on_a_file() -> None:
    pos = position({"g4": "N", "g2": "N"})  # Red's file 3
    check(pos, "g4f6", "H++4", "前马进四")
    check(pos, "g4f2", "H+-4", "前马退四")
    check(pos, "g2f4", "H-+4", "后马进四")
    check(pos, "g2f0", "H--4", "后马退四")


def test_two_black_cannons_on_a_file() -> None:
    pos = position({"e9": "k", "d0": "K", "c5": "c", "c7": "c"}, "b")  # Black's file 3
    check(pos, "c5c6", "C+-1", "前炮退1")
    check(pos, "c7c9", "C--2", "后炮退2")
    check(pos, "c7e7", "C-.5", "后炮平5")


def test_advisors_and_elephants_need_no_marker() -> None:
    pos = position({"d0": "A", "d2": "A", "c0": "B", "c4": "B", "f9": "k"})
    check(pos, "d0e1", "A6+5", "仕六进五")
    check(pos, "d2e1", "A6-5", "仕六退五")
    check(pos, "c0e2", "E7+5", "相七进五")
    check(pos, "c4e2", "E7-5", "相七退五")
    check(pos, "c4a2", "E7-9", "相七退九")


def test_three_red_pawns_on_a_file() -> None:
    pos = position({"g7": "P", "g6": "P", "g5": "P"})  # WXF's own example: file 3 to file 4
    check(pos, "g7f7", "P+.4", "前兵平四")
    check(pos, "g6f6", "P3.4", "中兵平四")
    check(pos, "g5f5", "P-.4", "后兵平四")
    check(pos, "g7g8", "P++1", "前兵进一")


def test_three_black_pawns_on_a_file() -> None:
    pos = position({"e9": "k", "f0": "K", "c2": "p", "c3": "p", "c4": "p"}, "b")
    check(pos, "c2d2", "P+.4", "前卒平4")
    check(pos, "c3d3", "P3.4", "中卒平4")
    check(pos, "c4d4", "P-.4", "后卒平4")


def test_five_red_pawns_on_a_file() -> None:
    pos = position({f"g{r}": "P" for r in range(5, 10)})
    check(pos, "g9f9", "++.4", "一兵平四")
    check(pos, "g8f8", "P+.4", "二兵平四")
    check(pos, "g7f7", "P3.4", "三兵平四")
    check(pos, "g6f6", "P-.4", "四兵平四")
    check(pos, "g5f5", "--.4", "五兵平四")


def test_four_black_pawns_on_a_file() -> None:
    # The ordinals 一..四 stand in for 前/中/后, so Black writes them in Chinese too.
    pos = position({"e9": "k", "f0": "K", **{f"c{r}": "p" for r in range(1, 5)}}, "b")
    check(pos, "c1d1", "++.4", "一卒平4")
    check(pos, "c2d2", "P+.4", "二卒平4")
    check(pos, "c3d3", "P-.4", "三卒平4")
    check(pos, "c4d4", "--.4", "四卒平4")


def test_four_red_pawns_on_a_file_advance() -> None:
    pos = position({f"c{r}": "P" for r in range(3, 7)})  # c3..c6, Red's file 7
    # The foremost pawn is "++", so its advance reads "+++1".
    check(pos, "c6c7", "+++1", "一兵进一")


def test_red_pawns_on_two_files() -> None:
    # WXF's example: three pawns on file 3 and two on file 7.
    pos = position({"g7": "P", "g6": "P", "g5": "P", "c6": "P", "c5": "P"})
    check(pos, "g7f7", "3+.4", "前兵三平四")
    check(pos, "g6f6", "33.4", "中兵三平四")
    check(pos, "g5f5", "3-.4", "后兵三平四")
    check(pos, "c6d6", "7+.6", "前兵七平六")
    check(pos, "c5d5", "7-.6", "后兵七平六")


def test_black_pawns_on_two_files() -> None:
    pos = position({"c2": "p", "c3": "p", "g2": "p", "g3": "p"}, "b")
    check(pos, "c2d2", "3+.4", "前卒3平4")
    check(pos, "c3d3", "3-.4", "后卒3平4")
    check(pos, "g2f2", "7+.6", "前卒7平6")
    check(pos, "g3f3", "7-.6", "后卒7平6")
    check(pos, "c2c1", "3++1", "前卒3进1")


# -- other forms read ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("C2=5", "h2e2"),  # "=" for traverse
        ("c2.5", "h2e2"),  # lower case
        (" C2.5 ", "h2e2"),
        ("N2+3", "h0g2"),  # knight
        ("M3+5", "g0e2"),  # minister
        ("B7+5", "c0e2"),  # bishop
        ("G6+5", "d0e1"),  # guard
        ("G5+1", "e0e1"),  # general
        ("S7+1", "c3c4"),  # soldier
    ],
)
def test_wxf_variants_read(text: str, move: str) -> None:
    assert parse_wxf(Position(), text) == Move.from_iccs(move)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("炮二平五", "h2e2"),
        ("砲二平五", "h2e2"),
        ("包二平五", "h2e2"),
        ("馬二進三", "h0g2"),
        ("傌八进七", "b0c2"),
        ("俥一進一", "i0i1"),
        ("車九进二", "a0a2"),
        ("帥五進一", "e0e1"),
        ("士六进五", "d0e1"),
        ("象三进五", "g0e2"),
        ("卒七进一", "c3c4"),
        ("炮2平5", "h2e2"),  # ASCII digits for Red
        ("炮二 平五", "h2e2"),
    ],
)
def test_chinese_variants_read_for_red(text: str, move: str) -> None:
    assert parse_chinese(Position(), text) == Move.from_iccs(move)


@pytest.mark.parametrize(
    ("text", "move"),
    [("马８进７", "h9g7"), ("馬8進7", "h9g7"), ("马八进七", "h9g7"), ("將5進1", "e9e8")],
)
def test_chinese_variants_read_for_black(text: str, move: str) -> None:
    pos = Position()
    pos.push(Move.from_iccs("h2e2"))
    assert parse_chinese(pos, text) == Move.from_iccs(move)


def test_chinese_tandem_variants_read() -> None:
    pos = position({"c6": "R", "c3": "R"})
    assert parse_chinese(pos, "车前平三") == Move.from_iccs("c6g6")  # name before 前
    assert parse_chinese(pos, "後車退二") == Move.from_iccs("c3c1")
    two_files = position({"g7": "P", "g6": "P", "g5": "P", "c6": "P", "c5": "P"})
    assert parse_chinese(two_files, "前三平四") == Move.from_iccs("g7f7")  # name left out
    # The computer standard's series: files with 2+ pawns from the right, each front to back.
    assert parse_chinese(two_files, "一兵平四") == Move.from_iccs("g7f7")
    assert parse_chinese(two_files, "三兵平四") == Move.from_iccs("g5f5")
    assert parse_chinese(two_files, "四兵平六") == Move.from_iccs("c6d6")
    four = position({f"c{r}": "P" for r in range(3, 7)})
    assert parse_chinese(four, "前兵进一") == Move.from_iccs("c6c7")


def test_unneeded_marker_and_missing_marker_read_when_unambiguous() -> None:
    # Only the rear cannon can reach file 5 along its rank: older books write "C3=5".
    pos = position({"g5": "C", "g2": "C", "f5": "P"})
    assert parse_wxf(pos, "C3.5") == Move.from_iccs("g2e2")
    assert parse_wxf(pos, "C-.5") == Move.from_iccs("g2e2")
    assert parse_chinese(pos, "炮三平五") == Move.from_iccs("g2e2")
    advisors = position({"d0": "A", "d2": "A", "f9": "k"})
    assert parse_wxf(advisors, "A+-5") == Move.from_iccs("d2e1")
    assert parse_chinese(advisors, "前仕退五") == Move.from_iccs("d2e1")


# -- ICCS ------------------------------------------------------------------------------------


def test_iccs_styles() -> None:
    move = Move.from_iccs("h2e2")
    assert iccs(move) == "h2e2"
    assert iccs(move, "ranks1") == "h3e3"
    assert iccs(move, "dashed") == "H2-E2"
    assert iccs(Move.from_iccs("h9g7"), "ranks1") == "h10g8"
    pos = Position()
    assert parse_iccs(pos, "h2e2") == move
    assert parse_iccs(pos, "H2-E2") == move
    assert parse_iccs(pos, "h2-e2") == move
    assert parse_iccs(pos, "h3e3", style="ranks1") == move
    assert parse_iccs(pos, "H3E3", style="ranks1") == move


def test_iccs_ranks1_reaches_rank_ten() -> None:
    pos = Position()
    pos.push(Move.from_iccs("h2e2"))
    assert parse_iccs(pos, "h10g8", style="ranks1") == Move.from_iccs("h9g7")


def test_iccs_errors() -> None:
    pos = Position()
    with pytest.raises(InvalidMoveError, match="'h2e'"):
        parse_iccs(pos, "h2e")
    with pytest.raises(InvalidMoveError, match="'h0e2'"):
        parse_iccs(pos, "h0e2", style="ranks1")
    with pytest.raises(IllegalMoveError, match="'h2h8'"):
        parse_iccs(pos, "h2h8")
    with pytest.raises(ValueError, match="style"):
        iccs(Move.from_iccs("h2e2"), "uci")  # type: ignore[arg-type]


# -- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "C2.", "C2.55", "X2.5", "C0.5", "C2*5", "P+3.4", "67.4"])
def test_malformed_wxf(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=re.escape(repr(text))):
        parse_wxf(Position(), text)


@pytest.mark.parametrize(
    "text", ["", "炮二平", "炮二平五五", "炮零平五", "炮二跳五", "六兵进一", "前前进一"]
)
def test_malformed_chinese(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="Chinese move text"):
        parse_chinese(Position(), text)


def test_ambiguous_text_is_illegal() -> None:
    pos = position({"c6": "R", "c3": "R"})
    with pytest.raises(IllegalMoveError, match=r"ambiguous.*c3g3.*c6g6"):
        parse_wxf(pos, "R7.3")
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        parse_chinese(pos, "车七平三")


def test_text_with_no_legal_move_is_illegal() -> None:
    pos = Position()
    with pytest.raises(IllegalMoveError, match=r"'C1\.6'.*rnbakabnr"):
        parse_wxf(pos, "C1.6")  # no cannon on file 1
    with pytest.raises(IllegalMoveError, match="no legal move of the piece"):
        parse_wxf(pos, "C2+9")
    with pytest.raises(IllegalMoveError, match="'马二进四'"):
        parse_chinese(pos, "马二进四")
    with pytest.raises(IllegalMoveError):
        parse_wxf(pos, "A6.5")  # advisors never traverse
    with pytest.raises(IllegalMoveError):
        parse_wxf(pos, "P+.4")  # no tandem pawns here


def test_formatting_an_illegal_move_raises() -> None:
    pos = Position()
    with pytest.raises(IllegalMoveError, match="WXF.*h2h8"):
        wxf(pos, Move.from_iccs("h2h8"))
    with pytest.raises(IllegalMoveError, match="Chinese.*no piece on e5"):
        chinese(pos, Move.from_iccs("e5e6"))
    with pytest.raises(TypeError):
        wxf(pos, "h2e2")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_wxf(pos, 5)  # type: ignore[arg-type]


def test_position_methods_delegate_here() -> None:
    pos = Position()
    move = Move.from_iccs("h2e2")
    assert pos.wxf(move) == "C2.5"
    assert pos.chinese(move) == "炮二平五"
    assert pos.parse_wxf("C2.5") == move
    assert pos.parse_chinese("炮二平五") == move


# -- every legal move of a few thousand positions survives a round trip ----------------------

#: Starts for the random walks: the opening, and crowded pawn positions so that three, four
#: and five pawns on a file and pawns doubled on two files turn up often.
WALK_STARTS = [
    xiangqi.START_FEN,
    "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w",
    "3ak4/4a4/2P1P1P2/2P3P2/9/4p4/2p1p1p2/9/4A4/3AK4 w",
    "rnbakabnr/9/1c5c1/9/2p1p1p2/2P1P1P2/9/1C5C1/9/RNBAKABNR w",
    "4k4/9/9/9/9/2p3p2/2p1p4/2p6/9/3K5 b",
    "3k5/9/9/6P2/6P2/6P2/2P3P2/9/9/4K4 w",
    "4k4/9/9/2p6/2p3p2/2p6/2p6/9/9/3K5 b",
]


def walk_positions(total: int, seed: int = 20240905) -> list[Position]:
    """Positions met on seeded random walks, about total of them."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < total:
        pos = Position(WALK_STARTS[len(found) // 100 % len(WALK_STARTS)])
        for _ in range(100):
            moves = pos.legal_moves()
            if not moves:
                break
            found.append(pos.copy(stack=False))
            pawn_moves = [m for m in moves if pos.piece_at(m.from_square).piece_type == 6]  # type: ignore[union-attr]
            pick = pawn_moves if pawn_moves and rng.random() < 0.4 else moves
            pos.push(rng.choice(sorted(pick)))
    return found


POSITIONS = walk_positions(2200)


def wxf_kind(text: str) -> str:
    """Which WXF form a text has: plain, a pair, pawns, two files, or four or five."""
    if text[:2] in ("++", "--"):
        return "four or five"
    if text[0].isdigit():
        return "two files"
    if text[1] in "+-":
        return "pawns" if text[0] == "P" else "pair"
    return "plain"


@pytest.mark.slow
def test_every_legal_move_round_trips() -> None:
    """Each legal move written in each notation reads back as itself, tandem cases included."""
    assert len(POSITIONS) >= 2000
    seen = set()
    for pos in POSITIONS:
        for move in pos.legal_moves():
            for style in ("iccs", "ranks1", "dashed"):
                assert parse_iccs(pos, iccs(move, style), style) == move  # type: ignore[arg-type]
            text = wxf(pos, move)
            assert parse_wxf(pos, text) == move, (pos.fen(), move, text)
            seen.add(wxf_kind(text))
            text = chinese(pos, move)
            assert parse_chinese(pos, text) == move, (pos.fen(), move, text)
    assert seen == {"four or five", "two files", "pawns", "pair", "plain"}


@pytest.mark.slow
def test_wxf_agrees_with_fairy_stockfish() -> None:
    """Fairy-Stockfish's WXF writer, an independent implementation, agrees except where the
    WXF's own pawn rules differ from its numbered pawns (three or more on a file, two files)."""
    sf = pytest.importorskip("pyffish")
    compared = 0
    for pos in POSITIONS[::40]:
        fen = pos.fen()
        for move in pos.legal_moves():
            ours = wxf(pos, move)
            if ours[0] in "+-123456789":
                continue
            theirs = sf.get_san(
                "xiangqi", fen, iccs(move, "ranks1"), False, sf.NOTATION_XIANGQI_WXF
            ).replace("=", ".")
            if ours[0] == "P" and theirs[0] != "P":
                continue  # three or more pawns on the file: it numbers them
            if ours[1] in "+-" and theirs[1] not in "+-":
                continue  # it marks tandem pieces only when both could make such a move
            assert ours == theirs, (fen, move)
            compared += 1
    assert compared > 300
