#!/usr/bin/env bash
# Peak memory of the release server under the largest trees it accepts with
# its default limits: the figures behind the memory request and limit in
# deploy/kubernetes/.
#
# Four shapes, each just under MAX_TREE_NODES (2,000,000) and
# MAX_TREE_DEPTH (1,000):
#   wide      a root with 1,999,999 leaf children (about 4 MB of JSON): the
#             worst case, a score kept per root move;
#   comb      1,000 levels deep, each level 1,998 leaves beside the next
#             level (1,999,001 nodes): the deepest lines;
#   two-level 1,990 inner nodes of 1,000 leaves (1,991,991 nodes);
#   binary    a complete binary tree 19 levels deep (1,048,575 nodes).
# For each shape a fresh server (MAX_CONCURRENT_SEARCHES slots, default 1 as
# deployed) gets the tree once, then CLIENTS (default 8) copies at once; the
# script prints the peak resident memory (VmHWM) after each step and the
# size of the answer.
#
# Usage: scripts/memory-check.sh     Knobs (env): SLOTS (1), CLIENTS (8)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SLOTS=${SLOTS:-1}
CLIENTS=${CLIENTS:-8}
WORK=$(mktemp -d)
PID=
cd "$ROOT"
cargo build --release --locked --quiet
trap '[[ -n $PID ]] && kill $PID 2>/dev/null; rm -rf "$WORK"' EXIT

# Leaf values: a fixed pseudo-random sequence in -1000..1000.
awk 'BEGIN { x = 42; printf "{\"tree\": ["
  for (i = 0; i < 1999999; i++) { x = (x * 16807) % 2147483647; printf (i ? ",%d" : "%d"), x % 2001 - 1000 }
  printf "]}\n" }' >"$WORK/wide.json"
awk 'BEGIN { x = 42; printf "{\"tree\": "
  for (i = 0; i < 1000; i++) printf "["
  printf "0"
  for (i = 0; i < 1000; i++) {
    for (j = 0; j < 1998; j++) { x = (x * 16807) % 2147483647; printf ",%d", x % 2001 - 1000 }
    printf "]" }
  printf "}\n" }' >"$WORK/comb.json"
awk 'BEGIN { x = 42; printf "{\"tree\": ["
  for (i = 0; i < 1990; i++) { printf (i ? ",[" : "[")
    for (j = 0; j < 1000; j++) { x = (x * 16807) % 2147483647; printf (j ? ",%d" : "%d"), x % 2001 - 1000 }
    printf "]" }
  printf "]}\n" }' >"$WORK/two-level.json"
awk 'function node(depth) {
    if (depth == 0) { x = (x * 16807) % 2147483647; printf "%d", x % 2001 - 1000; return }
    printf "["; node(depth - 1); printf ","; node(depth - 1); printf "]" }
  BEGIN { x = 42; printf "{\"tree\": "; node(19); printf "}\n" }' >"$WORK/binary.json"

size() { awk -v bytes="$(wc -c <"$1")" -v unit="$2" 'BEGIN { printf "%.1f %s", bytes / (unit == "MB" ? 1e6 : 1e3), unit }'; }
hwm() { awk '/^VmHWM/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$PID/status"; }
post() { curl -s -o "$2" -w '%{http_code}\n' "http://127.0.0.1:$PORT/best-move" \
  -H 'content-type: application/json' --data-binary @"$1"; }

echo "Machine: $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC'); $SLOTS search slot(s), $CLIENTS clients at once"
echo
echo "| Tree | JSON | Idle | One tree | Answer | $CLIENTS trees at once | Statuses |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
for shape in wide comb two-level binary; do
  tree="$WORK/$shape.json"
  PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  HOST=127.0.0.1 PORT=$PORT MAX_CONCURRENT_SEARCHES=$SLOTS RUST_LOG=warn target/release/bestmove &
  PID=$!
  for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.1; done
  idle=$(hwm)
  [[ $(post "$tree" "$WORK/answer.json") == 200 ]] || {
    echo "memory-check: the $shape tree was not answered with 200: $(head -c 300 "$WORK/answer.json")" >&2
    exit 1
  }
  one=$(hwm)
  codes=$(for i in $(seq "$CLIENTS"); do post "$tree" "$WORK/answer.$i.json" & done; wait)
  many=$(hwm)
  statuses=$(sort <<<"$codes" | uniq -c | awk '{ printf "%s%s x %s", (NR > 1 ? ", " : ""), $2, $1 }')
  echo "| $shape | $(size "$tree" MB) | $idle | $one | $(size "$WORK/answer.json" KB) | $many | $statuses |"
  kill "$PID"
  wait "$PID" 2>/dev/null || true
  PID=
  bad=$(grep -cv '^200$\|^503$' <<<"$codes" || true)
  ((bad == 0)) || { echo "memory-check: a status other than 200/503 for the $shape tree" >&2; exit 1; }
done
