"""perft through the public Cython API (the example engine's extension) beside the library's
own bulk perft, and the example engine's search speed beside Fairy-Stockfish's.

    python benchmarks/cython_api_perft.py [--rounds 5] [--seconds 2] [--fairy PATH]

Needs the example engine installed (pip install --no-build-isolation ./examples/engine) or
built in place in examples/engine (python setup.py build_ext --inplace there).

(b) For each fixed position of benchmarks/positions.py, at one depth, the example module's
perft(fen, depth) (a recursive walk over xq_generate, xq_make, xq_unmake and xq_count_legal
at the last ply) and xiangqi.perft(Position(fen), depth) (the core's own bulk perft) are
timed in turn, interleaved over --rounds rounds; each side's best time is kept and the
ratio library time / API time printed (1.0: the API costs nothing; the goal is >= 0.9).
Both counts are checked against the published ones first.

(c) The example engine's nodes per second (Searcher.search for --seconds, one thread)
beside Fairy-Stockfish's ("go movetime" as long with Threads 1, the nps of its last info
line) on the same positions. Reported, not a goal: the two search different trees.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.append(os.path.join(os.path.dirname(HERE), "examples", "engine"))  # if not installed

from positions import (  # noqa: E402
    ENDGAME_PERFT,
    EVASION_PERFT,
    MIDGAME_PERFT,
    START_FEN,
    START_PERFT,
)

import xiangqi  # noqa: E402

try:
    import xiangqi_example_engine as example  # noqa: E402
except ImportError as exc:
    raise SystemExit(
        f"the example engine is not built ({exc}): pip install --no-build-isolation "
        "./examples/engine, or python setup.py build_ext --inplace in examples/engine"
    ) from exc


def _depth(counts: tuple[int, ...]) -> int:
    """The smallest depth with at least a million leaves (timing noise stays small)."""
    return next((d for d, n in enumerate(counts, 1) if n >= 1_000_000), len(counts))


#: (name, FEN, depth, published leaf count) of each position timed.
CASES: list[tuple[str, str, int, int]] = [("start", START_FEN, 4, START_PERFT[3])] + [
    (c.name, c.fen, _depth(c.counts), c.counts[_depth(c.counts) - 1])
    for c in (*MIDGAME_PERFT, *ENDGAME_PERFT, *EVASION_PERFT)
]


def perft_ratios(rounds: int) -> None:
    print("(b) perft: the Cython API (example module) vs xiangqi.perft (bulk), best of")
    print(f"    {rounds} interleaved rounds")
    print(
        f"{'position':34} {'depth':>5} {'nodes':>10} {'API Mn/s':>9} {'lib Mn/s':>9} {'ratio':>6}"
    )
    product = 1.0
    for name, fen, depth, nodes in CASES:
        pos = xiangqi.Position(fen)
        assert example.perft(fen, depth) == nodes, name
        assert xiangqi.perft(pos, depth) == nodes, name
        best_api = best_lib = float("inf")
        for _ in range(rounds):
            t = time.perf_counter()
            example.perft(fen, depth)
            best_api = min(best_api, time.perf_counter() - t)
            t = time.perf_counter()
            xiangqi.perft(pos, depth)
            best_lib = min(best_lib, time.perf_counter() - t)
        ratio = best_lib / best_api
        product *= ratio
        print(
            f"{name:34} {depth:>5} {nodes:>10} {nodes / best_api / 1e6:>9.1f} "
            f"{nodes / best_lib / 1e6:>9.1f} {ratio:>6.2f}"
        )
    print(f"geometric mean ratio (library time / API time): {product ** (1 / len(CASES)):.2f}")


def fairy_nps(fairy: str, fen: str, seconds: float) -> tuple[int, int]:
    """(nodes, nps) of Fairy-Stockfish's go movetime on fen, one thread."""
    script = (
        "uci\nsetoption name UCI_Variant value xiangqi\nsetoption name Threads value 1\n"
        f"isready\nposition fen {fen}\ngo movetime {round(seconds * 1000)}\n"
    )
    proc = subprocess.Popen(
        [fairy], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(script)
    proc.stdin.flush()
    nodes = nps = 0
    for line in proc.stdout:
        words = line.split()
        if "nps" in words and "nodes" in words:
            nodes = int(words[words.index("nodes") + 1])
            nps = int(words[words.index("nps") + 1])
        if words[:1] == ["bestmove"]:
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return nodes, nps


def search_nps(fairy: str, seconds: float) -> None:
    print()
    print(f"(c) search speed, one thread, {seconds} s per position: the example engine")
    print("    beside Fairy-Stockfish, nodes per second")
    print(
        f"{'position':34} {'example nodes':>13} {'example kn/s':>12} "
        f"{'FSF nodes':>10} {'FSF kn/s':>9}"
    )
    for name, fen, _, _ in CASES[:5]:
        searcher = example.Searcher()
        searcher.set_position(xiangqi.Position(fen))
        t = time.perf_counter()
        searcher.search(64, seconds)
        elapsed = time.perf_counter() - t
        nodes, nps = fairy_nps(fairy, fen, seconds) if fairy else (0, 0)
        print(
            f"{name:34} {searcher.nodes:>13} {searcher.nodes / elapsed / 1e3:>12.0f} "
            f"{nodes:>10} {nps / 1e3:>9.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per position")
    parser.add_argument("--fairy", default="/usr/games/fairy-stockfish", help="'' to skip")
    args = parser.parse_args()
    print(f"xiangqi {xiangqi.__version__} from {os.path.dirname(xiangqi.__file__)}")
    print(f"example engine from {os.path.dirname(example.__file__)}")
    perft_ratios(args.rounds)
    search_nps(args.fairy, args.seconds)


if __name__ == "__main__":
    main()
