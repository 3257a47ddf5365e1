"""PGN recognised by its structure, not as "any text" (the front door's sniff): a tag pair
line or move text first. Used by xiangqi.records to tell PGN from a Markdown file or prose."""

from __future__ import annotations

import re

from ..notation import SAN_RE
from ._lexicon import (
    ICCS_WORD,
    LEAD,
    LOOSE_TAG,
    TAG,
    WXF_WORD,
    ascii_forms,
    comment_end,
    split_word,
    strip_suffix,
)

__all__ = ["looks_like_pgn"]

_MOVE_NUMBER = re.compile(r"\d+\s*(?:\.+|、|。)\s*")
_FIRST_WORD = re.compile(r"[^\s(){};$]+")


def _is_move_word(word: str) -> bool:
    """Is word shaped as a move in one of the notations the reader takes?"""
    word = strip_suffix(word)[0]
    bare = word.rstrip("+#")
    if not word.isascii():
        return len(word) >= 4 and word[2] in "进進退平"
    return bool(
        ICCS_WORD.fullmatch(bare)
        or SAN_RE.fullmatch(word)
        or (len(bare) == 4 and WXF_WORD.fullmatch(bare))
        or (len(bare) % 4 == 0 and len(bare) > 4 and WXF_WORD.fullmatch(bare[:4]))
    )


def looks_like_pgn(text: str) -> bool:
    """Does text (the start of a file) have the structure of PGN: a tag pair line, or move
    text (a move number followed by a move, a move, a comment, a result marker) once blank
    lines, ``%`` escape lines and ``;`` comment lines are skipped? Not merely "any text":
    Markdown, prose or random bytes are not PGN."""
    text = ascii_forms(text)
    i, n = 0, len(text)
    while True:
        lead = LEAD.match(text, i)
        assert lead is not None
        i = lead.end()
        if i >= n:
            return False
        ch = text[i]
        if ch in "%;":
            j = text.find("\n", i)
            if j < 0:
                return False
            i = j + 1
            continue
        if ch == "{":
            j = comment_end(text, i + 1)
            if j < 0:
                return True  # move text that opens with a comment longer than the sample
            i = j + 1
            continue
        if TAG.match(text, i) or LOOSE_TAG.match(text[i : text.find("\n", i) % (n + 1)]):
            return True
        number = _MOVE_NUMBER.match(text, i)
        if number is not None:
            i = number.end()
            if text.startswith("{", i):
                return True
        word = _FIRST_WORD.match(text, i)
        if word is None:
            return False
        first = word.group()
        return first in ("1-0", "0-1", "1/2-1/2", "*") or any(
            _is_move_word(part) for part in split_word(first)[:1]
        )
