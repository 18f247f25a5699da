#!/usr/bin/env bash
# shellcheck disable=SC2016  # backquotes in single quotes are Markdown code spans
# Load test of the bestmove HTTP service with wrk, against a release binary on
# a free loopback port (127.0.0.1 only). Each scenario runs for DURATION
# seconds; the result is a Markdown table (stdout) ready for the README:
#
#   healthz    GET /healthz: the ceiling of this machine for a trivial route
#   mid-game   POST /best-move {"board": "XO..X...."} (O to move)
#   2-stone    POST /best-move {"board": "X...O...."}
#   empty      POST /best-move {"board": "........."}: the whole game tree
#   tree-10k   POST /best-move with a generated tree, branching 10, depth 4
#              (10,000 leaves, fixed pseudo-random values)
#   c4-book    POST /best-move {"game": "connect4", "moves": "44444366655"}: 11
#              stones, every reply in the book: answered
#              from the opening book
#   c4-late    POST /best-move {"game": "connect4", "moves": <30 stones>}:
#              solved to the end in a few milliseconds
#   overload   OVERLOAD_CONNECTIONS (512) connections of empty boards: only
#              200 and 503 are allowed; the server's peak RSS is sampled
#
# The mid-game board's requests/s is also given as a percentage of /healthz's
# (target: at least 60%), from the table and as the median of RATIO_ROUNDS
# interleaved pairs of RATIO_DURATION-second runs.
#
# With COMPARE_INLINE=1 it then compares where small searches run: the
# mid-game and 2-stone boards against fresh servers with INLINE_MAX_NODES=0
# (every search on the blocking pool), the default 16384, and 2000000 (every
# search inline), COMPARE_ROUNDS times each (interleaved), in a second table.
#
# Usage: scripts/load-test.sh [> results.md]      (from anywhere in the repo)
# Knobs (env): DURATION (seconds per scenario, 10), CONNECTIONS (64),
#              THREADS (wrk threads, 2), OVERLOAD_CONNECTIONS (512),
#              WRK_TIMEOUT (15s: above the server's 10 s request timeout, so
#              a wrk timeout means an unanswered request), COMPARE_INLINE (0),
#              COMPARE_ROUNDS (2), COMPARE_VALUES ("0 16384 2000000"),
#              RATIO_ROUNDS (5), RATIO_DURATION (4).
# The servers inherit the caller's environment, so the service's own settings
# (SEARCH_QUEUE=1000, say) can be tried; the report names any that are set.
# Exits non-zero if the overload run saw a status other than 200/503 or a
# request unanswered past WRK_TIMEOUT, or if the server died.
# The Connect Four opening book is OPENING_BOOK, or the one
# scripts/fetch-opening-book.sh fetches when that is unset.
# Progress goes to stderr; wrk's full output and the server logs are kept in
# target/load-test/.
# Needs: cargo, curl, wrk (installed from Debian's packages when missing).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
OVERLOAD_CONNECTIONS=${OVERLOAD_CONNECTIONS:-512}
WRK_TIMEOUT=${WRK_TIMEOUT:-15s}
COMPARE_INLINE=${COMPARE_INLINE:-0}
COMPARE_ROUNDS=${COMPARE_ROUNDS:-2}
RATIO_ROUNDS=${RATIO_ROUNDS:-5}
RATIO_DURATION=${RATIO_DURATION:-4}
COMPARE_VALUES=${COMPARE_VALUES:-0 16384 2000000}
TREE_BRANCHING=10
TREE_DEPTH=4
TREE_SEED=20240601

for knob in DURATION CONNECTIONS THREADS OVERLOAD_CONNECTIONS COMPARE_ROUNDS; do
  [[ ${!knob} =~ ^[1-9][0-9]*$ ]] || { echo "load-test: $knob must be a positive integer (got '${!knob}')" >&2; exit 2; }
done

BIN=$ROOT/target/release/bestmove
LUA=$ROOT/scripts/load
OUT=$ROOT/target/load-test
HOSTADDR=127.0.0.1

t() { echo "[$(date +%T)] $*" >&2; }
die() { echo "load-test: $*" >&2; exit 1; }

# ---- tools ------------------------------------------------------------------
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v curl >/dev/null || missing+=(curl)
if ((${#missing[@]})); then
  [[ $(id -u) -eq 0 ]] || die "install ${missing[*]} (Debian: apt-get install -y ${missing[*]})"
  t "installing ${missing[*]} from Debian's packages"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi

# ---- the release binary (fast when already built) ---------------------------
t "cargo build --release --locked"
cargo build --release --locked >&2
OPENING_BOOK=${OPENING_BOOK:-$(scripts/fetch-opening-book.sh)}
export OPENING_BOOK

# ---- state, cleanup -----------------------------------------------------------
rm -rf "$OUT"
mkdir -p "$OUT"
WORK=$(mktemp -d)
SERVER_PID=
SAMPLER_PID=
SERVER_LOG=
SERVER_DIED=0

stop_sampler() {
  if [[ -n $SAMPLER_PID ]]; then
    kill "$SAMPLER_PID" 2>/dev/null || true
    wait "$SAMPLER_PID" 2>/dev/null || true
    SAMPLER_PID=
  fi
}

stop_server() {
  stop_sampler
  if [[ -n $SERVER_PID ]]; then
    if kill -0 "$SERVER_PID" 2>/dev/null; then
      kill -TERM "$SERVER_PID" 2>/dev/null || true
      for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
  fi
}

cleanup() {
  local status=$?
  stop_server
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- request bodies -----------------------------------------------------------
printf '{"board": "........."}\n' >"$WORK/empty.json"
printf '{"board": "X...O...."}\n' >"$WORK/two-stone.json"
printf '{"board": "XO..X...."}\n' >"$WORK/mid-game.json"
C4_BOOK_MOVES=${C4_BOOK_MOVES:-44444366655}
C4_LATE_MOVES=612313147626667357672244337327
printf '{"game": "connect4", "moves": "%s"}\n' "$C4_BOOK_MOVES" >"$WORK/c4-book.json"
printf '{"game": "connect4", "moves": "%s"}\n' "$C4_LATE_MOVES" >"$WORK/c4-late.json"
# A complete tree, TREE_BRANCHING children per inner node, TREE_DEPTH plies:
# nested arrays of integers in -1000..1000 from a Park-Miller generator with a
# fixed seed (exact in awk's doubles), so every run sends the same tree.
awk -v b="$TREE_BRANCHING" -v d="$TREE_DEPTH" -v seed="$TREE_SEED" '
  function node(depth,   i) {
    if (depth == 0) { x = (x * 16807) % 2147483647; printf "%d", x % 2001 - 1000; return }
    printf "["
    for (i = 0; i < b; i++) { if (i) printf ","; node(depth - 1) }
    printf "]"
  }
  BEGIN { x = seed; printf "{\"tree\": "; node(d); printf "}\n" }' >"$WORK/tree.json"
TREE_LEAVES=$((TREE_BRANCHING ** TREE_DEPTH))

# ---- the server -------------------------------------------------------------------
free_port() {
  if command -v python3 >/dev/null; then
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
    return
  fi
  local port
  for _ in $(seq 50); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/$HOSTADDR/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  die "no free port found"
}

# start_server NAME [VAR=value...]: a fresh server with these settings; sets
# PORT, BASE, SERVER_PID, SERVER_LOG. Retries on another port if it cannot
# listen (a port taken between the probe and the bind).
start_server() {
  local name=$1
  shift
  SERVER_LOG=$OUT/server-$name.log
  for _ in 1 2 3; do
    PORT=$(free_port)
    BASE=http://$HOSTADDR:$PORT
    env HOST=$HOSTADDR PORT="$PORT" RUST_LOG=warn "$@" "$BIN" >"$SERVER_LOG" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 100); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      if curl -fsS -o /dev/null --max-time 1 "$BASE/healthz" 2>/dev/null; then
        t "server ($name${*:+: $*}) up on $BASE, pid $SERVER_PID"
        return 0
      fi
      sleep 0.1
    done
    stop_server
  done
  tail -n 20 "$SERVER_LOG" >&2 || true
  die "the server did not answer /healthz (log: $SERVER_LOG)"
}

# check_server WHEN: the server must still run and answer /healthz.
check_server() {
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    SERVER_DIED=1
    wait "$SERVER_PID" 2>/dev/null && code=0 || code=$?
    t "SERVER DIED $1 (exit status $code); last log lines:"
    tail -n 20 "$SERVER_LOG" >&2 || true
    SERVER_PID=
    return 1
  fi
  if ! curl -fsS -o /dev/null --max-time 5 "$BASE/healthz" 2>/dev/null; then
    SERVER_DIED=1
    t "SERVER NOT ANSWERING /healthz $1"
    return 1
  fi
}

# preflight NAME BODY_FILE: one request must answer 200 before it is loaded.
preflight() {
  local code
  code=$(curl -sS -o "$OUT/preflight-$1.json" -w '%{http_code}' --max-time 30 \
    -H 'Content-Type: application/json' --data-binary "@$2" "$BASE/best-move")
  [[ $code == 200 ]] || die "preflight $1: status $code: $(head -c 300 "$OUT/preflight-$1.json")"
}

rss_kib() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null || true; }
mib() { awk -v k="${1:-0}" 'BEGIN { printf "%.1f", k / 1024 }'; }

# ---- wrk runs ------------------------------------------------------------------------
declare -A R  # R[id.key] = value, from the RESULT line of report.lua

# run_wrk ID CONNECTIONS PATH LUA [BODY_FILE]: one wrk run; results in R[ID.*].
run_wrk() {
  local id=$1 conns=$2 path=$3 script=$4 body=${5:-} line kv
  local args=(-t "$THREADS" -c "$conns" -d "${DURATION}s" --timeout "$WRK_TIMEOUT" --latency
    -s "$LUA/$script" "$BASE$path")
  [[ -n $body ]] && args+=(-- "$body")
  t "wrk $id: $conns connections, ${DURATION}s, $path"
  if ! wrk "${args[@]}" >"$OUT/wrk-$id.txt" 2>&1; then
    cat "$OUT/wrk-$id.txt" >&2
    die "wrk failed for $id"
  fi
  line=$(grep '^RESULT ' "$OUT/wrk-$id.txt" | tail -n 1) || die "no RESULT line from wrk for $id (see $OUT/wrk-$id.txt)"
  for kv in ${line#RESULT }; do R[$id.${kv%%=*}]=${kv#*=}; done
  # 2xx answers per second, and a summary of everything else.
  local ok=0 other=() code n pairs
  IFS=, read -ra pairs <<<"${R[$id.statuses]}"
  for kv in "${pairs[@]}"; do
    [[ $kv == none ]] && continue
    code=${kv%%:*} n=${kv#*:}
    if [[ $code == 2?? ]]; then ok=$((ok + n)); else other+=("$code × $n"); fi
  done
  R[$id.ok]=$ok
  R[$id.okps]=$(awk -v n="$ok" -v us="${R[$id.duration_us]}" 'BEGIN { printf "%.1f", n / (us / 1e6) }')
  local socket=()
  for kv in connect read write timeout; do
    ((${R[$id.$kv]} > 0)) && socket+=("$kv ${R[$id.$kv]}")
  done
  local summary=""
  ((${#other[@]})) && summary="non-2xx: $(join ', ' "${other[@]}")"
  ((${#socket[@]})) && summary="${summary:+$summary; }socket: $(join ', ' "${socket[@]}")"
  R[$id.errors]=${summary:-0}
  t "  -> ${R[$id.rps]} req/s (2xx ${R[$id.okps]}/s), p50 ${R[$id.p50_us]} us, p99 ${R[$id.p99_us]} us, statuses ${R[$id.statuses]}"
}

# join SEP ITEM...: the items with SEP between them.
join() {
  local sep=$1 out=${2-}
  shift 2 || return 0
  for item; do out+=$sep$item; done
  printf '%s' "$out"
}

# c4_engine_time NAME: the engine's elapsed time and exactness in the preflight answer.
c4_engine_time() {
  python3 -c 'import json, sys; e = json.load(open(sys.argv[1]))["engine"]
print("%.2f ms (%s)" % (e["elapsed_us"] / 1000, "exact" if e.get("exact") else "not exact"))' "$OUT/preflight-$1.json" 2>/dev/null || echo "?"
}
ms() { awk -v us="$1" 'BEGIN { if (us >= 100000) printf "%.0f ms", us / 1000; else if (us >= 1000) printf "%.1f ms", us / 1000; else printf "%.2f ms", us / 1000 }'; }
int() { awk -v x="$1" 'BEGIN { printf "%.0f", x }'; }

FAILURES=()

# ---- the default suite -----------------------------------------------------------
START_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
start_server default
IDLE_RSS=$(rss_kib "$SERVER_PID" VmRSS)
for body in empty two-stone mid-game tree c4-book c4-late; do preflight "$body" "$WORK/$body.json"; done

SCENARIOS=()
scenario() {  # scenario ID LABEL CONNECTIONS PATH LUA [BODY_FILE]
  local id=$1 label=$2
  shift 2
  ((SERVER_DIED)) && return 0
  SCENARIOS+=("$id")
  R[$id.label]=$label
  R[$id.conns]=$1
  run_wrk "$id" "$@"
  check_server "after $id" || FAILURES+=("the server died or stopped answering during $id")
  ((SERVER_DIED)) || R[$id.rss]=$(rss_kib "$SERVER_PID" VmRSS)
}

# /healthz right before the mid-game board: the two are compared, and the
# machine's speed drifts when it is shared.
scenario healthz 'GET /healthz' "$CONNECTIONS" /healthz get.lua
scenario mid-game 'mid-game `XO..X....`' "$CONNECTIONS" /best-move post.lua "$WORK/mid-game.json"
scenario two-stone '2 stones `X...O....`' "$CONNECTIONS" /best-move post.lua "$WORK/two-stone.json"
scenario empty 'empty board `.........`' "$CONNECTIONS" /best-move post.lua "$WORK/empty.json"
scenario tree "tree, $TREE_LEAVES leaves (${TREE_BRANCHING}^$TREE_DEPTH)" "$CONNECTIONS" /best-move post.lua "$WORK/tree.json"
scenario c4-book "Connect Four \`$C4_BOOK_MOVES\` (book)" "$CONNECTIONS" /best-move post.lua "$WORK/c4-book.json"
scenario c4-late "Connect Four, ${#C4_LATE_MOVES} stones" "$CONNECTIONS" /best-move post.lua "$WORK/c4-late.json"

# The mid-game target compares two rates measured one after the other, and
# a shared machine drifts: also measure RATIO_ROUNDS interleaved pairs of
# shorter runs and take the median ratio.
RATIOS=()
for round in $(seq "$RATIO_ROUNDS"); do
  ((SERVER_DIED)) && break
  saved=$DURATION
  DURATION=$RATIO_DURATION
  run_wrk "ratio-healthz-$round" "$CONNECTIONS" /healthz get.lua
  run_wrk "ratio-mid-$round" "$CONNECTIONS" /best-move post.lua "$WORK/mid-game.json"
  DURATION=$saved
  check_server "after ratio round $round" || { FAILURES+=("the server died during ratio round $round"); break; }
  RATIOS+=("$(awk -v a="${R[ratio-mid-$round.okps]}" -v b="${R[ratio-healthz-$round.rps]}" 'BEGIN { printf "%.0f", 100 * a / b }')")
done

# Overload, with the peak RSS of this run alone: writing 5 to clear_refs
# resets VmHWM (the peak since start otherwise); VmRSS is also sampled.
PEAK_BEFORE=""
PEAK_OVERLOAD=""
PEAK_SAMPLED=""
PEAK_NOTE=""
if ((!SERVER_DIED)); then
  PEAK_BEFORE=$(rss_kib "$SERVER_PID" VmHWM)
  if echo 5 >"/proc/$SERVER_PID/clear_refs" 2>/dev/null; then
    PEAK_NOTE="VmHWM reset before the overload run"
  else
    PEAK_NOTE="VmHWM could not be reset: it is the peak since the server started"
  fi
  (
    max=0
    while kill -0 "$SERVER_PID" 2>/dev/null; do
      rss=$(rss_kib "$SERVER_PID" VmRSS)
      if [[ -n $rss ]] && ((rss > max)); then max=$rss; echo "$max" >"$WORK/rss-max"; fi
      sleep 0.1
    done
  ) &
  SAMPLER_PID=$!
  scenario overload "overload: $OVERLOAD_CONNECTIONS connections, empty board" "$OVERLOAD_CONNECTIONS" /best-move post.lua "$WORK/empty.json"
  if ((!SERVER_DIED)); then PEAK_OVERLOAD=$(rss_kib "$SERVER_PID" VmHWM); fi
  stop_sampler
  PEAK_SAMPLED=$(cat "$WORK/rss-max" 2>/dev/null || echo "")

  if [[ -n ${R[overload.statuses]:-} ]]; then
    IFS=, read -ra pairs <<<"${R[overload.statuses]}"
    for kv in "${pairs[@]}"; do
      [[ $kv == none || ${kv%%:*} == 200 || ${kv%%:*} == 503 ]] || FAILURES+=("overload: status ${kv%%:*} × ${kv#*:} (only 200 and 503 are allowed)")
    done
    ((${R[overload.timeout]} == 0)) || FAILURES+=("overload: ${R[overload.timeout]} requests unanswered after $WRK_TIMEOUT")
  fi
fi
stop_server

# ---- the comparison: inline searches vs the blocking pool ----------------------
COMPARE_IDS=()
if [[ $COMPARE_INLINE == 1 ]] && ((!SERVER_DIED)); then
  for round in $(seq "$COMPARE_ROUNDS"); do
    for value in $COMPARE_VALUES; do
      start_server "inline-$value-r$round" INLINE_MAX_NODES="$value"
      for body in mid-game two-stone; do
        id=cmp-$body-$value-r$round
        COMPARE_IDS+=("$id")
        run_wrk "$id" "$CONNECTIONS" /best-move post.lua "$WORK/$body.json"
        check_server "after $id" || { FAILURES+=("the server died during $id (INLINE_MAX_NODES=$value)"); break 3; }
      done
      stop_server
    done
  done
fi

# ---- report ------------------------------------------------------------------------------
END_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
CPU=$(lscpu 2>/dev/null | awk -F: '/^Model name/ { sub(/^[ \t]+/, "", $2); print $2; exit }')
MEM=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
if COMMIT=$(git rev-parse --short HEAD 2>/dev/null); then
  git diff --quiet HEAD -- src Cargo.toml Cargo.lock || COMMIT="$COMMIT + uncommitted changes to src/"
else
  COMMIT="(not a git checkout)"
fi

SETTINGS=()
for var in MAX_BODY_BYTES MAX_TREE_NODES MAX_TREE_DEPTH REQUEST_TIMEOUT_MS MAX_CONCURRENT_SEARCHES SEARCH_QUEUE \
  INLINE_MAX_NODES CORS_ORIGINS LOG_FORMAT SHUTDOWN_TIMEOUT_MS MAX_SEARCH_MS COMPARE_MAX_NODES TT_MIB; do
  [[ -n ${!var+set} ]] && SETTINGS+=("$var=${!var}")
done
OTHER_SETTINGS=()  # those the comparison does not set itself
for setting in "${SETTINGS[@]}"; do [[ $setting == INLINE_MAX_NODES=* ]] || OTHER_SETTINGS+=("$setting"); done
if ((${#SETTINGS[@]})); then
  SETTINGS_TEXT="settings from the environment: $(join ', ' "${SETTINGS[@]}"), the rest default"
else
  SETTINGS_TEXT="default settings"
fi

report() {
  echo "### Load test ($(date -u '+%Y-%m-%d %H:%M UTC'))"
  echo
  echo "Machine: $(nproc) CPUs ($CPU), $MEM memory; load average $START_LOAD at start, $END_LOAD at end."
  echo "bestmove $COMMIT, release build, RUST_LOG=warn, $SETTINGS_TEXT; $( (wrk -v 2>&1 || true) | head -n 1 | cut -d' ' -f1-2),"
  echo "$THREADS threads, $CONNECTIONS connections (unless noted), ${DURATION} s per scenario, client and server on the same machine."
  echo
  echo "| Scenario | Requests/s | 2xx/s | p50 | p99 | Errors / non-2xx | RSS after |"
  echo "| --- | ---: | ---: | ---: | ---: | --- | ---: |"
  for id in "${SCENARIOS[@]}"; do
    [[ -n ${R[$id.rps]:-} ]] || continue
    local rss="-"
    [[ -n ${R[$id.rss]:-} ]] && rss="$(mib "${R[$id.rss]}") MiB"
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "${R[$id.label]}" "$(int "${R[$id.rps]}")" "$(int "${R[$id.okps]}")" \
      "$(ms "${R[$id.p50_us]}")" "$(ms "${R[$id.p99_us]}")" "${R[$id.errors]}" "$rss"
  done
  echo
  if [[ -n ${R[c4-book.rps]:-} ]]; then
    echo "Connect Four: opening book $(basename "$OPENING_BOOK") loaded (every scenario's server has it); the ${#C4_LATE_MOVES} stones are"
    echo "\`$C4_LATE_MOVES\`. Engine time of one answer (preflight): $(c4_engine_time c4-book) for \`$C4_BOOK_MOVES\`, $(c4_engine_time c4-late) for the ${#C4_LATE_MOVES} stones."
  fi
  if [[ -n ${R[mid-game.okps]:-} && -n ${R[healthz.rps]:-} ]]; then
    local pct median
    pct=$(awk -v a="${R[mid-game.okps]}" -v b="${R[healthz.rps]}" 'BEGIN { printf "%.0f", 100 * a / b }')
    echo "Mid-game board: $pct% of /healthz's requests/s in the table above."
    if ((${#RATIOS[@]})); then
      median=$(printf '%s\n' "${RATIOS[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }')
      echo "Interleaved pairs of ${RATIO_DURATION} s runs (/healthz, then the mid-game board): $(join '%, ' "${RATIOS[@]}")%;" \
        "median $median% (target: at least 60%: $( ((median >= 60)) && echo met || echo NOT met))."
    fi
  fi
  if [[ -n ${R[overload.statuses]:-} ]]; then
    echo "Overload: statuses ${R[overload.statuses]//,/, }; p99 $(ms "${R[overload.p99_us]}"), max $(ms "${R[overload.max_us]}")."
    echo "Server memory: $(mib "$IDLE_RSS") MiB RSS idle after start; peak (VmHWM) $(mib "$PEAK_BEFORE") MiB over the scenarios before overload;"
    echo "peak during overload $(mib "$PEAK_OVERLOAD") MiB VmHWM ($PEAK_NOTE), $(mib "$PEAK_SAMPLED") MiB highest VmRSS sampled every 0.1 s."
  fi
  if ((${#COMPARE_IDS[@]})); then
    echo
    echo "#### Inline searches vs the blocking pool (INLINE_MAX_NODES), $COMPARE_ROUNDS rounds, interleaved, fresh server each${OTHER_SETTINGS[*]:+ (also: $(join ', ' "${OTHER_SETTINGS[@]}"))}"
    echo
    echo "| Board | INLINE_MAX_NODES | Requests/s (each run) | 2xx/s (each run) | Mean 2xx/s | Spread | p50 (each run) | p99 (each run) | Non-2xx |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    for body in mid-game two-stone; do
      for value in $COMPARE_VALUES; do
        local rps=() okps=() p50=() p99=() errs=() round id
        for round in $(seq "$COMPARE_ROUNDS"); do
          id=cmp-$body-$value-r$round
          [[ -n ${R[$id.rps]:-} ]] || continue
          rps+=("$(int "${R[$id.rps]}")")
          okps+=("$(int "${R[$id.okps]}")")
          p50+=("$(ms "${R[$id.p50_us]}")")
          p99+=("$(ms "${R[$id.p99_us]}")")
          [[ ${R[$id.errors]} == 0 ]] || errs+=("run $round: ${R[$id.errors]}")
        done
        ((${#rps[@]})) || continue
        local stats
        stats=$(printf '%s\n' "${okps[@]}" | awk '{ s += $1; if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1 }
          END { m = s / NR; printf "%.0f|%s", m, (m > 0 ? sprintf("%.0f%%", 100 * (hi - lo) / m) : "-") }')
        local label=$body
        [[ $body == mid-game ]] && label='mid-game `XO..X....`'
        [[ $body == two-stone ]] && label='2 stones `X...O....`'
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$value" \
          "$(join ' / ' "${rps[@]}")" "$(join ' / ' "${okps[@]}")" \
          "${stats%%|*}" "${stats#*|}" \
          "$(join ' / ' "${p50[@]}")" "$(join ' / ' "${p99[@]}")" \
          "$( ((${#errs[@]})) && join '; ' "${errs[@]}" || echo 0)"
      done
    done
    echo
    echo "Spread: (highest - lowest) / mean of the runs' 2xx/s. 2 stones estimate 13,700 nodes and mid-game 1,957: both run"
    echo "inline under any INLINE_MAX_NODES from 13,700 up (16384 and 2000000 alike), so a difference between such rows is the machine's noise."
  fi
  if ((${#FAILURES[@]})); then
    echo
    echo "**FAILED:**"
    printf -- '- %s\n' "${FAILURES[@]}"
  fi
}

report | tee "$OUT/results.md"
t "wrk output and server logs: $OUT"
((${#FAILURES[@]} == 0 && SERVER_DIED == 0)) || exit 1
