#!/usr/bin/env bash
# Build the core with AddressSanitizer + UBSan and run the whole test suite against that build.
#
# The build happens in a throwaway copy of the tree (tracked files plus untracked, not ignored
# ones), so the normal in-place build that everyone else uses is never touched. CPython is not
# built with ASan, so the ASan runtime is preloaded; leak detection is off because CPython's own
# allocations at exit are noise. pytest runs with --capture=sys so that sanitizer reports
# reach the terminal (and a log that is searched afterwards); any report fails the script.
# CPython keeps its small-object allocator (pymalloc); run with PYTHONMALLOC=malloc to put
# ASan redzones around every Python object too (about 3x slower).
#
# Usage: scripts/sanitize.sh [extra pytest arguments, e.g. -m slow or tests/test_perft.py]
# Needs: python with Cython, setuptools, pytest and the test extras; gcc (or CC) with libasan.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/xiangqi-sanitize.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

echo "== copying the tree to $work/repo"
bash "$repo/scripts/copy_tree.sh" "$work/repo"
# Some tests read the design notes in ../shared, which sits beside the repo when present.
if [ -d "$repo/../shared" ]; then
    ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
fi

echo "== building xiangqi._core with -fsanitize=address,undefined"
cd "$work/repo"
XIANGQI_SANITIZE=1 python setup.py --quiet build_ext --inplace --force >"$work/build.log" 2>&1 || {
    cat "$work/build.log"
    exit 1
}

cc=${CC:-gcc}
asan_lib=$("$cc" -print-file-name=libasan.so)
if [ ! -e "$asan_lib" ]; then
    echo "error: $cc does not know libasan.so (got '$asan_lib'); install the ASan runtime" >&2
    exit 1
fi

export LD_PRELOAD="$asan_lib"
export ASAN_OPTIONS="detect_leaks=0:exitcode=86"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=86"
export PYTHONDONTWRITEBYTECODE=1

echo "== checking that the sanitized build is the one imported"
python - "$work/repo" <<'PY'
import sys, xiangqi._core as core
assert core.__file__.startswith(sys.argv[1]), f"imported {core.__file__}, not the sanitized build"
print("imported", core.__file__)
PY

echo "== python -m pytest -q -p no:cacheprovider $* (under ASan + UBSan)"
# --capture=sys leaves file descriptor 2 alone, so a report the sanitizer writes there just
# before it stops the process is not swallowed by pytest's capture (GCC's UBSan ignores
# log_path, so stderr is the only place its reports go).
set +e
python -m pytest -q -p no:cacheprovider --capture=sys --durations=10 "$@" 2>&1 |
    tee "$work/pytest.log"
status=${PIPESTATUS[0]}
set -e
pattern='runtime error:|ERROR: AddressSanitizer|SUMMARY: [A-Za-z]+Sanitizer'
if grep -Eq "$pattern" "$work/pytest.log"; then
    echo "== sanitizer reports (first lines):" >&2
    grep -E -A4 "$pattern" "$work/pytest.log" | head -40 >&2
    if [ "$status" -eq 0 ]; then status=86; fi
fi
echo "== sanitize.sh finished in $(($(date +%s) - start)) s with status $status"
exit "$status"
