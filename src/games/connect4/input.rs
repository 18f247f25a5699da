//! Validated Connect Four positions, read from move sequences or boards.

use std::fmt;

use super::Connect4;
use crate::games::tictactoe::Player;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Moves remain and nobody has won.
    InProgress,
    /// This player has four in a row, on these cells (`7 * row + column`,
    /// row 0 at the top as in a board).
    Won(Player, [u8; 4]),
    /// The board is full and nobody has won.
    Draw,
}

/// What is wrong with a position a caller sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Connect4Error {
    /// Not a position at all, or a move that cannot be played: `field` is
    /// the path of the offending part (`moves[5]`, `board[2][3]`).
    Invalid { field: String, message: String },
    /// A well-formed board that no game can produce.
    Impossible { field: String, message: String },
}

impl fmt::Display for Connect4Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Connect4Error::Invalid { field, message } | Connect4Error::Impossible { field, message } => {
                write!(f, "{field}: {message}")
            }
        }
    }
}

impl std::error::Error for Connect4Error {}

/// A Connect Four position some game can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// X's stones, in the bitboard layout.
    x: u64,
    /// O's stones.
    o: u64,
}

impl Position {
    /// The empty board.
    pub const EMPTY: Position = Position { x: 0, o: 0 };

    /// The side to move: X when the stone counts are equal.
    pub fn to_move(&self) -> Player {
        if self.x.count_ones() == self.o.count_ones() {
            Player::X
        } else {
            Player::O
        }
    }

    /// The state the searches play through.
    pub fn game(&self) -> Connect4 {
        let current = if self.to_move() == Player::X { self.x } else { self.o };
        Connect4::from_bitboards(current, self.x | self.o)
    }
}
