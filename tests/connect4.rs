//! Connect Four solved: the engine against reference positions whose every
//! column was scored by two independent solvers, and against a brute-force
//! solver written here that shares no code with the engine.

use bestmove::games::connect4::{Book, Connect4};
use bestmove::play::arena::{matchup, AtDepth, Player, Random};
use bestmove::search::{engine, engine_with_oracle, EngineOptions, Game, Limits, Progress, Score, Table};

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
    for (i, reference) in references().iter().enumerate() {
        let root = position(&reference.moves);
        let stones = reference.moves.len() as u32;
        // Scoring first or deepening first, the scores are the same.
        let options = EngineOptions { score_root_moves: true, deepen_first: i % 2 == 1, ..EngineOptions::default() };
        let result = engine(&root, Limits::default(), &mut table, options, &mut |_| {}).unwrap();
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

#[test]
fn a_search_to_the_end_scores_the_columns_before_deepening_unless_asked_to_deepen_first() {
    // 30 stones: every column is scored in a few milliseconds.
    let root = position("612313147626667357672244337327");
    let mut table = Table::with_bytes(16 << 20);
    let limits = || Limits {
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(60)),
        ..Limits::default()
    };
    let first = engine(
        &root,
        limits(),
        &mut table,
        EngineOptions { score_root_moves: true, deepen_first: false, ..EngineOptions::default() },
        &mut |_| {},
    )
    .unwrap();
    assert!(first.exact);
    assert_eq!(first.iterations, 0, "scored within the first share of the budget: no deepening");
    assert_eq!(first.depth, 12, "the plies left in the game");
    let (mut iterations, mut settled) = (0, Vec::new());
    let deepened = engine(
        &root,
        limits(),
        &mut table,
        EngineOptions { score_root_moves: true, deepen_first: true, ..EngineOptions::default() },
        &mut |p| match p {
            Progress::Iteration(_) => iterations += 1,
            Progress::RootMove(m) => settled.push((m.mv, Some(m.score), m.exact)),
        },
    )
    .unwrap();
    assert!(deepened.iterations >= 1 && iterations == deepened.iterations, "{iterations} reported");
    assert_eq!(deepened.root_moves, first.root_moves);
    // Every column's score was reported as it was settled, as answered.
    settled.sort_by_key(|&(mv, ..)| mv);
    let answered: Vec<_> = first.root_moves.iter().map(|m| (m.mv, m.score, m.exact)).collect();
    assert_eq!(settled, answered);
    assert_eq!((deepened.best_move, deepened.score), (first.best_move, first.score));
    assert_eq!(deepened.principal_variation, first.principal_variation);
}

#[test]
fn scoring_cut_by_its_first_share_of_the_budget_resumes_after_deepening_with_the_same_scores() {
    let mut table = Table::with_bytes(16 << 20);
    let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
    let mut resumed = 0;
    for reference in references().iter().step_by(20) {
        let root = position(&reference.moves);
        let whole = engine(&root, Limits::default(), &mut table, options, &mut |_| {}).unwrap();
        if whole.nodes < 10_000 {
            continue;
        }
        // A budget of 4 times the work: its first eighth, for scoring before
        // any deepening, is too short, and the rest is plenty.
        let limits = Limits { node_budget: Some(4 * whole.nodes), ..Limits::default() };
        let cut = engine(&root, limits, &mut table, options, &mut |_| {}).unwrap();
        assert!(cut.iterations >= 1, "{}: deepened after the first share", reference.moves);
        assert!(cut.exact, "{}", reference.moves);
        assert_eq!(cut.root_moves, whole.root_moves, "{}", reference.moves);
        assert_eq!((cut.best_move, cut.score), (whole.best_move, whole.score), "{}", reference.moves);
        resumed += 1;
    }
    assert!(resumed >= 5, "only {resumed} positions take 10,000 positions or more");
}

/// The opening book built into the crate (the `book` feature).
fn book() -> Option<&'static Book> {
    static BOOK: std::sync::OnceLock<Option<Book>> = std::sync::OnceLock::new();
    BOOK.get_or_init(|| {
        #[cfg(feature = "book")]
        return Some(Book::embedded().expect("the built-in book"));
        #[cfg(not(feature = "book"))]
        {
            eprintln!("skipped: built without the opening book (the `book` feature)");
            None
        }
    })
    .as_ref()
}

/// The published book file: OPENING_BOOK, or where
/// scripts/fetch-opening-book.sh puts it. CI fetches it; elsewhere the test
/// that needs it says it was skipped.
fn published_book() -> Option<Book> {
    let path = std::env::var_os("OPENING_BOOK").map(std::path::PathBuf::from).unwrap_or_else(|| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/opening-book/book_12ply_distances.dat")
    });
    if !path.exists() {
        assert!(std::env::var_os("CI").is_none(), "CI must fetch the opening book: {}", path.display());
        eprintln!("skipped: no opening book at {} (scripts/fetch-opening-book.sh)", path.display());
        return None;
    }
    Some(Book::load(&path).expect("a readable book"))
}

#[test]
fn the_built_in_book_answers_every_position_of_the_published_file_the_same() {
    let (Some(built_in), Some(published)) = (book(), published_book()) else { return };
    assert_eq!(built_in.len(), published.len());
    for (position, score) in published.positions() {
        assert_eq!(position.stones(), 12);
        assert_eq!(built_in.probe(&position), published.probe(&position), "{position:?} (score {score})");
        assert!(published.probe(&position).is_some());
    }
}

/// The committed book file, built into the binary, is the one its pin
/// names: data/connect4/book-12ply.zst.sha256 (checked with `sha256sum`,
/// which scripts/container-check.sh also runs before building the image).
/// A changed book must change the pin with it, in the same review.
#[test]
fn the_committed_book_file_has_the_pinned_sha256() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/connect4");
    let pin = std::fs::read_to_string(folder.join("book-12ply.zst.sha256")).expect("the pin");
    let (digest, name) = pin.trim_end().split_once("  ").expect("sha256sum's format: DIGEST, two spaces, NAME");
    assert_eq!(name, "book-12ply.zst");
    assert!(digest.len() == 64 && digest.bytes().all(|b| b.is_ascii_hexdigit()), "{digest}");
    let check = std::process::Command::new("sha256sum")
        .args(["--check", "--strict", "book-12ply.zst.sha256"])
        .current_dir(&folder)
        .output();
    match check {
        Ok(out) => assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(error) => {
            assert!(std::env::var_os("CI").is_none(), "CI needs sha256sum (coreutils): {error}");
            eprintln!("skipped: no sha256sum ({error})");
        }
    }
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
    let root = Connect4::from_bitboards(0, 0);
    let mut table = Table::with_bytes(64 << 20);
    let result = engine_with_oracle(
        &root,
        book,
        Limits::default(),
        &mut table,
        EngineOptions { score_root_moves: true, ..EngineOptions::default() },
        &mut |_| {},
    )
    .unwrap();
    let expected = [-2, -1, 0, 1, 0, -1, -2].map(|s| literature_to_score(s, 0));
    let found: Vec<Score> = result.root_moves.iter().map(|m| m.score.expect("scored")).collect();
    assert_eq!(found, expected);
    assert!(result.exact);
    assert_eq!(result.best_move, Some(3));
    assert_eq!(result.score, Score::new(1, 41));
    assert!(result.book_hits > 0);
    // The line of best play reaches the book at least: the position after
    // its first 12 moves is one the book says X wins 29 plies later.
    let line = &result.principal_variation;
    assert!(line.len() >= 12, "{line:?}");
    assert_eq!(line[0], 3);
    let after = line[..12].iter().fold(Connect4::from_bitboards(0, 0), |p, &c| p.play(c));
    assert_eq!(book.probe(&after), Some((1, 29)), "{line:?}");
}

#[test]
fn with_the_book_a_short_budget_still_plays_a_move_that_reaches_the_books_score() {
    let Some(book) = book() else { return };
    // X to move with 12 stones: the book knows the score, but scoring every
    // column takes several million positions, more than the budget.
    let root = position("444447322227");
    let (value, plies) = book.probe(&root).expect("listed");
    let mut table = Table::with_bytes(64 << 20);
    let limits = Limits { node_budget: Some(1_000_000), ..Limits::default() };
    let result = engine_with_oracle(
        &root,
        book,
        limits,
        &mut table,
        EngineOptions { score_root_moves: true, ..EngineOptions::default() },
        &mut |_| {},
    )
    .unwrap();
    assert!(!result.exact, "the budget cut the scoring of the columns");
    assert!(result.root_moves.iter().any(|m| !m.exact));
    assert_eq!(result.score, Score::new(value, plies));
    // A search to the end, without the book, of the position after the move.
    let best = result.best_move.expect("a move");
    let child = engine(&root.play(best), Limits::default(), &mut table, EngineOptions::default(), &mut |_| {}).unwrap();
    assert_eq!(child.score, Score::new(-value, plies - 1), "column {} does not reach the book's score", best + 1);
}

#[test]
fn with_the_book_a_budget_cut_plays_a_move_not_yet_proven_short_of_the_books_score() {
    let Some(book) = book() else { return };
    // Only column 6 wins (in 29 plies); columns 3 and 7 draw, and ruling
    // them out takes about as long as proving column 6. The budget ends
    // after they are ruled out, before column 6 is proven.
    let root = position("444447322226");
    let mut table = Table::with_bytes(64 << 20);
    let limits = Limits { node_budget: Some(8_000_000), ..Limits::default() };
    let result = engine_with_oracle(
        &root,
        book,
        limits,
        &mut table,
        EngineOptions { score_root_moves: true, ..EngineOptions::default() },
        &mut |_| {},
    )
    .unwrap();
    assert!(!result.exact);
    assert_eq!(result.best_move, Some(5), "{:?}", result.root_moves);
}

/// A brute-force solver that shares nothing with the engine: a 7 x 6 array
/// and plain negamax over every line to the end.
mod brute {
    #[derive(Clone)]
    pub struct Board {
        /// `cells[column][row]`, row 0 at the bottom: 0 empty, 1 or 2.
        cells: [[u8; 6]; 7],
        heights: [usize; 7],
        /// The player to move, 1 or 2.
        mover: u8,
    }

    impl Board {
        pub fn new(moves: &str) -> Board {
            let mut board = Board { cells: [[0; 6]; 7], heights: [0; 7], mover: 1 };
            for c in moves.bytes() {
                board.play((c - b'1') as usize);
            }
            board
        }

        pub fn playable(&self, column: usize) -> bool {
            self.heights[column] < 6
        }

        pub fn play(&mut self, column: usize) {
            self.cells[column][self.heights[column]] = self.mover;
            self.heights[column] += 1;
            self.mover = 3 - self.mover;
        }

        fn undo(&mut self, column: usize) {
            self.heights[column] -= 1;
            self.cells[column][self.heights[column]] = 0;
            self.mover = 3 - self.mover;
        }

        /// Does the stone just played in `column` make four?
        pub fn four_at(&self, column: usize) -> bool {
            let row = self.heights[column] - 1;
            let who = self.cells[column][row];
            for (dc, dr) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
                let mut count = 1;
                for sign in [1, -1] {
                    let (mut c, mut r) = (column as i32 + sign * dc, row as i32 + sign * dr);
                    while (0..7).contains(&c) && (0..6).contains(&r) && self.cells[c as usize][r as usize] == who {
                        count += 1;
                        c += sign * dc;
                        r += sign * dr;
                    }
                }
                if count >= 4 {
                    return true;
                }
            }
            false
        }

        fn full(&self) -> bool {
            self.heights.iter().all(|&h| h == 6)
        }

        /// (value for the mover, plies to the end) under best play, with
        /// the quickest win and the slowest loss.
        pub fn solve(&mut self) -> (i64, u32) {
            if self.full() {
                return (0, 0);
            }
            let mut best: Option<(i64, u32)> = None;
            for column in 0..7 {
                if !self.playable(column) {
                    continue;
                }
                self.play(column);
                let result = if self.four_at(column) {
                    (1, 1)
                } else {
                    let (value, plies) = self.solve();
                    (-value, plies + 1)
                };
                self.undo(column);
                if best.is_none_or(|b| better(result, b)) {
                    best = Some(result);
                }
            }
            best.expect("a board that is not full has a move")
        }
    }

    pub fn better(a: (i64, u32), b: (i64, u32)) -> bool {
        if a.0 != b.0 {
            return a.0 > b.0;
        }
        match a.0 {
            1 => a.1 < b.1,
            -1 => a.1 > b.1,
            _ => false,
        }
    }
}

#[test]
fn endgames_from_random_games_match_a_brute_force_solver_column_by_column() {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut table = Table::with_bytes(16 << 20);
    let mut checked = 0;
    while checked < 12 {
        let stones = 33 + rng.usize(..3);
        let Some((moves, root)) = random_position(&mut rng, stones) else { continue };
        let result = engine(
            &root,
            Limits::default(),
            &mut table,
            EngineOptions { score_root_moves: true, ..EngineOptions::default() },
            &mut |_| {},
        )
        .unwrap();
        let mut board = brute::Board::new(&moves);
        for m in &result.root_moves {
            let mut child = board.clone();
            child.play(m.mv as usize);
            let (value, plies) = if child.four_at(m.mv as usize) {
                (1, 1)
            } else {
                let (value, plies) = child.solve();
                (-value, plies + 1)
            };
            let expected = Score::new(value, plies);
            assert_eq!(m.score, Some(expected), "{moves} column {}", m.mv + 1);
        }
        let (value, plies) = board.solve();
        assert_eq!(result.score, Score::new(value, plies), "{moves}");
        if value == 0 {
            assert_eq!(plies, 42 - stones as u32, "{moves}: a draw fills the board");
        }
        checked += 1;
    }
}

#[test]
fn at_a_fixed_depth_the_engine_scores_as_minimax_does_on_random_positions() {
    use bestmove::search::minimax;
    let mut rng = fastrand::Rng::with_seed(11);
    let mut table = Table::with_bytes(16 << 20);
    for round in 0..24 {
        let stones = 6 + rng.usize(..30);
        let Some((moves, root)) = random_position(&mut rng, stones) else { continue };
        let depth = 1 + (round % 6) as u32;
        let limits = Limits { max_depth: Some(depth), ..Limits::default() };
        let mm = minimax(&root, limits).unwrap();
        // Deepening shares one table across depths 1..=depth: entries of a
        // shallower iteration must not pass for deeper ones.
        let all = engine(
            &root,
            limits,
            &mut table,
            EngineOptions { score_root_moves: true, ..EngineOptions::default() },
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(all.score, mm.score, "{moves} at depth {depth}");
        let scores: Vec<_> = all.root_moves.iter().map(|m| (m.mv, m.score)).collect();
        let expected: Vec<_> = mm.root_moves.iter().map(|m| (m.mv, Some(m.score))).collect();
        assert_eq!(scores, expected, "{moves} at depth {depth}");
        let one = engine(&root, limits, &mut table, EngineOptions::default(), &mut |_| {}).unwrap();
        assert_eq!(one.score, mm.score, "{moves} at depth {depth}");
    }
}

#[test]
fn deepening_first_gives_the_same_scores_and_the_same_line_or_a_part_of_it() {
    let book = book();
    let mut rng = fastrand::Rng::with_seed(22);
    let mut table = Table::with_bytes(64 << 20);
    let (mut compared, mut shorter) = (0, 0);
    while compared < 8 {
        let stones = rng.usize(9..=12);
        let Some((moves, root)) = random_position(&mut rng, stones) else { continue };
        let solve = |deepen_first: bool, table: &mut Table| {
            let options = EngineOptions { score_root_moves: true, deepen_first, ..EngineOptions::default() };
            engine_with_oracle(&root, &book, Limits::default(), table, options, &mut |_| {}).expect("not cancelled")
        };
        let plain = solve(false, &mut table);
        let deepened = solve(true, &mut table);
        assert!(plain.exact && deepened.exact, "{moves}");
        assert_eq!(plain.root_moves, deepened.root_moves, "{moves}");
        assert_eq!((plain.best_move, plain.score), (deepened.best_move, deepened.score), "{moves}");
        let (a, b) = (&plain.principal_variation, &deepened.principal_variation);
        let common = a.len().min(b.len());
        assert_eq!(a[..common], b[..common], "{moves}: the lines part");
        shorter += usize::from(a.len() != b.len());
        compared += 1;
    }
    eprintln!("{shorter} of {compared} lines stopped at different lengths");
}

#[test]
fn with_the_book_a_budget_cut_answer_marks_its_move_proven_only_when_it_is_a_best_move() {
    let Some(book) = book() else { return };
    // 12 stones, X to move. Only column 6 wins the first (in 29 plies);
    // column 4 is the only one that loses the second. Proving a column
    // reaches the book's score takes millions of positions here.
    let winning: [(&str, &[u8]); 2] = [("444447322226", &[5]), ("763232333661", &[0, 1, 2, 4, 5, 6])];
    let mut table = Table::with_bytes(64 << 20);
    for (moves, best) in winning {
        let root = position(moves);
        let (value, plies) = book.probe(&root).expect("listed");
        for ms in [5, 10, 50, 300] {
            let deadline = std::time::Instant::now() + std::time::Duration::from_millis(ms);
            let limits = Limits { deadline: Some(deadline), ..Limits::default() };
            let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
            let result = engine_with_oracle(&root, book, limits, &mut table, options, &mut |_| {}).unwrap();
            let played = result.best_move.expect("a move");
            let entry = result.root_moves.iter().find(|m| m.mv == played).expect("the move is listed");
            let proven = entry.exact && entry.score == Some(Score::new(value, plies));
            eprintln!("{moves} at {ms} ms: column {} ({})", played + 1, if proven { "proven" } else { "a guess" });
            if proven || result.exact {
                assert!(best.contains(&played), "{moves} at {ms} ms: column {} marked proven", played + 1);
            }
            // A column proven to fall short of the book's score is never played.
            assert!(
                !entry.exact || entry.score == Some(Score::new(value, plies)),
                "{moves} at {ms} ms: column {} is proven worse: {:?}",
                played + 1,
                entry.score
            );
        }
    }
}

// ------------------------------------------------- play cut by max_depth

/// The opening of `connect4_depths`'s i-th pair of games: 3 random columns.
fn depth_opening(seed: u64, i: usize) -> Connect4 {
    let mut rng = fastrand::Rng::with_seed(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
    (0..3).fold(Connect4::from_bitboards(0, 0), |p, _| p.play(rng.u8(..7)))
}

#[test]
fn on_the_empty_board_every_max_depth_from_1_to_12_plays_the_centre() {
    let mut table = Table::with_bytes(16 << 20);
    for depth in 1..=12 {
        let mut player = AtDepth { depth, table: &mut table };
        assert_eq!(Player::pick(&mut player, &Connect4::from_bitboards(0, 0)), 3, "max_depth {depth}");
    }
}

#[test]
fn at_max_depth_4_the_engine_wins_at_least_95_of_100_games_against_random_columns() {
    let mut table = Table::with_bytes(16 << 20);
    let mut engine = AtDepth { depth: 4, table: &mut table };
    let mut random = Random(fastrand::Rng::with_seed(1));
    let record = matchup(50, &mut |i| depth_opening(1, i), &mut engine, &mut random);
    assert!(record.wins >= 95, "{record:?}");
}

#[test]
fn in_a_round_robin_of_max_depths_2_4_6_and_8_each_depth_scores_more_than_the_one_below() {
    let depths = [2, 4, 6, 8];
    let (mut one, mut other) = (Table::with_bytes(16 << 20), Table::with_bytes(16 << 20));
    let mut totals = [0.0; 4];
    for i in 0..depths.len() {
        for j in i + 1..depths.len() {
            let mut a = AtDepth { depth: depths[i], table: &mut one };
            let mut b = AtDepth { depth: depths[j], table: &mut other };
            let record = matchup(50, &mut |k| depth_opening(1, k), &mut a, &mut b);
            totals[i] += record.points();
            totals[j] += 100.0 - record.points();
        }
    }
    assert!(totals.windows(2).all(|pair| pair[0] < pair[1]), "points by depth 2, 4, 6, 8: {totals:?}");
}

#[test]
fn a_depth_limited_answer_never_plays_a_column_that_loses_within_the_horizon_when_another_does_not() {
    let mut rng = fastrand::Rng::with_seed(234);
    let mut table = Table::with_bytes(16 << 20);
    let mut checked = 0;
    while checked < 300 {
        let stones = rng.usize(4..=30);
        let Some((moves, root)) = random_position(&mut rng, stones) else { continue };
        let depth = [2, 3, 4, 5][checked % 4];
        let played = Player::pick(&mut AtDepth { depth, table: &mut table }, &root);
        // Plain minimax, which shares nothing with the engine but the game:
        // a column loses within the horizon when the opponent then has a
        // forced win within `depth - 1` plies.
        let loses = |column: u8| {
            let child = root.play(column);
            child.outcome().is_none() && {
                let limits = Limits { max_depth: Some(depth - 1), ..Limits::default() };
                bestmove::search::minimax(&child, limits).unwrap().score.value() > 0
            }
        };
        if root.moves().any(|c| !loses(c)) {
            assert!(!loses(played), "{moves} at max_depth {depth}: column {} loses within the horizon", played + 1);
        }
        checked += 1;
    }
}

#[test]
fn a_budget_cut_keeps_every_proven_column_and_scores_the_others_at_the_depth_reached() {
    let references = references();
    let mut table = Table::with_bytes(16 << 20);
    let mut checked = 0;
    // Early positions the budget cuts: every column solved is right, and
    // every other one carries the deepening's score with its depth.
    for reference in references.iter().filter(|r| (8..=12).contains(&r.moves.len())).take(12) {
        let root = position(&reference.moves);
        let limits = Limits { node_budget: Some(200_000), ..Limits::default() };
        let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
        let result = engine(&root, limits, &mut table, options, &mut |_| {}).unwrap();
        if result.exact {
            continue;
        }
        checked += 1;
        for m in &result.root_moves {
            let expected =
                reference.scores[m.mv as usize].map(|s| literature_to_score(s, reference.moves.len() as u32));
            let score = m.score.unwrap_or_else(|| panic!("{}: column {} has no score", reference.moves, m.mv + 1));
            if m.exact {
                assert_eq!(Some(score), expected, "{}: column {}", reference.moves, m.mv + 1);
                assert_eq!(m.depth, None);
            } else {
                assert!(m.depth.is_some_and(|d| d >= 1), "{}: column {} has no depth", reference.moves, m.mv + 1);
                // An estimate never contradicts the exact score's kind
                // when it claims a win or a loss.
                if score.value() != 0 {
                    assert_eq!(Some(score.value()), expected.map(Score::value), "{}", reference.moves);
                }
            }
        }
    }
    assert!(checked >= 3, "only {checked} positions were cut by the budget");
}
