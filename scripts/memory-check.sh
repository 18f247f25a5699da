#!/usr/bin/env bash
# Peak memory of the release server under the largest trees it accepts: the
# figure behind the memory request and limit in deploy/kubernetes/.
#
# Generates a tree just under MAX_TREE_NODES (1990 inner nodes of 1000
# leaves: 1,991,991 nodes, about 8.3 MiB of JSON), starts the server on a free
# loopback port with MAX_CONCURRENT_SEARCHES slots (default 1, as deployed),
# sends it once, then CLIENTS (default 8) copies at once, and prints the
# peak resident memory (VmHWM) after each step.
#
# Usage: scripts/memory-check.sh     Knobs (env): SLOTS (1), CLIENTS (8)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SLOTS=${SLOTS:-1}
CLIENTS=${CLIENTS:-8}
WORK=$(mktemp -d)
cd "$ROOT"
cargo build --release --locked --quiet

awk 'BEGIN { x = 42; printf "{\"tree\": ["
  for (i = 0; i < 1990; i++) { printf (i ? ",[" : "[")
    for (j = 0; j < 1000; j++) { x = (x * 16807) % 2147483647; printf (j ? ",%d" : "%d"), x % 2001 - 1000 }
    printf "]" }
  printf "]}\n" }' >"$WORK/tree.json"

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HOST=127.0.0.1 PORT=$PORT MAX_CONCURRENT_SEARCHES=$SLOTS RUST_LOG=warn target/release/bestmove &
PID=$!
trap 'kill $PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.1; done

hwm() { awk '/^VmHWM/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$PID/status"; }
post() { curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$PORT/best-move" \
  -H 'content-type: application/json' --data-binary @"$WORK/tree.json"; }

echo "Machine: $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC'); tree $(wc -c <"$WORK/tree.json") bytes, 1,991,991 nodes; $SLOTS search slot(s)"
echo "idle: $(hwm)"
[[ $(post) == 200 ]] || { echo "memory-check: the tree was not answered with 200" >&2; exit 1; }
echo "after one tree: $(hwm)"
codes=$(for _ in $(seq "$CLIENTS"); do post & done; wait)
bad=$(grep -cv '^200$\|^503$' <<<"$codes" || true)
echo "after $CLIENTS trees at once: $(hwm) (statuses: $(sort <<<"$codes" | uniq -c | awk '{ printf "%s%s x %s", (NR > 1 ? ", " : ""), $2, $1 }'))"
((bad == 0)) || { echo "memory-check: a status other than 200/503" >&2; exit 1; }
