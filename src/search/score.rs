//! Scores that order wins by how soon they come.

use std::fmt;
use std::ops::Neg;

/// A game value together with the ply at which the line that earns it ends,
/// in one number whose natural order is "better for the side to move".
///
/// For equal values, a positive value (a win) is better the sooner it comes,
/// and a negative one (a loss) the later it comes, so the search prefers the
/// quickest win and the slowest loss. Zero (a draw, or an even evaluation) is
/// the same at any ply, which keeps the order symmetric: `-a < -b` exactly
/// when `b < a`, so negamax may negate freely.
///
/// The ply is counted from the root of the search, not from the position, so
/// a parent's score is simply the negation of its child's.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i128);

/// Room for the ply below the value: plies are always far below 2^31.
const PLY_BITS: u32 = 32;

/// The largest heuristic evaluation a [`Score`] holds (see
/// [`Score::evaluation`]); larger ones are clamped to it.
pub const MAX_EVALUATION: i32 = 32_000;

impl Score {
    /// Beyond every real score: `-INFINITY` starts a search for a maximum.
    pub const INFINITY: Score = Score(1 << 100);

    /// A heuristic evaluation (clamped to `±MAX_EVALUATION`) of a position
    /// whose outcome no search has proven. It has the value 0 and sits in
    /// the band between every loss and every win, whatever their ply:
    /// outcomes are decisive, evaluations only order what lies between.
    /// The evaluation 0 is the draw.
    #[inline(always)]
    pub fn evaluation(evaluation: i32) -> Score {
        Score(evaluation.clamp(-MAX_EVALUATION, MAX_EVALUATION) as i128)
    }

    /// The heuristic evaluation this score holds: `Some` for a score of
    /// value 0 (`Some(0)` for a draw), `None` for any other value.
    pub fn heuristic(self) -> Option<i32> {
        (self.value() == 0).then_some(self.0 as i32)
    }

    /// The score of `value` (side to move's view) for a line ending `ply`
    /// plies from the root. `value` must not be `i64::MIN`.
    #[inline(always)]
    pub fn new(value: i64, ply: u32) -> Score {
        let value = value as i128;
        Score((value << PLY_BITS) - value.signum() * ply as i128)
    }

    /// The greatest score below this one (a win one ply later, a loss one
    /// ply sooner, an evaluation one point lower).
    pub fn just_below(self) -> Score {
        Score(self.0 - 1)
    }

    /// The game value, without the ply.
    pub fn value(self) -> i64 {
        ((self.0 + (1 << (PLY_BITS - 1))) >> PLY_BITS) as i64
    }

    /// The ply from the root at which the line ends; `None` for a zero value,
    /// whose ply is not recorded.
    pub fn ply(self) -> Option<u32> {
        let value = self.value() as i128;
        (value != 0).then(|| ((value << PLY_BITS) - self.0).unsigned_abs() as u32)
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// How the search holds scores while it runs: [`Score`] itself, or the
/// faster [`SmallScore`] when every value fits in 32 bits.
pub(super) trait Packed: Copy + Ord + Neg<Output = Self> {
    /// Beyond every real score.
    const INFINITY: Self;
    /// As [`Score::new`].
    fn new(value: i64, ply: u32) -> Self;
    /// The same score as a [`Score`].
    fn score(self) -> Score;
    /// The game value and the ply (0 for a zero value).
    fn parts(self) -> (i64, u32);
    /// The largest number below this one: `(s.below(), s)` is the null
    /// window that asks "is the score at least `s`?".
    fn below(self) -> Self;
    /// The smallest number above this one.
    #[inline(always)]
    fn above(self) -> Self {
        -(-self).below()
    }
    /// As [`Score::evaluation`].
    fn evaluation(evaluation: i32) -> Self;
    /// The evaluation of a score of value 0 (what lies below the value).
    fn band(self) -> i32;

    /// The score relative to a position at `ply`, in 32 bits for the
    /// transposition table: the value in the high half, the plies from the
    /// position to the end of the line in the low half, ordered as scores
    /// are. `None` when it does not fit.
    #[inline(always)]
    fn to_table(self, ply: u32) -> Option<i32> {
        let (value, end) = self.parts();
        if value == 0 {
            // An evaluation is kept as it is: only outcomes are rebased by
            // ply. It fits below every outcome's encoding, whose distance
            // is kept under 2^15.
            return Some(self.band());
        }
        let distance = end.checked_sub(ply)?;
        if value.unsigned_abs() >= 1 << 15 || distance >= 1 << 15 {
            return None;
        }
        Some(((value << 16) - value.signum() * distance as i64) as i32)
    }

    /// The score stored by [`Packed::to_table`], for a position at `ply`.
    #[inline(always)]
    fn from_table(stored: i32, ply: u32) -> Self {
        let stored = stored as i64;
        let value = (stored + (1 << 15)) >> 16;
        if value == 0 {
            return Self::evaluation(stored as i32);
        }
        let distance = ((value << 16) - stored).unsigned_abs() as u32;
        Self::new(value, ply + distance)
    }
}

impl Packed for Score {
    const INFINITY: Score = Score::INFINITY;
    #[inline(always)]
    fn new(value: i64, ply: u32) -> Score {
        Score::new(value, ply)
    }
    #[inline(always)]
    fn score(self) -> Score {
        self
    }
    #[inline(always)]
    fn parts(self) -> (i64, u32) {
        (self.value(), self.ply().unwrap_or(0))
    }
    #[inline(always)]
    fn below(self) -> Score {
        Score(self.0 - 1)
    }
    #[inline(always)]
    fn evaluation(evaluation: i32) -> Score {
        Score::evaluation(evaluation)
    }
    #[inline(always)]
    fn band(self) -> i32 {
        self.0 as i32
    }
}

/// [`Score`]'s encoding in 64 bits, for values within `±(2^31 - 1)`: the
/// value above bit 32 and the ply below, which keeps the order and the
/// symmetric negation for every ply a `u32` can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct SmallScore(i64);

impl Packed for SmallScore {
    const INFINITY: SmallScore = SmallScore(i64::MAX);
    #[inline(always)]
    fn new(value: i64, ply: u32) -> SmallScore {
        SmallScore((value << PLY_BITS) - value.signum() * ply as i64)
    }
    fn score(self) -> Score {
        // Widening keeps the encoding: both put the value above bit 32.
        Score(self.0 as i128)
    }
    #[inline(always)]
    fn parts(self) -> (i64, u32) {
        let value = (self.0 + (1 << (PLY_BITS - 1))) >> PLY_BITS;
        (value, ((value << PLY_BITS) - self.0).unsigned_abs() as u32)
    }
    #[inline(always)]
    fn below(self) -> SmallScore {
        SmallScore(self.0 - 1)
    }
    #[inline(always)]
    fn evaluation(evaluation: i32) -> SmallScore {
        SmallScore(i64::from(evaluation.clamp(-MAX_EVALUATION, MAX_EVALUATION)))
    }
    #[inline(always)]
    fn band(self) -> i32 {
        self.0 as i32
    }
}

impl Neg for SmallScore {
    type Output = SmallScore;
    #[inline(always)]
    fn neg(self) -> SmallScore {
        SmallScore(-self.0)
    }
}

impl fmt::Debug for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.ply(), self.heuristic()) {
            (Some(ply), _) => write!(f, "Score({} at ply {})", self.value(), ply),
            (None, Some(evaluation)) if evaluation != 0 => write!(f, "Score(evaluation {evaluation})"),
            (None, _) => write!(f, "Score({})", self.value()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sooner_wins_and_later_losses_are_better() {
        assert!(Score::new(1, 3) > Score::new(1, 5));
        assert!(Score::new(-1, 5) > Score::new(-1, 3));
        assert!(Score::new(0, 9) == Score::new(0, 1));
        assert!(Score::new(2, 99) > Score::new(1, 1));
        assert!(Score::new(-1, 1) > Score::new(-2, 99));
    }

    #[test]
    fn value_and_ply_survive_the_encoding_at_the_extremes() {
        for value in [i64::MAX, i64::MIN + 1, 1, -1, 0, 300, -500] {
            for ply in [0, 1, 9, 1000, 2_000_000] {
                let score = Score::new(value, ply);
                assert_eq!(score.value(), value);
                assert_eq!(score.ply(), (value != 0).then_some(ply));
                assert_eq!((-score).value(), -value);
                assert!(-Score::INFINITY < score && score < Score::INFINITY);
            }
        }
    }

    #[test]
    fn small_scores_widen_to_the_same_score() {
        let small = i32::MAX as i64;
        for value in [small, -small, 1, -1, 0, 300, -500] {
            for ply in [0, 1, 9, 1000, 2_000_000, u32::MAX] {
                let score = SmallScore::new(value, ply);
                assert_eq!(score.score(), Score::new(value, ply));
                assert_eq!((-score).score(), -Score::new(value, ply));
                assert!(-SmallScore::INFINITY < score && score < SmallScore::INFINITY);
            }
        }
    }

    #[test]
    fn table_scores_keep_value_distance_and_order() {
        let scores = [(1, 3), (1, 9), (0, 4), (-1, 8), (-1, 30), (300, 12), (-32767, 5)];
        let mut packed: Vec<(SmallScore, i32)> = Vec::new();
        for (value, ply) in scores {
            let score = SmallScore::new(value, ply);
            let stored = score.to_table(2).expect("fits");
            // Read back two plies deeper: the same distance from the position.
            assert_eq!(SmallScore::from_table(stored, 4), SmallScore::new(value, if value == 0 { 0 } else { ply + 2 }));
            packed.push((score, stored));
        }
        for &(a, sa) in &packed {
            for &(b, sb) in &packed {
                assert_eq!(a.cmp(&b), sa.cmp(&sb));
            }
        }
        assert_eq!(SmallScore::new(1 << 20, 3).to_table(0), None);
        assert_eq!(Score::new(5, 1 << 17).to_table(0), None);
    }

    #[test]
    fn evaluations_lie_between_every_loss_and_every_win_and_survive_the_table() {
        let slowest_win = Score::new(1, 4095);
        let slowest_loss = Score::new(-1, 4096);
        for evaluation in [-MAX_EVALUATION, -300, -1, 0, 1, 300, MAX_EVALUATION, i32::MAX] {
            let score = Score::evaluation(evaluation);
            assert!(slowest_loss < score && score < slowest_win, "{evaluation}");
            assert_eq!(score.value(), 0);
            assert_eq!(score.ply(), None);
            assert_eq!(score.heuristic(), Some(evaluation.min(MAX_EVALUATION)));
            assert_eq!((-score).heuristic(), Some(-evaluation.min(MAX_EVALUATION)));
            let small = SmallScore::evaluation(evaluation);
            assert_eq!(small.score(), score);
            for ply in [0, 7] {
                let stored = small.to_table(ply).expect("fits");
                assert!(SmallScore::new(-1, 4096).to_table(0).unwrap() < stored);
                assert!(stored < SmallScore::new(1, 4095).to_table(0).unwrap());
                assert_eq!(SmallScore::from_table(stored, ply + 3), small, "only outcomes are rebased");
            }
        }
        assert!(Score::evaluation(5) > Score::evaluation(4));
        assert_eq!(Score::evaluation(0), Score::new(0, 17));
        assert_eq!(Score::new(1, 3).heuristic(), None);
    }

    #[test]
    fn negation_reverses_the_order() {
        let scores = [Score::new(1, 3), Score::new(1, 5), Score::new(0, 4), Score::new(-1, 2), Score::new(-1, 6)];
        for &a in &scores {
            for &b in &scores {
                assert_eq!(a.cmp(&b), (-b).cmp(&-a));
            }
        }
    }
}
