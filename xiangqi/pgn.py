"""Game records in xiangqi PGN: reading, replaying through the core, and writing.

The dialect is the one of the xqbase "中国象棋电脑应用规范" PGN spec and the WXF game files:
tag pairs (``[Game "Chinese Chess"]`` first, then Event, Site, Date, Round, RedTeam, Red,
BlackTeam, Black, Result, and optionally ``[FEN "..."]`` for the start and
``[Format "ICCS"|"WXF"|"Chinese"]`` for the move text), then move text with move numbers,
``{}`` and ``;`` comments, NAGs (``$1``), and a result: ``1-0`` (Red won), ``0-1`` (Black won),
``1/2-1/2`` or ``*``. Squares are public numbers 0..89 (see xiangqi.squares).

Each move's notation is recognised on its own, whatever the Format tag says: ICCS ("H2-E2",
"h2e2"), Chinese ("炮二平五", any variant xiangqi.notation reads) or WXF ("C2.5", "C2=5").
Trailing "!", "?" and check marks ("+", "#") after a complete move are ignored, move numbers
may be written "1." or, as in Chinese books, "1、", and variations in parentheses are skipped.

Errors are handled as python-chess does: a bad move does not raise, it is recorded. The game
keeps the moves before it, ``game.errors`` holds an InvalidPgnMoveError (text that is no move)
or IllegalPgnMoveError (no legal move, or more than one, fits the text where it stands) giving
the ply, and the move texts from the bad one on stay in ``game.unread``. Pass ``strict=True`` to
raise the first error instead. Both error classes are ValueErrors, and subclasses of
InvalidMoveError and IllegalMoveError.
"""

from __future__ import annotations

import io
import re
from typing import Literal, TextIO

from .errors import IllegalMoveError, InvalidMoveError
from .fen import START_FEN
from .move import Move
from .notation import chinese, iccs, parse_chinese, parse_iccs, parse_wxf, wxf
from .pieces import Color
from .position import Position

__all__ = [
    "Game",
    "IllegalPgnMoveError",
    "InvalidPgnMoveError",
    "PgnFormat",
    "PgnMoveError",
    "RESULTS",
    "read_game",
    "read_games",
]

PgnFormat = Literal["ICCS", "WXF", "Chinese"]
#: The game termination markers: Red won, Black won, drawn, unknown or unfinished.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: Tags written first, in this order (the xqbase spec's roster); the rest follow as added.
TAG_ORDER = (
    "Game",
    "Event",
    "Site",
    "Date",
    "Round",
    "RedTeam",
    "Red",
    "BlackTeam",
    "Black",
    "Result",
)
_DEFAULT_TAGS = {
    "Game": "Chinese Chess",
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "Red": "?",
    "Black": "?",
    "Result": "*",
}


class IllegalPgnMoveError(IllegalMoveError):
    """A move of a game record that is well formed but fits no legal move (or several) there."""

    def __init__(self, message: str, ply: int, text: str) -> None:
        super().__init__(message)
        self.ply = ply  #: 1 for Red's first move of the record, 2 for the reply, ...
        self.text = text  #: the move text as written


class InvalidPgnMoveError(InvalidMoveError):
    """A move of a game record whose text is not a move in any notation read."""

    def __init__(self, message: str, ply: int, text: str) -> None:
        super().__init__(message)
        self.ply = ply  #: 1 for the first move of the record, 2 for the reply, ...
        self.text = text  #: the move text as written


PgnMoveError = IllegalPgnMoveError | InvalidPgnMoveError


class Game:
    """A game record: tags, the start position, the moves (Move objects), comments, result.

    ``comments[k]`` is the comment after the k-th move (``comments[0]`` comes before the first
    one). ``errors`` and ``unread`` are filled only by the reader (see the module docstring).
    """

    def __init__(self, fen: str | None = None, tags: dict[str, str] | None = None) -> None:
        self.tags: dict[str, str] = dict(_DEFAULT_TAGS)
        if tags:
            self.tags.update(tags)
        if fen is not None:
            self.tags["FEN"] = Position(fen).fen()
        self.moves: list[Move] = []
        self.comments: dict[int, str] = {}
        self.errors: list[PgnMoveError] = []
        self.unread: list[str] = []

    @property
    def fen(self) -> str:
        """FEN of the start position (the FEN tag, or the usual start)."""
        return self.tags.get("FEN", START_FEN)

    @property
    def result(self) -> str:
        """The Result tag: "1-0", "0-1", "1/2-1/2" or "*"."""
        return self.tags.get("Result", "*")

    @result.setter
    def result(self, value: str) -> None:
        if value not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, got {value!r}")
        self.tags["Result"] = value

    def board(self) -> Position:
        """A new Position at the start of the game."""
        return Position(self.fen)

    def end(self) -> Position:
        """A new Position after all the moves, with them on its move stack."""
        pos = self.board()
        for move in self.moves:
            pos.push(move)
        return pos

    def add_move(self, move: Move, comment: str | None = None) -> None:
        """Append a move, legal after the moves so far (else IllegalMoveError), and a comment."""
        self.end().push(move)
        self.moves.append(move)
        if comment:
            self.comments[len(self.moves)] = comment

    def to_pgn(self, format: str = "ICCS", width: int = 80) -> str:
        """PGN text: tags, then moves in format "ICCS" (H2-E2), "WXF" (C2.5) or "Chinese"."""
        fmt = _format_name(format)
        tags = dict(self.tags)
        tags["Format"] = fmt
        if tags.get("FEN") == START_FEN:
            del tags["FEN"]
        names = [t for t in TAG_ORDER if t in tags] + [t for t in tags if t not in TAG_ORDER]
        lines = [f'[{name} "{_escape(tags[name])}"]' for name in names]
        lines.append("")
        pos = self.board()
        tokens: list[str] = []
        if self.comments.get(0):
            tokens.append(_comment(self.comments[0]))
        for ply, move in enumerate(self.moves, 1):
            if pos.turn == Color.RED:
                tokens.append(f"{pos.fullmove_number}.")
            elif ply == 1 or self.comments.get(ply - 1):
                tokens.append(f"{pos.fullmove_number}...")
            tokens.append(_write(pos, move, fmt))
            pos.push(move)
            if self.comments.get(ply):
                tokens.append(_comment(self.comments[ply]))
        tokens.append(self.result)
        lines += _wrap(tokens, width)
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_pgn()

    def __repr__(self) -> str:
        red, black = self.tags.get("Red", "?"), self.tags.get("Black", "?")
        return f"<Game {red!r} vs {black!r}, {len(self.moves)} moves, {self.result}>"


def _format_name(format: str) -> PgnFormat:
    for name in ("ICCS", "WXF", "Chinese"):
        if format.lower() == name.lower():
            return name
    raise ValueError(f"format must be 'ICCS', 'WXF' or 'Chinese', got {format!r}")


def _write(pos: Position, move: Move, fmt: PgnFormat) -> str:
    if fmt == "ICCS":
        return iccs(move, "dashed")
    if fmt == "WXF":
        return wxf(pos, move)
    return chinese(pos, move)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    return "{" + text.replace("}", ")") + "}"


def _wrap(tokens: list[str], width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return lines


# -- reading ----------------------------------------------------------------------------------

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN = re.compile(
    r"""
      \{(?P<comment>[^}]*)\}?
    | ;(?P<line_comment>[^\n]*)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<nag>\$\d+)
    | (?P<result>1-0|0-1|1/2-1/2|\*)(?=[\s{};()]|$)
    | (?P<number>\d+\s*(?:\.+|、))(?!\d)
    | (?P<move>[^\s{}();$]+)
    """,
    re.VERBOSE,
)
_ICCS_TOKEN = re.compile(r"[a-iA-I][0-9]-?[a-iA-I][0-9]")
_CJK = re.compile(r"[^\x00-\x7f]")


def _parse_move(pos: Position, text: str) -> Move:
    """The legal move a move token names, in whichever notation it is written."""
    word = text.rstrip("!?")
    if _CJK.search(word):
        return parse_chinese(pos, word.rstrip("+#"))
    if _ICCS_TOKEN.fullmatch(word.rstrip("+#")):
        return parse_iccs(pos, word.rstrip("+#"))
    if len(word) == 5 and word[-1] in "+#":
        word = word[:-1]
    return parse_wxf(pos, word)


def _ends_game(movetext: str) -> bool:
    """Does the move text so far hold a result marker outside comments and variations?"""
    depth = 0
    for match in _TOKEN.finditer(movetext):
        if match.group("open"):
            depth += 1
        elif match.group("close"):
            depth = max(0, depth - 1)
        elif match.group("result") and depth == 0:
            return True
    return False


def _build(tag_lines: list[str], movetext: str, strict: bool) -> Game:
    game = Game()
    for line in tag_lines:
        for name, value in _TAG.findall(line):
            game.tags[name] = re.sub(r"\\(.)", r"\1", value)
    pos = game.board()  # a bad FEN tag raises InvalidFenError
    failed = False
    depth = 0
    for match in _TOKEN.finditer(movetext):
        kind = match.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif depth or kind in ("nag", "number"):
            continue
        elif kind in ("comment", "line_comment"):
            text = (match.group(kind) or "").strip()
            if text and not failed:
                ply = len(game.moves)
                joined = f"{game.comments[ply]} {text}" if ply in game.comments else text
                game.comments[ply] = joined
        elif kind == "result":
            if game.tags.get("Result", "*") == "*":
                game.tags["Result"] = match.group("result")
        elif failed:
            game.unread.append(match.group("move"))
        else:
            text = match.group("move")
            ply = len(game.moves) + 1
            try:
                move = _parse_move(pos, text)
            except (InvalidMoveError, IllegalMoveError) as exc:
                side = "Red" if pos.turn == Color.RED else "Black"
                where = f"ply {ply} (move {pos.fullmove_number}, {side}) {text!r}"
                error: PgnMoveError
                if isinstance(exc, IllegalMoveError):
                    error = IllegalPgnMoveError(f"{where}: {exc}", ply, text)
                else:
                    error = InvalidPgnMoveError(f"{where}: {exc}", ply, text)
                if strict:
                    raise error from None
                game.errors.append(error)
                game.unread.append(text)
                failed = True
                continue
            pos.push(move)
            game.moves.append(move)
    return game


def read_game(source: str | TextIO, *, strict: bool = False) -> Game | None:
    """Read the next game from PGN text or an open text file; None when there is none left.

    From a file, reading stops after the game's result marker (or before the next game's tags,
    when the file can seek), so calling again reads the next game. Bad moves are recorded in
    game.errors (see the module docstring); strict=True raises the first one instead.
    """
    handle = io.StringIO(source) if isinstance(source, str) else source
    tag_lines: list[str] = []
    movetext: list[str] = []
    while True:
        mark = handle.tell() if handle.seekable() else None
        line = handle.readline()
        if not line:
            break
        stripped = line.strip().lstrip("\ufeff")
        if not movetext:
            if stripped.startswith("["):
                tag_lines.append(stripped)
                continue
            if not stripped or stripped.startswith("%"):
                continue
        elif stripped.startswith("[") and _TAG.match(stripped):
            if mark is not None:
                handle.seek(mark)  # the next game's tags: leave them for the next call
            break
        movetext.append(line)
        if _ends_game("".join(movetext)):
            break
    if not tag_lines and not movetext:
        return None
    return _build(tag_lines, "".join(movetext), strict)


def read_games(source: str | TextIO, *, strict: bool = False) -> list[Game]:
    """Every game in PGN text or an open text file, in order (see read_game)."""
    handle = io.StringIO(source) if isinstance(source, str) else source
    games: list[Game] = []
    while (game := read_game(handle, strict=strict)) is not None:
        games.append(game)
    return games
