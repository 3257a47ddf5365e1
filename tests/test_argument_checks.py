"""One rule for int arguments everywhere (xiangqi/_checks.py): a NumPy integer (anything
with ``__index__`` that is not a bool) is an int; ``True`` is never a count. The refusal
is a TypeError in one form: ``<name> must be an int, got bool: True``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import xiangqi
from xiangqi.rl import VectorEnv, action_to_move, encode_batch, mirror_action


def _vector_fen(index: Any) -> object:
    return VectorEnv(2).fen(index)


def _vector_seed(seed: Any) -> object:
    env = VectorEnv(1)
    env.seed(seed)
    return env


def _vector_reset(seed: Any) -> object:
    return VectorEnv(1).reset(seed=seed)


# (the argument's name, a call taking the value, a value the call accepts)
CALLS: list[tuple[str, Callable[[Any], object], int]] = [
    ("num_envs", lambda n: VectorEnv(n), 2),
    ("max_plies", lambda n: VectorEnv(1, max_plies=n), 10),
    ("seed", lambda n: VectorEnv(1, seed=n), 7),
    ("seed", _vector_seed, 7),
    ("seed", _vector_reset, 7),
    ("index", _vector_fen, 1),
    ("history", lambda n: encode_batch([xiangqi.Position()], history=n), 2),
    ("action", lambda n: action_to_move(n, xiangqi.RED), 5),
    ("action", mirror_action, 5),
]


@pytest.mark.parametrize(("name", "call", "value"), CALLS)
def test_numpy_integer_is_an_int(name: str, call: Callable[[Any], object], value: int) -> None:
    assert type(call(np.int64(value))) is type(call(value))


@pytest.mark.parametrize(("name", "call", "value"), CALLS)
def test_bool_is_not_a_count(name: str, call: Callable[[Any], object], value: int) -> None:
    with pytest.raises(TypeError, match=f"^{re.escape(name)} must be an int, got bool: True$"):
        call(True)


def test_vector_env_keeps_plain_ints() -> None:
    env = VectorEnv(np.int64(3), max_plies=np.int32(20))
    assert type(env.num_envs) is int and env.num_envs == 3
    assert type(env.max_plies) is int and env.max_plies == 20
    assert env.fen(np.int16(2)) == env.fen(2)


def test_numpy_action_gives_the_same_move() -> None:
    for action in (0, 1, 2085):
        assert action_to_move(np.int64(action), xiangqi.BLACK) == action_to_move(
            action, xiangqi.BLACK
        )


def test_out_of_range_in_the_one_form() -> None:
    with pytest.raises(ValueError, match=r"^num_envs must be in 1\.\.16777216, got 0$"):
        VectorEnv(np.int64(0))
    with pytest.raises(ValueError, match=r"^action must be in 0\.\.2085, got 2086$"):
        action_to_move(np.int64(2086), xiangqi.RED)


def test_one_game_envs() -> None:
    gym_env = pytest.importorskip("xiangqi.rl.gym_env")
    env = gym_env.GymEnv(max_plies=np.int64(30))
    assert type(env.max_plies) is int and env.max_plies == 30
    with pytest.raises(TypeError, match=r"^max_plies must be an int, got bool: True$"):
        gym_env.GymEnv(max_plies=True)
    vec = gym_env.GymVectorEnv(num_envs=2)
    vec.reset(seed=np.int64(5))
    with pytest.raises(TypeError, match=r"^seed must be an int, got bool: True$"):
        vec.reset(seed=True)
    aec = pytest.importorskip("xiangqi.rl.aec")
    raw = aec.raw_env(max_plies=np.int64(40), history=np.int64(1))
    assert (raw.max_plies, raw.history) == (40, 1) and type(raw.history) is int
    with pytest.raises(TypeError, match=r"^history must be an int, got bool: True$"):
        aec.raw_env(history=True)
