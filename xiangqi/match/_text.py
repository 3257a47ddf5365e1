"""Reading the match settings' text: numbers, counts and shell-quoted words."""

from __future__ import annotations

import re
import shlex

from ..errors import XiangqiError

_NUMBER = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_CLOCK = re.compile(rf"(?:([0-9]+)/)?({_NUMBER})(?:\+({_NUMBER}))?")
_INT = re.compile(r"[0-9]+")
_FLOAT = re.compile(_NUMBER)


def _number(text: str, what: str, source: str) -> float:
    if not _FLOAT.fullmatch(text):
        raise XiangqiError(f"{what} must be a number of seconds, got {text!r} in {source!r:.100}")
    return float(text)


def _count(text: str, what: str, source: str) -> int:
    if not _INT.fullmatch(text) or int(text) < 1:
        raise XiangqiError(f"{what} must be a whole number >= 1, got {text!r} in {source!r:.100}")
    return int(text)


def _words(text: str, what: str) -> list[str]:
    if not isinstance(text, str):
        raise TypeError(f"{what} is text, got {type(text).__name__}")
    try:
        return shlex.split(text)
    except ValueError as exc:  # "No closing quotation", "No escaped character"
        raise XiangqiError(f"{what}: {exc}: {text!r:.200}") from None
