#!/usr/bin/env bash
# Copy the project's files (tracked, plus untracked ones git does not ignore) from the
# repository into DEST, leaving out everything built in place (.so, generated C, build/).
# Usage: scripts/copy_tree.sh DEST
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:?usage: copy_tree.sh DEST}
mkdir -p "$dest"
cd "$repo"
git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -xf - -C "$dest"
