"""Game.outcome() judges by the game's own Rules tag when no rules= is given.

The case is the Chinese book's 图12 (cxa2020-fig12 in tests/data/chinese_rules/cases.txt):
its verdict under the Chinese rules and under the Asian rules are the case file's columns,
read here, not the library's answers.
"""

from __future__ import annotations

import pytest
from test_chinese_rule_cases import CASES, play_to_third_occurrence

from xiangqi import Color, Rules
from xiangqi.errors import XiangqiError
from xiangqi.pgn import Game, read_game

FIG12 = next(case for case in CASES if case.id == "cxa2020-fig12")


def _verdict(game: Game, **kwargs: object) -> str:
    outcome = game.outcome(**kwargs)  # type: ignore[arg-type]
    assert outcome is not None
    if outcome.winner is None:
        return "draw"
    return "black-loses" if outcome.winner == Color.RED else "red-loses"


def test_the_case_file_gives_the_two_books_different_verdicts() -> None:
    assert (FIG12.verdict, FIG12.asian) == ("black-loses", "draw")


def test_a_game_from_board_under_chinese_rules_is_judged_by_them() -> None:
    game = Game.from_board(play_to_third_occurrence(FIG12), rules="chinese")
    assert game.tags["Rules"] == "chinese"
    assert _verdict(game) == FIG12.verdict
    assert game.outcome().result() == game.tags["Result"]  # type: ignore[union-attr]
    assert _verdict(game, rules="asian") == FIG12.asian  # an explicit rules= still decides


def test_the_tag_read_back_from_pgn_decides() -> None:
    game = Game.from_board(play_to_third_occurrence(FIG12), rules=Rules.CHINESE)
    again = read_game(game.to_pgn())
    assert _verdict(again) == FIG12.verdict
    again.tags["Rules"] = " Asian "
    assert _verdict(again) == FIG12.asian


def test_no_rules_tag_means_the_asian_rules() -> None:
    game = Game.from_board(play_to_third_occurrence(FIG12))
    assert "Rules" not in game.tags
    assert _verdict(game) == FIG12.asian


def test_an_unknown_rules_tag_is_refused_naming_it() -> None:
    game = Game.from_board(play_to_third_occurrence(FIG12), rules="chinese")
    game.tags["Rules"] = "wxf-2018"
    with pytest.raises(XiangqiError, match=r"Rules tag is 'wxf-2018'.*rules="):
        game.outcome()
    assert _verdict(game, rules="chinese") == FIG12.verdict
    assert game.tags["Rules"] == "wxf-2018"


@pytest.mark.parametrize("tag", [5, None, b"chinese", ["chinese"]])
def test_a_rules_tag_that_is_not_text_is_a_type_error_naming_it(tag: object) -> None:
    # tags is a plain dict, so anything can be put in: the ruling would be a guess
    game = Game.from_board(play_to_third_occurrence(FIG12), rules="chinese")
    game.tags["Rules"] = tag  # type: ignore[assignment]
    with pytest.raises(TypeError, match=r"Rules tag must be text.*rules="):
        game.outcome()
    assert game.tags["Rules"] == tag  # left as it was
    assert _verdict(game, rules="chinese") == FIG12.verdict  # an explicit rules= decides
