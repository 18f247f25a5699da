//! Solves Connect Four positions given as move sequences (digits 1..7, one
//! position per line on standard input) and prints every column's exact
//! score, with the engine's time and positions visited.
//!
//! `cargo run --release --example connect4_solve <<< 4453`; with
//! `OPENING_BOOK=path` it consults the opening book, with `TIME_MS=n` it
//! stops after that budget, with `TT_MIB=n` its table has n MiB (64), with
//! `ENDGAME=n` the endgame solver takes the last n empty cells (14; 0
//! for none), with `PROGRESS=1` it prints each iteration.

use std::io::BufRead;

use bestmove::games::connect4::{Connect4, Endgame};
use bestmove::search::{engine_with_oracle, EngineOptions, Game, Limits, Progress, Table};

fn main() {
    let mib: usize = std::env::var("TT_MIB").ok().and_then(|m| m.parse().ok()).unwrap_or(64);
    let mut table = Table::with_bytes(mib << 20);
    let book = std::env::var_os("OPENING_BOOK")
        .map(|path| bestmove::games::connect4::Book::load(path.as_ref()).expect("a readable opening book"));
    let mut total = std::time::Duration::ZERO;
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("readable input");
        let moves = line.split_whitespace().next().unwrap_or("");
        let mut position = Connect4::from_bitboards(0, 0);
        for column in moves.bytes() {
            assert!((b'1'..=b'7').contains(&column), "moves are digits 1..7");
            position = position.play(column - b'1');
        }
        let deadline = std::env::var("TIME_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map(|ms| std::time::Instant::now() + std::time::Duration::from_millis(ms));
        let limits = Limits { deadline, ..Limits::default() };
        let empties = std::env::var("ENDGAME").ok().and_then(|e| e.parse().ok()).unwrap_or(Endgame::DEFAULT_EMPTIES);
        let oracle = Endgame::new(book.as_ref(), empties);
        let result = engine_with_oracle(
            &position,
            &oracle,
            limits,
            &mut table,
            EngineOptions { score_root_moves: true, ..EngineOptions::default() },
            &mut |p| {
                if std::env::var_os("PROGRESS").is_some() {
                    match p {
                        Progress::Iteration(p) => eprintln!(
                            "  depth {} best {:?} score {:?} pv {:?}",
                            p.depth, p.best_move, p.score, p.principal_variation
                        ),
                        Progress::RootMove(m) => eprintln!("  column {} score {:?}", m.mv + 1, m.score),
                    }
                }
            },
        )
        .expect("not cancelled");
        total += result.elapsed;
        let scores: Vec<String> = result
            .root_moves
            .iter()
            .map(|m| match m.score {
                Some(s) => format!("{}:{}@{}", m.mv + 1, s.value(), s.ply().unwrap_or(0)),
                None => format!("{}:?", m.mv + 1),
            })
            .collect();
        println!(
            "{moves} best {} score {:?} nodes {} time {:.1} ms [{}]",
            result.best_move.map_or(0, |m| m + 1),
            result.score,
            result.nodes,
            result.elapsed.as_secs_f64() * 1e3,
            scores.join(" ")
        );
    }
    println!("total {:.3} s", total.as_secs_f64());
}
