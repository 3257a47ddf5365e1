"""SVG pictures of a position: grid, river, palaces, pieces as labelled discs, the last move.

Squares are public numbers 0..89 (file + 9 * rank, files a..i from Red's left, ranks 0..9 from
Red's side). Red is at the bottom unless flipped. Every piece is a ``<g>`` whose class attribute
reads "piece", its color and its kind (e.g. ``class="piece red rook"``), so styles and tests can
find them; the last move is drawn as two highlighted points (class "lastmove") and an arrow (class
"arrow").
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .display import piece_character
from .move import Move
from .pieces import Color
from .squares import FILE_NAMES, SQUARE_NAMES

if TYPE_CHECKING:
    from .position import Position

__all__ = ["board"]

CELL = 50  # distance between two neighbouring points
MARGIN = 50  # from the edge of the picture to the outer lines, room for coordinates
WIDTH = 2 * MARGIN + 8 * CELL
HEIGHT = 2 * MARGIN + 9 * CELL
RADIUS = 22  # of a piece disc

#: Fonts tried for the Chinese characters, in order: brush (kai) styles first.
FONT_FAMILY = (
    "'KaiTi', 'STKaiti', 'Noto Serif CJK SC', 'Noto Sans CJK SC', "
    "'WenQuanYi Micro Hei', 'Microsoft YaHei', serif"
)
_COLORS = {
    "board": "#f0d9a8",
    "line": "#6b4423",
    "red": "#c0221f",
    "black": "#1a1a1a",
    "disc": "#fbf1dc",
    "lastmove": "#5bbf5b",
    "check": "#e8412c",
}


def _point(square: int, flipped: bool) -> tuple[int, int]:
    """Picture coordinates (x, y) of a square's intersection."""
    file, rank = square % 9, square // 9
    if flipped:
        return MARGIN + (8 - file) * CELL, MARGIN + rank * CELL
    return MARGIN + file * CELL, MARGIN + (9 - rank) * CELL


def _line(x1: int, y1: int, x2: int, y2: int) -> str:
    return f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>'


def _grid() -> list[str]:
    """Rank lines, file lines broken at the river, and the palace diagonals (same if flipped)."""
    left, right = MARGIN, MARGIN + 8 * CELL
    top, bottom = MARGIN, MARGIN + 9 * CELL
    river_top, river_bottom = MARGIN + 4 * CELL, MARGIN + 5 * CELL
    parts = [f'<g class="grid" stroke="{_COLORS["line"]}" stroke-width="1.5" fill="none">']
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


def _river(fonts: str) -> list[str]:
    y = MARGIN + 4 * CELL + CELL // 2 + 9
    style = f'font-family="{fonts}" font-size="26" fill="{_COLORS["line"]}" text-anchor="middle"'
    return [
        f'<g class="river" {style}>',
        f'<text x="{MARGIN + 2 * CELL}" y="{y}">楚　河</text>',
        f'<text x="{MARGIN + 6 * CELL}" y="{y}">汉　界</text>',
        "</g>",
    ]


def _coordinates(flipped: bool) -> list[str]:
    """File letters below and above the board, rank numbers on both sides."""
    style = f'font-family="sans-serif" font-size="14" fill="{_COLORS["line"]}"'
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


def _lastmove(move: Move, flipped: bool) -> tuple[list[str], list[str]]:
    """Highlighted points and an arrow from one to the other, both drawn under the pieces."""
    half = CELL // 2 - 2
    marks = [f'<g class="lastmove" fill="{_COLORS["lastmove"]}" fill-opacity="0.45">']
    for square in (move.from_square, move.to_square):
        x, y = _point(square, flipped)
        marks.append(
            f'<rect x="{x - half}" y="{y - half}" width="{2 * half}" height="{2 * half}" rx="6">'
            f"<title>{SQUARE_NAMES[square]}</title></rect>"
        )
    marks.append("</g>")
    (x1, y1), (x2, y2) = _point(move.from_square, flipped), _point(move.to_square, flipped)
    length = math.hypot(x2 - x1, y2 - y1)
    stop = (length - RADIUS - 6) / length  # the head ends just outside the target's disc
    x2, y2 = round(x1 + (x2 - x1) * stop), round(y1 + (y2 - y1) * stop)
    arrow = [
        f'<line class="arrow" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
        f'stroke="{_COLORS["lastmove"]}" stroke-width="6" stroke-opacity="0.7" '
        'stroke-linecap="round" marker-end="url(#arrowhead)"/>'
    ]
    return marks, arrow


def _pieces(pos: Position, flipped: bool, fonts: str) -> list[str]:
    parts = [f'<g class="pieces" font-family="{fonts}" font-size="28" text-anchor="middle">']
    for square, piece in sorted(pos.piece_map().items()):
        x, y = _point(square, flipped)
        color = "red" if piece.color == Color.RED else "black"
        ink = _COLORS[color]
        kind = piece.piece_type.name.lower()
        parts.append(
            f'<g class="piece {color} {kind}" transform="translate({x},{y})">'
            f"<title>{color} {kind} {SQUARE_NAMES[square]}</title>"
            f'<circle r="{RADIUS}" fill="{_COLORS["disc"]}" stroke="{ink}" stroke-width="2.5"/>'
            f'<circle r="{RADIUS - 4}" fill="none" stroke="{ink}" stroke-width="1"/>'
            f'<text y="10" fill="{ink}">{piece_character(piece)}</text>'
            "</g>"
        )
    parts.append("</g>")
    return parts


def _check(pos: Position, flipped: bool) -> list[str]:
    if not pos.is_check():
        return []
    x, y = _point(pos.king(pos.turn), flipped)
    return [
        f'<circle class="check" cx="{x}" cy="{y}" r="{RADIUS + 5}" fill="none" '
        f'stroke="{_COLORS["check"]}" stroke-width="4"/>'
    ]


def board(
    pos: Position,
    lastmove: Move | None = None,
    flipped: bool = False,
    *,
    size: int | None = None,
    coordinates: bool = True,
    font_family: str = FONT_FAMILY,
) -> str:
    """An SVG image (a str) of pos: Red at the bottom, or Black with flipped=True.

    lastmove, if given, is highlighted on its two points and drawn as an arrow. A king in check
    gets a red ring. size sets the width in pixels (the height follows); coordinates=False
    leaves out the file letters and rank numbers; font_family is the CSS font list for the
    Chinese characters (renderers that take only the first name, such as cairosvg, need an
    installed CJK font named first).
    """
    fonts = font_family.replace('"', "'")
    width = size if size is not None else WIDTH
    height = round(width * HEIGHT / WIDTH)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="xiangqi-board" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{width}" height="{height}">',
        "<defs>",
        '<marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" '
        f'markerHeight="3" orient="auto"><path d="M0,0 L10,5 L0,10 z" '
        f'fill="{_COLORS["lastmove"]}"/></marker>',
        "</defs>",
        f'<rect class="background" width="{WIDTH}" height="{HEIGHT}" fill="{_COLORS["board"]}"/>',
    ]
    parts += _grid()
    parts += _river(fonts)
    if coordinates:
        parts += _coordinates(flipped)
    marks, arrow = _lastmove(lastmove, flipped) if lastmove is not None else ([], [])
    parts += marks
    parts += arrow
    parts += _check(pos, flipped)
    parts += _pieces(pos, flipped, fonts)
    parts.append("</svg>")
    return "\n".join(parts)
