#!/usr/bin/env bash
# Coverage-guided fuzzing with atheris (libFuzzer), one target after the other:
#   position  fuzz/fuzz_position.py: Position, moves and the core boundary
#             (corpus fuzz/corpus/, seeds fuzz/seeds/)
#   records   fuzz/fuzz_records.py: PGN text and files, move notation, FEN text, XQF files
#             (corpus fuzz/corpus_records/, seeds fuzz/seeds_records/)
#   engine    fuzz/fuzz_engine.py: the engine client's line parsers (info, option, id,
#             bestmove in every dialect); corpus fuzz/corpus_engine/, seeds fuzz/seeds_engine/
#   roundtrip fuzz/fuzz_roundtrip.py: random game trees (null moves, variations, comments, NAGs,
#             odd tags) through every writer (PGN in four notations, XQF, DhtmlXQ) and back
#             (corpus fuzz/corpus_roundtrip/, seeds fuzz/seeds_roundtrip/)
#   convert   fuzz/fuzz_convert.py: `xiangqi convert` under hostile paths (output = input, links,
#             directories, odd names, unreadable input); no file lost, one error line
#             (corpus fuzz/corpus_convert/, seeds fuzz/seeds_convert/)
#   book      fuzz/fuzz_book.py: the opening-book readers (ElephantEye .dat, through a pipe too,
#             and damaged SQLite books): BookError or legal entries, nothing else
#             (corpus build/fuzz/corpus_book/, seeds fuzz/seeds_book/)
#   puzzles   fuzz/fuzz_puzzles.py: the puzzle readers (JSON Lines, CSV, game records) and verify
#             (corpus build/fuzz/corpus_puzzles/, seeds fuzz/seeds_puzzles/)
# Corpora are git-ignored; crash inputs go to build/fuzz/. Replay one with:
# python fuzz/fuzz_<target>.py FILE
#
# Usage: scripts/fuzz.sh [libFuzzer options]   (default -max_total_time=60 per target: the CI run)
#   Long run:   FUZZ_NATIVE=ubsan scripts/fuzz.sh -max_total_time=3600
#   One target: FUZZ_TARGETS=records scripts/fuzz.sh
#
# FUZZ_NATIVE picks what coverage guides the search:
#   (unset)  the Python layer (atheris instruments xiangqi/*.py); the core is the normal build.
#   ubsan    also the compiled core: it is rebuilt with clang -fsanitize=undefined,fuzzer-no-link
#            in a temporary copy of the tree, and atheris's ubsan_with_fuzzer.so is preloaded.
#   asan     the same with AddressSanitizer as well (about 5x slower than ubsan).
# Native modes need clang (apt-get install clang). atheris is pip-installed when missing.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
start=$(date +%s)

if ! python -c "import atheris" 2>/dev/null; then
    echo "== installing atheris"
    python -m pip install --quiet atheris
fi
mkdir -p fuzz/corpus fuzz/corpus_records fuzz/corpus_engine fuzz/corpus_roundtrip fuzz/corpus_convert \
    build/fuzz build/fuzz/corpus_puzzles build/fuzz/corpus_book

args=("$@")
if [ ${#args[@]} -eq 0 ]; then
    args=(-max_total_time=60)
fi
options=(-max_len=2048 -timeout=60 -rss_limit_mb=8192 -artifact_prefix=build/fuzz/
    -print_final_stats=1)

native=${FUZZ_NATIVE:-}
case "$native" in
"")
    python -c "import xiangqi._core" || {
        echo "error: build the core first: python setup.py build_ext --inplace" >&2
        exit 1
    }
    ;;
ubsan | asan)
    command -v clang >/dev/null || {
        echo "error: FUZZ_NATIVE=$native needs clang" >&2
        exit 1
    }
    work=$(mktemp -d "${TMPDIR:-/tmp}/xiangqi-fuzz.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
        tar --null -T - -cf - | tar -xf - -C "$work"
    sanitizers=undefined
    [ "$native" = asan ] && sanitizers=address,undefined
    # clang's pointer-overflow check fires on Cython's own argument boilerplate
    # (args + nargs with args == NULL for a call without arguments), not on our code.
    flags="-fsanitize=$sanitizers,fuzzer-no-link -fno-sanitize=pointer-overflow"
    flags="$flags -fno-omit-frame-pointer -g"
    echo "== building xiangqi._core with clang $flags in $work"
    (cd "$work" && CC=clang LDSHARED="clang -shared" CFLAGS="$flags" LDFLAGS="$flags" \
        python setup.py --quiet build_ext --inplace --force >"$work/build.log" 2>&1) || {
        cat "$work/build.log"
        exit 1
    }
    lib=$(python -c "import atheris; print(atheris.path())")/${native}_with_fuzzer.so
    [ -e "$lib" ] || {
        echo "error: atheris has no $lib; build atheris from source with clang" >&2
        exit 1
    }
    export PYTHONPATH="$work${PYTHONPATH:+:$PYTHONPATH}"
    export LD_PRELOAD="$lib"
    export ASAN_OPTIONS="detect_leaks=0:quarantine_size_mb=64"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    # From another directory: python -c puts the current one (the repo) first on sys.path.
    (cd / && python -c "import sys, xiangqi._core as c
assert c.__file__.startswith(sys.argv[1]), c.__file__; print('fuzzing', c.__file__)" "$work")
    ;;
*)
    echo "error: FUZZ_NATIVE must be empty, ubsan or asan, got '$native'" >&2
    exit 1
    ;;
esac

status=0
for target in ${FUZZ_TARGETS:-position records engine roundtrip convert puzzles book}; do
    case "$target" in
    position) dirs=(fuzz/corpus fuzz/seeds) ;;
    records) dirs=(fuzz/corpus_records fuzz/seeds_records) ;;
    engine) dirs=(fuzz/corpus_engine fuzz/seeds_engine) ;;
    roundtrip) dirs=(fuzz/corpus_roundtrip fuzz/seeds_roundtrip) ;;
    convert) dirs=(fuzz/corpus_convert fuzz/seeds_convert) ;;
    book) dirs=(build/fuzz/corpus_book fuzz/seeds_book) ;;
    puzzles) dirs=(build/fuzz/corpus_puzzles fuzz/seeds_puzzles) ;;
    *)
        echo "error: unknown fuzz target '$target' (position, records, engine, roundtrip, convert, puzzles, book)" >&2
        exit 1
        ;;
    esac
    echo "== fuzzing $target (native coverage: ${native:-none}) with ${args[*]}"
    rc=0
    python "fuzz/fuzz_$target.py" "${dirs[@]}" "${options[@]}" -dict="fuzz/fuzz_$target.dict" \
        "${args[@]}" || rc=$?
    [ "$rc" -eq 0 ] || status=$rc # a finding in one target fails the run; the next still runs
    echo "== $target: status $rc; corpus $(ls "${dirs[0]}" | wc -l) inputs"
done
echo "== fuzz.sh finished in $(($(date +%s) - start)) s with status $status"
exit "$status"
