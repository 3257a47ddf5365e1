"""Cost of the game-end rules (Position.outcome()) beside the moves themselves.

    python benchmarks/game_end.py

1. ``push + outcome() + pop`` against ``push + pop`` on the 50 fixed middlegames of
   benchmarks/positions.py (one legal move each; none of them repeats a position), best
   of 5 timeit repeats, as a ratio (the target is at most 1.3x).
2. Seeded random games played to the end by the rules (random legal moves, outcome()
   after every ply, stopping at the first ruling), in plies per second, beside the very
   same games played without outcome() (the same seeded choices, stopping at the same
   ply). Also how the games ended.
"""

from __future__ import annotations

import os
import random
import sys
import time
import timeit
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from positions import RANDOM_MIDGAME_FENS  # noqa: E402

import xiangqi  # noqa: E402


def pairs() -> list[tuple[xiangqi.Position, xiangqi.Move]]:
    out = []
    for fen in RANDOM_MIDGAME_FENS:
        pos = xiangqi.Position(fen)
        out.append((pos, sorted(pos.legal_moves())[0]))
    return out


def push_pop_ratio(number: int = 2000, rounds: int = 9) -> tuple[float, float, float]:
    """Best rates of the two loops, timed alternately (the machine is shared: load moves)."""
    work = pairs()
    base = "for p, m in w:\n    p.push(m)\n    p.pop()"
    ruled = "for p, m in w:\n    p.push(m)\n    p.outcome()\n    p.pop()"
    t_base = t_ruled = float("inf")
    for _ in range(rounds):
        t_base = min(t_base, timeit.timeit(base, globals={"w": work}, number=number))
        t_ruled = min(t_ruled, timeit.timeit(ruled, globals={"w": work}, number=number))
    calls = number * len(work)
    return calls / t_base, calls / t_ruled, t_ruled / t_base


def random_games(games: int, seed: int, rule: bool, lengths: list[int] | None = None):
    """Play games; with rule=True stop at the first outcome(), else after lengths[i] plies."""
    rng = random.Random(seed)
    plies = 0
    played: list[int] = []
    endings: Counter[str] = Counter()
    start = time.perf_counter()
    for i in range(games):
        pos = xiangqi.Position()
        n = 0
        limit = lengths[i] if lengths is not None else 10**9
        while n < limit:
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
            n += 1
            if rule:
                outcome = pos.outcome()
                if outcome is not None:
                    endings[outcome.termination.name] += 1
                    break
        plies += n
        played.append(n)
    elapsed = time.perf_counter() - start
    return plies / elapsed, played, endings


def main() -> None:
    base, ruled, ratio = push_pop_ratio()
    print(f"push + pop            {base / 1e6:6.3f} M pairs/s")
    print(f"push + outcome + pop  {ruled / 1e6:6.3f} M triples/s   ratio {ratio:.2f}x")
    games, seed = 300, 7
    best_rule = best_plain = 0.0
    for _ in range(5):
        rate_rule, lengths, endings = random_games(games, seed, True)
        rate_plain, _, _ = random_games(games, seed, False, lengths)
        best_rule, best_plain = max(best_rule, rate_rule), max(best_plain, rate_plain)
    print(
        f"random games to the end ({games} games, {sum(lengths)} plies): "
        f"{best_rule / 1e3:.0f} k plies/s with outcome() every ply, "
        f"{best_plain / 1e3:.0f} k plies/s without ({best_plain / best_rule:.2f}x)"
    )
    print("endings:", dict(endings.most_common()))


if __name__ == "__main__":
    main()
