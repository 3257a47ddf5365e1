"""Reinforcement learning: a fixed action space, observation planes, a PettingZoo
environment and a vectorised environment (NumPy required; the ``rl`` extra adds
PettingZoo and Gymnasium).

- ``xiangqi.rl.actions``: the 2,086 actions, ``move_to_action``, ``action_to_move``,
  ``mirror_action``; Black's moves are seen with the ranks flipped.
- ``xiangqi.rl.planes``: ``encode``/``encode_batch`` (uint8 planes (C, 10, 9), layout
  documented there) and ``legal_mask``/``legal_mask_batch`` (bool (N, 2086)).
- ``xiangqi.rl.vector``: ``VectorEnv``, many games stepped in C.
- ``xiangqi.rl.env()``: the PettingZoo AEC environment (imports PettingZoo lazily).
"""

from __future__ import annotations

from typing import Any

from ..errors import ConcurrentUseError
from .actions import ACTIONS, NUM_ACTIONS, action_to_move, mirror_action, move_to_action
from .planes import encode, encode_batch, legal_mask, legal_mask_batch, num_planes
from .vector import IllegalActionError, VectorEnv


def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment, wrapped as PettingZoo Classic does (see xiangqi.rl.aec)."""
    from .aec import env as make

    return make(**kwargs)


def raw_env(**kwargs: Any) -> Any:
    """The unwrapped PettingZoo AEC environment (see xiangqi.rl.aec)."""
    from .aec import raw_env as make

    return make(**kwargs)


__all__ = [
    "ACTIONS",
    "ConcurrentUseError",
    "NUM_ACTIONS",
    "IllegalActionError",
    "VectorEnv",
    "action_to_move",
    "encode",
    "encode_batch",
    "env",
    "legal_mask",
    "legal_mask_batch",
    "mirror_action",
    "move_to_action",
    "num_planes",
    "raw_env",
]
