#!/usr/bin/env python3
"""How deep bestmove's Gomoku engine searches through the service.

Asks each server named (`NAME=URL`, one or more) for the best move in the
positions of the tactics suites (`tests/data/gomoku/win.txt` and
`defence.txt`, every STEP-th), one server after the other for each
position, with the request a client sends (`{"game": "gomoku", "moves":
...}`: the default budget), and prints for each server the engine's depth
(`engine.depth`), the positions it visited and its time (`engine.nodes`,
`engine.elapsed_us`), and the whole request's time.

    scripts/gomoku_depths.py [--step 4] before=http://127.0.0.1:18101 after=http://127.0.0.1:18102
"""

import argparse
import json
import os
import statistics
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def positions(step):
    out = []
    for suite in ("win.txt", "defence.txt"):
        with open(os.path.join(ROOT, "tests", "data", "gomoku", suite)) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                out.append(line.split("|")[0].strip())
    return out[::step]


def ask(url, moves):
    body = json.dumps({"game": "gomoku", "moves": moves}).encode()
    req = urllib.request.Request(url + "/best-move", data=body, headers={"content-type": "application/json"})
    started = time.monotonic()
    with urllib.request.urlopen(req, timeout=60) as r:
        answer = json.load(r)
    engine = answer["engine"]
    return engine["depth"], engine["nodes"], engine["elapsed_us"] / 1000, (time.monotonic() - started) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("servers", nargs="+", help="NAME=URL")
    ap.add_argument("--step", type=int, default=4, help="every STEP-th position of the suites")
    args = ap.parse_args()
    servers = [s.split("=", 1) for s in args.servers]
    results = {name: [] for name, _ in servers}
    asked = positions(args.step)
    for moves in asked:
        for name, url in servers:
            results[name].append(ask(url.rstrip("/"), moves))
    print(f"{len(asked)} positions (every {args.step}th of the tactics suites), default budget")
    print()
    print("| server | engine depth (mean, median) | engine positions (mean) | engine ms (mean) "
          "| engine positions a second | request ms (mean) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, rows in results.items():
        depths = [r[0] for r in rows]
        nodes = sum(r[1] for r in rows)
        ms = sum(r[2] for r in rows)
        print(f"| {name} | {statistics.mean(depths):.2f}, {statistics.median(depths):g} | {nodes / len(rows):,.0f} "
              f"| {ms / len(rows):.0f} | {nodes / ms * 1000:,.0f} | {statistics.mean(r[3] for r in rows):.0f} |")


if __name__ == "__main__":
    main()
