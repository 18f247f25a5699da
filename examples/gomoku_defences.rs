//! What the answers to a Gomoku threat cost to check: for each position of
//! the defence suite (`tests/data/gomoku/defence.txt`), the moves that the
//! checks of a request at the default budget leave to the engine's search
//! (`defences` with the positions the service gives them at the default
//! budget, [`ProverBudgets`], with no halt), whether the suite's holding move is among them, and how many
//! positions the prover needs to refute each of those moves on its own
//! (doubling from 10,000 to 2,560,000; `-`: not refuted within that).
//!
//! `cargo run --release --example gomoku_defences [--left] [N ...]` (the
//! suite's positions by number, from 1; all of them without). With
//! `--left`, the positions to refute each move are not looked for, and a
//! last line sums up: the moves left in all, the positions whose holding
//! move is among them, and the checks' time.

use std::time::{Duration, Instant};

use bestmove::games::gomoku::{defences, square_name, vct, Halt, Position, ProverBudgets, Rule};
use bestmove::suggest::DEFAULT_TIME_MS;

fn main() {
    let text = std::fs::read_to_string("tests/data/gomoku/defence.txt").expect("the defence suite");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let only_left = args.iter().any(|a| a == "--left");
    let wanted: Vec<usize> =
        args.iter().filter(|a| *a != "--left").map(|a| a.parse().expect("a position's number")).collect();
    let (mut moves_left, mut holding_kept, mut checks_ms) = (0, 0, 0);
    // A request at the default budget.
    let budgets = ProverBudgets::of(Duration::from_millis(DEFAULT_TIME_MS));
    println!(
        "| # | holding moves | checks' time | left | holding move left | each move left: positions to refute it |"
    );
    println!("| ---: | --- | ---: | ---: | --- | --- |");
    for (i, line) in lines.iter().enumerate() {
        if !wanted.is_empty() && !wanted.contains(&(i + 1)) {
            continue;
        }
        let mut parts = line.split('|');
        let moves: Vec<String> = parts.next().unwrap_or("").split_whitespace().map(String::from).collect();
        let holding: Vec<&str> = parts.next().unwrap_or("").split_whitespace().collect();
        let position = Position::from_names(&moves, 15, Rule::Freestyle, |_| "moves".into()).expect("a suite position");
        let board = position.board();
        let mut candidates = Vec::new();
        board.candidates(&mut candidates);
        let others: Vec<usize> = candidates.iter().map(|&(cell, _)| usize::from(cell)).collect();
        let started = Instant::now();
        let left = defences(board, &others, budgets.look, budgets.checks, Halt::default()).unwrap_or_default();
        let ms = started.elapsed().as_millis();
        let kept = left.iter().any(|&cell| holding.contains(&square_name(cell).as_str()));
        moves_left += left.len();
        holding_kept += usize::from(kept);
        checks_ms += ms;
        let costs: Vec<String> = left
            .iter()
            .map(|&cell| {
                if only_left {
                    return square_name(cell);
                }
                let after = board.play(cell);
                let cost = (0..9).map(|k| 10_000u64 << k).find(|&budget| vct(&after, budget).is_some());
                format!("{} {}", square_name(cell), cost.map_or("-".to_string(), |c| format!("{}k", c / 1000)))
            })
            .collect();
        println!(
            "| {} | {} | {} ms | {} | {} | {} |",
            i + 1,
            holding.join(" "),
            ms,
            left.len(),
            if kept { "yes" } else { "no" },
            costs.join(", ")
        );
    }
    if only_left {
        println!();
        println!("{moves_left} moves left in all; the holding move among them in {holding_kept}; checks' time {checks_ms} ms");
    }
}
