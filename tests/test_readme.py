"""The README's tour runs, and each result its comments show is what the code gives.

A comment that starts like a value (a repr, a number, True) must match the repr of
the line's expression (up to a "..." in the comment); print(x) is compared with str(x);
a comment naming an exception must name the exception the line raises, with the
message's text up to its first quote.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def blocks_after(heading: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index(heading) :]
    section = section[: section.index("\n## ", 1)] if "\n## " in section[1:] else section
    return re.findall(r"```python\n(.*?)```", section, re.S)


def split(line: str) -> tuple[str, str]:
    code, _, comment = line.partition("  # ")
    return code.strip(), comment.strip()


VALUE_START = re.compile(r"^([-\d'\"(\[{]|True|False|None|Move\.|Piece\(|SquareSet\(|Color\.)")


def check_value(code: str, comment: str, scope: dict[str, object]) -> int:
    """Compare the line's value with the comment when the comment shows a value."""
    try:
        compile(code, "README", "eval")
    except SyntaxError:  # a statement, such as an assignment: its comment is prose
        exec(compile(code, "README", "exec"), scope)
        return 0
    if not VALUE_START.match(comment):
        exec(compile(code, "README", "exec"), scope)
        return 0
    printed = re.fullmatch(r"print\((.*)\)", code)
    value = eval(compile(printed[1] if printed else code, "README", "eval"), scope)
    shown = str(value) if printed else repr(value)
    if "..." in comment:
        head = comment.split("...")[0]
        assert shown.startswith(head), (code, shown, comment)
    else:
        assert comment.startswith(shown), (code, shown, comment)
    return 1


def test_tour_runs_and_its_comments_are_true() -> None:
    tour, errors = blocks_after("## A short tour")[:2]
    scope: dict[str, object] = {}
    checked = 0
    for line in tour.splitlines():
        code, comment = split(line)
        if code:
            checked += check_value(code, comment, scope)
    assert checked >= 8
    for line in errors.splitlines():
        code, comment = split(line)
        if not code:
            code, comment = previous, line.lstrip("# ").strip()  # noqa: F821
        else:
            previous = code  # noqa: F841
            if not comment:
                continue
        name = re.match(r"(\w+)", comment)
        assert name
        with pytest.raises(Exception) as info:  # noqa: B017
            exec(compile(code, "README", "exec"), scope)
        assert type(info.value).__name__ == name[1], (code, info.value)
        message = comment[len(name[1]) :].lstrip(":, ")
        if message and not message.startswith("as "):
            assert str(info.value).startswith(message.split("'")[0].split(" (")[0].rstrip())
