"""The Chinese rules' prose has one full statement, the module docstring of xiangqi.rules
(``help(xiangqi.rules)``, rendered in the reference); the game-end page links to it. The
readings the project takes where the rule book is ambiguous are numbered in
tests/data/chinese_rules/README.md: the statement must cite every one of them, so a new
reading cannot land in the README without the rules users read."""

from __future__ import annotations

import re
from pathlib import Path

import xiangqi.rules

README = Path(__file__).parent / "data" / "chinese_rules" / "README.md"
GAME_END = Path(__file__).parents[1] / "docs" / "game-end.md"


def _readings() -> set[int]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Ambiguities and the readings we propose", 1)[1].split("\n## ", 1)[0]
    return {int(n) for n in re.findall(r"^(\d+)\. \*\*", section, flags=re.M)}


def _cited() -> set[int]:
    doc = xiangqi.rules.__doc__ or ""
    cited: set[int] = set()
    for match in re.finditer(r"readings?\s+(\d+(?:(?:,\s+|\s+and\s+)\d+)*)", doc):
        cited |= {int(n) for n in re.findall(r"\d+", match.group(1))}
    return cited


def test_the_readings_are_numbered_one_to_n() -> None:
    readings = _readings()
    assert readings == set(range(1, len(readings) + 1)) and len(readings) >= 20


def test_the_rules_docstring_cites_every_reading() -> None:
    missing = _readings() - _cited()
    assert not missing, f"help(xiangqi.rules) does not cite readings {sorted(missing)}"


def test_the_rules_docstring_cites_no_reading_that_does_not_exist() -> None:
    assert _cited() <= _readings()


def test_the_game_end_page_links_to_the_statement() -> None:
    page = GAME_END.read_text(encoding="utf-8")
    chinese = page.split("## The Chinese rules in detail", 1)[1].split("\n## ", 1)[0]
    assert "{py:mod}`xiangqi.rules`" in chinese
    # The full statement is not copied onto the page (its longest clauses stay in one place).
    assert "被牵子捉子" not in chinese and "从捉到捉" not in chinese
