"""The PGN writer: tags, then the tree with variations, NAGs and comments (see xiangqi.pgn).

``write_pgn(game, format, width)`` is ``Game.to_pgn``. The moves come from the one tree walk
(xiangqi.pgn.visitor), as the XQF and DhtmlXQ writers' do.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .._checks import check_int
from ..fen import START_FEN, parse_fen
from ..move import Move
from ..notation import chinese, iccs, san, wxf
from ..pieces import Color
from ..position import Position
from ._base import (
    RESULTS,
    TAG_ORDER,
    PgnFormat,
    check_format,
    check_tag,
    check_text,
    writable,
)
from .visitor import Visitor, walk

if TYPE_CHECKING:
    from .tree import ChildNode, Game


def write_pgn(game: Game, format: str = "ICCS", width: int = 80) -> str:
    """PGN text of game: tags, then the tree in format "ICCS", "WXF", "Chinese" or "SAN"."""
    fmt = check_format(format)
    check_int("width", width, 1)
    tags = dict(game.tags)
    for name, value in tags.items():
        check_tag(name, value)
    tags["Format"] = fmt
    if fmt == "SAN":
        tags.setdefault("Variant", "xiangqi")
    if tags.get("FEN") == START_FEN:
        del tags["FEN"]
    names = [t for t in TAG_ORDER if t in tags] + [t for t in tags if t not in TAG_ORDER]
    lines = [f'[{name} "{_escape_tag(tags[name])}"]' for name in names]
    lines.append("")
    tokens = walk(game, _MoveText(fmt))
    # The terminator is always a result marker, whatever text the Result tag holds.
    tokens.append(game.result if game.result in RESULTS else "*")
    lines += _wrap(tokens, width)
    return "\n".join(lines) + "\n"


def _escape_tag(value: str) -> str:
    # A tag value holds printing characters only (PGN Standard 8.1): a tab is written as a
    # space, the other control characters are dropped, line breaks escaped (this reader's).
    value = writable(value).replace("\t", " ")
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")


_LINE_START_BRACKET = re.compile(r"(^|\n)([ \t\ufeff]*)\[")


def _comment_text(text: str) -> str:
    """The text of a comment as written: without the characters PGN cannot carry."""
    return writable(text).strip()


def _comment(text: str) -> str:
    body = writable(text).replace("\r\n", "\n").replace("\r", "\n").strip()
    body = body.replace("\\", "\\\\").replace("}", "\\}")
    body = _LINE_START_BRACKET.sub(lambda m: m.group(1) + m.group(2) + "\\[", body)
    return "{" + body + "}"


class _MoveText(Visitor[list[str]]):
    """The move text tokens of the whole tree: numbers, moves, NAGs, comments, variations."""

    def __init__(self, fmt: PgnFormat) -> None:
        self.fmt = fmt
        self.needs_board = fmt != "ICCS"
        self.tokens: list[str] = []
        self.need_number = True  # write the move number even before Black's move
        self.force = False  # the next move opens a variation

    def begin_game(self, game: Game) -> None:
        check_text(game.comment, "the game's comment")
        if _comment_text(game.comment):
            self.tokens.append(_comment(game.comment))
        start = parse_fen(game.fen)  # syntax only: a kept diagram no side can move from
        self.red_first = start.side == Color.RED
        self.start_number = start.fullmove_number

    def begin_variation(self, node: ChildNode) -> None:
        self.tokens.append("(")
        if isinstance(node.starting_comment, str) and _comment_text(node.starting_comment):
            self.tokens.append(_comment(node.starting_comment))
        self.need_number = True

    def end_variation(self) -> None:
        self.tokens.append(")")
        self.need_number = True

    def visit_move(self, board: Position | None, node: ChildNode, ply: int) -> None:
        _check_writable(node, ply)
        half = ply - 1 + (0 if self.red_first else 1)
        if half % 2 == 0:
            self.tokens.append(f"{self.start_number + half // 2}.")
        elif self.need_number:
            self.tokens.append(f"{self.start_number + half // 2}...")
        move = node.move
        if not move:
            self.tokens.append("--")  # the null move, as python-chess writes it
        elif board is None:
            self.tokens.append(iccs(move, "dashed"))
        elif self.fmt == "WXF":
            self.tokens.append(wxf(board, move))
        elif self.fmt == "SAN":
            self.tokens.append(san(board, move))
        else:
            self.tokens.append(chinese(board, move))
        for nag in sorted(node.nags):
            self.tokens.append(f"${nag}")
        commented = bool(_comment_text(node.comment))
        if commented:
            self.tokens.append(_comment(node.comment))
        # A number again after a comment, or where variations of this move follow it.
        self.need_number = commented or (
            node.parent.variations[0] is node and len(node.parent.variations) > 1
        )

    def result(self) -> list[str]:
        # "(" sticks to the token after it and ")" to the token before, as python-chess writes.
        out: list[str] = []
        glue = False
        for token in self.tokens:
            if token == ")" and out:
                out[-1] += token
            elif glue:
                out[-1] += token
            else:
                out.append(token)
            glue = token == "("
        return out


def _check_writable(node: ChildNode, ply: int) -> None:
    """Refuse to write what the reader could not read back (a node edited by hand)."""
    if not isinstance(node.move, Move):
        raise TypeError(f"the move at ply {ply} must be a Move, got {type(node.move).__name__}")
    for what in ("comment", "starting_comment"):
        value = getattr(node, what)
        if not isinstance(value, str):
            raise TypeError(
                f"the {what} of {node.move.iccs()} at ply {ply} must be a str, "
                f"got {type(value).__name__}"
            )
    nags = node.nags
    if not isinstance(nags, (set, frozenset, list, tuple)):
        raise TypeError(f"the nags of {node.move.iccs()} at ply {ply} must be a set of int")
    for nag in nags:
        check_int(f"a NAG of {node.move.iccs()} at ply {ply}", nag, 0, 255)


def _wrap(tokens: list[str], width: int) -> list[str]:
    lines: list[str] = []
    line: list[str] = []
    size = 0
    for token in tokens:
        if "\n" in token:  # a multi-line comment: its lines go out as they are
            head, *rest = token.split("\n")
            if line and size + 1 + len(head) > width:
                lines.append(" ".join(line))
                line, size = [], 0
            line.append(head)
            lines.append(" ".join(line))
            lines += rest[:-1]
            line, size = [rest[-1]], len(rest[-1])
            continue
        if line and size + 1 + len(token) > width:
            lines.append(" ".join(line))
            line, size = [token], len(token)
        else:
            size += len(token) + (1 if line else 0)
            line.append(token)
    if line:
        lines.append(" ".join(line))
    return lines
