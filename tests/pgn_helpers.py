"""Test helpers for game trees (xiangqi.pgn)."""

from __future__ import annotations

from xiangqi.pgn import GameNode


def mainline_comments(game: GameNode) -> dict[int, str]:
    """The non-empty main-line comments by ply (0: the comment before the first move)."""
    found = {0: game.comment} if game.comment else {}
    for ply, node in enumerate(game.mainline(), 1):
        if node.comment:
            found[ply] = node.comment
    return found
