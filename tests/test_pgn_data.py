"""Published master games in three notations (tests/data/games/README.md gives the sources)."""

from __future__ import annotations

import re
from pathlib import Path

import pyffish
import pytest

from xiangqi import Move, Position
from xiangqi.notation import chinese
from xiangqi.pgn import read_games

WUKONG = Path(__file__).parent / "data" / "games" / "wukong"


def source_games() -> list[tuple[str, list[Move]]]:
    rows = []
    for line in (WUKONG / "games_uci.txt").read_text(encoding="utf-8").splitlines():
        number, _, red, _, moves = line.split("|")
        rows.append((red, [Move.from_iccs(m) for m in moves.split()]))
    return rows


@pytest.mark.parametrize("notation", ["iccs", "wxf", "chinese"])
def test_wukong_collection_reads_cleanly(notation: str) -> None:
    games = list(read_games(WUKONG / f"wukong_{notation}.pgn"))
    source = source_games()
    assert len(games) == len(source) == 100
    for game, (red, moves) in zip(games, source):
        assert game.errors == [] and game.unread == [], game.errors
        assert game.tags["Red"] == red
        assert game.moves == moves


_WXF_PLAIN = re.compile(r"([KAEHRCP])([1-9])([-+=])([1-9])")
_RED = dict(zip("KAEHRCP", "帅仕相马车炮兵"))
_BLACK = dict(zip("KAEHRCP", "将士象马车炮卒"))
_MOTION = {"+": "进", "-": "退", "=": "平"}


def test_chinese_writer_agrees_with_a_transliteration_of_fairy_stockfish_wxf() -> None:
    compared = 0
    start = pyffish.start_fen("xiangqi")
    for _, moves in source_games():
        ranks1 = [
            f"{m.iccs()[0]}{int(m.iccs()[1]) + 1}{m.iccs()[2]}{int(m.iccs()[3]) + 1}" for m in moves
        ]
        words = pyffish.get_san_moves("xiangqi", start, ranks1, False, pyffish.NOTATION_XIANGQI_WXF)
        pos = Position()
        for move, word in zip(moves, words):
            ours = chinese(pos, move)
            match = _WXF_PLAIN.fullmatch(word)
            if match and ours[0] not in "前中后":  # Fairy-Stockfish omits some markers
                piece, file, motion, number = match.groups()
                if pos.turn == 0:
                    nums = "一二三四五六七八九"
                    want = _RED[piece] + nums[int(file) - 1] + _MOTION[motion]
                    want += nums[int(number) - 1]
                else:
                    want = _BLACK[piece] + file + _MOTION[motion] + number
                assert ours == want, (pos.fen(), move, word)
                compared += 1
            pos.push(move)
    assert compared > 9000


def test_the_source_game_with_an_impossible_move_is_reported() -> None:
    # Game 89 of the source has "c6i6" at ply 53 with no piece on c6 (its rook went to d6 at
    # ply 47); the collection leaves it out, and reading it gives the error with its ply.
    number, event, red, black, moves = (
        (WUKONG / "games_uci_rejected.txt").read_text(encoding="utf-8").strip().split("|")
    )
    text = f'[Event "{event}"]\n[Red "{red}"]\n\n{moves} *\n'
    (game,) = read_games(text)
    assert number == "89" and len(game.moves) == 52
    (error,) = game.errors
    assert error.ply == 53 and error.text == "c6i6" and "no piece on c6" in str(error)
