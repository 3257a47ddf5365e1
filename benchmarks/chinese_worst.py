"""Search for slow Chinese rulings: the cost of one ``outcome(rules="chinese")`` on a cycle.

``python benchmarks/chinese_worst.py [SEED [CYCLES]]`` plays random middlegames (random
moves from the start, a few captures allowed), then builds a cycle there: ``K`` random
quiet moves of both sides, each undone in reverse order, played twice so that its start
stands for the third time (a span of ``4K`` plies). Two cycles in three let one side prefer
checks and attacks on enemy pieces (its moves are then rarely idle, so the judge cannot
stop at the first idle move of each side). Each ruling is timed (best of three) and the
slowest are printed with their position and moves, to be rerun by hand. The issue's bound
is 50 ms for the worst ruling a search finds.
"""

from __future__ import annotations

import random
import sys
import time

from chinese_classes import at_third_occurrence

from xiangqi import Move, Position, Rules


def attacks_something(pos: Position, move: Move) -> bool:
    """After the move, does it check, or does the moved piece attack an enemy piece?"""
    mover = pos.turn
    pos.push(move)
    try:
        if pos.is_check():
            return True
        return any(
            (piece := pos.piece_at(sq)) is not None and piece.color != mover
            for sq in pos.attacks(move.to_square)
        )
    finally:
        pos.pop()


def build_cycle(rng: random.Random, k: int, aggressive: int | None) -> tuple[str, list[str]] | None:
    pos = Position()
    for _ in range(rng.randrange(10, 50)):
        legal = list(pos.legal_moves)
        if not legal or pos.outcome() is not None:
            return None
        pos.push(rng.choice(legal))
    if pos.outcome() is not None:
        return None
    start = pos.fen()
    done: list[str] = []
    for _ply in range(2 * k):
        legal = [m for m in pos.legal_moves if not pos.is_capture(m)]
        if aggressive is not None and int(pos.turn) == aggressive:
            keen = [m for m in legal if attacks_something(pos, m)]
            legal = keen or legal
        rng.shuffle(legal)
        for move in legal:
            pos.push(move)
            if pos.outcome() is None and not pos.is_repetition(2):
                done.append(move.iccs())
                break
            pos.pop()
        else:
            return None
    # Undo, Red first: each side moves its pieces back, last moved first (when legal).
    backs = []
    for i in range(k - 1, -1, -1):
        backs += [done[2 * i][2:] + done[2 * i][:2], done[2 * i + 1][2:] + done[2 * i + 1][:2]]
    for back in backs:
        if not any(m.iccs() == back for m in pos.legal_moves):
            return None
        pos.push_iccs(back)
    if pos.fen().split()[:2] != start.split()[:2]:
        return None
    return start, done + backs


def ruling_time(fen: str, cycle: list[str]) -> float | None:
    pos = at_third_occurrence(fen, cycle)
    if pos is None:
        return None
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        pos.outcome(rules=Rules.CHINESE)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 31
    cycles = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(seed)
    found: list[tuple[float, str, list[str]]] = []
    tries = 0
    while len(found) < cycles and tries < cycles * 20:
        tries += 1
        k = rng.choice((2, 4, 8, 16, 30))
        aggressive = rng.choice((None, 0, 1))
        built = build_cycle(rng, k, aggressive)
        if built is None:
            continue
        took = ruling_time(*built)
        if took is not None:
            found.append((took, *built))
    found.sort(key=lambda item: -item[0])
    print(f"{len(found)} cycles ruled; slowest rulings (ms):")
    for took, fen, cycle in found[:3]:
        print(f"  {took * 1000:7.2f}  {fen}  {' '.join(cycle)}")


if __name__ == "__main__":
    main()
