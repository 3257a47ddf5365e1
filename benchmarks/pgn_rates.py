"""Print the game-record readers' and writers' rates and memory in one run.

    python benchmarks/pgn_rates.py [--games 10000] [--plies 100000]

- read_games on a file of N games (the 100 master games of tests/data/games/wukong, repeated),
  streamed from disk in each notation: games/s, plies/s, and (ICCS) the peak of traced memory
  (tracemalloc) against the file size, which shows that one game at a time is held;
- read_game of one game of P plies written one move per line, and Game.add_move of P plies,
  and to_pgn of that game: plies/s;
- read_games on a megabyte of junk: MB/s and how many errors it recorded;
- the 150 Big5 files of tests/data/games/ccpd-big5 read from their bytes through
  xiangqi.open_games (encoding sniffed per file): files/s, games/s, plies/s;
- long lines: many games on one line, and one game with a comment after every move on one
  line, at two sizes: plies/s and the time ratio (linear gives about the size ratio, 4);
- SAN (as Fairy-Stockfish writes xiangqi): to_pgn("SAN") and reading it back, plies/s.
Times are the best of 3 runs (a single run for the big cases, as they take seconds).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xiangqi import Move, open_games  # noqa: E402
from xiangqi.pgn import Game, read_game, read_games  # noqa: E402

WUKONG = ROOT / "tests" / "data" / "games" / "wukong"


def timed(fn, repeat=1):  # type: ignore[no-untyped-def]
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def collection(games: int, notation: str, folder: Path, trace: bool) -> None:
    blocks = (WUKONG / f"wukong_{notation}.pgn").read_text(encoding="utf-8").strip().split("\n\n[")
    blocks = [blocks[0]] + ["[" + b for b in blocks[1:]]
    path = folder / f"big_{notation}.pgn"
    with path.open("w", encoding="utf-8") as out:
        for i in range(games):
            out.write(blocks[i % len(blocks)] + "\n\n")
    size = path.stat().st_size

    def run() -> tuple[int, int, int]:
        n = plies = errors = 0
        for game in read_games(path):
            n += 1
            plies += len(game.mainline_moves())
            errors += len(game.errors)
        return n, plies, errors

    seconds, (n, plies, errors) = timed(run)
    memory = ""
    if trace:  # a second run under tracemalloc (slow) for the peak of Python allocations
        tracemalloc.start()
        run()
        memory = f"; peak traced memory {tracemalloc.get_traced_memory()[1] / 1e6:.2f} MB"
        tracemalloc.stop()
    print(
        f"read_games {notation:8s} {n} games ({size / 1e6:.1f} MB, {errors} errors): "
        f"{n / seconds:8.0f} games/s {plies / seconds:9.0f} plies/s{memory}"
    )


def long_game(plies: int) -> None:
    cycle = [Move.from_iccs(m) for m in ("b0c2", "b9c7", "c2b0", "c7b9")]
    text = '[Event "long"]\n\n' + "\n".join(cycle[i % 4].iccs() for i in range(plies)) + "\n*\n"
    seconds, game = timed(lambda: read_game(text))
    assert game is not None and len(game.mainline_moves()) == plies
    print(f"read_game, {plies} plies one per line: {plies / seconds:9.0f} plies/s")

    def build() -> Game:
        g = Game()
        for i in range(plies):
            g.add_move(cycle[i % 4])
        return g

    seconds, game = timed(build)
    print(f"Game.add_move x {plies}:               {plies / seconds:9.0f} plies/s")
    for fmt in ("ICCS", "WXF", "Chinese"):
        seconds, text = timed(lambda: game.to_pgn(fmt))  # noqa: B023
        print(f"to_pgn({fmt!r}), {plies} plies:       {plies / seconds:9.0f} plies/s")


def junk() -> None:
    text = "".join(chr(32 + (i * 7919) % 95) for i in range(1 << 20))
    seconds, games = timed(lambda: list(read_games(text)), repeat=3)
    errors = sum(len(g.errors) for g in games)
    print(f"read_games, 1 MB of junk: {1 / seconds:.1f} MB/s, {len(games)} games, {errors} errors")


def big5() -> None:
    files = sorted((ROOT / "tests" / "data" / "games" / "ccpd-big5").glob("*.pgn"))

    def run() -> tuple[int, int, int]:
        n = plies = errors = 0
        for path in files:
            for game in open_games(path):
                n += 1
                plies += len(game.mainline_moves())
                errors += len(game.errors)
        return n, plies, errors

    seconds, (n, plies, errors) = timed(run, repeat=3)
    print(
        f"open_games, {len(files)} Big5 files ({n} games, {errors} errors): "
        f"{len(files) / seconds:6.0f} files/s {n / seconds:6.0f} games/s {plies / seconds:8.0f} "
        "plies/s"
    )


def long_lines() -> None:
    cycle = ["b0c2", "b9c7", "c2b0", "c7b9"]
    for label, make in (
        (
            "games on one line",
            lambda k: " ".join(f'[Event "g{i}"] 1. 炮二平五 h9g7 2. h0g2 1-0' for i in range(k)),
        ),
        (
            "comment after every move",
            lambda k: " ".join(f"{cycle[i % 4]} {{c{i}}}" for i in range(3 * k)) + " *",
        ),
    ):
        times, rates = [], []
        for k in (2_000, 8_000):
            text = make(k)
            data = text.encode("utf-8")
            seconds, games = timed(lambda: list(read_games(io.BytesIO(data))), repeat=3)  # noqa: B023
            plies = sum(len(g.mainline_moves()) for g in games)
            times.append(seconds)
            rates.append(f"{len(data) / 1e6:.2f} MB {plies / seconds:8.0f} plies/s")
        ratio = times[1] / times[0]
        print(f"one line, {label}: {'; '.join(rates)}; time ratio x4 size {ratio:.1f}")


def san_rates(plies: int) -> None:
    games = list(read_games(WUKONG / "wukong_iccs.pgn"))
    total = sum(len(g.mainline_moves()) for g in games)
    seconds, texts = timed(lambda: [g.to_pgn("SAN") for g in games])
    print(f"to_pgn('SAN'), {len(games)} master games:   {total / seconds:9.0f} plies/s")
    seconds, _ = timed(lambda: read_games("\n".join(texts)))
    print(f"read_games of SAN, {len(games)} master games: {total / seconds:9.0f} plies/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--plies", type=int, default=100_000)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, load {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        for notation in ("iccs", "wxf", "chinese"):
            collection(args.games, notation, Path(folder), trace=notation == "iccs")
    long_game(args.plies)
    junk()
    big5()
    long_lines()
    san_rates(args.plies)


if __name__ == "__main__":
    main()
