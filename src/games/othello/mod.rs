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
//! # Searching
//!
//! [`Position::game`] is what the searches take. The engine solves best
//! with the endgame solver as its oracle, which answers for the last
//! [`Endgame::DEFAULT_EMPTIES`] empty squares within the engine's window;
//! a depth-limited search ranks what it cannot solve by the evaluation,
//! in the band between every loss and every win. Scores are final disc
//! differences for the side to move (empty squares to the winner), with
//! the plies to the end of the game.
//!
//! ```
//! use bestmove::games::othello::{move_name, Endgame, Position};
//! use bestmove::search::{engine_with_oracle, EngineOptions, Limits, Table};
//!
//! // FFO #1 (14 empty squares), black to move: g8 wins by 18 discs.
//! let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
//! let position = Position::from_obf(line)?;
//! let mut table = Table::with_bytes(16 << 20);
//! let oracle = Endgame::default();
//! let result = engine_with_oracle(
//!     &position.game(),
//!     &oracle,
//!     Limits::default(),
//!     &mut table,
//!     EngineOptions::default(),
//!     &mut |_| {},
//! )?;
//! assert_eq!(result.best_move.map(move_name).as_deref(), Some("g8"));
//! assert_eq!(result.score.value(), 18);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Endgame`] counts its positions in a `Cell`: make one per search
//! (it costs nothing), as the table is one per thread.
//!
//! The parts: `rules` the bitboard rules (legal moves, flips, the final
//! score); `game` the search state and its hints to the engine;
//! `evaluation` the heuristic estimate, board patterns (`patterns`) and a
//! few scalar features weighed per game stage, the weights fitted by
//! `examples/othello_fit.rs` ([`tuning`] has what it needs); `hand` the
//! hand-weighed estimate it replaced, which the fitting script's self-play
//! uses; `endgame` an exact solver for the last few empty squares, handed
//! to the engine as an oracle ([`Endgame`]); `input` caller input.

#[cfg(target_arch = "x86_64")]
mod avx2;
pub mod book;
mod endgame;
mod evaluation;
mod game;
mod hand;
mod input;
mod patterns;
mod rules;
mod served;
pub mod tuning;
pub mod weights;

pub use endgame::Endgame;
pub use evaluation::evaluate;
pub use game::{Moves, Othello};
pub use hand::evaluate as hand_evaluation;
pub use input::{
    move_name, parse_side, parse_square, square_name, ErrorKind, OthelloError, Position, Status, BOARD_SHAPE,
    MOVES_SHAPE,
};
pub use rules::{final_score, flips, last_flip_count, legal_moves, stable_discs};
pub use served::{points, read, read_game, style, MoveList, Question};

/// Builds the tables Othello reads from the crate's embedded data (the
/// evaluation's weights, expanded to every pattern index, and the opening
/// book under its eight symmetries) now rather than in the first request
/// that needs them, which would otherwise spend its budget on them.
pub fn load() {
    evaluation::load();
    book::load();
}

/// Squares on the board.
pub const SQUARES: u32 = 64;

/// The move of a side that has no legal square while the game goes on.
pub const PASS: u8 = 64;
