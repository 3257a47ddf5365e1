"""Check the annotated build: the hot C routines must not touch Python objects.

Run after `XIANGQI_ANNOTATE=1 python setup.py build_ext --inplace`, which writes
xiangqi/_core.c and xiangqi/_core.html. Cython's HTML annotates only _core.pyx, but
the routines live in the rooms (xiangqi/core/*.pxd), inlined into the same C file
(as is the RL boundary, xiangqi/_rl.pxi, which _core.pyx includes).
So this script reads the generated C instead: for every cdef function of the rooms
and of _core.pyx it takes the function's C body and counts the calls into the
Python C API (Py*, _Py*, __Pyx_* and Cython's error and refcount macros), which is
what the HTML's yellow lines mark. It prints the count per function and exits 1 if
a hot routine has any, or if a hot routine is missing from the C file (renamed
without updating this list).

Allowed on purpose:
- perft.poll_signals takes the GIL to run signal handlers (Ctrl-C); it is the one
  door from the counting loop to Python and is called every 32,768 generator calls.
- The book's reference routines take typed memoryviews; passing a view to a function
  adjusts its acquisition count (__PYX_INC_MEMVIEW / __PYX_XCLEAR_MEMVIEW), an atomic
  integer, not a Python object. Those are reported but not counted as failures.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

#: Hot routines by room (module name in the C name) that must not call Python.
HOT: dict[str, set[str]] = {
    "state": {"clear_board", "make_move", "unmake_move"},
    "reference": {
        "save_move",
        "knight_move",
        "king_move",
        "advisor_move",
        "bishop_move",
        "rook_move",
        "cannon_move",
        "pawn_move",
        "generate_pseudo_book",
        "book_check",
        "generate_legal_book",
        "perft_book",
    },
    "movegen": {
        "is_piece",
        "generate_pseudo",
        "line_attacked",
        "in_check",
        "toward",
        "lines_changed_attack",
        "move_exposes",
        "move_checks",
        "mark_threats",
        "threat_map",
        "is_legal_pseudo",
        "evasion_squares",
        "evasion_legal",
        "evasion_filter",
        "legal_filter",
        "generate_legal_moves",
        "count_legal_moves",
    },
    "validator": {"legal_move_ee"},
    "perft": {"count_below", "play_leaves", "perft"},
    "history": {"push_ply"},
    "judge": {"has_legal_move", "board_verdict", "scan_window", "replay_span", "capture_legal"},
    "chase": {"judge_repetition", "chased_now"},
    "chinese": {"cxa_judge", "cxa_outcome_code"},
    "asian": {"outcome_code"},
    "zobrist": {"key_after_move"},
    "eleeye_key": {"eleeye_locks"},
    "mate": {
        "tt_entry",
        "tt_store",
        "occurrences",
        "perpetual_check",
        "judge_return",
        "move_rule_at",
        "rule_bound",
        "gives_check",
        "grown_table",
        "grow_table",
        "grow_tables",
        "tick",
        "count_replies",
        "sort_moves",
        "score_moves",
        "solve",
    },
    "dfpn": {
        "depth_salt",
        "add_numbers",
        "child_numbers",
        "threshold_next",
        "mid",
        "dfpn",
        "play_on_line",
        "mate_line",
        "mate_search",
        "mate_within",
        "dfpn_mate_search",
    },
    "rl": {
        "judge_end",
        "legal_actions",
        "mark_legal_actions",
        "write_piece_planes",
        "move_piece_planes",
        "write_counter_planes",
    },
    # _core.pyx and the RL boundary it includes (_rl.pxi): one C file since one extension.
    "_core": {
        "fill_batch",
        "gather",
        "encode_one",
        "10VectorCore_step_one",
        "10VectorCore_reset_one",
        "10VectorCore_refresh_legal",
        "10VectorCore_write_planes",
        "10VectorCore_copy_actions",
        "10VectorCore_is_legal_action",
    },
}
#: Routines allowed to call Python (see the module docstring).
ALLOWED = {("perft", "poll_signals")}

PYTHON_CALL = re.compile(r"\b(?:Py[A-Z]\w*|_Py\w+|__Pyx_\w+|__PYX_ERR|__Pyx_RefNanny\w*)\s*\(")
MEMVIEW_REFCOUNT = re.compile(r"\b(?:__PYX_INC_MEMVIEW|__PYX_XCLEAR_MEMVIEW)\b")
HARMLESS = {"__Pyx_pretend_to_initialize(", "__Pyx_TraceDeclarations("}
DEFINITION = re.compile(
    r"^static (?:CYTHON_INLINE )?[\w ]+?\*?\s*__pyx_f_7xiangqi_"
    r"(?:4core_(?P<length>\d+)|5_core_)(?P<name>\w+)\((?P<args>[^;]*)\)\s*\{$"
)


def functions(c_text: str) -> dict[tuple[str, str], list[str]]:
    """(room, function) -> the code lines of its C body (Cython's source comments dropped)."""
    out: dict[tuple[str, str], list[str]] = {}
    lines = c_text.splitlines()
    i = 0
    while i < len(lines):
        m = DEFINITION.match(lines[i])
        if not m:
            i += 1
            continue
        # Cython prefixes a room's name with its length (4core_10eleeye_key_...), so a
        # room whose name holds an underscore is split where that length says.
        name = m["name"]
        if m["length"] is None:
            room = "_core"
        else:
            size = int(m["length"])
            room, name = name[:size], name[size + 1 :]
        body: list[str] = []
        i += 1
        in_comment = False
        while i < len(lines) and lines[i] != "}":
            line = lines[i]
            if in_comment:
                in_comment = "*/" not in line
            elif line.lstrip().startswith("/*"):
                in_comment = "*/" not in line
            else:
                body.append(line)
            i += 1
        out[(room, name)] = body
    return out


def main() -> int:
    root = Path(__file__).resolve().parent.parent / "xiangqi"
    if not (root / "_core.html").exists():
        print("no xiangqi/_core.html: build with XIANGQI_ANNOTATE=1 first")
        return 1
    bodies = functions((root / "_core.c").read_text(encoding="utf-8"))
    failed = []
    missing = []
    for room, names in sorted(HOT.items()):
        for name in sorted(names):
            body = bodies.get((room, name))
            if body is None:
                missing.append(f"{room}.{name}")
                continue
            calls = [
                c for line in body for c in PYTHON_CALL.findall(line) if c.strip() not in HARMLESS
            ]
            views = sum(len(MEMVIEW_REFCOUNT.findall(line)) for line in body)
            note = f" ({views} memoryview acquisitions)" if views else ""
            print(f"{room + '.' + name:32s} {len(calls)} Python C-API calls{note}")
            if calls and (room, name) not in ALLOWED:
                failed.append(f"{room}.{name}: {sorted(set(calls))}")
    for room, name in sorted(ALLOWED):
        print(f"{room + '.' + name:32s} allowed to take the GIL (signal handlers)")
    if missing:
        print("FAIL: not found in the generated C:", ", ".join(missing))
    if failed:
        print("FAIL: hot routines touch Python:")
        for line in failed:
            print("   ", line)
    if missing or failed:
        return 1
    print("OK: no hot routine touches Python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
