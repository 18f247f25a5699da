//! A game that implements only its rules (`Game`'s three required methods,
//! `Heuristics` with an evaluation of 0, `Solver` with every default) gets
//! from the engine the same answers as from alpha-beta, for at most twice
//! the positions: the optional methods make the engine fast, and leaving
//! them out costs no cliff. (`examples/nim.rs` prints the three counts.)

use bestmove::search::{alpha_beta, engine, EngineOptions, Game, Heuristics, Limits, Solver, Table};

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
}

impl Heuristics for Nim {
    fn cut_value(&self) -> i64 {
        0
    }
}

impl Solver for Nim {}

/// A random game tree, each node an index into shared storage.
#[derive(Clone)]
struct RandomTree<'t> {
    nodes: &'t [Node],
    at: usize,
}

enum Node {
    Leaf(i64),
    Inner(Vec<usize>),
}

impl Game for RandomTree<'_> {
    type Move = u32;
    type Moves = std::ops::Range<u32>;
    fn outcome(&self) -> Option<i64> {
        match self.nodes[self.at] {
            Node::Leaf(value) => Some(value),
            Node::Inner(_) => None,
        }
    }
    fn moves(&self) -> Self::Moves {
        match &self.nodes[self.at] {
            Node::Inner(children) => 0..children.len() as u32,
            Node::Leaf(_) => 0..0,
        }
    }
    fn play(&self, mv: u32) -> Self {
        match &self.nodes[self.at] {
            Node::Inner(children) => RandomTree { nodes: self.nodes, at: children[mv as usize] },
            Node::Leaf(_) => unreachable!("no move from a leaf"),
        }
    }
}

impl Heuristics for RandomTree<'_> {
    fn cut_value(&self) -> i64 {
        0
    }
}

impl Solver for RandomTree<'_> {}

/// A tree of up to `depth` levels, 1 to 4 children a node, leaves in
/// -20..=20 (values for the side to move there).
fn random_tree(rng: &mut fastrand::Rng, depth: u32, nodes: &mut Vec<Node>) -> usize {
    if depth == 0 || (depth < 6 && rng.u8(..4) == 0) {
        nodes.push(Node::Leaf(rng.i64(-20..=20)));
        return nodes.len() - 1;
    }
    let children = (0..rng.usize(1..=4)).map(|_| random_tree(rng, depth - 1, nodes)).collect();
    nodes.push(Node::Inner(children));
    nodes.len() - 1
}

/// The engine's and alpha-beta's answers agree; returns their positions.
fn both<G: Solver>(root: &G, table: &mut Table) -> (u64, u64) {
    let pruned = alpha_beta(root, Limits::default()).unwrap();
    let solved = engine(root, Limits::default(), table, EngineOptions::default(), &mut |_| {}).unwrap();
    assert_eq!((solved.best_move, solved.score), (pruned.best_move, pruned.score));
    assert_eq!(solved.principal_variation, pruned.principal_variation);
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

#[test]
fn random_trees_with_only_the_rules_cost_the_engine_at_most_twice_alpha_betas_positions() {
    let mut rng = fastrand::Rng::with_seed(23);
    let mut table = Table::with_bytes(1 << 20);
    for _ in 0..500 {
        let mut nodes = Vec::new();
        let root = random_tree(&mut rng, 10, &mut nodes);
        let (engine_nodes, alpha_beta_nodes) = both(&RandomTree { nodes: &nodes, at: root }, &mut table);
        assert!(engine_nodes <= 2 * alpha_beta_nodes, "{engine_nodes} against {alpha_beta_nodes}");
    }
}
