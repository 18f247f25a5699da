//! The bench signature: the positions visited by a fixed set of searches
//! over tic-tac-toe, a game tree and Connect Four, summed into one number.
//!
//! Every search here is deterministic (no time budget, fixed table sizes),
//! so the total changes exactly when what the searches do changes: a test
//! holds it, and a change of search behaviour shows as a deliberate change
//! of that number, recorded where it is made. `cargo run --release --example
//! bench` prints each search's count and the total.

use crate::games::connect4::{Connect4, Endgame};
use crate::games::tictactoe::Position;
use crate::games::tree::{Tree, TreeLimits};
use crate::search::{alpha_beta, engine, engine_with_oracle, minimax, EngineOptions, Game, Limits, Solver, Table};

/// One search of the set and the positions it visited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchSearch {
    /// What was searched, and how.
    pub name: String,
    /// Positions visited, the root included.
    pub nodes: u64,
}

/// Connect Four positions of the set, as moves in the usual notation (digits
/// 1 to 7): solved to the end without a book, every column scored, with
/// the endgame solver for the last empty cells as the service solves.
const CONNECT4_SOLVED: [&str; 3] = ["13773277622226", "45473675766154", "414544274525114"];
/// Connect Four positions searched at a fixed depth, where the evaluation
/// decides: (moves, max_depth).
const CONNECT4_CUT: [(&str, u32); 3] = [("", 8), ("4453", 10), ("44444", 9)];
/// Tic-tac-toe boards of the set.
const BOARDS: [&str; 3] = [".........", "XO..X....", "X...O...."];

/// A tree of `depth` levels, 3 children a node, leaves from a fixed
/// pseudo-random sequence in -50..=50.
fn tree_json(depth: u32, state: &mut u64) -> String {
    if depth == 0 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        return (((*state >> 33) % 101) as i64 - 50).to_string();
    }
    let children: Vec<String> = (0..3).map(|_| tree_json(depth - 1, state)).collect();
    format!("[{}]", children.join(","))
}

/// Runs the three searches on `game` (the engine scoring every root move),
/// pushing each count.
fn all_three<G: Solver>(name: &str, game: &G, limits: Limits<'_>, table: &mut Table, out: &mut Vec<BenchSearch>) {
    let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
    let counts = [
        ("minimax", minimax(game, limits).map(|r| r.nodes)),
        ("alpha-beta", alpha_beta(game, limits).map(|r| r.nodes)),
        ("engine", engine(game, limits, table, options, &mut |_| {}).map(|r| r.nodes)),
    ];
    for (search, nodes) in counts {
        out.push(BenchSearch { name: format!("{name}, {search}"), nodes: nodes.unwrap_or(0) });
    }
}

/// Runs the set, in order.
pub fn run() -> Vec<BenchSearch> {
    let mut out = Vec::new();
    let mut small = Table::with_bytes(1 << 17);
    for board in BOARDS {
        let position = Position::parse(board, None).expect("a valid board");
        all_three(&format!("tic-tac-toe {board}"), &position.game(), Limits::default(), &mut small, &mut out);
    }
    let json = tree_json(9, &mut 7);
    let tree = Tree::parse(&json, TreeLimits::default()).expect("a valid tree");
    let game = tree.game(true, None).expect("a tree without a depth limit");
    let mut table = Table::with_bytes(1 << 20);
    all_three("tree 3^9", &game, Limits::default(), &mut table, &mut out);

    let mut table = Table::with_bytes(16 << 20);
    let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
    for moves in CONNECT4_SOLVED {
        let position = play(moves);
        let endgame = Endgame::with_book(None);
        let nodes = engine_with_oracle(&position, &endgame, Limits::default(), &mut table, options, &mut |_| {})
            .map_or(0, |r| r.nodes);
        out.push(BenchSearch { name: format!("connect4 {moves}, engine"), nodes });
    }
    for (moves, depth) in CONNECT4_CUT {
        // The best move only: scoring every root move at a depth first
        // deepens for a share of time, which no count could repeat.
        let limits = Limits { max_depth: Some(depth), ..Limits::default() };
        let plain = EngineOptions::default();
        let nodes = engine(&play(moves), limits, &mut table, plain, &mut |_| {}).map_or(0, |r| r.nodes);
        out.push(BenchSearch { name: format!("connect4 \"{moves}\" at max_depth {depth}, engine"), nodes });
    }
    out
}

fn play(moves: &str) -> Connect4 {
    moves.bytes().fold(Connect4::from_bitboards(0, 0), |p, c| p.play(c - b'1'))
}

/// The signature: every count of [`run`] summed.
pub fn signature() -> u64 {
    run().iter().map(|s| s.nodes).sum()
}
