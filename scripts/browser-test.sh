#!/usr/bin/env bash
# Browser test of the page served at GET /: builds and starts the release
# server, then drives the page in headless Chromium (scripts/browser-test.mjs):
# a tic-tac-toe game, a game tree, a whole Connect Four game with the
# search's progress streamed to the page, a whole Othello game with both
# sides' passes, a whole Gomoku game to its five, a game review of the
# tic-tac-toe, Connect Four and Othello games, then the games at phone
# width, with no violation of the page's content policy. Saves
# screenshot.png, screenshot-connect4.png, screenshot-othello.png,
# screenshot-gomoku.png and the reviews'
# screenshot-review-{tictactoe,connect4,othello}.png in target/browser-test
# (and, at phone width, screenshot-phone.png and screenshot-othello-phone.png),
# so a run leaves the clone as it was; SCREENSHOT_DIR=docs refreshes the
# screenshots in docs/.
# With BASE_URL set, tests the server already running there instead; the
# server started here takes its settings, OPENING_BOOK among them, from the environment.
# Needs root (or an existing /usr/bin/chromium) and access to the Debian and npm registries.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD

PLAYWRIGHT_CORE_VERSION=1.65.1
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
PW_DIR=$ROOT/target/browser-test
# Where the full-width screenshots go: docs/ only when asked.
SHOTS=$(mkdir -p "${SCREENSHOT_DIR:-$PW_DIR}" && cd "${SCREENSHOT_DIR:-$PW_DIR}" && pwd)
SERVER_LOG=$PW_DIR/server.log

log() { printf '[browser-test] %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

# --- browser (Debian's chromium; no browser download) ---
if [ ! -x "$CHROMIUM" ]; then
  log "installing chromium with apt-get"
  as_root apt-get update
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y --no-install-recommends chromium fonts-dejavu-core
fi
"$CHROMIUM" --version || true

# --- node and playwright-core ---
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  log "installing nodejs and npm with apt-get"
  as_root apt-get update
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y --no-install-recommends nodejs npm
fi
mkdir -p "$PW_DIR"
installed=$(node -p "try { require('$PW_DIR/node_modules/playwright-core/package.json').version } catch (e) { '' }")
if [ "$installed" != "$PLAYWRIGHT_CORE_VERSION" ]; then
  log "installing playwright-core@$PLAYWRIGHT_CORE_VERSION into $PW_DIR"
  [ -f "$PW_DIR/package.json" ] || echo '{"name":"bestmove-browser-test","private":true}' >"$PW_DIR/package.json"
  (cd "$PW_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error \
    "playwright-core@$PLAYWRIGHT_CORE_VERSION")
fi

run_test() {
  log "running the browser test against $BASE_URL"
  BASE_URL=$BASE_URL PW_DIR=$PW_DIR CHROMIUM=$CHROMIUM SCREENSHOT=$SHOTS/screenshot.png \
    SCREENSHOT_C4=$SHOTS/screenshot-connect4.png SCREENSHOT_OTH=$SHOTS/screenshot-othello.png \
    SCREENSHOT_GMK=$SHOTS/screenshot-gomoku.png \
    SCREENSHOT_PHONE=$PW_DIR/screenshot-phone.png SCREENSHOT_OTH_PHONE=$PW_DIR/screenshot-othello-phone.png \
    SCREENSHOT_REVIEW_TTT=$SHOTS/screenshot-review-tictactoe.png SCREENSHOT_REVIEW_C4=$SHOTS/screenshot-review-connect4.png \
    SCREENSHOT_REVIEW_OTH=$SHOTS/screenshot-review-othello.png \
    node "$ROOT/scripts/browser-test.mjs"
}

if [ -n "${BASE_URL:-}" ]; then
  run_test
  exit
fi

# --- server ---
log "building the release server"
cargo build --release --locked

PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
BASE_URL=http://127.0.0.1:$PORT
SERVER_PID=

cleanup() {
  local rc=$?
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [ "$rc" -ne 0 ] && [ -f "$SERVER_LOG" ]; then
    log "server log (last 40 lines):"
    tail -n 40 "$SERVER_LOG" || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "starting target/release/bestmove on $BASE_URL"
PORT=$PORT HOST=127.0.0.1 "$ROOT/target/release/bestmove" >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!

healthy=0
for _ in $(seq 1 150); do
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    log "the server exited before it became healthy"
    exit 1
  fi
  if node -e "fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "$BASE_URL/healthz"; then
    healthy=1
    break
  fi
  sleep 0.2
done
if [ "$healthy" -ne 1 ]; then
  log "the server did not answer /healthz within 30 s"
  exit 1
fi

run_test
