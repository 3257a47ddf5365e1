"""Observation planes and legal-action masks of Positions, one or many at a time.

Planes are uint8, shape (C, 10, 9) per position, from the side to move's view
(Black's ranks flipped, see xiangqi.rl.actions): ``planes[c, rank, file]``.

===========  ===================================================================
plane        contents
===========  ===================================================================
0..6         the mover's king, advisors, elephants, horses, rooks, cannons, pawns
7..13        the opponent's pieces, same order
14           repetition count: every entry holds how often this position occurred
             earlier since the last capture (0 the first time; the game-end history's
             count, as Position.is_repetition() sees it), saturating at 255
15           no-capture clock: every entry holds the plies since the last capture
             (the Position's halfmove clock), saturating at 255
16 + 14j..   with ``history=k``, for j = 0..k-1: the 14 piece planes of the
             position j + 1 plies earlier, in the current mover's view; zeros
             before the first position the Position remembers
===========  ===================================================================

uint8 rather than float32: a step of 1,024 environments then writes 1.4 MB of
planes instead of 5.9 MB (the vectorised environment's measured rate is on the
performance page, "Reinforcement learning":
https://xiangqi-rules.readthedocs.io/en/latest/performance.html);
``planes.astype(np.float32)`` is one call for a network.

Channels first, (N, C, 10, 9) in a batch, is the layout PyTorch's ``Conv2d`` takes. The
PettingZoo env follows chess_v6 instead: bool, channels last (10, 9, C);
``chess_v6_layout(planes)`` turns these planes into that layout (see its docstring),
and ``np.moveaxis(obs, -1, -3)`` turns such an observation back to channels first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from .._checks import check_enum
from ..pieces import Color
from ..position import Position
from ._env_args import check_history
from .actions import NUM_ACTIONS

BASE_PLANES = 16
PIECE_PLANES = 14


def num_planes(history: int = 0) -> int:
    """Number of planes C of an observation with history=k earlier positions."""
    return BASE_PLANES + PIECE_PLANES * history


def _positions(positions: Sequence[Position]) -> list[Position]:
    items = list(positions)
    for i, pos in enumerate(items):
        if not isinstance(pos, Position):
            raise TypeError(f"positions[{i}] must be a Position, got {type(pos).__name__}")
    return items


def _check_perspective(perspective: Color | None) -> int:
    # -1 (the side to move's view) for None, else the Color's number; bool refused.
    if perspective is None:
        return -1
    return int(check_enum("perspective", perspective, Color))


def _out_array(out: Any, shape: tuple[int, ...], dtype: type[Any], name: str) -> Any:
    """out, or a new array of shape and dtype when it is None; TypeError for no NumPy array,
    ValueError for one of another dtype or shape, or not C-contiguous."""
    if out is None:
        return np.empty(shape, dtype=dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a NumPy {name} array, got {type(out).__name__}")
    if out.dtype != dtype or out.shape != shape or not out.flags.c_contiguous:
        raise ValueError(f"out must be a C-contiguous {name} array of shape {shape}")
    return out


def encode_batch(
    positions: Sequence[Position],
    history: int = 0,
    out: npt.NDArray[np.uint8] | None = None,
    perspective: Color | None = None,
) -> npt.NDArray[np.uint8]:
    """Planes of many positions, uint8 (N, C, 10, 9); see the module docstring.

    Written in the core without the GIL. Pass ``out`` (uint8, C-contiguous, that
    shape) to reuse a buffer. ``perspective`` (a Color) encodes every position from
    that side's view instead of the side to move's.
    """
    items = _positions(positions)
    planes = num_planes(check_history(history))
    shape = (len(items), planes, 10, 9)
    view = _check_perspective(perspective)
    out = _out_array(out, shape, np.uint8, "uint8")
    clocks = np.fromiter((p.halfmove_clock for p in items), dtype=np.int64, count=len(items))
    _core.encode_batch(
        [p._board for p in items], clocks, history, out.reshape(len(items), planes * 90), view
    )
    return out


def encode(
    position: Position, history: int = 0, perspective: Color | None = None
) -> npt.NDArray[np.uint8]:
    """Planes of one position, uint8 (C, 10, 9); see the module docstring."""
    planes: npt.NDArray[np.uint8] = encode_batch([position], history, perspective=perspective)[0]
    return planes


def legal_mask_batch(
    positions: Sequence[Position], out: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.bool_]:
    """Legal-action masks, bool (N, 2086): True where the action is a legal move.

    Written in the core without the GIL and without building Move objects.
    """
    items = _positions(positions)
    shape = (len(items), NUM_ACTIONS)
    out = _out_array(out, shape, np.bool_, "bool")
    _core.legal_mask_batch([p._board for p in items], out.view(np.uint8))
    return out


def legal_mask(position: Position) -> npt.NDArray[np.bool_]:
    """Legal-action mask of one position, bool (2086,)."""
    mask: npt.NDArray[np.bool_] = legal_mask_batch([position])[0]
    return mask


def chess_v6_layout(planes: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """uint8 planes (..., C, 10, 9) as PettingZoo chess_v6 lays out its observations:
    bool, channels last, (..., 10, 9, C), a new C-contiguous array.

    The piece planes (0..13 and the history blocks) are copied as they are. Channel 14
    is True everywhere when the position occurred before since the last capture
    (chess_v6's repetition channel). Channel 15 is the no-capture clock as chess_v6's
    move-clock channel writes it: the one entry at flat index min(clock // 2, 89) of
    the (10, 9) plane (rank * 9 + file, in the observer's view) is True (clock read as
    the planes hold it, saturated at 255).
    """
    array = np.asarray(planes)
    if array.dtype != np.uint8:
        raise TypeError(f"planes must be uint8, got dtype {array.dtype}")
    shape = array.shape
    if (
        len(shape) < 3
        or shape[-2:] != (10, 9)
        or shape[-3] < BASE_PLANES
        or (shape[-3] - BASE_PLANES) % PIECE_PLANES
    ):
        raise ValueError(f"planes must have shape (..., 16 + 14 * k, 10, 9), got {shape}")
    nd = array.ndim
    if nd == 3:
        return chess_v6_one(array)
    # Pieces are 0 or 1, so a bool view copies them as they are; channels 14 and 15
    # (counts) are rewritten below. copy() lays the transposed view out C-contiguous.
    out = array.view(np.bool_).transpose(*range(nd - 3), nd - 2, nd - 1, nd - 3).copy()
    flat = out.reshape(-1, 90, shape[-3])
    flat[:, :, 14] = (array[..., 14, 0, 0].reshape(-1) != 0)[:, None]
    flat[:, :, 15] = False
    clocks = array[..., 15, 0, 0].reshape(-1) // 2
    flat[np.arange(flat.shape[0]), np.minimum(clocks, 89), 15] = True
    return out


def chess_v6_one(planes: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """chess_v6_layout of one (C, 10, 9) uint8 array, unchecked (the AEC env's path):
    contiguous writes on a copy, then one gather."""
    work = planes.copy()
    work[14] = work[14, 0, 0] != 0
    n = min(int(work[15, 0, 0]) // 2, 89)
    work[15] = 0
    work[15, n // 9, n % 9] = 1
    out: npt.NDArray[np.bool_] = work.view(np.bool_).transpose(1, 2, 0).copy()
    return out
