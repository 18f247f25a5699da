#!/usr/bin/env python3
"""bestmove's Gomoku against a reference engine: tactics suites and games.

The reference is Rapfi (dhbloo/rapfi, GPL-3.0), run as an outside program
only, built outside this repository and driven through
../shared/tools/gomoku-ref/gomoku_ref.py; none of its code, weights or
build is part of bestmove. GOMOKU_REF_ENGINE=/path/pbrain-rapfi (or
GOMOKU_REF_DIR=/dir/with/pbrain-rapfi) names the binary.

  gomoku_compare.py tactics --url URL [--wins FILE --defences FILE --deep N]
      Each position of the suites (tests/data/gomoku/win.txt and
      defence.txt, made by scripts/gomoku_suites.py) asked of the service
      (POST URL/best-move, its default budget), then checked by the
      reference searching `--deep` nodes from the position after the
      service's move:
        win      the side to move has a forced win: passes when the move
                 keeps it (a five at once, or the reference proves the
                 defender lost after it);
        defence  the opponent threatens a forced win: passes when the
                 reference finds no forced win for the attacker after it.
      Every answer marked exact is checked too: an exact win must be one
      the reference proves after the move; an exact loss or draw in a
      position where the suite says the side to move wins or holds is
      wrong. One position at a time, the service then the reference.

  gomoku_compare.py play --url URL [--games 20 --rungs 10,30,100,300,1000
                        --seed 1 --openings FILE]
      GAMES games against the reference at each rung of limits per
      move: a time in ms (`100`), or a count of positions searched with an
      `n` before it (`n3000`: the reference's node limit, which finds
      where bestmove stands below the shortest times, at which the
      reference stops after a millisecond or so), each colour in half of them, from the near-even openings
      of gomoku-ref/data/openings-freestyle.txt in a seeded order (each
      opening twice, colours swapped). bestmove at its default budget.
      Prints each game and bestmove's points at each rung (a win 1, a
      draw 1/2), its mean time a move and the reference's.

      With --record FILE, each game is also written to FILE as a line:
      its limit, number, bestmove's colour, its points, the opening's
      length and the moves.

  gomoku_compare.py duel --url URL --against URL2 [--games 20 --seed 1]
      Two services (two builds, or one build started with other
      settings) against each other at their default budgets, from the
      same openings, each colour in half of the games: the points of the
      one at URL. No reference needed: the check of an engine change.

  gomoku_compare.py review --record FILE [--deep 200000]
      For each game bestmove lost in a --record file, the reference's
      evaluation (searching DEEP nodes) of the position before each of
      bestmove's moves, from bestmove's side, and the first of its moves
      from a position the reference proves lost: where the games slip
      away, and how (a slow fall of the evaluation, or a position that
      was even until a forced win appeared).

Exit status: 1 when an exact answer is wrong, 2 on bad use.
"""
import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REF_TOOLS = os.environ.get("GOMOKU_REF_TOOLS", os.path.join(ROOT, "..", "shared", "tools", "gomoku-ref"))
sys.path.insert(0, REF_TOOLS)
import gomoku_ref as gr  # noqa: E402


class Service:
    """bestmove's Gomoku through POST URL/best-move, at its default budget unless told."""

    def __init__(self, url, extra=None):
        self.url, self.extra, self.label = url.rstrip("/"), dict(extra or {}), "bestmove"
        self.times = []
        # The comparison searches are not wanted where the service has them.
        if self.ask_raw({"game": "gomoku", "moves": "h8", "compare": False, "time_ms": 10})[0] == 200:
            self.extra.setdefault("compare", False)

    def ask_raw(self, body, timeout=600):
        req = urllib.request.Request(self.url + "/best-move", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def ask(self, moves):
        body = dict({"game": "gomoku", "moves": gr.names(moves)}, **self.extra)
        t = time.monotonic()
        status, answer = self.ask_raw(body)
        ms = (time.monotonic() - t) * 1000
        if status != 200:
            raise RuntimeError("the service answered %d: %s" % (status, answer))
        self.times.append(ms)
        return answer, ms

    def new_game(self):
        pass

    def __call__(self, moves):
        answer, ms = self.ask(moves)
        r = gr.Result(gr.parse_moves(answer["best_move"])[0])
        r.ms, r.eval = int(ms), answer.get("score")
        return r

    def close(self):
        pass


def read_suite(path):
    out = []
    for line in gr.read_lines(path):
        fields = [f.strip() for f in line.split("|")]
        out.append((gr.parse_moves(fields[0]), gr.parse_moves(fields[1]) if len(fields) > 1 else [],
                    fields[2] if len(fields) > 2 else ""))
    return out


def claim(answer):
    """The service's own verdict in words: 'win 9', 'loss 6', 'draw' when exact, else None."""
    if not answer.get("exact"):
        return None
    s, n = answer.get("score", 0), answer.get("plies_to_end")
    return ("win %s" % n) if s > 0 else ("loss %s" % n) if s < 0 else "draw"


def tactics(args):
    svc = Service(args.url)
    ref = gr.Pbrain(nodes=args.deep, label="reference")
    bad_exact = []
    totals = {}
    try:
        for kind, path in (("win", args.wins), ("defence", args.defences)):
            suite = read_suite(path)
            if args.limit:
                suite = suite[:args.limit]
            print("\n## %s positions: %s (%d)\n" % (kind, os.path.relpath(path, ROOT), len(suite)))
            print("| # | stones | bestmove | ms | its claim | suite's moves | reference after it | |")
            print("|---|---|---|---|---|---|---|---|")
            ok = 0
            times = []
            for i, (moves, good, note) in enumerate(suite, 1):
                answer, ms = svc.ask(moves)
                times.append(ms)
                bm = answer.get("best_move")
                said = claim(answer)
                if bm is None:
                    passed, verdict = False, "no move"
                else:
                    after = moves + gr.parse_moves(bm)
                    mover = ("black", "white")[len(moves) % 2]
                    w, _ = gr.winner(after)
                    if w == mover:
                        verdict, forced = "five", "loss"
                    else:
                        ref.new_game()
                        r = ref(after)
                        forced = r.forced()
                        verdict = "%s %s" % (r.eval, forced)
                    # forced is from the opponent's side, who moves after the service's move
                    passed = forced == "loss" if kind == "win" else forced != "win"
                    if said and said.startswith("win") and forced != "loss":
                        bad_exact.append("%s #%d: exact %s, the reference after %s: %s" % (kind, i, said, bm, verdict))
                if said and not said.startswith("win"):
                    bad_exact.append("%s #%d: exact %s where the reference finds %s" % (
                        kind, i, said, "a forced win" if kind == "win" else "a move that holds"))
                ok += passed
                print("| %d | %d | %s | %.0f | %s | %s | %s | %s |" % (
                    i, len(moves), bm, ms, said or "-", gr.names(good), verdict, "ok" if passed else "MISS"), flush=True)
            totals[kind] = (ok, len(suite), times)
        print("\n## Tactics summary\n")
        for kind, (ok, n, times) in totals.items():
            times.sort()
            print("- %s: %d of %d (%.1f%%), bestmove's time a position median %.0f ms, max %.0f ms" % (
                kind, ok, n, 100.0 * ok / max(n, 1), times[len(times) // 2] if times else 0, times[-1] if times else 0))
        print("- the reference after each move: %d nodes, Rapfi's forced result (+M/-M)" % args.deep)
        print("- exact answers wrong: %d%s" % (len(bad_exact), "".join("\n  - " + b for b in bad_exact)))
    finally:
        ref.close()
    return 1 if bad_exact else 0


def series(ours, theirs, openings, games):
    """Plays `games` games of `ours` against `theirs`, each opening twice in
    turn with the colours swapped, `ours` black first; yields each game's
    number (from 0), opening, the colour `ours` played, and play_game's
    result, reason and moves."""
    for g in range(games):
        op = openings[(g // 2) % len(openings)]
        ours_black = g % 2 == 0
        black, white = (ours, theirs) if ours_black else (theirs, ours)
        res, why, mv = gr.play_game(black, white, op)
        yield (g, op, "black" if ours_black else "white", res, why, mv)


def play(args):
    svc = Service(args.url)
    openings = [gr.parse_moves(l) for l in gr.read_lines(args.openings)]
    random.Random(args.seed).shuffle(openings)
    rungs = [r.strip() for r in args.rungs.split(",") if r.strip()]
    record = open(args.record, "a") if args.record else None
    summary = []
    for rung in rungs:
        if rung.startswith("n"):
            ref = gr.Pbrain(nodes=int(rung[1:]), label="rapfi:nodes=%s" % rung[1:])
            limit = "%s positions" % rung[1:]
        else:
            ref = gr.Pbrain(time_ms=int(rung), label="rapfi:time=%s" % rung)
            limit = "%s ms" % rung
        ref_times = []

        def timed_ref(moves, _ref=ref):
            r = _ref(moves)
            ref_times.append(r.ms)
            return r
        timed_ref.new_game = ref.new_game
        svc.times = []
        points, wins, draws, losses = 0.0, 0, 0, 0
        print("\n## Against the reference at %s a move\n" % limit)
        print("| game | opening | bestmove | result | moves | how |")
        print("|---|---|---|---|---|---|")
        t0 = time.monotonic()
        try:
            for g, op, ours, res, why, mv in series(svc, timed_ref, openings, args.games):
                if res == "draw":
                    points += .5
                    draws += 1
                    word = "draw"
                elif res == ours:
                    points += 1
                    wins += 1
                    word = "won"
                else:
                    losses += 1
                    word = "lost"
                print("| %d | %s | %s | %s | %d | %s |" % (g + 1, gr.names(op), ours, word, len(mv), why), flush=True)
                if record:
                    record.write("%s %d %s %s %d %s\n" % (rung, g + 1, ours, {"won": 1, "lost": 0}.get(word, 0.5),
                                                           len(op), gr.names(mv)))
                    record.flush()
        finally:
            ref.close()
        mean = lambda xs: sum(xs) / len(xs) if xs else 0
        line = ("%s: bestmove %.1f of %d points (%d won, %d drawn, %d lost); time a move: bestmove %.0f ms, "
                "the reference %.0f ms; %.0f s" % (limit, points, args.games, wins, draws, losses, mean(svc.times),
                                                  mean(ref_times), time.monotonic() - t0))
        print("\n" + line)
        summary.append(line)
    print("\n## Play summary\n")
    for line in summary:
        print("- " + line)
    return 0


def duel(args):
    a, b = Service(args.url), Service(args.against)
    openings = [gr.parse_moves(l) for l in gr.read_lines(args.openings)]
    random.Random(args.seed).shuffle(openings)
    print("\n## %s against %s\n" % (args.url, args.against))
    print("| game | opening | %s plays | result | moves |" % args.url)
    print("|---|---|---|---|---|")
    points = 0.0
    for g, op, side, res, _, mv in series(a, b, openings, args.games):
        p = 0.5 if res == "draw" else 1.0 if res == side else 0.0
        points += p
        print("| %d | %s | %s | %s | %d |" % (g + 1, gr.names(op), side, p, len(mv)), flush=True)
    mean = lambda xs: sum(xs) / len(xs) if xs else 0
    print("\n%s: %.1f of %d points against %s; time a move %.0f ms and %.0f ms" % (
        args.url, points, args.games, args.against, mean(a.times), mean(b.times)))
    return 0


def review(args):
    ref = gr.Pbrain(nodes=args.deep, label="reference")
    falls = []
    try:
        print("\n## Lost games of %s, judged by the reference at %d nodes\n" % (args.record, args.deep))
        print("| rung | game | bestmove | moves | first move from a lost position | the reference's evaluation before each of bestmove's moves |")
        print("|---|---|---|---|---|---|")
        for line in gr.read_lines(args.record):
            rung, game, side, points, opening, *moves = line.split()
            if float(points) != 0.0:
                continue
            mv = gr.parse_moves(" ".join(moves))
            ours = 0 if side == "black" else 1
            evals, lost_at = [], None
            for k in range(ours, len(mv), 2):
                if k < int(opening):
                    continue
                ref.new_game()
                e = ref(mv[:k]).eval or "?"
                evals.append("%d:%s" % (k + 1, e))
                if lost_at is None and e.startswith("-M"):
                    lost_at = k + 1
                    # The evaluation two of its moves before, if any.
                    before = evals[-3].split(":")[1] if len(evals) >= 3 else None
                    falls.append(before)
            print("| %s | %s | %s | %d | %s | %s |" % (rung, game, side, len(mv), lost_at, " ".join(evals)),
                  flush=True)
    finally:
        ref.close()
    even = sum(1 for b in falls if b and not b.startswith(("-M", "+M")) and abs(int(b)) < 300)
    print("\n%d lost games; in %d of them the reference saw the position within 300 of even two of bestmove's "
          "moves before its first lost one" % (len(falls), even))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("part", choices=["tactics", "play", "duel", "review"])
    ap.add_argument("--url")
    ap.add_argument("--against", help="duel: the other service")
    ap.add_argument("--record", help="play: write each game to this file; review: read the games from it")
    ap.add_argument("--wins", default=os.path.join(ROOT, "tests", "data", "gomoku", "win.txt"))
    ap.add_argument("--defences", default=os.path.join(ROOT, "tests", "data", "gomoku", "defence.txt"))
    ap.add_argument("--deep", type=int, help="the reference's nodes: 2000000 for tactics, 200000 for review")
    ap.add_argument("--limit", type=int, default=0, help="tactics: the first N positions of each suite only")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rungs", default="10,30,100,300,1000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--openings", default=os.path.join(REF_TOOLS, "data", "openings-freestyle.txt"))
    a = ap.parse_args()
    if a.deep is None:
        a.deep = 200000 if a.part == "review" else 2000000
    if a.part == "review":
        if not a.record:
            ap.error("review needs --record FILE")
        sys.exit(review(a))
    if not a.url or (a.part == "duel" and not a.against):
        ap.error("%s needs --url%s" % (a.part, " and --against" if a.part == "duel" else ""))
    sys.exit({"tactics": tactics, "play": play, "duel": duel}[a.part](a))


if __name__ == "__main__":
    main()
