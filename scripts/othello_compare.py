#!/usr/bin/env python3
"""bestmove's Othello endgame solver and play against Zebra, side by side.

Zebra (Gunnar Andersson's engine, GPL-2) runs as an outside program only,
through ../shared/tools/zebra/zebra.py; none of its code or coefficients
is part of bestmove.

  othello_compare.py endgames (--url URL | --bin EXAMPLE) --ffo FILE
                              [--first 40 --last 49] [--random N --seed S]
                              [--every-move]
      Solves FFO positions and N positions of 20 to 24 empties from seeded
      random games exactly with both programs, one position at a time,
      alternating (Zebra first, then bestmove), one thread each. Every
      score must agree. bestmove through the service (--url): POST
      /best-move with the position as a board, a budget of ten minutes,
      `"compare": false` and `"max_moves": 1` (the best move alone, proven
      with its exact score), timed as the client sees it; with
      --every-move also the default request (every move's exact score),
      beside Zebra solving every move. Or the side binary (--bin,
      examples/othello_ffo: its engine time). Zebra: its wall time around
      scrzebra, less its start-up (the fastest of three solves of a
      one-empty position). Prints a table and the ratio bestmove / Zebra.

  othello_compare.py play --url URL [--games 10 --depth 6 --exact 16
                          --openings 4 --seed S] [--record FILE]
      Plays games between bestmove (POST URL/best-move with its default
      budget) and Zebra (midgame depth D, exact from E empties), each
      colour in half of the games, from openings of a few seeded random
      moves. Prints each game and the points (a win 1, a draw 1/2) and the
      total disc difference; --record appends each game's moves to FILE
      (for `review` below).

  othello_compare.py review --record FILE [--depth 14 --exact 22
                            --from-ply 0 --worst 15]
      Each move bestmove played in the games of a --record file, judged by
      Zebra: its value of the position before the move (exact from EXACT
      empties, else a DEPTH-ply search) less its value after it, in discs
      (Zebra's midgame scores are whole even numbers of discs, so a move
      within two discs of the best reads as 0). Prints the discs lost by
      game stage and the costliest moves: where the games are lost.

  othello_compare.py speed --url URL [--positions 20 --depth 10 --seed S]
      Positions per second, side by side on the same midgame positions
      (30 to 44 empty squares from seeded random games), alternating: Zebra
      searching D plies deep (its own count of positions and its wall time
      less its start-up), and the service asked for the same depth
      (`max_depth`, `"max_moves": 1`: the engine's count of positions and
      time), then at its default budget (the depth it reaches in 1 s).

  othello_compare.py budget --url URL [--per 5 --min 18 --max 24 --seed S]
      Exact answers at the default budget: for each number of empty
      squares from MIN to MAX, PER positions from seeded random games, each
      asked of the service with the request a player sends (its default
      budget, every move scored; timed as the client sees it) and solved by
      Zebra (its wall time less its start-up), alternating. Prints, per
      number of empty squares, how many answers were exact (their scores
      checked against Zebra's) and how many of Zebra's solves took no
      longer than the service's budget.

  othello_compare.py duel --url URL --against URL [--games 40 --depth D
                          | --time-ms T] [--openings 4 --seed S]
      Plays two bestmove servers against each other (two builds: say, two
      evaluations' weights), each colour in half of the games, from the
      same seeded openings as play: each move asked with `max_depth` D
      (the same search on both sides, so only the evaluation differs; the
      same games on any machine) or with `time_ms` T (equal time), or at
      the default budget. No Zebra. Prints each game and URL's points.

Exit status: 1 when a score disagrees (endgames, budget), 2 on bad use.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ZEBRA_TOOLS = os.environ.get("ZEBRA_TOOLS", os.path.join(HERE, "..", "..", "shared", "tools", "zebra"))
sys.path.insert(0, ZEBRA_TOOLS)
import othello as oth  # noqa: E402  (the slow reference rules beside zebra.py)
import zebra  # noqa: E402


def random_position(rng, empties):
    """A position `empties` empty squares from the end of a seeded random
    game whose side to move has a legal move, or None if the game ended."""
    cells, side = oth.parse("-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X")
    while oth.empties(cells) > empties:
        moves = oth.legal_moves(cells, side)
        if not moves:
            if not oth.legal_moves(cells, oth.opp(side)):
                return None
            side = oth.opp(side)
            continue
        cells, side = oth.play(cells, side, rng.choice(moves))
    if not oth.legal_moves(cells, side):
        if not oth.legal_moves(cells, oth.opp(side)):
            return None
        side = oth.opp(side)
    return cells, side


def bestmove_solve(binary, cells, side):
    """(score, best move, positions, seconds) from examples/othello_ffo."""
    with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as f:
        f.write(oth.to_str(cells, side) + ";\n")
        path = f.name
    try:
        p = subprocess.run([binary, path, "--table-mb", "256"], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if p.returncode not in (0, 1):
        raise RuntimeError("othello_ffo failed: " + p.stderr[-500:])
    row = next(l for l in p.stdout.splitlines() if l.split() and l.split()[0].isdigit()).split()
    # "#", empties, move, score, expected, nodes, seconds
    return int(row[3]), row[2], int(row[5]), float(row[6])


def service_solve(url, cells, side, every_move=False):
    """(score, best move, positions, seconds, exact) from POST /best-move:
    the best move alone, or every move (`every_move`)."""
    board = oth.to_str(cells, side).split()[0]
    body = {"game": "othello", "board": board, "to_move": side, "time_ms": 600000, "compare": False, "seed": 1}
    if not every_move:
        body["max_moves"] = 1
    started = time.perf_counter()
    answer = post(url, body, timeout=900)
    elapsed = time.perf_counter() - started
    return answer["score"], answer["best_move"], answer["engine"]["nodes"], elapsed, answer["exact"]


def zebra_every_move(cells, side, overhead):
    """Zebra's time to solve every move of a position: each child solved
    exactly (after the opponent's pass, when it has no move), one run each,
    its start-up subtracted from each."""
    total = 0.0
    for m in oth.legal_moves(cells, side):
        child, to_move = oth.play(cells, side, m)
        if not oth.legal_moves(child, to_move):
            if not oth.legal_moves(child, oth.opp(to_move)):
                continue
            to_move = oth.opp(to_move)
        (_, wall), = zebra.solve([(child, to_move)])
        total += max(0.0, wall - overhead)
    return total


def zebra_overhead():
    """Zebra's start-up: the fastest of three solves of a one-empty position."""
    cells, side = oth.parse("X" * 62 + "O-" + " X")
    return min(zebra.solve([(cells, side)])[0][1] for _ in range(3))


def endgames(args):
    cases = []
    with open(args.ffo) as f:
        first = int(os.path.basename(args.ffo).split("-")[1])
        lines = [l for l in f if l.strip() and not l.startswith("%")]
    for number, line in enumerate(lines, start=first):
        if args.first <= number <= args.last:
            cells, side = oth.parse(line.split(";")[0])
            cases.append(("FFO #%d" % number, cells, side))
    rng = random.Random(args.seed)
    while sum(1 for c in cases if c[0].startswith("random")) < args.random:
        empties = rng.randint(20, 24)
        position = random_position(rng, empties)
        if position:
            cases.append(("random %d" % (len(cases) + 1), position[0], position[1]))
    overhead = zebra_overhead()
    print("Zebra start-up per run, subtracted: %.3f s" % overhead)
    source = ("the service (POST /best-move, \"max_moves\": 1, \"compare\": false), timed as its client sees it"
              if args.url else "examples/othello_ffo (the side binary), its engine time")
    print("bestmove: " + source)
    print()
    every = args.url and args.every_move
    head = "| Position | Empties | Score | bestmove (s) | bestmove positions | Zebra (s) |"
    rule = "| --- | ---: | ---: | ---: | ---: | ---: |"
    if every:
        head += " bestmove, every move (s) | Zebra, every move (s) |"
        rule += " ---: | ---: |"
    print(head)
    print(rule)
    totals = dict.fromkeys(["bestmove", "zebra", "ffo_b", "ffo_z", "every_b", "every_z"], 0.0)
    wrong = 0
    for name, cells, side in cases:
        (z_score, z_wall), = zebra.solve([(cells, side)])
        z_time = max(0.0, z_wall - overhead)
        if args.url:
            b_score, b_move, b_nodes, b_time, exact = service_solve(args.url, cells, side)
            wrong += not exact
        else:
            b_score, b_move, b_nodes, b_time = bestmove_solve(args.bin, cells, side)
        mark = "" if b_score == z_score else " **disagree: Zebra %+d**" % z_score
        wrong += b_score != z_score
        row = "| %s | %d | %+d%s | %.3f | %s | %.3f |" % (name, oth.empties(cells), b_score, mark, b_time,
                                                        format(b_nodes, ","), z_time)
        if every:
            z_every = zebra_every_move(cells, side, overhead)
            e_score, _, _, e_time, e_exact = service_solve(args.url, cells, side, every_move=True)
            wrong += (not e_exact) + (e_score != z_score)
            row += " %.3f | %.3f |" % (e_time, z_every)
            totals["every_b"] += e_time
            totals["every_z"] += z_every
        print(row, flush=True)
        totals["bestmove"] += b_time
        totals["zebra"] += z_time
        if name.startswith("FFO"):
            totals["ffo_b"] += b_time
            totals["ffo_z"] += z_time
    print()
    ffo = sum(1 for c in cases if c[0].startswith("FFO"))
    if ffo:
        print("FFO #%d-#%d: bestmove %.2f s, Zebra %.2f s, ratio bestmove / Zebra %.2fx" % (
            args.first, args.last, totals["ffo_b"], totals["ffo_z"], totals["ffo_b"] / max(totals["ffo_z"], 1e-9)))
    print("All %d positions: bestmove %.2f s, Zebra %.2f s, ratio bestmove / Zebra %.2fx" % (
        len(cases), totals["bestmove"], totals["zebra"], totals["bestmove"] / max(totals["zebra"], 1e-9)))
    if every:
        print("Every move exact, all %d positions: bestmove %.2f s, Zebra %.2f s, ratio %.2fx" % (
            len(cases), totals["every_b"], totals["every_z"], totals["every_b"] / max(totals["every_z"], 1e-9)))
    print("Scores: %d of %d agree%s" % (len(cases) - wrong, len(cases), "" if not args.url else ", every answer exact" if not wrong else ""))
    return 1 if wrong else 0


def post(url, body, timeout=60):
    request = urllib.request.Request(url + "/best-move", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.load(response)


START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"


def after(opening):
    """The position (cells, side to move) after the moves of `opening` from the start."""
    cells, side = oth.parse(START)
    for name in opening:
        cells, side = oth.play(cells, side, oth.sq_index(name))
    return cells, side


def seeded_opening(rng, plies):
    """`plies` random moves from the start, drawn again until the side to move has a move."""
    while True:
        cells, side = oth.parse(START)
        opening = []
        for _ in range(plies):
            mv = rng.choice(oth.legal_moves(cells, side))
            opening.append(oth.sq_name(mv))
            cells, side = oth.play(cells, side, mv)
        if oth.legal_moves(cells, side):
            return opening


def play(args):
    rng = random.Random(args.seed)
    points = 0.0
    discs = 0
    print("| Game | bestmove plays | Opening | Result for bestmove | Discs |")
    print("| ---: | --- | --- | --- | ---: |")
    for game in range(args.games):
        bestmove_side = "X" if game % 2 == 0 else "O"
        if game % 2 == 0:
            # A fresh opening for each pair: one game with each colour.
            opening = seeded_opening(rng, args.openings)
        cells, side = after(opening)
        moves = list(opening)
        passed = False
        while True:
            legal = oth.legal_moves(cells, side)
            if not legal:
                if not oth.legal_moves(cells, oth.opp(side)):
                    break
                side = oth.opp(side)
                passed = True
                continue
            if side == bestmove_side:
                # Passes are left out, as the service implies them, but for
                # one just made: the other side is then to move.
                sent = moves + (["pass"] if passed else [])
                answer = post(args.url, {"game": "othello", "moves": sent, "compare": False,
                                         "seed": args.seed * 1000 + game})
                mv = answer["best_move"]
                if mv not in [oth.sq_name(i) for i in legal]:
                    raise RuntimeError("game %d: bestmove answered %r after %s; the legal squares are %s" % (
                        game + 1, mv, " ".join(moves), " ".join(oth.sq_name(i) for i in legal)))
            else:
                mv, _ = zebra.move(cells, side, args.depth, args.exact)
            index = oth.sq_index(mv)
            if index not in legal:
                raise RuntimeError("game %d: %s played %s, not legal" % (game + 1, side, mv))
            cells, side = oth.play(cells, side, index)
            moves.append(mv)
            passed = False
        diff = oth.disc_diff(cells, bestmove_side)
        result = "win" if diff > 0 else "draw" if diff == 0 else "loss"
        points += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
        discs += diff
        print("| %d | %s | %s | %s | %+d |" % (game + 1, "black" if bestmove_side == "X" else "white",
                                              " ".join(opening), result, diff), flush=True)
        if args.record:
            with open(args.record, "a") as f:
                f.write("%d %s %+d %d %s\n" % (game + 1, bestmove_side, diff, len(opening), " ".join(moves)))
    print()
    print("bestmove: %.1f of %d points against Zebra at depth %d (exact from %d empties), total disc difference %+d"
          % (points, args.games, args.depth, args.exact, discs))
    return 0


def duel(args):
    rng = random.Random(args.seed)
    points = 0.0
    discs = 0
    extra = {"compare": False, "max_moves": 1}
    if args.depth:
        extra["max_depth"] = args.depth
    elif args.time_ms:
        extra["time_ms"] = args.time_ms
    print("| Game | --url plays | Opening | Result for --url | Discs |")
    print("| ---: | --- | --- | --- | ---: |")
    for game in range(args.games):
        url_side = "X" if game % 2 == 0 else "O"
        if game % 2 == 0:
            opening = seeded_opening(rng, args.openings)
        cells, side = after(opening)
        moves = list(opening)
        passed = False
        while True:
            legal = oth.legal_moves(cells, side)
            if not legal:
                if not oth.legal_moves(cells, oth.opp(side)):
                    break
                side = oth.opp(side)
                passed = True
                continue
            url = args.url if side == url_side else args.against
            sent = moves + (["pass"] if passed else [])
            answer = post(url, dict(extra, game="othello", moves=sent, seed=args.seed * 1000 + game), timeout=600)
            mv = answer["best_move"]
            index = oth.sq_index(mv)
            if index not in legal:
                raise RuntimeError("game %d: %s answered %r, not legal" % (game + 1, url, mv))
            cells, side = oth.play(cells, side, index)
            moves.append(mv)
            passed = False
        diff = oth.disc_diff(cells, url_side)
        points += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
        discs += diff
        print("| %d | %s | %s | %s | %+d |" % (game + 1, "black" if url_side == "X" else "white", " ".join(opening),
                                              "win" if diff > 0 else "draw" if diff == 0 else "loss", diff), flush=True)
    print()
    how = ("depth %d" % args.depth) if args.depth else ("%d ms a move" % args.time_ms) if args.time_ms else "default budget"
    print("--url: %.1f of %d points against --against (%s), total disc difference %+d" % (points, args.games, how, discs))
    return 0


def zebra_search(cells, side, depth):
    """Zebra's midgame search `depth` plies deep: (positions, seconds of wall time)."""
    with tempfile.TemporaryDirectory(prefix="zebra-") as d:
        os.symlink(os.path.join(zebra.ZEBRA_DIR, "coeffs2.bin"), os.path.join(d, "coeffs2.bin"))
        with open(os.path.join(d, "in.scr"), "w") as f:
            f.write(oth.to_str(cells, side) + "\n")
        env = dict(os.environ, ZEBRA_MID=str(depth), ZEBRA_EXACT="0", ZEBRA_WLD="0")
        started = time.perf_counter()
        p = subprocess.run([os.path.join(zebra.ZEBRA_DIR, "scrzebra"), "-b", "0", "-line", "1", "-script", "in.scr",
                            "out.txt"], cwd=d, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - started
        nodes = [int(line.split(":")[1]) for line in p.stdout.splitlines() if line.startswith("Total nodes:")]
        if p.returncode != 0 or not nodes:
            raise RuntimeError("scrzebra failed (%d): %s" % (p.returncode, p.stdout[-300:]))
        return nodes[0], wall


def speed(args):
    rng = random.Random(args.seed)
    overhead = zebra_overhead()
    cases = []
    while len(cases) < args.positions:
        found = random_position(rng, rng.randint(30, 44))
        if found:
            cases.append(found)
    print("Zebra's start-up, taken off its times: %.3f s" % overhead)
    print()
    print("| # | Empties | Zebra positions | Zebra s | Zebra M/s | bestmove positions | bestmove s | bestmove M/s | bestmove depth in 1 s |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    totals = {"zn": 0, "zs": 0.0, "bn": 0, "bs": 0.0}
    depths = []
    for i, (cells, side) in enumerate(cases, 1):
        zn, zwall = zebra_search(cells, side, args.depth)
        zs = max(zwall - overhead, 1e-6)
        body = {"game": "othello", "board": oth.to_str(cells, side).split()[0], "to_move": side, "compare": False}
        fixed = post(args.url, dict(body, max_depth=args.depth, max_moves=1, time_ms=600000), timeout=700)
        bn, bs = fixed["engine"]["nodes"], fixed["engine"]["elapsed_us"] / 1e6
        default = post(args.url, body)
        depths.append(default["engine"]["depth"])
        totals["zn"] += zn
        totals["zs"] += zs
        totals["bn"] += bn
        totals["bs"] += bs
        print("| %d | %d | %d | %.3f | %.2f | %d | %.3f | %.2f | %d |" % (
            i, oth.empties(cells), zn, zs, zn / zs / 1e6, bn, bs, bn / max(bs, 1e-6) / 1e6, depths[-1]), flush=True)
    zr, br = totals["zn"] / totals["zs"], totals["bn"] / max(totals["bs"], 1e-9)
    print()
    print("Depth %d on %d positions: Zebra %d positions in %.2f s (%.2f M/s), bestmove %d in %.2f s (%.2f M/s): "
          "bestmove's rate %.2fx Zebra's, its time %.2fx" % (
              args.depth, len(cases), totals["zn"], totals["zs"], zr / 1e6, totals["bn"], totals["bs"], br / 1e6,
              br / zr, totals["bs"] / totals["zs"]))
    print("bestmove at its default budget (1 s, every move scored) reaches depth %d to %d, mean %.1f" % (
        min(depths), max(depths), sum(depths) / len(depths)))
    return 0


def budget(args):
    rng = random.Random(args.seed)
    overhead = zebra_overhead()
    print("Zebra's start-up, taken off its times: %.3f s" % overhead)
    print()
    print("| Empties | Positions | service exact | service time (mean s) | Zebra solved within the budget | Zebra time (mean s) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    wrong = 0
    totals = [0, 0, 0]
    for empties in range(args.min, args.max + 1):
        cases = []
        while len(cases) < args.per:
            found = random_position(rng, empties)
            if found and oth.empties(found[0]) == empties:
                cases.append(found)
        exact = within = 0
        b_total = z_total = 0.0
        for cells, side in cases:
            (z_score, z_wall), = zebra.solve([(cells, side)])
            z_time = max(0.0, z_wall - overhead)
            body = {"game": "othello", "board": oth.to_str(cells, side).split()[0], "to_move": side,
                    "compare": False, "seed": 1}
            started = time.perf_counter()
            answer = post(args.url, body)
            b_time = time.perf_counter() - started
            budget_s = answer["time_ms"] / 1000
            if answer["exact"]:
                exact += 1
                if answer["score"] != z_score:
                    wrong += 1
                    print("disagree at %d empties: service %+d, Zebra %+d: %s" % (
                        empties, answer["score"], z_score, oth.to_str(cells, side)), flush=True)
            within += z_time <= budget_s
            b_total += b_time
            z_total += z_time
        print("| %d | %d | %d | %.2f | %d | %.2f |" % (
            empties, len(cases), exact, b_total / len(cases), within, z_total / len(cases)), flush=True)
        totals[0] += len(cases)
        totals[1] += exact
        totals[2] += within
    print()
    print("%d positions: the service answered %d exactly at its default budget; Zebra solved %d within that time"
          % tuple(totals))
    return 1 if wrong else 0


def zebra_value(cells, side, depth, exact):
    """Zebra's value of a position for its side to move: exact from `exact` empties, else a
    `depth`-ply midgame score; positions whose side to move must pass are valued for the other side
    and negated, finished ones counted."""
    if not oth.legal_moves(cells, side):
        if not oth.legal_moves(cells, oth.opp(side)):
            return oth.disc_diff(cells, side)
        return -zebra_value(cells, oth.opp(side), depth, exact)
    env = dict(os.environ, ZEBRA_MID=str(depth), ZEBRA_EXACT=str(exact), ZEBRA_WLD=str(exact))
    lines, _ = zebra._run([oth.to_str(cells, side)], env=env, line=True)
    return zebra.score_of(lines[0], side)


def review(args):
    """Each move bestmove played in the games of a --record file, judged by Zebra."""
    by_stage = {}
    worst = []
    for line in open(args.record):
        number, bestmove_side, diff, opening, *moves = line.split()
        cells, side = after([])
        for ply, name in enumerate(moves):
            if not oth.legal_moves(cells, side):
                side = oth.opp(side)
            # The seeded opening's moves are not bestmove's.
            if side == bestmove_side and ply >= max(int(opening), args.from_ply):
                empties = oth.empties(cells)
                before = zebra_value(cells, side, args.depth, args.exact)
                # The value after the move, for the opponent (negated through its passes).
                loss = before + zebra_value(*oth.play(cells, side, oth.sq_index(name)), args.depth, args.exact)
                stage = min(empties // 10 * 10, 50)
                total, count = by_stage.get(stage, (0, 0))
                by_stage[stage] = (total + loss, count + 1)
                worst.append((loss, number, ply + 1, name, empties))
            cells, side = oth.play(cells, side, oth.sq_index(name))
        print("game %s (bestmove %s, %s) reviewed" % (number, bestmove_side, diff), flush=True)
    print()
    print("| Empty squares | bestmove's moves | discs lost (Zebra's judgement) | a move |")
    print("| ---: | ---: | ---: | ---: |")
    for stage in sorted(by_stage, reverse=True):
        total, count = by_stage[stage]
        print("| %d to %d | %d | %+d | %.2f |" % (stage, stage + 9, count, total, total / count))
    print()
    print("The costliest moves (discs, game, ply, move, empty squares):")
    for loss, number, ply, name, empties in sorted(worst, reverse=True)[:args.worst]:
        print("  %+d game %s ply %d %s (%d empties)" % (loss, number, ply, name, empties))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    e = sub.add_parser("endgames")
    source = e.add_mutually_exclusive_group(required=True)
    source.add_argument("--url", help="the release server to ask")
    source.add_argument("--bin", help="examples/othello_ffo, the side binary")
    e.add_argument("--every-move", action="store_true", help="with --url: also every move exact, beside Zebra's")
    e.add_argument("--ffo", required=True)
    e.add_argument("--first", type=int, default=40)
    e.add_argument("--last", type=int, default=49)
    e.add_argument("--random", type=int, default=10)
    e.add_argument("--seed", type=int, default=1)
    p = sub.add_parser("play")
    p.add_argument("--url", required=True)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--depth", type=int, default=6)
    p.add_argument("--exact", type=int, default=16)
    p.add_argument("--openings", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--record", help="append each game to this file: its number, bestmove's colour (X or O), "
                   "its disc difference for bestmove, the number of seeded opening moves and its moves")
    q = sub.add_parser("speed")
    q.add_argument("--url", required=True)
    q.add_argument("--positions", type=int, default=20)
    q.add_argument("--depth", type=int, default=12)
    q.add_argument("--seed", type=int, default=1)
    b = sub.add_parser("budget")
    b.add_argument("--url", required=True)
    b.add_argument("--per", type=int, default=5)
    b.add_argument("--min", type=int, default=18)
    b.add_argument("--max", type=int, default=24)
    b.add_argument("--seed", type=int, default=1)
    d = sub.add_parser("duel")
    d.add_argument("--url", required=True)
    d.add_argument("--against", required=True)
    d.add_argument("--games", type=int, default=40)
    d.add_argument("--depth", type=int, default=0)
    d.add_argument("--time-ms", type=int, default=0)
    d.add_argument("--openings", type=int, default=4)
    d.add_argument("--seed", type=int, default=1)
    r = sub.add_parser("review")
    r.add_argument("--record", required=True)
    r.add_argument("--depth", type=int, default=14)
    r.add_argument("--exact", type=int, default=22)
    r.add_argument("--from-ply", type=int, default=0)
    r.add_argument("--worst", type=int, default=15)
    args = ap.parse_args()
    sys.exit({"review": review, "endgames": endgames, "play": play, "speed": speed, "budget": budget, "duel": duel}[args.what](args))


if __name__ == "__main__":
    main()
