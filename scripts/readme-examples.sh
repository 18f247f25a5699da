#!/usr/bin/env bash
# Prints the README's examples as the running service answers them: a
# release server with the default settings (the built-in opening book, no
# environment) answers each request, printed as the README shows it
# (`$ curl ...` then the answer). Also an event stream, for docs/api.md
# and the spec. Paste the output over the examples when the answers change.
#
# Usage: scripts/readme-examples.sh   (from anywhere in the repo)
# Needs: cargo, curl, python3.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
cargo build --release --locked --quiet --bin bestmove
PORT=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
env -i PATH="$PATH" HOST=127.0.0.1 PORT="$PORT" RUST_LOG=warn target/release/bestmove &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
  sleep 0.1
done

example() {  # example BODY: a plain answer
  echo "\$ curl -s localhost:8080/best-move -H 'content-type: application/json' -d '$1'"
  curl -s "http://127.0.0.1:$PORT/best-move" -H 'content-type: application/json' -d "$1"
  echo
}
stream() {  # stream BODY: an event stream
  echo "\$ curl -sN localhost:8080/best-move -H 'content-type: application/json' -H 'accept: text/event-stream' -d '$1'"
  curl -sN "http://127.0.0.1:$PORT/best-move" -H 'content-type: application/json' -H 'accept: text/event-stream' -d "$1"
}
echo '# tic-tac-toe'
example '{"board": "XO..X....", "seed": 42}'
echo '# Connect Four'
example '{"game": "connect4", "moves": "4455", "seed": 42}'
echo '# tree'
example '{"tree": [[5, -2, -1], [1, -5, 6], [5, 8, 4]], "seed": 42}'
echo '# a tree of objects, minimizing (docs/api.md)'
example '{"tree": {"children": [{"name": "A", "value": 300}, {"name": "B", "value": 120}, {"name": "C", "value": -500}]}, "maximizing": false, "seed": 42}'
echo '# an error'
example '{"game": "connect4", "moves": "4444444"}'
echo '# an event stream: 14 stones, past the book'
stream '{"game": "connect4", "moves": "13773277622226", "compare": false}'
