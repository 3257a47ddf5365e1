"""The docs' example blocks paste into Python's interactive prompt: on every page each block is
whole statements there, and each block of the forced-mates page also runs on its own.

A reader types (or pastes) a block's ``>>>`` and ``...`` lines, without their prompts, into a
fresh interpreter. Two things then fail that doctest (which runs the page's examples one by one,
in one namespace) lets pass: a compound statement (``for``, ``try``) followed at once by another
``>>>`` statement, which the prompt reads as part of the compound statement (a SyntaxError: a
blank ``...`` line must end it), and a name made by another block. The check is static: it
compiles the lines as the prompt does (codeop, which the prompt itself uses) and reads the names
with ast; nothing is run.
"""

from __future__ import annotations

import ast
import builtins
import codeop
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGE = DOCS / "mates.md"
_BLOCK = re.compile(r"^```\{doctest\}[^\n]*\n(.*?)^```", re.M | re.S)


def _typed(block: str) -> list[str]:
    """The lines a reader types: each ``>>>``/``...`` line without its prompt (output skipped)."""
    return [line[4:] for line in block.splitlines() if line[:4] in (">>> ", "... ", ">>>", "...")]


def repl_problems(block: str) -> list[str]:
    """What goes wrong when block's lines are typed into a fresh interactive prompt."""
    problems: list[str] = []
    source: list[str] = []
    buffer: list[str] = []
    for line in [*_typed(block), ""]:  # the reader's last Enter ends a pending statement
        buffer.append(line)
        try:
            code = codeop.compile_command("\n".join(buffer), "<stdin>", "single")
        except SyntaxError as error:
            problems.append(f"SyntaxError at {line!r}: {error.msg}")
            buffer = []
            continue
        if code is not None:  # a complete statement: the prompt runs it and starts afresh
            source.extend(buffer)
            buffer = []
    bound = set(dir(builtins))
    loaded: list[str] = []
    for node in ast.walk(ast.parse("\n".join(source))):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loaded.append(node.id)
        elif isinstance(node, ast.Name):
            bound.add(node.id)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    unknown = [name for name in dict.fromkeys(loaded) if name not in bound]
    return problems + [f"{name!r} is not made in this block" for name in unknown]


def test_the_check_finds_a_compound_statement_that_runs_on() -> None:
    block = ">>> for n in range(2):\n...     print(n)\n>>> print('after')\n"
    assert any(p.startswith("SyntaxError at \"print('after')\"") for p in repl_problems(block))
    ended = ">>> for n in range(2):\n...     print(n)\n...\n0\n1\n>>> print('after')\nafter\n"
    assert repl_problems(ended) == []


def test_the_check_finds_a_name_from_another_block() -> None:
    block = ">>> from xiangqi import Position\n>>> Position(puzzle.fen)\n"
    assert repl_problems(block) == ["'puzzle' is not made in this block"]
    made = (
        ">>> import xiangqi\n>>> try:\n...     x = 1\n... except ValueError as error:\n"
        "...     print(error)\n...\n>>> [m for m in [x]], xiangqi, (lambda a: a)(2)\n"
    )
    assert repl_problems(made) == []


def _blocks(page: Path = PAGE) -> list[tuple[int, str]]:
    """(line, body) of each doctest block of page; line is 1-based, the opening fence's."""
    text = page.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m[1]) for m in _BLOCK.finditer(text)]


@pytest.mark.parametrize(
    ("line", "block"), [pytest.param(*b, id=f"line {b[0]}") for b in _blocks()]
)
def test_each_mates_example_pastes_into_a_fresh_prompt(line: int, block: str) -> None:
    assert repl_problems(block) == [], f"docs/mates.md, the block at line {line}"


# The other pages share names between the blocks of one page (a reader pastes them in
# order), so only the first kind of failure is checked there.
@pytest.mark.parametrize(
    ("page", "line", "block"),
    [
        pytest.param(page.name, *b, id=f"{page.name} line {b[0]}")
        for page in sorted(DOCS.glob("*.md"))
        for b in _blocks(page)
    ],
)
def test_every_example_is_whole_statements_at_the_prompt(page: str, line: int, block: str) -> None:
    problems = [p for p in repl_problems(block) if p.startswith("SyntaxError")]
    assert problems == [], f"docs/{page}, the block at line {line}"
