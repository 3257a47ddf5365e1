"""The "why illegal" text of IllegalMoveError, checked statement by statement.

For hundreds of illegal moves of each kind, in seeded random positions, the reason the
library gives is parsed back and judged true or false by code written here from the
rules (and tests/fen_gen.py's in_check and kings_facing, written without the library):
the square it names must hold what it says, the count it gives must be the count, the
rule it cites must really be broken, and a movement rule is cited whenever the piece
could not make that move on an empty board.
"""

from __future__ import annotations

import importlib.util
import random
import re
from collections import Counter
from pathlib import Path

import pytest

import xiangqi
from xiangqi import IllegalMoveError, Move, Position

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("_why_fen_gen", HERE / "fen_gen.py")
assert _spec and _spec.loader
fen_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fen_gen)

NAMES = {"K": "king", "A": "advisor", "B": "elephant", "N": "horse", "R": "rook", "C": "cannon"}
NAMES["P"] = "pawn"


def sq(name: str) -> int:
    return "abcdefghi".index(name[0]) + 9 * int(name[1])


def shape_ok(kind: str, red: bool, f: int, t: int) -> bool:
    """Could this kind go from f to t on an otherwise empty board (zones included)?"""
    df, dr = t % 9 - f % 9, t // 9 - f // 9

    def palace(s: int) -> bool:
        return 3 <= s % 9 <= 5 and (s // 9 <= 2 if red else s // 9 >= 7)

    if kind == "K":
        return abs(df) + abs(dr) == 1 and palace(t)
    if kind == "A":
        return abs(df) == abs(dr) == 1 and palace(t)
    if kind == "B":
        return abs(df) == abs(dr) == 2 and ((t // 9 <= 4) if red else (t // 9 >= 5))
    if kind == "N":
        return sorted((abs(df), abs(dr))) == [1, 2]
    if kind in "RC":
        return (df == 0) != (dr == 0)
    forward = dr if red else -dr
    crossed = (f // 9 >= 5) if red else (f // 9 <= 4)
    return (df == 0 and forward == 1) or (dr == 0 and abs(df) == 1 and crossed)


def near(kind: str, f: int, t: int) -> bool:
    """Steps of the piece's own shape that leave its zone (palace, own half)."""
    df, dr = abs(t % 9 - f % 9), abs(t // 9 - f // 9)
    return (kind == "B" and df == dr == 2) or (kind in "KA" and df + dr in (1, 2) and df < 2)


def between(f: int, t: int) -> list[int]:
    df, dr = t % 9 - f % 9, t // 9 - f // 9
    step = (1 if df > 0 else -1) if dr == 0 else (9 if dr > 0 else -9)
    return list(range(f + step, t, step))


def judge(board: dict[int, str], red_to_move: bool, f: int, t: int, reason: str) -> str:
    """The kind of statement the reason makes, after asserting that it is true."""
    piece = board.get(f)
    side = "Red" if red_to_move else "Black"
    if reason.startswith("there is no piece on "):
        assert piece is None and reason.endswith(xiangqi.square_name(f))
        return "no piece"
    assert piece is not None
    kind, red = piece.upper(), piece.isupper()
    if reason.startswith(f"the piece on {xiangqi.square_name(f)} is "):
        assert red != red_to_move and reason.endswith(f"it is {side}'s move")
        return "not yours"
    assert red == red_to_move
    target = board.get(t)
    m = re.fullmatch(
        r"it would leave (Red|Black)'s king in check( \(the kings would face each other\))?", reason
    )
    if m:
        assert m[1] == side
        assert shape_ok(kind, red, f, t) and (target is None or target.isupper() != red)
        after = dict(board)
        after[t] = after.pop(f)
        assert fen_gen.in_check(after, 0 if red else 1)
        assert bool(m[2]) == fen_gen.kings_facing(after)
        return "check, kings facing" if m[2] else "check"
    if not shape_ok(kind, red, f, t):
        # A movement rule is cited, and it is the one broken.
        name = NAMES[kind]
        if "palace" in reason:
            assert kind in "KA" and reason.endswith("may not leave its palace")
            return "palace"
        if "may not cross the river" in reason:
            assert kind == "B" and ((t // 9 >= 5) if red else (t // 9 <= 4))
            return "river"
        if "sideways only after crossing" in reason:
            assert kind == "P" and t // 9 == f // 9
            return "pawn sideways"
        if "never moves backwards" in reason:
            assert kind == "P" and ((t < f) if red else (t > f)) and t // 9 != f // 9
            return "pawn backwards"
        assert reason.startswith(("a ", "an ")) and f" {name} moves " in reason, reason
        return "shape"
    # The shape fits: a blocker, a screen count or the own piece on the target.
    m = re.fullmatch(r"the (horse's leg|elephant's eye) on (\w\d) is blocked", reason)
    m = m or re.fullmatch(r"the (rook's path|cannon's path) is blocked on (\w\d)", reason)
    if m:
        blocker = sq(m[2])
        assert blocker in board
        if m[1] == "horse's leg":
            df, dr = t % 9 - f % 9, t // 9 - f // 9
            assert blocker == f + (df // 2 if abs(df) == 2 else 9 * (dr // 2))
        elif m[1] == "elephant's eye":
            assert blocker == (f + t) // 2
        else:
            path = [s for s in between(f, t) if s in board]
            assert path and blocker == path[0]
            assert kind == "R" or target is None
        return m[1].split("'")[0] + " blocked"
    m = re.fullmatch(
        r"a cannon captures by jumping exactly one screen, "
        r"and there (is none|are \d+) between \w\d and \w\d",
        reason,
    )
    if m:
        screens = sum(s in board for s in between(f, t))
        assert kind == "C" and target is not None and target.isupper() != red
        assert screens != 1 and (m[1] == "is none") == (screens == 0)
        if screens:
            assert m[1] == f"are {screens}"
        return "cannon screens"
    assert reason == f"{xiangqi.square_name(t)} holds {side}'s own piece", reason
    assert target is not None and target.isupper() == red
    return "own piece"


def positions(count: int, seed: int) -> list[Position]:
    from conftest import load_perft_cases

    rng = random.Random(seed)
    starts = [xiangqi.START_FEN] + [c.fen for c in load_perft_cases()]
    starts += [fen_gen.random_sparse_fen(rng, "RNCPPAB", "rncppab") for _ in range(10)]
    out = []
    while len(out) < count:
        pos = Position(rng.choice(starts))
        for _ in range(rng.randrange(0, 50)):
            moves = list(pos.legal_moves)
            if not moves:
                break
            pos.push(rng.choice(moves))
        out.append(pos.copy(stack=False))
    return out


@pytest.mark.slow
def test_why_illegal_is_true_for_every_illegal_move() -> None:
    rng = random.Random(14)
    kinds: Counter[str] = Counter()
    for pos in positions(150, seed=14):
        board = {s: p.symbol() for s, p in pos.piece_map().items()}
        red = pos.turn == xiangqi.RED
        legal = set(pos.legal_moves)
        fen = pos.fen()
        pairs = []
        for f, p in board.items():  # every move the piece's shape allows, and a few others
            if p.isupper() == red:
                pairs += [(f, t) for t in range(90) if shape_ok(p.upper(), red, f, t)]
                pairs += [(f, t) for t in range(90) if near(p.upper(), f, t)]
                pairs += [(f, t) for t in rng.sample(range(90), 8) if t != f]
        for f in rng.sample(range(90), 12):  # empty points and the other side's pieces too
            pairs += [(f, t) for t in rng.sample(range(90), 4) if t != f]
        for f, t in pairs:
            if True:
                move = Move(f, t)
                if move in legal:
                    continue
                try:
                    pos.push(move)
                except IllegalMoveError as exc:
                    text = str(exc)
                else:
                    raise AssertionError(f"{move} accepted in {fen}")
                prefix = f"illegal move {move}: "
                suffix = f", in {fen!r}"
                assert text.startswith(prefix) and text.endswith(suffix), text
                kinds[judge(board, red, f, t, text[len(prefix) : -len(suffix)])] += 1
                assert pos.fen() == fen
    for kind in ("no piece", "not yours", "shape", "own piece", "check", "pawn backwards"):
        assert kinds[kind] >= 300, kinds
    for kind in ("rook blocked", "cannon blocked", "horse blocked", "cannon screens"):
        assert kinds[kind] >= 60, kinds
    for kind in ("palace", "river", "elephant blocked", "check, kings facing", "pawn sideways"):
        assert kinds[kind] >= 15, kinds


def test_readme_example_elephant_reason() -> None:
    """The issue's example: c0e3 is not an elephant move (not "e3 holds Red's own piece")."""
    pos = Position()
    try:
        pos.push_iccs("c0e3")
    except IllegalMoveError as exc:
        assert "an elephant moves exactly two points diagonally" in str(exc)
    else:
        raise AssertionError("c0e3 accepted")
