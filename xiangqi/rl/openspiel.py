"""Xiangqi as an OpenSpiel game: ``import xiangqi.rl.openspiel`` registers "xiangqi".

After the import, ``pyspiel.load_game("python_xiangqi")`` gives a Python game played by this
library's rules, so OpenSpiel's algorithms (MCTS, AlphaZero, the tree tools) run on it::

    import pyspiel
    import xiangqi.rl.openspiel  # registers the game

    game = pyspiel.load_game("python_xiangqi", {"move_limit": 120})
    state = game.new_initial_state()

Needs OpenSpiel (``pip install xiangqi-rules[openspiel]``); importing this module
without it raises ImportError. Nothing else in xiangqi imports it.

Conventions:

- Player 0 is Red, player 1 Black; ``current_player()`` is the side to move.
- Actions are xiangqi.rl.actions' 2,086 indexes, seen from the side to move (Black's
  ranks flipped); ``legal_actions()`` are the legal moves' actions, ascending.
- The game ends when Position.outcome(repetitions, move_limit) rules (checkmate, no
  legal move, perpetual check or chase, repetition, the move rule, insufficient
  material): returns are +1 / -1 for the winner and loser, 0 / 0 for a draw. A game
  that reaches max_game_length plies without a ruling is cut off there as a draw
  (OpenSpiel needs a finite bound; the rules themselves end every game through the
  move rule, but only after many plies).
- Parameters: ``fen`` (the start position, default the usual start), ``repetitions``
  (3), ``move_limit`` (120 plies without capture) and ``max_game_length`` (1000).
- Observation: the string is the FEN; the tensor is xiangqi.rl.planes.encode() of the
  position seen from the player asked about, as float32.
- Information state (``information_state_string()``): the start FEN and every move
  since, as ICCS (``"<fen> moves h2e2 h9g7"``), as OpenSpiel's chess gives the whole
  history: the rules judge repetitions on the history, so two states with one FEN and
  different histories (one of them ended by a repetition) have different strings.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..fen import START_FEN
from ..pieces import Color
from ..position import Position
from ..rules import Outcome
from .actions import NUM_ACTIONS, action_to_move, move_to_action
from .planes import encode

SHORT_NAME = "python_xiangqi"
_PARAMETERS: dict[str, Any] = {
    "fen": START_FEN,
    "repetitions": 3,
    "move_limit": 120,
    "max_game_length": 1000,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Xiangqi (Chinese chess), xiangqi-rules",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


class XiangqiGame(pyspiel.Game):
    """The OpenSpiel game: rules and parameters; states come from new_initial_state()."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_PARAMETERS, **(params or {})}
        self.start_fen = str(merged["fen"])
        Position(self.start_fen)  # InvalidFenError now rather than at the first state
        self.repetitions = int(merged["repetitions"])
        self.move_limit = int(merged["move_limit"])
        self.max_length = int(merged["max_game_length"])
        if self.max_length < 1:
            raise ValueError(f"max_game_length must be at least 1, got {self.max_length}")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> XiangqiState:
        """The start position (the ``fen`` parameter)."""
        return XiangqiState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PlanesObserver:
        """The observer behind observation_tensor() and observation_string(), and, asked
        for perfect recall, information_state_string()."""
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return PlanesObserver(params, perfect_recall=recall)


class XiangqiState(pyspiel.State):
    """One game in progress: a Position with its move stack, and the ruling once made."""

    def __init__(self, game: XiangqiGame) -> None:
        super().__init__(game)
        # The rules' settings travel with the state (OpenSpiel may hand a clone another
        # Python wrapper of the game).
        self._rules = (game.repetitions, game.move_limit, game.max_length)
        self._start_fen = game.start_fen
        self.position = Position(game.start_fen)
        self._plies = 0
        self._outcome: Outcome | None = None
        self._cut_off = False
        self._judge()

    def _judge(self) -> None:
        repetitions, move_limit, max_length = self._rules
        self._outcome = self.position.outcome(repetitions, move_limit)
        self._cut_off = self._outcome is None and self._plies >= max_length

    def current_player(self) -> int:
        if self._outcome is not None or self._cut_off:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.position.turn)

    def _legal_actions(self, player: int) -> list[int]:
        turn = self.position.turn
        return sorted(move_to_action(move, turn) for move in self.position.legal_moves())

    def _apply_action(self, action: int) -> None:
        self.position.push(action_to_move(action, self.position.turn))
        self._plies += 1
        self._judge()

    def _action_to_string(self, player: int, action: int) -> str:
        return action_to_move(action, Color(player)).iccs()

    def is_terminal(self) -> bool:
        return self._outcome is not None or self._cut_off

    def returns(self) -> list[float]:
        outcome = self._outcome
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == Color.RED else [-1.0, 1.0]

    def outcome(self) -> Outcome | None:
        """The rules' ruling that ended the game (None while it goes on or if cut off)."""
        return self._outcome

    def __str__(self) -> str:
        return self.position.fen()

    def __deepcopy__(self, memo: dict[int, Any]) -> XiangqiState:
        other = XiangqiState.__new__(XiangqiState)
        pyspiel.State.__init__(other, self.get_game())
        other._rules = self._rules
        other._start_fen = self._start_fen
        other.position = self.position.copy()
        other._plies = self._plies
        other._outcome = self._outcome
        other._cut_off = self._cut_off
        return other


class PlanesObserver:
    """OpenSpiel's PyObserver: the planes of xiangqi.rl.planes as float32, and the FEN (with
    perfect_recall: the start FEN and the moves since, the information state)."""

    def __init__(self, params: dict[str, Any] | None, perfect_recall: bool = False) -> None:
        self.perfect_recall = perfect_recall
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        shape = encode(Position()).shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: XiangqiState, player: int) -> None:
        self.dict["observation"][...] = encode(state.position, perspective=Color(player))

    def string_from(self, state: XiangqiState, player: int) -> str:
        if self.perfect_recall:
            moves = [move.iccs() for move in state.position.move_stack]
            return " ".join([state._start_fen, "moves", *moves])
        return state.position.fen()


pyspiel.register_game(_GAME_TYPE, XiangqiGame)
