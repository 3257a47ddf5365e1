"""Seeded random game trees (moves, variations, comments) for the record round-trip tests."""

from __future__ import annotations

import random

from xiangqi import Position, generate_legal
from xiangqi.pgn import Game, GameNode

COMMENTS = ["", "", "", "好棋", "中炮对屏风马", "两行\n第二行", "a}b{c", "x", "红方优势，黑方难守"]
FENS = [
    None,
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "3akab2/9/4b4/p3p1p1p/2p6/9/P1P1P1P1P/4B4/9/2BAKA3 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
]


def _line(node: GameNode, pos: Position, rng: random.Random, length: int) -> None:
    for _ in range(length):
        moves = generate_legal(pos)
        if not moves:
            return
        move = rng.choice(sorted(moves))
        node = node.add_variation(move, comment=rng.choice(COMMENTS))
        pos.push(move)


def random_game(seed: int) -> Game:
    """A game from one of FENS with a main line, variations on it and inside them, comments."""
    rng = random.Random(seed)
    fen = rng.choice(FENS)
    game = Game(fen=fen) if fen else Game()
    game.comment = rng.choice(COMMENTS)
    game.tags.update({"Event": "测试赛", "Red": "红方甲", "Black": "黑方乙", "Date": "2024.01.02"})
    game.tags["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    _line(game, game.board(), rng, rng.randint(0, 40))
    nodes: list[GameNode] = [game]
    frontier: list[GameNode] = [game]
    while frontier:
        node = frontier.pop()
        nodes.extend(node.variations)
        frontier.extend(node.variations)
    for node in rng.sample(nodes, min(len(nodes), rng.randint(0, 6))):
        _line(node, node.board(), rng, rng.randint(1, 6))
    return game


def tree(node: GameNode) -> list[object]:
    """The tree below node as nested (ICCS, comment, subtree) tuples, without recursion limits."""
    return [(c.move.iccs(), c.comment, tree(c)) for c in node.variations]
