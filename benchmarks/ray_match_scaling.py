"""Games per second of ``xiangqi match --ray`` as workers are added, and its cost per game
against the local runner at the same concurrency (issue 32 item 5).

Usage (from the repository root, with the extension built in place; Ray and Fairy-Stockfish
installed)::

    python benchmarks/ray_match_scaling.py                      # 1..cpu_count workers
    python benchmarks/ray_match_scaling.py --workers 1 2 4 8 --games 64
    python benchmarks/ray_match_scaling.py --compare 2 --repeat 3   # Ray vs threads, 2 at once
    python benchmarks/ray_match_scaling.py --address auto       # a running cluster, as it is

Scaling: for each worker count W a fresh local Ray instance with W CPUs (no dashboard)
plays the same match; the table gives games, wall seconds, games per second and the
speed-up over the first row. On a real cluster (``--address``), the script measures the
cluster as it is and prints its CPU count: run it again after ``ray start --address=...``
on another machine to see the rate grow.

Compare: the same match played alternately by the local runner (``concurrency=C``, threads)
and on a local Ray instance with C CPUs, started once beforehand (Ray's start-up, a few
seconds, is a per-session cost and reported apart); the cost per game is the ratio of the
medians of the wall times.

The match: two Fairy-Stockfish processes, ``--tc`` (default ``nodes=3000``: the same work a
move whatever the machine's load), a ply cap, openings from the start position. Ray
advertises the machine's network address: on one machine, run the script inside a network
namespace with loopback only (as root: ``unshare -n sh -c 'ip link set lo up && python
benchmarks/ray_match_scaling.py'``), as the tests do.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xiangqi.match import run_match  # noqa: E402


def engine_path() -> str:
    found = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
    if not os.access(found, os.X_OK):
        raise SystemExit("Fairy-Stockfish not found (apt-get install fairy-stockfish)")
    return found


def play(args: argparse.Namespace, **where: object) -> tuple[float, int, int]:
    """Wall seconds, games and plies of one match."""
    fairy = engine_path()
    began = time.perf_counter()
    result = run_match(
        [f"name=a cmd={fairy}", f"name=b cmd={fairy}"],
        games=args.games,
        tc=args.tc,
        max_plies=args.max_plies,
        **where,  # type: ignore[arg-type]
    )
    seconds = time.perf_counter() - began
    return seconds, result.tally.games, sum(int(r["plies"]) for r in result.records)


def start_ray(cpus: int | None, address: str | None) -> float:
    import ray

    began = time.perf_counter()
    if address is not None:
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    return time.perf_counter() - began


def scaling(args: argparse.Namespace) -> None:
    import ray

    print(f"match: {args.games} games, tc {args.tc}, max plies {args.max_plies}")
    print(f"{'workers':>8} {'games':>6} {'seconds':>9} {'games/s':>8} {'speed-up':>9}")
    first = None
    counts = [None] if args.address else args.workers
    for count in counts:
        start_ray(count, args.address)
        try:
            workers = int(ray.cluster_resources().get("CPU", 0))
            seconds, games, _ = play(args, ray="auto")
        finally:
            ray.shutdown()
        rate = games / seconds
        first = first or rate
        print(f"{workers:>8} {games:>6} {seconds:>9.2f} {rate:>8.3f} {rate / first:>8.2f}x")


def compare(args: argparse.Namespace) -> None:
    import ray

    width = args.compare
    started = start_ray(width, None)
    print(f"match: {args.games} games, tc {args.tc}, max plies {args.max_plies}; {width} at once")
    print(f"Ray start-up (once a session, not counted below): {started:.2f} s")
    local: list[tuple[float, float]] = []  # (s/game, ms/ply) of each run
    remote: list[tuple[float, float]] = []
    try:
        play(args, ray="auto")  # warm: the workers' processes and imports
        for n in range(args.repeat):
            for runs, where in ((local, {"concurrency": width}), (remote, {"ray": "auto"})):
                seconds, games, plies = play(args, **where)
                runs.append((seconds / games, 1000 * seconds / plies))
            print(
                f"run {n + 1}: local {local[-1][0]:.4f} s/game {local[-1][1]:.2f} ms/ply   "
                f"ray {remote[-1][0]:.4f} s/game {remote[-1][1]:.2f} ms/ply"
            )
    finally:
        ray.shutdown()
    for i, unit in ((0, "s/game"), (1, "ms/ply")):
        a = statistics.median(run[i] for run in local)
        b = statistics.median(run[i] for run in remote)
        ratio = f"ray/local {b / a:.4f} ({b / a - 1:+.1%})"
        print(f"median {unit}: local {a:.4f}  ray {b:.4f}  {ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--tc", default="nodes=3000")
    parser.add_argument("--max-plies", type=int, default=120)
    parser.add_argument("--workers", type=int, nargs="+", help="worker counts (1..cpu_count)")
    parser.add_argument("--address", help="measure this running cluster instead")
    parser.add_argument("--compare", type=int, metavar="C", help="Ray vs threads, C at once")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, for --compare")
    args = parser.parse_args()
    args.workers = args.workers or list(range(1, (os.cpu_count() or 1) + 1))
    if args.compare:
        compare(args)
    else:
        scaling(args)


if __name__ == "__main__":
    main()
