"""Measure, then write the docs' performance page (docs/performance.md) in one run.

    nice python benchmarks/performance_page.py [--rounds N] [--out docs/performance.md]

Everything on the page comes from this one run, with the machine, the load and the command
printed on the page itself; nothing on it is typed by hand. Rates move with the machine's
load, so every comparison is a ratio of measurements *interleaved* in this one process:
each round times every library once on every workload, in turn, and the page gives the
median over the rounds of each round's ratio (and the median rates). A ratio above 1 means
ours is faster.

- perft of the start and the Chess Programming Wiki positions (ours alone: the peers have
  no perft): leaves per second, bulk counting at the last ply and every leaf made.
- The peers of benchmarks/compare_peers.py that can be imported (cchess,
  chinese_chess_lib, pyffish; the PyPI ``xiangqi`` package shares our import name and is
  measured only by that script, in a child process), through its adapters: perft(start, 2)
  through each library's Python API, legal moves of the start and 8 middlegames, push/pop
  of every legal move of those positions, FEN parsing.
- The game-end rulings: ``push + outcome() + pop`` against ``push + pop``.
- RL: ``VectorEnv(1024)`` steps with ``sample_legal`` against OpenSpiel's xiangqi with its
  observation tensor (benchmarks/rl_rates.py's loops), when OpenSpiel is installed.

The README quotes two of the figures between ``<!-- perf:NAME -->`` markers; this script
rewrites them there too (``--no-readme`` leaves the README alone), and tests/test_readme.py
checks that they are the page's.
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import platform  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(REPO), str(HERE)]

import compare_peers as cp  # noqa: E402
from positions import (  # noqa: E402
    ENDGAME_PERFT,
    MIDGAME_PERFT,
    RANDOM_MIDGAME_FENS,
    START_FEN,
    START_PERFT,
    PerftCase,
)

import xiangqi  # noqa: E402

CASES = [PerftCase("start", START_FEN, START_PERFT, 5, "CPW"), *MIDGAME_PERFT, *ENDGAME_PERFT]


def once(fn: Callable[[], object], ops: int, budget: float) -> float:
    """Operations per second of fn (ops operations a call): best of 3 batches of budget/3 s."""
    start = time.perf_counter()
    fn()
    first = max(time.perf_counter() - start, 1e-9)
    number = max(1, int(budget / 3 / first))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, time.perf_counter() - start)
    return ops * number / best


def machine() -> dict[str, str]:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=REPO,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        commit, dirty = "unknown", ""
    return {
        "cpu": f"{model}, {os.cpu_count()} logical CPUs",
        "os": f"{platform.system()} {platform.release()} {platform.machine()}",
        "python": f"CPython {platform.python_version()}",
        "commit": commit + (" (with uncommitted changes)" if dirty else ""),
        "xiangqi": xiangqi.__version__,
    }


def load() -> str:
    try:
        return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:
        return "n/a"


def perft_rows(rounds: int) -> list[list[str]]:
    rows = []
    for case in CASES:
        pos = xiangqi.Position(case.fen)
        depth = case.bench_depth
        expected = case.counts[depth - 1]
        bulk = full = 0.0
        for _ in range(rounds):  # interleaved: bulk, full, bulk, full ...
            for kind in (True, False):
                start = time.perf_counter()
                nodes = pos.perft(depth, bulk=kind)
                rate = nodes / (time.perf_counter() - start)
                if nodes != expected:
                    raise SystemExit(f"perft mismatch on {case.name}: {nodes} != {expected}")
                if kind:
                    bulk = max(bulk, rate)
                else:
                    full = max(full, rate)
        rows.append([case.name, str(depth), f"{expected:,}", mega(bulk), mega(full)])
    return rows


def mega(rate: float) -> str:
    return f"{rate / 1e6:.1f} M/s" if rate >= 1e6 else f"{rate / 1e3:.1f} k/s"


def num(rate: float) -> str:
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.1f}"


def peer_workloads(backend: cp.Backend) -> dict[str, tuple[Callable[[], object], int]]:
    """The compare_peers workloads as (call, operations per call), set up once."""
    mid = cp.MID_FENS
    start_state = backend.load(START_FEN)
    mid_states = [backend.load(fen) for fen in mid]
    mid_moves = [backend.legal(s) for s in mid_states]
    legal, push_pop = backend.legal, backend.push_pop_all
    if isinstance(backend, cp.Ours):
        perft: Callable[[], object] = lambda: backend.py_perft(start_state, 2)  # noqa: E731
    else:
        perft = lambda: backend.perft(start_state, 2)  # noqa: E731

    def pushes() -> None:
        for state, moves in zip(mid_states, mid_moves):
            push_pop(state, moves)

    return {
        "perft(start, 2) through the Python API (leaves/s)": (perft, START_PERFT[1]),
        "legal moves, start position (calls/s)": (lambda: legal(start_state), 1),
        f"legal moves, {len(mid)} middlegames (calls/s)": (
            lambda: [legal(s) for s in mid_states],
            len(mid),
        ),
        f"push/pop, every legal move of {len(mid)} middlegames (pairs/s)": (
            pushes,
            sum(len(m) for m in mid_moves),
        ),
        f"FEN parse, {len(cp.ALL_FENS)} FENs (parses/s)": (
            lambda: [backend.load(f) for f in cp.ALL_FENS],
            len(cp.ALL_FENS),
        ),
    }


def peers(rounds: int, budget: float) -> tuple[list[str], list[list[str]], list[str]]:
    ours = cp.Ours()
    backends: list[cp.Backend] = [ours]
    missing = []
    for name in cp.PEER_ORDER:
        if name not in cp.IN_PROCESS:
            missing.append(f"{name}: measured only by benchmarks/compare_peers.py (child process)")
            continue
        try:
            backends.append(cp.IN_PROCESS[name]())
        except ImportError:
            missing.append(f"{name}: not installed")
    for backend in backends[1:]:  # each peer's perft(1..2) must agree with the published counts
        state = backend.load(START_FEN)
        for depth in (1, 2):
            if backend.perft(state, depth) != START_PERFT[depth - 1]:
                raise SystemExit(f"{backend.name} perft({depth}) disagrees")
    work = {b.name: peer_workloads(b) for b in backends}
    names = list(work[ours.name])
    rates: dict[tuple[str, str], list[float]] = {}
    for _ in range(rounds):
        for name in names:
            for backend in backends:
                fn, ops = work[backend.name][name]
                rates.setdefault((backend.name, name), []).append(once(fn, ops, budget))
    header = ["workload", f"ours {ours.version()}"]
    for b in backends[1:]:
        header.append(f"{b.name} {b.version()}")
        header.append(f"ours / {b.name}")
    rows = []
    for name in names:
        mine = rates[(ours.name, name)]
        row = [name, num(statistics.median(mine))]
        for b in backends[1:]:
            theirs = rates[(b.name, name)]
            row.append(num(statistics.median(theirs)))
            ratio = statistics.median(m / t for m, t in zip(mine, theirs))
            row.append(f"{ratio:,.0f}x" if ratio >= 100 else f"{ratio:.1f}x")
        rows.append(row)
    return header, rows, missing


def game_end(rounds: int, budget: float) -> tuple[float, float, float]:
    positions = [xiangqi.Position(fen) for fen in RANDOM_MIDGAME_FENS]
    pairs = [(p, p.legal_moves()[0]) for p in positions]

    def push_pop() -> None:
        for pos, move in pairs:
            pos.push(move)
            pos.pop()

    def push_outcome_pop() -> None:
        for pos, move in pairs:
            pos.push(move)
            pos.outcome()
            pos.pop()

    plain, judged, ratios = [], [], []
    for _ in range(rounds):
        a = once(push_pop, len(pairs), budget)
        b = once(push_outcome_pop, len(pairs), budget)
        plain.append(a)
        judged.append(b)
        ratios.append(a / b)
    return statistics.median(plain), statistics.median(judged), statistics.median(ratios)


def rl(rounds: int) -> list[list[str]] | str:
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
        import rl_rates
    except ImportError as exc:
        return f"not measured: {exc}"
    ours, theirs, ratios = [], [], []
    for _ in range(rounds):
        steps, seconds = rl_rates.vector_env(1024, 100, True)
        a = steps / seconds
        steps, seconds = rl_rates.openspiel(20_000, True)
        b = steps / seconds
        ours.append(a)
        theirs.append(b)
        ratios.append(a / b)
    return [
        [
            "`VectorEnv(1024).step` + `sample_legal`",
            num(statistics.median(ours)),
            f"{statistics.median(ratios):.1f}x",
        ],
        ["OpenSpiel xiangqi + `observation_tensor`", num(statistics.median(theirs)), "1.0x"],
    ]


def table(header: list[str], rows: list[list[str]]) -> str:
    align = ["---"] + ["--:"] * (len(header) - 1)
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--budget", type=float, default=0.3, help="seconds per measurement")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "performance.md")
    parser.add_argument("--no-readme", action="store_true", help="leave README.md's figures")
    args = parser.parse_args(argv)
    command = "python benchmarks/performance_page.py" + "".join(
        f" {a}" for a in (argv if argv is not None else sys.argv[1:])
    )
    started = time.perf_counter()
    box, load_before = machine(), load()
    print("perft ...", flush=True)
    perft = perft_rows(args.rounds)
    print("peers ...", flush=True)
    header, peer_rows, missing = peers(args.rounds, args.budget)
    print("game end ...", flush=True)
    plain, judged, ratio = game_end(args.rounds, args.budget)
    print("rl ...", flush=True)
    rl_rows = rl(args.rounds)
    took = time.perf_counter() - started
    rl_text = (
        rl_rows
        if isinstance(rl_rows, str)
        else table(["loop, random legal moves from the start", "steps/s", "x OpenSpiel"], rl_rows)
    )
    missing_text = "".join(f"\n- {m}" for m in missing) or "\n- none"
    page = f"""# Performance

```{{note}}
This page is written by one run of `{command}` (its docstring says what each row times);
nothing here is typed by hand. Rerun it to refresh the page. Rates move with the machine's
load; the ratios, taken from measurements interleaved in the same process, move less.
```

| | |
| --- | --- |
| machine | {box["cpu"]}; {box["os"]} |
| Python | {box["python"]} |
| xiangqi | {box["xiangqi"]}, commit {box["commit"]} |
| load average | {load_before} before, {load()} after ({took:.0f} s) |
| command | `{command}` |

## perft

One thread, best of {args.rounds} interleaved runs of each; leaf counts checked against the
published ones (`benchmarks/positions.py`). "bulk" counts the moves at the last ply without
making them (`pos.perft(d)`); "every leaf" makes and unmakes each (`pos.perft(d, bulk=False)`).

{table(["position", "depth", "leaves", "bulk", "every leaf"], perft)}

## Against other Python xiangqi libraries

The adapters of `benchmarks/compare_peers.py` (its docstring says what each peer row times:
cchess has no undo, pyffish takes a FEN and a move list on every call). Median of
{args.rounds} rounds; in each round every library ran each workload once, in turn, and the
ratio is that round's. Each peer's perft(1) and perft(2) were checked first (44, 1,920).

{table(header, peer_rows)}

Not measured here:{missing_text}

## Game end

`push + outcome() + pop` against `push + pop` on {len(RANDOM_MIDGAME_FENS)} middlegames
(no repetition), interleaved, median of {args.rounds}: `push + pop` ran at {mega(plain)},
`push + outcome() + pop` at {mega(judged)}, so the rulings cost **{ratio:.2f}x** the moves'
time
(see [Game end](game-end.md)).

## Reinforcement learning

benchmarks/rl_rates.py's loops, interleaved, median of {args.rounds} (one thread, wall time):

{rl_text}
"""
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(page, encoding="utf-8")
    if not args.no_readme:
        readme = REPO / "README.md"
        legal = next(row for row in peer_rows if row[0].startswith("legal moves, 8"))
        figures = {}
        if "ours / pyffish" in header:
            figures["legal"] = legal[header.index("ours / pyffish")]
        if not isinstance(rl_rows, str):
            figures["rl"] = rl_rows[0][2]
        text = readme.read_text(encoding="utf-8")
        for name, value in figures.items():
            text = re.sub(
                rf"(<!-- perf:{name} -->).*?(<!-- /perf -->)", rf"\g<1>{value}\g<2>", text
            )
        readme.write_text(text, encoding="utf-8")
    print(page)
    print(f"wrote {args.out} in {took:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
