"""Messages count in English: "1 game", "1 ply", "1 move", "an XQF file" (never "1 games",
"in 1 plies", "a XQF file"); the CLI's summaries, the mate search's, verify's, the
records' and the FEN reader's alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from xiangqi import Move, Position
from xiangqi.__main__ import main
from xiangqi.errors import InvalidFenError, SearchLimitReached
from xiangqi.pgn import read_game
from xiangqi.puzzles import Puzzle, verify
from xiangqi.records import UnknownFormatError, write_games

ROOK_MATE = "4k4/7R1/R8/9/9/9/9/9/9/3K5 w - - 0 1"  # a7a9 mates at once


def test_the_mate_search_and_verify_say_1_ply() -> None:
    assert str(SearchLimitReached(1, 1)).endswith("after 1 node; proven: no mate within 1 ply")
    assert str(SearchLimitReached(2, 3)).endswith("after 2 nodes; proven: no mate within 3 plies")
    # 0 plies proven is nothing proven, not a proof about no plies.
    assert str(SearchLimitReached(5, 0)).endswith("after 5 nodes; nothing proven yet")
    verdict = verify(Puzzle(ROOK_MATE, (Move.from_iccs("a7a9"),), plies=1))
    assert verdict.ok and verdict.reason == "forced mate in 1 ply"


def test_the_cli_says_1_ply_and_1_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mate", ROOK_MATE, "--plies", "1"]) == 0
    assert capsys.readouterr().out.startswith("mate in 1 (1 ply, ")
    source = tmp_path / "one.pgn"
    source.write_text("1. h2e2 *\n", encoding="utf-8")
    assert main(["convert", str(source), str(tmp_path / "out.pgn")]) == 0
    assert capsys.readouterr().out == f"1 game, 1 ply written to {tmp_path / 'out.pgn'}\n"


def test_a_game_of_one_move_and_an_xqf_file(tmp_path: Path) -> None:
    game = read_game("1. h2e2 *")
    assert repr(game) == "<Game '?' vs '?', 1 move, *>"
    with pytest.raises(UnknownFormatError, match=r"^an XQF file holds one game"):
        write_games([game, game], tmp_path / "two.xqf")
    assert list(tmp_path.iterdir()) == []


def test_a_fen_rank_of_one_file() -> None:
    with pytest.raises(InvalidFenError, match="rank 9 has 1 file, expected 9"):
        Position("k/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
