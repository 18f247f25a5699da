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
//! the stones, the Zobrist key, each side's window points and fours, all
//! kept up to date stone by stone); `game` the search's traits (the moves
//! near the stones by the threats they make and stop, narrowed to the
//! forced ones when a five threatens, or to the squares that may stop
//! the opponent's fours when it would win by them were the side to move
//! to pass); `threats` the provers (victory by continuous fours, and by
//! threats: fours and threes), which make a win exact and find the moves
//! that may meet the opponent's threat; `input` caller input; `served`
//! the answer.
//!
//! # The evaluation
//!
//! Every window of five squares on a line counts for the side whose
//! stones it holds when it holds no stone of the other: 1 point for one
//! stone, 12 for two, 120 for three, 1,000 for four ([`WINDOW_POINTS`]).
//! An open four (`.XXXX.`) lies in two windows of four, a four in one; an
//! open three in three windows of three, a closed three in fewer: the
//! line patterns weigh as the windows they fill. The evaluation is the
//! side to move's points less the opponent's, plus 20 for the move and
//! 300 for each of the side to move's own windows of three (a three of its
//! own is a move from a four, the opponent's must be answered), and
//! ±20,000 for a position the depth limit cut where the side to move makes
//! five at once or the opponent can make it on two squares.
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
pub use rules::{square_name, Board, Rule, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, STRIDE, WINDOW_POINTS};
pub use served::{points, read, read_game, style, ProverBudgets, Question, Threats, WIN_POINTS};
pub use threats::{defences, forced_loss, refutations, threat_against, vcf, vct, vct_until, Halt, Line, Proof};
