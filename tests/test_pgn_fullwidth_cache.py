"""The PGN reader's full-width-to-ASCII cache (xiangqi.pgn._lexicon.ascii_forms) under
threads: a line is never paired with another line's translation."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from xiangqi.pgn import _lexicon

LINE_A = "１．　Ｃ２．５　ｈ７．５"
LINE_B = "２．　Ｈ２＋３　Ｈ８＋７"


class _SwitchedMidRead(list):  # type: ignore[type-arg]
    """The old list cache, as another thread leaves it: it replaces the cached pair with
    LINE_B's between a reader's look at the line and its read of the translation."""

    def __getitem__(self, index: Any) -> Any:
        value = list.__getitem__(self, index)
        if index == 0:
            list.__setitem__(self, slice(None), [LINE_B, LINE_B.translate(_lexicon._FULLWIDTH)])
        return value


def test_a_line_gets_its_own_translation_when_another_thread_replaces_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The expected text is NFKC's (Unicode's compatibility forms), not the reader's table.
    expected = unicodedata.normalize("NFKC", LINE_A)
    assert expected == "1. C2.5 h7.5"
    cached = _SwitchedMidRead([LINE_A, LINE_A.translate(_lexicon._FULLWIDTH)])
    monkeypatch.setattr(_lexicon, "_last_translated", cached)
    assert _lexicon.ascii_forms(LINE_A) == expected


def test_each_line_gets_its_own_translation_one_after_another() -> None:
    for line in (LINE_A, LINE_B, LINE_A, LINE_A, LINE_B):
        assert _lexicon.ascii_forms(line) == unicodedata.normalize("NFKC", line)
