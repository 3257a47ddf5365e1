"""ECCO classification (xiangqi.records.ecco): agreement with published [ECCO] tags, and openings
whose codes the ECCO table itself defines.

Expected codes come from outside the code under test: the [ECCO] tags of the Chinese Chess
Practical Dataset's master games (tests/data/ecco/README.md), and the defining first moves of
openings of 《中国象棋开局分类》 (ECCO) whose names spell their moves.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import xiangqi
from xiangqi import Position, pgn
from xiangqi.errors import IllegalMoveError, InvalidMoveError
from xiangqi.records import ecco

DATA = Path(__file__).parent / "data"
CCPD_OPENINGS = DATA / "ecco" / "ccpd_openings.txt"
CCPD_GAMES = DATA / "games" / "ccpd" / "ccpd_chinese.pgn"
#: The Big5 originals, where a checkout has ../shared beside it (as CI does).
CCPD_BIG5 = Path(__file__).resolve().parents[2] / "shared" / "data" / "ccpd-big5"

#: Of the 120 CCPD master games, and of the 7 CCPD "position" records that are openings from
#: the usual start, how many [ECCO] tags the classifier reproduces (measured; the others are
#: listed in tests/data/ecco/README.md with the reason).
CCPD_AGREEMENT = {"master": (118, 120), "position": (6, 7)}


def ccpd_rows() -> list[tuple[str, str, list[str]]]:
    rows = []
    for line in CCPD_OPENINGS.read_text(encoding="utf-8").splitlines():
        name, code, moves = line.split("\t")
        rows.append((name, code, moves.split()))
    return rows


@pytest.mark.parametrize("kind", ["master", "position"])
def test_ccpd_games_reproduce_their_ecco_tags(kind: str) -> None:
    rows = [row for row in ccpd_rows() if row[0].startswith(kind)]
    floor, total = CCPD_AGREEMENT[kind]
    assert len(rows) == total
    found = [(name, code, ecco.classify(moves)) for name, code, moves in rows]
    disagree = [row for row in found if row[2] is None or row[2].code != row[1]]
    assert len(rows) - len(disagree) >= floor, disagree


@pytest.mark.skipif(not CCPD_BIG5.is_dir(), reason="no ../shared/data/ccpd-big5")
def test_ccpd_openings_file_matches_the_big5_originals() -> None:
    """tests/data/ecco/ccpd_openings.txt is what its script derives from the published files."""
    rows = ccpd_rows()
    assert len(rows) == 127
    assert len(list(CCPD_BIG5.glob("master-*.pgn"))) == 120
    for name, code, moves in rows:
        path = CCPD_BIG5 / name
        game = pgn.read_game(path.read_bytes().decode("cp950"), strict=True)
        assert game is not None
        assert Position(game.fen).fen() == xiangqi.START_FEN
        assert code == game.tags["ECCO"]
        assert moves == [str(m) for m in game.mainline_moves()[:20]]


def test_ccpd_games_in_traditional_chinese_reproduce_their_tags() -> None:
    games = list(pgn.read_games(CCPD_GAMES.read_text(encoding="utf-8")))
    assert len(games) == 5
    for game in games:
        found = ecco.classify(game)
        assert found is not None and found.code == game.tags["ECCO"]


# Each line's moves are the opening's own: the first-move names of xiangqi books (上仕 =
# 仕四进五, 飞相 = 相三进五, 起马 = 马二进三, 仕角炮 = 炮二平四, 过宫炮 = 炮二平六, 中炮 =
# 炮二平五, 仙人指路 = 兵三进一 or 兵七进一, 顺炮 = 炮8平5 and 列炮 = 炮2平5 against 炮二平五,
# 屏风马 = both horses to the centre files, 反宫马 = the horses with a cannon at the palace
# corner between them, 卒底炮 = the cannon to the file of the pawn Red advanced, 对兵 = both
# sides' third pawns), and the main lines ECCO puts under C30 and C40 (中炮过河车互进七兵对
# 屏风马, and its 平炮兑车).
PINNED = [
    ("仕四进五", "A01", "上仕局"),
    ("相三进五", "A10", "飞相局"),
    ("相三进五 炮8平5", "A27", "飞相对左中炮"),
    ("马二进三", "A40", "起马局"),
    ("马二进三 卒7进1", "A41", "起马对进７卒"),
    ("炮二平四", "A50", "仕角炮局"),
    ("炮二平六", "A60", "过宫炮局"),
    ("炮二平六 炮8平5", "A63", "过宫炮对左中炮"),
    ("炮二平五", "B00", "中炮局"),
    ("炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7", "B31", "中炮对反宫马"),
    ("炮二平五 马8进7 马二进三 马2进3", "C00", "中炮对屏风马"),
    (
        "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一",
        "C30",
        "中炮过河车互进七兵对屏风马",
    ),
    (
        "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一 炮8平9",
        "C40",
        "中炮过河车互进七兵对屏风马平炮兑车",
    ),
    ("炮二平五 炮8平5", "D00", "顺炮缓开车对其他"),
    ("炮二平五 炮8平5 马二进三 马8进7 车一平二 车9进1", "D20", "顺炮直车对横车"),
    ("炮二平五 炮2平5", "D50", "中炮对列炮"),
    ("兵三进一", "E00", "仙人指路局"),
    ("兵七进一", "E00", "仙人指路局"),
    ("兵三进一 炮2平5", "E03", "仙人指路对中炮"),
    ("兵七进一 炮2平3", "E10", "仙人指路对卒底炮"),
    ("兵七进一 卒7进1", "E40", "对兵局"),
]


def chinese_moves(text: str) -> list[xiangqi.Move]:
    pos = xiangqi.Position()
    return [pos.push_chinese(word) for word in text.split()]


@pytest.mark.parametrize(("moves", "code", "name"), PINNED)
def test_well_known_openings(moves: str, code: str, name: str) -> None:
    found = ecco.classify(chinese_moves(moves))
    assert found is not None
    assert (found.code, found.name) == (code, name)


def test_a_transposed_move_order_gives_the_same_opening() -> None:
    order = "炮二平五 马8进7 马二进三 马2进3 车一平二 车9平8 兵七进一 卒7进1 车二进六"
    found = ecco.classify(chinese_moves(order))
    assert found is not None and found.code == "C30"


def mirrored(moves: list[str]) -> list[str]:
    flip = str.maketrans("abcdefghi", "ihgfedcba")
    return [m.translate(flip) for m in moves]


def test_a_mirrored_game_gets_the_same_code() -> None:
    # The classifier turns a game round when Red starts on the left wing; a game and its
    # mirror image (files a..i swapped) are the same opening. Games opening on the middle
    # file are not turned, so they are left out.
    checked = 0
    for _, _, moves in ccpd_rows():
        if moves[0][0] != "e":
            assert ecco.classify(mirrored(moves)) == ecco.classify(moves), moves
            checked += 1
    assert checked >= 100


def test_moves_iccs_text_and_games_agree() -> None:
    _, code, moves = ccpd_rows()[0]
    game = pgn.Game()
    for text in moves:
        game.add_move(xiangqi.Move.from_iccs(text))
    as_moves = ecco.classify([xiangqi.Move.from_iccs(m) for m in moves])
    assert as_moves == ecco.classify(moves) == ecco.classify(game)
    assert as_moves is not None and as_moves.code == code


def test_only_the_first_twenty_plies_are_read() -> None:
    _, code, moves = ccpd_rows()[0]
    found = ecco.classify([*moves, "a0a0"])  # a 21st ply is not even parsed
    assert found is not None and found.code == code


def test_no_moves_is_the_other_openings_code() -> None:
    assert ecco.classify([]) == ecco.opening("A00")


def test_a_game_from_another_position_has_no_code() -> None:
    game = pgn.Game(fen="3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", tags={"Opening": "x"})
    game.add_move(xiangqi.Move.from_iccs("e0e1"))
    assert ecco.classify(game) is None
    assert ecco.tag_game(game) is None
    assert game.tags["Opening"] == "x" and "ECCO" not in game.tags


def test_tag_game_writes_the_tags() -> None:
    game = pgn.Game(tags={"Variation": "old"})
    for move in chinese_moves("炮二平五 马8进7 马二进三 马2进3"):
        game.add_move(move)
    found = ecco.tag_game(game)
    assert found is not None
    assert (game.tags["ECCO"], game.tags["Opening"]) == ("C00", "中炮对屏风马")
    assert "Variation" not in game.tags
    ecco.tag_game(game, traditional=True)
    assert game.tags["Opening"] == "中炮對屏風馬"
    assert '[ECCO "C00"]' in game.to_pgn()


def test_variation_tag_and_traditional_names() -> None:
    found = ecco.opening("C46")
    assert found.name == "中炮过河车互进七兵对屏风马平炮兑车"
    assert found.variation == "红左边炮对黑退边炮上右士右直车"
    assert found.traditional == (
        "中炮過河車互進七兵對屏風馬平炮兌車",
        "紅左邊炮對黑退邊炮上右士右直車",
    )
    assert str(found) == f"C46 {found.name} {found.variation}"
    game = pgn.Game()
    ecco.tag_game(game)
    assert game.tags["ECCO"] == "A00" and "Variation" not in game.tags


def test_bad_input() -> None:
    with pytest.raises(InvalidMoveError, match="zz"):
        ecco.classify(["h2e2", "zz"])
    with pytest.raises(IllegalMoveError):
        ecco.classify(["h2e2", "h2e2"])
    with pytest.raises(TypeError, match="single string"):
        ecco.classify("h2e2")
    with pytest.raises(TypeError, match="int"):
        ecco.classify([3])  # type: ignore[list-item]
    with pytest.raises(ecco.InvalidEccoCodeError, match="'Z99'"):
        ecco.opening("Z99")
    with pytest.raises(ValueError, match="'A09'"):
        ecco.opening("A09")  # a code the table leaves unused


def test_the_tree_and_the_names_fit_together() -> None:
    parser = ecco._parsed()
    names = {o.code for o in ecco.openings()}
    # every code the tree can give has a name, and every named code is reachable
    assert parser.codes == names
    assert parser.calls <= set(parser.trees)
    # every move of the tree is a WXF word of one piece on a numbered file
    for word in parser.words:
        assert re.fullmatch(r"[KAEHRCP][1-9][+.\-][1-9]", word), word
    assert all(re.fullmatch(r"[A-E]\d\d", code) for code in names)
