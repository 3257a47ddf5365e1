"""Pictures of a position: ASCII, Chinese characters, SVG."""

from __future__ import annotations

import re
import struct
import unicodedata
import xml.etree.ElementTree as ET

import pytest

from xiangqi import Move, Position
from xiangqi.display import PIECE_CHARACTERS, ascii_board, unicode_board
from xiangqi.pieces import Color
from xiangqi.svg import board

SVG = "{http://www.w3.org/2000/svg}"

START_ASCII = """\
9 r n b a k a b n r
8 . . . . . . . . .
7 . c . . . . . c .
6 p . p . p . p . p
5 . . . . . . . . .
  -----------------
4 . . . . . . . . .
3 P . P . P . P . P
2 . C . . . . . C .
1 . . . . . . . . .
0 R N B A K A B N R
  a b c d e f g h i"""


def test_ascii_start_position() -> None:
    assert ascii_board(Position()) == START_ASCII
    assert str(Position()) == START_ASCII


def test_ascii_shows_a_move() -> None:
    pos = Position()
    pos.push(Move.from_iccs("h2e2"))
    assert ascii_board(pos).splitlines()[8] == "2 . C . . C . . . ."


def width(line: str) -> int:
    """Terminal columns of a line: full-width and wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "FW" else 1 for ch in line)


def test_unicode_start_position() -> None:
    lines = unicode_board(Position()).splitlines()
    assert lines[1] == "9 车－马－象－士－将－士－象－马－车"
    assert lines[19] == "0 俥－傌－相－仕－帅－仕－相－傌－俥"
    assert lines[5] == "7 ＋－砲－＋－＋－＋－＋－＋－砲－＋"
    assert lines[15] == "2 ＋－炮－＋－＋－＋－＋－＋－炮－＋"
    assert lines[7] == "6 卒－＋－卒－＋－卒－＋－卒－＋－卒"
    assert lines[13] == "3 兵－＋－兵－＋－兵－＋－兵－＋－兵"
    assert Position().unicode() == "\n".join(lines)


def test_unicode_river_and_palaces() -> None:
    lines = unicode_board(Position()).splitlines()
    river = lines[10]
    assert re.fullmatch("  ｜　楚　河　+汉　界　｜", river)
    # Each palace: a cross of diagonals over two rows, centred on file e (the 5th point).
    for upper, lower in ((2, 4), (16, 18)):
        assert lines[upper][2:] == "｜　｜　｜　｜＼｜／｜　｜　｜　｜"
        assert lines[lower][2:] == "｜　｜　｜　｜／｜＼｜　｜　｜　｜"
    assert lines[6][2:] == "｜　" * 8 + "｜"


def test_unicode_lines_line_up() -> None:
    lines = unicode_board(Position()).splitlines()
    assert {width(line) for line in lines[1:-2]} == {36}
    assert lines[0].startswith("  1   2") and lines[-2].startswith("  九  八")
    assert lines[-1] == "  a   b   c   d   e   f   g   h   i"


def test_unicode_characters_tell_the_sides_apart() -> None:
    red, black = PIECE_CHARACTERS[Color.RED], PIECE_CHARACTERS[Color.BLACK]
    assert red == "帅仕相傌俥炮兵" and black == "将士象马车砲卒"
    assert len(set(red + black)) == 14


# -- SVG -------------------------------------------------------------------------------------


def parse(svg_text: str) -> ET.Element:
    root = ET.fromstring(svg_text)
    assert root.tag == SVG + "svg"
    return root


def pieces(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter(SVG + "g") if "piece" in el.get("class", "").split()]


def translate(el: ET.Element) -> tuple[int, int]:
    match = re.fullmatch(r"translate\((\d+),(\d+)\)", el.get("transform", ""))
    assert match
    return int(match[1]), int(match[2])


def test_svg_is_well_formed_with_one_element_per_piece() -> None:
    root = parse(board(Position()))
    found = pieces(root)
    assert len(found) == 32
    assert sum("red" in el.get("class", "") for el in found) == 16
    classes = {el.get("class") for el in found}
    assert "piece red king" in classes and "piece black cannon" in classes
    titles = {el.findtext(SVG + "title", "").split()[-1] for el in found}
    assert titles == set(PIECE_CHARACTERS[Color.RED] + PIECE_CHARACTERS[Color.BLACK])
    # Each piece draws its character's outline, defined once in <defs>.
    defs = {el.get("id"): el.get("d") for el in root.iter(SVG + "path") if el.get("id")}
    for el in found:
        (use,) = el.iter(SVG + "use")
        ch = el.findtext(SVG + "title", "").split()[-1]
        assert use.get("href") == f"#xiangqi-glyph-{ord(ch):x}" and defs[use.get("href")[1:]]


def test_svg_counts_pieces_after_a_capture() -> None:
    pos = Position()
    for text in ("h2e2", "h9g7", "e2e6"):  # the cannon takes the central pawn
        pos.push(Move.from_iccs(text))
    assert len(pieces(parse(board(pos)))) == 31


def test_svg_has_grid_river_palace_and_coordinates() -> None:
    root = parse(board(Position()))
    grid = next(el for el in root.iter(SVG + "g") if el.get("class") == "grid")
    lines = list(grid.iter(SVG + "line"))
    assert len(lines) == 10 + 2 + 7 * 2 + 4  # ranks, edge files, split inner files, diagonals
    river = next(el for el in root.iter(SVG + "g") if el.get("class") == "river")
    assert river.findtext(SVG + "title") == "楚河 汉界"
    assert [u.get("href") for u in river.iter(SVG + "use")] == [
        f"#xiangqi-glyph-{ord(ch):x}" for ch in "楚河汉界"
    ]
    coords = next(el for el in root.iter(SVG + "g") if el.get("class") == "coordinates")
    assert {t.text for t in coords} == set("abcdefghi0123456789")
    no_coords = parse(board(Position(), coordinates=False))
    assert not [el for el in no_coords.iter(SVG + "g") if el.get("class") == "coordinates"]


def at(root: ET.Element, title: str) -> tuple[int, int]:
    """Where the piece titled e.g. "red king e0" is drawn."""
    for el in pieces(root):
        if el.findtext(SVG + "title", "").startswith(title + " "):
            return translate(el)
    raise AssertionError(title)


def test_svg_flipped_moves_the_pieces() -> None:
    plain, flipped = parse(board(Position())), parse(board(Position(), flipped=True))
    red_x, red_y = at(plain, "red king e0")
    black_x, black_y = at(plain, "black king e9")
    assert red_y > black_y  # Red at the bottom
    assert at(flipped, "red king e0") == (red_x, black_y)
    assert at(flipped, "black king e9") == (black_x, red_y)
    assert at(plain, "red rook a0")[0] < red_x < at(flipped, "red rook a0")[0]


def test_svg_lastmove_adds_highlight_and_arrow() -> None:
    pos = Position()
    assert not [
        el for el in parse(board(pos)).iter() if "lastmove" in (el.get("class") or "").split()
    ]
    move = Move.from_iccs("h2e2")
    pos.push(move)
    root = parse(board(pos, lastmove=move))
    marks = next(el for el in root.iter(SVG + "g") if el.get("class") == "lastmove")
    assert [t.text for t in marks.iter(SVG + "title")] == ["h2", "e2"]
    assert [el for el in root.iter(SVG + "g") if el.get("class") == "arrow lastmove"]
    assert parse(pos._repr_svg_()).find(f".//{SVG}g[@class='lastmove']") is not None


def test_svg_rings_a_checked_king() -> None:
    pos = Position("3ak4/9/9/9/9/9/9/9/4R4/3K5 b")
    assert pos.is_check()
    assert parse(board(pos)).find(f".//{SVG}circle[@class='check']") is not None
    assert parse(board(Position())).find(f".//{SVG}circle[@class='check']") is None


def test_svg_size() -> None:
    root = parse(board(Position(), size=300))
    assert root.get("width") == "300"
    assert root.get("height") == str(round(300 * 550 / 500))


def test_svg_renders_to_png(tmp_path: object) -> None:
    cairosvg = pytest.importorskip("cairosvg")
    pos = Position()
    pos.push(Move.from_iccs("h2e2"))
    png = cairosvg.svg2png(bytestring=board(pos, lastmove=pos.peek()).encode())
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (500, 550)
