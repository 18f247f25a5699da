#!/usr/bin/env bash
# Othello: bestmove against Zebra (Gunnar Andersson's engine, GPL-2, built
# from ../shared/tools/zebra/ and run as an outside program only), in one
# run on this machine:
#
#   endgames  FFO #FIRST to #LAST (../shared/othello/fforum-40-59.obf) and
#             POSITIONS positions of 20 to 23 empties from seeded random games,
#             each solved exactly by both, one thread each, one position at
#             a time, alternating: every score must agree; prints each
#             time and the ratio bestmove / Zebra of the totals (bestmove:
#             examples/othello_ffo's engine time; Zebra: its wall time less
#             its start-up).
#   play      GAMES games against Zebra at midgame depth DEPTH with exact
#             solving from EXACT empties; bestmove through POST /best-move
#             of a release server with its default budget, each colour in
#             half of the games, openings of OPENINGS seeded random moves.
#             Skipped (with a message) when the server does not answer
#             Othello requests. Forty games: ten move by a point or more
#             with the machine's timing.
#
# The logic is in scripts/othello_compare.py.
# Usage: scripts/othello-compare.sh [> results.md]
# Knobs (env): FIRST (40), LAST (49), POSITIONS (10), SEED (1), GAMES (40),
#              DEPTH (8), EXACT (16), OPENINGS (4), PART (both: endgames,
#              play or both), SHARED (../shared beside the repository).
# Exits non-zero when a score disagrees.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
FIRST=${FIRST:-40}
LAST=${LAST:-49}
RANDOM_POSITIONS=${POSITIONS:-10}
SEED=${SEED:-1}
GAMES=${GAMES:-40}
DEPTH=${DEPTH:-8}
EXACT=${EXACT:-16}
OPENINGS=${OPENINGS:-4}
PART=${PART:-both}
PORT=${PORT:-18093}
cd "$ROOT"
export ZEBRA_DIR=$ROOT/target/zebra ZEBRA_TOOLS=$SHARED/tools/zebra
[ -x "$ZEBRA_DIR/scrzebra" ] || bash "$SHARED/tools/zebra/build.sh" "$ZEBRA_DIR" >&2
cargo build --release --locked --quiet --example othello_ffo --bin bestmove

echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); bestmove $(git rev-parse --short HEAD)"
status=0
if [ "$PART" != play ]; then
  echo
  echo "Command: FIRST=$FIRST LAST=$LAST POSITIONS=$RANDOM_POSITIONS SEED=$SEED PART=endgames scripts/othello-compare.sh"
  python3 scripts/othello_compare.py endgames --bin target/release/examples/othello_ffo \
    --ffo "$SHARED/othello/fforum-40-59.obf" --first "$FIRST" --last "$LAST" \
    --random "$RANDOM_POSITIONS" --seed "$SEED" || status=$?
fi
if [ "$PART" != endgames ]; then
  echo
  target/release/bestmove --port "$PORT" >/dev/null 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  for _ in $(seq 100); do curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
  if curl -sf "127.0.0.1:$PORT/best-move" -H 'content-type: application/json' \
      -d '{"game":"othello","moves":"f5","compare":false,"time_ms":10}' >/dev/null; then
    echo "Command: GAMES=$GAMES DEPTH=$DEPTH EXACT=$EXACT OPENINGS=$OPENINGS SEED=$SEED PART=play scripts/othello-compare.sh"
    python3 scripts/othello_compare.py play --url "http://127.0.0.1:$PORT" --games "$GAMES" \
      --depth "$DEPTH" --exact "$EXACT" --openings "$OPENINGS" --seed "$SEED" || status=$?
  else
    echo "play: skipped, the server does not answer Othello requests"
  fi
fi
exit $status
