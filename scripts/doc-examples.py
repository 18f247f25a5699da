#!/usr/bin/env python3
"""Rewrites the answers of the docs' examples as a release server gives
them:

- in openapi.yaml, the `200` answer examples of POST /best-move: each
  example's request is the JSON in its summary ('The answer to {...}'),
  and its answer replaces the example's value, indented as before;
- in README.md and docs/api.md, every `$ curl -s localhost:8080/best-move
  ... -d '{...}'` line is sent as it is, and its answer replaces the line
  after it (event streams, `curl -sN`, are left alone).

The requests are chosen so that the answers are the same on every run but
for the fields that measure time (`elapsed_us`).

Usage: scripts/doc-examples.py [--url http://127.0.0.1:8080]
Without --url, starts target/release/bestmove (build it first with
`cargo build --release`) on a free port with the default settings.
"""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "openapi.yaml")
SUMMARY = re.compile(r"^(\s*)summary: 'The answer to (\{.*\})'$")


CURL = re.compile(r"^\$ curl -s localhost:8080/best-move -H 'content-type: application/json' -d '(.*)'$")


def post_raw(url, body):
    """The answer's body, as it came (errors included)."""
    request = urllib.request.Request(url + "/best-move", data=body.encode(), headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.read().decode()
    except urllib.error.HTTPError as error:
        return error.read().decode()


def post(url, body):
    return json.loads(post_raw(url, body))


def rewrite_console(path, url):
    """Replaces the answer line after each plain curl example of `path`."""
    lines = open(path).read().split("\n")
    count = 0
    for i, line in enumerate(lines[:-1]):
        match = CURL.match(line)
        if match and not lines[i + 1].startswith(("$", "```")):
            lines[i + 1] = post_raw(url, match.group(1)).strip()
            count += 1
    open(path, "w").write("\n".join(lines))
    return count


def start_server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    binary = os.path.join(ROOT, "target", "release", "bestmove")
    if not os.path.exists(binary):
        sys.exit(f"{binary} is missing: run `cargo build --release` first")
    env = {"PATH": os.environ.get("PATH", ""), "HOST": "127.0.0.1", "PORT": str(port), "RUST_LOG": "warn"}
    server = subprocess.Popen([binary], env=env)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1)
            return server, url
        except OSError:
            time.sleep(0.1)
    server.kill()
    sys.exit("the server did not start")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running server (default: start the release build)")
    args = parser.parse_args()
    server, url = (None, args.url) if args.url else start_server()
    try:
        lines = open(SPEC).read().split("\n")
        out, i, rewritten = [], 0, 0
        while i < len(lines):
            line = lines[i]
            out.append(line)
            match = SUMMARY.match(line)
            if match and i + 1 < len(lines) and lines[i + 1].strip().startswith("value: {"):
                indent = match.group(1)
                # The old value runs to the line that closes its first brace.
                depth, j = 0, i + 1
                while True:
                    depth += lines[j].count("{") - lines[j].count("}")
                    if depth == 0:
                        break
                    j += 1
                answer = post(url, match.group(2))
                text = json.dumps(answer, indent=2, ensure_ascii=False).split("\n")
                out.append(f"{indent}value: {text[0]}")
                out.extend(f"{indent}    {t}" for t in text[1:])
                i = j + 1
                rewritten += 1
                continue
            i += 1
        open(SPEC, "w").write("\n".join(out))
        print(f"rewrote {rewritten} examples in openapi.yaml")
        for doc in ("README.md", os.path.join("docs", "api.md")):
            print(f"rewrote {rewrite_console(os.path.join(ROOT, doc), url)} examples in {doc}")
    finally:
        if server:
            server.kill()


if __name__ == "__main__":
    main()
