"""The one home of the argument checks every public function makes (ints, reals, flags).

Each check returns the value it accepted (an int for `check_int`, so a NumPy integer or
any `__index__` type comes back as a plain int) and raises `TypeError` for a value of the
wrong type or `ValueError` for one out of range, naming the argument. `bool` is refused
where an int or a real number is asked for: `True` is an int to Python, never to a user.
"""

from __future__ import annotations

import math
import operator


def check_int(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    """`value` as an int in low..high (either bound may be None for no bound)."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}: {value!r}")
    number = operator.index(value)  # type: ignore[arg-type]
    _check_range(name, number, low, high)
    return number


def check_real(
    name: str, value: object, low: float | None = None, high: float | None = None
) -> float:
    """`value` as a finite real number (int or float) in low..high."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}: {value!r}")
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large: {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    _check_range(name, number, low, high)
    return number


def check_bool(name: str, value: object) -> bool:
    """`value`, which must be True or False (not merely truthy)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}: {value!r}")
    return value


def _check_range(name: str, value: float, low: float | None, high: float | None) -> None:
    if low is not None and high is not None:
        if not low <= value <= high:
            raise ValueError(f"{name} must be in {low}..{high}, got {value!r}")
    elif low is not None and value < low:
        raise ValueError(f"{name} must be at least {low}, got {value!r}")
    elif high is not None and value > high:
        raise ValueError(f"{name} must be at most {high}, got {value!r}")
