"""List the underscore names that cross a module boundary inside the xiangqi package.

An underscore name (``_name``, not a dunder) is a module's own business. When another
module of the package takes it (``from .reader import _parse``, ``from . import runner``
then ``runner._Runner``), the two modules share an internal without saying so: the seam
is in the wrong place. Shared internals belong in one internal module (as ``pgn/_base.py``)
under names without an underscore, or become public within the package.

A module whose own name starts with ``_`` (``_files.py``, ``pgn/_base.py``) is internal
by design: importing its names without an underscore does not count here.

Usage: ``python scripts/underscore_imports.py [--count]``: one line per (importer, source)
group, ``importer <- source: _a, _b``, then the total; ``--count`` prints only the total.
tests/test_layering.py runs :func:`crossings` and compares it with an allowlist.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "xiangqi"


def is_private(name: str) -> bool:
    """``_name`` but not ``__dunder__``."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The absolute module an ``from ... import`` statement reads from."""
    if not node.level:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _uses(
    tree: ast.AST, importer: str, is_package: bool, modules: set[str]
) -> Iterator[tuple[str, str]]:
    """(source module, underscore name) for every underscore name this module takes."""
    aliases: dict[str, str] = {}  # local name -> a package module bound to it
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _resolve(node, importer, is_package)
            root = importer.split(".")[0]
            if source != root and not source.startswith(root + "."):
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full in modules:  # "from . import runner": a module, not a name
                    aliases[alias.asname or alias.name] = full
                elif is_private(alias.name) and source != importer:
                    yield source, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules and alias.asname:
                    aliases[alias.asname] = alias.name
    if not aliases:
        return
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and is_private(node.attr)
        ):
            source = aliases[node.value.id]
            if source != importer and f"{source}.{node.attr}" not in modules:
                yield source, node.attr


def crossings(package: Path = PACKAGE) -> dict[tuple[str, str], list[str]]:
    """(importer, source) -> the sorted underscore names the importer takes from source."""
    paths = {module_name(p, package): p for p in package.rglob("*.py")}
    modules = set(paths)
    modules.update(f"{package.name}.{p.name.split('.')[0]}" for p in package.glob("_core*.so"))
    found: dict[tuple[str, str], set[str]] = {}
    for importer, path in sorted(paths.items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for source, name in _uses(tree, importer, is_package, modules):
            found.setdefault((importer, source), set()).add(name)
    return {key: sorted(names) for key, names in sorted(found.items())}


def main(argv: list[str]) -> int:
    found = crossings()
    total = sum(len(names) for names in found.values())
    if "--count" not in argv:
        for (importer, source), names in found.items():
            print(f"{importer} <- {source}: {', '.join(names)}")
    print(f"{total} underscore names in {len(found)} (importer, source) pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
