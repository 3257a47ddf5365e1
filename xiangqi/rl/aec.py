"""The PettingZoo AEC environment, following PettingZoo Classic's chess_v6.

Agents ``player_0`` (Red) and ``player_1`` (Black). ``observe(agent)`` returns
``{"observation": bool (10, 9, 16 + 14 * history), "action_mask": int8 (2086,)}``,
chess_v6's dtypes and layout (channels last, ``Box(0, 1)``), from that agent's view;
the mask is all zeros when it is not the agent's turn. The channels are the planes of
xiangqi.rl.planes as ``chess_v6_layout`` turns them to bool (channel 14: the position
occurred before; channel 15: the no-capture clock as chess_v6's one-hot move clock).
``channels_first=True`` observes the uint8 (16 + 14 * history, 10, 9) planes themselves
instead (the layout of encode_batch, VectorEnv and GymVectorEnv, PyTorch's).
See xiangqi.rl.planes and xiangqi.rl.actions. Rewards are +1/-1 when a game
is won and lost, 0 for a draw, judged by ``Position.outcome(rules=rules)`` (the game-end
rulings of xiangqi.rules: perpetual check and chase lose, repetition and the move rule
draw; ``rules`` is "asian", the default, or "chinese", xiangqi.Rules); the game is
truncated at ``max_plies`` plies.
``render_mode="ansi"`` returns the Unicode board. ``fen`` sets the position every
game starts from (the start position by default; Black to move gives player_1 the
first turn). ``history=k`` adds k earlier positions to the planes.

Needs the ``rl`` extra (PettingZoo, Gymnasium).
"""

from __future__ import annotations

import operator
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.agent_selector import AgentSelector

from .. import _core
from ..errors import IllegalMoveError
from ..fen import START_FEN
from ..pieces import Color
from ..position import Position
from ..rules import Rules, check_rules
from ._env_args import check_env_args, check_history
from .actions import NUM_ACTIONS, action_to_move
from .planes import chess_v6_one, num_planes


def judge(position: Position, rules: Rules = Rules.ASIAN) -> tuple[bool, Color | None]:
    """(game over?, winner or None) of position: the one place this env judges the end.

    ``Position.outcome(rules=rules)`` (see xiangqi.rules): no legal move loses
    (checkmate and stalemate alike), insufficient material draws, the third occurrence
    of a position rules on the repetition (perpetual check or chase loses, otherwise a
    draw; the Chinese rules also rule on mate threats and mixed cycles), 120 plies
    without a capture draw.
    """
    outcome = position.outcome(rules=rules)
    if outcome is None:
        return False, None
    return True, outcome.winner


def env(**kwargs: Any) -> AECEnv:
    """raw_env wrapped as PettingZoo Classic wraps chess: an illegal action ends the game
    with -1 for the agent that played it, out-of-range actions assert, order is enforced."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


class raw_env(AECEnv, EzPickle):  # noqa: N801  (PettingZoo's name)
    """Xiangqi for two agents; see the module docstring."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi"],
        "name": "xiangqi_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        max_plies: int = 500,
        history: int = 0,
        fen: str = START_FEN,
        channels_first: bool = False,
        rules: Rules | str = Rules.ASIAN,
    ) -> None:
        EzPickle.__init__(self, render_mode, max_plies, history, fen, channels_first, rules)
        super().__init__()
        self.rules = check_rules(rules)
        self.max_plies = check_env_args(render_mode, self.metadata["render_modes"], max_plies)
        self.render_mode = render_mode
        self.history = check_history(history)
        self.fen = fen
        self.channels_first = bool(channels_first)
        self.position = Position(fen)
        self._plies = 0
        self._over = False
        self.agents = ["player_0", "player_1"]
        self._agent_index = {"player_0": 0, "player_1": 1}
        self._planes = num_planes(history)
        self.possible_agents = self.agents[:]
        planes = num_planes(history)
        observation: spaces.Box[Any] = (
            spaces.Box(0, 255, shape=(planes, 10, 9), dtype=np.uint8)
            if self.channels_first
            else spaces.Box(0, 1, shape=(10, 9, planes), dtype=np.bool_)
        )
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": observation,
                    "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.agents
        }
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        # The batch calls of xiangqi.rl.planes on one board, without their checks: this
        # runs once or twice per ply, and everything passed is built here.
        view = self._agent_index[agent]
        position = self.position
        planes = np.empty((self._planes, 10, 9), dtype=np.uint8)
        mask = np.empty(NUM_ACTIONS, dtype=np.int8)
        _core.observe_one(
            position._board,
            position.halfmove_clock,
            self.history,
            view,
            planes.reshape(-1),
            None if self._over else mask.view(np.uint8),
        )
        if self._over:
            mask[:] = 0
        if self.channels_first:
            return {"observation": planes, "action_mask": mask}
        return {"observation": chess_v6_one(planes), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.position = Position(self.fen)
        self._plies = 0
        self._over = False
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()
        if self.position.turn == Color.BLACK:
            self.agent_selection = self._agent_selector.next()
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = action_to_move(action, self.position.turn)  # TypeError for a float or str
        try:
            self.position.push(move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(
                f"action {operator.index(action)} is not legal for {agent}: {exc}"
            ) from None
        self._plies += 1
        over, winner = judge(self.position, self.rules)
        if over:
            self._over = True
            for i, name in enumerate(self.agents):
                self.terminations[name] = True
                self.rewards[name] = 0 if winner is None else (1 if winner == i else -1)
        elif self._plies >= self.max_plies:
            for name in self.agents:
                self.truncations[name] = True
        self._accumulate_rewards()
        self.agent_selection = self._agent_selector.next()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (try 'ansi')")
            return None
        return self.position.unicode()

    def close(self) -> None:
        pass
