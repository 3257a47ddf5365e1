"""Print the rates of the binary and web game-record readers and writers (XQF, CBR, CBL,
CBF, DhtmlXQ) in games/s and plies/s.

    python benchmarks/record_rates.py [--repeat 3]

The corpus is the 100 master games of tests/data/games/wukong (read from PGN once), written
into each format: XQF and DhtmlXQ by the library's writers, CBR, CBL and CBF by the
test-only encoder of tests/cbr_writer.py. Each reader then reads the 100 games from bytes in
memory (CBL: one library of 100 games); plies counts every move of every line. Times are
the best of --repeat runs of process time on one core.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from cbr_writer import encode_cbf, encode_cbl, encode_cbr  # noqa: E402

from xiangqi.pgn import Game, GameNode, read_games  # noqa: E402
from xiangqi.records.cbr import read_cbf, read_cbl, read_cbr  # noqa: E402
from xiangqi.records.dhtml import read_dhtml, write_dhtml  # noqa: E402
from xiangqi.records.xqf import read_xqf, write_xqf  # noqa: E402

WUKONG = ROOT / "tests" / "data" / "games" / "wukong" / "wukong_iccs.pgn"


def plies(game: Game) -> int:
    count = 0
    stack: list[GameNode] = [game]
    while stack:
        node = stack.pop()
        count += len(node.variations)
        stack.extend(node.variations)
    return count


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def row(name: str, seconds: float, games: int, moves: int) -> None:
    print(f"| {name:<28} | {games / seconds:>10,.0f} | {moves / seconds:>12,.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    games = list(read_games(WUKONG))
    moves = sum(plies(g) for g in games)
    n = len(games)
    print(f"{n} games, {moves} plies (tests/data/games/wukong)\n")
    print("| operation                    |    games/s |      plies/s |")
    print("|------------------------------|-----------:|-------------:|")

    def reading(name: str, files: list[bytes], read: Callable[[bytes], Iterable[Game]]) -> None:
        got = [g for data in files for g in read(data)]
        assert len(got) == n and sum(plies(g) for g in got) == moves, name
        assert not any(g.errors for g in got), name
        seconds = best(lambda: [g for data in files for g in read(data)], args.repeat)
        row(name, seconds, n, moves)

    xqf = [write_xqf(g) for g in games]
    reading("read_xqf", xqf, lambda d: [read_xqf(d)])
    row("write_xqf", best(lambda: [write_xqf(g) for g in games], args.repeat), n, moves)
    dhtml = [write_dhtml(g).encode("utf-8") for g in games]
    reading("read_dhtml", dhtml, lambda d: [read_dhtml(d)])
    row("write_dhtml", best(lambda: [write_dhtml(g) for g in games], args.repeat), n, moves)
    cbr = [encode_cbr(g) for g in games]
    reading("read_cbr", cbr, lambda d: [read_cbr(d)])
    reading("read_cbl (one library)", [encode_cbl(cbr)], read_cbl)
    reading("read_cbf", [encode_cbf(g) for g in games], lambda d: [read_cbf(d)])


if __name__ == "__main__":
    main()
