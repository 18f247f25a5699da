#!/usr/bin/env bash
# shellcheck disable=SC2016  # backquotes in single quotes are Markdown code spans
# One client floods long searches; does another client still get answers?
#
# A release server on 127.0.0.1 (MAX_SEARCH_MS=5000, no opening book, so a
# search of the one-stone Connect Four position runs its whole 5 s; the
# search slots and per-client limits set by each scenario):
#
#   attacker   wrk, from 127.0.0.1, ATTACK_CONNECTIONS (8) connections
#              sending {"game": "connect4", "moves": "4", "time_ms": 5000}
#              back to back for DURATION (30) seconds;
#   victim     curl, from 127.0.0.2 (another loopback address, so another
#              client), one short search at a time every VICTIM_PAUSE
#              (0.1) s: a 30-stone Connect Four position, solved in well
#              under a millisecond but, like every Connect Four search,
#              run in a search slot.
#
# Scenarios (a fresh server each):
#   baseline   the Deployment's settings, and no attacker: the victim's
#              usual latency
#   off        1 slot, no per-client limits (the binary's default limits)
#   on-1slot   1 slot with the per-client limits CLIENT_MAX_SEARCHES=1,
#              CLIENT_SEARCH_MS=15000 per CLIENT_WINDOW_MS=60000
#   on         the Deployment's settings: those limits with
#              MAX_CONCURRENT_SEARCHES=2 and TT_MIB=32
#
# Prints a Markdown table (stdout): the victim's answers and latency
# (p50, p95, max), and the attacker's statuses. Progress on stderr; raw
# data in target/fairness-load/.
#
# Usage: scripts/fairness-load.sh [> results.md]    (from anywhere in the repo)
# Knobs (env): DURATION, ATTACK_CONNECTIONS, VICTIM_PAUSE, SCENARIOS
#   ("baseline off on-1slot on").
# Needs: cargo, curl, wrk (installed from Debian's packages when missing).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
DURATION=${DURATION:-30}
ATTACK_CONNECTIONS=${ATTACK_CONNECTIONS:-8}
VICTIM_PAUSE=${VICTIM_PAUSE:-0.1}
SCENARIOS=${SCENARIOS:-baseline off on-1slot on}
# deploy/kubernetes/deployment.yaml's search and per-client settings.
DEPLOYED=(MAX_CONCURRENT_SEARCHES=2 TT_MIB=32 CLIENT_MAX_SEARCHES=1 CLIENT_SEARCH_MS=15000 CLIENT_WINDOW_MS=60000)
BIN=$ROOT/target/release/bestmove
OUT=$ROOT/target/fairness-load
ATTACKER=127.0.0.1
VICTIM=127.0.0.2
LONG='{"game": "connect4", "moves": "4", "time_ms": 5000}'
SHORT='{"game": "connect4", "moves": "612313147626667357672244337327"}'

t() { echo "[$(date +%T)] $*" >&2; }
die() { echo "fairness-load: $*" >&2; exit 1; }
[[ $DURATION =~ ^[1-9][0-9]*$ ]] || die "DURATION must be a positive integer"
[[ $ATTACK_CONNECTIONS =~ ^[1-9][0-9]*$ ]] || die "ATTACK_CONNECTIONS must be a positive integer"

missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v curl >/dev/null || missing+=(curl)
if ((${#missing[@]})); then
  [[ $(id -u) -eq 0 ]] || die "install ${missing[*]} (Debian: apt-get install -y ${missing[*]})"
  t "installing ${missing[*]} from Debian's packages"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
t "cargo build --release --locked"
cargo build --release --locked --bin bestmove >&2

rm -rf "$OUT" && mkdir -p "$OUT"
printf '%s\n' "$LONG" >"$OUT/long.json"
SERVER_PID=
stop_server() {
  if [[ -n $SERVER_PID ]]; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
  fi
}
trap stop_server EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# run NAME ATTACK VAR=value...: one scenario (ATTACK: yes or no); prints
# its table row.
run() {
  local name=$1 attack=$2 port base
  shift 2
  port=$(free_port)
  base=http://127.0.0.1:$port
  env OPENING_BOOK=none HOST=127.0.0.1 PORT="$port" RUST_LOG=warn MAX_CONCURRENT_SEARCHES=1 MAX_SEARCH_MS=5000 \
    REQUEST_TIMEOUT_MS=10000 "$@" "$BIN" >"$OUT/server-$name.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 100); do curl -fsS -o /dev/null -m 1 "$base/healthz" 2>/dev/null && break; sleep 0.1; done
  curl -fsS -o /dev/null -m 1 "$base/healthz" || die "the server ($name) did not start"
  local wrk_pid=
  if [[ $attack == yes ]]; then
    t "$name: ${*:-no per-client limits}; attack for ${DURATION}s"
    wrk -t1 -c"$ATTACK_CONNECTIONS" -d"${DURATION}s" --timeout 15s -s scripts/load/post.lua \
      "$base/best-move" -- "$OUT/long.json" >"$OUT/wrk-$name.txt" 2>&1 &
    wrk_pid=$!
  else
    t "$name: ${*:-no per-client limits}; no attacker, ${DURATION}s"
    echo "no attacker" >"$OUT/wrk-$name.txt"
  fi
  sleep 1  # the attack is under way
  local until=$((SECONDS + DURATION - 2))
  : >"$OUT/victim-$name.txt"
  while ((SECONDS < until)); do
    curl -s -o /dev/null --interface "$VICTIM" -m 15 -H 'content-type: application/json' -d "$SHORT" \
      -w '%{http_code} %{time_total}\n' "$base/best-move" >>"$OUT/victim-$name.txt" || echo "000 15" >>"$OUT/victim-$name.txt"
    sleep "$VICTIM_PAUSE"
  done
  [[ -z $wrk_pid ]] || wait "$wrk_pid" || true
  local refusals
  refusals=$(curl -s -m 5 "$base/metrics" | awk '/^bestmove_client_refusals_total/ {s += $2} END {print s + 0}')
  stop_server

  python3 - "$name" "$*" "$OUT/victim-$name.txt" "$OUT/wrk-$name.txt" "$refusals" <<'PY'
import re, sys
name, settings, victim_file, wrk_file, refusals = sys.argv[1:]
rows = [line.split() for line in open(victim_file) if line.strip()]
times = sorted(float(t) for _, t in rows)
ok = sum(1 for code, _ in rows if code == "200")
others = {}
for code, _ in rows:
    if code != "200":
        others[code] = others.get(code, 0) + 1
q = lambda p: times[min(len(times) - 1, int(p * len(times)))] * 1000 if times else float("nan")
fast = sum(1 for t in times if t <= 0.1)
result = re.search(r"RESULT .*statuses=(\S*)", open(wrk_file).read())
attacker = result.group(1).replace(",", ", ").replace(":", " × ") if result else "?"
if "no attacker" in open(wrk_file).read():
    attacker = "none"
other_text = ", ".join(f"{c} × {n}" for c, n in sorted(others.items())) or "none"
print(f"| {name} | {settings or 'none'} | {len(rows)} | {ok} | {other_text} | {fast} | "
      f"{q(0.5):.1f} ms | {q(0.95):.1f} ms | {times[-1] * 1000:.0f} ms | {attacker} | {refusals} |")
PY
}

ip addr show lo 2>/dev/null | grep -q "inet 127.0.0.1/8" || t "note: loopback is not 127.0.0.1/8; $VICTIM may not work"
echo "| Scenario | Per-client settings | Victim requests | Victim 200 | Victim other | Victim ≤ 100 ms | Victim p50 | Victim p95 | Victim max | Attacker statuses | 429s counted |"
echo "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: |"
for scenario in $SCENARIOS; do
  case $scenario in
    baseline) run baseline no "${DEPLOYED[@]}" ;;
    off) run off yes ;;
    on-1slot) run on-1slot yes CLIENT_MAX_SEARCHES=1 CLIENT_SEARCH_MS=15000 CLIENT_WINDOW_MS=60000 ;;
    on) run on yes "${DEPLOYED[@]}" ;;
    *) die "unknown scenario $scenario" ;;
  esac
done
echo
echo "Machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -sr); $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git rev-parse --short HEAD); load average at the end $(cut -d' ' -f1-3 /proc/loadavg); duration ${DURATION}s, ${ATTACK_CONNECTIONS} attacker connections."
