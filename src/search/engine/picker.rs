//! The move picker: the one owner of the per-ply move buffers, and the
//! order moves are tried in, in stages: the table's move first, alone;
//! the rest ranked (by the game's costlier knowledge, then its hints) only
//! when that move does not settle the position, and picked best first one
//! at a time, as the search reaches them.

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

/// Puts the table's move (`first`, as [`table_move`] numbers it) before
/// all, the others in their order; true when it was there.
#[inline(always)]
fn table_move_first<G: Game>(moves: &mut [(G::Move, i32)], first: u16) -> bool {
    if first == NO_MOVE {
        return false;
    }
    match moves.iter().position(|&(mv, _)| table_move::<G>(mv) == first) {
        Some(at) => {
            moves[..=at].rotate_right(1);
            true
        }
        None => false,
    }
}

/// Brings the move to try next to `moves[i]`: of `moves[i..]`, the one with
/// the highest hint, the first of equals, the others keeping their order.
/// Picked one at a time as the search needs them, the moves come in the
/// order of a stable sort by hint, highest first, without sorting those a
/// cut-off leaves untried.
#[inline(always)]
pub(super) fn pick<G: Game>(moves: &mut [(G::Move, i32)], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].1 > moves[best].1 {
            best = j;
        }
    }
    if best > i {
        moves[i..=best].rotate_right(1);
    }
}

/// Every move of `moves` from `i` on in the order [`pick`] would bring
/// them: a stable sort by hint, highest first.
#[inline(always)]
pub(super) fn pick_all<G: Game>(moves: &mut [(G::Move, i32)], i: usize) {
    moves[i..].sort_by_key(|&(_, hint)| std::cmp::Reverse(hint));
}

/// Positions with more moves than this have them sorted at once
/// ([`pick_all`]) rather than picked one by one: picking costs a pass over
/// the moves left for each move tried, which a few hundred moves (a wide
/// game, a generic tree's node) would make quadratic.
pub(super) const PICK_MOST: usize = 32;

/// The first stage of a position's moves (`moves`, with the game's
/// hints): with the table's move (`hint`) among them, it goes first and
/// the rest wait, unranked, for [`stage_rest`] (true); otherwise every move
/// is ranked now (false), to be picked in order by [`pick`]. `left` is the
/// plies to search below.
#[inline(always)]
pub(super) fn stage_first<G: Heuristics>(pos: &G, moves: &mut [(G::Move, i32)], hint: u16, left: u32) -> bool {
    let lazy = table_move_first::<G>(moves, hint);
    if !lazy {
        pos.rank_moves_with_depth(moves, left);
    }
    lazy
}

/// The second stage: the moves after the table's move, ranked once it did
/// not settle the position, to be picked in order by [`pick`].
#[inline(always)]
pub(super) fn stage_rest<G: Heuristics>(pos: &G, rest: &mut [(G::Move, i32)], left: u32) {
    pos.rank_moves_with_depth(rest, left);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Othello;

    #[test]
    fn picking_one_at_a_time_gives_the_stable_sort_by_hint() {
        let mut rng = fastrand::Rng::with_seed(4);
        for _ in 0..2000 {
            let len = rng.usize(0..40);
            // Few distinct hints, so that many are equal.
            let moves: Vec<(u8, i32)> = (0..len).map(|m| (m as u8, rng.i32(-3..3))).collect();
            let mut sorted = moves.clone();
            pick_all::<Othello>(&mut sorted, 0);
            let mut picked = moves.clone();
            for i in 0..len {
                pick::<Othello>(&mut picked, i);
            }
            assert_eq!(picked, sorted);
            let mut stable = moves;
            stable.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            assert_eq!(sorted, stable);
        }
    }
}
