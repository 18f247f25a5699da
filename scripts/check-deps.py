#!/usr/bin/env python3
"""Checks the dependency tree's licenses and duplicate crates against
scripts/deps-policy.toml, without installing anything.

Reads `cargo metadata --format-version 1 --locked` (offline when the crates
are already downloaded) for x86_64-unknown-linux-gnu, so every crate the
lock file resolves for a Linux build (normal, build and dev dependencies):

  licenses     each crate's SPDX expression (`license` in its Cargo.toml)
               must be satisfiable with the allowed licenses: `A OR B`
               needs one of them, `A AND B` both, `A WITH E` an allowed A
               and exception E; the old `A/B` means `A OR B`. A crate with
               no expression must be listed under [licenses.by_hand].
  duplicates   a crate name resolved at two or more versions must be listed
               under [duplicates]; listed names that are no longer
               duplicated are reported, so the list stays current.

Usage: python3 scripts/check-deps.py   (Python 3.11, cargo). Exits 1 on a
license or duplicate the policy does not allow.
"""
import collections
import json
import pathlib
import re
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PLATFORM = "x86_64-unknown-linux-gnu"
policy = tomllib.loads((ROOT / "scripts" / "deps-policy.toml").read_text(encoding="utf-8"))
allowed = set(policy["licenses"]["allowed"])
exceptions = set(policy["licenses"].get("exceptions", []))
by_hand = policy["licenses"].get("by_hand", {})
allowed_duplicates = set(policy["duplicates"]["allowed"])


def metadata():
    command = ["cargo", "metadata", "--format-version", "1", "--locked", "--filter-platform", PLATFORM]
    for extra in (["--offline"], []):
        run = subprocess.run(command + extra, cwd=ROOT, capture_output=True, text=True)
        if run.returncode == 0:
            return json.loads(run.stdout)
    sys.exit(f"FAIL: cargo metadata: {run.stderr.strip()}")


def satisfiable(expression):
    """Whether an SPDX license expression can be met with the allowed
    licenses; raises ValueError on an expression it cannot read."""
    tokens = re.findall(r"\(|\)|[^\s()/]+|/", expression)
    position = 0

    def peek():
        return tokens[position] if position < len(tokens) else None

    def take():
        nonlocal position
        token = peek()
        position += 1
        return token

    def term():  # a license, `license WITH exception`, or ( expression )
        if peek() == "(":
            take()
            value = disjunction()
            if take() != ")":
                raise ValueError("unbalanced parentheses")
            return value
        name = take()
        if name in (None, ")", "AND", "OR", "WITH", "/"):
            raise ValueError(f"a license expected, not {name!r}")
        ok = name.removesuffix("+") in allowed
        if peek() == "WITH":
            take()
            exception = take()
            if exception in (None, "(", ")", "AND", "OR", "WITH", "/"):
                raise ValueError(f"an exception expected after WITH, not {exception!r}")
            ok = ok and exception in exceptions
        return ok

    def conjunction():
        value = term()
        while peek() == "AND":
            take()
            value = term() and value
        return value

    def disjunction():
        value = conjunction()
        while peek() in ("OR", "/"):
            take()
            value = conjunction() or value
        return value

    result = disjunction()
    if position < len(tokens):
        raise ValueError(f"unexpected {tokens[position]!r}")
    return result


def self_test():
    """The expression reader on known cases, with the policy's licenses."""
    cases = {
        "MIT": True, "GPL-3.0-only": False, "MIT OR GPL-3.0-only": True, "MIT AND GPL-3.0-only": False,
        "(MIT OR Apache-2.0) AND Unicode-3.0": True, "Apache-2.0 WITH LLVM-exception": True,
        "GPL-2.0-only WITH LLVM-exception": False, "Apache-2.0 / MIT": True, "MIT/GPL-2.0-only": True,
        "LGPL-2.1-only AND (MIT OR Apache-2.0)": False, "GPL-3.0-only OR MIT AND Zlib": True,
    }
    for expression, expected in cases.items():
        assert satisfiable(expression) == expected, f"self-test: {expression!r} should be {expected}"
    for malformed in ("MIT OR", "(MIT", "MIT Apache-2.0", "MIT WITH", "MIT)"):
        try:
            satisfiable(malformed)
        except ValueError:
            continue
        raise AssertionError(f"self-test: {malformed!r} was read")


self_test()
meta = metadata()
packages = {p["id"]: p for p in meta["packages"]}
resolved = [packages[node["id"]] for node in meta["resolve"]["nodes"]]
problems = []

for package in sorted(resolved, key=lambda p: (p["name"], p["version"])):
    name, version, expression = package["name"], package["version"], package.get("license")
    if not expression:
        if name not in by_hand:
            problems.append(f"{name} {version}: no SPDX license expression; read its license file and "
                            f"list it under [licenses.by_hand] if it is acceptable")
        continue
    try:
        if not satisfiable(expression):
            problems.append(f"{name} {version}: license {expression!r} is not satisfied by the allowed licenses")
    except ValueError as error:
        problems.append(f"{name} {version}: cannot read license {expression!r} ({error})")

versions = collections.defaultdict(set)
for package in resolved:
    versions[package["name"]].add(package["version"])
duplicated = {name: sorted(v) for name, v in versions.items() if len(v) > 1}
for name, found in sorted(duplicated.items()):
    if name not in allowed_duplicates:
        problems.append(f"{name}: resolved at {', '.join(found)}; unify the versions, or list it under "
                        f"[duplicates] with the reason")
for name in sorted(allowed_duplicates - set(duplicated)):
    print(f"NOTE: {name} is listed under [duplicates] but is no longer duplicated: remove it from the list")

if problems:
    print(f"FAIL: {len(problems)} dependencies outside scripts/deps-policy.toml:", file=sys.stderr)
    for problem in problems:
        print(f"  {problem}", file=sys.stderr)
    sys.exit(1)
print(f"check-deps: OK, {len(resolved)} crates: every license allowed; duplicates only "
      f"{', '.join(f'{n} ({len(v)})' for n, v in sorted(duplicated.items())) or 'none'}")
