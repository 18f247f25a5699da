"""Game review (POST /review) checked against outside solvers, through the
release server that scripts/review-check.sh starts.

  connect4  GAMES_C4 seeded games with deliberate mistakes: perfect play
            (a random one of BitBully's best columns) mixed with random
            columns (RANDOM_C4, 15 %), to the end. Each game reviewed by
            the service at its default budget; for every ply the answer
            must be exact, its played and best scores (+1/0/-1 and plies
            to the end) must be BitBully's (score_all_moves, converted as
            ../shared/connect4/README.md says), its best moves the columns
            with BitBully's best exact score, and its judgement the one the
            outcomes give (win -> draw, draw -> loss: mistake; win -> loss:
            blunder; otherwise best or good), none missed, none extra.
  othello   GAMES_OTHELLO seeded games: the service's own /best-move at a
            small max_depth with random moves mixed in (RANDOM_OTHELLO), to
            the end. Each reviewed at the default budget; every exact ply
            checked against Zebra's exact solve (the position itself for
            the best score, the position after the move played for the
            played score, every move when it has at most FULL_EMPTIES empty
            squares, else each of the service's best moves), and the
            judgement's outcome logic. Reports the time of each review and
            whether every ply from 20 empty squares on was exact.
  speed     the issue's targets, timed with the client's wall clock: a
            42-ply Connect Four game (a draw: X gives the win away on its
            first move, then both sides keep the draw, seeded) in at most
            1 s with every ply exact, and a 60-ply Othello game (no pass)
            at the default budget in at most 30 s with every ply from 20
            empty squares on exact.

BitBully (PyPI `bitbully`, with the 12-ply book with distances of
`bitbully-databases`) and Zebra (../shared/tools/zebra/zebra.py, ZEBRA_DIR)
are used as outside programs only.

Exit status: 1 when anything disagrees or misses a target, 2 on bad use.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request

COLUMNS = 7
CELLS = 42
OUTCOME_CHANGE = {1: "mistake", 2: "blunder"}


def post(url: str, path: str, body: dict, timeout: float = 180) -> dict:
    request = urllib.request.Request(
        url + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"POST {path} {json.dumps(body)[:300]}: {error.code} {error.read()[:500]!r}") from None


def review(url: str, body: dict) -> tuple[dict, float]:
    """The service's review and the client's wall time around it."""
    started = time.perf_counter()
    answer = post(url, "/review", body, timeout=300)
    return answer, time.perf_counter() - started


def dump(args: argparse.Namespace, name: str, answer: dict) -> None:
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
        with open(os.path.join(args.dump, name + ".json"), "w") as f:
            json.dump(answer, f)


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def expected_judgement(best: int, played: int, is_best: bool, good_margin: int) -> str:
    """The proven judgement the rule gives for exact scores (mover's side)."""
    d = sign(best) - sign(played)
    if d >= 1:
        return OUTCOME_CHANGE[d]
    if is_best:
        return "best"
    return "good" if best - played <= good_margin else "inaccuracy"


# --------------------------------------------------------------------------
# Connect Four


def c4_to_bestmove(score: int, stones: int) -> tuple[int, int]:
    """BitBully's score of a move played from a position with `stones`
    stones, as bestmove's (+1/0/-1, plies to the end counting the move)."""
    if score > 0:
        return 1, 2 * (22 - score - stones // 2) - 1
    if score < 0:
        return -1, 2 * (22 + score - (stones + 1) // 2)
    return 0, CELLS - stones


def c4_game(solver, rng: random.Random, random_share: float) -> tuple[str, list[dict[int, int]], int, bool]:
    """A seeded game: BitBully's best (a random one of them) or, with
    probability `random_share`, a random legal column, to the end. Returns
    the moves (digits 1-7), BitBully's scores before each ply, the number
    of random moves that were not best, and whether the last move won."""
    from bitbully import Board

    moves: list[int] = []
    scores: list[dict[int, int]] = []
    randoms = 0
    while True:
        board = Board(moves)
        all_scores = solver.score_all_moves(board)
        scores.append(all_scores)
        best = max(all_scores.values())
        if rng.random() < random_share:
            column = rng.choice(sorted(all_scores))
            randoms += all_scores[column] != best
        else:
            column = rng.choice(sorted(c for c, s in all_scores.items() if s == best))
        wins = board.can_win_next(column)
        moves.append(column)
        if wins or len(moves) == CELLS:
            return "".join(str(c + 1) for c in moves), scores, randoms, wins


def c4_check(moves: str, scores: list[dict[int, int]], answer: dict) -> tuple[list[str], dict]:
    """Every disagreement between the review and BitBully's scores, and the
    counts of mistakes and blunders by BitBully."""
    problems: list[str] = []
    counts = {"mistake": 0, "blunder": 0, "missed": 0, "extra": 0, "wrong": 0}
    plies = answer.get("plies", [])
    if len(plies) != len(moves):
        problems.append(f"{len(plies)} plies in the review, {len(moves)} moves in the game")
    want_turning = []
    for i, ply in enumerate(plies[: len(moves)]):
        where = f"game {moves} ply {i + 1} (after {moves[:i]!r}, {'XO'[i % 2]} plays {moves[i]})"
        column = int(moves[i]) - 1
        s = scores[i]
        best = max(s.values())
        want_played = c4_to_bestmove(s[column], i)
        want_best = c4_to_bestmove(best, i)
        want_best_moves = sorted(c for c, v in s.items() if v == best)
        want_j = expected_judgement(want_best[0], want_played[0], s[column] == best, 0)
        if want_j in ("mistake", "blunder"):
            counts[want_j] += 1
            want_turning.append(i + 1)
        got_played = (ply.get("played_score"), ply.get("played_plies_to_end"))
        got_best = (ply.get("best_score"), ply.get("best_plies_to_end"))
        bad = []
        if ply.get("ply") != i + 1:
            bad.append(f"ply number {ply.get('ply')}")
        if ply.get("to_move") != "XO"[i % 2]:
            bad.append(f"to_move {ply.get('to_move')}")
        if not ply.get("exact"):
            bad.append("not exact")
        if got_played != want_played:
            bad.append(f"played (score, plies_to_end) {got_played}, BitBully {s[column]} = {want_played}")
        if got_best != want_best:
            bad.append(f"best (score, plies_to_end) {got_best}, BitBully {best} = {want_best}")
        if sorted(ply.get("best_moves") or []) != want_best_moves:
            bad.append(f"best_moves {sorted(ply.get('best_moves') or [])}, BitBully {want_best_moves} (scores {s})")
        got_j = ply.get("judgement")
        if got_j != want_j or not ply.get("proven"):
            bad.append(f"judgement {got_j} proven={ply.get('proven')}, by BitBully {want_j}")
            if want_j in ("mistake", "blunder") and got_j not in ("mistake", "blunder"):
                counts["missed"] += 1
            elif got_j in ("mistake", "blunder") and want_j not in ("mistake", "blunder"):
                counts["extra"] += 1
            else:
                counts["wrong"] += 1
        problems += [f"{where}: {b}" for b in bad]
    if answer.get("turning_points") != want_turning:
        problems.append(f"game {moves}: turning_points {answer.get('turning_points')}, by BitBully {want_turning}")
    return problems, counts


def connect4(args: argparse.Namespace) -> list[str]:
    from bitbully import BitBully

    solver = BitBully("12-ply-dist")
    rng = random.Random(args.seed)
    print(
        f"## Connect Four: {args.games_c4} games against BitBully\n\n"
        f"Seeded games (seed {args.seed}): a random one of BitBully's best columns, or with probability "
        f"{args.random_c4:.0%} a random legal column, to the end; each reviewed by POST /review at the default "
        "budget; every ply's exact scores, distances, best columns and judgement checked against "
        "BitBully's score_all_moves (12-ply book with distances).\n"
    )
    errors: list[str] = []
    totals = {"plies": 0, "mistake": 0, "blunder": 0, "missed": 0, "extra": 0, "wrong": 0, "randoms": 0,
              "x_wins": 0, "o_wins": 0, "draws": 0, "exact": 0}
    times: list[float] = []
    judged = {"best": 0, "good": 0, "mistake": 0, "blunder": 0}
    for game in range(1, args.games_c4 + 1):
        moves, scores, randoms, won = c4_game(solver, rng, args.random_c4)
        answer, wall = review(args.url, {"game": "connect4", "moves": moves})
        dump(args, f"connect4-{game}", answer)
        problems, counts = c4_check(moves, scores, answer)
        times.append(wall)
        errors += problems
        totals["plies"] += len(moves)
        totals["randoms"] += randoms
        totals["exact"] += answer.get("exact_plies", 0)
        for key in ("mistake", "blunder", "missed", "extra", "wrong"):
            totals[key] += counts[key]
        for ply in answer.get("plies", []):
            if ply.get("judgement") in judged:
                judged[ply["judgement"]] += 1
        result = "draw" if not won else "X wins" if len(moves) % 2 == 1 else "O wins"
        totals[{"X wins": "x_wins", "O wins": "o_wins", "draw": "draws"}[result]] += 1
        print(
            f"- game {game}: {len(moves)} plies, {result}, {randoms} non-best random moves; "
            f"by BitBully {counts['mistake']} mistakes, {counts['blunder']} blunders; review {wall:.3f} s, "
            f"{answer.get('exact_plies')}/{len(moves)} exact, workers {answer.get('workers')}; "
            f"disagreements {len(problems)}; `{moves}`",
            flush=True,
        )
    times.sort()
    print()
    print(
        f"Connect Four: {args.games_c4} games ({totals['x_wins']} X wins, {totals['o_wins']} O wins, "
        f"{totals['draws']} draws), {totals['plies']} plies checked, {totals['exact']} exact; "
        f"{totals['randoms']} random moves that were not best; by BitBully {totals['mistake']} mistakes and "
        f"{totals['blunder']} blunders; the service judged {judged['best']} best, {judged['good']} good, "
        f"{judged['mistake']} mistakes, {judged['blunder']} blunders; missed {totals['missed']}, "
        f"extra {totals['extra']}, other judgement differences {totals['wrong']}; "
        f"disagreements: {len(errors)}"
    )
    print(
        f"Review wall time per game: median {times[len(times) // 2]:.3f} s, slowest {times[-1]:.3f} s, "
        f"total {sum(times):.1f} s"
    )
    print()
    return ["connect4: " + e for e in errors]


# --------------------------------------------------------------------------
# Othello


def _othello_modules():
    tools = os.environ.get("ZEBRA_TOOLS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                        "shared", "tools", "zebra"))
    sys.path.insert(0, tools)
    import othello as oth  # noqa: E402
    import zebra  # noqa: E402

    return oth, zebra


START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"


def othello_game(url: str, rng: random.Random, random_share: float, depth: int, want_length: int | None = None):
    """A seeded game to the end: the service's best move at `max_depth`
    `depth` (so the same seed gives the same game), or with probability
    `random_share` a random legal move. Returns the moves (passes left out)
    and, for each, (cells, side) before it; None when `want_length` is set
    and the game has a pass."""
    oth, _ = _othello_modules()
    cells, side = oth.parse(START)
    moves: list[str] = []
    positions = []
    passed = False
    while True:
        legal = oth.legal_moves(cells, side)
        if not legal:
            if not oth.legal_moves(cells, oth.opp(side)):
                return moves, positions
            if want_length is not None:
                return None  # a pass: not a 60-ply game
            side, passed = oth.opp(side), True
            continue
        if rng.random() < random_share:
            move = oth.sq_name(rng.choice(legal))
        else:
            sent = moves + (["pass"] if passed else [])
            answer = post(url, "/best-move", {"game": "othello", "moves": sent, "max_depth": depth,
                                              "time_ms": 10000, "max_moves": 1, "compare": False,
                                              "seed": rng.randrange(1 << 30)})
            move = answer["best_move"]
        if oth.sq_index(move) not in legal:
            raise RuntimeError(f"{move} is not legal after {' '.join(moves)}")
        positions.append((cells, side))
        cells, side = oth.play(cells, side, oth.sq_index(move))
        moves.append(move)
        passed = False


class Zebra:
    """Zebra's exact scores, cached by position."""

    def __init__(self):
        self.oth, self.zebra = _othello_modules()
        self.cache: dict[str, int] = {}
        self.runs = 0
        self.seconds = 0.0

    def position(self, cells, side) -> int:
        """The exact score of a position for the side to move (it has a move)."""
        key = self.oth.to_str(cells, side)
        if key not in self.cache:
            (score, wall), = self.zebra.solve([(cells, side)])
            self.runs += 1
            self.seconds += wall
            self.cache[key] = score
        return self.cache[key]

    def after(self, cells, side, move: str) -> int:
        """The exact score, for `side`, of playing `move`."""
        oth = self.oth
        child, to_move = oth.play(cells, side, oth.sq_index(move))
        if not oth.legal_moves(child, to_move):
            if not oth.legal_moves(child, oth.opp(to_move)):
                return oth.disc_diff(child, side)
            to_move = oth.opp(to_move)
        score = self.position(child, to_move)
        return score if to_move == side else -score


def othello_check(zebra: Zebra, game: list[str], positions, answer: dict, full_empties: int):
    """Disagreements on the exact plies; and facts for the report."""
    oth = zebra.oth
    problems: list[str] = []
    facts = {"exact": 0, "checked_all_moves": 0, "from20_all_exact": True, "first_exact_empties": None,
             "inexact_from20": [], "judgements": {}}
    plies = answer.get("plies", [])
    if len(plies) != len(game):
        problems.append(f"{len(plies)} plies in the review, {len(game)} moves in the game")
    for i, ply in enumerate(plies[: len(game)]):
        cells, side = positions[i]
        empties = oth.empties(cells)
        exact = bool(ply.get("exact"))
        if empties <= 20 and not exact:
            facts["from20_all_exact"] = False
            facts["inexact_from20"].append(
                f"ply {i + 1} at {empties} empties: {ply.get('elapsed_us', 0) / 1e3:.0f} ms, "
                f"{ply.get('nodes', 0):,} positions, judgement {ply.get('judgement')}")
        if not exact:
            continue
        facts["exact"] += 1
        if facts["first_exact_empties"] is None:
            facts["first_exact_empties"] = empties
        where = (f"ply {i + 1} ({empties} empties, {side} plays {game[i]}; position "
                 f"{oth.to_str(cells, side)}; moves {''.join(game[:i])})")
        bad = []
        if ply.get("move") != game[i]:
            bad.append(f"move {ply.get('move')!r}")
        if ply.get("to_move") != side:
            bad.append(f"to_move {ply.get('to_move')}")
        best = zebra.position(cells, side)
        played = zebra.after(cells, side, game[i])
        legal = [oth.sq_name(m) for m in oth.legal_moves(cells, side)]
        if empties <= full_empties:
            every = {m: zebra.after(cells, side, m) for m in legal}
            facts["checked_all_moves"] += 1
            want_best_moves = sorted(m for m, s in every.items() if s == best)
            if max(every.values()) != best:
                bad.append(f"Zebra inconsistent: position {best}, moves {every}")
            if sorted(ply.get("best_moves") or []) != want_best_moves:
                bad.append(f"best_moves {sorted(ply.get('best_moves') or [])}, Zebra {want_best_moves} (every move {every})")
        else:
            for m in ply.get("best_moves") or []:
                score = zebra.after(cells, side, m)
                if score != best:
                    bad.append(f"best move {m}: Zebra {score:+d}, best {best:+d}")
            if played == best and game[i] not in (ply.get("best_moves") or []):
                bad.append(f"played move scores the best by Zebra ({best:+d}) but is not in best_moves {ply.get('best_moves')}")
        if ply.get("best_score") != best:
            bad.append(f"best_score {ply.get('best_score')}, Zebra {best:+d}")
        if ply.get("played_score") != played:
            bad.append(f"played_score {ply.get('played_score')}, Zebra {played:+d}")
        want_j = expected_judgement(best, played, played == best, 4)
        got_j = ply.get("judgement")
        facts["judgements"][got_j] = facts["judgements"].get(got_j, 0) + 1
        if got_j != want_j or not ply.get("proven"):
            bad.append(f"judgement {got_j} proven={ply.get('proven')}, by Zebra's scores {want_j}")
        problems += [f"{where}: {b}" for b in bad]
    return problems, facts


def othello(args: argparse.Namespace) -> list[str]:
    if not os.environ.get("ZEBRA_DIR"):
        print("## Othello against Zebra\n\nSkipped: ZEBRA_DIR is not set (a folder with a Zebra built outside "
              "this repository: scrzebra and coeffs2.bin).\n")
        return []
    zebra = Zebra()
    oth = zebra.oth
    rng = random.Random(args.seed)
    print(
        f"## Othello: {args.games_othello} games against Zebra\n\n"
        f"Seeded games (seed {args.seed}): the service's /best-move at max_depth {args.othello_depth}, or with "
        f"probability {args.random_othello:.0%} a random legal move, to the end; each reviewed by POST /review "
        "at the default budget (25 s). Every exact ply checked against Zebra's exact solve: the position "
        "(best score), the move played (played score), every move where at most "
        f"{args.full_empties} squares are empty (best_moves as a set), else each of the service's best moves; "
        "and the judgement by the proven rule (outcome kept: best / good within 4 discs / inaccuracy; "
        "win -> draw, draw -> loss: mistake; win -> loss: blunder).\n"
    )
    errors: list[str] = []
    exact_total = plies_total = 0
    all_from20 = True
    times = []
    for number in range(1, args.games_othello + 1):
        game, positions = othello_game(args.url, rng, args.random_othello, args.othello_depth)
        answer, wall = review(args.url, {"game": "othello", "moves": "".join(game)})
        dump(args, f"othello-{number}", answer)
        before = zebra.seconds
        problems, facts = othello_check(zebra, game, positions, answer, args.full_empties)
        times.append(wall)
        errors += [f"othello game {number}: {p}" for p in problems]
        exact_total += facts["exact"]
        plies_total += len(game)
        all_from20 &= facts["from20_all_exact"]
        final_cells, final_side = positions[-1]
        final, _ = oth.play(final_cells, final_side, oth.sq_index(game[-1]))
        print(
            f"- game {number}: {len(game)} plies, final {oth.disc_diff(final, 'X'):+d} for black; review "
            f"{wall:.2f} s (service {answer.get('elapsed_us', 0) / 1e6:.2f} s, workers {answer.get('workers')}); "
            f"exact plies {facts['exact']} (first at {facts['first_exact_empties']} empties), "
            f"every ply from 20 empties exact: {'yes' if facts['from20_all_exact'] else 'NO ' + str(facts['inexact_from20'])}; "
            f"judgements of exact plies {facts['judgements']}; Zebra {zebra.seconds - before:.1f} s; "
            f"disagreements {len(problems)}; `{''.join(game)}`",
            flush=True,
        )
    times.sort()
    print()
    print(
        f"Othello: {args.games_othello} games, {plies_total} plies, {exact_total} exact plies checked against "
        f"Zebra ({zebra.runs} Zebra solves, {zebra.seconds:.0f} s); every ply from 20 empties exact in every "
        f"game: {'yes' if all_from20 else 'NO'}; disagreements: {len(errors)}"
    )
    print(
        f"Review wall time per game: fastest {times[0]:.2f} s, median {times[len(times) // 2]:.2f} s, "
        f"slowest {times[-1]:.2f} s"
    )
    print()
    if not all_from20:
        errors.append("othello: a ply with at most 20 empties was not exact")
    return errors


# --------------------------------------------------------------------------
# Speed


def speed(args: argparse.Namespace) -> list[str]:
    errors: list[str] = []
    print("## Speed (the issue's targets; client wall clock)\n")
    from bitbully import BitBully, Board

    solver = BitBully("12-ply-dist")
    rng = random.Random(args.seed)
    # X gives the win away with a drawing first column; then both keep the draw.
    moves: list[int] = []
    scores = []
    while len(moves) < CELLS:
        s = solver.score_all_moves(Board(moves))
        scores.append(s)
        choices = sorted(c for c, v in s.items() if v == 0)
        if not choices:
            raise RuntimeError(f"no drawing column after {moves}: {s}")
        moves.append(rng.choice(choices))
    game = "".join(str(c + 1) for c in moves)
    runs = []
    for _ in range(args.speed_runs):
        answer, wall = review(args.url, {"game": "connect4", "moves": game})
        dump(args, "speed-connect4", answer)
        problems, _ = c4_check(game, scores, answer)
        errors += ["speed connect4: " + p for p in problems]
        runs.append((wall, answer))
    walls = [w for w, _ in runs]
    exact = [a.get("exact_plies") for _, a in runs]
    ok = max(walls) <= 1.0 and all(e == CELLS for e in exact)
    print(
        f"- Connect Four, a 42-ply draw (X's first move gives the win away, then a random drawing column each "
        f"ply, seed {args.seed}; checked against BitBully as above): `{game}`; {args.speed_runs} reviews: "
        f"{', '.join(f'{w:.3f}' for w in walls)} s (service elapsed "
        f"{', '.join('%.0f' % (a.get('elapsed_us', 0) / 1e3) for _, a in runs)} ms), exact plies "
        f"{', '.join(map(str, exact))} of 42; workers {runs[0][1].get('workers')}; target at most 1 s, every ply "
        f"exact: {'met' if ok else 'NOT MET'}",
        flush=True,
    )
    if not ok:
        errors.append(f"speed connect4: walls {walls}, exact plies {exact}")
    if not os.environ.get("ZEBRA_DIR"):
        print("- Othello: skipped, ZEBRA_DIR is not set\n")
        return errors
    zebra = Zebra()
    oth = zebra.oth
    found = None
    for attempt in range(200):
        found = othello_game(args.url, rng, args.random_othello, args.othello_depth, want_length=60)
        if found is not None and len(found[0]) == 60:
            break
        found = None
    if found is None:
        errors.append("speed othello: no 60-ply game found")
        print("- Othello: no 60-ply game found\n")
        return errors
    game, positions = found
    for run in range(args.speed_runs):
        answer, wall = review(args.url, {"game": "othello", "moves": "".join(game)})
        dump(args, f"speed-othello-{run + 1}", answer)
        problems, facts = othello_check(zebra, game, positions, answer, args.full_empties)
        errors += [f"speed othello: {p}" for p in problems]
        inexact = [oth.empties(positions[i][0]) for i, p in enumerate(answer["plies"]) if not p.get("exact")]
        # Every ply with at most this many empty squares was exact.
        exact_from = min(inexact) - 1 if inexact else 60
        ok = wall <= 30.0 and facts["from20_all_exact"]
        print(
            f"- Othello, a 60-ply game (no pass; seeded as the games above): `{''.join(game)}`; review "
            f"{wall:.2f} s (service {answer.get('elapsed_us', 0) / 1e6:.2f} s, workers {answer.get('workers')}), "
            f"exact plies {facts['exact']} of 60, the first exact ply at {facts['first_exact_empties']} empties, "
            f"every ply exact from {exact_from} empties down; every ply from 20 empties exact: {'yes' if facts['from20_all_exact'] else 'NO'}; "
            f"exact plies agree with Zebra: {'yes' if not problems else 'NO'}; target at most 30 s: "
            f"{'met' if ok else 'NOT MET'}",
            flush=True,
        )
        if not ok:
            errors.append(f"speed othello run {run + 1}: {wall:.2f} s, every ply from 20 empties exact: "
                          f"{facts['from20_all_exact']}")
    print()
    return errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--part", default="all", choices=["all", "connect4", "othello", "speed"])
    parser.add_argument("--games-c4", type=int, default=50)
    parser.add_argument("--games-othello", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--random-c4", type=float, default=0.15)
    parser.add_argument("--random-othello", type=float, default=0.25)
    parser.add_argument("--othello-depth", type=int, default=4)
    parser.add_argument("--dump", help="a folder to write each review's answer to")
    parser.add_argument("--full-empties", type=int, default=14)
    parser.add_argument("--speed-runs", type=int, default=1)
    args = parser.parse_args()
    errors: list[str] = []
    if args.part in ("all", "connect4"):
        errors += connect4(args)
    if args.part in ("all", "othello"):
        errors += othello(args)
    if args.part in ("all", "speed"):
        errors += speed(args)
    if errors:
        print(f"## Disagreements and missed targets: {len(errors)}\n")
        for error in errors:
            print(f"- {error}")
    else:
        skipped = " (the Othello checks skipped: ZEBRA_DIR is not set)" if not os.environ.get("ZEBRA_DIR") and args.part != "connect4" else ""
        print(f"No disagreement; every target checked was met{skipped}.")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
