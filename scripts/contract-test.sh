#!/usr/bin/env bash
# Hold the running bestmove server to its contract, openapi.yaml, with
# schemathesis: every documented example, boundary values of every schema and
# generated requests (valid and invalid) are sent to a real release binary,
# and every response is checked against the spec (status codes, content
# types, headers, bodies, 405 + Allow on undeclared methods, invalid data
# rejected, valid data accepted).
#
# Usage: scripts/contract-test.sh [SCHEMATHESIS_RUN_ARGS...]
#        (from anywhere in the repo; extra arguments go to `schemathesis run`,
#        e.g. `--report har --report-dir target/contract-report`)
# Knobs (env): CONTRACT_MAX_EXAMPLES (default 1000 per operation),
#              CONTRACT_SEED (default 20240601, fixed so CI runs are
#              reproducible; set another to explore), CONTRACT_WORKERS (2).
# Needs: cargo, python3 with venv, and PyPI reachable on the first run
# (the virtualenv under target/contract-venv is reused afterwards).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

SCHEMATHESIS_VERSION=4.32.5
VENV=$ROOT/target/contract-venv
MAX_EXAMPLES=${CONTRACT_MAX_EXAMPLES:-1000}
SEED=${CONTRACT_SEED:-20240601}
WORKERS=${CONTRACT_WORKERS:-2}
LOG=$ROOT/target/contract-server.log
CONFIG=$ROOT/target/contract-schemathesis.toml
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PYTHONUNBUFFERED=1
# Hypothesis (under schemathesis) keeps its state here, not in the work tree.
export HYPOTHESIS_STORAGE_DIRECTORY=$ROOT/target/contract-hypothesis

t() { echo "[$(date +%T)] $*"; }

# ---- 1. the release binary (a no-op when it is up to date) --------------------
t "cargo build --release --locked"
cargo build --release --locked --bin bestmove

# ---- 2. schemathesis in its own virtualenv --------------------------------------
if [[ "$("$VENV/bin/schemathesis" --version 2>/dev/null || true)" != *"version $SCHEMATHESIS_VERSION"* ]]; then
  t "installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
fi
"$VENV/bin/schemathesis" --version

# ---- 3. the server on a free loopback port --------------------------------------
PORT=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE=http://127.0.0.1:$PORT
t "starting target/release/bestmove on $BASE (log: $LOG)"
# The contract is about shapes, not strength: a short engine budget and a
# small node budget for the Connect Four comparison (and a short review
# budget) keep each of the thousands of generated requests quick.
HOST=127.0.0.1 PORT=$PORT LOG_FORMAT=json MAX_SEARCH_MS=${MAX_SEARCH_MS:-50} MAX_REVIEW_MS=${MAX_REVIEW_MS:-300} \
  COMPARE_MAX_NODES=${COMPARE_MAX_NODES:-20000} target/release/bestmove >"$LOG" 2>&1 &
SERVER_PID=$!

cleanup() {
  local status=$?
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  wait "$SERVER_PID" 2>/dev/null || true
  if [[ $status -ne 0 ]]; then
    echo "---- last lines of the server log ($LOG) ----" >&2
    tail -n 20 "$LOG" >&2 || true
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ready=
for _ in $(seq 100); do
  if curl -fsS --max-time 1 "$BASE/healthz" >/dev/null 2>&1; then ready=1; break; fi
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "FAIL: the server exited before answering /healthz" >&2; exit 1; }
  sleep 0.1
done
[[ -n $ready ]] || { echo "FAIL: no answer from $BASE/healthz within 10 s" >&2; exit 1; }
t "server ready: $(curl -fsS "$BASE/healthz")"
# The container's HEALTHCHECK runs this subcommand; it must agree with /healthz.
PORT=$PORT target/release/bestmove healthcheck \
  || { echo "FAIL: \`bestmove healthcheck\` failed against a healthy server" >&2; exit 1; }

# ---- 4. schemathesis -------------------------------------------------------------
# A well-formed /best-move request may still be refused with 422: the schema
# cannot say which boards arise in a real game (impossible_position) nor
# which inner tree nodes carry the value that a max_depth cut needs
# (missing_value); nor can it say which move lists a game allows (a
# /review). So for those two operations, 422 counts as an accepted answer
# to schema-valid data; every other check keeps its defaults.
# The failures schemathesis remembers (and replays first next time) are kept
# under target/, out of the work tree.
cat >"$CONFIG" <<EOF
[cache]
directory = "$ROOT/target/contract-schemathesis-cache"

[[operations]]
include-path = "/best-move"
include-method = "POST"
checks.positive_data_acceptance.expected-statuses = ["2xx", "422"]

[[operations]]
include-path = "/review"
include-method = "POST"
checks.positive_data_acceptance.expected-statuses = ["2xx", "422"]
EOF

t "schemathesis: all checks, at most $MAX_EXAMPLES examples per operation, seed $SEED, $WORKERS workers"
"$VENV/bin/schemathesis" --config-file "$CONFIG" run openapi.yaml \
  --url "$BASE" \
  --checks all \
  --max-examples "$MAX_EXAMPLES" \
  --seed "$SEED" \
  --workers "$WORKERS" \
  --generation-database none \
  --request-timeout 30 \
  --no-color \
  "$@"

if ! kill -0 "$SERVER_PID" 2>/dev/null; then
  echo "FAIL: the server died during the run" >&2
  exit 1
fi
t "contract test passed"
