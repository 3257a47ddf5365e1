"""A pure-Python alpha-beta on Position: the search API against today's idioms.

    python benchmarks/python_search.py [--depth 4] [--rounds 7] [--tree PATH]

The short engine of docs/writing-an-engine.md (negamax with alpha-beta, a quiescence
search of captures, MVV-LVA ordering, a transposition table keyed by zobrist_hash(),
material counted incrementally) searches 4 fixed positions to the same depth twice:

* ``api``: ordered_moves_with_pieces() gives the moves in MVV-LVA order with the captured
  piece of each, in one core call per node (captures_only=True in the quiescence search);
* ``idioms``: legal_moves() and two piece_type_at() calls per move to order them, as a
  port of a pure-Python engine does today (quiescence filters legal_moves() the same way).

Both orders are the same (captures by 8 * value(victim) + 7 - value(mover), highest
first, stable; then the other moves in generation order), so both searches visit the
same nodes: the script checks that the node counts and scores are equal. Rounds are
interleaved (api, idioms, idioms, api, ...) and timed in CPU time (time.process_time);
it prints each variant's median and the ratio idioms / api. Also the cost of one
push+pop pair with a Move and with the core's (from, to) ints, and of copy().
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import timeit
from collections.abc import Callable

# --tree PATH: import xiangqi from another checkout (only the idioms variant runs on a
# tree without the search API, e.g. main before it), so "today" can be timed as it is.
_TREE = sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv else None
sys.path.insert(0, _TREE or os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xiangqi import Move, Position  # noqa: E402

#: The 4 positions: the start, a developed middlegame, a tactical middlegame, an endgame.
FENS = (
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
    "2bak4/4a4/4b1n2/p3C3p/2p1c1R2/6P2/P3P3P/4B4/4A4/2BAK4 w - - 0 1",
    "3k5/4a4/4b4/9/2n6/6R2/9/4B4/4A4/4K4 w - - 0 1",
)
#: Material by piece type (king, advisor, elephant, horse, rook, cannon, pawn).
VALUE = (0, 20, 20, 40, 90, 45, 10)
#: The same by piece code (0: no piece; code = 1 + type + 7 * color).
VALUE_OF_CODE = (0, *VALUE, *VALUE)
#: ordered_moves' MVV-LVA values by piece type, for the idioms variant's sort key.
ORDER = (7, 2, 2, 4, 6, 5, 1)
MATE = 10_000
EXACT, LOWER, UPPER = 0, 1, 2


def material(pos: Position) -> int:
    """Material of the side to move minus the other side's."""
    total = 0
    for piece in pos.piece_map().values():
        value = VALUE[piece.piece_type]
        total += value if piece.color == pos.turn else -value
    return total


def make_search_api(pos: Position) -> Callable[[int], tuple[int, int]]:
    """The search on the search API (docs/writing-an-engine.md's engine)."""
    tt: dict[int, tuple[int, int, int, Move | None]] = {}
    nodes = 0

    def quiesce(alpha: int, beta: int, stand: int) -> int:
        nonlocal nodes
        nodes += 1
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        moves, _, captured = pos.ordered_moves_with_pieces(captures_only=True)
        for move, victim in zip(moves, captured):
            pos.push(move)
            score = -quiesce(-beta, -alpha, -stand - VALUE_OF_CODE[victim])
            pos.pop()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def negamax(depth: int, alpha: int, beta: int, stand: int) -> int:
        nonlocal nodes
        if depth == 0:
            return quiesce(alpha, beta, stand)
        nodes += 1
        key = pos.zobrist_hash()
        entry = tt.get(key)
        best_move = None
        if entry is not None:
            if entry[0] >= depth:
                flag, score = entry[1], entry[2]
                if (
                    flag == EXACT
                    or (flag == LOWER and score >= beta)
                    or (flag == UPPER and score <= alpha)
                ):
                    return score
            best_move = entry[3]
        moves, _, captured = pos.ordered_moves_with_pieces()
        if not moves:
            return -MATE  # no legal move loses in xiangqi
        order = list(zip(moves, captured))
        if best_move is not None and best_move in moves:
            i = moves.index(best_move)
            order.insert(0, order.pop(i))
        start, best = alpha, -MATE - 1
        for move, victim in order:
            pos.push(move)
            score = -negamax(depth - 1, -beta, -alpha, -stand - VALUE_OF_CODE[victim])
            pos.pop()
            if score > best:
                best, best_move = score, move
            if score > alpha:
                alpha = score
            if alpha >= beta:
                break
        flag = UPPER if best <= start else LOWER if best >= beta else EXACT
        tt[key] = (depth, flag, best, best_move)
        return best

    def run(depth: int) -> tuple[int, int]:
        nonlocal nodes
        nodes = 0
        tt.clear()
        score = negamax(depth, -MATE - 1, MATE + 1, material(pos))
        return score, nodes

    return run


def make_search_idioms(pos: Position) -> Callable[[int], tuple[int, int]]:
    """The same search with today's idioms: legal_moves() and piece_type_at() per move."""
    tt: dict[int, tuple[int, int, int, Move | None]] = {}
    nodes = 0

    def key_of(move: Move) -> int:
        victim = pos.piece_type_at(move.to_square)
        if victim is None:
            return 0
        mover = pos.piece_type_at(move.from_square)
        assert mover is not None
        return 8 * ORDER[victim] + 7 - ORDER[mover]

    def captured_value(move: Move) -> int:
        victim = pos.piece_type_at(move.to_square)
        return 0 if victim is None else VALUE[victim]

    def quiesce(alpha: int, beta: int, stand: int) -> int:
        nonlocal nodes
        nodes += 1
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        captures = [m for m in pos.legal_moves() if pos.piece_type_at(m.to_square) is not None]
        captures.sort(key=key_of, reverse=True)
        for move in captures:
            gain = captured_value(move)
            pos.push(move)
            score = -quiesce(-beta, -alpha, -stand - gain)
            pos.pop()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def negamax(depth: int, alpha: int, beta: int, stand: int) -> int:
        nonlocal nodes
        if depth == 0:
            return quiesce(alpha, beta, stand)
        nodes += 1
        key = pos.zobrist_hash()
        entry = tt.get(key)
        best_move = None
        if entry is not None:
            if entry[0] >= depth:
                flag, score = entry[1], entry[2]
                if (
                    flag == EXACT
                    or (flag == LOWER and score >= beta)
                    or (flag == UPPER and score <= alpha)
                ):
                    return score
            best_move = entry[3]
        moves = pos.legal_moves()
        if not moves:
            return -MATE
        moves.sort(key=key_of, reverse=True)
        if best_move is not None and best_move in moves:
            moves.insert(0, moves.pop(moves.index(best_move)))
        start, best = alpha, -MATE - 1
        for move in moves:
            gain = captured_value(move)
            pos.push(move)
            score = -negamax(depth - 1, -beta, -alpha, -stand - gain)
            pos.pop()
            if score > best:
                best, best_move = score, move
            if score > alpha:
                alpha = score
            if alpha >= beta:
                break
        flag = UPPER if best <= start else LOWER if best >= beta else EXACT
        tt[key] = (depth, flag, best, best_move)
        return best

    def run(depth: int) -> tuple[int, int]:
        nonlocal nodes
        nodes = 0
        tt.clear()
        score = negamax(depth, -MATE - 1, MATE + 1, material(pos))
        return score, nodes

    return run


def timed(searches: list[Callable[[int], tuple[int, int]]], depth: int) -> tuple[float, list]:
    start = time.process_time()
    results = [search(depth) for search in searches]
    return time.process_time() - start, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--tree", help="a checkout to import xiangqi from (idioms only if old)")
    args = parser.parse_args()
    positions = [Position(fen) for fen in FENS]
    variants = {"idioms": [make_search_idioms(p) for p in positions]}
    if hasattr(Position, "ordered_moves_with_pieces"):
        variants["api"] = [make_search_api(p) for p in positions]
    else:
        nodes_times = [timed(variants["idioms"], args.depth) for _ in range(args.rounds)]
        found = nodes_times[0][1]
        seconds = statistics.median(t for t, _ in nodes_times)
        nodes = sum(n for _, n in found)
        print(
            f"{args.tree}: idioms only (no search API), depth {args.depth}, {nodes} nodes, "
            f"CPU time median {seconds:.3f} s, {nodes / seconds:.0f} nodes/s"
        )
        return
    times: dict[str, list[float]] = {name: [] for name in variants}
    results: dict[str, list] = {}
    for r in range(args.rounds):
        order = ("api", "idioms") if r % 2 == 0 else ("idioms", "api")
        for name in order:
            seconds, found = timed(variants[name], args.depth)
            times[name].append(seconds)
            results[name] = found
    if results["api"] != results["idioms"]:
        raise SystemExit(f"the searches differ: {results}")
    nodes = sum(n for _, n in results["api"])
    print(
        f"depth {args.depth}, {len(FENS)} positions, {nodes} nodes per run (equal), "
        f"{args.rounds} interleaved rounds, CPU time medians:"
    )
    api, idioms = (statistics.median(times[n]) for n in ("api", "idioms"))
    for name, seconds in (("api", api), ("idioms", idioms)):
        print(f"  {name:7s} {seconds:7.3f} s  {nodes / seconds:9.0f} nodes/s")
    print(f"  idioms / api = {idioms / api:.2f}x")
    pos = Position(FENS[1])
    move = pos.legal_moves()[5]
    board = pos._board
    frm, to = move.from_square, move.to_square
    loops = {
        "pos.push(move); pos.pop()": lambda: (pos.push(move), pos.pop()),
        "core push(from, to); pop()": lambda: (board.push(frm, to), board.pop()),
        "pos.copy()": pos.copy,
        "pos.piece_type_at(sq)": lambda: pos.piece_type_at(to),
    }
    print("per call, CPU time, best of 5 x 20,000 (includes a lambda call):")
    for label, fn in loops.items():
        timer = timeit.Timer(fn, timer=time.process_time)
        best = min(timer.repeat(number=20000, repeat=5)) / 20000
        print(f"  {label:28s} {best * 1e9:6.0f} ns")


if __name__ == "__main__":
    main()
