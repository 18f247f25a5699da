#!/usr/bin/env bash
# Validate the Kubernetes manifests in deploy/kubernetes against the API
# schemas of a recent Kubernetes release, in strict mode (unknown fields are
# errors, so a typo such as `readinesProbe` cannot slip through).
#
# Usage: scripts/k8s-validate.sh            (from anywhere in the repo)
#        K8S_VERSION=1.33.0 scripts/k8s-validate.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MANIFESTS=$ROOT/deploy/kubernetes
VENV=${VENV:-$ROOT/target/ci-venv}
K8S_VERSION=${K8S_VERSION:-1.37.0}

if [[ ! -x "$VENV/bin/kubernetes-validate" ]]; then
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check kubernetes-validate
fi

shopt -s nullglob
files=()
for f in "$MANIFESTS"/*.yaml "$MANIFESTS"/*.yml; do
  # kustomization.yaml is a kustomize config, not a Kubernetes API object:
  # there is no schema for it. It is checked below instead.
  [[ "$(basename "$f")" == kustomization.y*ml ]] && continue
  files+=("$f")
done
(( ${#files[@]} > 0 )) || { echo "FAIL: no manifests in $MANIFESTS" >&2; exit 1; }

# Any validation error makes kubernetes-validate exit non-zero. A kind or
# apiVersion it has no schema for only warns: treat that as an error too.
rc=0
out=$("$VENV/bin/kubernetes-validate" --strict --kubernetes-version "$K8S_VERSION" "${files[@]}" 2>&1) || rc=$?
echo "$out"
(( rc == 0 )) || { echo "FAIL: manifests do not validate against Kubernetes $K8S_VERSION" >&2; exit "$rc"; }
if grep -q "Couldn't find schema" <<<"$out"; then
  echo "FAIL: a manifest has a kind or apiVersion unknown to Kubernetes $K8S_VERSION" >&2
  exit 1
fi

# kustomization.yaml: every listed resource must exist, and every manifest in
# the folder must be listed (so `kubectl apply -k` deploys all of them).
if [[ -f "$MANIFESTS/kustomization.yaml" ]]; then
  "$VENV/bin/python" - "$MANIFESTS" <<'PY'
import pathlib, sys, yaml
d = pathlib.Path(sys.argv[1])
k = yaml.safe_load((d / "kustomization.yaml").read_text())
listed = set(k.get("resources") or [])
bad = [r for r in sorted(listed) if not (d / r).is_file()]
present = {p.name for p in d.glob("*.y*ml") if not p.name.startswith("kustomization.")}
unlisted = sorted(present - listed)
for r in bad:
    print(f"FAIL: kustomization.yaml lists {r}, which does not exist", file=sys.stderr)
for r in unlisted:
    print(f"FAIL: {r} is not listed in kustomization.yaml", file=sys.stderr)
if bad or unlisted:
    sys.exit(1)
print(f"INFO kustomization.yaml lists all {len(listed)} manifests")
PY
fi
echo "k8s-validate: OK (${#files[@]} manifests, Kubernetes $K8S_VERSION, strict)"
