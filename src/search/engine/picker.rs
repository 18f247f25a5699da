//! The move picker: the one owner of the per-ply move buffers, and the
//! order moves are tried in, in stages: the table's move first, alone;
//! the rest ranked (by the game's costlier knowledge, then its hints) only
//! when that move does not settle the position.

use super::*;
use crate::search::Heuristics;

impl<'a, G: Solver, S: Packed, O: Oracle<G>> Engine<'a, G, S, O> {
    #[inline(always)]
    pub(super) fn take_buffer(&mut self, ply: u32) -> Vec<(G::Move, i32)> {
        let ply = ply as usize;
        if ply >= self.buffers.len() {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut buffer = std::mem::take(&mut self.buffers[ply]);
        buffer.clear();
        buffer
    }

    #[inline(always)]
    pub(super) fn give_back(&mut self, ply: u32, buffer: Vec<(G::Move, i32)>) {
        self.buffers[ply as usize] = buffer;
    }
}

/// The number the table keeps for `mv` ([`Game::move_index`]), or
/// `NO_MOVE` when it has none.
#[inline(always)]
pub(super) fn table_move<G: Game>(mv: G::Move) -> u16 {
    G::move_index(mv).unwrap_or(NO_MOVE)
}

/// Moves by hint, highest first (stable, so equal hints keep the game's
/// order), with the table's move (`first`, as [`table_move`] numbers it)
/// before all.
#[inline(always)]
pub(super) fn order<G: Game>(moves: &mut [(G::Move, i32)], first: u16) {
    for i in 1..moves.len() {
        let item = moves[i];
        let mut j = i;
        while j > 0 && moves[j - 1].1 < item.1 {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = item;
    }
    if first != NO_MOVE {
        if let Some(at) = moves.iter().position(|&(mv, _)| table_move::<G>(mv) == first) {
            moves[..=at].rotate_right(1);
        }
    }
}

/// The first stage of a position's moves (`moves`, with the game's
/// hints): with the table's move (`hint`) among them, it goes first and
/// the rest wait, unranked, for [`stage_rest`] (true); otherwise every move
/// is ranked and ordered now (false). `left` is the plies to search below.
#[inline(always)]
pub(super) fn stage_first<G: Heuristics>(pos: &G, moves: &mut [(G::Move, i32)], hint: u16, left: u32) -> bool {
    let lazy = hint != NO_MOVE && moves.iter().any(|&(mv, _)| table_move::<G>(mv) == hint);
    if !lazy {
        pos.rank_moves_with_depth(moves, left);
    }
    order::<G>(moves, hint);
    lazy
}

/// The second stage: the moves after the table's move, ranked and ordered
/// once it did not settle the position.
#[inline(always)]
pub(super) fn stage_rest<G: Heuristics>(pos: &G, rest: &mut [(G::Move, i32)], left: u32) {
    pos.rank_moves_with_depth(rest, left);
    order::<G>(rest, NO_MOVE);
}
