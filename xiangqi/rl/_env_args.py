"""The argument checks the reinforcement-learning modules share: the history depth, the
one-game envs' render_mode and max_plies, and the count bound of the C buffers.

Private: used by planes, the PettingZoo env (aec), the Gymnasium env and VectorEnv.
"""

from __future__ import annotations

from .._checks import check_int

#: The most plies (and games) an env takes: VectorEnv's C buffers are sized by them.
MAX_COUNT = 1 << 24


def check_history(history: int) -> int:
    """history (earlier positions in an observation) as an int in 0..64."""
    return check_int("history", history, 0, 64)


def check_env_args(render_mode: str | None, modes: list[str], max_plies: int) -> int:
    """The arguments the one-game envs (PettingZoo's and Gymnasium's) share; max_plies as an int."""
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {modes}, got {render_mode!r}")
    return check_int("max_plies", max_plies, 1, MAX_COUNT)
