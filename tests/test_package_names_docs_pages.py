"""What the installed package prints or documents names the docs site's pages, never a
source path: an installed user has no docs/ folder."""

from __future__ import annotations

import re
from pathlib import Path

import xiangqi
from xiangqi.match import distributed

SITE = "https://xiangqi-rules.readthedocs.io/en/latest/"
PACKAGE = Path(xiangqi.__file__).resolve().parent


def test_no_module_names_a_docs_source_file() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bdocs/[\w-]+\.md\b", line)
    ]
    assert found == []


def test_the_ray_errors_name_the_distributed_page() -> None:
    page = SITE + "distributed.html"
    refused = distributed.connection_error("10.0.0.1:6379", RuntimeError("connection refused"))
    assert str(refused).endswith(f"(see {page})")
    assert str(refused).count("docs/") == 0
    assert distributed.AUTHENTICATION_HINT.endswith(f"(see {page})")


def test_the_docstrings_name_the_site_pages() -> None:
    assert SITE + "mates.html" in " ".join((xiangqi.Position.find_mate.__doc__ or "").split())
    assert SITE + "game-end.html" in (xiangqi.rules.__doc__ or "")
