//! A game written with only its rules, searched by plain minimax,
//! alpha-beta and the engine.
//!
//! Nim with one pile: each player takes 1, 2 or 3 stones, and whoever takes
//! the last stone wins. A pile that is a multiple of 4 is lost for the side
//! to move. The engine needs nothing more than the rules to be correct:
//! `Game`'s three required methods, `Heuristics` with an evaluation of 0
//! (the searches never stop before the end here), and `Solver` with every
//! default. The optional methods (a key for its table, the range of
//! outcomes, move hints, tactics) are what make it fast, as `cargo run
//! --example nim` shows.
//!
//! `cargo run --example nim [PILE]` (default features not needed).

use bestmove::search::{alpha_beta, engine, minimax, EngineOptions, Game, Heuristics, Limits, Solver, Table};

/// One pile of stones, the side to move about to take some.
#[derive(Clone, Copy, Debug)]
struct Nim {
    pile: u32,
}

impl Game for Nim {
    type Move = u8;
    type Moves = std::iter::Take<std::ops::RangeInclusive<u8>>;

    fn outcome(&self) -> Option<i64> {
        // The opponent took the last stone: the side to move has lost.
        (self.pile == 0).then_some(-1)
    }

    fn moves(&self) -> Self::Moves {
        (1..=3).take(self.pile.min(3) as usize)
    }

    fn play(&self, take: u8) -> Self {
        Nim { pile: self.pile - u32::from(take) }
    }
}

impl Heuristics for Nim {
    fn cut_value(&self) -> i64 {
        0
    }
}

impl Solver for Nim {}

fn main() {
    let pile = std::env::args().nth(1).and_then(|p| p.parse().ok()).unwrap_or(25);
    let root = Nim { pile };
    let plain = minimax(&root, Limits::default()).expect("no limit to cancel it");
    let pruned = alpha_beta(&root, Limits::default()).expect("no limit to cancel it");
    let mut table = Table::with_bytes(1 << 20);
    let solved = engine(&root, Limits::default(), &mut table, EngineOptions::default(), &mut |_| {})
        .expect("no limit to cancel it");
    assert_eq!((plain.best_move, plain.score), (pruned.best_move, pruned.score));
    assert_eq!((solved.best_move, solved.score), (pruned.best_move, pruned.score));
    println!("Nim, a pile of {pile}: take {:?}, worth {:?}", solved.best_move, solved.score);
    println!("minimax    {:>12} positions", plain.nodes);
    println!("alpha-beta {:>12} positions", pruned.nodes);
    println!("engine     {:>12} positions", solved.nodes);
}
