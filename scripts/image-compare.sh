#!/usr/bin/env bash
# Compare the runtime base images side by side: the Dockerfile's distroless
# runtime (gcr.io/distroless/cc-debian12) against debian:bookworm-slim, with
# the same build stage and the same binary. For each image: its size, the
# time from `run` to the first 200 from /healthz, and the speed of one fixed
# search (a depth-16 Connect Four search of the empty board without the book,
# the first search of a fresh server: the same positions in both images, so
# the time is the runtime's only); medians of RUNS rounds.
#
# Both images are first built and checked by scripts/container-check.sh (the
# debian-slim variant from a copy of the Dockerfile with only its runtime
# FROM line changed). Where the official base images cannot be pulled, that
# script's local stand-ins are used, and the sizes are the stand-ins' sizes.
#
# Usage: scripts/image-compare.sh     Knobs (env): RUNS (7),
#   WORK (as container-check.sh, default /tmp/ctrci), ENGINE, PORT (18091).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${WORK:-/tmp/ctrci}
RUNS=${RUNS:-7}
PORT=${PORT:-18091}
VERSION=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["package"]["version"])' "$ROOT/Cargo.toml")
export WORK
cd "$ROOT"

slim_dockerfile=$WORK/Dockerfile.debian-slim
mkdir -p "$WORK"
# The runtime stage is the last FROM; only its base changes.
awk -v last="$(grep -ci '^FROM ' Dockerfile)" '
  toupper($1)=="FROM" { n++; if (n == last) { print "FROM debian:bookworm-slim"; next } }
  { print }' Dockerfile > "$slim_dockerfile"
grep -q '^FROM debian:bookworm-slim$' "$slim_dockerfile" || { echo "FAIL: no runtime FROM line" >&2; exit 1; }

declare -A image=(
  [distroless]=localhost/bestmove:$VERSION
  [debian-slim]=localhost/bestmove:$VERSION-debian-slim
)
echo "=== build and check: distroless (the Dockerfile)"
IMAGE=${image[distroless]} bash scripts/container-check.sh
echo "=== build and check: debian-slim (the Dockerfile, runtime FROM debian:bookworm-slim)"
DOCKERFILE=$slim_dockerfile IMAGE=${image[debian-slim]} bash scripts/container-check.sh

# The same engine and storage as container-check.sh.
E=${ENGINE:-}
if [[ -z "$E" ]]; then
  if command -v docker >/dev/null && timeout 10 docker info >/dev/null 2>&1; then E=docker; else E=podman; fi
fi
if [[ $E == podman ]]; then
  export CONTAINERS_STORAGE_CONF=$WORK/storage.conf CONTAINERS_CONF=$WORK/containers.conf
fi
NAME=bestmove-compare
remove() { if [[ $E == podman ]]; then podman rm -f -t 0 "$NAME"; else docker rm -f "$NAME"; fi >/dev/null 2>&1 || true; }
trap remove EXIT
median() { sort -n | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

run() {  # run IMAGE [ENV=VALUE...]: start a container like the Deployment's
  local img=$1; shift
  local envs=()
  for e in "$@"; do envs+=(-e "$e"); done
  $E run -d --name "$NAME" -p "127.0.0.1:$PORT:8080" --no-healthcheck --read-only \
    --cap-drop=ALL --security-opt=no-new-privileges --user 10001:10001 "${envs[@]}" "$img" >/dev/null
}
wait_healthy() {
  for _ in $(seq 1 1000); do
    curl -fsS -m 1 -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && return 0
    sleep 0.01
  done
  echo "FAIL: no /healthz answer" >&2; $E logs "$NAME" >&2; return 1
}

search='{"game":"connect4","moves":"","max_depth":16,"compare":false,"time_ms":10000}'
# Each round starts every image once, in turn (so both share the machine's
# noise): the start time, then the first search of that fresh server (the
# book off, so the search is the same work in both images).
declare -A starts searches nodes
for round in $(seq 1 "$RUNS"); do
  for kind in distroless debian-slim; do
    remove
    s=$(now_ms); run "${image[$kind]}" OPENING_BOOK=none; wait_healthy
    starts[$kind]+="$(( $(now_ms) - s )) "
    body=$(curl -fsS -m 30 -H 'content-type: application/json' -d "$search" "http://127.0.0.1:$PORT/best-move")
    read -r n us < <(python3 -c 'import json, sys; e = json.loads(sys.argv[1])["engine"]; print(e["nodes"], e["elapsed_us"])' "$body")
    nodes[$kind]=$n; searches[$kind]+="$us "
  done
done
remove
rows=()
for kind in distroless debian-slim; do
  size=$($E image inspect "${image[$kind]}" --format '{{.Size}}')
  start_ms=$(tr ' ' '\n' <<<"${starts[$kind]}" | grep . | median)
  search_us=$(tr ' ' '\n' <<<"${searches[$kind]}" | grep . | median)
  echo "$kind: starts ${starts[$kind]}ms; searches ${searches[$kind]}us; ${nodes[$kind]} positions"
  rows+=("$(printf '| %-11s | %8.1f MiB | %6s ms | %7.0f ms | %9s | %6.2f M/s |' "$kind" \
    "$(awk -v b="$size" 'BEGIN{print b/1048576}')" "$start_ms" "$(awk -v u="$search_us" 'BEGIN{print u/1000}')" \
    "${nodes[$kind]}" "$(awk -v n="${nodes[$kind]}" -v u="$search_us" 'BEGIN{print n/u}')")")
done

echo
echo "Runtime images, $(date -u +%F), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), engine $E"
echo "start: run to the first /healthz 200; search: $search; medians of $RUNS rounds"
echo
echo "| runtime     |         size |    start |     search | positions |    speed   |"
echo "|-------------|--------------|----------|------------|-----------|------------|"
printf '%s\n' "${rows[@]}"
