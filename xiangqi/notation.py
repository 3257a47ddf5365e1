"""Move text tied to a position: ICCS coordinates, WXF notation and Chinese notation.

Squares are public numbers 0..89 (file + 9 * rank; files a..i from Red's left, ranks 0..9 from
Red's side). Nothing here knows the rules: a move is written only after the core says it is
legal, and text is parsed by finding the one legal move (from ``pos.legal_moves()``) whose
description matches it.

ICCS
    ``iccs(move, style)`` writes ``"h2e2"`` (style "iccs", ranks 0..9), ``"h3e3"`` (style
    "ranks1", ranks 1..10 as Fairy-Stockfish and some GUIs write them) or ``"H2-E2"`` (style
    "dashed", the form of ICCS game files). ``parse_iccs`` reads the same forms in either case;
    with no style it reads the dashed form when there is a dash and ranks 0..9 otherwise.

WXF (the World Xiangqi Federation's, wxf.org "Official Xiangqi piece names and notation")
    Piece letter K A E H R C P, the file the piece stands on counted from the mover's right
    (Red: file i is 1 ... file a is 9; Black: file a is 1 ... file i is 9), ``+`` advance, ``-``
    retreat or ``.`` traverse, then the number of points moved along a file, or the file reached
    (traverses, and every horse, elephant and advisor move): ``C2.5``, ``H8+7``, ``R1-1``.
    Two pieces of a kind on one file: the file digit becomes ``+`` (front, nearer the enemy) or
    ``-`` (rear): ``R+.3``, ``C--1``. Pawns: with three on a file the middle one keeps its file
    digit (``P+.4``, ``P3.4``, ``P-.4``); with four or five, the foremost and rearmost are
    ``++``/``--`` (``++.4``, ``P+.4``, ``P3.4``, ``P-.4``, ``--.4``); with two or more pawns on
    each of two files the file digit takes the letter's place (``3+.4``, ``33.4``, ``3-.4``,
    ``7+.6``). Fairy-Stockfish writes a pawn on a file holding three or more (or when two files
    hold two or more) as its place from the front, then the file: ``23=4`` is the second pawn
    on file 3; that is read too (``33``, ``11``... are read as WXF's middle pawn when written
    with ``.``, as Fairy-Stockfish's with ``=``, and the other way when only that one fits).
    Advisors and elephants never need a marker: of two on one file, one can only advance and
    the other only retreat. Output writes ``.``; input also takes ``=``, lower case,
    the letters G (general or guard: king and advisor moves never read alike), S (soldier),
    N (knight), B (bishop) and M (minister, the elephant, as in the WXF-hosted "Chinese Chess File
    Format"), the front/rear marker before the letter (``+R+6`` for ``R++6``, as the wxf.ca
    collections write it) and full-width forms (``Ｃ２＝５``). Only ASCII (after folding the
    full-width forms) is read: Unicode lookalikes such as "ſ" or "ı" are refused.

Chinese (象棋竞赛规则 article 7.5, and 象棋百科全书 "中国象棋电脑应用规范(二): 着法表示")
    Piece, file, 进/退/平, count or file: ``炮二平五``, ``马8进7``. Red writes 一..九, Black 1..9.
    Output uses 帅仕相马车炮兵 for Red and 将士象马车炮卒 for Black. Two of a kind on a file:
    前/后 before the name and no file (``前炮退二``); three pawns: 前/中/后 (``中兵平四``); four or
    five pawns: 一二三四五 counted from the front, in Chinese numerals for both sides because they
    stand in for 前/中/后 (``二兵进一``, ``一卒平5``). With two or more pawns on each of two files
    the file is kept after the name (``前兵九平八``, ``中卒3平4``), the traditional form given by
    the Chinese Wikipedia article 象棋 (中式记谱法). Input also takes traditional and variant
    characters (車 馬 傌 俥 砲 包 帥 將 進 後 ...), either side's names, Chinese or ASCII or
    full-width digits for either side, the name before 前/后 (``车前平三``), the file without
    the name (``前九平八``), and the numbered series of the computer standard
    (``一兵`` to ``五兵``: pawns on files holding two or more, files from the mover's right, each
    file front to back).

SAN (as Fairy-Stockfish, Cutechess and XBoard-style GUIs write xiangqi)
    Piece letter K A E H R C P, the file and/or rank of departure when needed, ``x`` for a
    capture, the point reached with ranks 1..10, ``+``/``#``: ``Che3``, ``Hg8``, ``Rxa10+``.
    ``san`` writes it; ``parse_san`` also reads ranks 0..9 (XBoard), the letters G, B and N, a
    pawn without its letter and the long form ``Ra1-a2``.

Parsing raises InvalidMoveError for text that is not of the form, and IllegalMoveError when no
legal move, or more than one, fits the text here. Text with a redundant or missing marker is
still read when it names exactly one legal move (``C3.5`` for the rear of two cannons that
alone can go there, as older books write it); a pawn named by its file alone (``P3``, ``兵三``)
on a file holding three or five is the middle one, as in WXF.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple

from ._checks import check_int
from .errors import IllegalMoveError, InvalidMoveError
from .move import Move, ranks_hint
from .pieces import Color, Piece, PieceType
from .squares import FILE_NAMES, quote

if TYPE_CHECKING:
    from .position import Position

__all__ = [
    "IccsStyle",
    "chinese",
    "iccs",
    "parse_chinese",
    "parse_iccs",
    "parse_san",
    "parse_wxf",
    "san",
    "wxf",
]

IccsStyle = Literal["iccs", "ranks1", "dashed"]

K, A, E, H, R, C, P = (
    PieceType.KING,
    PieceType.ADVISOR,
    PieceType.ELEPHANT,
    PieceType.HORSE,
    PieceType.ROOK,
    PieceType.CANNON,
    PieceType.PAWN,
)
#: Pieces whose last number is always the file reached (they never stay on a file).
_DIAGONAL = frozenset((A, E, H))

# -- ICCS -------------------------------------------------------------------------------------

# re.ASCII: without it, IGNORECASE lets Unicode lookalikes match ("ı" and "İ" as "i").
_ICCS_RE = {
    "iccs": re.compile(r"([a-i])([0-9])([a-i])([0-9])", re.IGNORECASE | re.ASCII),
    "ranks1": re.compile(r"([a-i])(10|[1-9])([a-i])(10|[1-9])", re.IGNORECASE | re.ASCII),
    "dashed": re.compile(r"([a-i])([0-9])-([a-i])([0-9])", re.IGNORECASE | re.ASCII),
}
#: Full-width ASCII forms (U+FF01..U+FF5E, as in "Ｃ２＝５") and the ideographic space, read as
#: their ASCII characters. Nothing else is folded: other lookalikes stay unreadable.
_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
_FULLWIDTH[0x3000] = 0x20
_ICCS_EXAMPLE = {"iccs": "h2e2", "ranks1": "h3e3", "dashed": "H2-E2"}


def iccs(move: Move, style: IccsStyle = "iccs") -> str:
    """ICCS text of a move (public squares 0..89): "h2e2", "h3e3" (ranks1) or "H2-E2" (dashed)."""
    frm, to = move.from_square, move.to_square
    if style == "iccs":
        return move.iccs()
    if style == "ranks1":
        return f"{FILE_NAMES[frm % 9]}{frm // 9 + 1}{FILE_NAMES[to % 9]}{to // 9 + 1}"
    if style == "dashed":
        return move.iccs()[:2].upper() + "-" + move.iccs()[2:].upper()
    raise ValueError(f"ICCS style must be 'iccs', 'ranks1' or 'dashed', got {style!r}")


def parse_iccs(pos: Position, text: str, style: IccsStyle | None = None) -> Move:
    """The legal move that ICCS text names in pos (squares 0..89); any letter case is read.

    style None reads "H2-E2" when the text has a dash and "h2e2" (ranks 0..9) otherwise;
    "ranks1" must be asked for, since "h3e3" is valid in both rank numberings.
    """
    _check_str(text, "ICCS")
    if style is None:
        style = "dashed" if "-" in text else "iccs"
    if style not in _ICCS_RE:
        raise ValueError(f"ICCS style must be 'iccs', 'ranks1' or 'dashed', got {style!r}")
    match = _ICCS_RE[style].fullmatch(text.strip(" \t\r\n"))  # ASCII blanks only
    if match is None:
        hint = ranks_hint(text) if style == "iccs" else ""
        raise InvalidMoveError(
            f"expected {style} move text such as {_ICCS_EXAMPLE[style]!r}, got {quote(text)}{hint}"
        )
    low = 1 if style == "ranks1" else 0
    ff, fr, tf, tr = match.groups()
    frm = FILE_NAMES.index(ff.lower()) + 9 * (int(fr) - low)
    to = FILE_NAMES.index(tf.lower()) + 9 * (int(tr) - low)
    if frm == to:
        raise InvalidMoveError(f"a move must change squares, got {quote(text)}")
    move = Move(frm, to)
    if not pos.is_legal(move):
        raise pos._illegal(move, text)
    return move


# -- describing a legal move ------------------------------------------------------------------


class _PieceInfo(NamedTuple):
    """Where a piece stands among the mover's pieces of its kind.

    file is counted from the mover's right (1..9); order counts from the front (0 is nearest the
    enemy) among the size pieces of the kind on that file; series is the piece's place in the
    numbered series (files holding two or more, right to left, each front to back), or -1;
    two_files says whether two or more files hold two or more pieces of the kind.
    """

    piece_type: PieceType
    file: int
    order: int
    size: int
    series: int
    two_files: bool


class _Context:
    """The mover's pieces of each kind, grouped by file, read from one position."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.color = color = pos.turn
        self.red = red = color == Color.RED
        self.pieces: dict[int, Piece] = pos.piece_map()
        #: {kind: {file from the mover's right: squares, front first}}
        self.groups: dict[PieceType, dict[int, list[int]]] = {}
        self._infos: dict[int, _PieceInfo] = {}
        for sq, piece in self.pieces.items():  # square order: rank by rank from Red's side
            if piece.color == color:
                file = 9 - sq % 9 if red else sq % 9 + 1
                self.groups.setdefault(piece.piece_type, {}).setdefault(file, []).append(sq)
        if red:  # front first: Red's front has the higher rank
            for kind in self.groups.values():
                for squares in kind.values():
                    squares.reverse()

    def mover_file(self, square: int) -> int:
        """File of a square counted from the mover's right: 1..9."""
        return 9 - square % 9 if self.red else square % 9 + 1

    def squares(self, kinds: tuple[PieceType, ...]) -> list[int]:
        """Squares of the mover's pieces of the given kinds."""
        return [
            sq for pt in kinds for squares in self.groups.get(pt, {}).values() for sq in squares
        ]

    def info(self, square: int) -> _PieceInfo:
        """Where the mover's piece on square stands among its kind."""
        found = self._infos.get(square)
        if found is None:
            found = self._infos[square] = self._info(square)
        return found

    def _info(self, square: int) -> _PieceInfo:
        pt = self.pieces[square].piece_type
        files = self.groups[pt]
        file = self.mover_file(square)
        column = files[file]
        crowded = sorted(f for f, squares in files.items() if len(squares) >= 2)
        series = -1
        if len(column) >= 2:
            series = sum(len(files[f]) for f in crowded if f < file) + column.index(square)
        return _PieceInfo(pt, file, column.index(square), len(column), series, len(crowded) >= 2)

    def action(self, move: Move) -> tuple[str, int]:
        """Direction ("+", "-", ".") and number (points moved, or file reached) of a move."""
        frm, to = move.from_square, move.to_square
        if frm // 9 == to // 9:
            return ".", self.mover_file(to)
        up = to // 9 > frm // 9
        direction = "+" if up == self.red else "-"
        if self.pieces[frm].piece_type in _DIAGONAL:
            return direction, self.mover_file(to)
        return direction, abs(to // 9 - frm // 9)


def _checked_context(pos: Position, move: Move, notation: str) -> _Context:
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move, got {type(move).__name__}")
    if not move:
        raise InvalidMoveError(
            f"the null move (Move.null(), a pass) has no {notation} notation; "
            "a PGN game record writes it as '--'"
        )
    if not pos.is_legal(move):
        try:
            pos.parse_iccs(move.iccs())
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"cannot write {notation} for {exc}") from None
    return _Context(pos)


# -- WXF --------------------------------------------------------------------------------------

_WXF_LETTERS = "KAEHRCP"
#: Piece kinds of each letter read; G may be the general (king) or the guard (advisor).
_WXF_READ: dict[str, tuple[PieceType, ...]] = {
    "K": (K,),
    "G": (K, A),
    "A": (A,),
    "E": (E,),
    "B": (E,),
    "M": (E,),
    "H": (H,),
    "N": (H,),
    "R": (R,),
    "C": (C,),
    "P": (P,),
    "S": (P,),
}


def _wxf_piece(info: _PieceInfo) -> str:
    """The two characters that name the piece in WXF, e.g. "C2", "R+", "P3", "++", "7-"."""
    pt, n, i, f = info.piece_type, info.size, info.order, str(info.file)
    letter = _WXF_LETTERS[pt]
    if n == 1 or pt in (K, A, E):
        return letter + f
    if pt != P or n <= 3 or info.two_files:
        front_mid_rear = "+" if i == 0 else "-" if i == n - 1 else f
        return (f if info.two_files else letter) + front_mid_rear
    if n == 4:
        return ("++", "P+", "P-", "--")[i]
    return ("++", "P+", "P" + f, "P-", "--")[i]


def wxf(pos: Position, move: Move) -> str:
    """WXF text of a legal move in pos, e.g. "C2.5" (see the module docstring for the forms)."""
    ctx = _checked_context(pos, move, "WXF")
    direction, number = ctx.action(move)
    return f"{_wxf_piece(ctx.info(move.from_square))}{direction}{number}"


@dataclass(frozen=True)
class _Wanted:
    """What a move text asks for: piece kinds, which piece of them, direction and number.

    how names the way the piece is picked: "file" (on file a, the middle one if the file holds
    an odd number of three or more), "front"/"rear"/"middle" (on its file, optionally only on
    file a), "wxf+"/"wxf-" (WXF's "P+"/"P-", the second from the end when four or five share
    the file), "series" (place a in the numbered series), "foremost"/"rearmost" (WXF "++"/"--").
    """

    kinds: tuple[PieceType, ...]
    how: str
    a: int
    direction: str
    number: int
    file: int = 0  # how "order": the a-th pawn from the front on this file

    def picks(self, info: _PieceInfo) -> bool:
        """Does the described piece pick the piece of info?"""
        n, i, how = info.size, info.order, self.how
        if how == "file":
            if info.file != self.a:
                return False
            return i == n // 2 if n >= 3 and n % 2 else True
        if how == "series":
            return info.series == self.a - 1
        if how == "order":
            return info.file == self.file and info.order == self.a - 1
        if self.a and info.file != self.a:
            return False
        if n < 2:
            return False
        if how == "front":
            return i == 0
        if how == "rear":
            return i == n - 1
        if how == "middle":
            return n % 2 == 1 and i == n // 2
        if how == "wxf+":
            return i == (0 if n <= 3 else 1)
        if how == "wxf-":
            return i == (n - 1 if n <= 3 else n - 2)
        if how == "foremost":
            return n >= 4 and i == 0
        return n >= 4 and i == n - 1  # rearmost


def _find(pos: Position, wanted: _Wanted, text: str, notation: str) -> Move:
    """The one legal move of pos that wanted describes; IllegalMoveError if none or several."""
    ctx = _Context(pos)
    squares = {sq for sq in ctx.squares(wanted.kinds) if wanted.picks(ctx.info(sq))}
    picked: list[Move] = []
    fitting: list[Move] = []
    for move in pos.legal_moves():
        if move.from_square in squares:
            picked.append(move)
            if ctx.action(move) == (wanted.direction, wanted.number):
                fitting.append(move)
    if len(fitting) == 1:
        return fitting[0]
    side = "Red" if ctx.color == Color.RED else "Black"
    if len(fitting) > 1:
        moves = ", ".join(sorted(m.iccs() for m in fitting))
        why = f"ambiguous, it fits {moves}"
    elif picked:
        why = f"no legal move of the piece it names goes that way ({side} to move)"
    else:
        names = "/".join(k.name.lower() for k in wanted.kinds)
        why = f"no {side} {names} that it names has a legal move"
    raise IllegalMoveError(f"{notation} move {quote(text)}: {why} in {pos.fen()!r}")


_WXF_DIRECTIONS = {"+": "+", "-": "-", ".": ".", "=": "."}


def _parse_wxf_text(text: str) -> list[_Wanted]:
    """The readings of WXF text, the likelier first (two only for Fairy-Stockfish's "33")."""
    s = "".join(text.translate(_FULLWIDTH).split())
    bad = InvalidMoveError(
        f"expected WXF move text of 4 characters such as 'C2.5', 'H8+7', 'R+.3' or '++.4', "
        f"got {quote(text)}"
    )
    if not s.isascii():  # upper() would turn "ſ" into "S" and "ı" into "I"
        raise bad
    s = s.upper()
    if len(s) != 4 or s[2] not in _WXF_DIRECTIONS or s[3] not in "123456789":
        raise bad
    c0, c1 = s[0], s[1]
    if c0 in "+-" and c1 in _WXF_READ:  # "+R+6", "-C.1": the marker before the letter
        kinds = _WXF_READ[c1]
        how, a = ("wxf+" if c0 == "+" else "wxf-"), 0
    elif c0 in _WXF_READ:
        kinds = _WXF_READ[c0]
        if c1 in "123456789":
            how, a = "file", int(c1)
        elif c1 in "+-":
            how, a = ("wxf+" if c1 == "+" else "wxf-"), 0
        else:
            raise bad
    elif c0 in "+-" and c1 == c0:
        kinds, how, a = (P,), ("foremost" if c0 == "+" else "rearmost"), 0
    elif c0 in "123456789" and c1 in "+-":
        kinds, a = (P,), int(c0)
        how = "front" if c1 == "+" else "rear"
    elif c0 in "12345" and c1 in "123456789":
        # Fairy-Stockfish: the c0-th pawn from the front on file c1 ("23=4")
        fsf = _Wanted((P,), "order", int(c0), _WXF_DIRECTIONS[s[2]], int(s[3]), int(c1))
        if c1 != c0:
            return [fsf]
        wxf = _Wanted((P,), "middle", int(c0), _WXF_DIRECTIONS[s[2]], int(s[3]))
        return [fsf, wxf] if s[2] == "=" else [wxf, fsf]  # WXF writes "33.4", Fairy "33=4"
    elif c0 in "6789" and c1 == c0:
        kinds, how, a = (P,), "middle", int(c0)
    else:
        raise bad
    return [_Wanted(kinds, how, a, _WXF_DIRECTIONS[s[2]], int(s[3]))]


def parse_wxf(pos: Position, text: str) -> Move:
    """The legal move that WXF text names in pos (see the module docstring for what is read)."""
    _check_str(text, "WXF")
    first, *others = _parse_wxf_text(text)
    try:
        return _find(pos, first, text, "WXF")
    except IllegalMoveError:
        for other in others:  # "33" in WXF's or Fairy-Stockfish's reading: whichever fits
            try:
                return _find(pos, other, text, "WXF")
            except IllegalMoveError:
                pass
        raise


# -- Chinese ----------------------------------------------------------------------------------

_RED_NAMES = "帅仕相马车炮兵"
_BLACK_NAMES = "将士象马车炮卒"
_NUMERALS = "一二三四五六七八九"
_ORDINALS = "一二三四五"

#: Every character read as a piece name, by the kind it names (either side).
_NAME_KINDS: dict[str, PieceType] = {}
for _kind, _names in (
    (K, "帅帥将將"),
    (A, "仕士"),
    (E, "相象"),
    (H, "马馬傌"),
    (R, "车車俥"),
    (C, "炮砲包"),
    (P, "兵卒"),
):
    for _ch in _names:
        _NAME_KINDS[_ch] = _kind
_PLACES = {"前": "front", "后": "rear", "後": "rear", "中": "middle"}
_MOTIONS = {"进": "+", "進": "+", "退": "-", "平": "."}
_NUMBERS: dict[str, int] = {}
for _i in range(9):
    _NUMBERS[_NUMERALS[_i]] = _i + 1
    _NUMBERS[str(_i + 1)] = _i + 1
    _NUMBERS[chr(0xFF11 + _i)] = _i + 1  # full-width digits １..９


def _number(k: int, red: bool) -> str:
    return _NUMERALS[k - 1] if red else str(k)


def chinese(pos: Position, move: Move) -> str:
    """Chinese text of a legal move in pos, e.g. "炮二平五" or "马8进7" (see the module doc)."""
    ctx = _checked_context(pos, move, "Chinese")
    info = ctx.info(move.from_square)
    red = ctx.color == Color.RED
    name = (_RED_NAMES if red else _BLACK_NAMES)[info.piece_type]
    n, i, pt = info.size, info.order, info.piece_type
    if n == 1 or pt in (K, A, E):
        piece = name + _number(info.file, red)
    else:
        place = "前" if i == 0 else "后" if i == n - 1 else "中"
        if info.two_files:
            piece = place + name + _number(info.file, red)
        elif n <= 3:
            piece = place + name
        else:
            piece = _ORDINALS[i] + name
    direction, number = ctx.action(move)
    motion = {"+": "进", "-": "退", ".": "平"}[direction]
    return piece + motion + _number(number, red)


def _parse_chinese_text(text: str) -> _Wanted:
    s = "".join(text.split())
    bad = InvalidMoveError(
        f"expected Chinese move text such as '炮二平五', '马8进7', '前炮退二' or '前兵九平八', "
        f"got {quote(text)}"
    )
    kinds: list[str] = []
    for ch in s:
        if ch in _NAME_KINDS:
            kinds.append("N")
        elif ch in _PLACES:
            kinds.append("W")
        elif ch in _MOTIONS:
            kinds.append("M")
        elif ch in _NUMBERS:
            kinds.append("D")
        else:
            raise bad
    shape = "".join(kinds)
    if not shape.endswith("MD"):
        raise bad
    head = s[:-2]
    motion, number = _MOTIONS[s[-2]], _NUMBERS[s[-1]]
    if shape == "NDMD":  # 炮二平五
        return _Wanted((_NAME_KINDS[head[0]],), "file", _NUMBERS[head[1]], motion, number)
    if shape in ("WNMD", "NWMD"):  # 前炮退二, 车前平三
        w, nm = (head[0], head[1]) if shape[0] == "W" else (head[1], head[0])
        return _Wanted((_NAME_KINDS[nm],), _PLACES[w], 0, motion, number)
    if shape == "DNMD":  # 二兵进一
        k = _NUMBERS[head[0]]
        if k > 5:
            raise bad
        return _Wanted((_NAME_KINDS[head[1]],), "series", k, motion, number)
    if shape == "WNDMD":  # 前兵九平八
        return _Wanted((_NAME_KINDS[head[1]],), _PLACES[head[0]], _NUMBERS[head[2]], motion, number)
    if shape == "WDMD":  # 前九平八
        return _Wanted((P,), _PLACES[head[0]], _NUMBERS[head[1]], motion, number)
    raise bad


def parse_chinese(pos: Position, text: str) -> Move:
    """The legal move that Chinese text names in pos (see the module docstring for the forms)."""
    _check_str(text, "Chinese")
    return _find(pos, _parse_chinese_text(text), text, "Chinese")


# -- SAN --------------------------------------------------------------------------------------

_SAN_LETTERS = "KAEHRCP"
#: Piece kinds of each SAN letter read (G general, B bishop and N knight as some GUIs write).
_SAN_READ: dict[str, PieceType] = {
    "K": K, "G": K, "A": A, "E": E, "B": E, "H": H, "N": H, "R": R, "C": C, "P": P,
}  # fmt: skip
SAN_RE = re.compile(r"([KGAEBHNRCP])?([a-i])?(10|[0-9])?[x:]?-?([a-i])(10|[0-9])([+#]?)", re.ASCII)


def san(pos: Position, move: Move) -> str:
    """SAN text of a legal move in pos as Fairy-Stockfish, Cutechess and XBoard-style GUIs
    write xiangqi: piece letter (K A E H R C P), the file and/or rank of departure when another
    piece of the kind could go to the same point, "x" for a capture, the point reached with
    ranks 1..10 from Red's side, then "+" for check or "#" for mate: "Che3", "Hg8", "Rxa10+"."""
    _checked_context(pos, move, "SAN")
    frm, to = move.from_square, move.to_square
    piece = pos.piece_at(frm)
    assert piece is not None
    rivals = [
        m.from_square
        for m in pos.legal_moves()
        if m.to_square == to and m.from_square != frm and pos.piece_at(m.from_square) == piece
    ]
    text = _SAN_LETTERS[piece.piece_type]
    if rivals:
        if all(sq % 9 != frm % 9 for sq in rivals):
            text += FILE_NAMES[frm % 9]
        elif all(sq // 9 != frm // 9 for sq in rivals):
            text += str(frm // 9 + 1)
        else:
            text += f"{FILE_NAMES[frm % 9]}{frm // 9 + 1}"
    if pos.is_capture(move):
        text += "x"
    text += f"{FILE_NAMES[to % 9]}{to // 9 + 1}"
    if pos.gives_check(move):
        pos.push(move)
        try:
            text += "#" if pos.is_checkmate() else "+"
        finally:
            pos.pop()
    return text


def parse_san(pos: Position, text: str, rank_base: int | None = None) -> Move:
    """The legal move that SAN text names in pos ("Che3", "Hg8", "Rxa10+", "Ra1-a2").

    Ranks count 1..10 from Red's side, as Fairy-Stockfish and Cutechess write them; a rank 0
    (XBoard numbers ranks 0..9) reads the text with ranks 0..9, and so does text that names no
    legal move with ranks 1..10 and has no rank 10; rank_base 1 or 0 asks for one numbering.
    The piece letter may be left out for a pawn; check marks are not checked, an "x" must be a
    capture.
    """
    _check_str(text, "SAN")
    match = SAN_RE.fullmatch(text.strip(" \t\r\n"))
    if match is None:
        raise InvalidMoveError(
            f"expected SAN move text such as 'Che3', 'Hg8' or 'Rxa10+', got {quote(text)}"
        )
    letter, from_file, from_rank, to_file, to_rank, _ = match.groups()
    ranks = [r for r in (from_rank, to_rank) if r is not None]
    bases = [0] if "0" in ranks else [1] if "10" in ranks else [1, 0]
    if rank_base is not None:
        bases = [check_int("rank_base", rank_base, 0, 1)]
    error: IllegalMoveError | None = None
    for base in bases:
        try:
            return _find_san(pos, match, base)
        except IllegalMoveError as exc:
            error = error or exc
    assert error is not None
    raise error


def _find_san(pos: Position, match: re.Match[str], base: int) -> Move:
    text = match.string
    letter, from_file, from_rank, to_file, to_rank, _ = match.groups()
    capture = bool(set(text) & set("x:"))
    kind = _SAN_READ[letter] if letter else P
    rank = int(to_rank) - base
    if not 0 <= rank <= 9:
        raise IllegalMoveError(f"SAN move {quote(text)}: no rank {to_rank} in {pos.fen()!r}")
    to = FILE_NAMES.index(to_file) + 9 * rank
    fitting = []
    for move in pos.legal_moves():
        frm = move.from_square
        if move.to_square != to:
            continue
        piece = pos.piece_at(frm)
        if piece is None or piece.piece_type != kind:
            continue
        if from_file is not None and FILE_NAMES[frm % 9] != from_file:
            continue
        if from_rank is not None and frm // 9 != int(from_rank) - base:
            continue
        if capture and not pos.is_capture(move):
            continue
        fitting.append(move)
    if len(fitting) == 1:
        return fitting[0]
    why = "ambiguous, it fits " + ", ".join(sorted(m.iccs() for m in fitting))
    if not fitting:
        side = "Red" if pos.turn == Color.RED else "Black"
        why = f"no legal {side} {kind.name.lower()} move goes there"
    raise IllegalMoveError(f"SAN move {quote(text)}: {why} in {pos.fen()!r}")


def _check_str(text: object, notation: str) -> None:
    if not isinstance(text, str):
        raise TypeError(f"{notation} move text must be a str, got {type(text).__name__}")
