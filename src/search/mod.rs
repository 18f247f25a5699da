//! The shared search core: the traits a game implements, the [`Score`]
//! type, and the three searches over them: plain [`minimax`],
//! [`alpha_beta`], and the [`engine`] (alpha-beta with move ordering, a
//! transposition [`Table`], iterative deepening, null-window solving and a
//! time budget).
//!
//! A game is described in three layers, split by who knows what:
//!
//! - [`Game`]: the rules (the moves, the position after a move, the
//!   outcome), and how the table tells positions and moves apart;
//! - [`Heuristics`]: what guides a search but proves nothing (the value of
//!   a line a depth limit cuts, a ranking of the moves), the least that
//!   [`minimax`] and [`alpha_beta`] take;
//! - [`Solver`]: the exact knowledge the [`engine`] prunes with (the range
//!   of outcomes, tactics of the next two plies, symmetry), every method an
//!   optional extension with an always-correct default.
//!
//! Exact knowledge from outside the game (an opening book, an endgame
//! solver) is an [`Oracle`], handed to [`engine_with_oracle`] beside the
//! position.
//!
//! A game with only its rules is searched correctly by all three searches:
//! [`Heuristics`] with an evaluation of 0 and [`Solver`] with every default
//! are enough, and the optional methods only make the searches faster.
//!
//! ```
//! use bestmove::search::{alpha_beta, engine, EngineOptions, Game, Heuristics, Limits, Solver, Table};
//!
//! /// Nim with one pile: take 1 to 3 stones; whoever takes the last one wins.
//! #[derive(Clone, Copy)]
//! struct Nim(u32);
//!
//! impl Game for Nim {
//!     type Move = u8;
//!     type Moves = std::iter::Take<std::ops::RangeInclusive<u8>>;
//!     fn outcome(&self) -> Option<i64> {
//!         (self.0 == 0).then_some(-1) // the opponent took the last stone
//!     }
//!     fn moves(&self) -> Self::Moves {
//!         (1..=3).take(self.0.min(3) as usize)
//!     }
//!     fn play(&self, take: u8) -> Self {
//!         Nim(self.0 - u32::from(take))
//!     }
//! }
//!
//! impl Heuristics for Nim {
//!     fn cut_value(&self) -> i64 {
//!         0
//!     }
//! }
//!
//! impl Solver for Nim {}
//!
//! let mut table = Table::with_bytes(1 << 20);
//! let solved = engine(&Nim(10), Limits::default(), &mut table, EngineOptions::default(), &mut |_| {})?;
//! assert_eq!((solved.best_move, solved.score.value()), (Some(2), 1)); // leave 8
//! assert_eq!(alpha_beta(&Nim(10), Limits::default())?.score, solved.score);
//! # Ok::<(), bestmove::search::Cancelled>(())
//! ```
//!
//! Nothing here knows about HTTP, JSON or a particular game. Every search is
//! negamax: scores are always from the point of view of the side to move, and
//! a parent's score is the negation of its best child's.

mod choose;
mod engine;
mod plain;
mod pv_table;
mod score;
mod table;
mod traits;

pub use choose::{choose, choose_softly, utility, Candidate, Choice, TieBreak, OUTCOME_UTILITY};
pub use engine::{
    engine, engine_with_oracle, EngineMove, EngineOptions, EngineResult, Iteration, Progress, RootMoveReport,
};
/// The random number generator [`choose`] takes, re-exported so callers
/// use the same version: `bestmove::search::fastrand::Rng::with_seed(42)`.
pub use fastrand;
pub use plain::{alpha_beta, minimax, Cancelled, Limits, RootMove, SearchResult};
use pv_table::PvTable;
use score::Packed;
pub use score::{Score, MAX_EVALUATION};
pub use table::Table;
pub use traits::{BookAnswer, Game, Heuristics, NoOracle, Oracle, OutcomeProbe, Solver, Tactics};

/// The score of a position that is not over where the search stops at
/// `ply`: its [`Heuristics::cut_value`] value, or when that is 0, its
/// [`Heuristics::estimate`] in the band between every loss and every win. Every
/// search scores a cut line this one way.
#[inline(always)]
fn cut_score<G: Heuristics, S: Packed>(pos: &G, ply: u32) -> S {
    match pos.cut_value() {
        0 => S::evaluation(pos.estimate()),
        value => S::new(value, ply),
    }
}
