#!/usr/bin/env bash
# shellcheck disable=SC2016  # backquotes in single quotes are Markdown code spans
# Slow and idle clients against the release server, on 127.0.0.1 only.
#
# Starts the server with `ulimit -n 1024` and the default timeouts and
# connection limit, then (scripts/slow-clients.py) opens CONNECTIONS (1100)
# connections that each send "POST /best-move HTTP/1.1\r\nHost: x\r\n" and
# then nothing, while asking /healthz once a second on fresh connections. It
# reports how long /healthz was unavailable (the longest time with no probe
# answered; target: at most the header timeout plus 2 s) and the longest any
# one probe waited, that the server closed every slow connection and how
# long each took, the warnings the server logged, and its peak memory. A second run, on a fresh server, does the same with
# connections that send one more header byte every 2 seconds.
#
# Usage: scripts/slow-clients.sh [> results.md]      (from anywhere in the repo)
# Knobs (env): CONNECTIONS (1100), FD_LIMIT (1024), TRICKLE (2, seconds).
# Exits non-zero if a target is missed or the server does not stop cleanly.
# Each run takes about twice the header timeout (10 s by default), plus a
# few seconds. Server logs are kept in target/slow-clients/.
# Needs: cargo, python3.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

CONNECTIONS=${CONNECTIONS:-1100}
FD_LIMIT=${FD_LIMIT:-1024}
TRICKLE=${TRICKLE:-2}
HOSTADDR=127.0.0.1
BIN=$ROOT/target/release/bestmove
OUT=$ROOT/target/slow-clients
CLIENT=$ROOT/scripts/slow-clients.py
# The server's default, which this script does not change.
HEADER_TIMEOUT_S=10

t() { echo "[$(date +%T)] $*" >&2; }
die() { echo "slow-clients: $*" >&2; exit 1; }

t "cargo build --release --locked"
cargo build --release --locked >&2

rm -rf "$OUT"
mkdir -p "$OUT"
SERVER_PID=
stop_server() {
  if [[ -n $SERVER_PID ]]; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    local status=0
    wait "$SERVER_PID" || status=$?
    SERVER_PID=
    return "$status"
  fi
}
trap 'stop_server || true' EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# run NAME CLIENT_ARGS...: a fresh server, one client run, a clean stop.
FAILED=0
run() {
  local name=$1 log=$OUT/server-$1.log port
  shift
  port=$(free_port)
  # Only the settings a first-time user would set; timeouts and the
  # connection limit are the defaults.
  env -u HEADER_READ_TIMEOUT_MS -u IDLE_TIMEOUT_MS -u MAX_CONNECTIONS \
    HOST=$HOSTADDR PORT="$port" RUST_LOG=info \
    bash -c 'ulimit -n "$1" && exec "$2"' _ "$FD_LIMIT" "$BIN" >"$log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 100); do
    curl -fsS -o /dev/null --max-time 1 "http://$HOSTADDR:$port/healthz" 2>/dev/null && break
    kill -0 "$SERVER_PID" 2>/dev/null || die "the server did not start (log: $log)"
    sleep 0.1
  done
  local limit
  limit=$(curl -fsS "http://$HOSTADDR:$port/metrics" | awk '$1 == "bestmove_connections_max" { print $2 }')
  t "$name: server on port $port, pid $SERVER_PID, ulimit -n $FD_LIMIT, connection limit $limit"
  python3 "$CLIENT" --port "$port" --pid "$SERVER_PID" --log "$log" --connections "$CONNECTIONS" \
    --header-timeout "$HEADER_TIMEOUT_S" "$@" >>"$OUT/rows.md" 2>"$OUT/client-$name.txt" || FAILED=1
  cat "$OUT/client-$name.txt" >&2
  local code=0
  stop_server || code=$?
  if [[ $code -ne 0 ]]; then
    echo "slow-clients: the server exited with status $code after SIGTERM (log: $log)" >&2
    FAILED=1
  fi
  echo "$limit" >"$OUT/limit"
}

[[ -x $BIN ]] || die "no $BIN"
command -v curl >/dev/null || die "needs curl"

python3 "$CLIENT" --header >"$OUT/rows.md"
run silent --mode silent
run trickle --mode trickle --trickle "$TRICKLE"

echo "Release server, \`ulimit -n $FD_LIMIT\`, default settings (header timeout ${HEADER_TIMEOUT_S} s, connection limit $(cat "$OUT/limit")); $(date -u '+%Y-%m-%d %H:%M UTC'):"
echo
cat "$OUT/rows.md"
if [[ $FAILED -ne 0 ]]; then
  die "a target was missed (see above; logs in $OUT)"
fi
t "all slow connections closed by the server; /healthz within the target"
