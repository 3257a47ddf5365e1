"""The game tree: Game (the root, with the tags), GameNode and ChildNode (see xiangqi.pgn)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from .._checks import check_int
from .._words import counted
from ..errors import IllegalMoveError, InvalidFenError, XiangqiError
from ..fen import START_FEN
from ..move import Move
from ..notation import chinese, san, wxf
from ..position import Position
from ..rules import Outcome, Rules, check_rules
from ._base import (
    DEFAULT_TAGS,
    RESULTS,
    check_move,
    check_nags,
    check_tag,
    check_text,
    quote,
)
from .writer import write_pgn

if TYPE_CHECKING:
    from ._base import PgnError

__all__ = ["ChildNode", "Game", "GameNode"]


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
        continues the game.
        """
        node: GameNode = self
        while node.variations:
            node = node.variations[0]
        return node

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
        if not isinstance(move, (Move, GameNode)):
            # An index by _checks' rule (a NumPy integer is one, bool is not).
            index = check_int("variation index", move)
            if not 0 <= index < len(self.variations):
                raise IndexError(f"variation index {index} out of range")
            return index
        for i, child in enumerate(self.variations):
            if child is move or child.move == move:
                return i
        raise KeyError(f"no variation {move} here")

    def variation(self, move: Move | int | GameNode) -> ChildNode:
        """The child node of a move, an index or a node; KeyError/IndexError if none."""
        return self.variations[self._index(move)]

    def has_variation(self, move: Move) -> bool:
        """Is there a child node for move?"""
        return any(child.move == move for child in self.variations)

    def _changed(self) -> None:
        self._game._cache = None  # the tree changed shape: add_move finds the end again

    def add_variation(
        self,
        move: Move,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> ChildNode:
        """Add a legal move here as the last variation (IllegalMoveError if not legal)."""
        check_move(move)
        comment = check_text(comment, "comment")
        starting_comment = check_text(starting_comment, "starting_comment")
        checked = check_nags(nags)
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
                check_move(move)
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

    def san(self) -> str:
        """The move in SAN ("Che3", as Fairy-Stockfish writes xiangqi), from the parent's position.

        The same text as ``xiangqi.notation.san(node.parent.board(), node.move)``.
        """
        return san(self.parent.board(), self.move)

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

    __slots__ = ("tags", "errors", "unread", "_cache")

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
        #: (last main-line node, Position there) for add_move in linear time; checked on use.
        #: The main line's first node is kept too, to see the root's list edited by hand.
        self._cache: tuple[GameNode, Position, GameNode | None] | None = None
        self.tags: dict[str, str] = dict(DEFAULT_TAGS)
        if tags is not None:
            if not isinstance(tags, dict):
                raise TypeError(f"tags must be a dict of str, got {type(tags).__name__}")
            for name, value in tags.items():
                check_tag(name, value)
            self.tags.update(tags)
        if fen is not None:
            self.tags["FEN"] = Position(check_text(fen, "fen")).fen()
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
        self,
        repetitions: int = 3,
        move_limit: int = 120,
        rules: Rules | str | None = None,
    ) -> Outcome | None:
        """The rulings on the main line's last position (Position.outcome), None if it goes on.

        Only the moves of this game count towards repetitions; the ruling is the rules', not
        the Result tag's (which says what the record claims). rules: "asian" or "chinese"
        (xiangqi.Rules); by default (None) the game's own Rules tag (``[Rules "chinese"]``,
        as Game.from_board and the match runner write it; the tag's case and surrounding
        spaces do not matter), and the Asian rules when it has none.

        Raises XiangqiError (a ValueError) when rules is None and the Rules tag names
        another rule set, TypeError when the tag is not text: the ruling would be a guess,
        so pass ``rules=`` to choose.
        """
        if rules is None:
            tag = self.tags.get("Rules")
            if "Rules" not in self.tags:
                rules = Rules.ASIAN
            elif not isinstance(tag, str):  # tags is a plain dict: anything can be put in
                raise TypeError(
                    f"the game's Rules tag must be text ('asian' or 'chinese'), got "
                    f"{type(tag).__name__}: pass outcome(rules=...) to choose the rule set"
                )
            else:
                try:
                    rules = Rules(tag.strip().lower())
                except ValueError:
                    raise XiangqiError(
                        f"the game's Rules tag is {quote(tag)}, not 'asian' or 'chinese': "
                        "pass outcome(rules=...) to choose the rule set"
                    ) from None
        rules = check_rules(rules)
        return self._end_position().outcome(
            repetitions=repetitions, move_limit=move_limit, rules=rules
        )

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
        check_text(value, "result")
        if value not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, got {quote(value)}")
        self.tags["Result"] = value

    def board(self) -> Position:
        """A new Position at the start of the game.

        A diagram the rules forbid that a reader keeps as the FEN tag (both kings in check:
        a puzzle book's final position, see xiangqi.records.xqf) is set up as
        Position.from_diagram() reads it (a composition's too), so the board of every game
        a reader returns sets up. A FEN tag no diagram reads raises InvalidFenError.
        """
        fen = self.fen
        try:
            return Position(fen)
        except InvalidFenError as exc:
            error = exc
        for composition in (False, True):
            try:
                return Position.from_diagram(fen, composition=composition)
            except InvalidFenError:
                pass
        raise error

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
        check_move(move)
        if comment is not None:
            check_text(comment, "comment")
        cache = self._cache
        if cache is None or not _still_the_end(self, cache[0], cache[2]):
            first: GameNode | None = self.variations[0] if self.variations else None
            cache = (self.end(), self._end_position(), first)
        node, pos, first = cache
        pos.push(move)  # raises IllegalMoveError, nothing changed
        child = ChildNode(node, move, comment or "", "", set())
        node.variations.append(child)
        self._cache = (child, pos, first if first is not None else child)
        return child

    def to_pgn(self, format: str = "ICCS", width: int = 80) -> str:
        """PGN text: tags, then the tree in format "ICCS" (H2-E2), "WXF" (C2.5), "Chinese"
        (炮二平五) or "SAN" (Che3, as Fairy-Stockfish and Cutechess write xiangqi; with a
        ``[Variant "xiangqi"]`` tag, which those programs need, unless the game has one)."""
        return write_pgn(self, format, width)

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
        return f"<Game {red!r} vs {black!r}, {counted(n, 'move')}, {self.result}>"


def _still_the_end(game: Game, node: GameNode, first: GameNode | None) -> bool:
    """Is node (add_move's last node) still the end of the main line? The tree's own methods
    drop the cache; this catches direct edits of the lists at both ends of the main line
    (``node.variations.append``, ``parent.variations.remove(node)``, ``game.variations``
    cleared or reordered), so no reader or writer has a counter to bump."""
    parent = node.parent
    if node.variations or node._game is not game:
        return False
    if parent is None:
        return node is game
    main = game.variations
    return (
        bool(parent.variations) and parent.variations[0] is node and bool(main) and main[0] is first
    )


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
    return game


def _node_at(game: Game, path: list[int]) -> GameNode:
    node: GameNode = game
    for i in path:
        node = node.variations[i]
    return node
