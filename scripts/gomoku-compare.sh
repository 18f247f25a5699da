#!/usr/bin/env bash
# Gomoku: bestmove against Rapfi (dhbloo/rapfi, GPL-3.0), in one run on
# this machine. Rapfi is an outside program: build dhbloo/rapfi outside this
# repository and name its pbrain-rapfi binary in GOMOKU_REF_ENGINE (or the
# folder that holds it in GOMOKU_REF_DIR); this project ships none of its
# code, weights or a recipe to build it. ../shared/tools/gomoku-ref
# (gomoku_ref.py, with Rapfi's config and classical weights) drives it.
#
#   tactics   the suites of tests/data/gomoku (made by scripts/gomoku_suites.py
#             with the reference): positions where the side to move has a
#             forced win of 7 to 49 plies (win.txt) and positions where it
#             must find the only defence (defence.txt). bestmove answers
#             each at its default budget through POST /best-move of the
#             release server; the reference then searches DEEP nodes from
#             the position after bestmove's move: a win passes when the
#             defender is proven lost, a defence when the attacker has no
#             forced win left. Every answer marked exact is checked.
#   play      GAMES games against the reference at each rung of RUNGS (its
#             time limit a move, ms, or with an `n` its node limit: n3000),
#             each colour in half of them, openings
#             of 3 to 5 stones near the centre from
#             gomoku-ref/data/openings-freestyle.txt in a seeded order;
#             bestmove at its default budget. Points at each rung.
#
# The logic is in scripts/gomoku_compare.py.
# Usage: GOMOKU_REF_ENGINE=/path/to/pbrain-rapfi scripts/gomoku-compare.sh [> results.md]
# Knobs (env): PART (both: tactics, play or both), DEEP (2000000), LIMIT (0:
#              every position; N: the first N of each suite), GAMES (20),
#              RUNGS (10,30,100,300,1000), SEED (1), PORT (18095), SHARED
#              (../shared beside the repository), RECORD (play: append each
#              game's moves to this file, for `gomoku_compare.py review`).
# Exits non-zero when an exact answer is wrong.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
PART=${PART:-both}
DEEP=${DEEP:-2000000}
LIMIT=${LIMIT:-0}
GAMES=${GAMES:-20}
RUNGS=${RUNGS:-10,30,100,300,1000}
SEED=${SEED:-1}
PORT=${PORT:-18095}
cd "$ROOT"
engine=${GOMOKU_REF_ENGINE:-}
if [ -z "$engine" ] && [ -n "${GOMOKU_REF_DIR:-}" ]; then engine=$GOMOKU_REF_DIR/pbrain-rapfi; fi
if [ -z "$engine" ] || [ ! -x "$engine" ]; then
  echo "GOMOKU_REF_ENGINE must name a pbrain-rapfi binary (or GOMOKU_REF_DIR the folder that holds it):" >&2
  echo "build dhbloo/rapfi outside this repository" >&2
  exit 2
fi
if [ ! -f "$SHARED/tools/gomoku-ref/gomoku_ref.py" ]; then
  echo "no $SHARED/tools/gomoku-ref/gomoku_ref.py: set SHARED to the folder that holds tools/gomoku-ref" >&2
  exit 2
fi
export GOMOKU_REF_ENGINE=$engine GOMOKU_REF_TOOLS=$SHARED/tools/gomoku-ref
cargo build --release --locked --quiet --bin bestmove

echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); bestmove $(git rev-parse --short HEAD)"
echo "Reference: $engine, through $GOMOKU_REF_TOOLS (its config and classical weights), one thread"
status=0
target/release/bestmove --port "$PORT" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
if ! curl -sf "127.0.0.1:$PORT/best-move" -H 'content-type: application/json' \
    -d '{"game":"gomoku","moves":"h8","time_ms":10}' >/dev/null; then
  echo "the server does not answer Gomoku requests" >&2
  exit 1
fi
if [ "$PART" != play ]; then
  echo
  echo "Command: GOMOKU_REF_ENGINE=... DEEP=$DEEP LIMIT=$LIMIT PART=tactics scripts/gomoku-compare.sh"
  python3 scripts/gomoku_compare.py tactics --url "http://127.0.0.1:$PORT" --deep "$DEEP" --limit "$LIMIT" || status=$?
fi
if [ "$PART" != tactics ]; then
  echo
  echo "Command: GOMOKU_REF_ENGINE=... GAMES=$GAMES RUNGS=$RUNGS SEED=$SEED PART=play scripts/gomoku-compare.sh"
  python3 scripts/gomoku_compare.py play --url "http://127.0.0.1:$PORT" --games "$GAMES" --rungs "$RUNGS" \
    --seed "$SEED" ${RECORD:+--record "$RECORD"} || status=$?
fi
exit $status
