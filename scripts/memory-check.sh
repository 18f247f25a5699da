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
# For each shape a fresh server (MAX_CONCURRENT_SEARCHES=SLOTS and TT_MIB,
# default 2 and 32 as deployed) gets the tree once, then CLIENTS (default 8)
# copies at once; the script prints the peak resident memory (VmHWM) after
# each step and the size of the answer.
#
# Then Connect Four, on one fresh server with the opening book loaded
# (OPENING_BOOK, fetched by scripts/fetch-opening-book.sh when unset) and the
# default budget of 1 s per answer: a 10-stone opening, then four positions
# of 13 and 14 stones (just past the book) that the engine cannot finish
# within the budget, so each search fills as much of its transposition table
# (TT_MIB, kept for the next search) as one answer can;
# first one at a time, then CLIENTS at once. Then the wide
# tree, once and CLIENTS at once, on the same server: its worst case, with
# the book and the kept table already resident.
#
# Then Othello, on a fresh server: three positions the engine cannot finish
# within the default budget, one at a time, then CLIENTS at once.
#
# Last, on another fresh server with the book, the largest bodies of small
# positions: a Connect Four `moves` array of zeros, a `board` of one row of
# "." strings, a tic-tac-toe `board` array and an Othello `moves` array of
# "f5" strings, each just under
# MAX_BODY_BYTES (16 MiB) and refused with a 422 as it is read (at its 65th
# item); one at a time, then CLIENTS moves arrays at once.
#
# Fails (exit 1) when the highest peak of any server passes MAX_PEAK_MIB:
# by default the memory limit of deploy/kubernetes/deployment.yaml less
# MARGIN_MIB (64), room for the open connections the measurement leaves out.
#
# Usage: scripts/memory-check.sh     Knobs (env): SLOTS (2), TT_MIB (32),
#   CLIENTS (8), OPENING_BOOK (the fetched book), MARGIN_MIB (64),
#   MAX_PEAK_MIB (the Deployment's limit less MARGIN_MIB)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SLOTS=${SLOTS:-2}
TT_MIB=${TT_MIB:-32}
CLIENTS=${CLIENTS:-8}
MARGIN_MIB=${MARGIN_MIB:-64}
if [[ -z ${MAX_PEAK_MIB:-} ]]; then
  # The container's memory limit, in Mi (the line after `limits:`).
  limit_mib=$(awk '/^ *limits:/ { in_limits = 1; next }
    in_limits && /memory:/ { sub(/Mi$/, "", $2); print $2; exit }' "$ROOT/deploy/kubernetes/deployment.yaml")
  [[ $limit_mib =~ ^[0-9]+$ ]] || { echo "memory-check: no memory limit in Mi in deployment.yaml" >&2; exit 1; }
  MAX_PEAK_MIB=$((limit_mib - MARGIN_MIB))
fi
export TT_MIB
WORK=$(mktemp -d)
PID=
cd "$ROOT"
cargo build --release --locked --quiet
OPENING_BOOK=${OPENING_BOOK:-$(scripts/fetch-opening-book.sh)}
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
# Prints the server's peak so far, and keeps it (in KiB) for the final check.
hwm() {
  awk -v peaks="$WORK/peaks" '/^VmHWM/ { printf "%.1f MiB", $2 / 1024; print $2 >>peaks }' "/proc/$PID/status"
}
post() { curl -s -o "$2" -w '%{http_code}\n' "http://127.0.0.1:$PORT/best-move" \
  -H 'content-type: application/json' --data-binary @"$1"; }
# Starts a release server on a free port with the given environment (plus
# HOST, PORT, MAX_CONCURRENT_SEARCHES and RUST_LOG) and waits for it.
start_server() {
  PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  env "$@" HOST=127.0.0.1 PORT=$PORT MAX_CONCURRENT_SEARCHES=$SLOTS RUST_LOG=warn target/release/bestmove &
  PID=$!
  for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.1; done
}
stop_server() {
  kill "$PID"
  wait "$PID" 2>/dev/null || true
  PID=
}
# CLIENTS requests at once, taking the given bodies in turn; a status a line.
post_many() {
  local bodies=("$@") i
  for i in $(seq "$CLIENTS"); do post "${bodies[$(((i - 1) % ${#bodies[@]}))]}" "$WORK/answer.$i.json" & done
  wait
}
# Writes the body for `game` at `moves` to `file`, posts it (which must be
# answered with 200) and prints the engine's "time|depth|exact".
engine_answer() {
  local game=$1 moves=$2 file=$3
  printf '{"game": "%s", "moves": "%s"}\n' "$game" "$moves" >"$file"
  [[ $(post "$file" "$WORK/answer.json") == 200 ]] || {
    echo "memory-check: $game $moves was not answered with 200: $(head -c 300 "$WORK/answer.json")" >&2
    exit 1
  }
  python3 -c 'import json, sys; e = json.load(open(sys.argv[1]))["engine"]
print("%.0f ms|%s|%s" % (e["elapsed_us"] / 1000, e.get("depth"), "yes" if e.get("exact") else "no"))' "$WORK/answer.json"
}
# "200 x 7, 503 x 1" from one status a line.
tally() { sort <<<"$1" | uniq -c | awk '{ printf "%s%s x %s", (NR > 1 ? ", " : ""), $2, $1 }'; }

echo "Machine: $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); $SLOTS search slot(s), TT_MIB=$TT_MIB, $CLIENTS clients at once"
echo
echo "| Tree | JSON | Idle | One tree | Answer | $CLIENTS trees at once | Statuses |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
for shape in wide comb two-level binary; do
  tree="$WORK/$shape.json"
  start_server OPENING_BOOK=none
  idle=$(hwm)
  [[ $(post "$tree" "$WORK/answer.json") == 200 ]] || {
    echo "memory-check: the $shape tree was not answered with 200: $(head -c 300 "$WORK/answer.json")" >&2
    exit 1
  }
  one=$(hwm)
  codes=$(post_many "$tree")
  many=$(hwm)
  statuses=$(tally "$codes")
  echo "| $shape | $(size "$tree" MB) | $idle | $one | $(size "$WORK/answer.json" KB) | $many | $statuses |"
  stop_server
  bad=$(grep -cv '^200$\|^503$' <<<"$codes" || true)
  ((bad == 0)) || { echo "memory-check: a status other than 200/503 for the $shape tree" >&2; exit 1; }
done

# Connect Four: a fresh server with the book, then the wide tree on it.
C4_POSITIONS=(4453344336 4444466662222 44444666622222 4444433332222 44444222266666)
echo
echo "Connect Four, book loaded ($(du -h "$OPENING_BOOK" | cut -f1) file), default budget (1 s); $SLOTS search slot(s):"
echo
echo "| Position | Stones | Engine time | Exact | Peak RSS after it |"
echo "| --- | ---: | ---: | --- | ---: |"
start_server OPENING_BOOK="$OPENING_BOOK"
idle=$(hwm)
for moves in "${C4_POSITIONS[@]}"; do
  report=$(engine_answer connect4 "$moves" "$WORK/c4-$moves.json")
  IFS='|' read -r took _ exact <<<"$report"
  echo "| \`$moves\` | ${#moves} | $took | $exact | $(hwm) |"
done
one=$(hwm)
c4_bodies=()
for moves in "${C4_POSITIONS[@]}"; do c4_bodies+=("$WORK/c4-$moves.json"); done
codes=$(post_many "${c4_bodies[@]}")
many=$(hwm)
c4_statuses=$(tally "$codes")
[[ $(post "$WORK/wide.json" "$WORK/answer.json") == 200 ]] || {
  echo "memory-check: the wide tree was not answered with 200 after Connect Four: $(head -c 300 "$WORK/answer.json")" >&2
  exit 1
}
tree_one=$(hwm)
tree_codes=$(post_many "$WORK/wide.json")
tree_many=$(hwm)
tree_statuses=$(tally "$tree_codes")
stop_server
echo
echo "| Same server, in order | Peak RSS (VmHWM) | Statuses |"
echo "| --- | ---: | --- |"
echo "| idle, book loaded | $idle | |"
echo "| the ${#C4_POSITIONS[@]} positions one at a time | $one | 200 x ${#C4_POSITIONS[@]} |"
echo "| $CLIENTS positions at once | $many | $c4_statuses |"
echo "| then one wide tree | $tree_one | 200 x 1 |"
echo "| then $CLIENTS wide trees at once | $tree_many | $tree_statuses |"

bad=$(grep -cv '^200$\|^503$' <<<"$codes"$'\n'"$tree_codes" || true)
((bad == 0)) || { echo "memory-check: a status other than 200/503 for Connect Four or the tree after it" >&2; exit 1; }

# Othello: a fresh server, three positions the engine cannot finish within
# the default budget (12, 30 and 40 plies in: the heuristic driver fills its
# table), one at a time, then CLIENTS at once.
OTHELLO_POSITIONS=(c4c5b6d3c2a7d6e7d7e3b5d2
  d3c3b3e3f3c5f6g2b5c6f4a5h1f5d6e7d7e6d8c4c7b7a8b6a4f8g4b4e8a3
  c4c5f6c3b5g7e3e6c2f3g3a5h8b3f4f2b4f5f7h3a3d2e2e1a6e7d7c1c6g8f1g4d1b6b1d3g6b7f8a7)
start_server OPENING_BOOK="$OPENING_BOOK"
echo
echo "Othello, default budget (1 s), on a fresh server; $SLOTS search slot(s):"
echo
echo "| Position (plies) | Engine time | Depth | Exact | Peak RSS after it |"
echo "| --- | ---: | ---: | --- | ---: |"
idle=$(hwm)
for moves in "${OTHELLO_POSITIONS[@]}"; do
  report=$(engine_answer othello "$moves" "$WORK/othello-${#moves}.json")
  IFS='|' read -r took depth exact <<<"$report"
  echo "| $((${#moves} / 2)) | $took | $depth | $exact | $(hwm) |"
done
one=$(hwm)
othello_bodies=()
for moves in "${OTHELLO_POSITIONS[@]}"; do othello_bodies+=("$WORK/othello-${#moves}.json"); done
codes=$(post_many "${othello_bodies[@]}")
many=$(hwm)
othello_statuses=$(tally "$codes")
stop_server
echo
echo "| Same server, in order | Peak RSS (VmHWM) | Statuses |"
echo "| --- | ---: | --- |"
echo "| idle | $idle | |"
echo "| the ${#OTHELLO_POSITIONS[@]} positions one at a time | $one | 200 x ${#OTHELLO_POSITIONS[@]} |"
echo "| $CLIENTS positions at once | $many | $othello_statuses |"
bad=$(grep -cv '^200$\|^503$' <<<"$codes" || true)
((bad == 0)) || { echo "memory-check: a status other than 200/503 for Othello" >&2; exit 1; }

# Bodies just under 16 MiB (MAX_BODY_BYTES) of small items.
python3 - "$WORK" <<'PY'
import sys
work, size = sys.argv[1], 16 * 1024 * 1024 - 64
def write(name, head, item, tail):
    n = (size - len(head) - len(tail)) // len(item)
    with open(f"{work}/{name}.json", "w") as out:
        out.write(head + item * n + item.rstrip(",") + tail)
write("c4-moves-array", '{"game": "connect4", "moves": [', "0,", "]}")
write("c4-board-row", '{"game": "connect4", "board": [[', '".",', "]]}")
write("ttt-board-array", '{"board": [', "0,", "]}")
write("othello-moves-array", '{"game": "othello", "moves": [', '"f5",', "]}")
PY
start_server OPENING_BOOK="$OPENING_BOOK"
echo
echo "Big arrays of small items, on a fresh server with the book; $SLOTS search slot(s):"
echo
echo "| Same server, in order | Peak RSS (VmHWM) | Statuses |"
echo "| --- | ---: | --- |"
echo "| idle, book loaded | $(hwm) | |"
for body in c4-moves-array c4-board-row ttt-board-array othello-moves-array; do
  code=$(post "$WORK/$body.json" "$WORK/answer.json")
  [[ $code == 422 ]] || {
    echo "memory-check: the $body body was not refused with 422 ($code): $(head -c 300 "$WORK/answer.json")" >&2
    exit 1
  }
  echo "| then \`$body\` ($(size "$WORK/$body.json" MB)) | $(hwm) | 422 x 1 |"
done
codes=$(post_many "$WORK/c4-moves-array.json")
statuses=$(tally "$codes")
echo "| then $CLIENTS moves arrays at once | $(hwm) | $statuses |"
stop_server
bad=$(grep -cv '^422$\|^503$' <<<"$codes" || true)
((bad == 0)) || { echo "memory-check: a status other than 422/503 for the big bodies" >&2; exit 1; }

peak_kib=$(sort -n "$WORK/peaks" | tail -n 1)
peak=$(awk -v k="$peak_kib" 'BEGIN { printf "%.1f", k / 1024 }')
echo
if ((peak_kib > MAX_PEAK_MIB * 1024)); then
  echo "memory-check: FAIL: the highest peak, $peak MiB, is over $MAX_PEAK_MIB MiB" >&2
  exit 1
fi
echo "Highest peak: $peak MiB, within MAX_PEAK_MIB ($MAX_PEAK_MIB MiB)."
