"""The PGN text's words, shared by the reader and the structure sniff (xiangqi.pgn.structure):
tag pair lines, move words of each notation, full-width forms, comments, suffixes.

Private: nothing here is re-exported; the names have no underscore because two modules use them.
"""

from __future__ import annotations

import re

from ._base import SUFFIX_NAGS

TAG = re.compile(r'[ \t]*\[[ \t]*([A-Za-z0-9_]+)[ \t]+"((?:[^"\\]|\\.)*)"[ \t]*\]')
# A tag whose value holds unescaped quotes, read as python-chess does: the value runs to the
# last quote before the closing bracket that ends the line ('[Event "1999年"中視股份杯"..."]').
LOOSE_TAG = re.compile(r'[ \t]*\[[ \t]*([A-Za-z0-9_]+)[ \t]+"(.*)"[ \t]*\][ \t]*$')
_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
_FULLWIDTH[0x3000] = 0x20
ICCS_WORD = re.compile(r"[a-iA-I][0-9]-?[a-iA-I][0-9]", re.ASCII)
WXF_WORD = re.compile(r"[A-Za-z+\-1-9][A-Za-z+\-1-9][+\-.=][1-9]", re.ASCII)
_CHINESE_MOTION = re.compile(r"[进進退平]")
LEAD = re.compile(r"[\s\ufeff]*")


#: The last line translated and its translation, as one tuple: read and replaced whole, so
#: a thread never pairs one line with another's translation.
_last_translated: tuple[str, str] = ("", "")


def ascii_forms(line: str) -> str:
    """line with full-width letters, digits and signs as ASCII (one character for one, so
    indexes stay valid); the last line is kept, as each game on a long line asks again."""
    global _last_translated
    if line.isascii():
        return line
    last, translated = _last_translated
    if last is not line:
        translated = line.translate(_FULLWIDTH)
        _last_translated = (line, translated)
    return translated


def comment_end(line: str, start: int) -> int:
    """Index of the "}" that closes a comment (not escaped as "\\}"), or -1."""
    i = start
    while True:
        j = line.find("}", i)
        if j < 0:
            return -1
        backslashes = 0
        k = j - 1
        while k >= start and line[k] == "\\":
            backslashes += 1
            k -= 1
        if backslashes % 2 == 0:
            return j
        i = j + 1


def strip_suffix(text: str) -> tuple[str, int | None]:
    word = text.rstrip("!?")
    suffix = text[len(word) :]
    nag = SUFFIX_NAGS.get(suffix) if suffix else None
    return word, nag


def split_word(text: str) -> list[str]:
    """Split moves written together without spaces ("C2=5H8+7", "炮二平五马８进７")."""
    word, _ = strip_suffix(text)
    if len(word) <= 5:
        return [text]
    if not word.isascii():
        cuts = [m.end() + 1 for m in _CHINESE_MOTION.finditer(word)]
        if len(cuts) >= 2 and cuts[-1] in (len(word), len(word) - 1):
            parts, start = [], 0
            for cut in cuts[:-1]:
                parts.append(text[start:cut])
                start = cut
            parts.append(text[start:])
            return parts
        return [text]
    if len(word) % 4 == 0 and all(
        WXF_WORD.fullmatch(word[i : i + 4]) or ICCS_WORD.fullmatch(word[i : i + 4])
        for i in range(0, len(word), 4)
    ):
        parts = [text[i : i + 4] for i in range(0, len(word), 4)]
        parts[-1] = text[len(word) - 4 :]
        return parts
    return [text]
