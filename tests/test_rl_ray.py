"""The Ray self-play example on a local Ray instance (marked ray: run in a loopback-only
network namespace, as .ci/run does; Ray takes seconds to start).

Checked against xiangqi's Python layer: every stored action is legal in its stored
mask and in a Position replay of its game, the stored planes are the replayed
position's, and each game's recorded result is what the replay's final position says.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from xiangqi import Color, Position, rl

pytestmark = pytest.mark.ray

EXAMPLE = Path(__file__).parent.parent / "examples" / "ray_selfplay.py"
ENDGAME = "3akab2/9/9/9/9/9/2N6/9/3R5/5K3 w - - 0 1"  # short games: mates and draws


def load_example():
    spec = importlib.util.spec_from_file_location("ray_selfplay", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ray_selfplay_shards(tmp_path):
    # Ray imported here, not at collection (the default run deselects this file)
    ray = pytest.importorskip("ray")
    example = load_example()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        paths = example.run(
            str(tmp_path), actors=2, num_envs=8, steps=300, max_plies=150, seed=3, fen=ENDGAME
        )
    finally:
        ray.shutdown()
    assert sorted(Path(p).name for p in paths) == ["selfplay-0.npz", "selfplay-1.npz"]
    outcomes = set()
    for path in paths:
        with np.load(path) as shard:
            data = {key: shard[key] for key in shard.files}
        s = len(data["actions"])
        assert s > 0
        assert data["planes"].shape == (s, 16, 10, 9) and data["planes"].dtype == np.uint8
        assert data["masks"].shape == (s, 2086) and data["masks"].dtype == np.bool_
        for key in ("game", "ply", "result"):
            assert data[key].shape == (s,)
        g = len(data["games_id"])
        assert data["games_plies"].shape == data["games_winner"].shape == (g,)
        assert data["masks"][np.arange(s), data["actions"]].all()
        assert int(data["games_plies"].sum()) == s
        for game, plies, winner in zip(data["games_id"], data["games_plies"], data["games_winner"]):
            rows = np.flatnonzero(data["game"] == game)
            rows = rows[np.argsort(data["ply"][rows])]
            assert data["ply"][rows].tolist() == list(range(plies))
            pos = Position(ENDGAME)
            for row in rows:
                assert np.array_equal(data["planes"][row][:14], rl.encode(pos)[:14])
                move = rl.action_to_move(int(data["actions"][row]), pos.turn)
                mover = int(pos.turn)
                pos.push(move)  # raises if the stored action was illegal
                want = 0 if winner < 0 else (1 if winner == mover else -1)
                assert data["result"][row] == want
            outcome = pos.outcome()  # the game-end rulings, judged on the replay
            if winner == -2:
                assert outcome is None and plies == 150
            else:
                assert outcome is not None
                assert outcome.winner == (None if winner == -1 else Color(winner))
            outcomes.add(int(winner) if winner < 0 else 1)
    assert {1, -1} <= outcomes  # both wins and draws were recorded
