"""SAN as Fairy-Stockfish, Cutechess and XBoard write xiangqi, and Fairy-Stockfish's WXF for many
pawns on a file, checked against Fairy-Stockfish (pyffish) as the independent writer."""

from __future__ import annotations

import random
from pathlib import Path

import pyffish
import pytest

from xiangqi import IllegalMoveError, InvalidMoveError, Move, Position
from xiangqi.notation import iccs, parse_san, parse_wxf, san
from xiangqi.pgn import read_game, read_games

START = pyffish.start_fen("xiangqi")
WUKONG = Path(__file__).parent / "data" / "games" / "wukong" / "wukong_iccs.pgn"


def random_games(count: int, plies: int, seed: int) -> list[list[Move]]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        pos, moves = Position(), []
        for _ in range(plies):
            legal = list(pos.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(move)
            pos.push(move)
        games.append(moves)
    return games


def fairy(moves: list[Move], notation: int = pyffish.NOTATION_SAN) -> list[str]:
    return list(
        pyffish.get_san_moves("xiangqi", START, [iccs(m, "ranks1") for m in moves], False, notation)
    )


@pytest.mark.slow
def test_san_written_and_read_as_fairy_stockfish_writes_it_over_random_games() -> None:
    plies = 0
    for moves in random_games(40, 160, seed=20):
        pos = Position()
        for move, text in zip(moves, fairy(moves)):
            assert san(pos, move) == text, (pos.fen(), move)
            assert parse_san(pos, text) == move, (pos.fen(), text)
            pos.push(move)
            plies += 1
    assert plies > 5000


@pytest.mark.slow
def test_san_of_master_games_matches_fairy_stockfish_and_reads_back() -> None:
    games = list(read_games(WUKONG))
    for game in games[:30]:
        text = game.to_pgn("SAN")
        assert '[Variant "xiangqi"]' in text and '[Format "SAN"]' in text
        again = read_game(text)
        assert (
            again is not None
            and again.errors == []
            and again.mainline_moves() == game.mainline_moves()
        )
        words = [w for w in text.split("\n\n", 1)[1].split() if not w[0].isdigit()][:-1]
        assert words == fairy(list(game.mainline_moves()))


def test_a_cutechess_style_game_reads() -> None:
    text = (
        '[Event "?"]\n[Variant "xiangqi"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n'
        '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]\n'
        '[PlyCount "6"]\n\n'
        "1. Che3 {+0.20/12 0.5s} Hg8 {-0.15/11 0.4s} 2. Hg3 Rh10 3. Ri2 Cxb1 {+0.9/10}\n"
        "{White wins by adjudication} 1-0\n"
    )
    game = read_game(text)
    assert game is not None and game.errors == []
    assert [m.iccs() for m in game.mainline_moves()] == [
        "h2e2",
        "h9g7",
        "h0g2",
        "i9h9",
        "i0i1",
        "b7b0",
    ]
    assert game.variations[0].comment == "+0.20/12 0.5s"


def test_san_other_forms_read() -> None:
    pos = Position()
    h2e2 = Move.from_iccs("h2e2")
    for text in ("Che3", "Ch3e3", "Ch3-e3", "Che3+", "Che2"):  # Che2: XBoard's ranks 0..9
        assert parse_san(pos, text) == h2e2, text
    assert parse_san(pos, "Nc3") == Move.from_iccs("b0c2")  # N for the horse
    assert parse_san(pos, "Ba3") == Move.from_iccs("c0a2")  # B for the elephant
    pos.push_iccs("a0a1")
    pos.push_iccs("a9a8")
    assert parse_san(pos, "Ra0") == Move.from_iccs("a1a0")  # rank 0: XBoard's ranks 0..9
    pos.pop()
    pos.pop()
    pos.push_iccs("h2e2")
    pos.push_iccs("h9g7")
    assert parse_san(pos, "Cxe7+") == Move.from_iccs("e2e6")


@pytest.mark.parametrize(
    "text, error",
    [
        ("Cxe3", IllegalMoveError),  # "x" but no capture
        ("Ce3", IllegalMoveError),  # two cannons can go there
        ("Ke11", InvalidMoveError),
        ("Qe3", InvalidMoveError),
        ("Cj3", InvalidMoveError),
    ],
)
def test_bad_san_is_refused(text: str, error: type[Exception]) -> None:
    with pytest.raises(error, match="SAN"):
        parse_san(Position(), text)


# -- Fairy-Stockfish's WXF for many pawns on a file -------------------------------------------

PAWN_FENS = [
    "3k5/9/9/2P6/2P6/2P6/9/9/9/4K4 w - - 0 1",  # three on a file
    "3k5/9/9/2P6/2P3P2/2P3P2/9/9/9/4K4 w - - 0 1",  # three and two
    "3k5/9/2P6/2P6/2P6/2P6/9/9/9/4K4 w - - 0 1",  # four
    "3k5/2P6/2P6/2P6/2P6/2P6/9/9/9/4K4 w - - 0 1",  # five
    "3k5/9/9/1PP6/1PP6/9/9/9/9/4K4 w - - 0 1",  # two files of two
    "4k4/9/9/9/9/2p6/2p6/2p6/9/5K3 b - - 0 1",  # Black's three
    "4k4/9/9/9/9/2p3p2/2p3p2/2p6/9/5K3 b - - 0 1",  # Black's three and two
]


@pytest.mark.parametrize("fen", PAWN_FENS)
def test_fairy_stockfish_wxf_of_every_pawn_move_reads(fen: str) -> None:
    pos = Position(fen)
    digit_first = 0
    for move in pos.legal_moves:
        text = pyffish.get_san(
            "xiangqi", fen, iccs(move, "ranks1"), False, pyffish.NOTATION_XIANGQI_WXF
        )
        assert parse_wxf(pos, text) == move, (fen, text)
        digit_first += text[0].isdigit()
    assert digit_first > 0 or "1PP6" in fen


def test_fairy_stockfish_wxf_reads_over_random_games() -> None:
    for moves in random_games(20, 160, seed=21):
        pos = Position()
        for move, text in zip(moves, fairy(moves, pyffish.NOTATION_XIANGQI_WXF)):
            assert parse_wxf(pos, text) == move, (pos.fen(), text)
            pos.push(move)


@pytest.mark.slow
def test_xboard_san_with_ranks_0_to_9_reads_over_random_games() -> None:
    # XBoard numbers xiangqi ranks 0..9. Fairy-Stockfish's SAN with every rank lowered by one is
    # that text; a game's first moves may read both ways (a rook along a file), so the reader
    # reads them again once a move reads only with ranks 0..9.
    import re

    def lowered(text: str) -> str:
        return re.sub(r"10|[1-9]", lambda m: str(int(m.group()) - 1), text)

    for moves in random_games(40, 120, seed=22):
        words = fairy(moves)
        game = read_game(" ".join(lowered(w) for w in words) + " *")
        assert game is not None and game.errors == [] and game.mainline_moves() == moves
        same = read_game(" ".join(words) + " *")
        assert same is not None and same.errors == [] and same.mainline_moves() == moves
