"""Self-play training data on Ray: actors each drive a xiangqi.rl.VectorEnv and write
.npz shards.

Run on this machine (Ray starts a local instance):

    python examples/ray_selfplay.py --actors 2 --envs 256 --steps 400 --out shards/

Run against an existing Ray cluster (``ray start --head`` on one node, ``ray start
--address=HEAD:6379`` on the others): pass ``--address auto`` on a cluster node, or
``--address ray://HEAD:10001`` through Ray Client; the script calls
``ray.init(address=...)`` and the actors spread over the cluster's CPUs. Every node
needs xiangqi-rules[rl] installed, and ``--out`` must be a path the actors can write
(a shared file system, or collect the files from each node afterwards).

A policy is any callable ``policy(observations, masks, rng) -> actions`` taking the
arrays of VectorEnv (uint8 (N, 16, 10, 9), bool (N, 2086)) and a NumPy Generator,
returning N legal action indices; ``--policy module:function`` names one. Without
it the actors play uniformly random legal moves (VectorEnv.sample_legal, in C).

Each actor writes one shard, ``selfplay-<actor>.npz``, holding every move of every
game it finished (games still running when it stops are dropped):

- ``planes`` uint8 (S, 16, 10, 9), ``masks`` bool (S, 2086): what the mover saw
- ``actions`` int16 (S,): the action played (xiangqi.rl.actions, mover's view)
- ``game`` int64 (S,), ``ply`` int16 (S,): which game, and the move's ply in it
- ``result`` int8 (S,): the game's result for the mover, +1 won, -1 lost, 0 otherwise
  (``--fen`` starts every game from another position; plies count from there)
- ``games_id`` int64 (G,), ``games_plies`` int16 (G,), ``games_winner`` int8 (G,):
  per game, its length and 0 Red won, 1 Black won, -1 drawn, -2 truncated
"""

from __future__ import annotations

import argparse
import importlib
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import ray

from xiangqi import START_FEN, Position
from xiangqi.rl import VectorEnv

Policy = Callable[[np.ndarray, np.ndarray, np.random.Generator], np.ndarray]

DRAW, TRUNCATED = -1, -2


def load_policy(name: str | None) -> Policy | None:
    """The callable named "module:function", or None for random play."""
    if not name:
        return None
    module, _, attr = name.partition(":")
    policy: Policy = getattr(importlib.import_module(module), attr)
    return policy


@ray.remote
class SelfPlayActor:
    """One VectorEnv stepped by one policy; run() plays and writes a shard."""

    def __init__(
        self, actor: int, num_envs: int, max_plies: int, seed: int, policy: str | None, fen: str
    ) -> None:
        self.actor = actor
        self.env = VectorEnv(num_envs, max_plies=max_plies, seed=seed, fen=fen)
        self.first_mover = Position(fen).turn
        self.rng = np.random.default_rng(seed)
        self.policy = load_policy(policy)

    def run(self, steps: int, out_dir: str) -> str:
        env, n = self.env, self.env.num_envs
        obs, masks = env.reset()
        planes = np.empty((steps, n, 16, 10, 9), dtype=np.uint8)
        all_masks = np.empty((steps, n, 2086), dtype=np.bool_)
        actions = np.empty((steps, n), dtype=np.int16)
        games = np.empty((steps, n), dtype=np.int64)
        plies = np.empty((steps, n), dtype=np.int16)
        # Game ids are unique across actors: actor number in the high bits.
        game = np.arange(n, dtype=np.int64) + (self.actor << 40)
        next_game = int(game[-1]) + 1
        ply = np.zeros(n, dtype=np.int16)
        winner: dict[int, int] = {}
        length: dict[int, int] = {}
        for t in range(steps):
            if self.policy is None:
                chosen = env.sample_legal()
            else:
                chosen = np.asarray(self.policy(obs, masks, self.rng), dtype=np.int64)
            planes[t], all_masks[t], actions[t] = obs, masks, chosen
            games[t], plies[t] = game, ply
            obs, masks, rewards, terms, truncs = env.step(chosen)
            for i in np.flatnonzero(terms | truncs):
                g = int(game[i])
                mover = (int(ply[i]) + self.first_mover) % 2
                if truncs[i]:
                    winner[g] = TRUNCATED
                elif rewards[i] > 0:
                    winner[g] = mover
                elif rewards[i] < 0:  # the mover checked or chased perpetually
                    winner[g] = 1 - mover
                else:
                    winner[g] = DRAW
                length[g] = int(ply[i]) + 1
                game[i] = next_game
                next_game += 1
                ply[i] = -1
            ply += 1
        flat_games = games.reshape(-1)
        keep = np.isin(flat_games, np.fromiter(winner, dtype=np.int64, count=len(winner)))
        won = np.array([winner.get(int(g), DRAW) for g in flat_games[keep]], dtype=np.int8)
        movers = (plies.reshape(-1)[keep] + int(self.first_mover)) % 2
        result = np.where(won < 0, 0, np.where(won == movers, 1, -1)).astype(np.int8)
        ids = np.array(sorted(winner), dtype=np.int64)
        path = os.path.join(out_dir, f"selfplay-{self.actor}.npz")
        np.savez_compressed(
            path,
            planes=planes.reshape(-1, 16, 10, 9)[keep],
            masks=all_masks.reshape(-1, 2086)[keep],
            actions=actions.reshape(-1)[keep],
            game=flat_games[keep],
            ply=plies.reshape(-1)[keep],
            result=result,
            games_id=ids,
            games_plies=np.array([length[int(g)] for g in ids], dtype=np.int16),
            games_winner=np.array([winner[int(g)] for g in ids], dtype=np.int8),
        )
        return path


def run(
    out_dir: str,
    actors: int = 2,
    num_envs: int = 64,
    steps: int = 200,
    max_plies: int = 500,
    seed: int = 0,
    policy: str | None = None,
    fen: str = START_FEN,
) -> list[str]:
    """Start the actors on the Ray instance already initialised, wait, return shard paths."""
    os.makedirs(out_dir, exist_ok=True)
    handles = [
        SelfPlayActor.remote(k, num_envs, max_plies, seed + k, policy, fen)  # type: ignore[attr-defined]
        for k in range(actors)
    ]
    paths: list[str] = ray.get([h.run.remote(steps, os.path.abspath(out_dir)) for h in handles])
    return paths


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", help="Ray cluster address (e.g. auto); default: local")
    parser.add_argument("--num-cpus", type=int, help="CPUs for a local Ray instance")
    parser.add_argument("--actors", type=int, default=2)
    parser.add_argument("--envs", type=int, default=64, help="games per actor")
    parser.add_argument("--steps", type=int, default=200, help="VectorEnv steps per actor")
    parser.add_argument("--max-plies", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", help="module:function; default random legal moves")
    parser.add_argument("--fen", default=START_FEN, help="position every game starts from")
    parser.add_argument("--out", default="shards")
    args = parser.parse_args(argv)
    init: dict[str, Any] = {"address": args.address}
    if args.address is None and args.num_cpus:
        init["num_cpus"] = args.num_cpus
    ray.init(**init)
    try:
        paths = run(
            args.out,
            args.actors,
            args.envs,
            args.steps,
            args.max_plies,
            args.seed,
            args.policy,
            args.fen,
        )
    finally:
        ray.shutdown()
    for path in paths:
        with np.load(path) as shard:
            print(f"{path}: {len(shard['actions'])} moves of {len(shard['games_id'])} games")


if __name__ == "__main__":
    main()
