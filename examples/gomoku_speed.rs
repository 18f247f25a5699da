//! Positions per second of the Gomoku engine at a fixed depth, on every
//! position of the tactics suites (`tests/data/gomoku/win.txt` and
//! `defence.txt`): the engine's own search as a request runs it (moves
//! near the stones, the opponent's threat looked for at each position),
//! without the provers at the root, a fresh 64 MiB table a position.
//!
//! `cargo run --release --example gomoku_speed [DEPTH]` (5 unless told).
//! The last line sums up: positions visited, time and positions per
//! second, and a signature of the best moves and node counts, which a
//! change that only makes the search faster leaves as it was.

use std::time::Instant;

use bestmove::games::gomoku::{square_name, Position, Rule};
use bestmove::search::{engine, EngineOptions, Limits, Table};

fn main() {
    let depth: u32 = std::env::args().nth(1).map_or(5, |a| a.parse().expect("a depth"));
    let mut positions = Vec::new();
    for suite in ["tests/data/gomoku/win.txt", "tests/data/gomoku/defence.txt"] {
        let text = std::fs::read_to_string(suite).expect("a tactics suite");
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let moves: Vec<String> =
                line.split('|').next().unwrap_or("").split_whitespace().map(String::from).collect();
            positions.push(moves);
        }
    }
    let mut table = Table::with_bytes(64 << 20);
    let (mut nodes, mut signature) = (0u64, 0u64);
    let started = Instant::now();
    for moves in &positions {
        let position = Position::from_names(moves, 15, Rule::Freestyle, |_| "moves".into()).expect("a suite position");
        let board = position.board();
        if board.over() {
            continue;
        }
        let limits = Limits { max_depth: Some(depth), ..Limits::default() };
        let options = EngineOptions { score_root_moves: false, ..EngineOptions::default() };
        let result = engine(board, limits, &mut table, options, &mut |_| {}).expect("no cancel flag");
        nodes += result.nodes;
        let best = result.best_move.map_or(0, u64::from);
        signature = signature.wrapping_mul(1_000_003).wrapping_add(result.nodes * 1024 + best);
        if std::env::var_os("VERBOSE").is_some() {
            let name = result.best_move.map_or("-".into(), |mv| square_name(usize::from(mv)));
            println!("{name} {} {:?}", result.nodes, result.score);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "depth {depth}: {} positions, {nodes} visited in {seconds:.2} s, {:.0} a second, signature {signature:016x}",
        positions.len(),
        nodes as f64 / seconds
    );
}
