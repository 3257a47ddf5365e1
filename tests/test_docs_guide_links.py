"""The guides link the reference: on docs/mates.md and docs/python-chess.md the first mention
of each of the library's API names is a ``{py:...}`` link, not plain code.

Read from the pages' Markdown (fast, no build): a code span that names a public function,
class or method of the package (``find_mate``, ``Position.from_diagram(fen)``,
``xiangqi.find_mates``) must come after a role that links that name. Spans qualified by a
python-chess object (``board.``, ``chess.``) name python-chess's API and are left alone.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest
from test_docs_reference import public_modules

DOCS = Path(__file__).resolve().parent.parent / "docs"
ROLE = re.compile(r"\{py:\w+\}`([^`]+)`")
SPAN = re.compile(r"(?<![`}])`([^`\n]+)`")
FOREIGN = ("board.", "chess.")


def api_names() -> set[str]:
    """Last components of the public functions, classes and their public methods."""
    names: set[str] = set()
    for module in public_modules():
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        for attr in getattr(mod, "__all__", ()):
            obj = getattr(mod, attr)
            if inspect.isclass(obj) or inspect.isroutine(obj):
                names.add(attr)
            if inspect.isclass(obj) and obj.__module__.startswith("xiangqi"):
                names.update(
                    n
                    for n, v in vars(obj).items()
                    if not n.startswith("_")
                    and (inspect.isroutine(v) or isinstance(v, (classmethod, staticmethod)))
                )
    return {n for n in names if len(n) >= 5}  # "copy", "pop": too common to judge


def _name(text: str) -> str:
    text = text.split("(")[0].strip()
    return text.rpartition(".")[2]


def prose(page: Path) -> str:
    """The page without its fenced blocks (examples are not prose) and without the first
    cell of each table row (python-chess.md's first column names python-chess's API)."""
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"^(`{3,}|:{3,}).*?^\1\s*$", "", text, flags=re.M | re.S)
    return re.sub(r"^\|[^|\n]*\|", "|", text, flags=re.M)


@pytest.mark.parametrize("page", ["mates.md", "python-chess.md"])
def test_the_first_mention_of_each_api_name_is_a_link(page: str) -> None:
    names = api_names()
    text = prose(DOCS / page)
    linked: set[str] = set()
    events = sorted(
        [(m.start(), "link", m.group(1)) for m in ROLE.finditer(text)]
        + [(m.start(), "span", m.group(1)) for m in SPAN.finditer(text)]
    )
    unlinked = []
    for _, kind, body in events:
        target = body.rpartition("<")[2].rstrip(">") if kind == "link" else body
        name = _name(target.lstrip("~"))
        if kind == "link":
            linked.add(name)
        elif not body.startswith(FOREIGN) and name in names and name not in linked:
            unlinked.append(body)
            linked.add(name)  # report each name once
    assert unlinked == []
