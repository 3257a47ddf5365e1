"""Every game a reader returns has a board that sets up (Game.board() never raises for it).

Each reader is given files whose start diagram the rules forbid: both kings in check (a
puzzle book's final position, which the PGN and XQF readers keep as the FEN tag), a
composition's pawn behind its start rank, kings facing. A reader either refuses the file
at read time with its own error, or returns games whose board sets up, with the diagram
as written. The files are built here from each format's documented layout.
"""

from __future__ import annotations

import io

import pytest
from cbr_writer import encode_cbf, encode_cbr, point

from xiangqi import XiangqiError
from xiangqi.pgn import Game, read_game
from xiangqi.records import open_games
from xiangqi.records.cbr import read_cbf, read_cbr
from xiangqi.records.dhtml import read_dhtml
from xiangqi.records.xqf import read_xqf

#: Red's rook f5 checks Black's king f9, Black's rook d4 checks Red's king d0.
BOTH_IN_CHECK = "5k3/9/9/9/5R3/3r5/9/9/9/3K5"
#: A Red pawn on a1, behind its start rank: a composition (排局).
PAWN_BEHIND = "3k5/9/9/9/9/9/9/9/P8/4K4"
#: The kings face on the open e file.
FACING = "4k4/9/9/9/9/9/9/9/9/4K4"
DIAGRAMS = [BOTH_IN_CHECK, PAWN_BEHIND, FACING]


def pieces(board: str) -> dict[int, str]:
    """FEN letter by public square (file + 9 * rank) of a FEN board field."""
    out = {}
    for row, text in enumerate(board.split("/")):
        file = 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
            else:
                out[file + 9 * (9 - row)] = ch
                file += 1
    return out


def xqf_file(board: str) -> bytes:
    """An XQF 1.0 file (unencrypted) of the diagram, Red to move, no moves (XQF.TXT)."""
    head = bytearray(1024)
    head[0:3] = b"XQ\x0a"
    slots = [0xFF] * 32
    order = "RNBAKABNRCCPPPPPrnbakabnrccppppp"
    for square, letter in pieces(board).items():
        slot = next(i for i, c in enumerate(order) if c == letter and slots[i] == 0xFF)
        slots[slot] = (square % 9) * 10 + square // 9
    head[16:48] = bytes(slots)
    start = bytes([0x18, 0x20, 0, 0]) + bytes(4)  # the start's placeholder record
    return bytes(head) + start


def cbr_file(board: str) -> bytes:
    """A CBR file of the diagram: the usual start's file with its 90 board bytes replaced."""
    data = bytearray(encode_cbr(Game()))
    kinds = {"R": 1, "N": 2, "B": 3, "A": 4, "K": 5, "C": 6, "P": 7}
    data[2120:2210] = bytes(90)
    for square, letter in pieces(board).items():
        side = 0x10 if letter.isupper() else 0x20
        data[2120 + point(square)] = side | kinds[letter.upper()]
    return bytes(data)


def diagram_game(board: str) -> Game:
    game = Game()
    game.tags["FEN"] = f"{board} w - - 0 1"  # a tag set by hand: no check
    return game


READERS = {
    "pgn": lambda board: read_game(f'[FEN "{board} w - - 0 1"]\n\n*\n'),
    "pgn-front-door": lambda board: next(
        open_games(io.BytesIO(f'[FEN "{board} w - - 0 1"]\n\n*\n'.encode()))
    ),
    "xqf": lambda board: read_xqf(xqf_file(board)),
    "cbr": lambda board: read_cbr(cbr_file(board)),
    "cbf": lambda board: read_cbf(encode_cbf(diagram_game(board))),
    "dhtml-fen": lambda board: read_dhtml(
        f"[DhtmlXQ][DhtmlXQ_fen]{board} w - - 0 1[/DhtmlXQ_fen][/DhtmlXQ]"
    ),
}


@pytest.mark.parametrize("board", DIAGRAMS, ids=["both-in-check", "pawn-behind", "facing"])
@pytest.mark.parametrize("reader", list(READERS))
def test_a_game_a_reader_returns_has_a_board(reader: str, board: str) -> None:
    try:
        game = READERS[reader](board)
    except XiangqiError:
        return  # refused at read time, with the reader's error
    assert game is not None
    pos = game.board()  # raised InvalidFenError for a kept diagram before
    if game.fen.split()[0] == board:  # the diagram was kept: it is the board
        assert pos.board_fen() == board
        assert game.errors, "a kept diagram the rules forbid comes with an error"
    # the board a reader hands back goes on working: the game's end position, its PGN
    assert game.end().board().board_fen() == pos.board_fen()
    assert game.to_pgn()


def test_the_xqf_reader_keeps_a_both_in_check_diagram_and_its_board_sets_up() -> None:
    game = read_xqf(xqf_file(BOTH_IN_CHECK))
    assert game.fen == f"{BOTH_IN_CHECK} w - - 0 1"
    pos = game.board()
    # the diagram as drawn: Red to move, in check from Black's rook d4
    assert pos.board_fen() == BOTH_IN_CHECK and pos.turn == 0
    assert pos.is_check() and {str(m) for m in pos.legal_moves} == {"d0e0"}


def test_the_pgn_reader_keeps_a_both_in_check_diagram_and_its_board_sets_up() -> None:
    game = read_game(f'[FEN "{BOTH_IN_CHECK} b - - 0 1"]\n\n*\n')
    assert game is not None and game.fen == f"{BOTH_IN_CHECK} b - - 0 1"
    pos = game.board()
    assert pos.board_fen() == BOTH_IN_CHECK and pos.turn == 1
    assert pos.is_check()  # Black's king f9, from Red's rook f5


def test_a_fen_tag_set_by_hand_that_no_diagram_reads_still_raises() -> None:
    game = Game()
    game.tags["FEN"] = "9/9/9/9/9/9/9/9/9/9 w - - 0 1"  # no kings
    with pytest.raises(XiangqiError, match="king"):
        game.board()
