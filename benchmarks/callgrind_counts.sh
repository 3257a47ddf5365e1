#!/usr/bin/env bash
# Instruction counts (callgrind) of perft and the API calls, for before/after comparisons
# that do not depend on a quiet machine.
#
#     bash benchmarks/callgrind_counts.sh [TREE]    # TREE: a checkout with a built core (default: this one)
#
# Each figure is the instructions of a run doing the work minus a run that only imports
# and sets up, so interpreter start-up cancels out. Needs valgrind.
set -euo pipefail
tree=$(cd "${1:-$(dirname "$0")/..}" && pwd)
bench=$(cd "$(dirname "$0")" && pwd)
# The interpreter itself: valgrind would otherwise trace a launcher script (pyenv's shim)
# and count nothing.
py=$(python -c 'import sys; print(sys.executable)')
script=$(mktemp)
trap 'rm -f "$script"' EXIT
cat >"$script" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import xiangqi
from positions import RANDOM_MIDGAME_FENS
mids = [xiangqi.Position(f) for f in RANDOM_MIDGAME_FENS]
pos = xiangqi.Position()
move = xiangqi.Move.from_iccs("h2e2")
work = [(p, sorted(p.legal_moves())[0]) for p in mids]  # as benchmarks/game_end.py
what = sys.argv[3]


def pairs(ruled):  # in a function, as timeit runs it: the loop's names are locals
    for _ in range(200):
        for p, m in work:
            p.push(m)
            if ruled:
                p.outcome()
            p.pop()


def pairs_chinese():  # as pairs(True), judged by the Chinese rules
    for _ in range(200):
        for p, m in work:
            p.push(m)
            p.outcome(rules="chinese")
            p.pop()


if what == "perft(4)":
    pos.perft(4)
elif what == "perft(4, bulk=False)":
    pos.perft(4, bulk=False)
elif what == "divide(4)":
    pos.divide(4)
elif what == "generate_legal x 10,000":
    for _ in range(200):
        for p in mids:
            xiangqi.generate_legal(p)
elif what == "pos.legal_moves() x 10,000":
    for _ in range(200):
        for p in mids:
            p.legal_moves()
elif what == "len(pos.legal_moves) x 10,000":
    for _ in range(200):
        for p in mids:
            len(p.legal_moves)
elif what == "middlegame push+pop x 10,000":
    pairs(False)
elif what == "middlegame push+outcome+pop x 10,000":
    pairs(True)
elif what == "middlegame push+outcome(chinese)+pop x 10,000":
    pairs_chinese()
elif what == "push+pop x 20,000":
    for _ in range(20000):
        pos.push(move)
        pos.pop()
elif what == "Position(fen) x 2,000":
    for _ in range(40):
        for f in RANDOM_MIDGAME_FENS:
            xiangqi.Position(f)
elif what == "legal_moves_batch, 20,000 boards":
    xiangqi.legal_moves_batch(mids * 400)
PY
count() {
    # A fixed hash seed: string hashing otherwise moves dict probes, and the Python-level
    # figures, by up to 7% from run to run.
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$py" "$script" "$tree" "$bench" "$1" 2>&1 |
        awk '/refs:/ {gsub(",", "", $NF); print $NF}'
}
base=$(count setup-only)
echo "core: $tree"
for what in "perft(4)" "perft(4, bulk=False)" "divide(4)" "generate_legal x 10,000" \
    "pos.legal_moves() x 10,000" "len(pos.legal_moves) x 10,000" "push+pop x 20,000" \
    "middlegame push+pop x 10,000" "middlegame push+outcome+pop x 10,000" \
    "middlegame push+outcome(chinese)+pop x 10,000" \
    "Position(fen) x 2,000" "legal_moves_batch, 20,000 boards"; do
    printf '%-46s %15d instructions\n' "$what" $(($(count "$what") - base))
done
