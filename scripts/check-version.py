#!/usr/bin/env python3
"""Checks that every place naming bestmove's version agrees with Cargo.toml.

The version has one source, `version` in Cargo.toml's [package]. Everything
else that states it must say the same:

  Cargo.lock          the bestmove package
  openapi.yaml        info.version, and the `version` examples (GET /healthz)
  Dockerfile          the org.opencontainers.image.version label, and the
                      `bestmove:X.Y.Z` tags in its usage comment
  deploy/             the images' newTag in kustomization.yaml, every
                      app.kubernetes.io/version label, `bestmove:X.Y.Z` tags
  README.md, docs/    `bestmove:X.Y.Z` image tags (the crate is not on
                      crates.io: the docs give git and path dependencies)
  CHANGELOG.md        a section `## X.Y.Z - YYYY-MM-DD` for this version,
                      and none for a later one

Usage: python3 scripts/check-version.py   (from anywhere in the repo; no
dependencies beyond Python 3.11). Exits 1 and lists every disagreement.
"""
import pathlib
import re
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEMVER = r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?"
problems = []


def read(relative):
    return (ROOT / relative).read_text(encoding="utf-8")


def expect(relative, what, found, version):
    """Every value in `found` must be `version`; at least one must be found."""
    if not found:
        problems.append(f"{relative}: no {what} found")
    for value in found:
        if value != version:
            problems.append(f"{relative}: {what} is {value}, not {version}")


version = tomllib.loads(read("Cargo.toml"))["package"]["version"]

lock = tomllib.loads(read("Cargo.lock"))
expect("Cargo.lock", "the bestmove package's version",
       [p["version"] for p in lock["package"] if p["name"] == "bestmove"], version)

spec = read("openapi.yaml")
expect("openapi.yaml", "info.version",
       re.findall(rf"^info:\n(?:  .*\n)*?  version: ['\"]?({SEMVER})", spec, re.M), version)
expect("openapi.yaml", "a `version` example",
       re.findall(rf"\bversion: ['\"]?({SEMVER})\b", spec)
       + re.findall(rf"^\s+version:\n(?:\s+.*\n)*?\s+examples: \[['\"]?({SEMVER})", spec, re.M), version)

dockerfile = read("Dockerfile")
expect("Dockerfile", "the org.opencontainers.image.version label",
       re.findall(rf'org\.opencontainers\.image\.version="({SEMVER})"', dockerfile), version)
expect("Dockerfile", "an image tag bestmove:X.Y.Z", re.findall(rf"\bbestmove:({SEMVER})\b", dockerfile), version)

deploy = ROOT / "deploy"
kustomizations = sorted(deploy.rglob("kustomization.yaml"))
tags, labels, named = [], [], []
for path in sorted(deploy.rglob("*.yaml")):
    text = path.read_text(encoding="utf-8")
    tags += re.findall(rf"^\s+newTag: ['\"]?({SEMVER})", text, re.M)
    labels += re.findall(rf"app\.kubernetes\.io/version: ['\"]?({SEMVER})", text)
    named += re.findall(rf"\bbestmove:({SEMVER})\b", text)
expect("deploy/", "an images newTag", tags, version)
expect("deploy/", "an app.kubernetes.io/version label", labels, version)
for value in named:
    if value != version:
        problems.append(f"deploy/: an image tag bestmove:{value}, not {version}")

readme = read("README.md")
expect("README.md", "an image tag bestmove:X.Y.Z", re.findall(rf"\bbestmove:({SEMVER})\b", readme), version)
docs = "".join(path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md")))
for value in re.findall(rf"\bbestmove:({SEMVER})\b", docs):
    if value != version:
        problems.append(f"docs/: an image tag bestmove:{value}, not {version}")

changelog = read("CHANGELOG.md")
sections = re.findall(rf"^## \[?({SEMVER})\]?(.*)$", changelog, re.M)
if not any(v == version and re.match(r"\s+-\s+\d{4}-\d{2}-\d{2}\s*$", rest) for v, rest in sections):
    problems.append(f"CHANGELOG.md: no section '## {version} - YYYY-MM-DD'")
key = lambda v: tuple(int(x) for x in v.split("-")[0].split("."))
for v, _ in sections:
    if key(v) > key(version):
        problems.append(f"CHANGELOG.md: a section for {v}, later than Cargo.toml's {version}")

if problems:
    print(f"FAIL: not every place says version {version} (Cargo.toml):", file=sys.stderr)
    for problem in problems:
        print(f"  {problem}", file=sys.stderr)
    sys.exit(1)
print(f"check-version: OK, {version} everywhere (Cargo.lock, openapi.yaml, Dockerfile, "
      f"{len(kustomizations)} kustomizations under deploy/, README.md, CHANGELOG.md)")
