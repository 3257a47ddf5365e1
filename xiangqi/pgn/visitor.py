"""The one walk over a game tree that every record writer uses (PGN, XQF, DhtmlXQ).

python-chess's visitors are the precedent (``chess.pgn.BaseVisitor``): ``walk(game, visitor)``
calls the visitor's methods in PGN order, without recursion, so a game of any length or
depth is written in linear time:

- ``begin_game(game)``;
- for each node, its main-line child ``visit_move(board, node, ply)``; then each other child
  as a variation: ``begin_variation(node)``, ``visit_move`` of it and everything after it
  (in the same order), ``end_variation()``; then what follows the main-line child;
- ``end_game()``, and ``walk`` returns ``visitor.result()``.

``board`` is the Position before the move (the walk pushes and pops one Position as it goes)
when the visitor sets ``needs_board``; writers that need no position (ICCS, XQF, DhtmlXQ)
leave it False and get None, and no move is played. ``ply`` counts moves from the start of
the game (1 for the first). The walk changes nothing in the tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar, cast

if TYPE_CHECKING:
    from ..position import Position
    from .tree import ChildNode, Game, GameNode

__all__ = ["Visitor", "walk"]

T = TypeVar("T")


class Visitor(Generic[T]):
    """The methods ``walk`` calls; a writer overrides those it needs (all do nothing here)."""

    #: Does visit_move need the Position before each move? (It costs a push and pop per move.)
    needs_board: bool = False

    def begin_game(self, game: Game) -> None:
        """Called first, with the game's root."""

    def visit_move(self, board: Position | None, node: ChildNode, ply: int) -> None:
        """Called for each move, with the Position before it (if ``needs_board``)."""

    def begin_variation(self, node: ChildNode) -> None:
        """Called before the first move of a variation (node, not the main-line child)."""

    def end_variation(self) -> None:
        """Called after the last move of the variation begun last."""

    def end_game(self) -> None:
        """Called last."""

    def result(self) -> T:
        """What walk() returns."""
        raise NotImplementedError


def walk(game: Game, visitor: Visitor[T]) -> T:
    """Walk game's tree in PGN order (see the module docstring); return ``visitor.result()``."""
    visitor.begin_game(game)
    board = game.board() if visitor.needs_board and game.variations else None
    ply = 0  # moves played from the start to where the walk stands
    # Work stack: ("line", node) walks what follows node (the walk stands at node);
    # ("var", child) opens a variation; ("step", child) steps into the main-line child;
    # ("close", ply) closes a variation and steps back to that ply.
    stack: list[tuple[str, GameNode | int]] = [("line", game)]
    while stack:
        kind, item = stack.pop()
        if kind == "line":
            node = item
            assert not isinstance(node, int)
            # Down the line: a node with one child steps straight in; at a node with
            # variations, the stack takes over (variations first, then the main child).
            while node.variations:
                main = node.variations[0]
                visitor.visit_move(board, main, ply + 1)
                if len(node.variations) > 1:
                    stack.append(("step", main))
                    for child in reversed(node.variations[1:]):
                        stack.append(("close", ply))
                        stack.append(("var", child))
                    break
                if board is not None:
                    board.push(main.move)
                ply += 1
                node = main
        elif kind == "close":
            assert isinstance(item, int)
            while ply > item:
                if board is not None:
                    board.pop()
                ply -= 1
            visitor.end_variation()
        else:  # "var" (begin a variation, then walk it as a line) or "step"
            child = cast("ChildNode", item)
            if kind == "var":
                visitor.begin_variation(child)
                visitor.visit_move(board, child, ply + 1)
            if board is not None:
                board.push(child.move)
            ply += 1
            stack.append(("line", child))
    visitor.end_game()
    return visitor.result()
