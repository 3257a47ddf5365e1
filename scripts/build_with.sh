#!/usr/bin/env bash
# Build the core with another C compiler and run the default test suite against that build.
#
# The build happens in a throwaway copy of the tree (scripts/copy_tree.sh), so the normal
# in-place build is not touched. The script checks that the extension it imports was
# compiled by the compiler asked for (the compiler's identification string in the binary's
# .comment section).
#
# Usage: scripts/build_with.sh COMPILER [extra pytest arguments]    e.g. build_with.sh clang
# Needs: python with Cython, setuptools, pytest and the test extras; the compiler.
set -euo pipefail

cc=${1:?usage: build_with.sh COMPILER [pytest arguments]}
shift
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/xiangqi-$cc.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
bash "$repo/scripts/copy_tree.sh" "$work/repo"
if [ -d "$repo/../shared" ]; then
    ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
fi

echo "== building the core with $cc ($("$cc" --version | head -1))"
cd "$work/repo"
CC=$cc LDSHARED="$cc -shared" python setup.py --quiet build_ext --inplace --force \
    >"$work/build.log" 2>&1 || {
    cat "$work/build.log"
    exit 1
}
# The compiler's name in its identification string: "clang version", "GCC: (...)".
case "$cc" in *clang*) ident="clang version" ;; *gcc*) ident="GCC:" ;; *) ident="$cc" ;; esac
python - "$work/repo" "$ident" <<'PY'
import pathlib, sys, xiangqi._core as core
root, ident = sys.argv[1], sys.argv[2]
for module in (core,):
    path = pathlib.Path(module.__file__)
    assert str(path).startswith(root), f"imported {path}, not the {ident} build"
    comment = path.read_bytes()
    assert ident.encode() in comment, f"{path.name} does not say it was built by {ident}"
    print("imported", path)
PY

echo "== python -m pytest -q -p no:cacheprovider $* (the $cc build)"
set +e
python -m pytest -q -p no:cacheprovider "$@"
status=$?
set -e
echo "== build_with.sh $cc finished in $(($(date +%s) - start)) s with status $status"
exit "$status"
