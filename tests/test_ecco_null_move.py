"""ECCO classification of a game with a pass (a null move) among its first 20 plies: the
moves before the pass are classified. Expected codes: the openings of 《中国象棋开局分类》
(ECCO) whose names spell their moves (as tests/test_ecco.py pins them), and the same game
cut before the pass, classified without it.
"""

from __future__ import annotations

import pytest

import xiangqi
from xiangqi import Move, pgn
from xiangqi.records import ecco

#: Moves before the pass, and the ECCO code and name those moves spell.
OPENINGS = [
    ("炮二平五 炮8平5", "D00", "顺炮缓开车对其他"),
    ("兵七进一 卒7进1", "E40", "对兵局"),
    ("兵三进一", "E00", "仙人指路局"),
]
#: Moves played after the pass (whatever they are, they do not count).
AFTER = ["h0g2", "h9g7", "b0c2"]


def chinese_moves(text: str) -> list[Move]:
    pos = xiangqi.Position()
    return [pos.push_chinese(word) for word in text.split()]


@pytest.mark.parametrize(("before", "code", "name"), OPENINGS)
def test_the_moves_before_a_pass_are_classified(before: str, code: str, name: str) -> None:
    moves = chinese_moves(before)
    without_pass = ecco.classify(moves)
    assert without_pass is not None and (without_pass.code, without_pass.name) == (code, name)
    for null in (Move.null(), "0000", "--"):
        found = ecco.classify([*moves, null, *AFTER])
        assert found == without_pass


@pytest.mark.parametrize(("before", "code", "name"), OPENINGS)
def test_tag_game_of_a_game_with_a_pass(before: str, code: str, name: str) -> None:
    game = pgn.Game()
    for move in chinese_moves(before):
        game.add_move(move)
    game.add_move(Move.null())
    found = ecco.tag_game(game)
    assert found is not None and found.code == code
    assert (game.tags["ECCO"], game.tags["Opening"]) == (code, name)
    # the same game written as PGN ("--") and read back
    again = pgn.read_game(game.to_pgn())
    assert again is not None and ecco.classify(again) == found


def test_a_pass_as_the_first_move_is_no_opening_move() -> None:
    assert ecco.classify([Move.null(), "h9g7"]) == ecco.classify([])
