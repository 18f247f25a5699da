#!/usr/bin/env bash
# Connect Four: bestmove's engine against the BitBully solver (PyPI
# `bitbully`, C++ with Python bindings, used as an installed package only), in
# one run on 127.0.0.1:
#
#   speed     COUNT positions from seeded random games (MIN_STONES to
#             MAX_STONES stones; nobody has four, the side to move cannot win
#             at once). Every column's exact score by BitBully's
#             score_all_moves (a fresh solver, so a fresh transposition
#             table, for each position; timed around the call) and by
#             bestmove's engine (the answer's engine.elapsed_us), both
#             without an opening book; ROUNDS runs of each per position,
#             alternating, the fastest of each counting (the machine may be
#             shared). Any disagreement is an error. Prints a table, both
#             totals and the ratio bestmove / BitBully.
#   games     GAMES games: bestmove (default time budget, with the opening
#             book) plays X, first, against BitBully with its 12-ply book as
#             O, which plays a random best move (seeded). Every move of
#             bestmove must be one of BitBully's best; bestmove must win.
#   empty     EMPTY_RUNS full answers for the empty board from the server
#             with the book (engine.elapsed_us each; the target is at most
#             100 ms), every column checked against BitBully with its book.
#
# The BitBully side runs in a virtual environment under target/compare-venv;
# the logic is in scripts/connect4_compare.py. Two release servers: one
# with OPENING_BOOK=none (with MAX_SEARCH_MS and the requests' time_ms at
# TIME_MS, so every column is solved exactly) and one with the book from
# scripts/fetch-opening-book.sh. Both are stopped on exit.
#
# Usage: scripts/connect4-compare.sh [> results.md]   (from anywhere in the repo)
# Knobs (env): COUNT (16), SEED (1), MIN_STONES (9), MAX_STONES (13), ROUNDS (3),
#              GAMES (10), GAME_SEED (1), EMPTY_RUNS (5), TIME_MS (600000), TIMEOUT_S (900: the
#              most the comparison itself may take, the build aside),
#              BITBULLY_VERSION (0.0.79), BITBULLY_DATABASES_VERSION (0.0.2).
# Progress: one line per position and per game as they finish.
# Exits non-zero on a disagreement, a non-optimal move, a game not won, or
# after TIMEOUT_S (status 124).
# Needs: cargo, curl, python3 with venv.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
COUNT=${COUNT:-16}
SEED=${SEED:-1}
MIN_STONES=${MIN_STONES:-9}
MAX_STONES=${MAX_STONES:-13}
ROUNDS=${ROUNDS:-3}
GAMES=${GAMES:-10}
GAME_SEED=${GAME_SEED:-1}
EMPTY_RUNS=${EMPTY_RUNS:-5}
TIME_MS=${TIME_MS:-600000}
TIMEOUT_S=${TIMEOUT_S:-900}
BITBULLY_VERSION=${BITBULLY_VERSION:-0.0.79}
BITBULLY_DATABASES_VERSION=${BITBULLY_DATABASES_VERSION:-0.0.2}
VENV=$ROOT/target/compare-venv
LOGS=$ROOT/target/connect4-compare
cd "$ROOT"
mkdir -p "$LOGS"

if ! "$VENV/bin/python" -c "import bitbully, bitbully_databases" 2>/dev/null; then
  echo "connect4-compare: installing bitbully $BITBULLY_VERSION in $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    "bitbully==$BITBULLY_VERSION" "bitbully-databases==$BITBULLY_DATABASES_VERSION" >&2
fi
echo "connect4-compare: building bestmove (release)" >&2
cargo build --release --locked --quiet
BOOK=$(PATH="$VENV/bin:$PATH" BITBULLY_DATABASES_VERSION=$BITBULLY_DATABASES_VERSION scripts/fetch-opening-book.sh)

PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
free_port() { "$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# start NAME PORT [VAR=value...]: a release server on 127.0.0.1:PORT.
start() {
  local name=$1 port=$2
  shift 2
  env "$@" HOST=127.0.0.1 PORT="$port" MAX_SEARCH_MS="$TIME_MS" REQUEST_TIMEOUT_MS=$((TIME_MS + 60000)) \
    RUST_LOG=warn target/release/bestmove >"$LOGS/$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 100); do
    curl -fs -o /dev/null "http://127.0.0.1:$port/healthz" && return 0
    sleep 0.1
  done
  echo "connect4-compare: the $name server did not start; see $LOGS/$name.log" >&2
  exit 1
}
PLAIN_PORT=$(free_port)
start plain "$PLAIN_PORT" OPENING_BOOK=none
BOOK_PORT=$(free_port)
start book "$BOOK_PORT" OPENING_BOOK="$BOOK"

echo "# Connect Four: bestmove against BitBully"
echo
echo "Machine: $(nproc) CPUs, $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "bestmove $(git rev-parse --short HEAD); bitbully $("$VENV/bin/python" -c 'import bitbully; print(bitbully.__version__)'), bitbully-databases $BITBULLY_DATABASES_VERSION"
echo "Command: COUNT=$COUNT SEED=$SEED MIN_STONES=$MIN_STONES MAX_STONES=$MAX_STONES ROUNDS=$ROUNDS GAMES=$GAMES GAME_SEED=$GAME_SEED EMPTY_RUNS=$EMPTY_RUNS scripts/connect4-compare.sh"
echo
timeout "$TIMEOUT_S" "$VENV/bin/python" -u scripts/connect4_compare.py \
  --plain-url "http://127.0.0.1:$PLAIN_PORT" --book-url "http://127.0.0.1:$BOOK_PORT" \
  --count "$COUNT" --seed "$SEED" --min-stones "$MIN_STONES" --max-stones "$MAX_STONES" --rounds "$ROUNDS" \
  --time-ms "$TIME_MS" --games "$GAMES" --game-seed "$GAME_SEED" --empty-runs "$EMPTY_RUNS"
