#!/usr/bin/env bash
# Othello answers cut by the time budget, checked against exact solves of the
# same positions (16 to 20 empties from seeded random games): every entry's
# claim (exact, or a win or loss forced within the depth searched) must agree
# with the exact value. The logic is in scripts/othello-claims.py, which
# starts the release server on a free port of 127.0.0.1 and stops it at the
# end (or uses the server given with --url).
#
# Builds nothing: it expects `cargo build --release` first (or BESTMOVE_BIN
# naming another build of the server).
# Usage: scripts/othello-claims.sh [--positions 300] [--seed 1] [--time-ms 300] [--url URL]
# Exits 1 when a claim says more than the exact solve allows.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export BESTMOVE_BIN=${BESTMOVE_BIN:-target/release/bestmove}
if [[ " $* " != *" --url"* && ! -x "$BESTMOVE_BIN" ]]; then
  echo "othello-claims: no server binary at $BESTMOVE_BIN; run \`cargo build --release\` first (or set BESTMOVE_BIN)" >&2
  exit 2
fi
exec python3 scripts/othello-claims.py "$@"
