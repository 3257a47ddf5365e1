"""RL throughput side by side in one run: VectorEnv, our PettingZoo env, OpenSpiel.

    python benchmarks/rl_rates.py            # needs the rl extra and `pip install open-spiel`

Every loop plays uniformly random legal moves from the start position and restarts
finished games. Rates are environment steps (plies) per second on one thread, best
of 3 runs, measured twice: per second of this process's CPU time (what one core
does, steady on a shared machine) and per second of wall time (what it got here).
Each is also given as a multiple of OpenSpiel's loop with its observation tensor and
legal actions (the loop an RL user writes against pyspiel), by CPU time.

- VectorEnv, 1,024 games: step() (planes and masks written) plus sample_legal(),
  and step() alone with the sampler's time left out.
- xiangqi.rl.env(): env.last() (observation planes and int8 mask), a random choice
  among the legal actions, env.step(); through PettingZoo Classic's three wrappers
  (as chess_v6 is used) and on raw_env() without them.
- OpenSpiel xiangqi: observation_tensor(), legal_actions(), random.choice,
  apply_action(); and the same without the observation tensor.
- encode_batch and legal_mask_batch over 4,096 positions from random games.
"""

from __future__ import annotations

import os

# NumPy's OpenBLAS threads spin after import and would be billed to this process.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from functools import partial  # noqa: E402

import numpy as np  # noqa: E402

from xiangqi import Position, rl  # noqa: E402

Rate = tuple[float, float]  # (per CPU second, per wall second)


def best(run: Callable[[], tuple[int, float]], repeat: int = 3) -> Rate:
    """Highest rates (items per CPU second, per wall second) of run(), which returns
    (items, the wall seconds of the part to time); CPU time is scaled by the same share."""
    cpu_rates, wall_rates = [], []
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        items, seconds = run()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        wall_rates.append(items / seconds)
        cpu_rates.append(items / (cpu * seconds / wall))
    return max(cpu_rates), max(wall_rates)


def vector_env(num_envs: int, steps: int, sampler_timed: bool) -> tuple[int, float]:
    env = rl.VectorEnv(num_envs, seed=1)
    env.reset()
    actions = np.empty(num_envs, dtype=np.int64)
    for _ in range(20):  # leave the start position behind
        env.sample_legal(actions)
        env.step(actions)
    stepping = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        env.sample_legal(actions)
        t = time.perf_counter()
        env.step(actions)
        stepping += time.perf_counter() - t
    total = time.perf_counter() - start
    return num_envs * steps, total if sampler_timed else stepping


def pettingzoo_env(plies: int, wrapped: bool) -> tuple[int, float]:
    env = rl.env() if wrapped else rl.raw_env()
    env.reset()
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(plies):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return plies, time.perf_counter() - start


def openspiel(plies: int, observe: bool) -> tuple[int, float]:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("xiangqi")
    state = game.new_initial_state()
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(plies):
        if state.is_terminal():
            state = game.new_initial_state()
        if observe:
            np.asarray(state.observation_tensor())
        state.apply_action(rng.choice(state.legal_actions()))
    return plies, time.perf_counter() - start


def random_positions(count: int) -> list[Position]:
    rng = random.Random(7)
    out: list[Position] = []
    pos = Position()
    while len(out) < count:
        moves = pos.legal_moves()
        if not moves or len(pos.move_stack) >= 200:
            pos = Position()
            continue
        pos.push(rng.choice(moves))
        out.append(pos.copy())
    return out


def batch(fn: Callable[[list[Position]], object], positions: list[Position]) -> tuple[int, float]:
    start = time.perf_counter()
    for _ in range(10):
        fn(positions)
    return 10 * len(positions), time.perf_counter() - start


def main() -> None:
    rows: list[tuple[str, Rate]] = []
    try:
        spiel_obs = best(lambda: openspiel(20_000, observe=True))
        spiel_bare = best(lambda: openspiel(50_000, observe=False))
    except ImportError:
        spiel_obs = spiel_bare = (float("nan"), float("nan"))
        print("open-spiel is not installed: pip install open-spiel")
    rows.append(("VectorEnv(1024).step + sample_legal", best(lambda: vector_env(1024, 300, True))))
    rows.append(("VectorEnv(1024).step alone", best(lambda: vector_env(1024, 300, False))))
    rows.append(("VectorEnv(64).step + sample_legal", best(lambda: vector_env(64, 3000, True))))
    rows.append(
        ("xiangqi.rl.env() (PettingZoo wrappers)", best(lambda: pettingzoo_env(20_000, True)))
    )
    rows.append(("xiangqi.rl.raw_env() (no wrappers)", best(lambda: pettingzoo_env(20_000, False))))
    rows.append(("OpenSpiel xiangqi + observation_tensor", spiel_obs))
    rows.append(("OpenSpiel xiangqi, no observation", spiel_bare))
    head = f"{'steps/s per CPU second':>14} {'per wall second':>16} {'x OpenSpiel':>12}"
    print(f"{'environment steps per second':42} {head}")
    for name, (cpu, wall) in rows:
        print(f"{name:42} {cpu:22,.0f} {wall:16,.0f} {cpu / spiel_obs[0]:12.1f}")
    positions = random_positions(4096)
    print(f"\n{'batch calls, 4,096 random positions':42} {'positions/s per CPU s':>22}")

    def with_history(items: list[Position]) -> object:
        return rl.encode_batch(items, history=7)

    calls: list[tuple[str, Callable[[list[Position]], object]]] = [
        ("encode_batch", rl.encode_batch),
        ("encode_batch(history=7)", with_history),
        ("legal_mask_batch", rl.legal_mask_batch),
    ]
    for name, fn in calls:
        cpu, wall = best(partial(batch, fn, positions))
        print(f"{name:42} {cpu:22,.0f} {wall:16,.0f}")


if __name__ == "__main__":
    main()
