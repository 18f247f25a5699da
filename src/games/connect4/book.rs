//! An opening book: the exact score, with its distance, of every Connect
//! Four position with 12 stones that the book lists.
//!
//! The book is the "12-ply with distances" database of the MIT-licensed
//! `bitbully-databases` package (by Markus Thill), read as its own reader
//! documents the format: a sequence of 5-byte records, sorted by position,
//! each a position code (a big-endian signed 32-bit number) and a score (a
//! signed byte).
//!
//! - The position code reads the columns from left to right, each from the
//!   bottom up: `10` for a stone of the first player (X), `11` for one of
//!   the second (O), `0` to end the column (also after a full one), and a
//!   final `0`: 32 bits for 12 stones.
//! - The score is X's (X is to move with 12 stones on the board): 0 for a
//!   draw, `100 - n` when X wins `n` plies from now, `n - 100` when X loses
//!   `n` plies from now.
//! - A position is listed once for itself and its mirror image; positions
//!   where X wins at once are not listed.

use std::fmt;
use std::path::Path;

use super::bitboard::Connect4;
use super::{HEIGHT, WIDTH};
use crate::search::Oracle;

/// The stones on the board in every position the book lists.
pub const BOOK_STONES: u32 = 12;
const RECORD: usize = 5;

/// Why a file is not a book.
#[derive(Debug)]
pub enum BookError {
    /// It could not be read.
    Io(std::io::Error),
    /// It was read, but is not in the book's format.
    Format(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(error) => write!(f, "cannot read the opening book: {error}"),
            BookError::Format(detail) => write!(f, "not an opening book: {detail}"),
        }
    }
}

impl std::error::Error for BookError {}

/// An opening book, held in memory: about 25 MB for the full book.
///
/// A position is looked up under its own code, then under its mirror
/// image's: a book may list either.
pub struct Book {
    codes: Vec<i32>,
    scores: Vec<i8>,
    /// For each value of a code's top `INDEX_BITS` bits (in code order),
    /// where its codes start in `codes`: a lookup searches a handful of
    /// entries instead of the whole book.
    index: Vec<u32>,
}

const INDEX_BITS: u32 = 20;

/// A code's place in the index: its top bits, in the codes' signed order.
#[inline(always)]
fn bucket(code: i32) -> usize {
    ((code as u32 ^ 0x8000_0000) >> (32 - INDEX_BITS)) as usize
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Book({} positions)", self.codes.len())
    }
}

impl Book {
    /// Reads a book file.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        Book::from_bytes(&std::fs::read(path).map_err(BookError::Io)?)
    }

    /// Reads a book from its bytes, checking that they are whole records
    /// sorted by position code.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(RECORD) {
            return Err(BookError::Format(format!(
                "{} bytes is not a whole number of {RECORD}-byte records",
                bytes.len()
            )));
        }
        Book::from_records(
            bytes
                .chunks_exact(RECORD)
                .map(|record| (i32::from_be_bytes([record[0], record[1], record[2], record[3]]), record[4] as i8)),
        )
    }

    /// The book built into the crate: the same positions and scores as the
    /// file that `scripts/fetch-opening-book.sh` fetches (about 21 MB),
    /// carried in the compact form `scripts/compact-opening-book.sh` writes
    /// (2.3 MB): each position under the smaller of its own code and its
    /// mirror image's, sorted, the codes as differences between neighbours
    /// (4 bytes each, big endian, the first from `i32::MIN`), then the
    /// scores (a byte each), compressed with zstd. Decoding it takes about
    /// 21 MB and a fraction of a second; the result is the same as
    /// [`Book::load`] of the file.
    #[cfg(feature = "book")]
    pub fn embedded() -> Result<Book, BookError> {
        use std::io::Read;
        static COMPACT: &[u8] = include_bytes!("../../../data/connect4/book-12ply.zst");
        let mut bytes = Vec::new();
        ruzstd::decoding::StreamingDecoder::new(COMPACT)
            .map_err(|error| BookError::Format(format!("the built-in book: {error}")))?
            .read_to_end(&mut bytes)
            .map_err(BookError::Io)?;
        Book::from_compact(&bytes)
    }

    /// Reads a book in the compact form of [`Book::embedded`], decompressed.
    pub fn from_compact(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(RECORD) {
            return Err(BookError::Format(format!(
                "{} bytes is not a whole number of {RECORD}-byte records",
                bytes.len()
            )));
        }
        let (deltas, scores) = bytes.split_at(bytes.len() / RECORD * 4);
        let mut code = i32::MIN;
        Book::from_records(deltas.chunks_exact(4).zip(scores).map(|(delta, &score)| {
            code = code.wrapping_add(u32::from_be_bytes([delta[0], delta[1], delta[2], delta[3]]) as i32);
            (code, score as i8)
        }))
    }

    /// A book from its records, checking that they are sorted by code and
    /// that every score is one a position can have.
    fn from_records(records: impl ExactSizeIterator<Item = (i32, i8)>) -> Result<Book, BookError> {
        let mut codes = Vec::with_capacity(records.len());
        let mut scores = Vec::with_capacity(records.len());
        for (i, (code, score)) in records.enumerate() {
            if codes.last().is_some_and(|&last| last >= code) {
                return Err(BookError::Format(format!("record {i} is out of order")));
            }
            if score.unsigned_abs() > 100 || (score != 0 && score.unsigned_abs() < 100 - 42) {
                return Err(BookError::Format(format!("record {i} has the score {score}, which no position has")));
            }
            codes.push(code);
            scores.push(score);
        }
        let mut index = vec![0u32; (1 << INDEX_BITS) + 1];
        for &code in &codes {
            index[bucket(code) + 1] += 1;
        }
        for b in 1..index.len() {
            index[b] += index[b - 1];
        }
        Ok(Book { codes, scores, index })
    }

    /// Positions listed.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// True when the book lists nothing.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The exact score of a position with [`BOOK_STONES`] stones, if listed:
    /// the value for the side to move (+1, 0, -1) and the plies to the end
    /// of the game under best play (the quickest win, the slowest loss).
    pub fn probe(&self, position: &Connect4) -> Option<(i64, u32)> {
        let (current, mask) = position.bitboards();
        if mask.count_ones() != BOOK_STONES {
            return None;
        }
        // With an even number of stones the side to move is X.
        let x = current;
        let score = self.lookup(code(x, mask)).or_else(|| {
            let mirror = position.mirrored();
            let (x, mask) = mirror.bitboards();
            self.lookup(code(x, mask))
        })?;
        let stones = mask.count_ones();
        let plies = (100 - score.unsigned_abs() as u32).min(42 - stones);
        Some(match score {
            0 => (0, 42 - stones),
            s if s > 0 => (1, plies),
            _ => (-1, plies),
        })
    }

    /// Every position the book lists, with its score as the book stores it
    /// (see the module map), in the book's order.
    pub fn positions(&self) -> impl Iterator<Item = (Connect4, i8)> + '_ {
        self.codes.iter().zip(&self.scores).map(|(&code, &score)| (position(code), score))
    }

    #[inline]
    fn lookup(&self, code: i32) -> Option<i8> {
        let b = bucket(code);
        let (start, end) = (self.index[b] as usize, self.index[b + 1] as usize);
        self.codes[start..end].binary_search(&code).ok().map(|at| self.scores[start + at])
    }
}

/// The book's code for a position: see the module map.
fn code(x: u64, mask: u64) -> i32 {
    let mut bits: u64 = 0;
    let mut length = 0;
    let mut push = |bit: u64, n: u32| {
        bits = bits << n | bit;
        length += n;
    };
    for column in 0..WIDTH {
        for row in 0..HEIGHT {
            let cell = 1u64 << (column * (HEIGHT + 1) + row);
            if mask & cell == 0 {
                break;
            }
            push(if x & cell != 0 { 0b10 } else { 0b11 }, 2);
        }
        push(0, 1);
    }
    push(0, 1);
    // 12 stones make exactly 32 bits; the book reads them as a signed number.
    (bits << (32 - length.min(32))) as u32 as i32
}

/// The position a code stands for (the inverse of [`code`]): X, the side to
/// move, holds the stones coded `10`.
fn position(code: i32) -> Connect4 {
    let bits = code as u32;
    let (mut x, mut mask) = (0u64, 0u64);
    let mut at = 32;
    let mut next = || {
        at -= 1;
        at >= 0 && bits >> at & 1 == 1
    };
    for column in 0..WIDTH {
        let mut row = 0;
        while row < HEIGHT && next() {
            let cell = 1u64 << (column * (HEIGHT + 1) + row);
            mask |= cell;
            if !next() {
                x |= cell;
            }
            row += 1;
        }
        if row == HEIGHT {
            next();
        }
    }
    Connect4::from_bitboards(x, mask)
}

/// The book as the engine's oracle: positions of [`BOOK_STONES`] stones it
/// lists have their exact score.
impl Oracle<Connect4> for Book {
    #[inline(always)]
    fn solved(&self, position: &Connect4) -> Option<(i64, u32)> {
        self.probe(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_reads_columns_bottom_up_with_a_zero_after_each() {
        // Column 0 holds O at the bottom and X above it; the rest is empty:
        // 11 (O), 10 (X), then a 0 for each of the 7 columns and the pad.
        let (x, mask) = (0b10, 0b11);
        let expected = 0b1110_0000_0000_u64 << (32 - 12);
        assert_eq!(code(x, mask), expected as u32 as i32);
    }

    #[test]
    fn a_code_reads_back_as_its_position() {
        // X under O in column 0, O under X in column 3, a full column 6.
        let column = |c: u32| c * (HEIGHT + 1);
        let x = 1 << column(0) | 0b10 << column(3) | 0b010101 << column(6);
        let mask = 0b11 << column(0) | 0b11 << column(3) | 0b111111 << column(6);
        for (x, mask) in [(x, mask), (0b10, 0b11), (0, 0)] {
            assert_eq!(position(code(x, mask)).bitboards(), (x, mask));
        }
    }

    #[test]
    fn a_book_must_be_sorted_whole_records() {
        assert!(Book::from_bytes(&[0, 0, 0, 1, 0, 0, 0, 0]).is_err());
        assert!(Book::from_bytes(&[0, 0, 0, 2, 0, 0, 0, 0, 1, 0]).is_err());
        let book = Book::from_bytes(&[0x80, 0, 0, 1, 0, 0, 0, 0, 2, 0x9c, 0x7f, 0xff, 0xff, 0xff, 0x40])
            .expect("three records");
        assert_eq!(book.len(), 3);
        // Codes from the lowest to the highest signed value are all found.
        assert_eq!(book.lookup(i32::MIN + 1), Some(0));
        assert_eq!(book.lookup(2), Some(-100));
        assert_eq!(book.lookup(i32::MAX), Some(64));
        assert_eq!(book.lookup(3), None);
    }

    #[test]
    fn the_compact_form_holds_differences_then_scores() {
        // Codes i32::MIN + 1, 2 and i32::MAX: differences 1, 2^31 + 1 and
        // 2^31 - 3, then the scores.
        let mut bytes = Vec::new();
        for delta in [1u32, (1 << 31) + 1, (1 << 31) - 3] {
            bytes.extend(delta.to_be_bytes());
        }
        bytes.extend([0, 0x9c, 0x40]);
        let book = Book::from_compact(&bytes).expect("three records");
        assert_eq!(book.lookup(i32::MIN + 1), Some(0));
        assert_eq!(book.lookup(2), Some(-100));
        assert_eq!(book.lookup(i32::MAX), Some(64));
        // A difference of zero lists a position twice.
        bytes[4..8].copy_from_slice(&0u32.to_be_bytes());
        assert!(Book::from_compact(&bytes).is_err());
        assert!(Book::from_compact(&bytes[..14]).is_err());
    }
}
