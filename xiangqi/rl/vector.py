"""VectorEnv: many xiangqi games stepped together in the compiled core.

Arrays have the environment index first. Observations are uint8 planes
(N, 16, 10, 9) as in xiangqi.rl.planes (history planes are not offered here);
masks are bool (N, 2086) over xiangqi.rl.actions; rewards float32 (N,) are from
the point of view of the side that just moved (+1 it won, -1 it lost by a
perpetual check or chase, 0 otherwise);
terminations and truncations bool (N,).

The returned arrays are read-only views of buffers the compiled core owns; NumPy
cannot make them writeable again (setflags(write=True) raises ValueError). They are
overwritten by the next reset() or step(): copy them to keep or edit them.

``final_observations`` and ``final_masks`` (same shapes and dtypes as the observations
and masks, also read-only views of the core's buffers) hold, in row i, the planes and
legal-action mask of the last position of the game that ended in env i most recently:
the core writes them in the step that ends the game, before it restarts it. A row is
fresh only where that step's termination or truncation is True; other rows keep an
earlier game's (zeros after reset()).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .. import _core
from .._checks import check_int
from ..errors import IllegalMoveError, InvalidFenError
from ..fen import START_FEN, board_fen
from ..position import Position
from ..rules import Rules, check_rules
from ._env_args import MAX_COUNT
from .planes import BASE_PLANES

Observations = tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]
StepResult = tuple[
    npt.NDArray[np.uint8],
    npt.NDArray[np.bool_],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
]


class VectorEnv:
    """num_envs games from the start position, stepped in C without the GIL.

    ``step(actions)`` plays actions[i] (an action index, see xiangqi.rl.actions) in
    game i, judges the game end with the rulings of ``Position.outcome()`` (see
    xiangqi.rules: no legal move loses, insufficient material draws, the third
    occurrence of a position rules on the repetition, perpetual check or chase
    losing, 120 plies without a capture draw) and then ``max_plies`` (truncation),
    under the rule set ``rules``: "asian" (the default) or "chinese" (xiangqi.Rules;
    the same judge as ``Position.outcome(rules="chinese")``: perpetual mate threats and
    the mixed cycles lose too, and every check counts towards the move rule),
    and writes the new planes and masks. A finished game restarts at once: the
    observation and mask returned for it are the new game's, the reward,
    termination and truncation the finished one's.

    Every game starts from ``fen`` (the start position by default) with its ply counter
    at 0 and its no-capture counter at the FEN's halfmove clock, as GymEnv and the
    PettingZoo env start it: one ``fen`` plays the same game by every entry point.
    ``seed`` seeds the streams of ``sample_legal()``.
    step() releases the GIL, so separate VectorEnvs can step in separate threads. One
    VectorEnv serves one call at a time: a call made while another thread's step() or
    reset() runs on it raises ConcurrentUseError (a RuntimeError; nothing changes).
    step() copies the actions before checking them and plays only that copy, so a
    buffer rewritten meanwhile (by a thread, or another process through shared
    memory) never gets an unchecked action played.
    """

    def __init__(
        self,
        num_envs: int,
        max_plies: int = 500,
        seed: int | None = None,
        fen: str = START_FEN,
        rules: Rules | str = Rules.ASIAN,
    ) -> None:
        self.rules = check_rules(rules)
        num_envs = check_int("num_envs", num_envs, 1, MAX_COUNT)
        max_plies = check_int("max_plies", max_plies, 1, MAX_COUNT)
        start = Position(fen)
        if not start.has_legal_moves():
            raise InvalidFenError(f"the start position has no legal move: {fen!r}")
        self.num_envs = num_envs
        self.max_plies = max_plies
        # The FEN move number and side to move at the start: fen() counts from them.
        self._start_fullmove = start.fullmove_number
        self._start_side = int(start.turn)
        self._core = _core.VectorCore(
            num_envs, max_plies, start._board, self.rules is Rules.CHINESE
        )
        # Read-only views of the core's own buffers (see the module docstring).
        obs, mask, rewards, terminations, truncations = (
            np.asarray(m) for m in self._core.outputs()
        )
        self._views: StepResult = (
            obs.reshape(num_envs, BASE_PLANES, 10, 9),
            mask.view(np.bool_),
            rewards,
            terminations.view(np.bool_),
            truncations.view(np.bool_),
        )
        final_obs, final_mask = (np.asarray(m) for m in self._core.finals())
        self._finals = (
            final_obs.reshape(num_envs, BASE_PLANES, 10, 9),
            final_mask.view(np.bool_),
        )
        if seed is not None:
            self.seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the random streams that sample_legal() draws from."""
        self._core.seed(check_int("seed", seed) & (1 << 64) - 1)

    def reset(self, seed: int | None = None) -> Observations:
        """Every game back to the start; returns (observations, masks)."""
        if seed is not None:
            self.seed(seed)
        self._core.reset()
        return self._views[0], self._views[1]

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Play one action per game; returns (observations, masks, rewards, terminations,
        truncations).

        An illegal action raises IllegalActionError (a ValueError) naming the first
        bad environment index; then no game has changed.
        """
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {acts.shape}")
        if acts.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, got dtype {acts.dtype}")
        if acts.dtype != np.int64 or not acts.flags.c_contiguous:
            acts = acts.astype(np.int64)
        bad = self._core.step(acts)
        if bad >= 0:
            raise IllegalActionError(
                f"action {self._core.rejected_action} is not legal in env {bad} "
                f"(legal actions are those with masks[{bad}] True): {self.fen(bad)!r}"
            )
        return self._views

    def sample_legal(self, out: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game (int64), drawn in C from seeded streams."""
        if out is None:
            out = np.empty(self.num_envs, dtype=np.int64)
        elif not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a NumPy int64 array, got {type(out).__name__}")
        self._core.sample_legal(out)
        return out

    @property
    def observations(self) -> npt.NDArray[np.uint8]:
        """The current planes (read-only view, overwritten by the next step)."""
        return self._views[0]

    @property
    def masks(self) -> npt.NDArray[np.bool_]:
        """The current legal-action masks (read-only view)."""
        return self._views[1]

    @property
    def final_observations(self) -> npt.NDArray[np.uint8]:
        """Planes of the position each env's last finished game ended in (read-only view,
        uint8 (N, 16, 10, 9)); row i is that of the game ended by the last step where its
        termination or truncation is True (see the module docstring)."""
        return self._finals[0]

    @property
    def final_masks(self) -> npt.NDArray[np.bool_]:
        """Legal-action masks of those final positions (read-only view, bool (N, 2086);
        all False after a checkmate or stalemate)."""
        return self._finals[1]

    def fen(self, index: int) -> str:
        """FEN of game index (the halfmove clock is plies since the last capture; the
        move number counts on from the start FEN's)."""
        index = check_int("index", index)
        if not 0 <= index < self.num_envs:
            raise IndexError(f"env index {index} out of range 0..{self.num_envs - 1}")
        board = self._core.board(index)
        plies, no_capture = self._core.counters(index)
        side = "w" if board.side == 0 else "b"
        number = self._start_fullmove + (plies + self._start_side) // 2
        return f"{board_fen(board.codes())} {side} - - {no_capture} {number}"

    def position(self, index: int) -> Position:
        """Game index as a new Position (without its move history)."""
        return Position(self.fen(index))


class IllegalActionError(IllegalMoveError):
    """An action not legal in its environment; a ValueError whose message names the index."""
