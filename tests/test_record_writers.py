"""The game-record writers (write_games and the PGN, XQF and DhtmlXQ writers) refuse what
they cannot write before a file is touched: an item that is no Game, a tag that is no str
(as the PGN writer always did), no game at all (an empty file is no record); and what they
write reads back: a start with Black to move in check (legal: Black must answer it)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from xiangqi.errors import XiangqiError
from xiangqi.pgn import Game, read_game
from xiangqi.records import open_games, write_games

OLD = b"the user's old file\n"
# Black's king d9 checked by Red's pawn d8, Black to move: a legal position (the side in
# check is the side to move), as the FEN says.
BLACK_IN_CHECK = "3k5/3P5/9/9/9/9/9/9/9/5K3 b - - 0 1"
EXTENSIONS = ("pgn", "xqf", "dhtml")


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_a_start_with_black_to_move_in_check_reads_back(tmp_path: Path, extension: str) -> None:
    game = read_game(f'[FEN "{BLACK_IN_CHECK}"]\n\n*\n')
    path = tmp_path / f"x.{extension}"
    assert write_games([game], path) == 1
    (back,) = list(open_games(path))
    assert back.board().fen() == BLACK_IN_CHECK


@pytest.mark.parametrize("extension", EXTENSIONS)
@pytest.mark.parametrize("item", ["abc", None, 1, b"1. h2e2 *"])
def test_an_item_that_is_no_game_is_a_type_error_naming_it(
    tmp_path: Path, extension: str, item: object
) -> None:
    path = tmp_path / f"o.{extension}"
    path.write_bytes(OLD)
    with pytest.raises(TypeError, match=re.escape(f"item 0 is not a Game: {item!r}")):
        write_games([item], path)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="item 1 is not a Game"):
        write_games([Game(), item], path)  # type: ignore[list-item]
    assert path.read_bytes() == OLD and os.listdir(tmp_path) == [path.name]


@pytest.mark.parametrize("extension", EXTENSIONS)
@pytest.mark.parametrize("tag", ["Event", "Red", "Date", "Result"])
def test_a_tag_that_is_no_str_is_a_type_error_in_every_format(
    tmp_path: Path, extension: str, tag: str
) -> None:
    game = Game()
    game.tags[tag] = 5  # type: ignore[assignment]
    path = tmp_path / f"o.{extension}"
    path.write_bytes(OLD)
    with pytest.raises(TypeError, match="tag names and values must be str, got int"):
        write_games([game], path)
    assert path.read_bytes() == OLD and os.listdir(tmp_path) == [path.name]


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_no_game_is_refused_and_the_old_file_kept(tmp_path: Path, extension: str) -> None:
    path = tmp_path / f"e.{extension}"
    with pytest.raises(XiangqiError, match="no game to write"):
        write_games([], path)
    assert os.listdir(tmp_path) == []  # no 0-byte file nothing can read back
    path.write_bytes(OLD)
    with pytest.raises(XiangqiError, match="no game to write"):
        write_games(iter(()), path)
    assert path.read_bytes() == OLD and os.listdir(tmp_path) == [path.name]
