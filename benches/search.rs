//! Speed of the search core and of tree parsing.
//!
//! `cargo bench` runs all of it; the README quotes the figures. Throughput
//! is in positions visited for the searches and in bytes for the parsing.

use std::hint::black_box;

use bestmove::games::tictactoe::Position;
use bestmove::games::tree::{Tree, TreeLimits};
use bestmove::search::{alpha_beta, minimax, Limits};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

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

criterion_group!(benches, tictactoe, million_leaf_tree);
criterion_main!(benches);
