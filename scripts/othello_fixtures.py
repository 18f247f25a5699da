#!/usr/bin/env python3
"""Writes tests/data/othello-random-games.txt: random Othello games played
by the slow reference rules, for tests/othello.rs to replay and compare.

The rules are not this project's: the script imports othello.py from the
shared tools folder (/work/shared/tools/zebra/othello.py, or the folder
named by OTHELLO_PY_DIR), a small independent implementation of legal
moves, flips, passes and the final score.

Half the games are uniformly random; in the other half most moves leave
the opponent the fewest replies, so that passes and early ends are common.

Usage: scripts/othello_fixtures.py [GAMES] [SEED] > tests/data/othello-random-games.txt

One game per line, moves separated by spaces, each as
  <move>:<legal moves>:<flipped discs>
with squares as names (a1 .. h8) run together ("c4d3e6f5"), "--" for a
pass (whose legal moves and flips are empty), and at the end of the line
  = <final board in .obf order> <final score for black>
the score counting empty squares for the winner.
"""
import os
import random
import sys

sys.path.insert(0, os.environ.get("OTHELLO_PY_DIR", "/work/shared/tools/zebra"))
import othello as oth  # noqa: E402


def names(squares):
    return "".join(oth.sq_name(s) for s in sorted(squares))


def game(rng, squeeze):
    """One game; with `squeeze`, most moves are those that leave the
    opponent the fewest replies, which makes passes common."""
    cells, side = oth.from_moves("")
    plies = []
    while True:
        legal = oth.legal_moves(cells, side)
        if not legal:
            if not oth.legal_moves(cells, oth.opp(side)):
                break
            plies.append("--::")
            side = oth.opp(side)
            continue
        move = rng.choice(legal)
        if squeeze and rng.random() < 0.8:
            move = min(legal, key=lambda m: (len(oth.legal_moves(*oth.play(cells, side, m))), rng.random()))
        flipped = oth.flips(cells, move, side)
        plies.append("%s:%s:%s" % (oth.sq_name(move), names(legal), names(flipped)))
        cells, side = oth.play(cells, side, move)
    black = oth.disc_diff(cells, "X")
    return " ".join(plies) + " = " + "".join(cells) + " " + "%+d" % black


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    rng = random.Random(seed)
    print("# %d random Othello games (seed %d) by the reference rules of othello.py; see scripts/othello_fixtures.py" % (games, seed))
    for i in range(games):
        print(game(rng, squeeze=i % 2 == 1))


if __name__ == "__main__":
    main()
