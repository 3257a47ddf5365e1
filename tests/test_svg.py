"""SVG board: arguments, escaping, and real rendering on a machine with no CJK font.

The rendering tests run cairosvg in a child process whose fontconfig sees no fonts at all
(FONTCONFIG_FILE names an empty configuration), so a character drawn as text would come out
as an empty box or nothing; the pieces must still show their glyphs.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import xiangqi
from xiangqi import Color, InvalidMoveError, Move, Position
from xiangqi.svg import Arrow, SvgWrapper, board

SVG = "{http://www.w3.org/2000/svg}"


def test_empty_board() -> None:
    root = ET.fromstring(board())
    assert not [el for el in root.iter(SVG + "g") if "piece" in (el.get("class") or "").split()]
    assert root.find(f".//{SVG}g[@class='river']") is not None


def test_board_returns_a_notebook_renderable_str() -> None:
    picture = board(Position())
    assert isinstance(picture, SvgWrapper) and isinstance(picture, str)
    assert picture._repr_svg_() == str(picture)
    assert Position()._repr_svg_() == str(picture)


@pytest.mark.parametrize("lastmove", ["h2e2", Move.from_iccs("h2e2")])
def test_lastmove_as_move_or_iccs_text(lastmove: object) -> None:
    root = ET.fromstring(board(Position(), lastmove=lastmove))  # type: ignore[arg-type]
    marks = root.find(f".//{SVG}g[@class='lastmove']")
    assert marks is not None
    assert [t.text for t in marks.iter(SVG + "title")] == ["h2", "e2"]


def test_lastmove_of_a_wrong_type_or_bad_text() -> None:
    with pytest.raises(TypeError, match="lastmove must be a Move"):
        board(Position(), lastmove=17)  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError, match="h2x9"):
        board(Position(), lastmove="h2x9")
    with pytest.raises(TypeError, match="takes a Position or None"):
        board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")  # type: ignore[arg-type]


def test_arrows_fill_squares_and_orientation() -> None:
    root = ET.fromstring(
        board(
            Position(),
            arrows=[Arrow(1, 20), ("h2", "h9", "#123456"), "b0c2", ("e3", "e3")],
            fill={"e4": "yellow", 41: "#00ff00"},
            squares=["a5", 45],  # one square, named and numbered
            orientation=Color.BLACK,
        )
    )
    arrows = [el for el in root.iter() if el.get("class") == "arrow"]
    assert len(arrows) == 4
    assert [el.findtext(SVG + "title") for el in arrows[:3]] == ["b0c2", "h2h9", "b0c2"]
    assert arrows[1].get("fill") == "#123456"
    assert arrows[3].tag == SVG + "circle"  # an arrow to its own square is a ring
    fills = root.find(f".//{SVG}g[@class='fill']")
    assert fills is not None and len(fills) == 2
    assert len([el for el in root.iter(SVG + "circle") if el.get("class") == "square"]) == 1
    # orientation=BLACK is flipped=True.
    assert board(Position(), orientation=Color.BLACK) == board(Position(), flipped=True)


def test_colors_override_and_values_are_escaped() -> None:
    hostile = '"><script>alert(1)</script>&'
    text = board(Position(), colors={"red": hostile}, fill={0: hostile}, font_family=hostile)
    root = ET.fromstring(text)  # still well-formed
    assert not list(root.iter(SVG + "script")) and not list(root.iter("script"))
    assert any(el.get("fill") == hostile for el in root.iter())
    coords = root.find(f".//{SVG}g[@class='coordinates']")
    assert coords is not None and coords.get("font-family") == hostile


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"size": 0}, ValueError, "size must be"),
        ({"size": -5}, ValueError, "size must be"),
        ({"size": 10**9}, ValueError, "size must be"),
        ({"size": 1.5}, TypeError, "size must be an int"),
        ({"size": True}, TypeError, "size must be an int"),
        ({"colors": {"nope": "red"}}, ValueError, "unknown color key"),
        ({"colors": {"red": 3}}, TypeError, "CSS color"),
        ({"arrows": [(1, 95)]}, ValueError, "0..89"),
        ({"arrows": [1]}, TypeError, "each arrow"),
        ({"fill": {"z9": "red"}}, ValueError, "square name"),
        ({"squares": [object()]}, TypeError, "marked square"),
        ({"orientation": 2}, ValueError, "orientation must be one of RED"),
        ({"orientation": True}, TypeError, "orientation must be a Color, got bool"),
        ({"flipped": 1}, TypeError, "flipped must be True or False"),
        ({"fill": [1, 2]}, TypeError, "fill must be a mapping"),
        ({"arrows": None}, TypeError, "arrows must be an iterable"),
        ({"squares": "e4"}, TypeError, "squares must be an iterable"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        board(Position(), **kwargs)  # type: ignore[arg-type]


# -- rendering with a real renderer and no fonts ----------------------------------------------

RENDER = textwrap.dedent(
    """
    import io, json, sys
    import cairosvg
    from PIL import Image
    import xiangqi
    from xiangqi.svg import board, _point, RADIUS

    out = {}
    pos = xiangqi.Position(sys.argv[1])
    png = cairosvg.svg2png(bytestring=board(pos, coordinates=False).encode())
    image = Image.open(io.BytesIO(png)).convert("RGB")
    for square, piece in pos.piece_map().items():
        x, y = _point(square, False)
        r = RADIUS - 6  # inside the inner ring: only the character's ink
        bits = []
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                red, green, blue = image.getpixel((x + dx, y + dy))
                bits.append("1" if red + green + blue < 450 else "0")  # darker than the disc
        out[square] = [piece.symbol(), "".join(bits)]
    print(json.dumps(out))
    """
)


def _need_cairosvg() -> None:
    try:
        import cairosvg  # noqa: F401
        import PIL  # noqa: F401
    except (ImportError, OSError) as exc:  # OSError: cairosvg without the libcairo2 library
        pytest.skip(f"cairosvg cannot run here: {exc}")


def _render_without_fonts(fen: str, tmp_path: Path) -> dict[str, list[str]]:
    _need_cairosvg()
    config = tmp_path / "fonts.conf"
    config.write_text('<?xml version="1.0"?><fontconfig></fontconfig>\n')
    env = dict(os.environ, FONTCONFIG_FILE=str(config), FONTCONFIG_PATH=str(tmp_path))
    env["PYTHONPATH"] = str(Path(xiangqi.__file__).resolve().parent.parent)
    done = subprocess.run(
        [sys.executable, "-c", RENDER, fen],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_no_font_is_visible_to_the_renderer(tmp_path: Path) -> None:
    """The empty configuration really hides every font from fontconfig (when fc-list exists)."""
    config = tmp_path / "fonts.conf"
    config.write_text('<?xml version="1.0"?><fontconfig></fontconfig>\n')
    env = dict(os.environ, FONTCONFIG_FILE=str(config))
    try:
        listed = subprocess.run(["fc-list"], env=env, capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        pytest.skip("fc-list is not installed")
    assert listed.stdout.strip() == ""


def test_pieces_render_as_distinct_glyphs_without_fonts(tmp_path: Path) -> None:
    # Every kind of both sides once: two rows of pieces, kings in their palaces.
    fen = "rnbk3c1/4a4/9/p8/9/9/P8/9/9/RNBAK2C1 w - - 0 1"
    rendered = _render_without_fonts(fen, tmp_path)
    assert len(rendered) == 14
    bitmaps = {symbol: bits for symbol, bits in rendered.values()}
    for symbol, bits in bitmaps.items():
        ink = bits.count("1") / len(bits)
        assert 0.08 < ink < 0.7, (symbol, ink)  # a character: neither blank nor a filled disc
    # Fourteen different pictures: no tofu box shared by all, no blank.
    assert len(set(bitmaps.values())) == 14


def test_pieces_of_one_kind_render_identically(tmp_path: Path) -> None:
    rendered = _render_without_fonts(xiangqi.START_FEN, tmp_path)
    by_symbol: dict[str, set[str]] = {}
    for symbol, bits in rendered.values():
        by_symbol.setdefault(symbol, set()).add(bits)
    assert all(len(pictures) == 1 for pictures in by_symbol.values())
    assert len(by_symbol) == 14


def test_png_is_a_png(tmp_path: Path) -> None:
    _need_cairosvg()
    import cairosvg
    from PIL import Image as image

    png = cairosvg.svg2png(bytestring=board(Position(), size=250).encode())
    assert image.open(io.BytesIO(png)).size == (250, 275)
