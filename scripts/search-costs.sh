#!/usr/bin/env bash
# What each search costs, per request: a release server (with its built-in
# opening book) answers a fixed set of requests,
# ROUNDS times each with "compare": true and with "compare": false,
# alternating. For every request it prints the median positions and
# microseconds of each search (the answer's `nodes` and `elapsed_us`), and
# the median round trip measured by the client with and without compare.
#
# Usage: scripts/search-costs.sh [> costs.md]   (from anywhere in the repo)
# Knobs (env): ROUNDS (21), PORT (a free one).
# Needs: cargo, curl, python3.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROUNDS=${ROUNDS:-21}
cd "$ROOT"
mkdir -p target/search-costs
cargo build --release --locked --quiet --bin bestmove
PORT=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}

HOST=127.0.0.1 PORT=$PORT RUST_LOG=warn target/release/bestmove \
  >target/search-costs/server.log 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
  sleep 0.1
done

echo "# What each search costs"
echo
echo "Machine: $(nproc) CPUs, $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); bestmove $(git rev-parse --short HEAD); with the opening book"
echo "Command: ROUNDS=$ROUNDS scripts/search-costs.sh"
echo
python3 - "http://127.0.0.1:$PORT/best-move" "$ROUNDS" <<'PY'
import json, statistics, sys, time, urllib.request

url, rounds = sys.argv[1], int(sys.argv[2])
requests = [
    ("tic-tac-toe, empty board", {"board": "........."}),
    ("tic-tac-toe, XO..X....", {"board": "XO..X...."}),
    ("tree, 3 by 3", {"tree": [[5, -2, -1], [1, -5, 6], [5, 8, 4]]}),
    ("Connect Four, empty board", {"game": "connect4", "moves": ""}),
    ("Connect Four, 4455 (book)", {"game": "connect4", "moves": "4455"}),
    ("Connect Four, 30 moves in", {"game": "connect4", "moves": "612313147626667357672244337327"}),
]

def post(body):
    data = json.dumps(dict(body, seed=1)).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request) as response:
        answer = json.load(response)
    return answer, (time.perf_counter() - started) * 1e6

def median(values):
    return round(statistics.median(values)) if values else None

print("| request | search | positions | µs | round trip, compare true (µs) | round trip, compare false (µs) |")
print("|---|---|---:|---:|---:|---:|")
for name, body in requests:
    reports = {"minimax": [], "alphabeta": [], "engine": []}
    trips = {True: [], False: []}
    for _ in range(rounds):
        for compare in (True, False):
            answer, trip = post(dict(body, compare=compare))
            trips[compare].append(trip)
            if compare:
                for search in reports:
                    reports[search].append(answer[search])
    for i, (search, runs) in enumerate(reports.items()):
        nodes = median([r["nodes"] for r in runs])
        micros = median([r["elapsed_us"] for r in runs])
        first = i == 0
        print(f"| {name if first else ''} | {search} | {nodes:,} | {micros:,} | "
              f"{f'{median(trips[True]):,}' if first else ''} | {f'{median(trips[False]):,}' if first else ''} |")
PY
