"""Game collections in three notations (tests/data/games/README.md gives the sources).

Each collection folder holds games_uci.txt (id|event|Red|Black|ICCS moves, as transcribed or
generated) and the same games as NAME_iccs.pgn (formatted without the library), NAME_wxf.pgn
(written by Fairy-Stockfish) and NAME_chinese.pgn (written by xiangqi.pgn, checked here
against a transliteration of Fairy-Stockfish's WXF). Independent checks: Fairy-Stockfish
finds every ply legal; our reader reads Fairy-Stockfish's WXF back to the source moves.
"""

from __future__ import annotations

import re
from pathlib import Path

import pyffish
import pytest

from xiangqi import Move, Position
from xiangqi.notation import chinese, parse_wxf
from xiangqi.pgn import read_games

GAMES = Path(__file__).parent / "data" / "games"
WUKONG = GAMES / "wukong"

#: Collection folder -> how many games it holds (master games first, then generated ones).
COLLECTIONS = {"wukong": 100, "wukong_more": 51, "generated": 159}
NOTATIONS = ["iccs", "wxf", "chinese"]


def source_games(name: str = "wukong") -> list[tuple[str, str, list[Move]]]:
    rows = []
    for line in (GAMES / name / "games_uci.txt").read_text(encoding="utf-8").splitlines():
        number, _, red, _, moves = line.split("|")
        rows.append((number, red, [Move.from_iccs(m) for m in moves.split()]))
    return rows


def ranks_from_one(moves: list[Move]) -> list[str]:
    """Fairy-Stockfish's xiangqi coordinates count ranks 1..10, ICCS 0..9."""
    out = []
    for move in moves:
        text = move.iccs()
        out.append(f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("notation", NOTATIONS)
@pytest.mark.parametrize("name", list(COLLECTIONS))
def test_collection_reads_cleanly(name: str, notation: str) -> None:
    games = list(read_games(GAMES / name / f"{name}_{notation}.pgn"))
    source = source_games(name)
    assert len(games) == len(source) == COLLECTIONS[name]
    for game, (number, red, moves) in zip(games, source):
        assert game.errors == [] and game.unread == [], (number, game.errors)
        assert game.tags["Round"] == number and game.tags["Red"] == red
        assert game.mainline_moves() == moves, number


def test_each_notation_holds_over_300_games() -> None:
    # The collections above plus the six xqdb games (tests/test_pgn_reader.py reads those).
    for notation in NOTATIONS:
        total = 6
        for name in COLLECTIONS:
            text = (GAMES / name / f"{name}_{notation}.pgn").read_text(encoding="utf-8")
            total += text.count('[Game "Chinese Chess"]')
        assert total >= 300, notation


def test_master_games_are_not_repeated_across_collections() -> None:
    seen: dict[tuple[Move, ...], str] = {}
    for name in ("wukong", "wukong_more"):
        for number, _, moves in source_games(name):
            key = tuple(moves)
            assert key not in seen, (name, number, seen.get(key))
            seen[key] = f"{name} {number}"


@pytest.mark.slow  # one pyffish call per ply: minutes for the whole corpus
@pytest.mark.parametrize("name", list(COLLECTIONS))
def test_fairy_stockfish_finds_every_ply_legal(name: str) -> None:
    start = pyffish.start_fen("xiangqi")
    plies = 0
    for number, _, moves in source_games(name):
        fen = start
        for ply, move in enumerate(ranks_from_one(moves), 1):
            assert move in pyffish.legal_moves("xiangqi", fen, []), (number, ply, move)
            fen = pyffish.get_fen("xiangqi", fen, [move])
            plies += 1
    assert plies > 20 * COLLECTIONS[name]


_WXF_PLAIN = re.compile(r"([KAEHRCP])([1-9])([-+=])([1-9])")
_RED = dict(zip("KAEHRCP", "帅仕相马车炮兵"))
_BLACK = dict(zip("KAEHRCP", "将士象马车炮卒"))
_MOTION = {"+": "进", "-": "退", "=": "平"}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(COLLECTIONS))
def test_chinese_writer_agrees_with_a_transliteration_of_fairy_stockfish_wxf(name: str) -> None:
    compared = total = 0
    start = pyffish.start_fen("xiangqi")
    for _, _, moves in source_games(name):
        notation = pyffish.NOTATION_XIANGQI_WXF
        words = pyffish.get_san_moves("xiangqi", start, ranks_from_one(moves), False, notation)
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
            total += 1
    assert compared > 0.9 * total


def test_fairy_stockfish_wxf_for_the_middle_of_three_pawns_reads() -> None:
    # Generated game 18 (generated/games_uci_rejected.txt) is left out of the collection: at
    # ply 130 Black's middle pawn of three on file 3 (c3, between c5 and c0) goes to d3, and
    # Fairy-Stockfish writes "23=4" (second pawn from the front, file 3), where our writer
    # writes "P3.4". The reader reads Fairy-Stockfish's form too.
    line = (GAMES / "generated" / "games_uci_rejected.txt").read_text(encoding="utf-8")
    number, _, _, _, text = line.strip().split("|")
    moves = [Move.from_iccs(m) for m in text.split()]
    words = pyffish.get_san_moves(
        "xiangqi",
        pyffish.start_fen("xiangqi"),
        ranks_from_one(moves),
        False,
        pyffish.NOTATION_XIANGQI_WXF,
    )
    assert number == "18" and words[129] == "23=4"
    pos = Position()
    for move in moves[:129]:
        pos.push(move)
    assert parse_wxf(pos, words[129]) == moves[129]


def test_the_source_game_with_an_impossible_move_is_reported() -> None:
    # Game 89 of the source has "c6i6" at ply 53 with no piece on c6 (its rook went to d6 at
    # ply 47); the collection leaves it out, and reading it gives the error with its ply.
    number, event, red, black, moves = (
        (WUKONG / "games_uci_rejected.txt").read_text(encoding="utf-8").strip().split("|")
    )
    text = f'[Event "{event}"]\n[Red "{red}"]\n\n{moves} *\n'
    (game,) = list(read_games(text))
    assert number == "89" and len(game.mainline_moves()) == 52
    (error,) = game.errors
    assert error.ply == 53 and error.text == "c6i6" and "no piece on c6" in str(error)


# -- real-world Chinese records: traditional characters, full-width digits, markers ----------

CCPD = GAMES / "ccpd" / "ccpd_chinese.pgn"
_TO_SIMPLE = str.maketrans("車馬帥將進後砲傌俥", "车马帅将进后炮马车", "")
_WIDE_DIGITS = str.maketrans("１２３４５６７８９", "123456789")


def _plain(token: str) -> str:
    return token.translate(_TO_SIMPLE).translate(_WIDE_DIGITS)


@pytest.mark.slow
def test_ccpd_games_read_and_agree_with_fairy_stockfish() -> None:
    # The source's move text is checked word by word against Fairy-Stockfish's WXF for the
    # moves our reader found (transliterated to Chinese), and each ply is legal for it.
    games = list(read_games(CCPD))
    assert [len(g.mainline_moves()) for g in games] == [69, 115, 115, 75, 45]
    assert games[0].tags["Event"].startswith('1999年"中視股份杯"')  # quotes inside a tag
    text = CCPD.read_text(encoding="utf-8")
    bodies = text.split('[Game "Chinese Chess"]')[1:]
    start = pyffish.start_fen("xiangqi")
    compared = 0
    for game, body in zip(games, bodies):
        assert game.errors == [] and game.unread == []
        moves_text = body.split("\n\n", 1)[1]
        words = [w for w in moves_text.split() if not w[0].isdigit() and w != "*"]
        assert len(words) == len(game.mainline_moves())
        fs = pyffish.get_san_moves(
            "xiangqi",
            start,
            ranks_from_one(game.mainline_moves()),
            False,
            pyffish.NOTATION_XIANGQI_WXF,
        )
        fen = start
        for ply, (move, word, source) in enumerate(zip(game.mainline_moves(), fs, words)):
            uci = ranks_from_one([move])[0]
            assert uci in pyffish.legal_moves("xiangqi", fen, []), (game.tags["Red"], ply)
            fen = pyffish.get_fen("xiangqi", fen, [uci])
            match = _WXF_PLAIN.fullmatch(word)
            if match is None or source[0] in "前中後":
                continue
            piece, file, motion, number = match.groups()
            if ply % 2 == 0:
                nums = "一二三四五六七八九"
                want = _RED[piece] + nums[int(file) - 1] + _MOTION[motion]
                want += nums[int(number) - 1]
            else:
                want = _BLACK[piece] + file + _MOTION[motion] + number
            assert _plain(source) == want, (game.tags["Red"], ply, source, word)
            compared += 1
    assert compared > 350


def test_a_tag_value_with_unescaped_quotes_reads_to_its_last_quote() -> None:
    # As in the CCPD file above and as python-chess reads them; the writer escapes them.
    (game,) = list(read_games('[Event "1999年"中視股份杯"決賽"]\n[Red "A"]\n\n1. h2e2 *\n'))
    assert game.errors == [] and game.tags["Event"] == '1999年"中視股份杯"決賽'
    assert game.tags["Red"] == "A" and len(game.mainline_moves()) == 1
    (again,) = list(read_games(game.to_pgn()))
    assert again.tags["Event"] == game.tags["Event"] and again.errors == []
