//! The prover: victory by continuous fours (VCF), the threat-space search
//! whose every step leaves the defender one reply.
//!
//! A four threatens five on one square. If the defender cannot make five
//! first, every move but that square loses at once, so the defender's
//! reply is forced; a four that threatens five on two squares (an open
//! four, a double four) cannot be met at all. A line of such fours that
//! ends in five is therefore a forced win, whatever the defender's other
//! moves: nothing in it rests on the moves the engine leaves unsearched.
//! Where the defender's forced block makes a four of its own, the
//! attacker must block it in turn, and the line goes on only if that
//! block is a four too.
//!
//! The fours are tried by iterative deepening on their number, so the
//! line found is the shortest by continuous fours (a win by threes may
//! come sooner: a length proven is an upper bound on the plies to the
//! end). A search that runs out of its positions proves nothing.

use std::collections::HashSet;

use super::rules::Board;

/// A forced line, from the side to move's first stone to the five.
pub type Line = Vec<usize>;

/// The positions a prover may visit, at most.
pub const ROOT_BUDGET: u64 = 5_000;
/// The most fours in a line looked for.
pub const MAX_FOURS: u32 = 12;

/// A VCF search within a budget of positions.
struct Prover {
    nodes: u64,
    budget: u64,
    /// Positions (with the fours left) proven to have no VCF.
    failed: HashSet<(u64, u32)>,
}

impl Prover {
    fn search(&mut self, board: &Board, fours: u32) -> Option<Line> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let me = board.to_move();
        if let Some(&win) = board.winning_squares(me).first() {
            return Some(vec![win]);
        }
        if fours == 0 || self.failed.contains(&(board.key(), fours)) {
            return None;
        }
        let theirs = board.winning_squares(me.other());
        let tries: Vec<usize> = match theirs[..] {
            [] => board.near_empty().filter(|&cell| board.may_make_four(cell, me)).collect(),
            // The opponent's four must be blocked first.
            [only] => vec![only],
            _ => return None,
        };
        for cell in tries {
            let next = board.play(cell);
            if next.winner().is_some() {
                return Some(vec![cell]);
            }
            let threats = next.winning_squares(me);
            if threats.is_empty() || next.full() || next.can_win(me.other()) {
                continue;
            }
            // The defender blocks one square; with two, the other makes five.
            if let [block, five, ..] = threats[..] {
                return Some(vec![cell, block, five]);
            }
            let block = threats[0];
            let after = next.play(block);
            if after.over() {
                continue;
            }
            if let Some(rest) = self.search(&after, fours - 1) {
                let mut line = vec![cell, block];
                line.extend(rest);
                return Some(line);
            }
            if self.nodes > self.budget {
                return None;
            }
        }
        if self.nodes <= self.budget {
            self.failed.insert((board.key(), fours));
        }
        None
    }
}

/// The shortest win by continuous fours for the side to move (a five at
/// once included), found within `budget` positions: the line from its
/// first stone to the five, every defender reply in it forced.
pub fn vcf(board: &Board, budget: u64) -> Option<Line> {
    // A line of fours starts with a four, or a five: in a window of five
    // that holds three or four of the attacker's stones and none of the
    // defender's.
    if board.over() || !board.may_threaten(board.to_move()) {
        return None;
    }
    let mut prover = Prover { nodes: 0, budget, failed: HashSet::new() };
    for fours in 0..=MAX_FOURS {
        if let Some(line) = prover.search(board, fours) {
            return Some(line);
        }
        if prover.nodes > budget {
            return None;
        }
    }
    None
}

/// A proven loss for the side to move, within `budget` positions: the
/// opponent makes five on two squares (the line: a block, the five), or
/// on one square that the side to move must take, after which the
/// opponent wins by continuous fours (the line: that block, then the
/// opponent's win). Every other move of the side to move loses at once.
pub fn forced_loss(board: &Board, budget: u64) -> Option<Line> {
    if board.over() || board.can_win(board.to_move()) {
        return None;
    }
    match board.winning_squares(board.to_move().other())[..] {
        [block, five, ..] => Some(vec![block, five]),
        [block] => {
            let after = board.play(block);
            let mut line = vec![block];
            line.extend(vcf(&after, budget)?);
            Some(line)
        }
        [] => None,
    }
}
