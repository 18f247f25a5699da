//! The Connect Four state the searches play through.

use super::{HEIGHT, WIDTH};

/// A Connect Four position as two bitboards (see the module map): the
/// stones of the side to move, and all stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Connect4 {
    current: u64,
    mask: u64,
}

impl Connect4 {
    /// The state with `current` the stones of the side to move and `mask`
    /// all stones, both in the bit layout of the module map. The caller
    /// guarantees a reachable position.
    pub fn from_bitboards(current: u64, mask: u64) -> Connect4 {
        debug_assert_eq!(current & !mask, 0);
        let _ = (WIDTH, HEIGHT);
        Connect4 { current, mask }
    }
}
