#!/usr/bin/env python3
"""Othello answers cut by the time budget, checked against exact solves.

For each of N positions of 16 to 20 empty squares from seeded random games
(spread evenly over 16..20; never one where the game is over or the side to
move must pass), POST /best-move is asked twice, both with "compare": false
and the position as `board` + `to_move`:

  budget  "time_ms": --time-ms (300): the answer under test;
  exact   "time_ms": 120000: at 16 to 20 empties every move comes back
          exact. A position whose exact answer has an entry (or a top-level
          answer) that is not exact is skipped and counted as not solved.

Every entry of the budget answer, and its top-level answer, is then held to
what it claims, against the exact values:

  exact     "exact": true: `score` is the final disc difference, so it must
            equal the exact value;
  forced    "exact": false, "evaluation": null, `score` != 0: forced within
            the depth searched, a win by at least `score` discs (score > 0)
            or a loss by at least that much (score < 0): the exact value
            must have the same sign and at least the same magnitude;
  bound     "bound": "upper", "exact": false: the move was shown no better
            than the proven best, so the exact value is at most `score`;
  estimate  "exact": false, "evaluation" set, `score` 0: claims nothing;
  null      `score` null (nothing found within the budget): claims nothing.

An entry that fits none of these breaks the answer's contract and is
counted as wrong too. Prints the counts of each kind, the claims that say
more than is known (up to 10 examples: the request, the move, the claim,
the exact value) and the elapsed time.

The server is the release binary (BESTMOVE_BIN, default
target/release/bestmove) started here on a free port of 127.0.0.1 with
MAX_SEARCH_MS and REQUEST_TIMEOUT_MS raised for the exact solves, and
stopped at the end; or, with --url, a server already running there (its
MAX_SEARCH_MS must allow the exact solves, or they come back as not solved).

Usage: othello-claims.py [--positions 300] [--seed 1] [--time-ms 300]
                         [--url URL]
Exit status: 1 when any claim is wrong, 2 on bad use or a server that
cannot be started or answers with an error, 0 otherwise.
"""
import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

EXACT_TIME_MS = 120000
MIN_EMPTIES = 16
MAX_EMPTIES = 20
MAX_EXAMPLES = 10

# --- Othello rules (a plain 64-square list, a1..h1 first, then row 2...) ---

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def other(side):
    return "O" if side == "X" else "X"


def square_name(i):
    return "abcdefgh"[i % 8] + str(i // 8 + 1)


def flips(cells, i, side):
    """The discs that `side` turns over by playing on square i (none when
    the move is not legal)."""
    if cells[i] != "-":
        return []
    turned = []
    row, col = divmod(i, 8)
    for dr, dc in DIRECTIONS:
        r, c, line = row + dr, col + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] == other(side):
            line.append(r * 8 + c)
            r += dr
            c += dc
        if line and 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] == side:
            turned.extend(line)
    return turned


def legal_moves(cells, side):
    return [i for i in range(64) if cells[i] == "-" and flips(cells, i, side)]


def play(cells, side, i):
    turned = flips(cells, i, side)
    assert turned, "illegal move %s for %s" % (square_name(i), side)
    after = list(cells)
    for j in turned + [i]:
        after[j] = side
    return after


def start():
    cells = ["-"] * 64
    cells[27] = cells[36] = "O"  # d4, e5
    cells[28] = cells[35] = "X"  # e4, d5
    return cells, "X"


def random_position(rng, empties):
    """(cells, side to move) `empties` squares from the end of a seeded random
    game, or None when the game ended first or the side to move there must
    pass. Passes on the way are played as the rules have them."""
    cells, side = start()
    while cells.count("-") > empties:
        moves = legal_moves(cells, side)
        if not moves:
            if not legal_moves(cells, other(side)):
                return None
            side = other(side)
            continue
        cells = play(cells, side, rng.choice(moves))
        side = other(side)
    if not legal_moves(cells, side):
        return None
    return cells, side


def positions(seed, count):
    rng = random.Random(seed)
    found, seen = [], set()
    while len(found) < count:
        empties = MIN_EMPTIES + len(found) % (MAX_EMPTIES - MIN_EMPTIES + 1)
        position = random_position(rng, empties)
        if position is None:
            continue
        key = "".join(position[0]) + position[1]
        if key not in seen:
            seen.add(key)
            found.append(position)
    return found


# --- the server ---


def fail(message):
    print("othello-claims: " + message, file=sys.stderr)
    sys.exit(2)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary):
    """(process, url, log file) of a release server on a free port, once it
    answers GET /healthz."""
    if not os.access(binary, os.X_OK):
        fail("no server binary at %s (run `cargo build --release`, or set BESTMOVE_BIN)" % binary)
    port = free_port()
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), RUST_LOG="warn",
               MAX_SEARCH_MS=str(EXACT_TIME_MS), REQUEST_TIMEOUT_MS=str(EXACT_TIME_MS + 60000))
    log = tempfile.NamedTemporaryFile("w+", prefix="othello-claims-server-", suffix=".log", delete=False)
    server = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", str(port)], env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    url = "http://127.0.0.1:%d" % port
    for _ in range(200):
        if server.poll() is not None:
            log.seek(0)
            output = log.read()[-2000:]
            log.close()
            os.unlink(log.name)
            fail("the server stopped at start (status %d):\n%s" % (server.returncode, output))
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as response:
                if response.status == 200:
                    return server, url, log
        except OSError:
            pass
        time.sleep(0.1)
    stop_server(server, log)
    fail("the server did not answer %s/healthz within 20 s" % url)


def stop_server(server, log):
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    log.close()
    os.unlink(log.name)


def post(url, body, timeout):
    request = urllib.request.Request(url + "/best-move", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.load(response)
    except urllib.error.HTTPError as e:
        fail("%s answered %d to %s:\n%s" % (url, e.code, json.dumps(body), e.read().decode()[:2000]))


# --- the claims ---


def kind(entry):
    """What an entry (or the top-level answer) claims: exact, forced,
    estimate, null, or malformed when it fits none of the contract's forms."""
    score, exact, evaluation = entry.get("score"), entry.get("exact"), entry.get("evaluation")
    if score is None:
        return "null" if exact is not True else "malformed"
    if entry.get("bound") is not None:
        return "bound" if entry.get("bound") == "upper" and exact is False and evaluation is None else "malformed"
    if exact is True:
        return "exact" if evaluation is None else "malformed"
    if exact is False and evaluation is None:
        return "forced" if score != 0 else "malformed"
    if exact is False and evaluation is not None:
        return "estimate" if score == 0 else "malformed"
    return "malformed"


def holds(what, score, value):
    """Whether a claim of this kind with this score agrees with the exact value."""
    if what == "exact":
        return score == value
    if what == "forced":
        return value >= score if score > 0 else value <= score
    if what == "bound":
        return value <= score
    if what == "malformed":
        return False
    return True  # estimate, null: nothing claimed


def describe(what, entry):
    if what == "exact":
        return "exact %+d" % entry["score"]
    if what == "forced":
        return "forced %+d (%s by at least %d)" % (entry["score"], "win" if entry["score"] > 0 else "loss",
                                                    abs(entry["score"]))
    if what == "bound":
        return "at most %+d (an upper bound)" % entry["score"]
    return "malformed: score %s, exact %s, evaluation %s" % (
        json.dumps(entry.get("score")), json.dumps(entry.get("exact")), json.dumps(entry.get("evaluation")))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=300, help="positions to check (300)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random games (1)")
    ap.add_argument("--time-ms", type=int, default=300, help="time_ms of the answers under test (300)")
    ap.add_argument("--url", help="a server already running (default: start BESTMOVE_BIN on a free port)")
    args = ap.parse_args()
    if args.positions < 1 or args.time_ms < 1:
        ap.error("--positions and --time-ms must be at least 1")

    began = time.monotonic()
    server = log = None
    if args.url:
        url = args.url.rstrip("/")
    else:
        server, url, log = start_server(os.environ.get("BESTMOVE_BIN", "target/release/bestmove"))
    try:
        status = check(args, url)
    finally:
        if server is not None:
            stop_server(server, log)
    print("Elapsed: %.1f s" % (time.monotonic() - began))
    sys.exit(status)


def check(args, url):
    counts = {k: 0 for k in ("exact", "forced", "bound", "estimate", "null", "malformed")}
    top_counts = dict(counts)
    checked = not_solved = 0
    wrong = []
    print("Othello answers at time_ms %d against exact solves (time_ms %d), %d positions of %d-%d empties, "
          "seed %d, server %s" % (args.time_ms, EXACT_TIME_MS, args.positions, MIN_EMPTIES, MAX_EMPTIES,
                                   args.seed, url), flush=True)
    for number, (cells, side) in enumerate(positions(args.seed, args.positions), start=1):
        board = "".join(cells)
        budget_request = {"game": "othello", "board": board, "to_move": side, "time_ms": args.time_ms,
                          "compare": False, "seed": args.seed * 100000 + number}
        exact_request = dict(budget_request, time_ms=EXACT_TIME_MS)
        # The answer under test first, so it is never helped by the exact
        # solve of the same position.
        budget = post(url, budget_request, timeout=args.time_ms / 1000 + 60)
        exact = post(url, exact_request, timeout=EXACT_TIME_MS / 1000 + 60)

        legal = sorted(square_name(i) for i in legal_moves(cells, side))
        for name, answer in (("budget", budget), ("exact", exact)):
            listed = sorted(e["move"] for e in answer["moves"])
            if listed != legal:
                fail("the %s answer to %s lists the moves %s; the legal moves are %s" % (
                    name, json.dumps(budget_request), " ".join(listed), " ".join(legal)))
        if exact.get("exact") is not True or exact.get("score") is None or \
                any(e.get("exact") is not True or e.get("score") is None for e in exact["moves"]):
            not_solved += 1
            continue
        checked += 1
        values = {e["move"]: e["score"] for e in exact["moves"]}
        claims = [(e["move"], e, values[e["move"]]) for e in budget["moves"]]
        claims.append(("(answer)", budget, exact["score"]))
        for move, entry, value in claims:
            what = kind(entry)
            (top_counts if move == "(answer)" else counts)[what] += 1
            if not holds(what, entry.get("score"), value):
                wrong.append((budget_request, move, describe(what, entry), value))
        if number % 25 == 0:
            print("... %d of %d positions, %d wrong claims so far" % (number, args.positions, len(wrong)), flush=True)

    print()
    print("Positions checked: %d (%d more not solved exactly within %d ms, skipped)" % (
        checked, not_solved, EXACT_TIME_MS))
    for label, table in (("Move entries", counts), ("Top-level answers", top_counts)):
        print("%s checked: %d: exact %d, forced %d, bound %d, estimate %d, null %d%s" % (
            label, sum(table.values()), table["exact"], table["forced"], table["bound"], table["estimate"], table["null"],
            ", malformed %d" % table["malformed"] if table["malformed"] else ""))
    by_kind = {}
    for _, _, claimed, _ in wrong:
        k = claimed.split()[0].rstrip(":")
        by_kind[k] = by_kind.get(k, 0) + 1
    top_wrong = sum(1 for _, move, _, _ in wrong if move == "(answer)")
    print("Claims that say more than is known: %d%s" % (len(wrong), " (%s; %d move entries, %d top-level answers)" % (
        ", ".join("%s %d" % kv for kv in sorted(by_kind.items())), len(wrong) - top_wrong, top_wrong)
        if wrong else ""))
    for request, move, claimed, value in wrong[:MAX_EXAMPLES]:
        print("  %s: %s claims %s, exact %+d" % (json.dumps(request, separators=(",", ":")), move, claimed, value))
    if len(wrong) > MAX_EXAMPLES:
        print("  ... and %d more" % (len(wrong) - MAX_EXAMPLES))
    return 1 if wrong else 0


if __name__ == "__main__":
    main()
