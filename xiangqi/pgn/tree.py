"""Game records in xiangqi PGN: a game tree, a streaming reader, and a lossless writer.

The dialect is the one of the xqbase "中国象棋电脑应用规范" PGN spec and the WXF game files:
tag pairs (``[Game "Chinese Chess"]`` first, then Event, Site, Date, Round, RedTeam, Red,
BlackTeam, Black, Result, and optionally ``[FEN "..."]`` for the start and
``[Format "ICCS"|"WXF"|"Chinese"|"SAN"]`` for the move text), then move text with move numbers,
``{}`` and ``;`` comments, NAGs (``$1``), variations in parentheses, and a result: ``1-0`` (Red
won), ``0-1`` (Black won), ``1/2-1/2`` or ``*``. Squares are public numbers 0..89 (see
xiangqi.squares).

The game tree follows python-chess's ``chess.pgn``: a ``Game`` is the root ``GameNode``; each
move is a ``ChildNode`` with ``move``, ``comment``, ``starting_comment`` (the comment before the
first move of a variation), ``nags`` and ``variations`` (the first is the main line).
``game.moves`` and ``game.comments`` are live list- and dict-like views of the main line
that keep the API of earlier versions (``game.moves.append(move)``, ``game.comments[k] = s``).

Reading
    Each move is recognised by its shape, whatever the Format tag says: ICCS ("H2-E2",
    "h2e2"), Chinese ("炮二平五", "马８进７", any variant xiangqi.notation reads), WXF ("C2.5",
    "C2=5", "+R+6", Fairy-Stockfish's "23=4") or SAN as Fairy-Stockfish, Cutechess and XBoard
    write xiangqi ("Che3", "Hg8", "Rxa10+"; see xiangqi.notation); full-width letters,
    digits and signs (``Ｃ２＝５``) are read as their ASCII
    forms outside comments, and two moves written together without a space (``Ｃ２＝５Ｈ８＋７``,
    ``炮二平五马８进７``) are split. Trailing "!", "?" (read as NAGs $1..$6) and check marks
    ("+", "#") are allowed after a move; move numbers may be "1.", "1..." or "1、".
    A line that starts with a tag pair always starts a game's tags, never move text (a game may
    stop at a bare move number right before the next game). Tags and moves may share a line.
    Line ends may be LF, CRLF or CR. ``read_games`` also takes binary files and paths and
    decides their encoding once for the whole file: a BOM (UTF-8, UTF-16), else, at the first
    non-ASCII line, from the next 32 kB: UTF-8 if they decode as UTF-8, else Big5 (cp950) or
    GB18030 (which covers GBK), whichever reads more moves and more of the words of xiangqi
    records. ``encoding=`` overrides this (UTF-16 and UTF-32 included).
    From a seekable file, each game read leaves the file at the start of the line where the
    next game starts, so ``f.tell()`` before ``read_game(f)`` is an offset to ``f.seek()`` back
    to (games that share a line share its offset: seeking there reads the first of them).

Errors are handled as python-chess does: a bad game does not raise, its problems are recorded.
The game keeps the moves before the first bad main-line move, ``game.errors`` holds an
InvalidPgnMoveError (text that is no move), IllegalPgnMoveError (no legal move, or more than
one, fits the text where it stands) or PgnSyntaxError (anything else skipped: a malformed tag,
an unclosed comment or variation, a stray character), each naming the game number and ply, and
the move texts from the bad one on stay in ``game.unread``. A bad move in a variation drops the
rest of that variation only. Pass ``strict=True`` to raise the first error instead.

Writing
    ``game.to_pgn(format)`` writes tags, then the tree with variations, NAGs and comments.
    Tag values escape ``\\``, ``"``, newline (``\\n``) and carriage return (``\\r``). Comments
    escape ``\\`` as ``\\\\``, ``}`` as ``\\}`` and a ``[`` that starts a comment line as
    ``\\[`` (so no comment line looks like a tag); the reader undoes exactly these escapes and
    keeps any other backslash. Whitespace around a comment is not kept, and CR in a comment is
    written as a line break. Within these rules, write -> read -> write gives the same text.
"""

from __future__ import annotations

import io
import os
import re
import typing
import weakref
from collections.abc import Iterable, Iterator, Mapping, MutableMapping, MutableSequence
from typing import IO, Literal, overload

from .errors import IllegalMoveError, InvalidMoveError, XiangqiError
from .fen import START_FEN
from .move import Move
from .notation import (
    SAN_RE,
    chinese,
    iccs,
    parse_chinese,
    parse_iccs,
    parse_san,
    parse_wxf,
    san,
    wxf,
)
from .pieces import Color
from .position import Position
from .rules import Outcome, Rules, check_rules

if typing.TYPE_CHECKING:
    from .ecco import Opening

__all__ = [
    "RESULTS",
    "ChildNode",
    "Game",
    "GameNode",
    "IllegalPgnMoveError",
    "InvalidPgnMoveError",
    "PgnError",
    "PgnFormat",
    "PgnMoveError",
    "PgnSyntaxError",
    "read_game",
    "read_games",
]

PgnFormat = Literal["ICCS", "WXF", "Chinese", "SAN"]
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
#: The longest quote of input put into an error message.
_QUOTE = 60
#: At most this many errors are kept per game; the last one says how many more there were.
_MAX_ERRORS = 100
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
#: NAG numbers of the move suffixes.
_SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


def _quote(text: str) -> str:
    """A bounded repr of input for error messages."""
    if len(text) > _QUOTE:
        return repr(text[:_QUOTE]) + f"... ({len(text)} characters)"
    return repr(text)


# -- errors -----------------------------------------------------------------------------------


class _PgnErrorMixin:
    game_number: int
    ply: int
    text: str


class IllegalPgnMoveError(IllegalMoveError, _PgnErrorMixin):
    """A move of a game record that is well formed but fits no legal move (or several) there."""

    def __init__(self, message: str, ply: int, text: str, game_number: int = 0) -> None:
        super().__init__(message)
        self.ply = ply  #: 1 for Red's first move of the record, 2 for the reply, ...
        self.text = text  #: the move text as written
        self.game_number = game_number  #: 1 for the first game read from a source

    def __reduce__(self) -> tuple[type, tuple[str, int, str, int]]:
        return type(self), (str(self), self.ply, self.text, self.game_number)


class InvalidPgnMoveError(InvalidMoveError, _PgnErrorMixin):
    """A move of a game record whose text is not a move in any notation read."""

    def __init__(self, message: str, ply: int, text: str, game_number: int = 0) -> None:
        super().__init__(message)
        self.ply = ply  #: 1 for the first move of the record, 2 for the reply, ...
        self.text = text  #: the move text as written
        self.game_number = game_number  #: 1 for the first game read from a source

    def __reduce__(self) -> tuple[type, tuple[str, int, str, int]]:
        return type(self), (str(self), self.ply, self.text, self.game_number)


class PgnSyntaxError(XiangqiError, _PgnErrorMixin):
    """Game record text the reader skipped: a malformed tag, a stray character, an open comment."""

    def __init__(self, message: str, ply: int, text: str, game_number: int = 0) -> None:
        super().__init__(message)
        self.ply = ply  #: moves read before the problem (0 in the tags)
        self.text = text  #: the text skipped (bounded)
        self.game_number = game_number  #: 1 for the first game read from a source

    def __reduce__(self) -> tuple[type, tuple[str, int, str, int]]:
        return type(self), (str(self), self.ply, self.text, self.game_number)


PgnMoveError = IllegalPgnMoveError | InvalidPgnMoveError
PgnError = IllegalPgnMoveError | InvalidPgnMoveError | PgnSyntaxError


# -- the game tree ----------------------------------------------------------------------------


def _check_move(move: object) -> Move:
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move, got {type(move).__name__}")
    return move


def _check_text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    return value


def _check_nags(nags: Iterable[int]) -> set[int]:
    out: set[int] = set()
    for nag in nags:
        if not isinstance(nag, int) or isinstance(nag, bool):
            raise TypeError(f"a NAG must be an int, got {type(nag).__name__}")
        if not 0 <= nag <= 255:
            raise ValueError(f"a NAG must be 0..255, got {nag}")
        out.add(nag)
    return out


class GameNode:
    """A node of a game tree: the position after ``move`` (None at the root, the Game).

    ``variations`` holds the child nodes, the main line first. ``comment`` follows the move
    (at the root: the comment before the first move). Squares are public numbers 0..89.
    """

    __slots__ = ("parent", "move", "variations", "comment", "starting_comment", "nags", "_game")

    parent: GameNode | None
    move: Move | None
    variations: list[ChildNode]
    comment: str
    starting_comment: str
    nags: set[int]
    _game: Game

    def game(self) -> Game:
        """The Game (root) this node belongs to."""
        return self._game

    def root(self) -> Game:
        """The Game (root) this node belongs to."""
        return self._game

    def _path(self) -> list[Move]:
        moves: list[Move] = []
        node: GameNode | None = self
        while node is not None and node.move is not None:
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        return moves

    def board(self) -> Position:
        """A new Position after this node's move, with the moves from the start on its stack."""
        pos = self._game.board()
        for move in self._path():
            pos.push(move)
        return pos

    def ply(self) -> int:
        """Number of moves from the start of the game to this node (0 at the root)."""
        n = 0
        node: GameNode | None = self
        while node is not None and node.move is not None:
            n += 1
            node = node.parent
        return n

    def is_end(self) -> bool:
        """Does no move follow this node?"""
        return not self.variations

    def next(self) -> ChildNode | None:
        """The main-line child, or None at the end."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main line from here (python-chess's ``end()``).

        ``game.end().board()`` is the final position; ``game.end().add_variation(m)``
        continues the game. (Up to 0.1.x, Game.end() returned that Position.)
        """
        node: GameNode = self
        while node.variations:
            node = node.variations[0]
        return node

    def end_node(self) -> GameNode:
        """The last node of the main line from here: the same as end()."""
        return self.end()

    def mainline(self) -> Iterator[ChildNode]:
        """The main-line nodes after this one, in order."""
        node: GameNode = self
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        """The main-line moves after this node."""
        return [node.move for node in self.mainline()]

    def is_mainline(self) -> bool:
        """Is this node on the game's main line?"""
        node: GameNode = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def is_main_variation(self) -> bool:
        """Is this node the main-line child of its parent (True at the root)?"""
        return self.parent is None or self.parent.variations[0] is self

    def _index(self, move: Move | int | GameNode) -> int:
        if isinstance(move, int) and not isinstance(move, bool):
            if not 0 <= move < len(self.variations):
                raise IndexError(f"variation index {move} out of range")
            return move
        for i, child in enumerate(self.variations):
            if child is move or child.move == move:
                return i
        if not isinstance(move, (Move, GameNode)):
            raise TypeError(f"expected a Move, a node or an index, got {type(move).__name__}")
        raise KeyError(f"no variation {move} here")

    def variation(self, move: Move | int | GameNode) -> ChildNode:
        """The child node of a move, an index or a node; KeyError/IndexError if none."""
        return self.variations[self._index(move)]

    def has_variation(self, move: Move) -> bool:
        """Is there a child node for move?"""
        return any(child.move == move for child in self.variations)

    def _changed(self) -> None:
        self._game._version += 1

    def add_variation(
        self,
        move: Move,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> ChildNode:
        """Add a legal move here as the last variation (IllegalMoveError if not legal)."""
        _check_move(move)
        comment = _check_text(comment, "comment")
        starting_comment = _check_text(starting_comment, "starting_comment")
        checked = _check_nags(nags)
        self.board().push(move)  # raises IllegalMoveError, nothing changed
        child = ChildNode(self, move, comment, starting_comment, checked)
        self.variations.append(child)
        self._changed()
        return child

    def add_main_variation(
        self, move: Move, *, comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """Add a legal move here as the new main line (the old main line becomes a variation)."""
        child = self.add_variation(move, comment=comment, nags=nags)
        self.variations.insert(0, self.variations.pop())
        return child

    def add_line(self, moves: Iterable[Move], *, comment: str = "") -> GameNode:
        """Add a line of legal moves from here (as a variation); return its last node."""
        pos = self.board()
        node: GameNode = self
        added: list[tuple[GameNode, ChildNode]] = []
        try:
            for move in moves:
                _check_move(move)
                pos.push(move)
                child = ChildNode(node, move, "", "", set())
                node.variations.append(child)
                added.append((node, child))
                node = child
        except (IllegalMoveError, TypeError):
            for parent, child in reversed(added):
                parent.variations.remove(child)
            raise
        if comment:
            node.comment = comment
        self._changed()
        return node

    def promote_to_main(self, move: Move | int | GameNode) -> None:
        """Make the variation of move the main line here."""
        i = self._index(move)
        self.variations.insert(0, self.variations.pop(i))
        self._changed()

    def promote(self, move: Move | int | GameNode) -> None:
        """Move the variation of move one place up."""
        i = self._index(move)
        if i > 0:
            v = self.variations
            v[i - 1], v[i] = v[i], v[i - 1]
            self._changed()

    def demote(self, move: Move | int | GameNode) -> None:
        """Move the variation of move one place down."""
        i = self._index(move)
        v = self.variations
        if i < len(v) - 1:
            v[i + 1], v[i] = v[i], v[i + 1]
            self._changed()

    def remove_variation(self, move: Move | int | GameNode) -> None:
        """Remove the variation of move, with everything after it."""
        del self.variations[self._index(move)]
        self._changed()


class ChildNode(GameNode):
    """A move of the tree: ``move`` played from ``parent``'s position, its comments and NAGs."""

    __slots__ = ()

    parent: GameNode
    move: Move

    def __init__(
        self, parent: GameNode, move: Move, comment: str, starting_comment: str, nags: set[int]
    ) -> None:
        self.parent = parent
        self.move = move
        self.variations = []
        self.comment = comment
        self.starting_comment = starting_comment
        self.nags = nags
        self._game = parent._game

    def iccs(self) -> str:
        """The move in ICCS ("h2e2")."""
        return self.move.iccs()

    def wxf(self) -> str:
        """The move in WXF notation, from the parent's position."""
        return wxf(self.parent.board(), self.move)

    def chinese(self) -> str:
        """The move in Chinese notation, from the parent's position."""
        return chinese(self.parent.board(), self.move)

    def __repr__(self) -> str:
        return f"<ChildNode {self.move.iccs()} at ply {self.ply()}>"

    def __reduce__(self) -> tuple[object, tuple[Game, list[int]]]:
        # Pickled as its game (flat, see Game.__reduce__) and its path of variation indexes.
        path: list[int] = []
        node: GameNode = self
        while node.parent is not None:
            path.append(node.parent.variations.index(node))  # type: ignore[arg-type]
            node = node.parent
        path.reverse()
        return _node_at, (self._game, path)


class Game(GameNode):
    """A game record: tags, the start position and the tree of moves, comments and NAGs.

    ``Game(fen=None, tags=None)`` starts from the usual position or a FEN. ``errors`` and
    ``unread`` are filled only by the reader (see the module docstring).
    """

    __slots__ = ("tags", "errors", "unread", "_version", "_cache")

    parent: None
    move: None

    def __init__(self, fen: str | None = None, tags: dict[str, str] | None = None) -> None:
        self.parent = None
        self.move = None
        self.variations = []
        self.comment = ""
        self.starting_comment = ""
        self.nags = set()
        self._game = self
        self._version = 0
        #: (version, last main-line node, Position there) for add_move in linear time.
        self._cache: tuple[int, GameNode, Position] | None = None
        self.tags: dict[str, str] = dict(_DEFAULT_TAGS)
        if tags is not None:
            if not isinstance(tags, dict):
                raise TypeError(f"tags must be a dict of str, got {type(tags).__name__}")
            for name, value in tags.items():
                _check_tag(name, value)
            self.tags.update(tags)
        if fen is not None:
            self.tags["FEN"] = Position(_check_text(fen, "fen")).fen()
        self.errors: list[PgnError] = []
        self.unread: list[str] = []

    @classmethod
    def from_board(cls, pos: Position, rules: Rules | str = Rules.ASIAN) -> Game:
        """A Game of a Position's moves, from the position before the first of them.

        When the position is ruled over (``pos.outcome(rules=rules)``), the Result tag is
        set from the ruling and a Termination tag names it ('checkmate', 'perpetual
        check', ...). Under the Chinese rules (``rules="chinese"``) a Rules tag says so
        (``[Rules "chinese"]``); the Asian rules, the default, add no tag.
        """
        if not isinstance(pos, Position):
            raise TypeError(f"from_board() takes a Position, got {type(pos).__name__}")
        rules = check_rules(rules)
        start = pos.copy()
        moves = start.move_stack
        while start.move_stack:
            start.pop()
        game = cls(fen=start.fen())
        for move in moves:
            game.add_move(move)
        if rules is Rules.CHINESE:
            game.tags["Rules"] = rules.value
        outcome = pos.outcome(rules=rules)
        if outcome is not None:
            game.result = outcome.result()
            game.tags["Termination"] = outcome.termination_tag()
        return game

    def outcome(
        self, repetitions: int = 3, move_limit: int = 120, rules: Rules | str = Rules.ASIAN
    ) -> Outcome | None:
        """The rulings on the main line's last position (Position.outcome), None if it goes on.

        Only the moves of this game count towards repetitions; the ruling is the rules', not
        the Result tag's (which says what the record claims). rules: "asian" (the default)
        or "chinese" (xiangqi.Rules); a Rules tag in the record does not change it.
        """
        rules = check_rules(rules)
        return self._end_position().outcome(
            repetitions=repetitions, move_limit=move_limit, rules=rules
        )

    def set_opening_tags(self, traditional: bool = False) -> Opening | None:
        """Set the ECCO, Opening and Variation tags from the main line (xiangqi.ecco.tag_game)."""
        from .ecco import tag_game

        return tag_game(self, traditional=traditional)

    @property
    def headers(self) -> dict[str, str]:
        """The tags (python-chess's name for them); the same dict as ``tags``."""
        return self.tags

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
        _check_text(value, "result")
        if value not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, got {_quote(value)}")
        self.tags["Result"] = value

    @property
    def moves(self) -> MainLineMoves:
        """The main-line moves, a live list-like view: ``append``/``extend`` play legal moves
        (as add_move), ``del moves[k:]`` and ``pop()`` cut the main line, indexing reads it."""
        return MainLineMoves(self)

    @moves.setter
    def moves(self, value: Iterable[Move]) -> None:
        if isinstance(value, MainLineMoves) and value._game is self:
            return  # moves += [...] assigns the view back to itself
        moves = [_check_move(m) for m in value]
        pos = self.board()
        for move in moves:
            pos.push(move)  # IllegalMoveError before anything changes
        if self.variations:
            del self.variations[0]  # the old main line; other variations stay variations
        node: GameNode = self
        for move in moves:
            child = ChildNode(node, move, "", "", set())
            node.variations.insert(0, child)
            node = child
        self._changed()

    @property
    def comments(self) -> MainLineComments:
        """Main-line comments by ply (0: before the first move), a live dict-like view of the
        non-empty ones: ``comments[k] = text`` sets the comment after the k-th move."""
        return MainLineComments(self)

    def board(self) -> Position:
        """A new Position at the start of the game."""
        return Position(self.fen)

    def _end_position(self) -> Position:
        """A new Position after the main-line moves, with them on its move stack."""
        pos = self.board()
        for move in self.mainline_moves():
            pos.push(move)
        return pos

    def add_move(self, move: Move, comment: str | None = None) -> ChildNode:
        """Append a move to the main line (IllegalMoveError if not legal there) in O(1).

        Returns the new node; comment, if given, is attached to it.
        """
        _check_move(move)
        if comment is not None:
            _check_text(comment, "comment")
        cache = self._cache
        if cache is None or cache[0] != self._version:
            cache = (self._version, self.end(), self._end_position())
        _, node, pos = cache
        pos.push(move)  # raises IllegalMoveError, nothing changed
        child = ChildNode(node, move, comment or "", "", set())
        node.variations.append(child)
        self._version += 1
        self._cache = (self._version, child, pos)
        return child

    def to_pgn(self, format: str = "ICCS", width: int = 80) -> str:
        """PGN text: tags, then the tree in format "ICCS" (H2-E2), "WXF" (C2.5), "Chinese"
        (炮二平五) or "SAN" (Che3, as Fairy-Stockfish and Cutechess write xiangqi; with a
        ``[Variant "xiangqi"]`` tag, which those programs need, unless the game has one)."""
        fmt = _format_name(format)
        if not isinstance(width, int) or isinstance(width, bool):
            raise TypeError(f"width must be an int, got {type(width).__name__}")
        if width < 1:
            raise ValueError(f"width must be at least 1, got {width}")
        tags = dict(self.tags)
        for name, value in tags.items():
            _check_tag(name, value)
        tags["Format"] = fmt
        if fmt == "SAN":
            tags.setdefault("Variant", "xiangqi")
        if tags.get("FEN") == START_FEN:
            del tags["FEN"]
        names = [t for t in TAG_ORDER if t in tags] + [t for t in tags if t not in TAG_ORDER]
        lines = [f'[{name} "{_escape_tag(tags[name])}"]' for name in names]
        lines.append("")
        tokens = _movetext(self, fmt)
        # The terminator is always a result marker, whatever text the Result tag holds.
        tokens.append(self.result if self.result in RESULTS else "*")
        lines += _wrap(tokens, width)
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_pgn()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # A flat list of nodes in pre-order (parent index, move, comments, NAGs): pickle and
        # deepcopy then need no recursion, however long the game.
        nodes: list[tuple[int, int, int, str, str, tuple[int, ...]]] = []
        index: dict[int, int] = {id(self): -1}
        stack: list[ChildNode] = list(reversed(self.variations))
        while stack:
            node = stack.pop()
            index[id(node)] = len(nodes)
            m = node.move
            nag = tuple(sorted(node.nags))
            nodes.append(
                (
                    index[id(node.parent)],
                    m.from_square,
                    m.to_square,
                    node.comment,
                    node.starting_comment,
                    nag,
                )
            )
            stack.extend(reversed(node.variations))
        return _rebuild, (
            dict(self.tags),
            self.comment,
            nodes,
            list(self.errors),
            list(self.unread),
        )

    def __repr__(self) -> str:
        red, black = self.tags.get("Red", "?"), self.tags.get("Black", "?")
        n = sum(1 for _ in self.mainline())
        return f"<Game {red!r} vs {black!r}, {n} moves, {self.result}>"


class MainLineMoves(MutableSequence[Move]):
    """A live view of a game's main-line moves (public squares 0..89), as a list.

    Reading works as on a list; ``append``/``extend``/``+=`` add legal moves at the end (as
    Game.add_move, IllegalMoveError otherwise); deleting from an index to the end (``pop()``,
    ``del moves[k:]``, ``clear()``) removes that main-line move and all after it (a variation
    beside it then becomes the main line). Other edits raise TypeError: use the tree's methods.
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def _nodes(self) -> list[ChildNode]:
        return list(self._game.mainline())

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...
    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        return self._game.mainline_moves()[index]

    def __len__(self) -> int:
        return sum(1 for _ in self._game.mainline())

    def __iter__(self) -> Iterator[Move]:
        return (node.move for node in self._game.mainline())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, MainLineMoves)):
            return self._game.mainline_moves() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._game.mainline_moves())

    def append(self, value: Move) -> None:
        self._game.add_move(value)

    def extend(self, values: Iterable[Move]) -> None:
        for move in list(values):
            self._game.add_move(move)

    def __iadd__(self, values: Iterable[Move]) -> MainLineMoves:
        self.extend(values)
        return self

    def clear(self) -> None:
        self._game.variations.clear()
        self._game._changed()

    def _cut(self, start: int) -> None:
        nodes = self._nodes()
        if start < 0:
            start += len(nodes)
        if not 0 <= start < len(nodes):
            raise IndexError("main-line move index out of range")
        node = nodes[start]
        node.parent.variations.remove(node)  # a variation there becomes the main line
        self._game._changed()

    @overload
    def __delitem__(self, index: int) -> None: ...
    @overload
    def __delitem__(self, index: slice) -> None: ...
    def __delitem__(self, index: int | slice) -> None:
        n = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step != 1 or (stop < n and stop > start):
                raise TypeError("only the end of the main line can be deleted: del moves[k:]")
            if start < stop:
                self._cut(start)
            return
        if index not in (-1, n - 1):
            raise TypeError("only the last main-line move can be deleted (pop())")
        self._cut(index)

    @overload
    def __setitem__(self, index: int, value: Move) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[Move]) -> None: ...
    def __setitem__(self, index: int | slice, value: Move | Iterable[Move]) -> None:
        raise TypeError("main-line moves cannot be replaced; edit the tree (add_variation...)")

    def insert(self, index: int, value: Move) -> None:
        if index < len(self):
            raise TypeError("moves can only be added at the end of the main line")
        self.append(value)


class MainLineComments(MutableMapping[int, str]):
    """A live view of the non-empty main-line comments by ply (0: before the first move)."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def _node(self, ply: int) -> GameNode:
        if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
            raise KeyError(ply)
        node: GameNode = self._game
        for _ in range(ply):
            if not node.variations:
                raise KeyError(ply)
            node = node.variations[0]
        return node

    def __getitem__(self, ply: int) -> str:
        comment = self._node(ply).comment
        if not comment:
            raise KeyError(ply)
        return comment

    def __setitem__(self, ply: int, text: str) -> None:
        self._node(ply).comment = _check_text(text, "comment")

    def __delitem__(self, ply: int) -> None:
        node = self._node(ply)
        if not node.comment:
            raise KeyError(ply)
        node.comment = ""

    def __iter__(self) -> Iterator[int]:
        if self._game.comment:
            yield 0
        for ply, node in enumerate(self._game.mainline(), 1):
            if node.comment:
                yield ply

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(dict(self.items()))


def _rebuild(
    tags: dict[str, str],
    comment: str,
    nodes: list[tuple[int, int, int, str, str, tuple[int, ...]]],
    errors: list[PgnError],
    unread: list[str],
) -> Game:
    """Unpickle a Game (see Game.__reduce__); moves are checked as they are added."""
    game = Game(tags=tags)
    game.comment = comment
    built: list[ChildNode] = []
    # Pre-order: each node's parent is on the path to the node before it, so one Position
    # walks the tree (pop back to the parent, push the move): linear in the tree's size.
    pos = game.board()
    path: list[int] = []
    for parent_index, frm, to, text, starting, nags in nodes:
        while path and path[-1] != parent_index:
            path.pop()
            pos.pop()
        if parent_index >= 0 and not path:
            raise ValueError(f"a pickled game tree names node {parent_index} out of order")
        parent: GameNode = game if parent_index < 0 else built[parent_index]
        move = Move(frm, to)
        pos.push(move)
        child = ChildNode(parent, move, text, starting, set(nags))
        parent.variations.append(child)
        path.append(len(built))
        built.append(child)
    game.errors = errors
    game.unread = unread
    game._version += 1
    return game


def _node_at(game: Game, path: list[int]) -> GameNode:
    node: GameNode = game
    for i in path:
        node = node.variations[i]
    return node


def _check_tag(name: object, value: object) -> None:
    if not isinstance(name, str) or not isinstance(value, str):
        bad = name if not isinstance(name, str) else value
        raise TypeError(f"tag names and values must be str, got {type(bad).__name__}")
    if not _TAG_NAME.fullmatch(name):
        raise ValueError(f"a tag name is ASCII letters, digits and '_', got {_quote(name)}")


# -- writing ----------------------------------------------------------------------------------


def _format_name(format: object) -> PgnFormat:
    if not isinstance(format, str):
        raise TypeError(f"format must be a str, got {type(format).__name__}")
    for name in ("ICCS", "WXF", "Chinese", "SAN"):
        if format.lower() == name.lower() and format.isascii():
            return name
    raise ValueError(f"format must be 'ICCS', 'WXF', 'Chinese' or 'SAN', got {_quote(format)}")


def _write(pos: Position, move: Move, fmt: PgnFormat) -> str:
    if fmt == "ICCS":
        return iccs(move, "dashed")
    if fmt == "WXF":
        return wxf(pos, move)
    if fmt == "SAN":
        return san(pos, move)
    return chinese(pos, move)


def _escape_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")


_TAG_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)
_TAG_ESCAPES = {"n": "\n", "r": "\r"}


def _unescape_tag(value: str) -> str:
    return _TAG_UNESCAPE.sub(lambda m: _TAG_ESCAPES.get(m.group(1), m.group(1)), value)


_LINE_START_BRACKET = re.compile(r"(^|\n)([ \t\ufeff]*)\[")


def _comment(text: str) -> str:
    body = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    body = body.replace("\\", "\\\\").replace("}", "\\}")
    body = _LINE_START_BRACKET.sub(lambda m: m.group(1) + m.group(2) + "\\[", body)
    return "{" + body + "}"


_COMMENT_UNESCAPE = re.compile(r"\\([\\}\[])")


def _uncomment(body: str) -> str:
    return _COMMENT_UNESCAPE.sub(r"\1", body).strip()


def _movetext(game: Game, fmt: PgnFormat) -> list[str]:
    """The move text tokens of the whole tree, written without recursion."""
    tokens: list[str] = []
    _check_text(game.comment, "the game's comment")
    if game.comment.strip():
        tokens.append(_comment(game.comment))
    pos = game.board() if fmt != "ICCS" else None
    # Position bookkeeping for ICCS (no board needed): ply count and side from the start FEN.
    start = Position(game.fen)
    start_turn, start_number = start.turn, start.fullmove_number
    depth = 0  # moves pushed beyond the start
    need_number = True

    def number(ply_depth: int, force: bool) -> str | None:
        red_first = start_turn == Color.RED
        half = ply_depth + (0 if red_first else 1)
        move_no = start_number + half // 2
        if half % 2 == 0:
            return f"{move_no}."
        return f"{move_no}..." if force else None

    def move_tokens(node: ChildNode, force_number: bool) -> None:
        _check_writable(node, depth + 1)
        n = number(depth, force_number)
        if n:
            tokens.append(n)
        tokens.append(_write(pos, node.move, fmt) if pos is not None else iccs(node.move, "dashed"))
        for nag in sorted(node.nags):
            tokens.append(f"${nag}")
        if node.comment.strip():
            tokens.append(_comment(node.comment))

    def push(move: Move) -> None:
        nonlocal depth
        if pos is not None:
            pos.push(move)
        depth += 1

    def pop() -> None:
        nonlocal depth
        if pos is not None:
            pos.pop()
        depth -= 1

    # Work stack of actions: ("line", node) writes the continuation after node (the board is
    # at node); ("var", child) opens a variation; ("push", child) steps into the main child;
    # ("close", depth) closes a variation and returns the board to that depth.
    stack: list[tuple[str, object]] = [("line", game)]
    while stack:
        kind, item = stack.pop()
        if kind == "line":
            node = item
            assert isinstance(node, GameNode)
            if not node.variations:
                continue
            main = node.variations[0]
            move_tokens(main, need_number)
            need_number = bool(main.comment.strip()) or len(node.variations) > 1
            stack.append(("line-main", main))
            for child in reversed(node.variations[1:]):
                stack.append(("close", depth))
                stack.append(("var", child))
        elif kind == "var":
            var = item
            assert isinstance(var, ChildNode)
            tokens.append("(")
            if var.starting_comment.strip():
                tokens.append(_comment(var.starting_comment))
            move_tokens(var, True)
            need_number = bool(var.comment.strip())
            push(var.move)
            stack.append(("line", var))
        elif kind == "close":
            target = item
            assert isinstance(target, int)
            while depth > target:
                pop()
            tokens.append(")")
            need_number = True
        else:  # "line-main": step into the main child, then continue its line
            main_child = item
            assert isinstance(main_child, ChildNode)
            push(main_child.move)
            stack.append(("line", main_child))
    # "(" sticks to the token after it and ")" to the token before, as python-chess writes.
    out: list[str] = []
    glue = False
    for token in tokens:
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
        if not isinstance(nag, int) or isinstance(nag, bool):
            raise TypeError(f"a NAG of {node.move.iccs()} at ply {ply} must be an int, got {nag!r}")
        if not 0 <= nag <= 255:
            raise ValueError(
                f"a NAG of {node.move.iccs()} at ply {ply} must be 0..255 to be read back, "
                f"got {nag}"
            )


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


# -- reading: lines ---------------------------------------------------------------------------

_LINES = re.compile(r"([^\r\n]*)(\r\n|\r|\n|$)")
#: Bytes of the file read ahead, from its first non-ASCII line, to decide its encoding.
_SNIFF_BYTES = 32_768
#: The likelier decoding is confirmed on the whole lines within this many characters.
_CONFIRM_CHARS = 500
#: Characters frequent in xiangqi records (pieces, moves, numerals, dates, events), in both
#: simplified and traditional forms: the right decoding of Chinese text has many of them,
#: a wrong one (mojibake) few.
_COMMON = frozenset(
    "进進退平马馬车車俥炮砲包兵卒相象仕士帅帥将將一二三四五六七八九十前后後中红紅黑胜勝负負"
    "和局赛賽年月日第轮輪届屆全国國棋杯队隊锦錦标標市省区區甲级級名人"
)


def _utf16_family(encoding: str) -> bool:
    import codecs

    return codecs.lookup(encoding).name.startswith(("utf-16", "utf-32"))


def _sniff(sample: bytes) -> str:
    """The encoding of a file from a sample of whole lines: UTF-8 if it decodes as UTF-8, else
    UTF-8, Big5 (cp950) or GB18030 (GBK): the one whose text has more of the words of xiangqi
    records, if the moves of its first lines read; otherwise the one that reads more moves."""
    try:
        sample.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    # UTF-8 stays a candidate: a UTF-8 file with a few stray bytes is still UTF-8
    texts = {enc: sample.decode(enc, errors="replace") for enc in ("utf-8", "cp950", "gb18030")}
    words = {
        enc: (sum(ch in _COMMON for ch in text), -text.count("\ufffd"))
        for enc, text in texts.items()
    }
    likely, *others = sorted(texts, key=words.__getitem__, reverse=True)
    head = texts[likely]
    cut = head.rfind("\n", 0, _CONFIRM_CHARS)
    first = _read(_Source(None, text=head[: cut if cut > 0 else _CONFIRM_CHARS]), False)
    if first is None or not any(isinstance(e, PgnMoveError) for e in first.errors):
        return likely

    def moves_read(text: str) -> int:
        return sum(len(g.mainline_moves()) for g in _iterate(_Source(None, text=text), False))

    scores = {enc: (moves_read(texts[enc]), words[enc]) for enc in texts}
    return max(texts, key=scores.__getitem__)


class _Source:
    """Lines (without their ends) of PGN text, a text stream or a binary stream, with pushback.

    Reads one line at a time (``readline``), so a stream is never held in memory; lines read
    past the end of a game wait in ``pending`` for the next game. Each line is kept with the
    index where its unread text starts, so a line holding many games is never copied.

    A binary stream's encoding is decided once: a BOM, else at its first non-ASCII line from
    the next ``_SNIFF_BYTES`` (see _sniff). A seekable stream is left, after each game, at the
    start of the line where the next game starts (so ``tell()`` between games gives offsets to
    come back to). Games that share a line share its offset: seeking there reads the first.
    """

    def __init__(
        self,
        handle: IO[str] | IO[bytes] | None,
        text: str | None = None,
        encoding: str | None = None,
    ) -> None:
        self.handle = handle
        self.encoding = encoding
        #: (line, index where its unread text starts, tell() of its raw line), reversed.
        self.pending: list[tuple[str, int, object]] = []
        self.current: object = None  # tell() of the raw line of the line next_line gave last
        self.ahead: list[tuple[bytes, int]] = []  # raw lines read to sniff, with offsets
        self.games = 0
        self.pos = 0  # byte offset of a binary handle
        self.parked: tuple[object, object] | None = None
        self.seekable = False
        self._text_iter: Iterator[re.Match[str]] | None = None
        if text is not None:
            self._text_iter = _LINES.finditer(text)
            self._text_len = len(text)
        elif handle is not None:
            try:
                self.seekable = bool(handle.seekable())
            except (AttributeError, OSError, ValueError):
                self.seekable = False
        self.done = False
        self.undecodable: tuple[str, bytes] | None = None
        self.wide = False
        self.set_encoding(encoding)

    def set_encoding(self, encoding: str | None) -> None:
        self.encoding = encoding
        self.wide = encoding is not None and _utf16_family(encoding)

    # -- positions

    def resume(self) -> None:
        """Before a game: continue where the last one stopped, or from where the caller moved
        the stream to (``seek``)."""
        if self.handle is None or not self.seekable:
            return
        try:
            now = self.handle.tell()
        except (OSError, ValueError):
            self.seekable = False
            return
        if self.parked is not None and now == self.parked[0]:
            if self.parked[1] != now:
                self.handle.seek(self.parked[1])  # type: ignore[arg-type]
            return
        self.pending.clear()
        self.ahead.clear()
        self.done = False
        self.pos = now if isinstance(now, int) else 0

    def park(self) -> None:
        """After a game: leave a seekable stream at the start of the next game's line."""
        self.parked = None
        if self.handle is None or not self.seekable:
            return
        try:
            after = self.handle.tell()
        except (OSError, ValueError):
            self.seekable = False
            return
        if self.pending:
            cookie = self.pending[-1][2]
        elif self.ahead:
            cookie = self.ahead[0][1]
        else:
            self.parked = (after, after)
            return
        if cookie is None:
            return
        self.handle.seek(cookie)  # type: ignore[arg-type]
        self.parked = (cookie, after)

    # -- lines

    def _more(self) -> bool:
        """Read more lines into pending; False at the end."""
        if self.done:
            return False
        if self.wide and self._text_iter is None:
            assert self.encoding is not None
            self._whole(self.encoding)
        if self._text_iter is not None:
            for match in self._text_iter:
                if match.end() == match.start() == self._text_len:
                    continue  # the empty match at the very end
                self.pending.append((match.group(1), 0, None))
                return True
            self.done = True
            return False
        handle = self.handle
        assert handle is not None
        cookie: object = None
        if self.ahead:
            raw: str | bytes = self.ahead[0][0]
            cookie = self.ahead.pop(0)[1]
        else:
            if self.seekable and not isinstance(handle, (io.RawIOBase, io.BufferedIOBase)):
                try:
                    cookie = handle.tell()
                except (OSError, ValueError):
                    self.seekable = False
            raw = handle.readline()
            if isinstance(raw, bytes):
                cookie = self.pos if self.seekable else None
                self.pos += len(raw)
        if not raw:
            self.done = True
            return False
        if isinstance(raw, bytes):
            text = self._decode(raw, cookie)
            if text is None:
                return True  # switched to a whole-file decoding
        elif isinstance(raw, str):
            text = raw
        else:
            raise TypeError(f"readline() gave {type(raw).__name__}, expected str or bytes")
        parts: list[tuple[str, int, object]] = []
        for match in _LINES.finditer(text):
            if match.start() == len(text) and parts:
                break
            parts.append((match.group(1), 0, cookie))
        self.pending.extend(reversed(parts))
        return True

    def _decode(self, raw: bytes, cookie: object) -> str | None:
        if self.encoding is None:
            if cookie in (0, None) and raw.startswith(b"\xef\xbb\xbf"):
                self.encoding = "utf-8"
                raw = raw[3:]
            elif raw.startswith((b"\xff\xfe", b"\xfe\xff")) and cookie in (0, None):
                self.ahead.insert(0, (raw, 0))
                self._whole("utf-16")
                return None
            elif raw.isascii():
                return raw.decode("ascii")
            else:
                self.ahead.insert(0, (raw, cookie if isinstance(cookie, int) else 0))
                self._read_ahead()
                self.encoding = _sniff(b"".join(r for r, _ in self.ahead))
                raw = self.ahead.pop(0)[0]
        try:
            return raw.decode(self.encoding)
        except UnicodeDecodeError as exc:
            # kept as U+FFFD and reported on the game being read (see _read)
            self.undecodable = (self.encoding, raw[exc.start : exc.start + 8])
            return raw.decode(self.encoding, errors="replace")

    def _read_ahead(self) -> None:
        assert self.handle is not None
        size = sum(len(r) for r, _ in self.ahead)
        while size < _SNIFF_BYTES:
            raw = self.handle.readline()
            if not raw:
                break
            assert isinstance(raw, bytes)
            self.ahead.append((raw, self.pos))
            self.pos += len(raw)
            size += len(raw)

    def _whole(self, encoding: str) -> None:
        """A UTF-16 or UTF-32 file: decode it whole (such files are rare and small)."""
        assert self.handle is not None
        head = b"".join(r for r, _ in self.ahead)
        self.ahead.clear()
        tail = self.handle.read()
        rest = head + (tail if isinstance(tail, bytes) else tail.encode(encoding))
        text = rest.decode(encoding, errors="replace")
        self.handle = None
        self.seekable = False
        self._text_iter = _LINES.finditer(text)
        self._text_len = len(text)

    def next_line(self) -> tuple[str, int] | None:
        """The next line and the index where its unread text starts; None at the end."""
        while not self.pending:
            if not self._more():
                return None
        line, start, self.current = self.pending.pop()
        return line, start

    def push_back(self, line: str, start: int) -> None:
        """Give back the unread text of the line next_line gave last (from index start)."""
        self.pending.append((line, start, self.current))


_SOURCES: weakref.WeakKeyDictionary[object, _Source] = weakref.WeakKeyDictionary()


def _source_for(handle: object) -> _Source:
    """The _Source of an open file, kept while the file object lives (so a second read_game
    call gets the lines read past the first game's end)."""
    try:
        found = _SOURCES.get(handle)
    except TypeError:  # not weak-referenceable: text read past a game's end is lost
        return _Source(handle)  # type: ignore[arg-type]
    if found is None:
        # A proxy, not the file: a strong reference from the value would keep the key alive.
        found = _Source(weakref.proxy(handle))
        _SOURCES[handle] = found
    return found


# -- reading: one game ------------------------------------------------------------------------

_TAG_START = re.compile(r'[ \t\ufeff]*\[[ \t]*[A-Za-z0-9_]+[ \t]+"')
_TAG = re.compile(r'[ \t]*\[[ \t]*([A-Za-z0-9_]+)[ \t]+"((?:[^"\\]|\\.)*)"[ \t]*\]')
# A tag whose value holds unescaped quotes, read as python-chess does: the value runs to the
# last quote before the closing bracket that ends the line ('[Event "1999年"中視股份杯"..."]').
_LOOSE_TAG = re.compile(r'[ \t]*\[[ \t]*([A-Za-z0-9_]+)[ \t]+"(.*)"[ \t]*\][ \t]*$')
_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
_FULLWIDTH[0x3000] = 0x20
_TOKEN = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<nag>\$\d{1,3})(?![0-9])
    | (?P<suffix>[!?]{1,2})(?=[\s(){};$]|$)
    | (?P<result>1-0|0-1|1/2-1/2|\*)(?=[\s(){};$]|$)
    | (?P<number>\d+\s*(?:\.+|、|。))(?!\d)
    | (?P<word>[^\s(){};$]+)
    | (?P<junk>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_ICCS_WORD = re.compile(r"[a-iA-I][0-9]-?[a-iA-I][0-9]", re.ASCII)
_WXF_WORD = re.compile(r"[A-Za-z+\-1-9][A-Za-z+\-1-9][+\-.=][1-9]", re.ASCII)
_CHINESE_MOTION = re.compile(r"[进進退平]")
_COMMENT_START = re.compile(r"[{;]")
_BLANK = re.compile(r"[\s\ufeff]*\Z")
_LEAD = re.compile(r"[\s\ufeff]*")


_last_translated: list[str] = ["", ""]


def _ascii_forms(line: str) -> str:
    """line with full-width letters, digits and signs as ASCII (one character for one, so
    indexes stay valid); the last line is kept, as each game on a long line asks again."""
    if line.isascii():
        return line
    if _last_translated[0] is not line:
        _last_translated[:] = [line, line.translate(_FULLWIDTH)]
    return _last_translated[1]


_last_search: list[object] = ["", 0, 0]


def _comment_start(line: str, start: int) -> int:
    """Index of the first "{" or ";" of line from start (len(line) if none). The last answer
    is kept, so the games of one long line do not each search to its end again."""
    last, since, found = _last_search
    if last is line and isinstance(since, int) and isinstance(found, int):
        if since <= start <= found:
            return found
    match = _COMMENT_START.search(line, start)
    end = match.start() if match is not None else len(line)
    _last_search[:] = [line, start, end]
    return end


class _GameReader:
    """Builds one Game from lines: tags, then move text, with errors recorded."""

    def __init__(self, number: int, strict: bool) -> None:
        self.game = Game()
        self.number = number
        self.strict = strict
        self.seen_tags: set[str] = set()
        self.in_moves = False
        self.finished = False
        self.pos: Position | None = None
        self.node: GameNode = self.game
        #: (node to return to, its depth) for each open variation.
        self.stack: list[tuple[ChildNode, int]] = []
        self.depth = 0
        self.in_comment = False
        self.comment_parts: list[str] = []
        self.pending_comment: list[str] = []  # comments after "(", before the first move
        self.fresh = False  # just after "(", before the variation's first move
        self.dead = False  # main line broken: the rest goes to unread
        self.skip_depth = 0  # > 0: inside a variation being skipped after an error
        self.skip_pops = False  # the skipped variation was opened (its ")" closes it)
        self.error_count = 0
        self.san_base: int | None = None  # SAN ranks 1..10 or 0..9, once a move shows which
        #: While san_base is undecided and no variation was opened: the main-line nodes, their
        #: text and whether it was read as SAN, to read them again with ranks 0..9 (XBoard).
        self.san_history: list[tuple[ChildNode, str, bool]] | None = []
        self.san_used = False

    # -- errors

    def error(self, exc: PgnError) -> None:
        if self.strict:
            raise exc
        self.error_count += 1
        if self.error_count <= _MAX_ERRORS:
            self.game.errors.append(exc)
        elif self.error_count == _MAX_ERRORS + 1:
            self.game.errors.append(
                PgnSyntaxError(
                    f"game {self.number}: more than {_MAX_ERRORS} errors, the rest not kept",
                    self.depth,
                    "",
                    self.number,
                )
            )

    def syntax(self, what: str, text: str) -> None:
        self.error(
            PgnSyntaxError(
                f"game {self.number}, ply {self.depth}: {what}: {_quote(text)}",
                self.depth,
                text[:_QUOTE],
                self.number,
            )
        )

    # -- tags

    def take_tags(self, line: str, start: int) -> int | None:
        """Read the tag pairs of line from index start; return the index of the rest, or None
        if it starts a new game (a tag seen again in this game's tag section)."""
        pos = start
        while line.startswith("\ufeff", pos):
            pos += 1
        first = pos
        while True:
            match = _TAG.match(line, pos)
            if match is not None:
                value = _unescape_tag(match.group(2))
            else:
                match = _LOOSE_TAG.match(line, pos)
                if match is None:
                    break
                value = match.group(2)
            name = match.group(1)
            if name in self.seen_tags:
                return None if pos == first else pos
            self.seen_tags.add(name)
            self.game.tags[name] = value
            pos = match.end()
        if pos == first or _TAG_START.match(line, pos):
            # a tag that does not parse (unclosed quote, missing bracket): skip the line
            self.syntax("malformed tag pair", line[pos : pos + 4 * _QUOTE])
            return len(line)
        return pos

    def start_moves(self) -> None:
        self.in_moves = True
        fen = self.game.tags.get("FEN")
        try:
            self.pos = Position(fen) if fen is not None else Position()
        except XiangqiError as exc:
            self.syntax(f"bad FEN tag ({exc})", fen or "")
            del self.game.tags["FEN"]
            self.pos = None
            self.dead = True
            return
        if fen is not None:
            self.game.tags["FEN"] = self.pos.fen()

    # -- move text

    def feed(self, line: str, i: int) -> int | None:
        """Read one line of move text from index i; return the index after a result marker
        (the game is over), None when the line is used up."""
        n = len(line)
        if self.in_comment and i >= n:
            self.comment_parts.append("\n")
            return None
        while i < n:
            if self.in_comment:
                j = _comment_end(line, i)
                if j < 0:
                    self.comment_parts.append(line[i:])
                    self.comment_parts.append("\n")
                    return None
                self.comment_parts.append(line[i:j])
                self.in_comment = False
                self.add_comment(_uncomment("".join(self.comment_parts)))
                self.comment_parts = []
                i = j + 1
                continue
            ch = line[i]
            if ch == "{":
                self.in_comment = True
                self.comment_parts = []
                i += 1
                continue
            if ch == ";":
                self.add_comment(line[i + 1 :].strip())
                return None
            end = _comment_start(line, i)
            rest = self.tokens(line, i, end)
            if rest is not None:
                return rest
            i = end
        return None

    def tokens(self, line: str, start: int, end: int) -> int | None:
        """Read the tokens of line[start:end]; the index after a result marker, or None."""
        for match in _TOKEN.finditer(_ascii_forms(line), start, end):
            kind = match.lastgroup
            text = match.group()
            if kind == "space" or kind == "number":
                continue
            if kind == "result":
                if self.stack:
                    self.syntax("result marker inside a variation", text)
                    continue
                if self.game.tags.get("Result", "*") == "*":
                    self.game.tags["Result"] = text
                return match.end()
            if kind == "open":
                self.open_variation()
            elif kind == "close":
                self.close_variation()
            elif kind == "nag":
                self.add_nag(int(text[1:]), text)
            elif kind == "suffix":
                self.add_nag(_SUFFIX_NAGS[text], text)
            elif kind == "word":
                self.word(text)
            else:
                self.syntax("unexpected character", text)
        return None

    def add_comment(self, text: str) -> None:
        if not text or self.skip_depth or self.dead:
            return
        if self.fresh:  # just after "(": the starting comment of the variation's first move
            self.pending_comment.append(text)
            return
        node = self.node
        node.comment = f"{node.comment} {text}" if node.comment else text

    def add_nag(self, nag: int, text: str) -> None:
        if self.skip_depth or self.dead:
            return
        if self.node is self.game or self.fresh:
            self.syntax("NAG before any move", text)
            return
        if nag > 255:
            self.syntax("NAG out of range 0..255", text)
            return
        self.node.nags.add(nag)

    def open_variation(self) -> None:
        if self.dead:
            self.game.unread.append("(")
            return
        if self.skip_depth:
            self.skip_depth += 1
            return
        node = self.node
        if not isinstance(node, ChildNode) or self.fresh:
            self.syntax("variation before any move", "(")
            self.skip_depth, self.skip_pops = 1, False
            return
        assert self.pos is not None
        self.san_history = None  # a tree is not read again
        self.stack.append((node, self.depth))
        self.pos.pop()
        self.depth -= 1
        self.node = node.parent
        self.fresh = True
        self.pending_comment = []

    def close_variation(self) -> None:
        if self.dead:
            self.game.unread.append(")")
            return
        if self.skip_depth:
            self.skip_depth -= 1
            if self.skip_depth or not self.skip_pops:
                return
        if not self.stack:
            self.syntax("unmatched ')'", ")")
            return
        back, depth = self.stack.pop()
        assert self.pos is not None
        while self.depth > depth - 1:
            self.pos.pop()
            self.depth -= 1
        self.pos.push(back.move)
        self.depth += 1
        self.node = back
        self.fresh = False
        self.pending_comment = []

    def word(self, text: str) -> None:
        if self.dead:
            self.game.unread.append(text)
            return
        if self.skip_depth:
            return
        for part in _split_word(text):
            if not self.move(part):
                return

    def move(self, text: str) -> bool:
        assert self.pos is not None
        word, nag = _strip_suffix(text)
        ply = self.depth + 1
        try:
            move = _parse_move(self.pos, word, self)
        except (InvalidMoveError, IllegalMoveError) as exc:
            side = "Red" if self.pos.turn == Color.RED else "Black"
            where = (
                f"game {self.number}, ply {ply} (move {self.pos.fullmove_number}, {side}) "
                f"{_quote(text)}"
            )
            error: PgnError
            if isinstance(exc, IllegalMoveError):
                error = IllegalPgnMoveError(f"{where}: {exc}", ply, text, self.number)
            else:
                error = InvalidPgnMoveError(f"{where}: {exc}", ply, text, self.number)
            self.error(error)
            if self.stack:
                self.skip_depth, self.skip_pops = 1, True  # drop the rest of this variation
            else:
                self.dead = True
                self.game.unread.append(text)
            return False
        self.pos.push(move)
        self.depth += 1
        starting = " ".join(self.pending_comment) if self.fresh else ""
        child = ChildNode(self.node, move, "", starting, set())
        if nag is not None:
            child.nags.add(nag)
        self.node.variations.append(child)
        self.node = child
        if self.san_base is not None:
            self.san_history = None
        elif self.san_history is not None:
            self.san_history.append((child, word, self.san_used))
        self.san_used = False
        self.fresh = False
        self.pending_comment = []
        return True

    def reread_san_from_zero(self) -> bool:
        """Read the main line so far again with SAN ranks 0..9 (XBoard), when a move reads only
        that way; True if it all reads, the nodes then hold the moves read again."""
        history = self.san_history
        if not history or not any(is_san for _, _, is_san in history):
            return False
        pos = self.game.board()
        moves: list[Move] = []
        try:
            for node, word, is_san in history:
                move = parse_san(pos, word, 0) if is_san else node.move
                pos.push(move)
                moves.append(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        for (node, _, _), move in zip(history, moves):
            node.move = move
        self.pos = pos
        self.san_base, self.san_history = 0, None
        return True

    def finish(self) -> Game:
        if not self.in_moves:  # tags and no move text: the FEN tag is checked all the same
            self.start_moves()
        if self.in_comment:
            self.syntax("unclosed comment", "".join(self.comment_parts))
            self.in_comment = False
            self.add_comment(_uncomment("".join(self.comment_parts)))
        if self.stack and not self.dead:
            self.syntax(f"{len(self.stack)} variation(s) not closed", "(")
        self.game._version += 1
        return self.game


def _comment_end(line: str, start: int) -> int:
    """Index of the "}" that closes a comment (not escaped as "\\}"), or -1."""
    i = start
    while True:
        j = line.find("}", i)
        if j < 0:
            return -1
        backslashes = 0
        k = j - 1
        while k >= start and line[k] == "\\":
            backslashes += 1
            k -= 1
        if backslashes % 2 == 0:
            return j
        i = j + 1


def _strip_suffix(text: str) -> tuple[str, int | None]:
    word = text.rstrip("!?")
    suffix = text[len(word) :]
    nag = _SUFFIX_NAGS.get(suffix) if suffix else None
    return word, nag


def _split_word(text: str) -> list[str]:
    """Split moves written together without spaces ("C2=5H8+7", "炮二平五马８进７")."""
    word, _ = _strip_suffix(text)
    if len(word) <= 5:
        return [text]
    if not word.isascii():
        cuts = [m.end() + 1 for m in _CHINESE_MOTION.finditer(word)]
        if len(cuts) >= 2 and cuts[-1] in (len(word), len(word) - 1):
            parts, start = [], 0
            for cut in cuts[:-1]:
                parts.append(text[start:cut])
                start = cut
            parts.append(text[start:])
            return parts
        return [text]
    if len(word) % 4 == 0 and all(
        _WXF_WORD.fullmatch(word[i : i + 4]) or _ICCS_WORD.fullmatch(word[i : i + 4])
        for i in range(0, len(word), 4)
    ):
        parts = [text[i : i + 4] for i in range(0, len(word), 4)]
        parts[-1] = text[len(word) - 4 :]
        return parts
    return [text]


def _parse_san_in_game(pos: Position, word: str, reader: _GameReader | None) -> Move:
    """SAN in a game: the rank numbering (1..10, or XBoard's 0..9) that the first move read in
    only one of them showed is kept for the rest of the game. Moves that read both ways are
    read with ranks 1..10 until a move reads only with 0..9; the main line so far is then read
    again with 0..9 (unless a variation was opened)."""
    base = reader.san_base if reader is not None else None
    if reader is not None:
        reader.san_used = True
    if base is not None:
        return parse_san(pos, word, base)
    readings: dict[int, Move | IllegalMoveError] = {}
    for base in (1, 0):
        try:
            readings[base] = parse_san(pos, word, base)
        except IllegalMoveError as exc:
            readings[base] = exc
    fits = [b for b, got in readings.items() if isinstance(got, Move)]
    if 1 not in fits and reader is not None and reader.reread_san_from_zero():
        # the moves before were XBoard's ranks 0..9 read as 1..10: read again, and this one
        assert reader.pos is not None
        return parse_san(reader.pos, word, 0)
    if len(fits) == 1 and reader is not None:
        reader.san_base = fits[0]
    found = readings[fits[0] if fits else 1]
    if isinstance(found, IllegalMoveError):
        raise found
    return found


def _parse_move(pos: Position, word: str, reader: _GameReader | None = None) -> Move:
    """The legal move a move token names, in whichever notation it is written."""
    if not word.isascii():
        return parse_chinese(pos, word.rstrip("+#"))
    bare = word.rstrip("+#")
    if SAN_RE.fullmatch(word) and word[0].isupper() and not word[1:].isupper():
        # SAN ("E5e3", "Che3"): a piece letter, then lower-case files; ICCS has one case
        try:
            return _parse_san_in_game(pos, word, reader)
        except IllegalMoveError:
            if not _ICCS_WORD.fullmatch(bare):
                raise
    if _ICCS_WORD.fullmatch(bare):
        return parse_iccs(pos, bare)
    if SAN_RE.fullmatch(word):
        return _parse_san_in_game(pos, word, reader)
    if len(word) == 5 and word[-1] in "+#":
        word = word[:-1]
    return parse_wxf(pos, word)


def _read(source: _Source, strict: bool) -> Game | None:
    source.resume()
    number = source.games + 1
    reader = _GameReader(number, strict)
    started = False
    while True:
        got = source.next_line()
        if got is None:
            break
        line, i = got
        if source.undecodable is not None:
            encoding, raw = source.undecodable
            source.undecodable = None
            reader.syntax(f"bytes that are not {encoding}, read as U+FFFD", raw.hex(" "))
        if not reader.in_moves:
            if _TAG_START.match(line, i):
                rest = reader.take_tags(line, i)
                if rest is None:  # a tag seen again: the next game's tags
                    source.push_back(line, i)
                    break
                started = True
                if _BLANK.match(line, rest):
                    continue
                i = rest
            if _BLANK.match(line, i) or line.startswith("%", i):
                continue
            started = True
            reader.start_moves()
            match = _LEAD.match(line, i)
            assert match is not None
            i = match.end()
        elif _TAG_START.match(line, i):
            if reader.in_comment:
                reader.syntax("unclosed comment before the next game's tags", line[i : i + 200])
                reader.in_comment = False
            source.push_back(line, i)
            break
        elif line.startswith("%", i) and not reader.in_comment:
            continue
        rest = reader.feed(line, i)
        if rest is not None:
            if not _BLANK.match(line, rest):
                source.push_back(line, rest)
            break
    source.park()
    if not started:
        return None
    source.games = number
    return reader.finish()


def read_game(source: str | IO[str], *, strict: bool = False) -> Game | None:
    """Read the next game from PGN text or an open text file; None when there is none left.

    From a file, reading stops after the game's result marker or at the next game's tags;
    text read past the end waits for the next call on the same file object, so calling again
    reads the next game even from a pipe. Bad moves and skipped text are recorded in
    game.errors (see the module docstring); strict=True raises the first one instead.
    """
    if isinstance(source, str):
        src = _Source(None, text=source)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError(
            "read_game() takes PGN text (str) or a text file, got bytes; "
            "use read_games() for binary files, which sniffs the encoding"
        )
    elif hasattr(source, "readline"):
        if isinstance(source, (io.RawIOBase, io.BufferedIOBase)):
            raise TypeError(
                "read_game() takes a text file, got a binary one; open it in text mode "
                "or use read_games(), which sniffs the encoding"
            )
        src = _source_for(source)
    else:
        raise TypeError(
            f"read_game() takes PGN text (str) or a text file, got {type(source).__name__}"
        )
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be a bool, got {type(strict).__name__}")
    return _read(src, strict)


@overload
def read_games(source: str, *, encoding: str | None = None, strict: bool = False) -> list[Game]: ...
@overload
def read_games(
    source: os.PathLike[str] | IO[str] | IO[bytes] | bytes,
    *,
    encoding: str | None = None,
    strict: bool = False,
) -> Iterator[Game]: ...
def read_games(
    source: str | os.PathLike[str] | IO[str] | IO[bytes] | bytes,
    *,
    encoding: str | None = None,
    strict: bool = False,
) -> list[Game] | Iterator[Game]:
    """Every game of PGN text (a list), or of a path (os.PathLike) or an open text or binary
    file (an iterator that reads one game at a time).

    A str is PGN text, already in memory, and gives a list as before; pass a pathlib.Path for
    a file name. From a file or path, games are read lazily, so memory stays bounded by one
    game. Binary input is decoded with encoding, or, when it is None, with one encoding
    decided for the whole file (a BOM, else UTF-8, Big5 or GB18030 by what reads; see the
    module docstring). Each bad game carries its errors and the others still read;
    strict=True raises the first.
    """
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be a bool, got {type(strict).__name__}")
    if encoding is not None:
        if not isinstance(encoding, str):
            raise TypeError(f"encoding must be a str, got {type(encoding).__name__}")
        import codecs

        try:
            codecs.lookup(encoding)
        except LookupError:
            raise ValueError(f"unknown encoding {_quote(encoding)}") from None
    if isinstance(source, str):
        return list(_iterate(_Source(None, text=source), strict))
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _iterate(_Source(io.BytesIO(bytes(source)), encoding=encoding), strict)
    if isinstance(source, os.PathLike):
        return _iterate_path(source, encoding, strict)
    if hasattr(source, "readline"):
        src = _source_for(source)
        src.set_encoding(encoding)
        return _iterate(src, strict, source)
    raise TypeError(
        "read_games() takes PGN text (str), a path (os.PathLike) or an open file, "
        f"got {type(source).__name__}"
    )


def _iterate(source: _Source, strict: bool, keep: object = None) -> Iterator[Game]:
    """The games of source; keep holds the file object alive while the iterator lives."""
    while (game := _read(source, strict)) is not None:
        yield game
    del keep


def _iterate_path(path: os.PathLike[str], encoding: str | None, strict: bool) -> Iterator[Game]:
    with open(path, "rb") as handle:
        yield from _iterate(_Source(handle, encoding=encoding), strict)
