#!/usr/bin/env bash
# Othello: bestmove against Zebra (Gunnar Andersson's engine, GPL-2), in one
# run on this machine. Zebra is an outside program: build it outside this
# repository (its public source, lk16/zebra) and name the folder that holds
# its scrzebra and coeffs2.bin in ZEBRA_DIR; this project ships none of its
# code and no recipe to build it. ../shared/tools/zebra/zebra.py drives it.
#
#   endgames  FFO #FIRST to #LAST (../shared/othello/fforum-40-59.obf) and
#             POSITIONS positions of 20 to 24 empties from seeded random games,
#             each solved exactly by both, one thread each, one position at
#             a time, alternating: every score must agree and every answer
#             be exact; prints each time and the ratio bestmove / Zebra of
#             the totals. bestmove through POST /best-move of the release
#             server, "max_moves": 1 (the best move alone, proven with its
#             exact score), timed as its client sees it; with EVERY_MOVE=1
#             also the default request (every move exact) beside Zebra
#             solving every move. SIDE_BINARY=1 measures
#             examples/othello_ffo instead (a tool, not the service).
#   play      GAMES games against Zebra at midgame depth DEPTH with exact
#             solving from EXACT empties; bestmove through POST /best-move
#             of a release server with its default budget, each colour in
#             half of the games, openings of OPENINGS seeded random moves;
#             RECORD=FILE appends each game's moves to FILE, for
#             `scripts/othello_compare.py review --record FILE` (each of
#             bestmove's moves judged by Zebra).
#   speed     SPEED_POSITIONS midgame positions (30 to 44 empties, seeded):
#             positions per second of Zebra searching SPEED_DEPTH plies and
#             of the service asked for the same depth, alternating, and the
#             depth the service reaches at its default budget.
#   budget    BUDGET_PER positions at each number of empty squares from 18
#             to 24 (seeded): how many the service answers exactly at its
#             default budget (the request a player sends), scores checked
#             against Zebra's, and how many Zebra solves within that time.
#
# The logic is in scripts/othello_compare.py.
# Usage: ZEBRA_DIR=/path/to/zebra scripts/othello-compare.sh [> results.md]
# Knobs (env): FIRST (40), LAST (49), POSITIONS (20), SEED (1), GAMES (40),
#              DEPTH (8), EXACT (16), OPENINGS (4), PART (both: endgames,
#              play, speed, budget or both: endgames and play), EVERY_MOVE (0),
#              SIDE_BINARY (0), SPEED_POSITIONS (20), SPEED_DEPTH (12),
#              BUDGET_PER (5), SHARED
#              (../shared beside the repository).
# Exits non-zero when a score disagrees or an answer is not exact.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
FIRST=${FIRST:-40}
LAST=${LAST:-49}
RANDOM_POSITIONS=${POSITIONS:-20}
SEED=${SEED:-1}
GAMES=${GAMES:-40}
DEPTH=${DEPTH:-8}
EXACT=${EXACT:-16}
OPENINGS=${OPENINGS:-4}
PART=${PART:-both}
EVERY_MOVE=${EVERY_MOVE:-0}
SIDE_BINARY=${SIDE_BINARY:-0}
SPEED_POSITIONS=${SPEED_POSITIONS:-20}
SPEED_DEPTH=${SPEED_DEPTH:-12}
BUDGET_PER=${BUDGET_PER:-5}
PORT=${PORT:-18093}
cd "$ROOT"
if [ -z "${ZEBRA_DIR:-}" ] || [ ! -x "$ZEBRA_DIR/scrzebra" ]; then
  echo "ZEBRA_DIR must name a folder with a built Zebra (scrzebra and coeffs2.bin), built outside this repository" >&2
  exit 2
fi
export ZEBRA_DIR ZEBRA_TOOLS=$SHARED/tools/zebra
cargo build --release --locked --quiet --example othello_ffo --bin bestmove

echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); bestmove $(git rev-parse --short HEAD)"
status=0
# The release server, with budgets long enough for an exact solve.
MAX_SEARCH_MS=600000 REQUEST_TIMEOUT_MS=900000 target/release/bestmove --port "$PORT" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
if [ "$PART" = budget ]; then
  echo
  echo "Command: ZEBRA_DIR=... BUDGET_PER=$BUDGET_PER SEED=$SEED PART=budget scripts/othello-compare.sh"
  python3 scripts/othello_compare.py budget --url "http://127.0.0.1:$PORT" --per "$BUDGET_PER" --seed "$SEED" || status=$?
  exit $status
fi
if [ "$PART" = speed ]; then
  echo
  echo "Command: ZEBRA_DIR=... SPEED_POSITIONS=$SPEED_POSITIONS SPEED_DEPTH=$SPEED_DEPTH SEED=$SEED PART=speed scripts/othello-compare.sh"
  python3 scripts/othello_compare.py speed --url "http://127.0.0.1:$PORT" --positions "$SPEED_POSITIONS" \
    --depth "$SPEED_DEPTH" --seed "$SEED" || status=$?
  exit $status
fi
if [ "$PART" != play ]; then
  echo
  echo "Command: ZEBRA_DIR=... FIRST=$FIRST LAST=$LAST POSITIONS=$RANDOM_POSITIONS SEED=$SEED EVERY_MOVE=$EVERY_MOVE SIDE_BINARY=$SIDE_BINARY PART=endgames scripts/othello-compare.sh"
  if [ "$SIDE_BINARY" = 1 ]; then source_args=(--bin target/release/examples/othello_ffo); else source_args=(--url "http://127.0.0.1:$PORT"); fi
  every_args=()
  [ "$EVERY_MOVE" = 1 ] && every_args=(--every-move)
  python3 scripts/othello_compare.py endgames "${source_args[@]}" "${every_args[@]}" \
    --ffo "$SHARED/othello/fforum-40-59.obf" --first "$FIRST" --last "$LAST" \
    --random "$RANDOM_POSITIONS" --seed "$SEED" || status=$?
fi
if [ "$PART" != endgames ]; then
  echo
  if curl -sf "127.0.0.1:$PORT/best-move" -H 'content-type: application/json' \
      -d '{"game":"othello","moves":"f5","compare":false,"time_ms":10}' >/dev/null; then
    echo "Command: GAMES=$GAMES DEPTH=$DEPTH EXACT=$EXACT OPENINGS=$OPENINGS SEED=$SEED PART=play scripts/othello-compare.sh"
    record_args=()
    [ -n "${RECORD:-}" ] && record_args=(--record "$RECORD")
    python3 scripts/othello_compare.py play --url "http://127.0.0.1:$PORT" --games "$GAMES" \
      --depth "$DEPTH" --exact "$EXACT" --openings "$OPENINGS" --seed "$SEED" "${record_args[@]}" || status=$?
  else
    echo "play: skipped, the server does not answer Othello requests"
  fi
fi
exit $status
