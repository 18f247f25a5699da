//! Othello (Reversi) on the 8x8 board: black (X) moves first from the four
//! centre discs; a move must flip at least one line of the opponent's
//! discs; a side with no such move passes, and the game ends when neither
//! side can move. The final score is the disc difference, the empty
//! squares counted for the winner (the World Othello Federation rule).
//!
//! Two views of a position, as for the other games:
//! - [`Position`] (in `input`): a validated position for the api layer,
//!   read from a move sequence (`"f5d6c3"`) or a board with a side to
//!   move, that can answer status, disc counts and legal moves, and print
//!   itself;
//! - [`Othello`] (in `game`): the compact state the searches play
//!   through, with the side to move's discs and the opponent's.
//!
//! Squares are numbered 0 to 63 as in the `.obf` files of the FFO suite:
//! a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63, columns a to h from
//! left to right, row 1 at the top. Bit `i` of a bitboard is square `i`.
//! A pass is the move [`PASS`].
//!
//! The parts: `rules` the bitboard rules (legal moves, flips, the final
//! score); `game` the search state and its hints to the engine;
//! `evaluation` the heuristic estimate, the seam where a fitted evaluation
//! goes; `endgame` an exact solver for the last few empty squares, handed
//! to the engine as an oracle ([`Endgame`]); `input` caller input.

mod endgame;
mod evaluation;
mod game;
mod input;
mod rules;

pub use endgame::Endgame;
pub use game::{Moves, Othello};
pub use input::{
    move_name, parse_side, parse_square, square_name, ErrorKind, OthelloError, Position, Status, BOARD_SHAPE,
    MOVES_SHAPE,
};
pub use rules::{final_score, flips, legal_moves};

/// Squares on the board.
pub const SQUARES: u32 = 64;

/// The move of a side that has no legal square while the game goes on.
pub const PASS: u8 = 64;
