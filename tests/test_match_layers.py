"""The engine client and the match runner as packages by layer (issue 26): no import cycle
among their modules at run time, and none over 1,000 lines.

Read from the source: every module-level relative import (outside ``if TYPE_CHECKING:``)
and every import inside a function, since a lazy import hides a cycle without removing it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import xiangqi

PACKAGE = Path(xiangqi.__file__).parent
LAYERS = ("engine", "match")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The xiangqi modules path imports (relative imports, resolved)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    todo: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while todo:  # ast.walk, but not into `if TYPE_CHECKING:` (type-only imports are fine)
        node = todo.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            todo += node.orelse
            continue
        todo += ast.iter_child_nodes(node)
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            target = ".".join([*base, *([node.module] if node.module else [])])
            found.add(target)
    return found


def test_no_import_cycle_in_the_engine_and_match_packages() -> None:
    graph = {
        _module_name(path): _imports(path)
        for layer in LAYERS
        for path in sorted((PACKAGE / layer).glob("*.py"))
    }
    assert {"xiangqi.engine.protocol", "xiangqi.match.runner"} <= set(graph)
    state: dict[str, int] = {}

    def visit(module: str, trail: list[str]) -> None:
        if state.get(module) == 2 or module not in graph:
            return
        assert state.get(module) != 1, "import cycle: " + " -> ".join([*trail, module])
        state[module] = 1
        for target in sorted(graph[module]):
            if target != module and not module.startswith(target + "."):  # a package's own
                visit(target, [*trail, module])
        state[module] = 2

    for module in graph:
        visit(module, [])


def test_no_module_of_the_engine_and_match_packages_is_over_1000_lines() -> None:
    sizes = {
        path.name: len(path.read_text(encoding="utf-8").splitlines())
        for layer in LAYERS
        for path in (PACKAGE / layer).glob("*.py")
    }
    assert len(sizes) >= 10 and max(sizes.values()) <= 1000, sizes
