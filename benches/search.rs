//! Speed of the search core, of tree parsing and of the Connect Four engine.
//!
//! `cargo bench` runs all of it; the README quotes the figures. Throughput
//! is in positions visited for the searches and in bytes for the parsing.

use std::hint::black_box;
use std::time::Duration;

use bestmove::games::connect4::{self, Connect4, Endgame, Status};
use bestmove::games::tictactoe::Position;
use bestmove::games::tree::{Tree, TreeLimits};
use bestmove::search::{alpha_beta, engine_with_oracle, minimax, EngineOptions, Limits, Table};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};

fn tictactoe(c: &mut Criterion) {
    let game = Position::EMPTY.game();
    let mut group = c.benchmark_group("tictactoe_empty_board");
    // Throughput in each algorithm's own positions visited.
    group.throughput(Throughput::Elements(minimax(&game, Limits::default()).unwrap().nodes));
    group.bench_function("minimax", |b| b.iter(|| minimax(black_box(&game), Limits::default()).unwrap()));
    group.throughput(Throughput::Elements(alpha_beta(&game, Limits::default()).unwrap().nodes));
    group.bench_function("alpha_beta", |b| b.iter(|| alpha_beta(black_box(&game), Limits::default()).unwrap()));
    group.finish();
}

/// A tree with `branching^depth` leaves, values from a fixed pseudo-random
/// sequence so every run parses the same bytes.
fn tree_json(branching: usize, depth: usize) -> String {
    fn node(out: &mut String, branching: usize, depth: usize, rng: &mut fastrand::Rng) {
        if depth == 0 {
            out.push_str(&rng.i64(-1000..1000).to_string());
            return;
        }
        out.push('[');
        for i in 0..branching {
            if i > 0 {
                out.push(',');
            }
            node(out, branching, depth - 1, rng);
        }
        out.push(']');
    }
    let mut out = String::new();
    node(&mut out, branching, depth, &mut fastrand::Rng::with_seed(42));
    out
}

fn million_leaf_tree(c: &mut Criterion) {
    let json = tree_json(10, 6);
    let mut group = c.benchmark_group("tree_1M_leaves");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(json.len() as u64));
    group.bench_function("serde_json_value_parse_only", |b| {
        b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&json)).unwrap())
    });
    let limits = TreeLimits::default();
    group.bench_function("parse", |b| b.iter(|| Tree::parse(black_box(&json), limits).unwrap()));
    group.bench_function("parse_and_search_both_ways", |b| {
        b.iter(|| {
            let tree = Tree::parse(black_box(&json), limits).unwrap();
            let game = tree.game(true, None).unwrap();
            let mm = minimax(&game, Limits::default()).unwrap();
            let ab = alpha_beta(&game, Limits::default()).unwrap();
            (mm.score, ab.nodes)
        })
    });
    group.finish();
}

/// The Connect Four reference positions (10 to 40 stones).
const CONNECT4_POSITIONS: &str = include_str!("../tests/data/connect4-positions.txt");
/// Positions per phase: the first ones of the file in the phase's range.
const CONNECT4_PER_PHASE: usize = 3;

/// The first `CONNECT4_PER_PHASE` reference positions with a stone count in
/// `stones` in which the side to move has no immediate win (those take the
/// engine a handful of positions).
fn connect4_phase(stones: std::ops::RangeInclusive<u32>) -> Vec<Connect4> {
    CONNECT4_POSITIONS
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(|moves| connect4::Position::from_notation(moves).expect("a valid reference position"))
        .filter(|p| stones.contains(&p.stones()))
        .filter(|p| {
            p.legal_moves()
                .into_iter()
                .all(|column| !matches!(p.play(column).map(|c| c.status()), Some(Status::Won(..))))
        })
        .take(CONNECT4_PER_PHASE)
        .map(|p| p.game())
        .collect()
}

/// Solves every column of every position exactly; the positions visited.
fn connect4_solve(positions: &[Connect4], table: &mut Table) -> u64 {
    let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
    positions
        .iter()
        .map(|p| {
            let endgame = Endgame::with_book(None);
            let result = engine_with_oracle(p, &endgame, Limits::default(), table, options, &mut |_| {}).unwrap();
            assert!(result.exact && result.root_moves.iter().all(|m| m.exact));
            result.nodes
        })
        .sum()
}

/// Every column's exact score, as the service computes it for a Connect Four
/// answer (the endgame solver, no opening book), for a few reference positions of each phase of
/// the game. One iteration solves all of the phase's positions.
fn connect4_engine(c: &mut Criterion) {
    let mut table = Table::with_bytes(64 << 20);
    let mut group = c.benchmark_group("connect4_engine");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(500));
    for (phase, stones) in [("opening_10_19", 10..=19), ("middle_20_29", 20..=29), ("end_30_40", 30..=40)] {
        let positions = connect4_phase(stones);
        assert_eq!(positions.len(), CONNECT4_PER_PHASE);
        group.throughput(Throughput::Elements(connect4_solve(&positions, &mut table)));
        group.bench_function(phase, |b| b.iter(|| connect4_solve(black_box(&positions), &mut table)));
    }
    group.finish();
}

criterion_group!(benches, tictactoe, million_leaf_tree, connect4_engine);
criterion_main!(benches);
