//! The games bestmove can search: each turns caller input into a validated
//! position and implements the search's traits for it
//! ([`crate::search::Game`], [`crate::search::Heuristics`],
//! [`crate::search::Solver`]).

pub mod arena;
pub mod bench;
pub mod connect4;
pub mod levels;
pub mod othello;
pub mod tictactoe;
pub mod tree;

/// The JSON library whose values [`tictactoe::cells_from_json`] reads,
/// re-exported so callers use the same version.
pub use serde_json;

/// Caller input quoted in an error message, cut to 40 characters (with an
/// ellipsis) so a huge value cannot make a huge message.
pub(crate) fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
