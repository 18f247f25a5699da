//! Plays the engine against itself at Othello, the selective midgame
//! search (the default under a budget) against the full-width one
//! (`EngineOptions::full_width`), each with the same budget of positions a
//! move (so the result is the same on every run and on any machine) and
//! the endgame solver as its oracle; seeded openings of random moves, each
//! played once with each side first. Prints the selective side's wins,
//! draws, losses and points.
//!
//! ```sh
//! cargo run --release --example othello_match -- [--pairs 20] [--seed 1] [--nodes 300000] [--opening 4]
//! ```

use bestmove::games::othello::{Endgame, Othello};
use bestmove::play::arena::{matchup, Player};
use bestmove::search::{engine_with_oracle, fastrand, EngineOptions, Game, Limits, Table};

struct Budgeted {
    nodes: u64,
    full_width: bool,
    table: Table,
    oracle: Endgame,
}

impl Player<Othello> for Budgeted {
    fn pick(&mut self, position: &Othello) -> u8 {
        let limits = Limits { node_budget: Some(self.nodes), ..Limits::default() };
        let options = EngineOptions { full_width: self.full_width, ..EngineOptions::default() };
        let result = engine_with_oracle(position, &self.oracle, limits, &mut self.table, options, &mut |_| {})
            .expect("nothing cancels it");
        result.best_move.expect("a position that is not over has a move")
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut pairs, mut seed, mut nodes, mut opening) = (20usize, 1u64, 300_000u64, 4usize);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok()).expect("a number after each option");
        match arg.as_str() {
            "--pairs" => pairs = value as usize,
            "--seed" => seed = value,
            "--nodes" => nodes = value,
            "--opening" => opening = value as usize,
            _ => panic!("usage: othello_match [--pairs N] [--seed S] [--nodes N] [--opening PLIES]"),
        }
    }
    let player =
        |full_width| Budgeted { nodes, full_width, table: Table::with_bytes(64 << 20), oracle: Endgame::default() };
    let (mut selective, mut full) = (player(false), player(true));
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut openings = |_: usize| loop {
        let mut p = Othello::START;
        for _ in 0..opening {
            let moves: Vec<u8> = p.moves().collect();
            p = p.play(moves[rng.usize(..moves.len())]);
        }
        if p.outcome().is_none() {
            break p;
        }
    };
    let record = matchup(pairs, &mut openings, &mut selective, &mut full);
    println!(
        "selective against full-width, {nodes} positions a move, {pairs} openings of {opening} plies (seed {seed}): \
         {} wins, {} draws, {} losses, {:.1} of {} points",
        record.wins,
        record.draws,
        record.losses,
        record.points(),
        2 * pairs
    );
}
