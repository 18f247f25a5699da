"""Connect Four: bestmove's engine against the BitBully solver.

Run by scripts/connect4-compare.sh, which installs BitBully (PyPI `bitbully`,
`bitbully-databases`) in a virtual environment and starts the two bestmove
servers this talks to. Two parts:

1. Speed. Positions from random games (seeded): nobody has four and the
   side to move cannot win at once. For each one, BitBully's
   `score_all_moves` with a fresh solver and no opening book, timed around
   the call, and bestmove's engine through POST /best-move on the server
   without a book, timed by the answer's `engine.elapsed_us`. Both must
   give every column the same exact score.
2. Strength. bestmove (the server with the book, default time budget)
   plays first against BitBully with its book, which picks at random among
   its best moves. Every move of bestmove is checked against BitBully's
   scores of the position.
3. The empty board with the book. bestmove's full answer (best move, exact
   score and distance, every column's exact score) on the server with the
   book, EMPTY_RUNS times: each run's `engine.elapsed_us` (the first run
   after the games, so on a table already in use), checked against
   BitBully's scores with its book, whose own time is printed beside.

BitBully's scores follow the convention of the solver literature, that of
tests/data/connect4-positions.txt: from the mover's side, 22 minus the
winner's stone count when it completes four, positive when the mover wins,
negative when it loses, 0 for a draw (`to_bestmove` converts them).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.request

from bitbully import BitBully, Board
import bitbully.bitbully_core as bbc

COLUMNS = 7
CELLS = 42


def post(url: str, body: dict, timeout: float) -> dict:
    request = urllib.request.Request(
        url + "/best-move",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.load(response)


def random_position(rng: random.Random, stones: int) -> str | None:
    """A random game of `stones` moves (digits 1..7) in which no move makes
    four and after which the side to move has no immediate win; None when
    the random game got stuck."""
    board = bbc.BoardCore()
    moves = []
    for _ in range(stones):
        columns = [c for c in range(COLUMNS) if board.isLegalMove(c) and not board.canWin(c)]
        if not columns:
            return None
        column = rng.choice(columns)
        board.play(column)
        moves.append(column)
    if board.canWin():
        return None
    return "".join(str(c + 1) for c in moves)


def positions(seed: int, count: int, low: int, high: int) -> list[str]:
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        moves = random_position(rng, rng.randint(low, high))
        if moves is not None and moves not in found:
            found.append(moves)
    return found


def board_of(moves: str) -> Board:
    return Board([int(d) - 1 for d in moves])


def to_bestmove(score: int, stones: int) -> tuple[int, int]:
    """BitBully's score of a move played from a position with `stones`
    stones, as bestmove's (+1/0/-1, plies to the end)."""
    if score > 0:
        # The mover wins with its (22 - score)-th stone.
        return 1, 2 * (22 - score - stones // 2) - 1
    if score < 0:
        # The opponent wins with its (22 + score)-th stone.
        return -1, 2 * (22 + score - (stones + 1) // 2)
    return 0, CELLS - stones


def compare_scores(moves: str, bitbully: dict[int, int], answer: dict) -> list[str]:
    """Every disagreement between BitBully's scores and bestmove's answer."""
    stones = len(moves)
    problems = []
    ours = {m["move"]: m for m in answer["moves"]}
    if answer["moves_truncated"]:
        problems.append("the answer's moves are truncated")
    if set(ours) != set(bitbully):
        problems.append(f"columns differ: BitBully {sorted(bitbully)}, bestmove {sorted(ours)}")
    for column in sorted(set(ours) & set(bitbully)):
        want = to_bestmove(bitbully[column], stones)
        m = ours[column]
        got = (m["score"], m["plies_to_end"])
        if not m.get("exact") or got != want:
            problems.append(
                f"column {column + 1}: BitBully {bitbully[column]} = {want}, "
                f"bestmove {got} exact={m.get('exact')}"
            )
    if not answer["engine"]["exact"]:
        problems.append("the engine's answer is not exact")
    return problems


def speed(args: argparse.Namespace) -> list[str]:
    chosen = positions(args.seed, args.count, args.min_stones, args.max_stones)
    print(
        f"Speed: {len(chosen)} positions, {args.min_stones} to {args.max_stones} stones (seed {args.seed}), "
        "every column's exact score, no opening book on either side; "
        f"each time the best of {args.rounds} runs (BitBully and bestmove alternating)"
    )
    print()
    print("| # | Moves | Stones | BitBully ms | bestmove ms | BitBully nodes | bestmove nodes |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    errors: list[str] = []
    total_bitbully = total_bestmove = total_round_trip = total_compare = total_engine = 0.0
    nodes_bitbully = nodes_bestmove = 0
    for i, moves in enumerate(chosen, 1):
        board = board_of(moves)
        bitbully_s = bestmove_s = float("inf")
        for _ in range(args.rounds):
            solver = BitBully(opening_book=None)  # a fresh transposition table
            started = time.perf_counter()
            scores = solver.score_all_moves(board)
            elapsed = time.perf_counter() - started
            if elapsed < bitbully_s:
                bitbully_s, bitbully_nodes = elapsed, solver.get_node_counter()
            del solver

            started = time.perf_counter()
            answer = post(
                args.plain_url,
                {"game": "connect4", "moves": moves, "time_ms": args.time_ms, "max_moves": COLUMNS},
                timeout=args.time_ms / 1000 + 60,
            )
            total_round_trip += time.perf_counter() - started
            total_compare += (answer["minimax"]["elapsed_us"] + answer["alphabeta"]["elapsed_us"]) / 1e6
            for problem in compare_scores(moves, scores, answer):
                errors.append(f"{moves}: {problem}")
            engine = answer["engine"]
            total_engine += engine["elapsed_us"] / 1e6
            if engine["elapsed_us"] / 1e6 < bestmove_s:
                bestmove_s, bestmove_nodes = engine["elapsed_us"] / 1e6, engine["nodes"]
        total_bitbully += bitbully_s
        total_bestmove += bestmove_s
        nodes_bitbully += bitbully_nodes
        nodes_bestmove += bestmove_nodes
        print(
            f"| {i} | {moves} | {len(moves)} | {bitbully_s * 1e3:.1f} | {bestmove_s * 1e3:.1f} "
            f"| {bitbully_nodes:,} | {bestmove_nodes:,} |",
            flush=True,
        )
    print(
        f"| | **total** | | **{total_bitbully * 1e3:.1f}** | **{total_bestmove * 1e3:.1f}** "
        f"| {nodes_bitbully:,} | {nodes_bestmove:,} |"
    )
    print()
    ratio = total_bestmove / total_bitbully if total_bitbully > 0 else float("inf")
    print(f"BitBully total: {total_bitbully:.3f} s")
    print(f"bestmove total: {total_bestmove:.3f} s (engine.elapsed_us)")
    print(f"Ratio bestmove / BitBully: {ratio:.2f}x")
    print(
        f"bestmove's HTTP round trips, all {len(chosen) * args.rounds} runs: {total_round_trip:.3f} s; "
        f"engine.elapsed_us {total_engine:.3f} s, the plain minimax and alpha-beta searches every answer "
        f"also carries {total_compare:.3f} s, the rest (HTTP, JSON, the shallower minimax depths tried) "
        f"{total_round_trip - total_engine - total_compare:.3f} s"
    )
    print(f"Scores: {'all columns agree' if not errors else f'{len(errors)} disagreements'}")
    print()
    return errors


def games(args: argparse.Namespace) -> list[str]:
    print(
        f"Games: bestmove (X, first; default time budget, opening book) against BitBully "
        f"(O; 12-ply-dist book, a random best move, seed {args.game_seed}), {args.games} games"
    )
    print()
    rng = random.Random(args.game_seed)
    judge = BitBully("12-ply-dist")
    errors: list[str] = []
    results = {"win": 0, "draw": 0, "loss": 0}
    total_inexact = 0
    for game in range(1, args.games + 1):
        started = time.perf_counter()
        moves = ""
        non_optimal = 0
        inexact = []  # stone counts of the answers not solved exactly
        outcome = None
        while outcome is None:
            board = board_of(moves)
            scores = judge.score_all_moves(board)
            best = max(scores.values())
            if len(moves) % 2 == 0:
                answer = post(args.book_url, {"game": "connect4", "moves": moves}, timeout=120)
                column = answer["best_move"]
                if not answer["exact"]:
                    inexact.append(len(moves))
                if column not in scores:
                    errors.append(f"game {game}: bestmove played column {column} after {moves!r}")
                    outcome = "loss"
                    break
                if scores[column] != best:
                    non_optimal += 1
                    errors.append(
                        f"game {game}: after {moves!r} bestmove played {column + 1} (score {scores[column]}), "
                        f"best is {best} ({', '.join(str(c + 1) for c, s in scores.items() if s == best)}); "
                        f"engine exact={answer['engine']['exact']}"
                    )
            else:
                column = rng.choice(sorted(c for c, s in scores.items() if s == best))
            winning = board.can_win_next(column)
            moves += str(column + 1)
            if winning:
                outcome = "win" if len(moves) % 2 == 1 else "loss"
            elif len(moves) == CELLS:
                outcome = "draw"
        results[outcome] += 1
        total_inexact += len(inexact)
        if outcome != "win":
            errors.append(f"game {game}: bestmove did not win ({outcome}): {moves}")
        print(
            f"game {game}: {outcome} for bestmove in {len(moves)} moves, {moves}; "
            f"non-optimal moves: {non_optimal}; answers not solved exactly in the budget: {len(inexact)}"
            f"{' (at ' + ', '.join(map(str, inexact)) + ' stones)' if inexact else ''}; "
            f"{time.perf_counter() - started:.1f} s",
            flush=True,
        )
    print()
    print(
        f"Games: bestmove {results['win']} wins, {results['draw']} draws, {results['loss']} losses "
        f"of {args.games}; non-optimal moves: {sum('bestmove played' in e for e in errors)}; "
        f"answers not solved exactly in the budget: {total_inexact}"
    )
    print()
    return errors


def empty_board(args: argparse.Namespace) -> list[str]:
    print(f"Empty board with the opening book: bestmove's full answer, {args.empty_runs} runs")
    print()
    judge = BitBully("12-ply-dist")
    started = time.perf_counter()
    scores = judge.score_all_moves(board_of(""))
    judge_s = time.perf_counter() - started
    errors: list[str] = []
    times = []
    for _ in range(args.empty_runs):
        answer = post(args.book_url, {"game": "connect4", "moves": "", "max_moves": COLUMNS}, timeout=120)
        engine = answer["engine"]
        times.append(engine["elapsed_us"] / 1e3)
        if not answer["exact"]:
            errors.append("empty board: the answer is not exact")
        errors += [f"empty board: {problem}" for problem in compare_scores("", scores, answer)]
        print(
            f"- {engine['elapsed_us'] / 1e3:.1f} ms, {engine['nodes']:,} positions, {engine['book_hits']:,} book hits, "
            f"best column {answer['best_move'] + 1}, line of {len(answer['principal_variation'])} plies",
            flush=True,
        )
    print()
    print(
        f"Empty board: fastest {min(times):.1f} ms, median {sorted(times)[len(times) // 2]:.1f} ms, "
        f"slowest {max(times):.1f} ms (target: at most 100 ms); BitBully with its book: {judge_s * 1e3:.1f} ms; "
        f"scores: {'all columns agree' if not errors else f'{len(errors)} problems'}"
    )
    print()
    return errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plain-url", required=True, help="the bestmove server without an opening book")
    parser.add_argument("--book-url", required=True, help="the bestmove server with the opening book")
    parser.add_argument("--count", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-stones", type=int, default=9)
    parser.add_argument("--max-stones", type=int, default=13)
    parser.add_argument("--rounds", type=int, default=3, help="runs per position; the fastest counts")
    parser.add_argument("--time-ms", type=int, default=600_000)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--game-seed", type=int, default=1)
    parser.add_argument("--empty-runs", type=int, default=5)
    args = parser.parse_args()
    errors = []
    if args.count > 0:
        errors += speed(args)
    if args.games > 0:
        errors += games(args)
    if args.empty_runs > 0:
        errors += empty_board(args)
    for error in errors:
        print(f"ERROR: {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
