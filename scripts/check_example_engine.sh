#!/usr/bin/env bash
# Build the example engine (examples/engine) against an INSTALLED xiangqi wheel and play it.
#
#   scripts/check_example_engine.sh VENV_PYTHON [FAIRY_STOCKFISH]
#
# VENV_PYTHON is the python of a venv where the built xiangqi wheel is installed (CI: the
# "user" venv of .ci/run). The script installs the build requirements (setuptools, Cython)
# into it, installs a copy of ./examples/engine with --no-build-isolation (so the build
# imports that venv's xiangqi and cimports its headers through xiangqi.get_include(), not
# this source tree), checks the extension imports from site-packages and that its perft
# through the Cython API gives the published counts, then plays `xiangqi match` of the
# example engine against Fairy-Stockfish (default /usr/games/fairy-stockfish) at depth 3,
# 2 games, within 10 minutes, and checks the results: 2 games played, each ended by the
# rules or the ply limit (no illegal move, no crash, no time loss).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 VENV_PYTHON [FAIRY_STOCKFISH]" >&2
    exit 2
fi
py=$1
fairy=${2:-/usr/games/fairy-stockfish}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(dirname "$py")
[ -x "$fairy" ] || { echo "no Fairy-Stockfish at $fairy" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/examples/engine" "$work/engine"
rm -rf "$work/engine/build" "$work/engine"/*.egg-info
find "$work/engine" \( -name '*.so' -o -name '*.c' -o -name '*.html' \) -delete
cd "$work"   # nothing of the source tree on sys.path from here on

echo "== example engine: build against the installed xiangqi"
"$py" -m pip install --quiet "setuptools>=77" "Cython>=3.1"
"$py" -m pip install --quiet --no-build-isolation "$work/engine"

"$py" - <<'PY'
import xiangqi
import xiangqi_example_engine._search as search

for module in (xiangqi, search):
    assert "site-packages" in module.__file__, module.__file__
assert search.__file__.endswith(".so"), search.__file__
assert search.perft(xiangqi.START_FEN, 3) == 79666   # published (Chess Programming Wiki)
assert search.perft(xiangqi.START_FEN, 4) == 3290240
# A win in one (the library's docs front page: the mate Rb0-b9, and most other Red moves
# leave Black's king no legal move, which loses too): the search finds one of them.
fen = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"
searcher = search.Searcher()
searcher.set_position(xiangqi.Position(fen))
best = searcher.search(3, 0.0)
after = xiangqi.Position(fen)
after.push(xiangqi.Move(*best))
assert not list(after.legal_moves), f"no win in one found: {best}"
print("example engine imports from", search.__file__)
PY
[ -x "$bin/xiangqi-example-engine" ] || { echo "no console script xiangqi-example-engine" >&2; exit 1; }
# The console script speaks UCI in Fairy-Stockfish's dialect (ranks 1..10).
# (The input stays open 3 s: end of input stops a search, as quit does.)
reply=$({ printf 'uci\nisready\nposition fen 3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1\n';
          printf 'go depth 3\nisready\n'; sleep 3; printf 'quit\n'; } \
    | timeout 60 "$bin/xiangqi-example-engine")
for line in "uciok" "readyok"; do
    grep -qx "$line" <<<"$reply" || { echo "no '$line' from the engine: $reply" >&2; exit 1; }
done
# One bestmove, and it wins at once (Black is left no legal move), as above.
"$py" - "$reply" <<'PY'
import sys

import xiangqi

lines = [line for line in sys.argv[1].splitlines() if line.startswith("bestmove ")]
assert len(lines) == 1 and len(lines[0].split()) == 2, lines
text = lines[0].split()[1]
pos = xiangqi.Position("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1")
names = {}
for move in pos.legal_moves:
    squares = (move.from_square, move.to_square)
    names["".join(f"{'abcdefghi'[s % 9]}{s // 9 + 1}" for s in squares)] = move
assert text in names, f"bestmove {text} is no legal move"
pos.push(names[text])
assert not list(pos.legal_moves), f"bestmove {text} does not win at once"
PY

echo "== example engine: a 2-game match against Fairy-Stockfish at depth 3"
timeout 600 "$bin/xiangqi" match \
    --engine "name=example cmd=$bin/xiangqi-example-engine" \
    --engine "name=fairy-stockfish cmd=$fairy" \
    --games 2 --tc depth=3 --max-plies 300 \
    --results "$work/results.json" --pgn "$work/games.pgn" </dev/null
echo

"$py" - "$work/results.json" <<'PY'
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    results = json.load(f)
games = results["games"]
assert len(games) == 2, f"expected 2 games, found {len(games)}"
# Ended by a rule of the game (xiangqi.Termination's words) or by the ply cap; the runner's
# other endings ("abandoned": an engine crashed or exited, "rules infraction": an illegal
# or missing move, "time forfeit") fail the check.
from xiangqi import Termination

allowed = {t.name.lower().replace("_", " ") for t in Termination} | {"adjudication"}
for game in games:
    assert game["termination"] in allowed, (
        f"game {game['game']}: {game['termination']}: {game['reason']}"
    )
    assert game["plies"] > 0, game
    print(f"game {game['game']}: {game['red']} - {game['black']} {game['result']} "
          f"({game['termination']}, {game['plies']} plies)")
print("example engine match passed")
PY
