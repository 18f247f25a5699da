#!/usr/bin/env python3
"""Client side of scripts/slow-clients.sh: slow clients against a running
bestmove server on 127.0.0.1, with /healthz asked once a second meanwhile.

Opens CONNECTIONS connections that each send the start of a request
("POST /best-move HTTP/1.1\\r\\nHost: x\\r\\n") and then either nothing
(--mode silent) or one more header byte every --trickle seconds (--mode
trickle), never finishing the headers. It watches every one of them until
the server closes it, and meanwhile starts a /healthz probe (a new
connection) every second, each waiting up to 30 s for its answer.

Prints one Markdown table row (see --header) and exits 1 if /healthz was
unavailable (no probe answered) for longer than the header timeout plus 2 s, if a slow
connection was not closed by the server, or if a slow connection got an
answer. Only ever connects to 127.0.0.1.
"""

import argparse
import json
import re
import resource
import selectors
import socket
import statistics
import sys
import threading
import time

HOST = "127.0.0.1"
START = b"POST /best-move HTTP/1.1\r\nHost: x\r\n"
PROBE = b"GET /healthz HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n"
PROBE_PATIENCE = 30.0
# The header that trickled connections send a byte at a time, never ending.
TRICKLE = b"X-Slow: " + b"a" * 4096


def probe(port, results, lock):
    """One /healthz request on a fresh connection; records (start, end, ok)."""
    started = time.monotonic()
    ok = False
    try:
        with socket.create_connection((HOST, port), timeout=PROBE_PATIENCE) as s:
            s.settimeout(max(0.1, PROBE_PATIENCE - (time.monotonic() - started)))
            s.sendall(PROBE)
            head = b""
            while len(head) < 12:
                chunk = s.recv(64)
                if not chunk:
                    break
                head += chunk
            ok = head.startswith(b"HTTP/1.1 200")
    except OSError:
        ok = False
    with lock:
        results.append((started, time.monotonic(), ok))


def metric(port, name):
    with socket.create_connection((HOST, port), timeout=10) as s:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        text = b""
        while chunk := s.recv(65536):
            text += chunk
    m = re.search(rb"^" + re.escape(name.encode()) + rb" (\S+)$", text, re.M)
    return float(m.group(1)) if m else float("nan")


def peak_rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int)
    ap.add_argument("--pid", type=int)
    ap.add_argument("--log")
    ap.add_argument("--connections", type=int, default=1100)
    ap.add_argument("--mode", choices=["silent", "trickle"], default="silent")
    ap.add_argument("--trickle", type=float, default=2.0)
    ap.add_argument("--header-timeout", type=float, default=10.0)
    ap.add_argument("--header", action="store_true", help="print the table header and exit")
    args = ap.parse_args()
    if args.header:
        print("| Slow clients | /healthz unavailable | Longest probe wait | Probes answered | Closed by the server | "
              "Time to close (min / median / max) | Limit warnings | Accept errors | Server peak RSS |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        return 0

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = args.connections + 200
    if soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            sys.exit(f"slow-clients: need {want} file descriptors for the client, the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

    probes, lock = [], threading.Lock()
    stop_probing = threading.Event()

    def probing():
        while not stop_probing.is_set():
            threading.Thread(target=probe, args=(args.port, probes, lock), daemon=True).start()
            stop_probing.wait(1.0)

    rss_before = peak_rss_mib(args.pid)
    prober = threading.Thread(target=probing, daemon=True)
    prober.start()

    # Open the slow connections; connect() completes once the kernel has
    # queued the connection, accepted by the server or not.
    sel = selectors.DefaultSelector()
    opened, closed_at, answered = {}, {}, set()
    socks = []
    for i in range(args.connections):
        s = socket.create_connection((HOST, args.port), timeout=10)
        s.sendall(START)
        s.setblocking(False)
        opened[i] = time.monotonic()
        sel.register(s, selectors.EVENT_READ, i)
        socks.append(s)

    def closed(i, s):
        if i not in closed_at:
            closed_at[i] = time.monotonic()
            sel.unregister(s)
            s.close()

    # Every connection should be closed within two header timeouts (those
    # waiting in the listen backlog get theirs once accepted); give it more.
    deadline = time.monotonic() + 3 * args.header_timeout + 10
    next_trickle = time.monotonic() + args.trickle
    trickled = 0
    while len(closed_at) < args.connections and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=0.2):
            s, i = key.fileobj, key.data
            try:
                data = s.recv(4096)
            except (ConnectionResetError, BrokenPipeError):
                data = b""
            except BlockingIOError:
                continue
            if data:
                answered.add(i)
            else:
                closed(i, s)
        if args.mode == "trickle" and time.monotonic() >= next_trickle:
            # One more byte of a header that never ends.
            byte = TRICKLE[trickled:trickled + 1]
            trickled += 1
            for i, s in enumerate(socks):
                if i in closed_at:
                    continue
                try:
                    s.send(byte)
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    closed(i, s)
            next_trickle += args.trickle

    # Probes for two more seconds, to see the service is back.
    time.sleep(2)
    stop_probing.set()
    prober.join()
    time.sleep(0.5)
    with lock:
        finished = list(probes)
    in_flight = threading.active_count() - 1
    waits = [end - start for start, end, _ in finished]
    longest = max(waits) if waits else float("nan")
    ok = sum(1 for *_, good in finished if good)
    # Unavailable: the longest time with no /healthz answer while a probe
    # went out every second (so it may overstate the outage by up to 1 s).
    answers = sorted(end for _, end, good in finished if good)
    gap = max((b - a for a, b in zip(answers, answers[1:])), default=float("nan"))

    durations = sorted(closed_at[i] - opened[i] for i in closed_at)
    header_timeouts = metric(args.port, 'bestmove_connections_timed_out_total{timeout="header_read"}')
    with open(args.log, errors="replace") as f:
        log = f.read()
    limit_warnings = log.count("connection limit reached")
    accept_errors = log.count("accept error")
    rss_peak = peak_rss_mib(args.pid)

    label = "silent" if args.mode == "silent" else f"one header byte every {args.trickle:g} s"
    close_times = (f"{durations[0]:.1f} / {statistics.median(durations):.1f} / {durations[-1]:.1f} s"
                   if durations else "none")
    print(f"| {args.connections}, {label} | {gap:.1f} s | {longest:.1f} s | {ok} of {len(finished)} | "
          f"{len(closed_at)} of {args.connections} | {close_times} | {limit_warnings} | {accept_errors} | "
          f"{rss_peak:.1f} MiB |")
    details = {
        "probe_waits_s": [round(w, 2) for w in waits],
        "probes_unfinished": in_flight,
        "server_header_read_timeouts": header_timeouts,
        "rss_before_mib": round(rss_before, 1),
        "answered_slow_connections": len(answered),
    }
    print(json.dumps(details), file=sys.stderr)

    failures = []
    if not (gap <= args.header_timeout + 2):
        failures.append(f"/healthz was unavailable for {gap:.1f} s (target: at most {args.header_timeout + 2:g} s)")
    if ok != len(finished):
        failures.append(f"{len(finished) - ok} /healthz probes failed")
    if len(closed_at) != args.connections:
        failures.append(f"{args.connections - len(closed_at)} slow connections were never closed")
    if answered:
        failures.append(f"{len(answered)} slow connections got an answer")
    if header_timeouts < args.connections:
        failures.append(f"the server counted {header_timeouts:g} header timeouts, not {args.connections}")
    for failure in failures:
        print(f"slow-clients: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
