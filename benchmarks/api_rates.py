"""Print the Python API's call rates (best of 5 timeit repeats) in one run.

    python benchmarks/api_rates.py

generate_legal on the start position and on the 50 fixed middlegames of
benchmarks/positions.py, pos.legal_moves() on the same middlegames, push/pop pairs,
is_check, Position(fen), fen(), and legal_moves_batch over 100,000 Position objects
and over 10,000 FEN strings.
"""

from __future__ import annotations

import os
import sys
import timeit
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from positions import RANDOM_MIDGAME_FENS  # noqa: E402

import xiangqi  # noqa: E402


def rate(stmt: str, names: dict[str, Any], number: int, per_call: int = 1) -> float:
    best = min(timeit.repeat(stmt, globals=names, number=number, repeat=5))
    return number * per_call / best


def main() -> None:
    pos = xiangqi.Position()
    mids = [xiangqi.Position(f) for f in RANDOM_MIDGAME_FENS]
    gen = xiangqi.generate_legal
    batch = xiangqi.legal_moves_batch
    move = xiangqi.Move.from_iccs("h2e2")
    boards = mids * 2000
    fens = list(RANDOM_MIDGAME_FENS) * 200
    cases: list[tuple[str, str, str, dict[str, Any], int, int]] = [
        ("generate_legal, start position", "calls/s", "g(p)", {"g": gen, "p": pos}, 200_000, 1),
        (
            "generate_legal, 50 middlegames",
            "calls/s",
            "for q in m: g(q)",
            {"g": gen, "m": mids},
            4_000,
            50,
        ),
        (
            "pos.legal_moves(), 50 middlegames",
            "calls/s",
            "for q in m: q.legal_moves()",
            {"m": mids},
            4_000,
            50,
        ),
        (
            "push/pop, start position",
            "pairs/s",
            "p.push(m); p.pop()",
            {"p": pos, "m": move},
            200_000,
            1,
        ),
        ("is_check", "calls/s", "p.is_check()", {"p": pos}, 500_000, 1),
        (
            "Position(fen)",
            "parses/s",
            "P(f)",
            {"P": xiangqi.Position, "f": xiangqi.START_FEN},
            50_000,
            1,
        ),
        ("fen()", "writes/s", "p.fen()", {"p": pos}, 50_000, 1),
        (
            "legal_moves_batch, 100k Positions",
            "positions/s",
            "b(x)",
            {"b": batch, "x": boards},
            3,
            100_000,
        ),
        (
            "legal_moves_batch, 10k FEN strings",
            "positions/s",
            "b(x)",
            {"b": batch, "x": fens},
            3,
            10_000,
        ),
    ]
    rows = [
        (name, unit, rate(stmt, names, number, per))
        for name, unit, stmt, names, number, per in cases
    ]
    for name, unit, value in rows:
        print(f"{name:38s} {value:>14,.0f} {unit}")


if __name__ == "__main__":
    main()
