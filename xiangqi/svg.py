"""SVG pictures of a position: grid, river, palaces, pieces, last move, arrows, fills.

Squares are public numbers 0..89 (file + 9 * rank, files a..i from Red's left, ranks 0..9 from
Red's side). Red is at the bottom unless ``orientation=BLACK`` (or ``flipped=True``).

The Chinese characters (pieces and the river's 楚河 汉界) are drawn as glyph outlines embedded
in the picture (from Noto Serif CJK, SIL Open Font License; see xiangqi/_glyphs_OFL.txt), so
the board looks the same on a machine with no CJK font. Every piece is a ``<g>`` whose class
attribute reads "piece", its color and its kind (e.g. ``class="piece red rook"``) and whose
``<title>`` names it ("red rook a0 俥"), so styles, screen readers and tests can find it.

``board()`` returns an :class:`SvgWrapper`, a str that notebooks (Jupyter, IPython) show as a
picture, as python-chess's ``chess.svg.board`` does.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple
from xml.sax.saxutils import quoteattr

from ._checks import check_bool, check_enum, check_int
from ._glyphs import GLYPHS, UNITS_PER_EM
from .display import piece_character
from .move import Move
from .pieces import Color, Piece
from .squares import FILE_NAMES, SQUARE_NAMES, check_square, parse_square, quote

if TYPE_CHECKING:
    from .position import Position

__all__ = ["Arrow", "SvgWrapper", "board"]

CELL = 50  # distance between two neighbouring points
MARGIN = 50  # from the edge of the picture to the outer lines, room for coordinates
WIDTH = 2 * MARGIN + 8 * CELL
HEIGHT = 2 * MARGIN + 9 * CELL
RADIUS = 22  # of a piece disc
GLYPH_SIZE = 30  # pixels per em of a piece character
RIVER_SIZE = 30  # pixels per em of the river characters
MAX_SIZE = 20_000  # the widest picture board() draws, in pixels

#: Default colors; board(colors=...) overrides any of them by key.
COLORS: dict[str, str] = {
    "board": "#f0d9a8",
    "line": "#6b4423",
    "red": "#c0221f",
    "black": "#1a1a1a",
    "disc": "#fbf1dc",
    "lastmove": "#5bbf5b",
    "check": "#e8412c",
    "arrow": "#2f7fd0",
    "square": "#2f7fd0",
}

_GLYPH_IDS = {ch: f"xiangqi-glyph-{ord(ch):x}" for ch in GLYPHS}


class SvgWrapper(str):
    """SVG text that notebooks render as a picture (it has ``_repr_svg_``)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


class Arrow(NamedTuple):
    """An arrow from tail to head (public squares 0..89) in a CSS color."""

    tail: int
    head: int
    color: str = COLORS["arrow"]


SquareLike = int | str
ArrowLike = Arrow | tuple[SquareLike, SquareLike] | tuple[SquareLike, SquareLike, str]


def _square(value: object, what: str) -> int:
    """A square given as a number 0..89 or a name such as "e0"."""
    if isinstance(value, str):
        return parse_square(value)
    try:
        return check_square(value)
    except TypeError:
        raise TypeError(
            f"{what} must be a square number 0..89 or a name such as 'e0', "
            f"got {type(value).__name__}"
        ) from None


def _color(value: object, what: str) -> str:
    """A CSS color text, escaped later as an attribute; only its type and length checked."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str (a CSS color), got {type(value).__name__}")
    if not 0 < len(value) <= 100:
        raise ValueError(f"{what} must be a CSS color of 1..100 characters, got {quote(value)}")
    _xml_text(value, what)
    return value


def _xml_text(value: str, what: str) -> None:
    """Refuse characters XML 1.0 cannot carry, even escaped (most control characters)."""
    for ch in value:
        if (
            (ord(ch) < 32 and ch not in "\t\n\r")
            or ch in "\ufffe\uffff"
            or "\ud800" <= ch <= "\udfff"
        ):
            raise ValueError(f"{what} holds a character XML cannot carry: {quote(value)}")


def _attr(value: object) -> str:
    """An XML attribute value with its quotes, escaped (&, <, >, quotes)."""
    return quoteattr(str(value))


def _point(square: int, flipped: bool) -> tuple[int, int]:
    """Picture coordinates (x, y) of a square's intersection."""
    file, rank = square % 9, square // 9
    if flipped:
        return MARGIN + (8 - file) * CELL, MARGIN + rank * CELL
    return MARGIN + file * CELL, MARGIN + (9 - rank) * CELL


def _line(x1: int, y1: int, x2: int, y2: int) -> str:
    return f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>'


def _glyph(ch: str, x: float, y: float, size: float, ink: str) -> str:
    """A <use> of a character's outline, centred on (x, y), size pixels per em."""
    scale = size / UNITS_PER_EM
    return (
        f'<use xlink:href="#{_GLYPH_IDS[ch]}" href="#{_GLYPH_IDS[ch]}" '
        f'transform="translate({x:g},{y:g}) scale({scale:g})" fill={_attr(ink)}/>'
    )


def _grid(colors: Mapping[str, str]) -> list[str]:
    """Rank lines, file lines broken at the river, and the palace diagonals (same if flipped)."""
    left, right = MARGIN, MARGIN + 8 * CELL
    top, bottom = MARGIN, MARGIN + 9 * CELL
    river_top, river_bottom = MARGIN + 4 * CELL, MARGIN + 5 * CELL
    parts = [f'<g class="grid" stroke={_attr(colors["line"])} stroke-width="1.5" fill="none">']
    parts += [_line(left, MARGIN + r * CELL, right, MARGIN + r * CELL) for r in range(10)]
    parts += [_line(left, top, left, bottom), _line(right, top, right, bottom)]
    for f in range(1, 8):
        x = MARGIN + f * CELL
        parts += [_line(x, top, x, river_top), _line(x, river_bottom, x, bottom)]
    d, f = MARGIN + 3 * CELL, MARGIN + 5 * CELL
    for y0 in (top, MARGIN + 7 * CELL):  # the two palaces, each three ranks deep
        y2 = y0 + 2 * CELL
        parts += [_line(d, y0, f, y2), _line(f, y0, d, y2)]
    parts.append(
        f'<rect x="{left - 4}" y="{top - 4}" width="{8 * CELL + 8}" height="{9 * CELL + 8}" '
        'stroke-width="3"/>'
    )
    parts.append("</g>")
    return parts


def _river(colors: Mapping[str, str]) -> list[str]:
    """楚河 on the left half and 汉界 on the right, as outlines, with a text title."""
    y = MARGIN + 4 * CELL + CELL / 2
    parts = ['<g class="river"><title>楚河 汉界</title>']
    for ch, file in zip("楚河汉界", (1.4, 2.6, 5.4, 6.6)):
        parts.append(_glyph(ch, MARGIN + file * CELL, y, RIVER_SIZE, colors["line"]))
    parts.append("</g>")
    return parts


def _coordinates(flipped: bool, colors: Mapping[str, str]) -> list[str]:
    """File letters below and above the board, rank numbers on both sides."""
    style = f'font-family="sans-serif" font-size="14" fill={_attr(colors["line"])}'
    parts = [f'<g class="coordinates" {style} text-anchor="middle">']
    for file in range(9):
        x, _ = _point(file, flipped)
        for y in (18, HEIGHT - 8):
            parts.append(f'<text x="{x}" y="{y}">{FILE_NAMES[file]}</text>')
    for rank in range(10):
        _, y = _point(9 * rank, flipped)
        for x in (12, WIDTH - 12):
            parts.append(f'<text x="{x}" y="{y + 5}">{rank}</text>')
    parts.append("</g>")
    return parts


def _fills(fill: Mapping[int, str], flipped: bool) -> list[str]:
    """A colored square behind each filled point."""
    parts = ['<g class="fill" fill-opacity="0.5">']
    for square, color in sorted(fill.items()):
        parts.append(_square_rect(square, flipped, f"fill={_attr(color)}"))
    parts.append("</g>")
    return parts


def _square_rect(square: int, flipped: bool, attributes: str) -> str:
    """A square a little smaller than a cell centred on a point, titled with its name."""
    x, y = _point(square, flipped)
    half = CELL // 2 - 2
    return (
        f'<rect x="{x - half}" y="{y - half}" width="{2 * half}" height="{2 * half}" '
        f"{attributes}><title>{SQUARE_NAMES[square]}</title></rect>"
    )


def _lastmove(move: Move, flipped: bool, colors: Mapping[str, str]) -> list[str]:
    """The last move's two points, highlighted under the pieces."""
    marks = [f'<g class="lastmove" fill={_attr(colors["lastmove"])} fill-opacity="0.45">']
    for square in (move.from_square, move.to_square):
        marks.append(_square_rect(square, flipped, 'rx="6"'))
    marks.append("</g>")
    return marks


def _arrow(tail: int, head: int, color: str, flipped: bool, css_class: str) -> str:
    """A line with a triangular head ending just outside the target's disc."""
    (x1, y1), (x2, y2) = _point(tail, flipped), _point(head, flipped)
    if tail == head:  # python-chess draws an arrow to its own square as a ring
        return (
            f'<circle class={_attr(css_class)} cx="{x1}" cy="{y1}" r="{RADIUS + 3}" fill="none" '
            f'stroke={_attr(color)} stroke-width="4" stroke-opacity="0.8"/>'
        )
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    stop = length - RADIUS + 4  # where the head's tip ends
    tip_x, tip_y = x1 + ux * stop, y1 + uy * stop
    base_x, base_y = tip_x - ux * 16, tip_y - uy * 16
    left = (base_x - uy * 10, base_y + ux * 10)
    right = (base_x + uy * 10, base_y - ux * 10)
    head_path = (
        f"M{tip_x:.1f},{tip_y:.1f} L{left[0]:.1f},{left[1]:.1f} L{right[0]:.1f},{right[1]:.1f} Z"
    )
    return (
        f"<g class={_attr(css_class)} fill={_attr(color)} stroke={_attr(color)} "
        f'opacity="0.75"><title>{SQUARE_NAMES[tail]}{SQUARE_NAMES[head]}</title>'
        f'<line x1="{x1}" y1="{y1}" x2="{base_x:.1f}" y2="{base_y:.1f}" stroke-width="7" '
        f'stroke-linecap="round"/><path d="{head_path}" stroke="none"/></g>'
    )


def _pieces(pieces: dict[int, Piece], flipped: bool, colors: Mapping[str, str]) -> list[str]:
    parts = ['<g class="pieces">']
    for square, piece in sorted(pieces.items()):
        x, y = _point(square, flipped)
        color = "red" if piece.color == Color.RED else "black"
        ink = colors[color]
        kind = piece.piece_type.name.lower()
        ch = piece_character(piece)
        parts.append(
            f'<g class="piece {color} {kind}" transform="translate({x},{y})">'
            f"<title>{color} {kind} {SQUARE_NAMES[square]} {ch}</title>"
            f'<circle r="{RADIUS}" fill={_attr(colors["disc"])} stroke={_attr(ink)} '
            'stroke-width="2.5"/>'
            f'<circle r="{RADIUS - 4}" fill="none" stroke={_attr(ink)} stroke-width="1"/>'
            f"{_glyph(ch, 0, 0, GLYPH_SIZE, ink)}"
            "</g>"
        )
    parts.append("</g>")
    return parts


def _check(square: int | None, flipped: bool, colors: Mapping[str, str]) -> list[str]:
    if square is None:
        return []
    x, y = _point(square, flipped)
    return [
        f'<circle class="check" cx="{x}" cy="{y}" r="{RADIUS + 5}" fill="none" '
        f'stroke={_attr(colors["check"])} stroke-width="4"/>'
    ]


def _read_move(value: object) -> Move:
    if isinstance(value, Move):
        return value
    if isinstance(value, str):
        return Move.from_iccs(value)
    raise TypeError(
        f"lastmove must be a Move, ICCS text such as 'h2e2' or None, got {type(value).__name__}"
    )


def _read_arrow(value: object) -> Arrow:
    if isinstance(value, Move):
        return Arrow(value.from_square, value.to_square)
    if isinstance(value, str):
        move = Move.from_iccs(value)
        return Arrow(move.from_square, move.to_square)
    if not isinstance(value, tuple) or len(value) not in (2, 3):
        raise TypeError(
            "each arrow must be an Arrow, a Move, ICCS text or a (tail, head[, color]) tuple, "
            f"got {type(value).__name__}"
        )
    color = _color(value[2], "arrow color") if len(value) == 3 else COLORS["arrow"]
    return Arrow(_square(value[0], "arrow tail"), _square(value[1], "arrow head"), color)


def board(
    pos: Position | None = None,
    lastmove: Move | str | None = None,
    flipped: bool = False,
    *,
    orientation: Color | None = None,
    arrows: Iterable[ArrowLike | Move | str] = (),
    fill: Mapping[SquareLike, str] | None = None,
    squares: Iterable[SquareLike] = (),
    check: SquareLike | None = None,
    size: int | None = None,
    coordinates: bool = True,
    colors: Mapping[str, str] | None = None,
    font_family: str | None = None,
) -> SvgWrapper:
    """An SVG picture of pos (an SvgWrapper: a str that notebooks show as a picture).

    - pos: the Position to draw; None draws the empty board.

    - lastmove: a Move or ICCS text ("h2e2"); its two points are highlighted.
    - orientation: the side drawn at the bottom (RED by default); flipped=True is the
      same as orientation=BLACK.
    - arrows: Arrow(tail, head, color), (tail, head) or (tail, head, color) tuples, Moves or
      ICCS text; squares as numbers 0..89 or names. An arrow to its own square is a ring.
    - fill: {square: CSS color} paints squares; squares: points marked with a ring.
    - check: the point to ring as in check; by default the side to move's king when in check.
    - size: width in pixels, 1..20000 (the height follows); coordinates=False leaves out
      the file letters and rank numbers; colors: overrides of COLORS by key.
    - font_family: the font of the coordinates (the Chinese characters are outlines).

    Every value is escaped before it reaches an attribute. Wrong types raise TypeError,
    bad values a ValueError (InvalidMoveError for bad ICCS text).
    """
    # Duck-typed: svg draws what Position gives and does not import it at run time (the
    # Position's own picture method imports svg; an import back would be a cycle).
    if pos is not None and not all(
        callable(getattr(pos, name, None)) for name in ("piece_map", "is_check", "king")
    ):
        raise TypeError(f"board() takes a Position or None, got {type(pos).__name__}")
    pieces = pos.piece_map() if pos is not None else {}
    move = _read_move(lastmove) if lastmove is not None else None
    if orientation is not None:
        flipped = check_enum("orientation", orientation, Color) == Color.BLACK
    else:
        flipped = check_bool("flipped", flipped)
    palette = dict(COLORS)
    if colors is not None:
        if not isinstance(colors, Mapping):
            raise TypeError(f"colors must be a mapping, got {type(colors).__name__}")
        for key, value in colors.items():
            if key not in COLORS:
                raise ValueError(
                    f"unknown color key {quote(key)}, expected one of {sorted(COLORS)}"
                )
            palette[key] = _color(value, f"colors[{key!r}]")
    if size is not None:
        size = check_int("size", size, 1, MAX_SIZE)  # pixels
    coordinate_font = "sans-serif" if font_family is None else font_family
    if not isinstance(coordinate_font, str):
        raise TypeError(f"font_family must be a str, got {type(coordinate_font).__name__}")
    if len(coordinate_font) > 200:
        raise ValueError(f"font_family must be at most 200 characters, got {len(coordinate_font)}")
    _xml_text(coordinate_font, "font_family")
    if isinstance(arrows, (str, Move)):
        arrows = [arrows]
    if fill is not None and not isinstance(fill, Mapping):
        raise TypeError(f"fill must be a mapping of squares to colors, got {type(fill).__name__}")
    if not isinstance(arrows, Iterable):
        raise TypeError(f"arrows must be an iterable, got {type(arrows).__name__}")
    if not isinstance(squares, Iterable) or isinstance(squares, (str, bytes)):
        raise TypeError(f"squares must be an iterable of squares, got {type(squares).__name__}")
    arrow_list = [_read_arrow(a) for a in arrows]
    fills = {_square(sq, "fill square"): _color(c, "fill color") for sq, c in (fill or {}).items()}
    marked = sorted({_square(sq, "marked square") for sq in squares})
    if check is None:
        in_check = pos is not None and pos.is_check()
        check_square_ = pos.king(pos.turn) if pos is not None and in_check else None
    else:
        check_square_ = _square(check, "check")

    width = size if size is not None else WIDTH
    height = round(width * HEIGHT / WIDTH)
    used = {piece_character(p) for p in pieces.values()} | set("楚河汉界")
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'version="1.1" class="xiangqi-board" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{width}" height="{height}">',
        "<defs>",
    ]
    parts += [f'<path id="{_GLYPH_IDS[ch]}" d="{GLYPHS[ch]}"/>' for ch in sorted(used)]
    parts += [
        "</defs>",
        f'<rect class="background" width="{WIDTH}" height="{HEIGHT}" '
        f"fill={_attr(palette['board'])}/>",
    ]
    parts += _grid(palette)
    parts += _river(palette)
    if coordinates:
        coords = _coordinates(flipped, palette)
        coords[0] = coords[0].replace(
            'font-family="sans-serif"', f"font-family={_attr(coordinate_font)}"
        )
        parts += coords
    if fills:
        parts += _fills(fills, flipped)
    if move is not None:
        parts += _lastmove(move, flipped, palette)
    parts += _check(check_square_, flipped, palette)
    parts += _pieces(pieces, flipped, palette)
    for sq in marked:
        x, y = _point(sq, flipped)
        parts.append(
            f'<circle class="square" cx="{x}" cy="{y}" r="8" fill={_attr(palette["square"])} '
            'fill-opacity="0.8"/>'
        )
    if move is not None:
        parts.append(
            _arrow(move.from_square, move.to_square, palette["lastmove"], flipped, "arrow lastmove")
        )
    for arrow in arrow_list:
        parts.append(_arrow(arrow.tail, arrow.head, arrow.color, flipped, "arrow"))
    parts.append("</svg>")
    return SvgWrapper("\n".join(parts))
