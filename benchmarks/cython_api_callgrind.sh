#!/usr/bin/env bash
# Instruction counts (callgrind) of perft through the Cython API (the example engine's
# perft) and of the library's own bulk perft, same positions and depths: a ratio that
# does not depend on a quiet machine (benchmarks/cython_api_perft.py times the same).
#
#     bash benchmarks/cython_api_callgrind.sh [PYTHON]
#
# PYTHON: an interpreter whose environment has xiangqi and the example engine installed
# (default: python). Each figure is the instructions of a run doing the work minus a run
# that only imports and sets up the board (interpreter start-up cancels out). Needs valgrind.
set -euo pipefail
py=$("${1:-python}" -c 'import sys; print(sys.executable)')
script=$(mktemp)
trap 'rm -f "$script"' EXIT
cat >"$script" <<'PY'
import sys
import xiangqi
import xiangqi_example_engine as example
what, fen, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
pos = xiangqi.Position(fen)
example.perft(fen, 0)
if what == "api":
    example.perft(fen, depth)
elif what == "library":
    xiangqi.perft(pos, depth)
PY
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$py" "$script" "$@" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-10s %-6s %14s %14s %7s\n' position depth "API instr" "library instr" ratio
while read -r name depth fen; do
    base=$(count none "$fen" "$depth")
    api=$(( $(count api "$fen" "$depth") - base ))
    lib=$(( $(count library "$fen" "$depth") - base ))
    printf '%-10s %-6s %14d %14d %7.3f\n' "$name" "$depth" "$api" "$lib" \
        "$(echo "$lib / $api" | bc -l)"
done <<'CASES'
start 4 rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1
cpw_pos2 4 r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1
cpw_pos4 4 5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1
cpw_pos5 4 CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1
CASES
