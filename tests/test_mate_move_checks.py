"""The mate search's own cheap tests after each move, against second algorithms:
move_checks (core/movegen.pxd: does the move give check? testing only what it changed)
against tests/fen_gen.py's pure-Python in_check, written apart from the library; and
has_legal_move (has the other side any legal reply? stopping at the first) against
pyffish's legal move list (Fairy-Stockfish).

Positions: the perft suite, xiangqibench's mate puzzles (dense in checks, discovered
checks, cannon screens and mates), random sparse endgames with many attackers, and
random playouts from the start.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest
from conftest import load_perft_cases

import xiangqi
from xiangqi import _core
from xiangqi.puzzles import position_of

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("_checks_fen_gen", HERE / "fen_gen.py")
assert _spec is not None and _spec.loader is not None
fen_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fen_gen)


def _ff_move(frm: int, to: int) -> str:
    """pyffish's spelling of a move: files a..i, ranks 1..10."""
    return "".join(f"{'abcdefghi'[s % 9]}{s // 9 + 1}" for s in (frm, to))


def _disagreements(fen: str, ff: object = None) -> list[str]:
    """Moves of fen after which move_checks disagrees with fen_gen's in_check, or (with
    ff, the pyffish module) has_legal_move with pyffish's replies."""
    pos = position_of(fen)
    flags = _core._move_check_flags(pos._board)
    board, side = fen_gen.parse_fen(fen)
    assert len(flags) == pos.legal_moves.count()
    wrong = []
    for code, (checks, replies) in flags.items():
        frm, to = divmod(code, 90)
        after = dict(board)
        after[to] = after.pop(frm)
        name = f"{fen} {xiangqi.square_name(frm)}{xiangqi.square_name(to)}"
        if checks != fen_gen.in_check(after, 1 - side):
            wrong.append(f"check: {name}")
        if ff is not None:
            theirs = ff.legal_moves("xiangqi", fen, [_ff_move(frm, to)])  # type: ignore[attr-defined]
            if replies != bool(theirs):
                wrong.append(f"replies: {name}")
    return wrong


def _puzzle_fens() -> list[str]:
    cases = HERE / "data" / "xiangqibench" / "cases.jsonl"
    return [json.loads(line)["fen"] for line in cases.read_text().splitlines() if line]


def test_checks_on_perft_and_puzzle_positions() -> None:
    fens = [case.fen for case in load_perft_cases()] + _puzzle_fens()
    assert len(fens) > 120
    wrong = [w for fen in fens for w in _disagreements(fen)]
    assert wrong == []


def test_replies_as_fairy_stockfish_counts_them() -> None:
    ff = pytest.importorskip("pyffish")
    rng = random.Random(11)
    fens = [fen for fen in _puzzle_fens()[:8] if fen_gen.is_legal_fen(fen)]
    # Crowded endgames, where many moves mate: "no reply" must not be vacuous.
    fens += [fen_gen.random_sparse_fen(rng, red="RRCNNPP", black="", side=0) for _ in range(12)]
    wrong = [w for fen in fens for w in _disagreements(fen, ff)]
    mates = sum(
        not replies
        for fen in fens
        for _, replies in _core._move_check_flags(position_of(fen)._board).values()
    )
    assert wrong == [] and mates >= 10


@pytest.mark.parametrize("seed", range(4))
def test_random_endgames_with_many_attackers(seed: int) -> None:
    rng = random.Random(seed)
    wrong = []
    for _ in range(150):
        fen = fen_gen.random_sparse_fen(rng, red="RRCCNNPP", black="AABBRC")
        wrong += _disagreements(fen)
        fen = fen_gen.random_sparse_fen(rng, red="RCNPAB", black="RRCCNNPP")
        wrong += _disagreements(fen)
    assert wrong == []


def test_random_playouts() -> None:
    rng = random.Random(7)
    wrong = []
    for _ in range(30):
        pos = xiangqi.Position()
        for _ in range(120):
            moves = list(pos.legal_moves)
            if not moves or pos.outcome() is not None:
                break
            pos.push(rng.choice(moves))
            wrong += _disagreements(pos.fen())
    assert wrong == []
