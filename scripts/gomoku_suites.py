#!/usr/bin/env python3
"""Makes the Gomoku tactics suites of tests/data/gomoku/ with a reference engine.

The reference is Rapfi (dhbloo/rapfi, GPL-3.0), an outside program built
outside this repository and driven through ../shared/tools/gomoku-ref
(gomoku_ref.py); none of its code, weights or build is part of bestmove.
Point at its binary with GOMOKU_REF_ENGINE=/path/pbrain-rapfi (or
GOMOKU_REF_DIR=/dir/with/pbrain-rapfi).

  gomoku_suites.py [--wins 60 --defences 60 --seed 1 --nodes 200000
                    --scan 100000 --deep 1000000 --out tests/data/gomoku]

Plays varied freestyle games from the near-even openings of
gomoku-ref/data/openings-freestyle.txt (chosen by a seeded generator),
each side Rapfi at a low node budget drawn per game or, now and then, a
seeded random move near the stones. At every position from the sixth
stone on the reference looks at the position (`--nodes`) and keeps:

  win       the side to move has a forced win of 7 to 50 plies (Rapfi's
            eval +M7 .. +M49). At most two a game, the first of each side.
  defence   the opponent would have a forced win of 3 plies or more if it
            were to move now (asked of the reference with the same stones
            and the other side to move), the side to move is not lost, and
            checking every empty square within two of a stone, or on a
            line within four of one, with the opponent to move after it
            leaves 1 to 4 moves where the reference finds no forced win
            (`--scan` nodes);
            those that hold are then checked at `--deep` nodes and every
            move proven to lose at either budget is a losing one. At most
            two a game.
Neither kind where the side to move can make five at once.

Writes win.txt and defence.txt in the suite format of gomoku_ref.py
("<moves> | <good moves> | note", '#' comments): for a win, the
reference's winning move and its eval and line; for a defence, the moves
that hold, the threat's length and how many replies were checked.
"""
import argparse
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REF_TOOLS = os.environ.get("GOMOKU_REF_TOOLS", os.path.join(ROOT, "..", "shared", "tools", "gomoku-ref"))
sys.path.insert(0, REF_TOOLS)
import gomoku_ref as gr  # noqa: E402

SIZE = 15


class Ref(gr.Pbrain):
    """The driver's engine, also asked about a position with the other side to move."""

    def side_to_move(self, own, opp):
        """The engine's result with `own` stones to move against `opp` stones."""
        lines = ["BOARD"] + ["%d,%d,1" % m for m in own] + ["%d,%d,2" % m for m in opp] + ["DONE"]
        self._ready()
        self.messages = []
        t = time.monotonic()
        self.send(*lines)
        ans = self._wait(r"-?\d+,-?\d+", 3600.0)
        r = gr.Result(tuple(int(v) for v in ans.split(",")))
        r.ms = int((time.monotonic() - t) * 1000)
        for m in self.messages:
            g = re.search(r"Depth (\d+)-\d+ \| Eval (\S+) \| Node (\S+) \| Time", m)
            if g:
                r.depth, r.eval, r.nodes = int(g.group(1)), g.group(2), g.group(3)
        return r


def plies(result):
    """The length of a forced result in plies (the N of +MN / -MN), else None."""
    m = re.fullmatch(r"[+-]M(\d+)", result.eval or "")
    return int(m.group(1)) if m else None


def near(moves, radius=2):
    """Empty squares within `radius` (king steps) of a stone."""
    taken = set(moves)
    out = set()
    for (x, y) in moves:
        for dx in range(-radius, radius + 1):
            for dy in range(-radius, radius + 1):
                p = (x + dx, y + dy)
                if 0 <= p[0] < SIZE and 0 <= p[1] < SIZE and p not in taken:
                    out.add(p)
    return out


def candidates(moves):
    """Every empty square within two of a stone or on one of its lines within four."""
    taken = set(moves)
    out = near(moves, 2)
    for (x, y) in moves:
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            for k in range(-4, 5):
                p = (x + k * dx, y + k * dy)
                if 0 <= p[0] < SIZE and 0 <= p[1] < SIZE and p not in taken:
                    out.add(p)
    return sorted(out)


def five_at_once(moves):
    """True when the side to move can make five with its next stone (Rapfi then answers at once,
    with no eval: such a position is neither a win to find nor one to defend)."""
    mover = ("black", "white")[len(moves) % 2]
    return any(gr.winner(moves + [c])[0] == mover for c in candidates(moves))


def analyse(eng, moves):
    eng.new_game()
    return eng(moves)


def defence_holds(eng, moves):
    """(holding moves, number checked) for the side to move at `moves`, or None when more than four
    hold. The squares nearest the last stones first, where the moves that hold mostly are."""
    hold, checked = [], 0
    last = moves[-4:]
    order = sorted(candidates(moves), key=lambda c: min(max(abs(c[0] - x), abs(c[1] - y)) for x, y in last))
    for c in order:
        checked += 1
        r = analyse(eng, moves + [c])
        if r.forced() != "win":
            hold.append(c)
            if len(hold) > 4:
                return None
    return hold, checked


def write(a, wins, defences, games):
    """The suites so far, in a.out."""
    os.makedirs(a.out, exist_ok=True)
    head = ("# Made by scripts/gomoku_suites.py --seed %d --nodes %d --scan %d --deep %d with Rapfi 0.43.02 (classical\n"
            "# evaluation) through ../shared/tools/gomoku-ref; positions from %s varied freestyle games.\n"
            % (a.seed, a.nodes, a.scan, a.deep, games))
    with open(os.path.join(a.out, "win.txt"), "w") as f:
        f.write(head + "# The side to move has a forced win (the reference's eval +M<plies>); the good move is the\n"
                "# reference's, any move that keeps the win passes. \"<moves> | <move> | <eval> pv <line>\"\n")
        for mv, r in wins:
            f.write("%s | %s | %s pv %s\n" % (gr.names(mv), gr.name(r.move), r.eval, " ".join(r.pv)))
    with open(os.path.join(a.out, "defence.txt"), "w") as f:
        f.write(head + "# The opponent threatens a forced win (+M<plies> were it to move); the good moves are the\n"
                "# only replies after which the reference finds no forced win (%d then %d nodes); every other\n"
                "# square checked loses. \"<moves> | <holding moves> | threat +M<plies>, <k> of <n> hold\"\n"
                % (a.scan, a.deep))
        for mv, keep, tp, checked in defences:
            f.write("%s | %s | threat +M%d, %d of %d hold\n" % (gr.names(mv), gr.names(keep), tp, len(keep), checked))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wins", type=int, default=60)
    ap.add_argument("--defences", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=200000)
    ap.add_argument("--scan", type=int, default=100000)
    ap.add_argument("--deep", type=int, default=1000000)
    ap.add_argument("--max-games", type=int, default=400)
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "gomoku"))
    a = ap.parse_args()

    rng = random.Random(a.seed)
    openings = [gr.parse_moves(l) for l in gr.read_lines(os.path.join(REF_TOOLS, "data", "openings-freestyle.txt"))]
    budgets = (300, 1000, 3000, 10000, 30000)
    players = {n: gr.Pbrain(nodes=n, label="rapfi:nodes=%d" % n) for n in budgets}
    eng = Ref(nodes=a.nodes, label="analysis")
    scan = Ref(nodes=a.scan, label="scan")
    deep = Ref(nodes=a.deep, label="deep")
    wins, defences, seen = [], [], set()
    t0 = time.monotonic()
    try:
        for game in range(a.max_games):
            if len(wins) >= a.wins and len(defences) >= a.defences:
                break
            moves = list(rng.choice(openings))
            for _ in range(rng.choice((0, 0, 1, 2))):          # a stone or two more for variety
                moves.append(rng.choice(sorted(near(moves, 2))))
            strength = (rng.choice(budgets), rng.choice(budgets))
            wild = rng.choice((0.0, 0.05, 0.1, 0.2))
            won, held = set(), 0
            while gr.winner(moves)[0] is None and len(moves) < 120:
                n = len(moves)
                key = gr.names(sorted(moves[0::2])) + "/" + gr.names(sorted(moves[1::2]))
                side = n % 2
                if n >= 6 and key not in seen and not five_at_once(moves):
                    seen.add(key)
                    r = analyse(eng, moves)
                    p = plies(r)
                    if r.forced() == "win" and 7 <= p <= 49 and side not in won and len(wins) < a.wins:
                        won.add(side)
                        wins.append((list(moves), r))
                        print("win %3d  %s  %s" % (len(wins), r.eval, gr.names(moves)), flush=True)
                    elif r.forced() == "no" and n >= 8 and held < 2 and len(defences) < a.defences:
                        mover, other = moves[side::2], moves[1 - side::2]
                        eng.new_game()
                        t = eng.side_to_move(other, mover)        # the opponent to move on the same stones
                        tp = plies(t)
                        if t.forced() == "win" and tp >= 3:
                            h = defence_holds(scan, moves)
                            if h and h[0]:
                                keep = []
                                for c in h[0]:
                                    if analyse(deep, moves + [c]).forced() != "win":
                                        keep.append(c)
                                if keep:
                                    held += 1
                                    defences.append((list(moves), keep, tp, h[1]))
                                    print("def %3d  threat M%d  hold %s of %d  %s" % (
                                        len(defences), tp, gr.names(keep), h[1], gr.names(moves)), flush=True)
                # the next move: a random one near the stones now and then, else the weak engine's
                if rng.random() < wild:
                    mv = rng.choice(sorted(near(moves, 2)))
                else:
                    pl = players[strength[side]]
                    pl.new_game()
                    mv = pl(moves).move
                moves.append(mv)
            write(a, wins, defences, game + 1)
            print("game %d done: %d moves, %d wins, %d defences, %.0f s" % (
                game + 1, len(moves), len(wins), len(defences), time.monotonic() - t0), flush=True)
    finally:
        for p in list(players.values()) + [eng, scan, deep]:
            p.close()

    write(a, wins, defences, game + 1)
    print("%d wins, %d defences from %d games in %.0f s" % (len(wins), len(defences), game + 1, time.monotonic() - t0))


if __name__ == "__main__":
    main()
