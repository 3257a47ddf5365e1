"""DhtmlXQ, the UBB game text of most Chinese xiangqi web sites (dpxq.com and its players).

A record is a run of tags ``[DhtmlXQ_name]value[/DhtmlXQ_name]``, usually inside
``[DhtmlXQ]...[/DhtmlXQ]`` and often inside an HTML page. Coordinates are digit pairs ``xy``:
x the file 0..8 from Red's left, y the row 0..9 from Black's side (so public square
``x + 9 * (9 - y)``, see xiangqi.squares)::

    binit           32 pairs, the squares of Red's R N B A K A B N R C C P P P P P then
                    Black's; "99" for a piece not on the board (missing: the usual start)
    fen             a FEN, which some sites give instead of binit
    movelist        the main line, four digits a move (from xy, to xy)
    move_P_S_B      branch B: moves replacing ply S (1 for the first move) of branch P
                    (0 is the main line), played from the position before that ply
    comment0        the comment before the first move; commentI follows ply I of the main
                    line, commentB_I ply I of branch B; "||" is a line break and \\uXXXX
                    a character
    title event date place round red black redteam blackteam open author remark result
                    tags ("open" is the opening, often an ECCO code and its name;
                    "result" is text such as 红胜, 黑负, 和棋 or 1-0)

The side to move is the side of the first move's piece (the format has no field for it).
Branch numbering and the comment keys follow the reading of vschess (微思象棋播放器), the
most used open player.

``read_dhtml(source)`` reads text (a str holding ``[DhtmlXQ``), bytes, a path or a file, and
returns a Game; moves it cannot play are recorded in ``game.errors`` (with the ply) and the
rest of their branch dropped. ``write_dhtml(game)`` writes the tags, the start, the tree and
the comments; reading it back gives the same game.
"""

from __future__ import annotations

import os
import re

from ..errors import IllegalMoveError, XiangqiError
from ..move import Move
from ..pgn import ChildNode, Game, GameNode
from ..pgn._base import QUOTE, UNWRITABLE, check_tag
from ..pgn.visitor import Visitor, walk
from ..position import Position
from .common import (
    Source,
    add_error,
    board_text,
    load_start,
    piece_at,
    read_source,
    refuse_null,
    start_pieces,
)

__all__ = ["InvalidDhtmlError", "read_dhtml", "sniff", "write_dhtml"]

#: Piece letters (FEN) of the 32 binit pairs, in order.
PIECE_ORDER = "RNBAKABNRCCPPPPPrnbakabnrccppppp"
#: DhtmlXQ tag name -> PGN tag name.
TAGS = {
    "title": "Title",
    "event": "Event",
    "date": "Date",
    "place": "Site",
    "round": "Round",
    "red": "Red",
    "black": "Black",
    "redteam": "RedTeam",
    "blackteam": "BlackTeam",
    "open": "Opening",
    "author": "Annotator",
    "remark": "Remark",
}
#: Result words after _normal_result(), and the PGN result each means.
RESULT_WORDS = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "红胜": "1-0",
    "黑负": "1-0",
    "黑胜": "0-1",
    "红负": "0-1",
    "和": "1/2-1/2",
    "和棋": "1/2-1/2",
    "和局": "1/2-1/2",  # as dpxq.com's records write a draw
    "平局": "1/2-1/2",
    "红和": "1/2-1/2",
    "黑和": "1/2-1/2",
}
_RESULT_TEXT = {"1-0": "红胜", "0-1": "黑胜", "1/2-1/2": "和棋"}
_TRADITIONAL = str.maketrans({"紅": "红", "勝": "胜", "負": "负"})
_ECCO = re.compile(r"([A-E][0-9]{2})\b\s*(.*)", re.S)
# Branch and ply numbers: at most 9 digits (a record's numbers never come close).
_COMMENT_KEY = re.compile(r"comment(?:([0-9]{1,9})_)?([0-9]{1,9})")
_BRANCH_KEY = re.compile(r"move_([0-9]{1,9})_([0-9]{1,9})_([0-9]{1,9})")
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


class InvalidDhtmlError(XiangqiError):
    """Text that holds no DhtmlXQ record, or one whose start position cannot be read."""


def sniff(data: bytes) -> bool:
    """Do these bytes (the start of a file or page) hold a DhtmlXQ record?"""
    return b"[DhtmlXQ" in data or "[DhtmlXQ".encode("utf-16-le") in data


def _decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("gb18030", errors="replace")


def _text_of(source: object) -> str:
    if isinstance(source, str) and "[DhtmlXQ" not in source:
        if not os.path.exists(source):
            shown = repr(source[:QUOTE]) + ("..." if len(source) > QUOTE else "")
            raise InvalidDhtmlError(f"no [DhtmlXQ_...] tags in the text, nor a file named {shown}")
    elif isinstance(source, str):
        return source
    return _decode(read_source(source, "read_dhtml"))


def _tags(text: str) -> dict[str, str]:
    """Each DhtmlXQ tag's value (the first of repeated tags), in linear time."""
    found: dict[str, str] = {}
    for segment in text.split("[DhtmlXQ")[1:]:
        if not segment.startswith("_"):
            continue
        close = segment.find("]")
        if close < 0:
            continue
        name = segment[1:close].lower()
        end = segment.find("[/DhtmlXQ", close)
        value = segment[close + 1 : end if end >= 0 else len(segment)]
        found.setdefault(name, value.strip())
    return found


def _unescape(value: str) -> str:
    """The text of a tag value: "||" is a line break, \\uXXXX a UTF-16 code unit (a pair of
    them one character outside the BMP; a lone surrogate becomes U+FFFD)."""
    value = value.replace("||", "\n")
    value = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), value)
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return value


def _escape(value: str) -> str:
    """A tag value: markup characters and control characters (a tab too: the reader strips
    a tag's ends) as \\uXXXX, lone surrogates (which no encoding carries) dropped, line
    breaks as "||"."""
    out = []
    for ch in value.replace("\r\n", "\n"):
        if "\ud800" <= ch <= "\udfff":
            continue
        if ch in "[]\\|\t\r" or UNWRITABLE.match(ch):
            out.append(f"\\u{ord(ch):04x}")
        elif ch == "\n":
            out.append("||")
        else:
            out.append(ch)
    return "".join(out)


def _square(x: str, y: str) -> int:
    return int(x) + 9 * (9 - int(y))


def _move_square(x: str, y: str) -> int | None:
    return None if x == "9" else _square(x, y)


def _normal_result(text: str) -> str:
    word = text.translate(_TRADITIONAL).replace("先", "").replace("方", "").strip()
    return RESULT_WORDS.get(word, "*")


def _start(tags: dict[str, str]) -> tuple[str, str | None]:
    """FEN board text of the binit (or fen) tag (the usual start when both are missing), and
    the side to move a fen tag gives ("w" or "b"; None when it gives none)."""
    if tags.get("fen"):
        fields = tags["fen"].split()
        side = None
        if len(fields) > 1 and fields[1] in ("w", "r", "b"):
            side = "b" if fields[1] == "b" else "w"
        try:  # checked with its own side to move (Black in check is legal with Black to move)
            fen, _ = load_start(fields[0] if fields else "", side or "w")
        except XiangqiError as exc:
            raise InvalidDhtmlError(f"DhtmlXQ_fen is not a position: {exc}") from None
        return fen.split()[0], side
    binit = tags.get("binit", "")
    if not binit:
        return Position().board_fen(), None
    if len(binit) != 64 or not (binit.isascii() and binit.isdigit()):
        raise InvalidDhtmlError(f"DhtmlXQ_binit must be 64 digits, got {binit[:QUOTE]!r}")
    board: list[str | None] = [None] * 90
    for i in range(32):
        x, y = binit[2 * i], binit[2 * i + 1]
        if x == "9":  # "99" (or any x of 9): the piece is not on the board
            continue
        square = _square(x, y)
        if board[square] is not None:
            raise InvalidDhtmlError(f"DhtmlXQ_binit puts two pieces on square {x}{y}: {binit!r}")
        board[square] = PIECE_ORDER[i]
    return board_text(board), None


def _moves(text: str) -> tuple[list[tuple[int | None, int | None]], str]:
    """The (from, to) squares of a move string, and what was left unread (bad text)."""
    moves: list[tuple[int | None, int | None]] = []
    usable = len(text) - len(text) % 4
    for i in range(0, usable, 4):
        chunk = text[i : i + 4]
        if not (chunk.isascii() and chunk.isdigit()):
            return moves, text[i:]
        moves.append((_move_square(chunk[0], chunk[1]), _move_square(chunk[2], chunk[3])))
    return moves, text[usable:]


def read_dhtml(source: Source) -> Game:
    """Read a DhtmlXQ record (text, bytes, a str or os.PathLike path, or a file) into a Game.

    Squares are public numbers 0..89. Raises InvalidDhtmlError when the text holds no
    ``[DhtmlXQ_...]`` tag or its start position cannot be read; moves that cannot be
    played are recorded in game.errors and the rest of their branch dropped.
    """
    text = _text_of(source)
    tags = _tags(text)
    if not tags:
        raise InvalidDhtmlError(f"no [DhtmlXQ_...] tags in the text: {text[:QUOTE]!r}")
    board, side_given = _start(tags)
    # dpxq's own player rewrites movelist as move_0_1_0; some pages carry only that.
    main, rest = _moves(tags.get("movelist", tags.get("move_0_1_0", "")))
    side = side_given or "w"
    if main and main[0][0] is not None:  # the first move's piece says whose move it is
        letter = piece_at(board, main[0][0])
        side = "b" if letter is not None and letter.islower() else "w"
    try:
        fen, note = load_start(board, side)
    except XiangqiError as exc:
        raise InvalidDhtmlError(f"the DhtmlXQ start is not a valid position: {exc}") from None
    game = Game(fen=fen)
    if note is not None and main:
        add_error(game, f"DhtmlXQ: {note}", 0)
    for key, name in TAGS.items():
        if tags.get(key):
            game.tags[name] = _unescape(tags[key])
    opening = _ECCO.match(game.tags.get("Opening", ""))
    if opening:
        game.tags["ECCO"] = opening.group(1)
    game.tags["Result"] = _normal_result(tags.get("result", ""))
    comments: dict[tuple[int, int], str] = {}
    branches: dict[int, list[tuple[int, int, int, str]]] = {}
    for key, value in tags.items():
        m = _COMMENT_KEY.fullmatch(key)
        if m:
            comments[(int(m.group(1) or 0), int(m.group(2)))] = _unescape(value)
            continue
        m = _BRANCH_KEY.fullmatch(key)
        if m:
            parent, ply, branch = (int(g) for g in m.groups())
            if branch == 0:
                continue  # move_0_1_0: the main line, read above
            branches.setdefault(parent, []).append((branch, ply, parent, value))
    game.comment = comments.get((0, 0), "")
    if rest:
        add_error(game, f"DhtmlXQ_movelist ends in text that is no move: {rest[:QUOTE]!r}", 0)
    # (branch, ply) -> the node from which that ply is played (vschess's table).
    table: dict[tuple[int, int], GameNode] = {(0, 1): game}
    #: the branch number of each branch's first node, for the legality check's messages
    first_of: dict[int, int] = {}
    _grow(game, game, main, 0, 1, comments, table, first_of)
    # Branches hang from branches read before them: walk from the main line outwards.
    queue = [0]
    placed = {0}
    while queue:
        parent = queue.pop()
        for branch, ply, _, value in branches.pop(parent, []):
            if branch in placed:
                add_error(game, f"DhtmlXQ branch {branch} is given twice, skipped", ply)
                continue
            target = table.get((parent, ply))
            if target is None:
                add_error(
                    game,
                    f"DhtmlXQ_move_{parent}_{ply}_{branch} starts where branch {parent} has "
                    f"no ply {ply}, skipped",
                    ply,
                )
                continue
            moves, bad = _moves(value)
            if bad:
                add_error(game, f"DhtmlXQ branch {branch} ends in no move: {bad[:QUOTE]!r}", ply)
            _grow(game, target, moves, branch, ply, comments, table, first_of)
            placed.add(branch)
            queue.append(branch)
    for parent, lost in branches.items():
        for branch, ply, _, _ in lost:
            add_error(game, f"DhtmlXQ branch {branch} hangs from missing branch {parent}", ply)
    _drop_illegal(game, first_of)
    return game


def _grow(
    game: Game,
    node: GameNode,
    moves: list[tuple[int | None, int | None]],
    branch: int,
    ply: int,
    comments: dict[tuple[int, int], str],
    table: dict[tuple[int, int], GameNode],
    first_of: dict[int, int],
) -> None:
    """Hang moves from node as branch (its first move is ply), registering each node. The
    moves are checked afterwards, all in one walk (_drop_illegal): no replay per branch."""
    for i, (frm, to) in enumerate(moves):
        n = ply + i
        if frm is None or to is None or frm == to:
            add_error(game, f"DhtmlXQ branch {branch} ply {n} names no move, rest dropped", n)
            return
        node = ChildNode(node, Move(frm, to), comments.get((branch, n), ""), "", set())
        node.parent.variations.append(node)
        if i == 0:
            first_of[id(node)] = branch
        table[(branch, n + 1)] = node


def _drop_illegal(game: Game, first_of: dict[int, int]) -> None:
    """One walk of the tree with one Position (push, pop): a move that is not legal where it
    stands is removed with everything after it, and recorded. Linear in the tree's size."""
    pos = game.board()
    # (node, branch): enter node; None: leave the node entered last (pop its move)
    stack: list[tuple[ChildNode, int] | None] = [
        (c, first_of.get(id(c), 0)) for c in reversed(game.variations)
    ]
    ply = 0
    while stack:
        item = stack.pop()
        if item is None:
            pos.pop()
            ply -= 1
            continue
        node, branch = item
        try:
            pos.push(node.move)
        except IllegalMoveError as exc:
            node.parent.variations.remove(node)
            add_error(
                game,
                f"DhtmlXQ branch {branch} ply {ply + 1} is not legal, rest dropped: {exc}",
                ply + 1,
            )
            continue
        ply += 1
        stack.append(None)
        for child in reversed(node.variations):
            stack.append((child, first_of.get(id(child), branch)))


# -- writing ----------------------------------------------------------------------------------


def _pair(square: int) -> str:
    return f"{square % 9}{9 - square // 9}"


def write_dhtml(game: GameNode) -> str:
    """The DhtmlXQ text of a Game: tags, start (binit), main line, branches and comments.

    Squares are public numbers 0..89. Comments and tag values escape ``[``, ``]``, ``\\``
    and ``|`` as \\uXXXX and write line breaks as ``||``; NAGs and starting comments have
    no place in DhtmlXQ and are dropped. read_dhtml() reads the text back to the same game.
    """
    if not isinstance(game, Game):
        raise TypeError(f"write_dhtml() takes a pgn.Game, got {type(game).__name__}")
    for name, value in game.tags.items():  # as the PGN writer does: str tags only
        check_tag(name, value)
    lines = ["[DhtmlXQ]"]

    def tag(name: str, value: str) -> None:
        lines.append(f"[DhtmlXQ_{name}]{value}[/DhtmlXQ_{name}]")

    for key, name in TAGS.items():
        if game.tags.get(name) and game.tags[name] != "?":
            tag(key, _escape(game.tags[name]))
    result = game.tags.get("Result", "*")
    if result in _RESULT_TEXT:
        tag("result", _RESULT_TEXT[result])
    pieces, side, _ = start_pieces(game)
    slots = ["99"] * 32
    for square, letter in sorted(pieces.items()):
        letter = {"E": "B", "H": "N", "e": "b", "h": "n"}.get(letter, letter)
        for i in range(32):
            if PIECE_ORDER[i] == letter and slots[i] == "99":
                slots[i] = _pair(square)
                break
    tag("binit", "".join(slots))
    if side == 1:  # binit has no side to move: say it, as the fen tag's side field
        tag("fen", game.fen)
    branch_lines: list[tuple[int, int, int, str]] = []
    comment_tags: list[tuple[str, str]] = []
    if game.comment:
        comment_tags.append(("comment0", _escape(game.comment)))
    for line in walk(game, _DhtmlBranches()):
        if line.moves:
            comment_tags += line.comments
            branch_lines.append((line.parent, line.ply, line.number, "".join(line.moves)))
    for parent, ply, branch, text in branch_lines:
        if branch == 0:
            tag("movelist", text)
        else:
            tag(f"move_{parent}_{ply}_{branch}", text)
    for key, value in comment_tags:
        tag(key, value)
    lines.append("[/DhtmlXQ]")
    return "\n".join(lines) + "\n"


class _Branch:
    """One DhtmlXQ branch: its number, its parent's, the ply of its first move, its moves."""

    __slots__ = ("number", "parent", "ply", "moves", "comments")

    def __init__(self, number: int, parent: int) -> None:
        self.number = number
        self.parent = parent
        self.ply = 1
        self.moves: list[str] = []
        self.comments: list[tuple[str, str]] = []


class _DhtmlBranches(Visitor[list[_Branch]]):
    """The branches of the tree, numbered as DhtmlXQ does: the main line is 0; each later
    child of a node starts the next number (parents first: the walk's order), its parent
    branch the node's."""

    def __init__(self) -> None:
        self.branches = [_Branch(0, 0)]
        self.open = [self.branches[0]]

    def visit_move(self, board: Position | None, node: ChildNode, ply: int) -> None:
        if not node.move:
            refuse_null(node, ply, "DhtmlXQ")
        branch = self.open[-1]
        if not branch.moves:
            branch.ply = ply
        branch.moves.append(_pair(node.move.from_square) + _pair(node.move.to_square))
        if node.comment:
            key = f"comment{ply}" if branch.number == 0 else f"comment{branch.number}_{ply}"
            branch.comments.append((key, _escape(node.comment)))

    def begin_variation(self, node: ChildNode) -> None:
        branch = _Branch(len(self.branches), self.open[-1].number)
        self.branches.append(branch)
        self.open.append(branch)

    def end_variation(self) -> None:
        self.open.pop()

    def result(self) -> list[_Branch]:
        return self.branches
