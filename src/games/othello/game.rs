//! The Othello state the searches play through, and what it tells the
//! engine: move order hints, a table key, the range of scores.

#[cfg(target_arch = "x86_64")]
use super::avx2;
use super::book;
use super::evaluation;
use super::hand::CORNERS;
use super::rules::{final_score, flips, legal_moves_fast as legal_moves, neighbours};
use super::{PASS, SQUARES};
use crate::search::{BookAnswer, Game, Heuristics, OutcomeProbe, Solver, Tactics};

/// An Othello position as two bitboards (see the module map): the discs
/// of the side to move and the opponent's. Colours do not matter to the
/// search: the same discs with the other colour to move is the same game.
///
/// A pass is a move ([`PASS`]), the only one of a side that cannot play
/// while the game goes on; the game ends when neither side can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Othello {
    me: u64,
    op: u64,
}

/// Hints for the engine's move order by square (a1 first): corners first,
/// then the edges away from the corners, the squares next to a corner
/// (X and C squares) last.
const SQUARE_HINTS: [i32; 64] = {
    const QUADRANT: [[i32; 4]; 4] = [[90, -30, 20, 10], [-30, -60, -5, -5], [20, -5, 5, 0], [10, -5, 0, 0]];
    let mut hints = [0; 64];
    let mut square = 0;
    while square < 64 {
        let (c, r) = (square % 8, square / 8);
        let (c, r) = (if c < 4 { c } else { 7 - c }, if r < 4 { r } else { 7 - r });
        hints[square] = QUADRANT[r][c];
        square += 1;
    }
    hints
};

/// The four quadrants of the board, for parity.
const QUADRANTS: [u64; 4] = [0x0f0f_0f0f, 0xf0f0_f0f0, 0x0f0f_0f0f << 32, 0xf0f0_f0f0 << 32];

/// A move into a quadrant with an odd number of empty squares gains this:
/// the side that plays last in a region tends to keep what it takes.
const PARITY_HINT: i32 = 40;
/// What each reply left to the opponent costs a move's hint: fewest
/// replies first (fastest-first), the rule that orders endgame searches
/// best, weighed well above the square and parity hints.
const MOBILITY_HINT: i32 = 256;
/// Each empty square next to one of the mover's discs after a move costs
/// this much, three eighths of a reply: the opponent's potential
/// replies (measured on FFO #40 to #49: 9% fewer positions at 96 than
/// without, fewer than at 32, 64, 128, 160 or 256).
const POTENTIAL_HINT: i32 = 96;
/// A reply on a corner costs this much more.
const CORNER_REPLY_HINT: i32 = 512;
/// From this many empty squares on, a move's hint also weighs the fitted
/// evaluation of the position it leads to: where many squares are left,
/// mobility alone orders poorly, and the searches below are large enough
/// to pay for an evaluation per move.
const EVALUATION_HINT_EMPTIES: u32 = 12;
/// ... and when at least this many plies are left to search below the
/// position: nearer the leaves, an evaluation per move costs more than
/// the order saves.
const EVALUATION_HINT_PLIES: u32 = 3;
/// The evaluation's weight in a hint, as a divisor of its points (100 to
/// a disc): half a point per point, so that ten discs weigh about as much
/// as two replies.
const EVALUATION_HINT_DIVISOR: i32 = 2;

impl Othello {
    /// The start of a game: d5 and e4 black, d4 and e5 white, black to move.
    pub const START: Othello = Othello { me: 1 << 28 | 1 << 35, op: 1 << 27 | 1 << 36 };

    /// The position with `me` the discs of the side to move and `op` the
    /// opponent's, in the bit layout of the module map. Squares in both
    /// count as the opponent's.
    pub const fn from_bitboards(me: u64, op: u64) -> Othello {
        Othello { me: me & !op, op }
    }

    /// The discs of the side to move, and the opponent's.
    pub const fn bitboards(&self) -> (u64, u64) {
        (self.me, self.op)
    }

    /// The empty squares.
    pub const fn empty(&self) -> u64 {
        !(self.me | self.op)
    }

    /// The number of empty squares.
    pub const fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// The squares where the side to move can play, as a bitboard.
    #[inline(always)]
    pub fn legal_squares(&self) -> u64 {
        legal_moves(self.me, self.op)
    }

    /// True when neither side can play: the game is over.
    #[inline(always)]
    pub fn is_over(&self) -> bool {
        self.legal_squares() == 0 && legal_moves(self.op, self.me) == 0
    }

    /// The final disc difference for the side to move, the empty squares
    /// counted for the winner, as if the game ended now.
    #[inline(always)]
    pub fn final_score(&self) -> i64 {
        final_score(self.me, self.op)
    }

    /// The discs `square` flips for the side to move: none when it is not
    /// a legal move (or not a square).
    #[inline(always)]
    pub fn flips(&self, square: u8) -> u64 {
        if u32::from(square) >= SQUARES || self.empty() >> square & 1 == 0 {
            return 0;
        }
        flips(self.me, self.op, u32::from(square))
    }

    /// Raises the hints of `moves` by the replies each leaves the opponent
    /// (fastest-first), now and potentially, and, if `evaluate`, by the
    /// evaluation of the position after it.
    #[inline(always)]
    fn rank(&self, moves: &mut [(u8, i32)], evaluate: bool) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2.
            return unsafe { self.rank_avx2(moves, evaluate) };
        }
        self.rank_with(moves, evaluate, legal_moves, flips);
    }

    /// [`Othello::rank`] with the AVX2 move generator and flips inlined.
    ///
    /// # Safety
    ///
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn rank_avx2(&self, moves: &mut [(u8, i32)], evaluate: bool) {
        self.rank_with(moves, evaluate, |me, op| avx2::legal_moves(me, op), |me, op, sq| avx2::flips(me, op, sq));
    }

    /// [`Othello::rank`], the replies by `legal` and each move's discs
    /// flipped by `flip`.
    #[inline(always)]
    fn rank_with(
        &self,
        moves: &mut [(u8, i32)],
        evaluate: bool,
        legal: impl Fn(u64, u64) -> u64,
        flip: impl Fn(u64, u64, u32) -> u64,
    ) {
        for (mv, hint) in moves {
            if *mv >= PASS {
                continue;
            }
            let child = self.after(*mv, flip(self.me, self.op, u32::from(*mv)));
            let replies = legal(child.me, child.op);
            *hint -= MOBILITY_HINT * replies.count_ones() as i32
                + CORNER_REPLY_HINT * (replies & CORNERS).count_ones() as i32;
            // The empty squares next to the mover's discs: where the
            // opponent may find replies later (potential mobility).
            *hint -= POTENTIAL_HINT * neighbours(child.op, child.empty()).count_ones() as i32;
            if evaluate {
                // The child's evaluation is the opponent's.
                *hint -= child.estimate() / EVALUATION_HINT_DIVISOR;
            }
        }
    }

    /// The position after the side to move plays on `square` and turns
    /// the discs of `flipped` (the move's flips), the opponent to move.
    #[inline(always)]
    const fn after(&self, square: u8, flipped: u64) -> Othello {
        Othello { me: self.op ^ flipped, op: self.me | flipped | 1 << square }
    }

    /// The same game with the other side to move, nothing played.
    #[inline(always)]
    pub const fn passed(&self) -> Othello {
        Othello { me: self.op, op: self.me }
    }
}

/// The squares of a bitboard, ascending, then a pass if asked for.
#[derive(Clone, Copy, Debug)]
pub struct Moves {
    squares: u64,
    pass: bool,
}

impl Moves {
    /// The squares of `squares`, ascending, or a lone pass when there are
    /// none and `pass` is set.
    pub(super) fn new(squares: u64, pass: bool) -> Moves {
        Moves { squares, pass: pass && squares == 0 }
    }
}

impl Iterator for Moves {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.squares != 0 {
            let square = self.squares.trailing_zeros() as u8;
            self.squares &= self.squares - 1;
            Some(square)
        } else if self.pass {
            self.pass = false;
            Some(PASS)
        } else {
            None
        }
    }
}

/// A 64-bit key for a pair of bitboards: two odd multipliers and a fold,
/// so that nearby boards land far apart. Two positions share a key with a
/// chance of about 2^-64.
#[inline(always)]
pub(super) fn hash(me: u64, op: u64) -> u64 {
    let h = me.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ op.rotate_left(31).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^ (h >> 29)
}

/// The quadrants with an odd number of empty squares.
#[inline(always)]
fn odd_quadrants(empty: u64) -> u64 {
    QUADRANTS.iter().filter(|&&q| (empty & q).count_ones() % 2 == 1).fold(0, |odd, q| odd | q)
}

impl Game for Othello {
    /// A square (0 to 63, a1 first) or [`PASS`].
    type Move = u8;
    type Moves = Moves;

    /// The final disc difference for the side to move once neither side
    /// can play.
    #[inline(always)]
    fn outcome(&self) -> Option<i64> {
        self.is_over().then(|| self.final_score())
    }

    /// The legal squares, ascending; a pass when there are none.
    #[inline(always)]
    fn moves(&self) -> Moves {
        Moves::new(self.legal_squares(), true)
    }

    #[inline(always)]
    fn play(&self, mv: u8) -> Othello {
        if mv >= PASS {
            return self.passed();
        }
        self.after(mv, flips(self.me, self.op, u32::from(mv)))
    }

    /// A 64-bit hash of the two bitboards, of which the table compares the
    /// low 56 bits: two positions meet there with a chance of about 2^-56.
    #[inline(always)]
    fn key(&self) -> Option<u64> {
        Some(hash(self.me, self.op))
    }

    /// One ply per empty square (and one more for a pass, which is rare).
    fn max_plies_hint(&self) -> usize {
        self.empties() as usize + 1
    }
}

impl Heuristics for Othello {
    /// Outcomes are disc differences: the estimate is [`Heuristics::estimate`].
    fn cut_value(&self) -> i64 {
        0
    }

    /// The fitted estimate of the `evaluation` module.
    #[inline]
    fn estimate(&self) -> i32 {
        evaluation::evaluate(self.me, self.op)
    }

    /// 100 points to a disc, rounded to the nearest disc.
    fn outcome_estimate(&self, points: i32) -> Option<i64> {
        Some(i64::from(points.saturating_add(points.signum() * 50) / 100))
    }

    /// Scores are within ±64.
    fn small_values(&self) -> bool {
        true
    }

    /// Fastest-first: moves that leave the opponent the fewest replies
    /// (corners counting three times), then the fewest potential ones,
    /// first, over the square and parity hints.
    #[inline]
    fn rank_moves(&self, moves: &mut [(u8, i32)]) {
        self.rank(moves, false);
    }

    /// [`Heuristics::rank_moves`], with the evaluation of the position
    /// after each move as well where many squares are empty and the search
    /// below is deep.
    #[inline]
    fn rank_moves_with_depth(&self, moves: &mut [(u8, i32)], plies_left: u32) {
        self.rank(moves, plies_left >= EVALUATION_HINT_PLIES && self.empties() >= EVALUATION_HINT_EMPTIES);
    }

    /// From `PROBE_EMPTIES` empty squares on: a search of `PROBE_DEPTH`
    /// plies, the exact disc difference around its score as measured by
    /// `examples/othello_probcut.rs`.
    fn outcome_probe(&self) -> Option<OutcomeProbe> {
        (self.empties() >= PROBE_EMPTIES).then_some(OutcomeProbe { depth: PROBE_DEPTH, sigma: PROBE_SIGMA, unit: 100 })
    }

    /// With `MIDGAME_PROBE_MIN` plies or more left, but short of the end
    /// of the game: a search four plies shallower (the same parity, whose
    /// evaluations lean the same way), with the deviation measured for
    /// that pair of depths.
    fn midgame_probe(&self, left: u32) -> Option<OutcomeProbe> {
        if left < MIDGAME_PROBE_MIN || left >= self.empties() {
            return None;
        }
        let sigma = MIDGAME_SIGMA[((left - MIDGAME_PROBE_MIN) as usize).min(MIDGAME_SIGMA.len() - 1)];
        Some(OutcomeProbe { depth: left - MIDGAME_PROBE_SHALLOWER, sigma, unit: 100 })
    }

    /// The opening book's scores (see the `book` module), worth
    /// [`book::WORTH`] of a request's time.
    fn book(&self) -> Option<BookAnswer<u8>> {
        let entry = book::lookup(self)?;
        Some(BookAnswer { moves: entry.moves.clone(), line: book::line(self), worth: book::WORTH })
    }
}

/// Midgame probes from this many plies left ...
const MIDGAME_PROBE_MIN: u32 = 6;
/// ... look this many plies less deep ...
const MIDGAME_PROBE_SHALLOWER: u32 = 4;
/// ... and the deeper search's evaluation lies around theirs with this
/// standard deviation (in points, 100 to a disc), by plies left from
/// `MIDGAME_PROBE_MIN` on: measured by `examples/othello_probcut.rs
/// --midgame --games 40 --seed 6` over 363 positions of 24 to 50 empty
/// squares (the last entry for every deeper search too), with the
/// evaluation in use (the weights before it: 461, 383, 377, 337, 320).
const MIDGAME_SIGMA: [i32; 5] = [397, 364, 341, 287, 246];

/// Outcome probes (the selective passes before an exact search) from this
/// many empty squares on: below, the searches are too small to gain. A
/// probe's positions cost an evaluation each, many times a solver
/// position, so this is measured in time (`examples/othello_ffo`, one
/// build against the other, run side by side): 14 against 12 took 2% less
/// on FFO #40 to #49, and 5% to 15% less on four sets of ten positions of
/// 20 to 23 empty squares from seeded random games (`scripts/othello_compare.py`'s,
/// seeds 1 to 4); 13, 15 and 16 no less than 12 over the first three.
const PROBE_EMPTIES: u32 = 14;
/// The probe's shallow search looks this many plies ahead ...
const PROBE_DEPTH: u32 = 4;
/// ... and the exact disc difference (in points, 100 to a disc) lies
/// around its score with about this standard deviation: 6.1 discs over
/// the 550 positions (12 to 22 empty squares) of `examples/othello_probcut.rs
/// --games 50 --seed 2`, 6.9 over the 440 of `--games 40 --seed 3`. On
/// FFO #40 to #49, 600 searched fewer positions than 560 or 680, and
/// depth 4 fewer than depths 2 or 6.
const PROBE_SIGMA: i32 = 600;

impl Solver for Othello {
    fn value_range(&self) -> Option<(i64, i64)> {
        Some((-64, 64))
    }

    /// The side to move's legal moves, worked out once: whether the game
    /// is over, and the evaluation's mobility.
    #[inline]
    fn outcome_or_estimate(&self, _quiet: bool) -> Result<i64, i32> {
        evaluation::outcome_or_evaluate(self.me, self.op)
    }

    /// Every legal move (or the pass), hinted by its square (corners first,
    /// the squares next to a corner last) and by parity (a move into a
    /// quadrant with an odd number of empty squares first).
    #[inline]
    fn engine_moves(&self, out: &mut Vec<(u8, i32)>) -> Tactics<u8> {
        let squares = self.legal_squares();
        if squares == 0 {
            out.push((PASS, 0));
            return Tactics::Unknown;
        }
        let odd = odd_quadrants(self.empty());
        let mut left = squares;
        while left != 0 {
            let square = left.trailing_zeros();
            left &= left - 1;
            let parity = if odd >> square & 1 != 0 { PARITY_HINT } else { 0 };
            out.push((square as u8, SQUARE_HINTS[square as usize] + parity));
        }
        Tactics::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_without_a_move_passes_and_two_passes_end_the_game() {
        // a1 against b1: c1 flips b1 and leaves the opponent no disc.
        let p = Othello::from_bitboards(1, 1 << 1);
        assert_eq!(p.moves().collect::<Vec<_>>(), vec![2]);
        let after = p.play(2);
        assert_eq!(after.bitboards(), (0, 0b111));
        assert_eq!(after.outcome(), Some(-64));
        // g1 against h1: the side to move has no line (h1 is at the edge),
        // the opponent has f1.
        let q = Othello::from_bitboards(1 << 6, 1 << 7);
        assert_eq!(q.legal_squares(), 0);
        assert_eq!(q.outcome(), None);
        assert_eq!(q.moves().collect::<Vec<_>>(), vec![PASS]);
        assert_eq!(q.play(PASS), q.passed());
    }

    #[test]
    fn keys_tell_the_side_to_move_apart() {
        let p = Othello::START;
        assert_ne!(p.key(), p.passed().key());
        assert_ne!(p.play(19).key(), p.play(26).key());
    }

    #[test]
    fn evaluations_estimate_the_nearest_disc_difference() {
        let p = Othello::START;
        assert_eq!(p.outcome_estimate(1436), Some(14));
        assert_eq!(p.outcome_estimate(-1061), Some(-11));
        assert_eq!(p.outcome_estimate(49), Some(0));
        assert_eq!(p.outcome_estimate(-150), Some(-2));
        assert_eq!(p.outcome_estimate(0), Some(0));
    }

    #[test]
    fn outcome_probes_start_at_fourteen_empty_squares() {
        let mut p = Othello::START;
        while p.empties() > PROBE_EMPTIES - 1 {
            let probe = p.outcome_probe();
            assert_eq!(probe.map(|probe| (probe.depth, probe.unit)), Some((PROBE_DEPTH, 100)));
            p = p.play(p.moves().next().unwrap_or(PASS));
            if p.is_over() {
                return;
            }
        }
        assert_eq!(p.empties(), PROBE_EMPTIES - 1);
        assert_eq!(p.outcome_probe(), None);
    }

    #[test]
    fn the_avx2_ranking_is_the_portable_one() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let mut rng = fastrand::Rng::with_seed(31);
            for _ in 0..300 {
                let mut p = Othello::START;
                while !p.is_over() {
                    let mut moves = Vec::new();
                    p.engine_moves(&mut moves);
                    for evaluate in [false, true] {
                        let (mut fast, mut portable) = (moves.clone(), moves.clone());
                        // SAFETY: the processor has AVX2 (checked above).
                        unsafe { p.rank_avx2(&mut fast, evaluate) };
                        p.rank_with(&mut portable, evaluate, super::super::rules::legal_moves, flips);
                        assert_eq!(fast, portable, "{:#x} {:#x}", p.me, p.op);
                    }
                    p = p.play(moves[rng.usize(..moves.len())].0);
                }
            }
        }
    }

    #[test]
    fn hints_put_corners_first_and_x_squares_last() {
        assert!(SQUARE_HINTS[0] > SQUARE_HINTS[2]);
        assert!(SQUARE_HINTS[63] > SQUARE_HINTS[9]);
        assert_eq!(SQUARE_HINTS[9], SQUARE_HINTS[54]);
        assert_eq!(SQUARE_HINTS[6], SQUARE_HINTS[57]);
    }
}
