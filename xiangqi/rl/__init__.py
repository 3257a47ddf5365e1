"""Reinforcement learning: a fixed action space, observation planes, a PettingZoo
environment and a vectorised environment (NumPy required; the ``rl`` extra adds
PettingZoo and Gymnasium).

- ``xiangqi.rl.actions``: the 2,086 actions, ``move_to_action``, ``action_to_move``,
  ``mirror_action``; Black's moves are seen with the ranks flipped.
- ``xiangqi.rl.planes``: ``encode``/``encode_batch`` (uint8 planes (C, 10, 9), layout
  documented there), ``legal_mask``/``legal_mask_batch`` (bool (N, 2086)) and
  ``chess_v6_layout`` (the PettingZoo env's bool channels-last layout).
- ``xiangqi.rl.vector``: ``VectorEnv``, many games stepped in C.
- ``xiangqi.rl.GymVectorEnv``, ``xiangqi.rl.GymEnv``: Gymnasium's vector and single
  environment APIs (xiangqi.rl.gym_env; import Gymnasium on first use).
- ``xiangqi.rl.env()``: the PettingZoo AEC environment (imports PettingZoo lazily).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import ConcurrentUseError
from .actions import ACTIONS, NUM_ACTIONS, action_to_move, mirror_action, move_to_action
from .planes import (
    chess_v6_layout,
    encode,
    encode_batch,
    legal_mask,
    legal_mask_batch,
    num_planes,
)
from .registration import ENV_ID, register_envs
from .vector import IllegalActionError, VectorEnv

if TYPE_CHECKING:
    from .gym_env import GymEnv, GymVectorEnv


def __getattr__(name: str) -> Any:
    # GymEnv and GymVectorEnv subclass Gymnasium's classes: import it only when asked.
    if name in ("GymEnv", "GymVectorEnv"):
        from . import gym_env

        return getattr(gym_env, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment, wrapped as PettingZoo Classic does (see xiangqi.rl.aec)."""
    from .aec import env as make

    return make(**kwargs)


def raw_env(**kwargs: Any) -> Any:
    """The unwrapped PettingZoo AEC environment (see xiangqi.rl.aec)."""
    from .aec import raw_env as make

    return make(**kwargs)


try:  # Gymnasium is optional (the rl extra installs it)
    register_envs()
except ImportError:
    pass

__all__ = [
    "ACTIONS",
    "ENV_ID",
    "ConcurrentUseError",
    "NUM_ACTIONS",
    "GymEnv",
    "GymVectorEnv",
    "IllegalActionError",
    "VectorEnv",
    "action_to_move",
    "chess_v6_layout",
    "encode",
    "encode_batch",
    "env",
    "legal_mask",
    "legal_mask_batch",
    "mirror_action",
    "move_to_action",
    "num_planes",
    "raw_env",
    "register_envs",
]
