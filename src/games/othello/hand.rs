//! A hand-weighed estimate of an Othello position, the one the fitted
//! evaluation (`evaluation`) replaced in the searches: a fixed player for
//! the fitting script's self-play, so that its games do not depend on the
//! weights it fits.
//!
//! It is weighed by hand from the features the literature agrees on:
//! mobility, potential mobility (frontier), corners, the X and C squares
//! next to an empty corner, discs anchored on an edge by an owned corner,
//! and near the end the discs themselves and the parity of the empties.

use super::rules::{legal_moves, neighbours};

/// The four corners: a1, h1, a8, h8.
pub(super) const CORNERS: u64 = 1 | 1 << 7 | 1 << 56 | 1 << 63;

/// Per corner (a1, h1, a8, h8): the corner, its X square (diagonally next
/// to it) and its two C squares (next to it on the edges).
const CORNER_AREAS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, 1 << 1 | 1 << 8),
    (1 << 7, 1 << 14, 1 << 6 | 1 << 15),
    (1 << 56, 1 << 49, 1 << 48 | 1 << 57),
    (1 << 63, 1 << 54, 1 << 55 | 1 << 62),
];

/// Weights, in points (about a hundredth of a disc at the end of the game).
const MOBILITY: i32 = 70;
/// A move on a corner counts this much more than another move.
const CORNER_MOBILITY: i32 = 150;
const FRONTIER: i32 = 25;
const CORNER: i32 = 800;
const X_SQUARE: i32 = 300;
const C_SQUARE: i32 = 100;
const EDGE_ANCHOR: i32 = 120;
/// Below this many empty squares, discs start to count, more as the end
/// comes nearer.
const DISC_EMPTIES: u32 = 20;
const DISC: i32 = 8;
/// The side to move with an odd number of empties moves last, unless a
/// pass intervenes.
const PARITY: i32 = 60;

/// The estimate for the side to move, whose discs are `me`, against `op`:
/// positive favours the side to move, symmetric (the opponent's estimate
/// of the same board is the negation, up to the parity term, which
/// belongs to whoever moves), within `±MAX_EVALUATION`.
#[inline]
pub fn evaluate(me: u64, op: u64) -> i32 {
    let empty = !(me | op);
    let empties = empty.count_ones();
    let (my_moves, op_moves) = (legal_moves(me, op), legal_moves(op, me));
    let mut points = MOBILITY * (my_moves.count_ones() as i32 - op_moves.count_ones() as i32)
        + CORNER_MOBILITY * ((my_moves & CORNERS).count_ones() as i32 - (op_moves & CORNERS).count_ones() as i32);
    // Potential mobility: empty squares next to the opponent's discs are
    // where the side to move may later play, and its own frontier is the
    // opponent's.
    points += FRONTIER * (neighbours(op, empty).count_ones() as i32 - neighbours(me, empty).count_ones() as i32);
    for &(corner, x, c) in &CORNER_AREAS {
        if corner & empty != 0 {
            // Next to an empty corner, a disc hands the corner over.
            points -= X_SQUARE * (count(me & x) - count(op & x));
            points -= C_SQUARE * (count(me & c) - count(op & c));
        } else {
            points += CORNER * (count(me & corner) - count(op & corner));
        }
    }
    points += EDGE_ANCHOR * (anchored(me) - anchored(op));
    if empties < DISC_EMPTIES {
        points += DISC * (DISC_EMPTIES - empties) as i32 * (count(me) - count(op));
    }
    if empties % 2 == 1 {
        points += PARITY;
    }
    points
}

#[inline(always)]
fn count(bits: u64) -> i32 {
    bits.count_ones() as i32
}

/// The edge discs of `discs` joined to one of their corners by an unbroken
/// run along the edge: a proxy for stable discs, which can never be
/// flipped.
#[inline]
fn anchored(discs: u64) -> i32 {
    // Each edge as 8 bits from one corner to the other: the runs from
    // either end.
    let run = |edge: u8| -> i32 {
        if edge == 0xff {
            return 8;
        }
        (edge.trailing_ones() + edge.leading_ones()) as i32
    };
    let top = discs as u8;
    let bottom = (discs >> 56) as u8;
    let column = |shift: u32| -> u8 {
        let mut edge = 0u8;
        for row in 0..8 {
            edge |= ((discs >> (row * 8 + shift) & 1) as u8) << row;
        }
        edge
    };
    run(top) + run(bottom) + run(column(0)) + run(column(7))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_count_for_their_owner_and_x_squares_against() {
        let centre = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
        let base = evaluate(centre.0, centre.1);
        assert!(evaluate(centre.0 | 1, centre.1) > base, "a corner is good");
        assert!(evaluate(centre.0 | 1 << 9, centre.1) < base, "an X square next to an empty corner is bad");
    }

    #[test]
    fn edge_runs_from_corners_are_counted_once_per_edge() {
        assert_eq!(anchored(0), 0);
        assert_eq!(anchored(0b111), 3 + 1, "a1-c1 along the top, a1 down the a column");
        assert_eq!(anchored(0xff), 8 + 1 + 1);
        assert_eq!(anchored(0b10), 0, "b1 alone is not anchored");
    }

    #[test]
    fn the_estimate_stays_within_the_evaluation_band() {
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..2000 {
            let filled = rng.u64(..);
            let me = filled & rng.u64(..);
            let value = evaluate(me, filled & !me);
            assert!(value.abs() <= crate::search::MAX_EVALUATION, "{value}");
        }
    }
}
