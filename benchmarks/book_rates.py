"""Print opening-book rates: probes of ElephantEye's BOOK.DAT and of a built SQLite book (calls
of ``find_all`` a second, each one consumed), set against legal-move generation on the same
positions, and the time to build a book from the shipped master games against reading them
alone.

    python benchmarks/book_rates.py [--repeat 5]

Positions: every position of the first 20 plies of the 151 master games of
tests/data/games/wukong and wukong_more, and the mirror image of each (so the engine's mirror
lookup is exercised), 6,040 in all; most are in BOOK.DAT (directly or mirrored), some are
not. A probe is ``for entry in reader.find_all(pos): pass``. The baseline is
``pos.legal_moves()`` (a new list of Move objects) on the same positions. The master games
for building are tests/data/games (wukong, wukong_more, xqdb, ccpd) and the 120
``master-*.pgn`` of the CCPD Big5 files (/work/shared/data/ccpd-big5 where present, else
tests/data/games/ccpd-big5): reading alone is ``xiangqi.open_games`` plus
``game.mainline_moves()`` for every game; building is ``xiangqi.book.build`` over the same
files (which reads them too). Times are the best of --repeat runs of process time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import xiangqi  # noqa: E402
from xiangqi.book import build, open_reader  # noqa: E402

GAMES = ROOT / "tests" / "data" / "games"
BOOK_DAT = ROOT / "tests" / "data" / "books" / "BOOK.DAT"
SHARED_BIG5 = Path("/work/shared/data/ccpd-big5")


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def positions() -> list[xiangqi.Position]:
    out = []
    for path in (
        GAMES / "wukong" / "wukong_iccs.pgn",
        GAMES / "wukong_more" / "wukong_more_iccs.pgn",
    ):
        for game in xiangqi.open_games(path):
            pos = game.board()
            for move in game.mainline_moves()[:20]:
                out.append(pos.copy(stack=False))
                pos.push(move)
    return out + [p.flip_horizontal() for p in out]


def master_files() -> list[Path]:
    big5 = SHARED_BIG5 if SHARED_BIG5.is_dir() else GAMES / "ccpd-big5"
    return [
        GAMES / "wukong" / "wukong_iccs.pgn",
        GAMES / "wukong_more" / "wukong_more_iccs.pgn",
        GAMES / "xqdb" / "xqdb_uci.pgn",
        GAMES / "ccpd" / "ccpd_chinese.pgn",
        *sorted(big5.glob("master-*.pgn")),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sample = positions()
    start = [xiangqi.Position()] * 1000

    def probe_all(reader: xiangqi.book.Reader, where: list[xiangqi.Position]) -> Callable[[], None]:
        def run() -> None:
            find_all = reader.find_all
            for pos in where:
                for _entry in find_all(pos):
                    pass

        return run

    def generate(where: list[xiangqi.Position]) -> Callable[[], None]:
        def run() -> None:
            for pos in where:
                pos.legal_moves()

        return run

    files = master_files()

    def read_alone() -> None:
        for path in files:
            for game in xiangqi.open_games(path):
                game.mainline_moves()

    def cold(path: Path) -> Callable[[], None]:
        # A fresh reader each run: every probe is the first of its position (no reuse of the
        # entries a reader keeps per position once checked); opening is not timed.
        def run() -> None:
            with open_reader(path) as reader:
                find_all = reader.find_all
                started = time.process_time()
                for pos in sample:
                    for _entry in find_all(pos):
                        pass
                cold_times.append(time.process_time() - started)

        return run

    cold_times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "masters.xqbook"

        def build_book() -> None:
            build(files, target)

        build_time = best(build_book, args.repeat)
        read_time = best(read_alone, args.repeat)
        summary = build(files, target)
        with open_reader(BOOK_DAT) as dat, open_reader(target) as own:
            hits = sum(1 for pos in sample if dat.get(pos) is not None)
            for _ in range(args.repeat):
                cold(BOOK_DAT)()
            dat_cold = min(cold_times)
            cold_times.clear()
            for _ in range(args.repeat):
                cold(target)()
            own_cold = min(cold_times)
            rows = [
                ("BOOK.DAT find_all, master positions, fresh reader", dat_cold, len(sample)),
                (
                    "BOOK.DAT find_all, master positions",
                    best(probe_all(dat, sample), args.repeat),
                    len(sample),
                ),
                (
                    "BOOK.DAT find_all, start (16 moves)",
                    best(probe_all(dat, start), args.repeat),
                    len(start),
                ),
                ("SQLite book find_all, master positions, fresh reader", own_cold, len(sample)),
                (
                    "SQLite book find_all, master positions",
                    best(probe_all(own, sample), args.repeat),
                    len(sample),
                ),
                (
                    "legal_moves(), master positions",
                    best(generate(sample), args.repeat),
                    len(sample),
                ),
                ("legal_moves(), start", best(generate(start), args.repeat), len(start)),
            ]
    print(f"{len(sample)} positions, {hits} with BOOK.DAT moves")
    print("| what | calls/s | us/call |")
    print("|---|---:|---:|")
    for name, seconds, calls in rows:
        print(f"| {name} | {calls / seconds:,.0f} | {1e6 * seconds / calls:.2f} |")
    print(
        f"\nbuild from {len(files)} files: {summary.games} games, {summary.plies} plies -> "
        f"{summary.positions} positions, {summary.entries} moves"
    )
    print(f"| reading alone | {read_time:.3f} s |")
    print(f"| building the book (reading included) | {build_time:.3f} s |")
    print(f"| building / reading | {build_time / read_time:.2f} |")


if __name__ == "__main__":
    main()
