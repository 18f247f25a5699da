//! A game that implements only the four methods `Game` requires gets from
//! the engine the same answers as from alpha-beta, for at most twice the
//! positions: the optional methods make the engine fast, and leaving them
//! out costs no cliff. (`examples/nim.rs` prints the three counts.)

use bestmove::search::{alpha_beta, engine, EngineOptions, Game, Limits, Table};

/// Nim with one pile: take 1 to 3 stones; whoever takes the last one wins.
#[derive(Clone, Copy)]
struct Nim(u32);

impl Game for Nim {
    type Move = u8;
    type Moves = std::iter::Take<std::ops::RangeInclusive<u8>>;
    fn outcome(&self) -> Option<i64> {
        (self.0 == 0).then_some(-1)
    }
    fn moves(&self) -> Self::Moves {
        (1..=3).take(self.0.min(3) as usize)
    }
    fn play(&self, take: u8) -> Self {
        Nim(self.0 - u32::from(take))
    }
    fn evaluate(&self) -> i64 {
        0
    }
}

/// The engine's and alpha-beta's answers agree; returns their positions.
fn both<G: Game>(root: &G, table: &mut Table) -> (u64, u64) {
    let pruned = alpha_beta(root, Limits::default()).unwrap();
    let solved = engine(root, Limits::default(), table, EngineOptions::default(), &mut |_| {}).unwrap();
    assert_eq!((solved.best_move, solved.score), (pruned.best_move, pruned.score));
    (solved.nodes, pruned.nodes)
}

#[test]
fn nim_with_only_the_rules_costs_the_engine_at_most_twice_alpha_betas_positions() {
    let mut table = Table::with_bytes(1 << 20);
    for pile in 1..=25 {
        let (engine_nodes, alpha_beta_nodes) = both(&Nim(pile), &mut table);
        assert!(engine_nodes <= 2 * alpha_beta_nodes, "pile {pile}: {engine_nodes} against {alpha_beta_nodes}");
    }
}
