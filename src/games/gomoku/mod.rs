//! Gomoku: five in a row on a square board of 5x5 to 20x20 (15x15 by
//! default). Black (X) moves first; the players take turns putting a
//! stone on an empty square. Under the freestyle rule (the default) five
//! or more stones in a row along a row, a column or a diagonal win; under
//! the standard rule exactly five do (six or more, an overline, do not).
//! A full board with no winner is a draw.
//!
//! Squares are named as Gomoku and Renju front ends write them: a column
//! letter (`a` on the left) and a row number (1 at the bottom), `h8` the
//! centre of the 15x15 board. Inside, a square is the number
//! `row * 20 + column` ([`STRIDE`]) on every board, so a number names
//! the same square whatever the board's side.
//!
//! The parts: `rules` the board (the stones, the winner, the squares near
//! the stones, the Zobrist key, each side's windows and the squares
//! where it may make a four or five, all kept up to date stone by
//! stone); `game` the search's traits (the moves near the stones by the
//! threats they make and stop, narrowed to the
//! forced ones when a five threatens, or to the squares that may stop
//! the opponent's fours when it would win by them were the side to move
//! to pass); `threats` the provers (victory by continuous fours, and by
//! threats: fours and threes), which make a win exact and find the moves
//! that may meet the opponent's threat; `input` caller input; `served`
//! the answer.
//!
//! # The evaluation
//!
//! A window is five squares in a row on a line; it counts for a side when
//! it holds some of that side's stones and none of the other's. The
//! evaluation reads, for the side to move and for its opponent, the
//! windows of one, two, three and four stones, the empty squares near the
//! stones where a stone may make a four (it lies in a window of three),
//! and those where it may make two fours at once (in two or more such
//! windows: an open four, or fours on two lines) ([`Board::features`]).
//! Each counts its fitted weight in points, and the side to move gets
//! points for having the move: a logistic regression of the results of
//! the engine's own games on these counts (`examples/gomoku_fit.rs`),
//! scaled so that a point weighs as much as in the evaluation it replaced
//! (666 points a logit on the same games). ±20,000 stand for a position the
//! depth limit cut where the side to move makes five at once or the
//! opponent can make it on two squares. The counts are kept up to date
//! stone by stone (only the four lines through a new stone change).
//!
//! ```
//! use bestmove::games::gomoku::{forced_loss, square_name, vcf, Position, Rule};
//!
//! // X has four in a row on row 8, open at both ends; O to move has lost.
//! let names: Vec<String> = "h8 a1 i8 a3 j8 a5 k8".split(' ').map(String::from).collect();
//! let position = Position::from_names(&names, 15, Rule::Freestyle, |_| "moves".into()).unwrap();
//! let line = forced_loss(position.board(), 1000).unwrap();
//! assert_eq!(line.len(), 2);
//! assert!(vcf(position.board(), 1000).is_none());
//! assert_eq!(square_name(7 * 20 + 7), "h8");
//! //! ```

mod game;
mod input;
mod rules;
mod served;
mod threats;

pub use game::{Forcing, OUTCOME_BOUND, WIDTH};
pub use input::{parse_square, GomokuError, Position, Status, BOARD_SHAPE, MOVES_SHAPE};
pub use rules::{
    load, square_name, Board, Rule, DEFAULT_SIZE, FEATURES, MAX_SIZE, MIN_SIZE, STRIDE, WEIGHTS, WINDOW_POINTS,
};
pub use served::{points, read, read_game, style, ProverBudgets, Question, Threats, WIN_POINTS};
pub use threats::{defences, forced_loss, refutations, threat_against, vcf, vct, vct_until, Halt, Line, Proof};
