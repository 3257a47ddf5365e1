"""Check the annotated build: the hot C routines must not touch Python objects.

Run after `XIANGQI_ANNOTATE=1 python setup.py build_ext --inplace`, which writes
xiangqi/_core.html. Prints, per function, how many lines Cython marks as
interacting with Python, and exits 1 if any hot routine has such a line.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

HOT = {
    "generate_pseudo",
    "generate_pseudo_book",
    "knight_move",
    "king_move",
    "advisor_move",
    "bishop_move",
    "rook_move",
    "cannon_move",
    "pawn_move",
    "save_move",
    "make_move",
    "unmake_move",
    "book_check",
    "in_check",
    "line_attacked",
    "move_exposes",
    "toward",
    "mark_threats",
    "is_legal_pseudo",
    "generate_legal_moves",
    "count_legal_moves",
    "generate_legal_book",
    "perft_nodes",
    "perft_full",
    "perft_book",
    "legal_move_ee",
    "fill_batch",
    "is_piece",
    "clear_board",
    "may_stand",
}


def main() -> int:
    page = Path(__file__).resolve().parent.parent / "xiangqi" / "_core.html"
    text = page.read_text(encoding="utf-8")
    rows = re.findall(r'<pre class="cython line score-(\d+)"[^>]*>(.*?)</pre>', text, re.S)
    current = "(module)"
    counts: dict[str, int] = {}
    seen: set[str] = set()
    for score, body in rows:
        line = html.unescape(re.sub("<[^>]+>", "", body))
        m = re.match(r"\s*\+?\d+:\s(\s*)(?:cdef|def|cpdef)\s[^(]*?(\w+)\(", line)
        if m and len(m.group(1)) <= 4:
            current = m.group(2)
            seen.add(current)
        if int(score) > 0:
            counts[current] = counts.get(current, 0) + 1
    bad = sorted(name for name in HOT if counts.get(name))
    missing = sorted(HOT - seen)
    for name in sorted(HOT & seen):
        print(f"{name:24s} {counts.get(name, 0)} lines touching Python")
    if missing:
        print("not found in the annotation:", ", ".join(missing))
    if bad:
        print("FAIL: hot routines touch Python:", ", ".join(bad))
        return 1
    print("OK: no hot routine touches Python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
