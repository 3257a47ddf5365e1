"""The one home of the argument checks every public function makes (ints, reals, flags,
IntEnum members such as Color and PieceType).

Each check returns the value it accepted (an int for `check_int`, so a NumPy integer or
any `__index__` type comes back as a plain int; the member for `check_enum`) and raises
`TypeError` for a value of the wrong type or `ValueError` for one out of range, naming the
argument. `bool` is refused where an int, a member or a real number is asked for: `True` is
an int to Python, never to a user.
"""

from __future__ import annotations

import enum
import math
import operator
from typing import TypeVar

_E = TypeVar("_E", bound=enum.IntEnum)


def check_int(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    """`value` as an int in low..high (either bound may be None for no bound)."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}: {show(value)}")
    number = operator.index(value)  # type: ignore[arg-type]
    _check_range(name, number, low, high)
    return number


def check_enum(name: str, value: object, kind: type[_E]) -> _E:
    """`value` as a member of the IntEnum `kind`: a member, or an int (NumPy's too) that is
    one's number; bool refused (TypeError), any other number a ValueError naming the members."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(
            f"{name} must be a {kind.__name__}, got {type(value).__name__}: {show(value)}"
        )
    number = operator.index(value)  # type: ignore[arg-type]  # an exact int (3.10+)
    try:
        return kind(number)
    except ValueError:
        members = ", ".join(f"{m.name} ({m.value})" for m in kind)
        raise ValueError(f"{name} must be one of {members}, got {show(number)}") from None


def check_real(
    name: str, value: object, low: float | None = None, high: float | None = None
) -> float:
    """`value` as a finite real number (a float, or an int of any kind: NumPy's too) in
    low..high, as a float."""
    if isinstance(value, bool) or not (
        isinstance(value, (int, float)) or hasattr(type(value), "__index__")
    ):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}: {show(value)}")
    if not isinstance(value, float):  # an int of any kind (NumPy's too): a plain int first
        value = operator.index(value)  # type: ignore[arg-type]
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large: {show(value)}") from None
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {show(value)}")
    _check_range(name, number, low, high)
    return number


def check_bool(name: str, value: object) -> bool:
    """`value`, which must be True or False (not merely truthy)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}: {show(value)}")
    return value


def _check_range(name: str, value: float, low: float | None, high: float | None) -> None:
    if low is not None and high is not None:
        if not low <= value <= high:
            raise ValueError(f"{name} must be in {low}..{high}, got {show(value)}")
    elif low is not None and value < low:
        raise ValueError(f"{name} must be at least {low}, got {show(value)}")
    elif high is not None and value > high:
        raise ValueError(f"{name} must be at most {high}, got {show(value)}")


def type_name(value: object) -> str:
    """The name of value's type, as the messages say it ("got int")."""
    return type(value).__name__


def show(value: object) -> str:
    # The value for a message, bounded: a huge int has no repr (Python's 4300-digit limit
    # raises), and a long one would flood the message.
    if isinstance(value, int) and value.bit_length() > 200:
        return f"an int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # a hostile or broken __repr__: the message still names the type
        return f"a {type(value).__name__} (its repr failed)"
    return text if len(text) <= 200 else text[:200] + "..."
