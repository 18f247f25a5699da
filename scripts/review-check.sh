#!/usr/bin/env bash
# Game review (POST /review) checked through the release server, in one run
# on 127.0.0.1:
#
#   connect4  GAMES_C4 seeded games with deliberate mistakes (BitBully's
#             perfect play mixed with random columns), each reviewed at the
#             default budget: every ply exact, its scores, distances, best
#             columns and judgement those of BitBully's score_all_moves
#             (PyPI `bitbully`, installed in a virtual environment under
#             target/compare-venv, as scripts/connect4-compare.sh does);
#             every mistake and blunder found, none extra.
#   othello   GAMES_OTHELLO seeded games (the service's /best-move at a
#             small max_depth mixed with random moves), each reviewed at the
#             default budget; every exact ply checked against Zebra's exact
#             solve (../shared/tools/zebra/zebra.py; Zebra is an outside
#             program built outside this repository, in ZEBRA_DIR: this
#             project ships none of its code and no recipe to build it).
#             Skipped, with a message, when ZEBRA_DIR is unset.
#   speed     the issue's targets, client wall clock: a 42-ply Connect
#             Four game in at most 1 s with every ply exact; a 60-ply
#             Othello game at the default budget in at most 30 s with every
#             ply from 20 empty squares on exact (needs ZEBRA_DIR too, for
#             checking its exact plies).
#
# The logic is in scripts/review_check.py. The release binary is rebuilt
# only when it is older than the newest commit touching src/.
#
# Usage: [ZEBRA_DIR=/path/to/zebra] scripts/review-check.sh [> results.md]
# Knobs (env): PART (all: connect4, othello, speed or all), GAMES_C4 (50),
#              GAMES_OTHELLO (10), SEED (1), RANDOM_C4 (0.15),
#              RANDOM_OTHELLO (0.25), OTHELLO_DEPTH (4: the
#              service's max_depth for the Othello games' moves), FULL_EMPTIES
#              (14: Othello plies with at most this many empties get every
#              move solved by Zebra), SPEED_RUNS (1), MAX_REVIEW_MS (60000),
#              SHARED (../shared beside the repository), BESTMOVE_BIN (a
#              release binary built elsewhere, e.g. from a clean checkout
#              while the work tree changes; then no build here) and
#              BESTMOVE_COMMIT (its commit, for the header),
#              BITBULLY_VERSION (0.0.79), BITBULLY_DATABASES_VERSION (0.0.2).
# Each review's answer is written to target/review-check/answers/.
# Exits non-zero on any disagreement or missed target.
# Needs: cargo, curl, python3 with venv.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
PART=${PART:-all}
GAMES_C4=${GAMES_C4:-50}
GAMES_OTHELLO=${GAMES_OTHELLO:-10}
SEED=${SEED:-1}
RANDOM_C4=${RANDOM_C4:-0.15}
RANDOM_OTHELLO=${RANDOM_OTHELLO:-0.25}
OTHELLO_DEPTH=${OTHELLO_DEPTH:-4}
FULL_EMPTIES=${FULL_EMPTIES:-14}
SPEED_RUNS=${SPEED_RUNS:-1}
MAX_REVIEW_MS=${MAX_REVIEW_MS:-60000}
BITBULLY_VERSION=${BITBULLY_VERSION:-0.0.79}
BITBULLY_DATABASES_VERSION=${BITBULLY_DATABASES_VERSION:-0.0.2}
VENV=$ROOT/target/compare-venv
LOGS=$ROOT/target/review-check
case "$PART" in all | connect4 | othello | speed) ;; *) echo "PART must be connect4, othello, speed or all" >&2; exit 2 ;; esac
cd "$ROOT"
mkdir -p "$LOGS"

if [ -n "${ZEBRA_DIR:-}" ]; then
  if [ ! -x "$ZEBRA_DIR/scrzebra" ] || [ ! -f "$ZEBRA_DIR/coeffs2.bin" ]; then
    echo "review-check: ZEBRA_DIR ($ZEBRA_DIR) must hold a built Zebra: scrzebra and coeffs2.bin" >&2
    exit 2
  fi
  export ZEBRA_DIR ZEBRA_TOOLS=$SHARED/tools/zebra
fi
if ! "$VENV/bin/python" -c "import bitbully, bitbully_databases" 2>/dev/null; then
  echo "review-check: installing bitbully $BITBULLY_VERSION in $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    "bitbully==$BITBULLY_VERSION" "bitbully-databases==$BITBULLY_DATABASES_VERSION" >&2
fi
if [ -n "${BESTMOVE_BIN:-}" ]; then
  BIN=$BESTMOVE_BIN
  BUILT="the release binary $BIN, of commit ${BESTMOVE_COMMIT:-(not given)}"
else
  BIN=target/release/bestmove
  if [ ! -x "$BIN" ] || [ "$(stat -c %Y "$BIN")" -lt "$(git log -1 --format=%ct -- src)" ]; then
    echo "review-check: building bestmove (release)" >&2
    cargo build --release --locked --quiet --bin bestmove
  fi
  BUILT="$BIN, commit $(git rev-parse --short HEAD)"
  changed=$(git status --porcelain -- src Cargo.toml Cargo.lock | wc -l)
  [ "$changed" -eq 0 ] || BUILT="$BUILT with $changed uncommitted changes in src/ (the binary may hold them)"
fi

PORT=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HOST=127.0.0.1 PORT="$PORT" MAX_REVIEW_MS="$MAX_REVIEW_MS" RUST_LOG=warn "$BIN" >"$LOGS/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 300); do
  curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
  sleep 0.1
done
curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" \
  || { echo "review-check: the server did not start; see $LOGS/server.log" >&2; exit 1; }

echo "# Game review through the release server"
echo
echo "Machine: $(nproc) vCPU, $(lscpu | sed -n 's/^Model name: *//p' | head -1); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); bestmove: $BUILT (built-in Connect Four book, default settings but MAX_REVIEW_MS=$MAX_REVIEW_MS)"
echo "bitbully $("$VENV/bin/python" -c 'import bitbully; print(bitbully.__version__)'), bitbully-databases $BITBULLY_DATABASES_VERSION; Zebra: $([ -n "${ZEBRA_DIR:-}" ] && echo "built outside the repository" || echo "not used (ZEBRA_DIR unset)")"
echo "Command: ${ZEBRA_DIR:+ZEBRA_DIR=... }PART=$PART GAMES_C4=$GAMES_C4 GAMES_OTHELLO=$GAMES_OTHELLO SEED=$SEED RANDOM_C4=$RANDOM_C4 RANDOM_OTHELLO=$RANDOM_OTHELLO OTHELLO_DEPTH=$OTHELLO_DEPTH FULL_EMPTIES=$FULL_EMPTIES SPEED_RUNS=$SPEED_RUNS scripts/review-check.sh"
echo
"$VENV/bin/python" -u scripts/review_check.py --url "http://127.0.0.1:$PORT" --part "$PART" \
  --games-c4 "$GAMES_C4" --games-othello "$GAMES_OTHELLO" --seed "$SEED" --random-c4 "$RANDOM_C4" \
  --random-othello "$RANDOM_OTHELLO" --othello-depth "$OTHELLO_DEPTH" --dump "$LOGS/answers" --full-empties "$FULL_EMPTIES" \
  --speed-runs "$SPEED_RUNS"
