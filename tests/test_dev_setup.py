"""The development page's set-up (docs/development.md) passes its own gates: every
third-party module the library imports (at the top or lazily) is either installed by the
extras that set-up installs or told to mypy as possibly missing, so `mypy --strict xiangqi`
does not fail on a machine without an optional extra (Ray was such a module)."""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "xiangqi"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _set_up_extras() -> set[str]:
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    match = re.search(r'pip install -e "\.\[([\w,]+)\]"', text)
    assert match, 'docs/development.md has no `pip install -e ".[...]"` line'
    return set(match.group(1).split(","))


def _installed_distributions(pyproject: dict[str, object]) -> set[str]:
    """The distributions the set-up's extras require, following self-references."""
    project = pyproject["project"]
    assert isinstance(project, dict)
    extras: dict[str, list[str]] = project["optional-dependencies"]
    wanted = list(_set_up_extras())
    seen: set[str] = set()
    dists = {_normal(re.split(r"[<>=!~;\[ ]", d)[0]) for d in project.get("dependencies", [])}
    while wanted:
        extra = wanted.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for requirement in extras[extra]:
            name = re.split(r"[<>=!~;\[ ]", requirement)[0]
            if _normal(name) == _normal(project["name"]):
                wanted += re.search(r"\[([\w,]+)\]", requirement).group(1).split(",")  # type: ignore[union-attr]
            else:
                dists.add(_normal(name))
    return dists


def _mypy_may_miss(pyproject: dict[str, object]) -> list[str]:
    tool = pyproject["tool"]
    assert isinstance(tool, dict)
    patterns: list[str] = []
    for override in tool["mypy"].get("overrides", []):
        if override.get("ignore_missing_imports"):
            modules = override["module"]
            patterns += [modules] if isinstance(modules, str) else modules
    return patterns


def _imported_modules() -> set[str]:
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"xiangqi", "__future__"}


def test_every_import_is_installed_by_the_set_up_or_may_be_missing_for_mypy() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    installed = _installed_distributions(pyproject)
    may_miss = _mypy_may_miss(pyproject)
    owners = packages_distributions()
    for module in sorted(_imported_modules()):
        if module in may_miss or f"{module}.*" in may_miss:
            continue
        dists = {_normal(d) for d in owners.get(module, [])}
        if not dists:
            pytest.skip(f"{module} is not installed here, so its distribution is unknown")
        assert dists & installed, (
            f"xiangqi imports {module} ({sorted(dists)}), which docs/development.md's set-up "
            "does not install and mypy is not told may be missing"
        )
