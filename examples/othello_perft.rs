//! Counts the positions reached from the start of an Othello game after
//! each number of plies (perft), to check the move generator against the
//! published counts.
//!
//! Convention: a pass is a ply (the move of a side that cannot play), and
//! a game that ends before the depth asked counts as one leaf, where it
//! ends. The published counts follow it: 4, 12, 56, 244, 1396, 8200,
//! 55092, 390216, 3005288, 24571284, 212258800 for depths 1 to 11.
//!
//! ```sh
//! cargo run --release --example othello_perft -- 11
//! ```

use std::time::Instant;

use bestmove::games::othello::Othello;
use bestmove::search::Game;

/// Leaves `depth` plies below `position`; a finished game is a leaf.
fn perft(position: &Othello, depth: u32) -> u64 {
    if depth == 0 || position.outcome().is_some() {
        return 1;
    }
    if depth == 1 {
        return position.moves().count() as u64;
    }
    position.moves().map(|mv| perft(&position.play(mv), depth - 1)).sum()
}

/// The same count where a finished game before the depth counts for nothing.
fn perft_exact_depth(position: &Othello, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if position.outcome().is_some() {
        return 0;
    }
    position.moves().map(|mv| perft_exact_depth(&position.play(mv), depth - 1)).sum()
}

fn main() {
    let deepest: u32 = std::env::args().nth(1).and_then(|d| d.parse().ok()).unwrap_or(9);
    let exact = std::env::args().any(|a| a == "--exact-depth");
    for depth in 1..=deepest {
        let started = Instant::now();
        let count = if exact { perft_exact_depth(&Othello::START, depth) } else { perft(&Othello::START, depth) };
        println!("{depth:>2} {count:>14} {:>10.3} s", started.elapsed().as_secs_f64());
    }
}
