#!/usr/bin/env bash
# Validate the Kubernetes manifests in deploy/kubernetes, in strict mode
# (unknown fields are errors, so a typo such as `readinesProbe` cannot slip
# through), against the API schemas of the oldest Kubernetes release the
# README claims (1.30: the preStop `sleep` action) and of a recent one.
#
# Both the files themselves and what `kubectl apply -k` would send are
# checked. No kustomize binary is packaged for this machine (neither
# Debian's apt nor PyPI has one), so the kustomization is rendered here by a
# small Python step that does what kustomize does for the features the
# kustomization uses, and refuses any other: `resources` (each file's
# documents, in order) and `images` (name -> newName:newTag).
#
# Usage: scripts/k8s-validate.sh            (from anywhere in the repo)
#        K8S_VERSIONS="1.30.0 1.33.0" scripts/k8s-validate.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MANIFESTS=$ROOT/deploy/kubernetes
VENV=${VENV:-$ROOT/target/ci-venv}
# The oldest version the README claims comes first.
K8S_VERSIONS=${K8S_VERSIONS:-1.30.0 1.37.0}
RENDERED=$ROOT/target/k8s-rendered.yaml

if [[ ! -x "$VENV/bin/kubernetes-validate" ]]; then
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check kubernetes-validate
fi

shopt -s nullglob
files=()
for f in "$MANIFESTS"/*.yaml "$MANIFESTS"/*.yml; do
  # kustomization.yaml is a kustomize config, not a Kubernetes API object:
  # there is no schema for it. It is rendered and checked below instead.
  [[ "$(basename "$f")" == kustomization.y*ml ]] && continue
  files+=("$f")
done
(( ${#files[@]} > 0 )) || { echo "FAIL: no manifests in $MANIFESTS" >&2; exit 1; }

# ---- render the kustomization (what `kubectl apply -k` sends) ---------------
mkdir -p "$(dirname "$RENDERED")"
"$VENV/bin/python" - "$MANIFESTS" "$RENDERED" <<'PY'
import pathlib, sys, yaml
d, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
k = yaml.safe_load((d / "kustomization.yaml").read_text())
fail = lambda msg: sys.exit(f"FAIL: {msg}")
known = {"apiVersion", "kind", "resources", "images"}
if set(k) - known:
    fail(f"kustomization.yaml uses {sorted(set(k) - known)}, which this renderer does not implement")
listed = k.get("resources") or []
missing = [r for r in listed if not (d / r).is_file()]
present = {p.name for p in d.glob("*.y*ml") if not p.name.startswith("kustomization.")}
unlisted = sorted(present - set(listed))
for r in missing:
    print(f"FAIL: kustomization.yaml lists {r}, which does not exist", file=sys.stderr)
for r in unlisted:
    print(f"FAIL: {r} is not listed in kustomization.yaml", file=sys.stderr)
if missing or unlisted:
    sys.exit(1)

images = {}
for entry in k.get("images") or []:
    if set(entry) - {"name", "newName", "newTag"}:
        fail(f"images entry {entry} uses fields this renderer does not implement")
    images[entry["name"]] = entry

def split(image):
    # "registry:5000/a/b:tag" -> ("registry:5000/a/b", "tag"); digests are not used here.
    if "@" in image:
        fail(f"image {image}: digests are not implemented by this renderer")
    slash = image.rfind("/")
    colon = image.rfind(":")
    return (image[:colon], image[colon + 1:]) if colon > slash else (image, None)

def set_image(container):
    name, tag = split(container["image"])
    entry = images.get(name)
    if entry:
        name = entry.get("newName", name)
        tag = entry.get("newTag", tag)
    container["image"] = f"{name}:{tag}" if tag else name

docs = []
for r in listed:
    for doc in yaml.safe_load_all((d / r).read_text()):
        if doc is None:
            continue
        spec = doc.get("spec", {}).get("template", {}).get("spec", {})
        for container in spec.get("containers", []) + spec.get("initContainers", []):
            set_image(container)
        docs.append(doc)

# What a cluster needs beyond the schemas.
by_kind = {}
for doc in docs:
    by_kind.setdefault(doc["kind"], []).append(doc)
for deployment in by_kind.get("Deployment", []):
    name = deployment["metadata"]["name"]
    scaled = any(h["spec"]["scaleTargetRef"]["name"] == name for h in by_kind.get("HorizontalPodAutoscaler", []))
    if scaled and "replicas" in deployment["spec"]:
        fail(f"Deployment {name} sets replicas, but an autoscaler owns its count: every apply would reset it")
    for container in deployment["spec"]["template"]["spec"]["containers"]:
        if "/" not in container["image"] or ":" not in container["image"].rsplit("/", 1)[1]:
            fail(f"Deployment {name}: image {container['image']} names no registry and tag")
for pdb in by_kind.get("PodDisruptionBudget", []):
    if "minAvailable" in pdb["spec"]:
        fail("the PodDisruptionBudget uses minAvailable, which lets a drain evict all pods but that many")

out.write_text(yaml.safe_dump_all(docs, sort_keys=False))
print(f"INFO rendered {len(docs)} objects from {len(listed)} resources to {out}")
for doc in docs:
    for c in doc.get("spec", {}).get("template", {}).get("spec", {}).get("containers", []):
        print(f"INFO {doc['kind']}/{doc['metadata']['name']}: image {c['image']}")
PY

# ---- validate, for every version ---------------------------------------------
# Any validation error makes kubernetes-validate exit non-zero. A kind or
# apiVersion it has no schema for only warns: treat that as an error too.
for version in $K8S_VERSIONS; do
  rc=0
  out=$("$VENV/bin/kubernetes-validate" --strict --kubernetes-version "$version" "${files[@]}" "$RENDERED" 2>&1) || rc=$?
  echo "$out"
  (( rc == 0 )) || { echo "FAIL: manifests do not validate against Kubernetes $version" >&2; exit "$rc"; }
  if grep -q "Couldn't find schema" <<<"$out"; then
    echo "FAIL: a manifest has a kind or apiVersion unknown to Kubernetes $version" >&2
    exit 1
  fi
done
echo "k8s-validate: OK (${#files[@]} manifests and their kustomize rendering, strict, Kubernetes ${K8S_VERSIONS// /, })"
