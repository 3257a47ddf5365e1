"""Gymnasium API throughput beside the compiled VectorEnv, in one run.

    python benchmarks/gym_rates.py            # needs the rl extra

Every loop plays uniformly random legal moves (sample_legal, or the mask for GymEnv) from
the start position with 500-ply games; rates are environment steps per second of this
process's CPU time and of wall time, best of 3 (see rl_rates.py), and the ratio to the
bare VectorEnv loop by CPU time.

- VectorEnv(1024): step() + sample_legal(), the zero-copy fast path.
- GymVectorEnv(1024, copy=False): the same games through Gymnasium's vector API
  (infos with the mask, final_obs/final_info of finished games), views not copies.
- GymVectorEnv(1024): Gymnasium's default, fresh arrays every step.
- GymEnv: one game on a Position through gymnasium.Env.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import time  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
from rl_rates import best  # noqa: E402

from xiangqi import rl  # noqa: E402


def vector_loop(env: Any, steps: int) -> tuple[int, float]:
    env.reset(seed=1)
    actions = np.empty(env.num_envs, dtype=np.int64)
    for _ in range(20):  # leave the start position behind
        env.sample_legal(actions)
        env.step(actions)
    start = time.perf_counter()
    for _ in range(steps):
        env.sample_legal(actions)
        env.step(actions)
    return env.num_envs * steps, time.perf_counter() - start


def single_loop(plies: int) -> tuple[int, float]:
    env = rl.GymEnv()
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    for _ in range(plies):
        _, _, terminated, truncated, info = env.step(
            rng.choice(np.flatnonzero(info["action_mask"]))
        )
        if terminated or truncated:
            _, info = env.reset()
    return plies, time.perf_counter() - start


def main() -> None:
    rows = [
        ("VectorEnv(1024).step + sample_legal", best(lambda: vector_loop(rl.VectorEnv(1024), 300))),
        (
            "GymVectorEnv(1024, copy=False)",
            best(lambda: vector_loop(rl.GymVectorEnv(1024, copy=False), 300)),
        ),
        ("GymVectorEnv(1024) (copy=True)", best(lambda: vector_loop(rl.GymVectorEnv(1024), 300))),
        ("GymEnv (one game, Position)", best(lambda: single_loop(10_000))),
    ]
    base = rows[0][1][0]
    print(
        f"{'environment steps per second':38} {'per CPU s':>12} {'per wall s':>12} {'x Vector':>9}"
    )
    for name, (cpu, wall) in rows:
        print(f"{name:38} {cpu:12,.0f} {wall:12,.0f} {cpu / base:9.2f}")


if __name__ == "__main__":
    main()
