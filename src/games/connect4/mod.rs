//! Connect Four: 7 columns of 6 rows, four in a row wins, X moves first.
//!
//! Two views of a position, as for tic-tac-toe:
//! - [`Position`] (in `input`): a validated position for the api layer, read
//!   from a move sequence or a board, that can answer status, winner and
//!   winning line;
//! - [`Connect4`] (in `bitboard`): the compact state the searches play
//!   through.
//!
//! Bitboards put cell (column `c`, row `r`, row 0 at the bottom) at bit
//! `7 * c + r`: each column has a spare bit above its top row, so shifts by
//! 1, 6, 7 and 8 find lines without wrapping from one column to the next.
//!
//! The engine solves with [`Endgame`] as its oracle: the opening book (when
//! one is loaded) for the first [`BOOK_STONES`] stones, and a small exact
//! solver with a small table of its own for the last
//! [`Endgame::DEFAULT_EMPTIES`] empty cells.

mod bitboard;
mod book;
mod endgame;
mod input;
mod reachable;
mod served;

pub use bitboard::Connect4;
pub use book::{Book, BookError, BOOK_STONES};
pub use endgame::Endgame;
pub use input::{Connect4Error, Position, Status, BOARD_SHAPE, MOVES_SHAPE};
pub use served::{load_book, read, read_game, style, MoveList, Question, NO_BOOK};

/// Columns on the board.
pub const WIDTH: u32 = 7;
/// Rows on the board.
pub const HEIGHT: u32 = 6;
/// Cells on the board.
pub const CELLS: u32 = WIDTH * HEIGHT;
