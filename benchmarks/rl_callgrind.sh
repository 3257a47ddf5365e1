#!/usr/bin/env bash
# Instructions (callgrind) per VectorEnv(1024) step, sample_legal included, for
# before/after comparisons that do not depend on a quiet machine.
#
#     bash benchmarks/rl_callgrind.sh [TREE] [STEPS]   # TREE: a checkout with a built core
#
# Counts a run of 20 + STEPS (default 300) random-play steps of 1,024 games and a run of
# the 20 warm-up steps alone; the difference over STEPS * 1,024 is the figure, so start-up,
# imports and the first plies cancel out. PYTHONHASHSEED is fixed so both runs do the
# same interpreter work. Needs valgrind.
set -euo pipefail
tree=$(cd "${1:-$(dirname "$0")/..}" && pwd)
steps=${2:-300}
# The interpreter itself: valgrind would otherwise trace a launcher script (pyenv's shim).
py=$(python -c 'import sys; print(sys.executable)')
script=$(mktemp)
trap 'rm -f "$script"' EXIT
cat >"$script" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from xiangqi import rl
env = rl.VectorEnv(1024, seed=1)
env.reset()
actions = np.empty(1024, dtype=np.int64)
for _ in range(20 + int(sys.argv[2])):
    env.sample_legal(actions)
    env.step(actions)
PY
count() {
    PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$py" "$script" "$tree" "$1" 2>&1 | awk '/refs:/ {gsub(",", "", $NF); print $NF}'
}
base=$(count 0)
total=$(count "$steps")
if [ -z "$base" ] || [ -z "$total" ]; then
    echo "valgrind gave no count: is $py able to import numpy and $tree/xiangqi?" >&2
    exit 1
fi
echo "core: $tree"
echo "VectorEnv(1024) step + sample_legal: $(((total - base) / (steps * 1024))) instructions per env step"
