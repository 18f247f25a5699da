//! An exact solver for the last few empty squares, where the general
//! engine's bookkeeping (move lists, the table, hints) costs more than the
//! search itself: a plain fail-soft alpha-beta within the engine's window,
//! moves ordered fewest replies first (fastest-first) while six or more
//! squares are empty and by parity (odd quadrants first) below, a
//! position cut without a search when the opponent's stable discs keep
//! its score at or below the window (stability cut-offs), the last two
//! empty squares played out directly, the last one scored from the count
//! of discs it flips, and a square next to none of the opponent's discs
//! never tried.
//!
//! It is handed to the engine as an [`Oracle`]: the engine asks it for the
//! exact score of every position it meets with few enough empty squares
//! when it searches to the end.

use std::cell::Cell;

use super::game::Othello;
use super::rules::{final_score, flips, last_flip_count, legal_moves, stable_discs, ADJACENT};
use crate::search::{Oracle, Score};

/// The four quadrants of the board.
const QUADRANTS: [u64; 4] = [0x0f0f_0f0f, 0xf0f0_f0f0, 0x0f0f_0f0f << 32, 0xf0f0_f0f0 << 32];

/// From this many empty squares on, moves are ordered fewest replies
/// first; below, by parity alone.
const FASTEST_FIRST_EMPTIES: u32 = 6;

/// From this many empty squares on, a position whose opponent holds
/// enough stable discs to keep the score at or below `alpha` is cut
/// without a search.
const STABILITY_EMPTIES: u32 = 4;

/// An upper bound on the score at or below `alpha` from the opponent's
/// stable discs, which it keeps to the end: at most `64 - 2 * stable`
/// for the side to move, the empty squares counted as the winner's.
#[inline(always)]
fn stability_bound(me: u64, op: u64, alpha: Packed, ply: u32) -> Option<Packed> {
    let bound = |stable: u32| pack((64 - 2 * i64::from(stable)).max(0), ply);
    // Even with every opponent disc stable the bound would be above alpha.
    if alpha == -INFINITY || bound(op.count_ones()) > alpha {
        return None;
    }
    let upper = bound(stable_discs(op, me | op).count_ones());
    (upper <= alpha).then_some(upper)
}

/// The corners: a1, h1, a8, h8.
const CORNERS: u64 = 1 | 1 << 7 | 1 << 56 | 1 << 63;

/// The quadrants with an odd number of empty squares.
#[inline(always)]
fn odd_quadrants(empty: u64) -> u64 {
    QUADRANTS.iter().filter(|&&q| (empty & q).count_ones() % 2 == 1).fold(0, |odd, q| odd | q)
}

/// A score as the search orders it (as the engine's scores): the value
/// above bit 32, the ply at which its line ends below, so that a win is
/// better the sooner and a loss the later it comes, and negation is the
/// other side's view.
type Packed = i64;
const PLY_BITS: u32 = 32;
const INFINITY: Packed = i64::MAX;

#[inline(always)]
fn pack(value: i64, ply: u32) -> Packed {
    (value << PLY_BITS) - value.signum() * i64::from(ply)
}

/// A search bound as a [`Packed`] score (the same encoding, narrower): a
/// bound beyond every score of the game, as an infinite one, which
/// compares the same with them.
#[inline(always)]
fn packed(score: Score) -> Packed {
    match (score.ply(), score.heuristic()) {
        _ if score >= Score::INFINITY => INFINITY,
        _ if score <= -Score::INFINITY => -INFINITY,
        _ if score.value() > 64 => INFINITY,
        _ if score.value() < -64 => -INFINITY,
        (Some(ply), _) => pack(score.value(), ply),
        (None, evaluation) => i64::from(evaluation.unwrap_or(0)),
    }
}

#[inline(always)]
fn unpack(score: Packed) -> (i64, u32) {
    let value = (score + (1 << (PLY_BITS - 1))) >> PLY_BITS;
    (value, ((value << PLY_BITS) - score).unsigned_abs() as u32)
}

/// The exact solver for positions with at most a given number of empty
/// squares (see the module docs), counting the positions it visits.
#[derive(Debug)]
pub struct Endgame {
    max_empties: u32,
    nodes: Cell<u64>,
}

impl Endgame {
    /// The most empty squares at which the solver pays off in the engine
    /// (measured on the FFO positions #40 and #41: from 8 to 10 are
    /// about as good, 9 the best).
    pub const DEFAULT_EMPTIES: u32 = 9;
    /// The most empty squares it accepts: beyond, its plain search is far
    /// slower than the engine.
    pub const MAX_EMPTIES: u32 = 14;

    /// A solver for positions with at most `max_empties` empty squares
    /// (at most [`Endgame::MAX_EMPTIES`]).
    pub fn new(max_empties: u32) -> Endgame {
        Endgame { max_empties: max_empties.min(Self::MAX_EMPTIES), nodes: Cell::new(0) }
    }

    /// The positions visited so far, over every solve.
    pub fn nodes(&self) -> u64 {
        self.nodes.get()
    }

    /// The exact score of `position` for the side to move, as the engine
    /// counts it: the final disc difference and the plies to the end of
    /// the game under best play (the soonest win, the latest loss). `None`
    /// for a position with more empty squares than the solver accepts.
    pub fn solve(&self, position: &Othello) -> Option<(i64, u32)> {
        if position.empties() > self.max_empties {
            return None;
        }
        let (me, op) = position.bitboards();
        Some(unpack(self.search(me, op, -INFINITY, INFINITY, 0)))
    }

    /// Fail-soft alpha-beta for the side with `me` at `ply`, within
    /// `(alpha, beta)`. Recursion is at most two plies per empty square.
    fn search(&self, me: u64, op: u64, mut alpha: Packed, beta: Packed, ply: u32) -> Packed {
        self.nodes.set(self.nodes.get() + 1);
        let empty = !(me | op);
        if empty & empty.wrapping_sub(1) == 0 {
            return self.last(me, op, empty, ply);
        }
        let empties = empty.count_ones();
        if empties == 2 {
            return self.two(me, op, empty, beta, ply);
        }
        if empties >= STABILITY_EMPTIES {
            if let Some(bound) = stability_bound(me, op, alpha, ply) {
                return bound;
            }
        }
        if empties >= FASTEST_FIRST_EMPTIES {
            return self.search_fastest_first(me, op, alpha, beta, ply);
        }
        let odd = odd_quadrants(empty);
        let mut best = -INFINITY;
        for squares in [empty & odd, empty & !odd] {
            let mut left = squares;
            while left != 0 {
                let square = left.trailing_zeros();
                left &= left - 1;
                if ADJACENT[square as usize] & op == 0 {
                    continue;
                }
                let flipped = flips(me, op, square);
                if flipped == 0 {
                    continue;
                }
                let score = -self.search(op ^ flipped, me | flipped | 1 << square, -beta, -alpha, ply + 1);
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        if best == -INFINITY {
            if legal_moves(op, me) == 0 {
                return pack(final_score(me, op), ply);
            }
            return -self.search(op, me, -beta, -alpha, ply + 1);
        }
        best
    }

    /// [`Self::search`] with the moves tried fewest replies first (corner
    /// replies counting double), then parity: where more empty squares
    /// are left, ordering pays for what it costs.
    fn search_fastest_first(&self, me: u64, op: u64, mut alpha: Packed, beta: Packed, ply: u32) -> Packed {
        let squares = legal_moves(me, op);
        if squares == 0 {
            if legal_moves(op, me) == 0 {
                return pack(final_score(me, op), ply);
            }
            return -self.search(op, me, -beta, -alpha, ply + 1);
        }
        let odd = odd_quadrants(!(me | op));
        // (order key, child's discs for the side to move then, the other's).
        let mut children = [(0i32, 0u64, 0u64); Endgame::MAX_EMPTIES as usize];
        let mut count = 0;
        let mut left = squares;
        while left != 0 && count < children.len() {
            let square = left.trailing_zeros();
            left &= left - 1;
            let flipped = flips(me, op, square);
            let (next_me, next_op) = (op ^ flipped, me | flipped | 1 << square);
            let replies = legal_moves(next_me, next_op);
            let key = 4 * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32 - (odd >> square & 1) as i32;
            // Insertion by key, lowest first.
            let mut at = count;
            while at > 0 && children[at - 1].0 > key {
                children[at] = children[at - 1];
                at -= 1;
            }
            children[at] = (key, next_me, next_op);
            count += 1;
        }
        let mut best = -INFINITY;
        for &(_, next_me, next_op) in &children[..count] {
            let score = -self.search(next_me, next_op, -beta, -alpha, ply + 1);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The score with two empty squares, `empty` (counted as a node by the
    /// caller): each square the side to move can play, the last square
    /// scored directly; a pass when it can play neither.
    #[inline(always)]
    fn two(&self, me: u64, op: u64, empty: u64, beta: Packed, ply: u32) -> Packed {
        let first = empty.trailing_zeros();
        let second = (empty & (empty - 1)).trailing_zeros();
        let mut best = -INFINITY;
        for (square, other) in [(first, second), (second, first)] {
            if ADJACENT[square as usize] & op == 0 {
                continue;
            }
            let flipped = flips(me, op, square);
            if flipped != 0 {
                self.nodes.set(self.nodes.get() + 1);
                let score = -self.last(op ^ flipped, me | flipped | 1 << square, 1 << other, ply + 1);
                if score > best {
                    best = score;
                    if best >= beta {
                        return best;
                    }
                }
            }
        }
        if best > -INFINITY {
            return best;
        }
        if legal_moves(op, me) == 0 {
            return pack(final_score(me, op), ply);
        }
        self.nodes.set(self.nodes.get() + 1);
        -self.two(op, me, empty, INFINITY, ply + 1)
    }

    /// The score with one empty square, `empty`: the side to move plays
    /// it, or passes and the opponent does, or the game ends as it stands.
    #[inline(always)]
    fn last(&self, me: u64, op: u64, empty: u64, ply: u32) -> Packed {
        if empty == 0 {
            return pack(final_score(me, op), ply);
        }
        // The board is full but for `square`: the score follows from the
        // count of discs flipped.
        let square = empty.trailing_zeros();
        let flipped = last_flip_count(me, square);
        if flipped != 0 {
            let discs = i64::from(me.count_ones() + flipped + 1);
            return pack(2 * discs - 64, ply + 1);
        }
        let flipped = last_flip_count(op, square);
        if flipped != 0 {
            let discs = i64::from(op.count_ones() + flipped + 1);
            return pack(64 - 2 * discs, ply + 2);
        }
        pack(final_score(me, op), ply)
    }
}

impl Default for Endgame {
    fn default() -> Endgame {
        Endgame::new(Endgame::DEFAULT_EMPTIES)
    }
}

impl Oracle<Othello> for Endgame {
    #[inline(always)]
    fn solved(&self, position: &Othello) -> Option<(i64, u32)> {
        self.solve(position)
    }

    /// Its scores are exact: the iterations of a search to the end may
    /// stop where it answers.
    fn in_iterations(&self) -> bool {
        true
    }

    /// A fail-soft search within the window: far fewer positions than an
    /// exact score when the window is empty, as most of the engine's are.
    #[inline(always)]
    fn solved_within(&self, position: &Othello, alpha: Score, beta: Score) -> Option<Score> {
        if position.empties() > self.max_empties {
            return None;
        }
        let (me, op) = position.bitboards();
        let (value, plies) = unpack(self.search(me, op, packed(alpha), packed(beta), 0));
        Some(Score::new(value, plies))
    }

    /// The plies to the last `max_empties` empty squares (more when a side
    /// passes).
    fn reach(&self, position: &Othello) -> Option<u32> {
        Some(position.empties().saturating_sub(self.max_empties))
    }

    #[inline(always)]
    fn nodes(&self) -> u64 {
        Endgame::nodes(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{minimax, Game, Limits};

    #[test]
    fn packed_scores_keep_value_and_ply() {
        for value in [-64, -1, 0, 1, 64] {
            for ply in [0, 1, 7, 30] {
                let (v, p) = unpack(pack(value, ply));
                assert_eq!(v, value);
                if value != 0 {
                    assert_eq!(p, ply);
                }
                assert_eq!(-pack(value, ply), pack(-value, ply));
            }
        }
    }

    #[test]
    fn search_bounds_keep_their_order_in_the_packed_encoding() {
        let bounds = [
            -Score::INFINITY,
            Score::new(-65, 3),
            Score::new(-64, 2),
            Score::new(-1, 2),
            Score::new(-1, 9),
            Score::evaluation(-300),
            Score::new(0, 4),
            Score::evaluation(300),
            Score::new(1, 9),
            Score::new(1, 2),
            Score::new(64, 1),
            Score::new(65, 1),
            Score::INFINITY,
        ];
        for pair in bounds.windows(2) {
            assert!(pair[0] <= pair[1]);
            assert!(packed(pair[0]) <= packed(pair[1]), "{:?} {:?}", pair[0], pair[1]);
        }
        for score in [Score::new(-64, 2), Score::new(-1, 9), Score::new(1, 2), Score::new(64, 1)] {
            let (value, ply) = unpack(packed(score));
            assert_eq!(Score::new(value, ply), score);
        }
        assert_eq!(packed(Score::INFINITY), INFINITY);
        assert_eq!(packed(-Score::INFINITY), -INFINITY);
    }

    #[test]
    fn windowed_answers_are_fail_soft_bounds_of_the_exact_score() {
        let mut rng = fastrand::Rng::with_seed(13);
        let solver = Endgame::new(8);
        let mut checked = 0;
        while checked < 40 {
            let mut p = Othello::START;
            while p.outcome().is_none() && p.empties() > 8 {
                let moves: Vec<u8> = p.moves().collect();
                p = p.play(moves[rng.usize(..moves.len())]);
            }
            if p.outcome().is_some() {
                continue;
            }
            let (value, plies) = solver.solve(&p).expect("few empties");
            let exact = Score::new(value, plies);
            for (alpha, beta) in [
                (-Score::INFINITY, Score::INFINITY),
                (Score::new(value - 2, 1), Score::new(value + 2, 1)),
                (Score::new(value, 40), Score::new(value, 1)),
                (Score::evaluation(-1), Score::evaluation(1)),
                (Score::new(value + 1, 30), Score::new(value + 1, 29)),
            ] {
                let found = solver.solved_within(&p, alpha, beta).expect("few empties");
                if found <= alpha {
                    assert!(exact <= found, "{p:?} {alpha:?} {beta:?}: {exact:?} above {found:?}");
                } else if found >= beta {
                    assert!(exact >= found, "{p:?} {alpha:?} {beta:?}: {exact:?} below {found:?}");
                } else {
                    assert_eq!(found, exact, "{p:?} {alpha:?} {beta:?}");
                }
            }
            checked += 1;
        }
    }

    #[test]
    fn small_endgames_match_plain_minimax_value_and_plies() {
        let mut rng = fastrand::Rng::with_seed(11);
        let solver = Endgame::new(8);
        let mut checked = 0;
        while checked < 60 {
            let mut p = Othello::START;
            while p.outcome().is_none() && p.empties() > 7 {
                let moves: Vec<u8> = p.moves().collect();
                p = p.play(moves[rng.usize(..moves.len())]);
            }
            if p.outcome().is_some() {
                continue;
            }
            let result = minimax(&p, Limits::default()).expect("not cancelled");
            let (value, plies) = solver.solve(&p).expect("few empties");
            assert_eq!(value, result.score.value(), "{p:?}");
            assert_eq!(Some(plies).filter(|_| value != 0), result.score.ply(), "{p:?}");
            checked += 1;
        }
        assert!(solver.nodes() > 0);
        assert_eq!(solver.solve(&Othello::START), None);
        // Its reach: the plies from the start to its last 8 empty squares.
        assert_eq!(solver.reach(&Othello::START), Some(52));
    }
}
