"""Gymnasium environments: ``GymVectorEnv`` (a ``gymnasium.vector.VectorEnv`` over the
compiled VectorEnv) and ``GymEnv`` (a ``gymnasium.Env``: one game, on a Position).

Both play both sides of a game (self-play). Conventions, shared with VectorEnv:

- **Observation**: uint8 planes (16, 10, 9), channels first (PyTorch's NCHW once
  batched), from the view of the side to move in the observed position (Black's ranks
  flipped; see xiangqi.rl.planes). After a step that is the opponent of the side that
  just moved.
- **Action**: an index into the 2,086 actions of xiangqi.rl.actions, in the mover's view.
- **Legal actions**: ``info["action_mask"]``, bool (2086,) per game, True where legal
  (Gymnasium's own convention for masks, as in Taxi-v3, and the form masked-PPO loops
  read from a vector env's ``infos``). ``GymEnv.action_masks()`` gives the same for
  sb3-contrib's MaskablePPO.
- **Reward**: for the side that made the action: +1 it won (the opponent has no legal
  move, or broke the perpetual check/chase rule), -1 it lost (it checked or chased
  perpetually), 0 otherwise. A zero-sum self-play learner negates values across plies
  (or multiplies the reward by the mover's sign for a fixed perspective).
- **End**: the game-end rulings of ``Position.outcome(rules=rules)`` terminate (``rules``:
  "asian", the default, or "chinese"; xiangqi.Rules); ``max_plies`` truncates.

``GymVectorEnv`` declares ``AutoresetMode.SAME_STEP``: a finished game restarts within
the step that ended it (the compiled core does this), its returned observation and
``infos["action_mask"]`` are the new game's, and ``infos["final_obs"]`` /
``infos["final_info"]`` (with masks ``_final_obs`` / ``_final_info``) hold the finished
game's last observation and ``{"action_mask": ...}``, as Gymnasium's SyncVectorEnv in that
mode writes them. NEXT_STEP would need a step that leaves some games alone, which the core
does not have; SAME_STEP also gives the loop CleanRL's scripts were written for.

``import xiangqi.rl`` registers ``xiangqi/Xiangqi-v0`` with Gymnasium (``ENV_ID``, by
``xiangqi.rl.register_envs``), so ``gymnasium.make("xiangqi/Xiangqi-v0")`` makes a GymEnv and
``gymnasium.make_vec(..., num_envs=n, vectorization_mode="vector_entry_point")`` a
GymVectorEnv; keyword arguments go to their constructors.

Needs the ``rl`` extra (Gymnasium).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .._checks import check_int
from ..fen import START_FEN
from ..pieces import Color
from ..position import Position
from ..rules import Rules, check_rules
from ._env_args import check_env_args
from .actions import NUM_ACTIONS, action_to_move
from .planes import BASE_PLANES, encode_batch, legal_mask_batch
from .registration import ENV_ID, register_envs
from .vector import VectorEnv

Planes = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]


def _observation_space() -> spaces.Box:
    return spaces.Box(0, 255, shape=(BASE_PLANES, 10, 9), dtype=np.uint8)


def _mover_reward(position: Position, mover: Color, rules: Rules) -> tuple[bool, float]:
    """(game over?, reward for mover) after mover's move, by Position.outcome(rules=)."""
    outcome = position.outcome(rules=rules)
    if outcome is None:
        return False, 0.0
    if outcome.winner is None:
        return True, 0.0
    return True, 1.0 if outcome.winner == mover else -1.0


class GymVectorEnv(gymnasium.vector.VectorEnv):
    """num_envs games stepped together in C, as a ``gymnasium.vector.VectorEnv``.

    See the module docstring for the observation, action, reward and autoreset
    conventions. ``copy=True`` (Gymnasium's default) returns arrays the caller may
    keep; ``copy=False`` returns the observations and masks as read-only views of the
    compiled env's buffers, overwritten by the next step (the fastest path).

    ``reset(seed=s)`` seeds ``np_random`` and the streams of ``sample_legal()``; the
    games themselves are deterministic. An illegal action raises IllegalActionError (a
    ValueError naming the env index) and changes no game: a masked policy never plays
    one.

    The SAME_STEP ``final_obs`` and final ``action_mask`` of a finished game are copies
    of the rows the compiled core wrote for its last position in the step that ended it,
    before restarting it (VectorEnv's ``final_observations`` and ``final_masks``).
    ``rules`` ("asian", the default, or "chinese"; xiangqi.Rules) is the rule set the
    games are judged by, as in VectorEnv.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        max_plies: int = 500,
        fen: str = START_FEN,
        copy: bool = True,
        rules: Rules | str = Rules.ASIAN,
    ) -> None:
        self.vector_env = VectorEnv(num_envs, max_plies=max_plies, fen=fen, rules=rules)
        self.rules = self.vector_env.rules
        self.num_envs = num_envs
        self.max_plies = max_plies
        self.copy = bool(copy)
        self.single_observation_space = _observation_space()
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _infos(self, masks: Mask) -> dict[str, Any]:
        return {
            "action_mask": masks.copy() if self.copy else masks,
            "_action_mask": np.ones(self.num_envs, dtype=np.bool_),
        }

    def reset(
        self,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Planes, dict[str, Any]]:
        """Every game back to the start; returns (observations, infos).

        ``seed`` (an int) seeds ``np_random`` and the ``sample_legal()`` streams.
        No options are known; passing one raises ValueError.
        """
        if seed is not None:
            seed = check_int("seed", seed)  # one seed for all games
        if options:
            raise ValueError(f"GymVectorEnv.reset() takes no options, got {options!r}")
        super().reset(seed=seed)
        obs, masks = self.vector_env.reset(seed=seed)
        return (obs.copy() if self.copy else obs), self._infos(masks)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Planes, npt.NDArray[np.float32], Mask, Mask, dict[str, Any]]:
        """Play one action per game; returns (observations, rewards, terminations,
        truncations, infos); see the class docstring."""
        vector = self.vector_env
        obs, masks, rewards, terminations, truncations = vector.step(actions)
        infos = self._infos(masks)
        done = terminations | truncations
        if done.any():
            envs = np.flatnonzero(done)
            planes = vector.final_observations[envs]  # fancy indexing copies the rows
            final_obs = np.full(self.num_envs, None, dtype=object)
            for k, env in enumerate(envs.tolist()):
                final_obs[env] = planes[k]
            final_mask = np.zeros((self.num_envs, NUM_ACTIONS), dtype=np.bool_)
            final_mask[envs] = vector.final_masks[envs]
            infos["final_obs"], infos["_final_obs"] = final_obs, done
            infos["final_info"] = {"action_mask": final_mask, "_action_mask": done.copy()}
            infos["_final_info"] = done.copy()
        if self.copy:
            obs = obs.copy()
        return obs, rewards.copy(), terminations.copy(), truncations.copy(), infos

    def sample_legal(self, out: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game (VectorEnv.sample_legal)."""
        return self.vector_env.sample_legal(out)

    def fen(self, index: int) -> str:
        """FEN of game index (VectorEnv.fen)."""
        return self.vector_env.fen(index)


class GymEnv(gymnasium.Env[npt.NDArray[Any], np.int64]):
    """One game on a Position, as a ``gymnasium.Env`` (self-play: one agent plays both
    sides); the conventions of the module docstring.

    An illegal action (an index outside ``info["action_mask"]``) ends the game with -1
    for the side that played it and ``info["illegal_action"] = True``, as PettingZoo
    Classic's TerminateIllegalWrapper does, so that checkers sampling the whole action
    space run. ``render_mode="ansi"`` returns the Unicode board. This is the slow,
    simple reference; GymVectorEnv is the fast one. ``rules`` as in GymVectorEnv.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        render_mode: str | None = None,
        max_plies: int = 500,
        fen: str = START_FEN,
        rules: Rules | str = Rules.ASIAN,
    ) -> None:
        self.rules = check_rules(rules)
        self.max_plies = check_env_args(render_mode, self.metadata["render_modes"], max_plies)
        self.render_mode = render_mode
        self.fen = fen
        self.position = Position(fen)
        self.observation_space = _observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    def _observe(self) -> tuple[Planes, dict[str, Any]]:
        planes = encode_batch([self.position])[0]
        return planes, {"action_mask": self.action_masks()}

    def action_masks(self) -> Mask:
        """The legal actions of the current position, bool (2086,)."""
        mask: Mask = legal_mask_batch([self.position])[0]
        return mask

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Planes, dict[str, Any]]:
        super().reset(seed=seed)
        if options:
            raise ValueError(f"GymEnv.reset() takes no options, got {options!r}")
        self.position = Position(self.fen)
        return self._observe()

    def step(self, action: Any) -> tuple[Planes, SupportsFloat, bool, bool, dict[str, Any]]:
        mover = self.position.turn
        move = action_to_move(int(action), mover)
        if not self.position.is_legal(move):
            planes, info = self._observe()
            info["illegal_action"] = True
            return planes, -1.0, True, False, info
        self.position.push(move)
        over, reward = _mover_reward(self.position, mover, self.rules)
        truncated = not over and len(self.position.move_stack) >= self.max_plies
        planes, info = self._observe()
        return planes, reward, over, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (try 'ansi')")
            return None
        return self.position.unicode()


register_envs()  # importing this module directly registers the id too

__all__ = ["ENV_ID", "GymEnv", "GymVectorEnv"]
