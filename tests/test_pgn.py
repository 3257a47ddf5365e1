"""Game records: reading real and hand-written PGN files, writing them back, errors."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from pgn_helpers import mainline_comments

from xiangqi import START_FEN, IllegalMoveError, InvalidMoveError, Move, Position
from xiangqi.pgn import (
    Game,
    IllegalPgnMoveError,
    InvalidPgnMoveError,
    read_game,
    read_games,
)

GAMES = Path(__file__).parent / "data" / "games"


def load(name: str) -> Game:
    game = read_game((GAMES / name).read_text(encoding="utf-8"))
    assert game is not None
    assert game.errors == [] and game.unread == []
    return game


def iccs_list(text: str) -> list[Move]:
    return [Move.from_iccs(t) for t in text.split()]


def movetext_tokens(pgn: str) -> list[str]:
    """The move text's words, without tags, comments and line breaks."""
    body = "\n".join(line for line in pgn.splitlines() if not line.startswith("["))
    return re.sub(r"\{[^}]*\}", " ", body).split()


# -- real games (sources in each file's tags) -------------------------------------------------


@pytest.mark.parametrize(
    ("name", "plies", "first", "last", "result"),
    [
        # WXF "P3+1": Red's file 3 is g; "C4+6": the cannon moved to f2 by C2=4 goes to f8.
        ("2015-wxc-r1-cao-yanlei-petri-haikola.pgn", 27, "g3g4", "f2f8", "1-0"),
        # "C2=5" is h2e2; Black's last "P7+1": the g-pawn, already on g5, goes to g4.
        ("2015-wxc-r1-lucas-gitter-matsuno-yoichiro.pgn", 20, "h2e2", "g5g4", "0-1"),
        # "P7+1" is c3c4; "R9+2": Red's a-file chariot from a0 to a2.
        ("2015-wxc-r1-uwe-frischmuth-arnout-de-leeuwe.pgn", 13, "c3c4", "a0a2", "0-1"),
        # 车三平八: the chariot that went 车一平二, 进六, 退二, 平三 stands on g4 and goes to b4.
        ("1999-national-r5-xu-yinchuan-liu-dianzhong.pgn", 23, "h2e2", "g4b4", "1/2-1/2"),
    ],
)
def test_real_games_replay(name: str, plies: int, first: str, last: str, result: str) -> None:
    game = load(name)
    assert len(game.mainline_moves()) == plies
    assert game.mainline_moves()[0] == Move.from_iccs(first)
    assert game.mainline_moves()[-1] == Move.from_iccs(last)
    assert game.result == result
    assert game.tags["Red"] and game.tags["Date"].count(".") == 2


def test_real_game_tags_and_comments() -> None:
    game = load("2015-wxc-r1-cao-yanlei-petri-haikola.pgn")
    assert game.tags["Red"] == "Cao Yanlei" and game.tags["Black"] == "Petri Haikola"
    assert game.tags["Event"] == "14th World Xiangqi Championship"
    assert "trapped" in mainline_comments(game)[27]
    assert mainline_comments(game)[0].startswith("The whole game")
    xu = load("1999-national-r5-xu-yinchuan-liu-dianzhong.pgn")
    assert xu.tags["Red"] == "许银川" and xu.tags["Opening"] == "中炮过河车对屏风马两头蛇"


@pytest.mark.parametrize("fmt", ["ICCS", "WXF", "Chinese"])
def test_real_games_survive_writing_in_each_format(fmt: str) -> None:
    for path in sorted(GAMES.glob("20*.pgn")) + sorted(GAMES.glob("19*.pgn")):
        game = load(path.name)
        again = read_game(game.to_pgn(fmt))
        assert again is not None and again.errors == []
        assert again.mainline_moves() == game.mainline_moves()
        assert mainline_comments(again) == mainline_comments(game)
        assert {k: v for k, v in again.tags.items() if k != "Format"} == {
            k: v for k, v in game.tags.items() if k != "Format"
        }
        assert again.tags["Format"] == fmt


# -- hand-written files ------------------------------------------------------------------------

TANDEM = "g7f7 d9d8 g6g7 d8d9 c6d6 d9d8 g5g6 d8d9"


@pytest.mark.parametrize("fmt", ["Chinese", "WXF", "ICCS"])
def test_hand_written_tandem_pawn_game(fmt: str) -> None:
    text = (GAMES / f"tandem-pawns-{fmt.lower()}.pgn").read_text(encoding="utf-8")
    game = read_game(text)
    assert game is not None and game.errors == []
    assert game.mainline_moves() == iccs_list(TANDEM)
    assert game.fen == "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1"
    assert mainline_comments(game)[1] == "g7-f7" and mainline_comments(game)[7].startswith(
        "one doubled"
    )
    # Writing gives back the same move text word for word, whatever the line breaks.
    assert movetext_tokens(game.to_pgn(fmt)) == movetext_tokens(text)


def test_multi_game_file_from_text_and_from_a_file(tmp_path: Path) -> None:
    text = (GAMES / "two-games.pgn").read_text(encoding="utf-8")
    first, second = list(read_games(text))
    assert first.mainline_moves() == iccs_list("h2e2 h9g7 h0g2 i9h9")
    assert first.result == "1/2-1/2" and mainline_comments(first)[4].startswith("central")
    assert second.mainline_moves() == iccs_list("g3g4 h7g7 b2e2")
    assert mainline_comments(second)[2] == "the pawn opening" and second.tags["Round"] == "2"
    path = tmp_path / "two.pgn"
    path.write_text(text, encoding="utf-8")
    with path.open(encoding="utf-8") as handle:
        assert read_game(handle).mainline_moves() == first.mainline_moves()  # type: ignore[union-attr]
        assert read_game(handle).mainline_moves() == second.mainline_moves()  # type: ignore[union-attr]
        assert read_game(handle) is None
    assert list(read_games("")) == [] and read_game("\n\n") is None


# -- writing -----------------------------------------------------------------------------------


def test_writing_the_central_cannon_opening() -> None:
    game = Game(tags={"Red": "A", "Black": "B"})
    game.add_move(Move.from_iccs("h2e2"), comment="central cannon")
    game.add_move(Move.from_iccs("h9g7"))
    game.result = "1-0"
    text = game.to_pgn("Chinese")
    assert text.splitlines()[:3] == ['[Game "Chinese Chess"]', '[Event "?"]', '[Site "?"]']
    assert '[Red "A"]' in text and '[Format "Chinese"]' in text and "[FEN" not in text
    assert text.endswith("1. 炮二平五 {central cannon} 1... 马8进7 1-0\n")
    assert game.to_pgn("WXF").endswith("1. C2.5 {central cannon} 1... H8+7 1-0\n")
    assert game.to_pgn().endswith("1. H2-E2 {central cannon} 1... H9-G7 1-0\n")


def test_writing_from_a_fen_with_black_to_move() -> None:
    game = Game(fen="4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 7")
    game.add_move(Move.from_iccs("e9f9"))
    text = game.to_pgn("WXF")
    assert '[FEN "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 7"]' in text
    assert text.endswith("7... K5.6 *\n")
    assert read_game(text).mainline_moves() == game.mainline_moves()  # type: ignore[union-attr]


def test_tag_values_are_escaped() -> None:
    game = Game(tags={"Event": 'The "Cup" \\ final'})
    again = read_game(game.to_pgn())
    assert again is not None and again.tags["Event"] == 'The "Cup" \\ final'


def test_add_move_checks_legality() -> None:
    game = Game()
    with pytest.raises(IllegalMoveError):
        game.add_move(Move.from_iccs("h2h8"))
    assert game.mainline_moves() == []
    with pytest.raises(ValueError, match="result"):
        game.result = "2-0"
    with pytest.raises(ValueError, match="format"):
        game.to_pgn("LAN")


def playout(seed: int, plies: int) -> list[Move]:
    rng = random.Random(seed)
    pos, moves = Position(), []
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        move = rng.choice(sorted(legal))
        pos.push(move)
        moves.append(move)
    return moves


@pytest.mark.parametrize("fmt", ["ICCS", "WXF", "Chinese"])
def test_random_games_round_trip(fmt: str) -> None:
    for seed in range(20):
        game = Game(tags={"Round": str(seed)})
        for ply, move in enumerate(playout(seed, 100)):
            game.add_move(move, comment=f"ply {ply + 1}" if ply % 17 == 0 else None)
        again = read_game(game.to_pgn(fmt))
        assert again is not None and again.errors == []
        assert again.mainline_moves() == game.mainline_moves()
        assert mainline_comments(again) == mainline_comments(game)
        assert again.tags["Round"] == str(seed)


# -- reading quirks and errors -----------------------------------------------------------------


def test_reading_tolerates_annotations_variations_and_glued_numbers() -> None:
    text = (
        '[Game "Chinese Chess"]\n\n'
        "1.炮二平五 $1 马８进７! (1... 炮8平5 2. 马二进三)\n"
        "2.H2+3 R9=8?! 3. R1.2+ ; a line comment\n"
        "3... h7h3 *"
    )
    game = read_game(text)
    assert game is not None and game.errors == []
    assert game.mainline_moves() == iccs_list("h2e2 h9g7 h0g2 i9h9 i0h0 h7h3")
    assert mainline_comments(game) == {5: "a line comment"}


def test_chinese_book_move_numbers() -> None:
    game = read_game("1、炮二平五 马8进7 2、马二进三 车9平8 *")
    assert game is not None and game.errors == []
    assert game.mainline_moves() == iccs_list("h2e2 h9g7 h0g2 i9h9")


def test_result_marker_fills_a_missing_result_tag() -> None:
    game = read_game("1. C2.5 H8+7 0-1")
    assert game is not None and game.result == "0-1"
    assert game.tags["Game"] == "Chinese Chess"


def test_illegal_move_is_reported_with_its_ply() -> None:
    text = '[Game "Chinese Chess"]\n\n1. C2.5 H8+7 2. H2+3 H8+7 3. R1.2 R9.8 *'
    game = read_game(text)
    assert game is not None
    assert game.mainline_moves() == iccs_list("h2e2 h9g7 h0g2")  # the moves before the bad one
    (error,) = game.errors
    assert isinstance(error, IllegalPgnMoveError) and isinstance(error, IllegalMoveError)
    assert error.ply == 4 and error.text == "H8+7"
    assert "ply 4 (move 2, Black) 'H8+7'" in str(error)
    assert game.unread == ["H8+7", "R1.2", "R9.8"]
    with pytest.raises(IllegalPgnMoveError, match="ply 4"):
        read_game(text, strict=True)


def test_unreadable_move_is_reported_with_its_ply() -> None:
    game = read_game("1. C2.5 H8+7 2. Xx9 *")
    assert game is not None and len(game.mainline_moves()) == 2
    (error,) = game.errors
    assert isinstance(error, InvalidPgnMoveError) and isinstance(error, InvalidMoveError)
    assert error.ply == 3 and "'Xx9'" in str(error)
    with pytest.raises(ValueError, match="ply 3"):
        list(read_games(io.StringIO("1. C2.5 H8+7 2. Xx9 *"), strict=True))


def test_ambiguous_move_is_illegal() -> None:
    fen = "3k5/9/9/2R6/9/9/2R6/9/9/4K4 w - - 0 1"
    game = read_game(f'[FEN "{fen}"]\n\n1. R7.3 *')
    assert game is not None
    assert isinstance(game.errors[0], IllegalPgnMoveError)
    assert "ambiguous" in str(game.errors[0])


def test_game_positions() -> None:
    game = load("two-games.pgn")
    assert game.board().fen() == START_FEN
    assert game.end().board().move_stack == game.mainline_moves()
    assert repr(game).startswith("<Game '?' vs '?', 4 moves")
