"""The fixed action space: 2,086 from-to pairs, seen from the side to move.

An action is an index 0..2085 into ``ACTIONS``. ``ACTIONS[a]`` is a Move in the mover's
view (public squares 0..89, file + 9 * rank): for Red the view is the board itself;
for Black the ranks are flipped (rank r -> 9 - r, files kept), so every position
looks like Red to move. We flip ranks rather than rotate by 180 degrees because that
is what AlphaZero and PettingZoo's chess do, and because a move keeps its ICCS file
letters in both views, so the left-right mirror (``mirror_action``) stays the only
other symmetry and commutes with the view change.

The 2,086 pairs are those that some piece can make on an otherwise empty board:
1,530 rook lines along a rank or file (they include every king and pawn step), 508
horse jumps, 16 advisor diagonals (both palaces) and 32 elephant jumps (both
halves): the AlphaZero-xiangqi convention. They are ordered by
from_square * 90 + to_square.
"""

from __future__ import annotations

from typing import Final

from .. import _core
from .._checks import check_int
from ..move import MOVES, Move
from ..pieces import Color

#: The number of actions: 2,086 from-to pairs (``len(ACTIONS)``).
NUM_ACTIONS: Final = 2086

_CODES: list[int] = _core.action_codes()
_MIRROR: list[int] = _core.mirror_codes()
_INDEX: dict[int, int] = {code: a for a, code in enumerate(_CODES)}


def _flip(square: int) -> int:
    return square % 9 + 9 * (9 - square // 9)


#: Move of each action in the mover's view (Red's squares), indexed by action.
ACTIONS: tuple[Move, ...] = tuple(MOVES[code] for code in _CODES)  # type: ignore[misc]


#: The same Moves as Black sees them on the board (ranks flipped back).
_BLACK_ACTIONS: tuple[Move, ...] = tuple(
    MOVES[_flip(m.from_square) * 90 + _flip(m.to_square)]  # type: ignore[misc]
    for m in ACTIONS
)


def _check_action(action: int) -> int:
    return check_int("action", action, 0, NUM_ACTIONS - 1)


def move_to_action(move: Move, turn: Color) -> int:
    """Action index of move (public squares 0..89) played by turn.

    Raises ValueError if no piece could ever make the move (it is outside the space).
    """
    if not isinstance(move, Move):
        raise TypeError(f"move_to_action() takes a Move, got {type(move).__name__}")
    frm, to = move.from_square, move.to_square
    if Color(turn) == Color.BLACK:
        frm, to = _flip(frm), _flip(to)
    action = _INDEX.get(frm * 90 + to)
    if action is None:
        raise ValueError(f"no piece can move {move} for {Color(turn).name}: not an action")
    return action


def action_to_move(action: int, turn: Color) -> Move:
    """The Move (public squares 0..89) that action means when turn is to move."""
    action = _check_action(action)
    if turn == Color.BLACK:
        return _BLACK_ACTIONS[action]
    if turn != Color.RED:
        raise ValueError(f"turn must be RED or BLACK, got {turn!r}")
    return ACTIONS[action]


def mirror_action(action: int) -> int:
    """The action of the left-right mirrored move (file f -> 8 - f), for augmentation."""
    return _MIRROR[_check_action(action)]
