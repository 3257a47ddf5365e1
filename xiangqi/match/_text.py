"""Reading the match settings' text: numbers, counts and shell-quoted words."""

from __future__ import annotations

import re
import shlex

from ..errors import XiangqiError

_NUMBER = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
CLOCK = re.compile(rf"(?:([0-9]+)/)?({_NUMBER})(?:\+({_NUMBER}))?")
INT = re.compile(r"[0-9]+")
_FLOAT = re.compile(_NUMBER)
#: Longest number read from settings text (a longer one is refused, never converted: a
#: 400-digit float is inf and a 5,000-digit int exceeds int()'s digit limit).
DIGITS = 30


def parse_number(text: str, what: str, source: str) -> float:
    if len(text) > DIGITS or not _FLOAT.fullmatch(text):
        raise XiangqiError(
            f"{what} must be a number of seconds, got {text!r:.40} in {source!r:.100}"
        )
    return float(text)


def parse_count(text: str, what: str, source: str) -> int:
    if len(text) > DIGITS or not INT.fullmatch(text) or int(text) < 1:
        raise XiangqiError(
            f"{what} must be a whole number >= 1, got {text!r:.40} in {source!r:.100}"
        )
    return int(text)


def split_words(text: str, what: str) -> list[str]:
    if not isinstance(text, str):
        raise TypeError(f"{what} is text, got {type(text).__name__}")
    try:
        return shlex.split(text)
    except ValueError as exc:  # "No closing quotation", "No escaped character"
        raise XiangqiError(f"{what}: {exc}: {text!r:.200}") from None
