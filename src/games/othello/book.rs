//! The opening book: positions near the start whose every move the
//! project's own engine scored with a much larger budget than a request's
//! (`examples/othello_book.rs` builds it, from a position budget, so the
//! same build gives the same book on any machine), embedded from
//! `data/othello/book.txt`.
//!
//! The file has one position a line: the moves from the start that reach
//! it (`f5d6c3`, `start` for the start itself), then each legal move with
//! its evaluation in points (100 to a disc) for the side to move and the
//! depth it was searched to, as `square:points:depth`. Lines starting with
//! `#` are comments. Each position is filed under its eight images under the
//! board's symmetries (the rules are the same on all of them), so a game
//! that reaches a book position in any orientation finds it.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::game::Othello;
use super::input::parse_square;
use super::patterns::transpose;
use super::{PASS, SQUARES};
use crate::search::{BookAnswer, Game};

/// What the book's searches are worth in a request's time: each searched
/// [`NODES`] positions, about this long on the machine that built it (2
/// vCPU, see `docs/figures.md`). A request with a larger budget searches
/// instead.
pub const WORTH: std::time::Duration = std::time::Duration::from_secs(4);

/// The positions each of the book's searches visited (its budget).
pub const NODES: u64 = 20_000_000;

/// The book as the crate embeds it.
const EMBEDDED: &str = include_str!("../../../data/othello/book.txt");

/// The book's answer for one position: every legal move, in the search's
/// move order (ascending squares), as (square, evaluation in points for
/// the side to move, depth searched in plies).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// Each legal move, its evaluation and its depth.
    pub moves: Vec<(u8, i32, u32)>,
}

impl BookEntry {
    /// The move with the highest evaluation (the first of equals, in
    /// square order), with its evaluation and depth.
    pub fn best(&self) -> Option<(u8, i32, u32)> {
        BookAnswer::best_of(&self.moves)
    }
}

/// A problem with a line of the book file.
#[derive(Debug, PartialEq, Eq)]
pub struct BookError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// The board mirrored left to right.
fn mirror(x: u64) -> u64 {
    u64::from_le_bytes(x.to_le_bytes().map(u8::reverse_bits))
}

/// The `s`-th of the eight symmetries of the board (0 the identity): a
/// transposition, a flip top to bottom and a mirror, each where its bit of
/// `s` is set, in that order.
pub(super) fn image(x: u64, s: usize) -> u64 {
    let mut y = x;
    if s & 1 != 0 {
        y = transpose(y);
    }
    if s & 2 != 0 {
        y = y.swap_bytes();
    }
    if s & 4 != 0 {
        y = mirror(y);
    }
    y
}

/// One line of a book file: the moves that reach its position from the
/// start (empty for the start), the position, and each legal move with its
/// evaluation and depth, as the file lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookLine {
    /// The moves from the start, square names run together.
    pub path: String,
    /// The position they reach.
    pub position: Othello,
    /// Each legal move, its evaluation and its depth.
    pub moves: Vec<(u8, i32, u32)>,
}

/// Reads one line of a book file: `None` for a blank line or a comment.
pub fn parse_line(line: &str) -> Result<Option<BookLine>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split_whitespace();
    let Some(path) = fields.next() else {
        return Err("a line needs the moves and the scored moves".into());
    };
    let path = if path == "start" { "" } else { path };
    let mut position = Othello::START;
    if path.len() % 2 != 0 {
        return Err(format!("moves {path:?} are not square names"));
    }
    for at in (0..path.len()).step_by(2) {
        let square =
            path.get(at..at + 2).and_then(parse_square).ok_or_else(|| format!("{path:?} has no square at {at}"))?;
        if position.legal_squares() >> square & 1 == 0 {
            return Err(format!("{path:?}: {} is not a legal move there", &path[at..at + 2]));
        }
        position = position.play(square);
    }
    let mut moves = Vec::new();
    for field in fields {
        let parts: Vec<&str> = field.split(':').collect();
        let &[square, points, depth] = &parts[..] else {
            return Err(format!("{field:?} is not square:points:depth"));
        };
        let square = parse_square(square).ok_or_else(|| format!("{square:?} is not a square"))?;
        let points = points.parse::<i32>().map_err(|e| format!("{field:?}: {e}"))?;
        let depth = depth.parse::<u32>().map_err(|e| format!("{field:?}: {e}"))?;
        moves.push((square, points, depth));
    }
    let legal = position.legal_squares();
    let listed = moves.iter().fold(0u64, |set, &(square, _, _)| set | 1 << square);
    if legal == 0 || listed != legal || moves.len() != legal.count_ones() as usize {
        return Err(format!("{path:?}: the moves listed are not the legal moves, each once"));
    }
    Ok(Some(BookLine { path: path.to_string(), position, moves }))
}

/// Reads a book file: each position under its eight images, its moves
/// mapped with it and put in square order.
pub fn parse_book(text: &str) -> Result<HashMap<(u64, u64), BookEntry>, BookError> {
    let mut book = HashMap::new();
    for (number, line) in text.lines().enumerate() {
        let parsed = parse_line(line).map_err(|message| BookError { line: number + 1, message })?;
        let Some(BookLine { position, moves, .. }) = parsed else { continue };
        let (me, op) = position.bitboards();
        for s in 0..8 {
            let mut mapped: Vec<(u8, i32, u32)> = moves
                .iter()
                .map(|&(square, points, depth)| (image(1 << square, s).trailing_zeros() as u8, points, depth))
                .collect();
            mapped.sort_unstable_by_key(|&(square, _, _)| square);
            book.insert((image(me, s), image(op, s)), BookEntry { moves: mapped });
        }
    }
    Ok(book)
}

/// The embedded book, read on first use. The crate's tests hold the file
/// to its format; were it unreadable, the book would be empty (every
/// request searched) rather than a panic.
static BOOK: LazyLock<HashMap<(u64, u64), BookEntry>> = LazyLock::new(|| parse_book(EMBEDDED).unwrap_or_default());

/// Reads the embedded book now (see [`super::load`]).
pub(super) fn load() {
    LazyLock::force(&BOOK);
}

/// The book's entry for `position`, if it has one.
pub fn lookup(position: &Othello) -> Option<&'static BookEntry> {
    BOOK.get(&position.bitboards())
}

/// The line of best play the book knows from `position`: its best move,
/// then the best move of the position after it, while the book has it.
pub fn line(position: &Othello) -> Vec<u8> {
    let mut line = Vec::new();
    let mut at = *position;
    while let Some((mv, _, _)) = lookup(&at).and_then(BookEntry::best) {
        if line.len() >= SQUARES as usize || mv >= PASS {
            break;
        }
        line.push(mv);
        at = at.play(mv);
    }
    line
}

/// The canonical form of a position: the least of its eight images, as
/// (the side to move's discs, the opponent's).
pub fn canonical(position: &Othello) -> (u64, u64) {
    let (me, op) = position.bitboards();
    (0..8).map(|s| (image(me, s), image(op, s))).min().unwrap_or((me, op))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_book_reads_and_holds_the_start() {
        let book = parse_book(EMBEDDED).expect("the embedded book reads");
        let entry = book.get(&Othello::START.bitboards()).expect("the start is in the book");
        assert_eq!(entry.moves.len(), 4);
        // Every position of the book has every legal move scored, and the
        // line from the start plays legal moves.
        assert!(book.iter().all(|(&(me, op), entry)| {
            let position = Othello::from_bitboards(me, op);
            entry.moves.iter().fold(0u64, |set, m| set | 1 << m.0) == position.legal_squares()
        }));
        let mut at = Othello::START;
        for mv in line(&Othello::START) {
            assert_ne!(at.legal_squares() >> mv & 1, 0);
            at = at.play(mv);
        }
    }

    #[test]
    fn a_position_is_found_in_every_orientation() {
        // f5 and its three images (d3, c4, e6) from the start: the same
        // position turned, so the same scores for the moves turned with it.
        let book = parse_book("start d3:-10:3 c4:-10:3 f5:-10:3 e6:-10:3\nf5 d6:5:2 f6:-3:2 f4:7:4\n").unwrap();
        for first in ["f5", "d3", "c4", "e6"] {
            let after = Othello::START.play(parse_square(first).unwrap());
            let entry = book.get(&after.bitboards()).unwrap_or_else(|| panic!("{first}"));
            let mut scores: Vec<i32> = entry.moves.iter().map(|m| m.1).collect();
            scores.sort_unstable();
            assert_eq!(scores, vec![-3, 5, 7], "{first}");
            // The best move is legal where it is found.
            let (best, points, depth) = entry.best().unwrap();
            assert_eq!((points, depth), (7, 4));
            assert_ne!(after.legal_squares() >> best & 1, 0, "{first}");
        }
        // The best move after f5 and the best after d3 lead to images of
        // one position.
        let f5 = Othello::START.play(parse_square("f5").unwrap());
        let d3 = Othello::START.play(parse_square("d3").unwrap());
        let (best_f5, _, _) = book[&f5.bitboards()].best().unwrap();
        let (best_d3, _, _) = book[&d3.bitboards()].best().unwrap();
        let (a, b) = (f5.play(best_f5).bitboards(), d3.play(best_d3).bitboards());
        assert!((0..8).any(|s| (image(a.0, s), image(a.1, s)) == b), "the best moves are images of each other");
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        for (text, line) in [
            ("start d3:0:3 c4:0:3 f5:0:3\n", 1),
            ("# a comment\nstart d3:0:3 c4:0:3 f5:0:3 e6:0:3 a1:0:3\n", 2),
            ("f5f5 d6:0:2\n", 1),
            ("start d3:0:x c4:0:3 f5:0:3 e6:0:3\n", 1),
            ("start d3:0:3 c4:zero:3 f5:0:3 e6:0:3\n", 1),
            ("start d3:0 c4:0:3 f5:0:3 e6:0:3\n", 1),
            ("f 3\n", 1),
        ] {
            assert_eq!(parse_book(text).map(|_| ()).map_err(|e| e.line), Err(line), "{text:?}");
        }
    }
}
