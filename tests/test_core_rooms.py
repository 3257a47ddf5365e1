"""The map of the compiled core's rooms (the "Rooms" comment at the top of
xiangqi/_core.pxd) names exactly the files in xiangqi/core/*.pxd: a room added without
its line, or a line left for a room that is gone, fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import xiangqi

PACKAGE = Path(xiangqi.__file__).parent
CORE_PXD = PACKAGE / "_core.pxd"

# One entry of the map: "#   core/<name>.pxd   <what it holds>".
ENTRY = re.compile(r"^#\s+core/(\w+)\.pxd\s+\S")


def _room_map() -> tuple[list[str], str]:
    """The rooms the map lists (in order) and the map's whole text."""
    if not CORE_PXD.exists():
        pytest.skip("the .pxd sources are not installed with this xiangqi")
    lines = CORE_PXD.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# Rooms"))
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "#")
    block = lines[start:end]
    return [m.group(1) for line in block if (m := ENTRY.match(line))], "\n".join(block)


def _rooms_on_disk() -> set[str]:
    # __init__.pxd only makes xiangqi/core a package for cimport; it holds no code.
    return {p.stem for p in (PACKAGE / "core").glob("*.pxd")} - {"__init__"}


def test_every_room_has_a_line_in_the_map() -> None:
    listed, _ = _room_map()
    missing = _rooms_on_disk() - set(listed)
    assert not missing, f"rooms missing from _core.pxd's map: {sorted(missing)}"


def test_the_map_names_no_missing_room() -> None:
    listed, text = _room_map()
    named = set(listed) | set(re.findall(r"core/(\w+)\.pxd", text))
    gone = named - _rooms_on_disk()
    assert not gone, f"_core.pxd's map names rooms that do not exist: {sorted(gone)}"


def test_each_room_is_listed_once() -> None:
    listed, _ = _room_map()
    assert len(listed) == len(set(listed)), listed


def test_no_existing_room_is_called_free() -> None:
    # The map once called core/rl.pxd a name "kept free" while the room existed.
    _, text = _room_map()
    for match in re.finditer(r"kept free[^\n]*", text):
        rooms = set(re.findall(r"core/(\w+)\.pxd", match.group(0)))
        assert not rooms & _rooms_on_disk(), match.group(0)
