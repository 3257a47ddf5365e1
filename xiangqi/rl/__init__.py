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
from .vector import IllegalActionError, VectorEnv

if TYPE_CHECKING:
    from .gym_env import GymEnv, GymVectorEnv


def __getattr__(name: str) -> Any:
    # GymEnv and GymVectorEnv subclass Gymnasium's classes: import it only when asked.
    if name in ("GymEnv", "GymVectorEnv"):
        from . import gym_env

        return getattr(gym_env, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The Gymnasium id of GymEnv (and, through ``gymnasium.make_vec``, of GymVectorEnv).
ENV_ID = "xiangqi/Xiangqi-v0"


def register_envs() -> None:
    """Register ``xiangqi/Xiangqi-v0`` (ENV_ID) with Gymnasium; a second call does nothing.

    ``import xiangqi.rl`` calls it when Gymnasium is installed, so ``gymnasium.make(ENV_ID)``
    and ``gymnasium.make_vec(ENV_ID, vectorization_mode="vector_entry_point")`` work after
    it; it is also the package's ``gymnasium.envs`` entry point (read by Gymnasium 0.26 to
    0.29, which load such plugins on their own import). The environment classes are named
    by text, so registering imports neither them nor xiangqi.rl.gym_env.
    """
    # the registration module, not the package: Gymnasium 0.29 calls this during its own import
    from gymnasium.envs.registration import register, registry

    if ENV_ID not in registry:
        register(
            id=ENV_ID,
            entry_point="xiangqi.rl.gym_env:GymEnv",
            vector_entry_point="xiangqi.rl.gym_env:GymVectorEnv",
        )


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
