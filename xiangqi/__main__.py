"""Command line: ``python -m xiangqi perft DEPTH [--fen FEN] [--divide]``.

Also installed as the ``xiangqi`` console script.
"""

from __future__ import annotations

import argparse
import sys
import time

from .errors import XiangqiError
from .fen import START_FEN
from .position import Position


def _perft(args: argparse.Namespace) -> int:
    pos = Position(args.fen)
    print(f"FEN: {pos.fen()}")
    total_nodes = 0
    total_time = 0.0
    for depth in range(min(1, args.depth), args.depth + 1):  # depth 0 counts the root: 1
        start = time.perf_counter()
        nodes = pos.perft(depth)
        elapsed = time.perf_counter() - start
        total_nodes += nodes
        total_time += elapsed
        nps = nodes / elapsed if elapsed > 0 else float("inf")
        print(f"perft({depth}) = {nodes:>14,}   {elapsed:9.3f} s   {nps:>15,.0f} nodes/s")
    if args.divide and args.depth >= 1:
        print(f"\ndivide({args.depth}):")
        counts = pos.divide(args.depth)
        for move in sorted(counts, key=str):
            print(f"{move} {counts[move]}")
        print(f"moves: {len(counts)}  nodes: {sum(counts.values())}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    parser = argparse.ArgumentParser(prog="xiangqi", description="Xiangqi rules tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    perft = sub.add_parser("perft", help="count leaf nodes of the legal move tree")
    perft.add_argument("depth", type=int, help="depth in plies (>= 0)")
    perft.add_argument("--fen", default=START_FEN, help="start from this FEN (default: start)")
    perft.add_argument("--divide", action="store_true", help="also list counts per root move")
    args = parser.parse_args(argv)
    if args.depth < 0:
        parser.error("depth must be >= 0")
    try:
        return _perft(args)
    except XiangqiError as exc:
        print(f"xiangqi: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
