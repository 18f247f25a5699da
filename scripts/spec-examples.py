#!/usr/bin/env python3
"""Rewrites the `200` answer examples of POST /best-move in openapi.yaml
as a release server answers them: each example's request is the JSON in
its summary ('The answer to {...}'), sent as it is; the answer replaces
the example's value, indented as before. The requests are chosen so that
the answers are the same on every run but for the fields that measure
time (`elapsed_us`).

Usage: scripts/spec-examples.py [--url http://127.0.0.1:8080]
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
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "openapi.yaml")
SUMMARY = re.compile(r"^(\s*)summary: 'The answer to (\{.*\})'$")


def post(url, body):
    request = urllib.request.Request(url + "/best-move", data=body.encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


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
    finally:
        if server:
            server.kill()


if __name__ == "__main__":
    main()
