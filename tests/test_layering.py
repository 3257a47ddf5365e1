"""Dependencies point down: Position never imports text, pictures or records at module level.

STYLE.md: pictures, notation and records use Position; Position does not import them at
module level (a thin convenience method that imports lazily is fine; a type import goes
under TYPE_CHECKING). Checked two ways: on the source (module-level import statements)
and at run time (a fresh interpreter importing xiangqi loads none of them).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import xiangqi

PACKAGE = Path(xiangqi.__file__).parent
#: What position.py may import at module level: the core and the value modules below it.
BELOW_POSITION = {"_core", "errors", "fen", "move", "pieces", "rules", "squares"}
ABOVE_POSITION = {
    "notation",
    "display",
    "svg",
    "pgn",
    "records",
    "engine",
    "match",
    "stats",
}


def runtime_imports(module: str) -> set[str]:
    """Sibling modules imported at module level, outside `if TYPE_CHECKING:` blocks."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_position_imports_only_what_lies_below_it() -> None:
    assert runtime_imports("position") <= BELOW_POSITION


def test_text_and_pictures_import_position_only_for_types() -> None:
    for module in ("notation", "display", "svg"):
        assert "position" not in runtime_imports(module), module


def test_importing_xiangqi_loads_no_text_or_picture_module() -> None:
    code = "import sys, xiangqi; print(' '.join(sorted(sys.modules)))"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    loaded = set(out.stdout.split())
    assert "xiangqi.position" in loaded
    assert not {f"xiangqi.{m}" for m in ABOVE_POSITION} & loaded


def test_the_lazy_conveniences_still_work() -> None:
    pos = xiangqi.Position()
    move = xiangqi.Move.from_iccs("h2e2")
    assert pos.wxf(move) == "C2.5"  # WXF: cannon on file 2 (Red counts from the right) to 5
    assert pos.chinese(move) == "炮二平五"
    assert pos.parse_wxf("C2.5") == move
    assert "帅" in pos.unicode()
    assert pos._repr_svg_().startswith("<svg")
    assert str(pos).count("\n") >= 9
