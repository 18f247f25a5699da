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

/// The opening book named by OPENING_BOOK, or fetched by
/// scripts/fetch-opening-book.sh. CI fetches it; elsewhere the book tests
/// say they were skipped.
fn book() -> Option<&'static bestmove::games::connect4::Book> {
    let path = std::env::var_os("OPENING_BOOK").map(std::path::PathBuf::from).unwrap_or_else(|| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/opening-book/book_12ply_distances.dat")
    });
    if !path.exists() {
        assert!(std::env::var_os("CI").is_none(), "CI must fetch the opening book: {}", path.display());
        eprintln!("skipped: no opening book at {} (scripts/fetch-opening-book.sh)", path.display());
        return None;
    }
    let book = bestmove::games::connect4::Book::load(&path).expect("a readable book");
    Some(Box::leak(Box::new(book)))
}

/// A random game of `stones` moves in which nobody makes four.
fn random_position(rng: &mut fastrand::Rng, stones: usize) -> Option<(String, Connect4)> {
    let mut moves = String::new();
    let mut position = Connect4::from_bitboards(0, 0);
    for _ in 0..stones {
        let columns: Vec<u8> = position.moves().filter(|&c| position.play(c).outcome().is_none()).collect();
        let column = *columns.get(rng.usize(..columns.len().max(1)))?;
        moves.push((b'1' + column) as char);
        position = position.play(column);
    }
    Some((moves, position))
}

#[test]
fn the_opening_book_agrees_with_the_engine_on_the_positions_it_lists() {
    let Some(book) = book() else { return };
    assert_eq!(book.len(), 4_200_899);
    let mut rng = fastrand::Rng::with_seed(12);
    let mut table = Table::with_bytes(64 << 20);
    let (mut listed, mut missing) = (0, 0);
    while listed < 6 {
        let Some((moves, root)) = random_position(&mut rng, 12) else { continue };
        let searched =
            engine(&root, Limits::default(), &mut table, EngineOptions::default(), &mut |_| {}).expect("not cancelled");
        match book.probe(&root) {
            Some((value, plies)) => {
                listed += 1;
                assert_eq!(Score::new(value, plies), searched.score, "{moves}");
                if value == 0 {
                    assert_eq!(plies, 30, "{moves}: a draw fills the board");
                }
            }
            None => {
                missing += 1;
                // The book leaves out positions that X wins at once.
                assert_eq!(searched.score, Score::new(1, 1), "{moves} is missing from the book");
            }
        }
    }
    eprintln!("{listed} listed, {missing} missing");
}

#[test]
fn with_the_book_the_empty_board_is_solved_column_by_column() {
    let Some(book) = book() else { return };
    let root = Connect4::from_bitboards(0, 0).with_book(Some(book));
    let mut table = Table::with_bytes(64 << 20);
    let result =
        engine(&root, Limits::default(), &mut table, EngineOptions { score_root_moves: true }, &mut |_| {}).unwrap();
    let expected = [-2, -1, 0, 1, 0, -1, -2].map(|s| literature_to_score(s, 0));
    let found: Vec<Score> = result.root_moves.iter().map(|m| m.score.expect("scored")).collect();
    assert_eq!(found, expected);
    assert!(result.exact);
    assert_eq!(result.best_move, Some(3));
    assert_eq!(result.score, Score::new(1, 41));
    assert!(result.book_hits > 0);
}
