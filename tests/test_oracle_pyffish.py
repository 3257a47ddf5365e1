"""Independent oracle: Fairy-Stockfish (pyffish, variant "xiangqi") against our rules.

Seeded random games are played from the start position, from every position in
tests/data/perft.txt, from random legal sparse endgames (tests/fen_gen.py) and
along capture-heavy lines.  At every position reached we compare with
Fairy-Stockfish:

* the sorted list of legal moves,
* whether the side to move is in check,
* game over (checkmate or stalemate, both a loss in xiangqi) iff no legal move,
* the position after each move (board and side of the FEN).

pyffish keeps its own position: each next FEN comes from pyffish.get_fen, never
from our library, so a wrong push in our code cannot leak into the oracle.

Move text: pyffish counts ranks 1..10 ("h3e3"), our ICCS counts 0..9 ("h2e2").
pyffish reads and writes xiangqi FEN with the same letters as ours (K A B N R C
P; it also accepts E/H for elephant/horse on input) and 'w'/'b' for the side.
pyffish's legal_moves does not apply repetition rules (perpetual check etc. are
only in is_optional_game_end), and we always hand it a bare FEN without move
history, so the comparison is of the pure move rules.

Scale the run with XIANGQI_ORACLE_SCALE=N (default 1: about 2,700 positions in random
games, plus divide(2) of every data-file position).  Each pyffish call costs a few ms
(it re-initialises the variant), which is what bounds the default run.
"""

from __future__ import annotations

import importlib.util
import os
import random
import re
from pathlib import Path

import pytest

ff = pytest.importorskip(
    "pyffish", reason="pyffish (Fairy-Stockfish) not installed; pip install pyffish"
)

from conftest import load_perft_cases  # noqa: E402

import xiangqi  # noqa: E402

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("_oracle_fen_gen", HERE / "fen_gen.py")
fen_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fen_gen)

VARIANT = "xiangqi"
SCALE = max(1, int(os.environ.get("XIANGQI_ORACLE_SCALE", "1")))
_FF_MOVE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")


# ---------------------------------------------------------------- conversions


def ff_to_iccs(text: str) -> str:
    """'h3e3' (pyffish, ranks 1..10) -> 'h2e2' (ICCS, ranks 0..9)."""
    m = _FF_MOVE.match(text)
    assert m, f"unexpected pyffish move text {text!r}"
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


def iccs_to_ff(text: str) -> str:
    """'h2e2' (ICCS) -> 'h3e3' (pyffish)."""
    return f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"


def board_and_side(fen: str) -> str:
    return " ".join(fen.split()[:2])


def test_move_text_conversion() -> None:
    assert ff_to_iccs("h3e3") == "h2e2"
    assert ff_to_iccs("b3b10") == "b2b9"
    assert ff_to_iccs("a10a1") == "a9a0"
    assert iccs_to_ff("b2b9") == "b3b10"
    start = sorted(ff_to_iccs(m) for m in ff.legal_moves(VARIANT, ff.start_fen(VARIANT), []))
    assert "h2e2" in start and "b2b9" in start and len(start) == 44
    assert board_and_side(ff.start_fen(VARIANT)) == board_and_side(xiangqi.START_FEN)


# ---------------------------------------------------------------- perft.txt


PERFT_CASES = load_perft_cases()
CASE_IDS = [c.id for c in PERFT_CASES]


def test_perft_file_shape() -> None:
    assert len(PERFT_CASES) >= 14
    assert len(set(CASE_IDS)) == len(CASE_IDS)
    for case in PERFT_CASES:
        assert case.fen and case.source and case.counts, case.id


@pytest.mark.parametrize("case", PERFT_CASES, ids=CASE_IDS)
def test_perft_file_fen_is_legal_setup(case: dict) -> None:
    """Every FEN obeys the placement rules (checked by tests/fen_gen.py, not by
    our library) and pyffish accepts it."""
    assert fen_gen.legality_problems(case.fen) == []
    assert ff.validate_fen(case.fen, VARIANT) == 1


@pytest.mark.parametrize("case", PERFT_CASES, ids=CASE_IDS)
def test_perft_file_shallow_counts_match_pyffish(case: dict) -> None:
    """perft 1 and 2 of the data file, recounted with Fairy-Stockfish."""
    fen = case.fen
    root = ff.legal_moves(VARIANT, fen, [])
    counts = case.counts
    if 1 in counts:
        assert counts[1] == len(root)
    if 2 in counts:
        assert counts[2] == sum(len(ff.legal_moves(VARIANT, fen, [m])) for m in root)


@pytest.mark.parametrize("case", PERFT_CASES, ids=CASE_IDS)
def test_divide_2_matches_pyffish(case: dict) -> None:
    """Our divide(2), move by move, against Fairy-Stockfish."""
    fen = case.fen
    theirs = {
        ff_to_iccs(m): len(ff.legal_moves(VARIANT, fen, [m]))
        for m in ff.legal_moves(VARIANT, fen, [])
    }
    ours = {str(m): n for m, n in xiangqi.Position(fen).divide(2).items()}
    assert ours == theirs


# ---------------------------------------------------------------- random games


class Oracle:
    """Walks our Position and pyffish's FEN side by side and compares them."""

    def __init__(self) -> None:
        self.compared = 0

    def compare(self, pos: xiangqi.Position, ff_fen: str, history: list[str]) -> list[str]:
        """Check one position; return pyffish's legal moves as ICCS text."""
        where = f"position {ff_fen!r} reached by {' '.join(history) or '(start)'}"
        theirs = sorted(ff_to_iccs(m) for m in ff.legal_moves(VARIANT, ff_fen, []))
        ours = sorted(str(m) for m in xiangqi.generate_legal(pos))
        if ours != theirs:
            only_ours = sorted(set(ours) - set(theirs))
            only_theirs = sorted(set(theirs) - set(ours))
            pytest.fail(
                f"legal moves differ at {where}: only ours {only_ours}, only pyffish {only_theirs}"
            )
        assert board_and_side(pos.fen()) == board_and_side(ff_fen), where
        check = ff.gives_check(VARIANT, ff_fen, [])
        assert pos.is_check() == check, f"is_check {pos.is_check()} vs pyffish {check} at {where}"
        over = not theirs
        assert (not pos.has_legal_moves()) == over, where
        assert pos.is_checkmate() == (over and check), where
        assert pos.is_stalemate() == (over and not check), where
        self.compared += 1
        return theirs

    def play(self, fen: str, rng: random.Random, plies: int, capture_bias: float = 0.0) -> int:
        """Play one random game of at most `plies` moves from fen; return the
        number of positions compared.  With capture_bias p, a capture is chosen
        (uniformly among captures) with probability p whenever one exists."""
        pos = xiangqi.Position(fen)
        ff_fen = ff.get_fen(VARIANT, fen, [])
        start_board = board_and_side(pos.fen())
        history: list[str] = []
        before = self.compared
        for _ in range(plies + 1):
            moves = self.compare(pos, ff_fen, history)
            if not moves or len(history) >= plies:
                break
            board, _side = fen_gen.parse_fen(ff_fen)
            captures = [m for m in moves if xiangqi.Move.from_iccs(m).to_square in board]
            if captures and rng.random() < capture_bias:
                choice = rng.choice(captures)
            else:
                choice = rng.choice(moves)
            pos.push(xiangqi.Move.from_iccs(choice))
            ff_fen = ff.get_fen(VARIANT, ff_fen, [iccs_to_ff(choice)])
            history.append(choice)
        # unwinding the whole game must give back the start position
        for expected in reversed(history):
            assert str(pos.pop()) == expected
        assert board_and_side(pos.fen()) == start_board
        return self.compared - before


def run_games(
    fens: list[str], seed: int, target: int, plies: int, capture_bias: float = 0.0
) -> int:
    oracle = Oracle()
    rng = random.Random(seed)
    i = 0
    while oracle.compared < target:
        oracle.play(fens[i % len(fens)], rng, plies, capture_bias)
        i += 1
    return oracle.compared


#: How many positions the random-game tests compare: a tenth in the default run (the
#: edit loop), the full volume under the `oracle` marker (`python -m pytest -m oracle`,
#: which CI runs). XIANGQI_ORACLE_SCALE multiplies both.
VOLUME = [
    pytest.param(0.1, id="quick"),
    pytest.param(1.0, id="full", marks=pytest.mark.oracle),
]


def _target(n: int, volume: float) -> int:
    return max(1, int(n * SCALE * volume))


@pytest.mark.slow
@pytest.mark.parametrize("volume", VOLUME)
def test_random_games_from_start(volume: float) -> None:
    target = _target(450, volume)
    assert run_games([xiangqi.START_FEN], seed=1, target=target, plies=90) >= target


@pytest.mark.slow
@pytest.mark.parametrize("volume", VOLUME)
def test_capture_heavy_games_from_start(volume: float) -> None:
    target = _target(350, volume)
    assert (
        run_games([xiangqi.START_FEN], seed=2, target=target, plies=70, capture_bias=0.85) >= target
    )


@pytest.mark.oracle
@pytest.mark.parametrize("case", PERFT_CASES, ids=CASE_IDS)
def test_random_games_from_perft_positions(case: dict) -> None:
    """Two games per data-file position: one uniform, one preferring captures."""
    seed = sum(map(ord, case.id))
    n = run_games([case.fen], seed=seed, target=12 * SCALE, plies=24)
    n += run_games([case.fen], seed=seed + 1, target=12 * SCALE, plies=24, capture_bias=0.8)
    assert n >= 2  # mate/stalemate cases end at once; every other case gives ~24+


SPARSE_MATERIAL = [
    ("R", "AA"),
    ("R", "AB"),
    ("NP", ""),
    ("NP", "A"),
    ("C", "A"),
    ("CA", "AA"),
    ("RR", "BB"),
    ("P", "P"),
    ("PP", "A"),
    ("PPP", "AB"),
    ("CN", "AB"),
    ("R", "N"),
    ("R", "C"),
    ("RN", "R"),
    ("CC", "NN"),
    ("N", "B"),
    ("RC", "AABB"),
    ("PPPPP", "PPPPP"),
    ("RNC", "RNC"),
    ("AABB", "AABB"),
    ("", "RP"),
    ("B", "CP"),
]


@pytest.mark.parametrize("volume", VOLUME)
def test_random_sparse_endgames(volume: float) -> None:
    """Random legal placements of a few pieces (either side to move)."""
    rng = random.Random(3)
    oracle = Oracle()
    target = _target(600, volume)
    i = 0
    while oracle.compared < target:
        red, black = SPARSE_MATERIAL[i % len(SPARSE_MATERIAL)]
        fen = fen_gen.random_sparse_fen(rng, red, black)
        assert fen_gen.legality_problems(fen) == []
        oracle.play(fen, rng, plies=30, capture_bias=0.3)
        i += 1
    assert oracle.compared >= target


@pytest.mark.slow
def test_sparse_generator_agrees_with_pyffish() -> None:
    """The helper's own check detection (used to keep generated setups legal)
    agrees with Fairy-Stockfish, for the side to move and for the other side."""
    rng = random.Random(4)
    for i in range(150):
        red, black = SPARSE_MATERIAL[i % len(SPARSE_MATERIAL)]
        fen = fen_gen.random_sparse_fen(rng, red, black)
        board, side = fen_gen.parse_fen(fen)
        assert ff.validate_fen(fen, VARIANT) == 1, fen
        assert fen_gen.in_check(board, side) == ff.gives_check(VARIANT, fen, []), fen
        other = fen.replace(" w ", " B ").replace(" b ", " w ").replace(" B ", " b ")
        assert not ff.gives_check(VARIANT, other, []), fen
