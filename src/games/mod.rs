//! The games bestmove can search: each turns caller input into a validated
//! position and implements [`crate::search::Game`] for it.

pub mod tictactoe;
pub mod tree;
