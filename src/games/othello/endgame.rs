//! An exact solver for the last few empty squares, where the general
//! engine's bookkeeping (move lists, the table, hints) costs more than the
//! search itself: a plain fail-soft alpha-beta within the engine's window,
//! moves ordered fewest replies first (fastest-first) while six or more
//! squares are empty and by parity (odd quadrants first, the squares next
//! to a corner last in each) below, a small table of bounds from six
//! empty squares on, a position cut without a search when the opponent's
//! stable discs keep its score at or below the window (stability
//! cut-offs), the last two empty squares played out directly, the last one
//! scored from the count of discs it flips, and a square next to none of
//! the opponent's discs never tried.
//!
//! The search is written once and compiled twice: for the crate's
//! baseline target, and for x86-64 processors with AVX2, where moves and
//! flips are generated four directions at a time (`super::avx2`); the
//! processor is asked once, when the solver is made.
//!
//! It is handed to the engine as an [`Oracle`]: the engine asks it for the
//! exact score of every position it meets with few enough empty squares
//! when it searches to the end.

use std::cell::{Cell, OnceCell};

use super::game::Othello;
use super::rules::{stable_discs, ADJACENT};
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
fn stability_bound(me: u64, op: u64, alpha: Encoded, ply: u32) -> Option<Encoded> {
    let bound = |stable: u32| pack((64 - 2 * i64::from(stable)).max(0), ply);
    // Even with every opponent disc stable the bound would be above alpha.
    if alpha == -INFINITY || bound(op.count_ones()) > alpha {
        return None;
    }
    let upper = bound(stable_discs(op, me | op).count_ones());
    (upper <= alpha).then_some(upper)
}

/// What the search keeps across its positions: the count of positions
/// visited, and a small table of bounds of the positions with
/// `TABLE_EMPTIES` or more empty squares (made at the first search that
/// needs it).
#[derive(Debug, Default)]
struct Context {
    nodes: Cell<u64>,
    slots: OnceCell<Box<[Cell<Slot>]>>,
}

/// A position of the solver's table, and what is proven of its score: at
/// least `lower`, at most `upper`, with the plies counted from the
/// position itself.
#[derive(Debug, Default, Clone, Copy)]
struct Slot {
    me: u64,
    op: u64,
    lower: Encoded,
    upper: Encoded,
}

/// The solver's table holds `2^TABLE_BITS` slots (32 bytes each: 128 KiB,
/// which stays in the processor's second-level cache), one position each,
/// the newest kept. Measured on FFO #40 to #49 and ten positions of 20 to
/// 23 empties (`examples/othello_ffo`, two builds side by side): 2^12
/// slots from 6 empties searched 16% fewer positions in 7% less time than
/// none; 2^16 slots (2 MiB) fewer positions but no less time, as every
/// probe misses the cache; from 7 or 8 empties, less gain.
const TABLE_BITS: u32 = 12;
/// The fewest empty squares at which the solver's table is used.
const TABLE_EMPTIES: u32 = 6;

/// A score at `ply` plies from the solver's root (or relative to a
/// position) as seen `by` plies further on (wrapping: a negated `by` goes
/// back): a decided game's plies move, a draw and an infinite bound stay.
#[inline(always)]
fn rebase(score: Encoded, by: u32) -> Encoded {
    if score == INFINITY || score == -INFINITY {
        return score;
    }
    let (value, _) = unpack(score);
    score + value.signum() * i64::from(by as i32)
}

impl Context {
    /// The table slot of the position with `me` against `op`.
    #[inline(always)]
    fn slot(&self, me: u64, op: u64) -> &Cell<Slot> {
        let slots = self.slots.get_or_init(|| vec![Cell::new(Slot::default()); 1 << TABLE_BITS].into_boxed_slice());
        let index = (super::game::hash(me, op) >> (64 - TABLE_BITS)) as usize;
        &slots[index & ((1 << TABLE_BITS) - 1)]
    }

    /// Counts a position visited.
    #[inline(always)]
    fn count(&self) {
        self.nodes.set(self.nodes.get() + 1);
    }
}

/// True when this processor runs the solver's AVX2 build.
fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        super::avx2::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The squares next to a corner (C and X squares).
const NEXT_TO_CORNERS: u64 = ADJACENT[0] | ADJACENT[7] | ADJACENT[56] | ADJACENT[63];

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
type Encoded = i64;
const PLY_BITS: u32 = 32;
const INFINITY: Encoded = i64::MAX;

#[inline(always)]
fn pack(value: i64, ply: u32) -> Encoded {
    (value << PLY_BITS) - value.signum() * i64::from(ply)
}

/// A search bound as a [`Encoded`] score (the same encoding, narrower): a
/// bound beyond every score of the game, as an infinite one, which
/// compares the same with them.
#[inline(always)]
fn packed(score: Score) -> Encoded {
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
fn unpack(score: Encoded) -> (i64, u32) {
    let value = (score + (1 << (PLY_BITS - 1))) >> PLY_BITS;
    (value, ((value << PLY_BITS) - score).unsigned_abs() as u32)
}

/// The exact solver for positions with at most a given number of empty
/// squares (see the module docs), counting the positions it visits.
#[derive(Debug)]
pub struct Endgame {
    max_empties: u32,
    context: Context,
    /// Whether the search runs its AVX2 build.
    avx2: bool,
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
        Endgame { max_empties: max_empties.min(Self::MAX_EMPTIES), context: Context::default(), avx2: avx2_available() }
    }

    /// [`Endgame::new`], but searching with the portable build even where
    /// the processor has AVX2: the same scores and positions, slower (for
    /// comparison and tests).
    pub fn portable(max_empties: u32) -> Endgame {
        Endgame { avx2: false, ..Endgame::new(max_empties) }
    }

    /// True when the search runs the build for this processor's AVX2 (see
    /// the module docs).
    pub fn uses_avx2(&self) -> bool {
        self.avx2
    }

    /// The positions visited so far, over every solve.
    pub fn nodes(&self) -> u64 {
        self.context.nodes.get()
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

    /// The fail-soft alpha-beta of the module docs for the side with
    /// `me` at `ply`, within `(alpha, beta)`: the build for this
    /// processor's AVX2 when it has it, the portable one otherwise (the
    /// same search, the same positions).
    #[inline(always)]
    fn search(&self, me: u64, op: u64, alpha: Encoded, beta: Encoded, ply: u32) -> Encoded {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where the processor has every
            // feature the build enables (`avx2::available`).
            return unsafe { with_avx2::search(&self.context, me, op, alpha, beta, ply) };
        }
        portable::search(&self.context, me, op, alpha, beta, ply)
    }
}

/// The solver's search, written once and compiled twice (see
/// [`Endgame::search`]): `$all` are the attributes of every function (the
/// target features of a build), `$leaf` those of the last two empty
/// squares' functions, which are inlined into their callers.
macro_rules! solver_search {
    ([$($all:meta),*], [$($leaf:meta),*]) => {
    /// Fail-soft alpha-beta for the side with `me` at `ply`, within
    /// `(alpha, beta)`. Recursion is at most two plies per empty square.
    $(#[$all])*
    pub(super) fn search(cx: &Context, me: u64, op: u64, alpha: Encoded, beta: Encoded, ply: u32) -> Encoded {
        cx.count();
        let empty = !(me | op);
        if empty & empty.wrapping_sub(1) == 0 {
            return last(me, op, empty, ply);
        }
        let empties = empty.count_ones();
        if empties == 2 {
            return two(cx, me, op, empty, beta, ply);
        }
        if empties >= STABILITY_EMPTIES {
            if let Some(bound) = stability_bound(me, op, alpha, ply) {
                return bound;
            }
        }
        if empties >= FASTEST_FIRST_EMPTIES {
            return search_fastest_first(cx, me, op, legal_moves(me, op), alpha, beta, ply);
        }
        search_by_parity(cx, me, op, empty, alpha, beta, ply)
    }

    /// `search` for a position with five or more empty squares whose
    /// legal `moves` are known (a child of `search_fastest_first`, which
    /// found them to order it).
    $(#[$all])*
    pub(super) fn search_known(cx: &Context, me: u64, op: u64, moves: u64, alpha: Encoded, beta: Encoded, ply: u32) -> Encoded {
        cx.count();
        let empties = (!(me | op)).count_ones();
        if empties >= STABILITY_EMPTIES {
            if let Some(bound) = stability_bound(me, op, alpha, ply) {
                return bound;
            }
        }
        if empties >= FASTEST_FIRST_EMPTIES {
            return search_fastest_first(cx, me, op, moves, alpha, beta, ply);
        }
        search_by_parity(cx, me, op, moves, alpha, beta, ply)
    }

    /// The moves among `squares` (the empty squares, or the legal moves
    /// where they are known) tried by parity, odd quadrants first.
    $(#[$all])*
    pub(super) fn search_by_parity(cx: &Context, me: u64, op: u64, squares: u64, mut alpha: Encoded, beta: Encoded, ply: u32) -> Encoded {
        let odd = odd_quadrants(!(me | op));
        let mut best = -INFINITY;
        for squares in [squares & odd & !NEXT_TO_CORNERS, squares & odd & NEXT_TO_CORNERS, squares & !odd & !NEXT_TO_CORNERS, squares & !odd & NEXT_TO_CORNERS] {
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
                let score = -search(cx, op ^ flipped, me | flipped | 1 << square, -beta, -alpha, ply + 1);
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
            return -search(cx, op, me, -beta, -alpha, ply + 1);
        }
        best
    }

    /// `search` with the moves tried fewest replies first (corner
    /// replies counting double), then parity: where more empty squares
    /// are left, ordering pays for what it costs.
    $(#[$all])*
    pub(super) fn search_fastest_first(cx: &Context, me: u64, op: u64, squares: u64, mut alpha: Encoded, beta: Encoded, ply: u32) -> Encoded {
        if squares == 0 {
            let theirs = legal_moves(op, me);
            if theirs == 0 {
                return pack(final_score(me, op), ply);
            }
            return -search_known(cx, op, me, theirs, -beta, -alpha, ply + 1);
        }
        let empties = (!(me | op)).count_ones();
        let slot = if empties >= TABLE_EMPTIES { Some(cx.slot(me, op)) } else { None };
        let mut beta = beta;
        if let Some(slot) = slot {
            let entry = slot.get();
            if entry.me == me && entry.op == op {
                // Stored relative to the position: seen from the root, `ply`
                // plies before it.
                let (lower, upper) = (rebase(entry.lower, ply.wrapping_neg()), rebase(entry.upper, ply.wrapping_neg()));
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        // The window searched, as narrowed by the table: what the result
        // bounds.
        let (alpha_narrow, beta_narrow) = (alpha, beta);
        let odd = odd_quadrants(!(me | op));
        // (order key, child's discs for the side to move then, the other's,
        // its moves).
        let mut children = [(0i32, 0u64, 0u64, 0u64); Endgame::MAX_EMPTIES as usize];
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
            children[at] = (key, next_me, next_op, replies);
            count += 1;
        }
        let mut best = -INFINITY;
        for &(_, next_me, next_op, replies) in &children[..count] {
            let score = -search_known(cx, next_me, next_op, replies, -beta, -alpha, ply + 1);
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
        if let Some(slot) = slot {
            let mut entry = slot.get();
            if entry.me != me || entry.op != op {
                entry = Slot { me, op, lower: -INFINITY, upper: INFINITY };
            }
            // Relative to the position, `ply` plies on from the root.
            let stored = rebase(best, ply);
            if best <= alpha_narrow {
                entry.upper = stored;
            } else if best >= beta_narrow {
                entry.lower = stored;
            } else {
                entry.lower = stored;
                entry.upper = stored;
            }
            slot.set(entry);
        }
        best
    }

    /// The score with two empty squares, `empty` (counted as a node by the
    /// caller): each square the side to move can play, the last square
    /// scored directly; a pass when it can play neither.
    $(#[$leaf])*
    $(#[$all])*
    pub(super) fn two(cx: &Context, me: u64, op: u64, empty: u64, beta: Encoded, ply: u32) -> Encoded {
        let first = empty.trailing_zeros();
        let second = (empty & (empty - 1)).trailing_zeros();
        let mut best = -INFINITY;
        for (square, other) in [(first, second), (second, first)] {
            if ADJACENT[square as usize] & op == 0 {
                continue;
            }
            let flipped = flips(me, op, square);
            if flipped != 0 {
                cx.count();
                let score = -last(op ^ flipped, me | flipped | 1 << square, 1 << other, ply + 1);
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
        cx.count();
        -two(cx, op, me, empty, INFINITY, ply + 1)
    }

    /// The score with one empty square, `empty`: the side to move plays
    /// it, or passes and the opponent does, or the game ends as it stands.
    $(#[$leaf])*
    $(#[$all])*
    pub(super) fn last(me: u64, op: u64, empty: u64, ply: u32) -> Encoded {
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
    };
}

/// The search for any processor: the crate's baseline target.
mod portable {
    use super::super::rules::{final_score, flips, last_flip_count, legal_moves, ADJACENT};
    use super::{
        odd_quadrants, pack, rebase, stability_bound, Context, Encoded, Endgame, Slot, CORNERS, FASTEST_FIRST_EMPTIES,
        INFINITY, NEXT_TO_CORNERS, STABILITY_EMPTIES, TABLE_EMPTIES,
    };

    solver_search!([], [inline(always)]);
}

/// The search compiled for AVX2 and the bit-manipulation instructions that
/// come with it, its moves generated by [`super::avx2::legal_moves`]: run
/// only where [`super::avx2::available`] says the processor has them.
#[cfg(target_arch = "x86_64")]
mod with_avx2 {
    use super::super::avx2::{flips, legal_moves};
    use super::super::rules::{final_score, last_flip_count, ADJACENT};
    use super::{
        odd_quadrants, pack, rebase, stability_bound, Context, Encoded, Endgame, Slot, CORNERS, FASTEST_FIRST_EMPTIES,
        INFINITY, NEXT_TO_CORNERS, STABILITY_EMPTIES, TABLE_EMPTIES,
    };

    solver_search!([target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")], [inline]);
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

    /// A position of a random game with `empties` empty squares, or `None`
    /// if that game ended before.
    fn random_endgame(rng: &mut fastrand::Rng, empties: u32) -> Option<Othello> {
        let mut p = Othello::START;
        while p.outcome().is_none() && p.empties() > empties {
            let moves: Vec<u8> = p.moves().collect();
            p = p.play(moves[rng.usize(..moves.len())]);
        }
        p.outcome().is_none().then_some(p)
    }

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
            let Some(p) = random_endgame(&mut rng, 8) else { continue };
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
    fn both_builds_find_the_same_scores_through_the_same_positions() {
        let mut rng = fastrand::Rng::with_seed(23);
        let (fast, portable) = (Endgame::new(12), Endgame::portable(12));
        assert!(!portable.uses_avx2());
        let mut checked = 0;
        while checked < 30 {
            let Some(p) = random_endgame(&mut rng, 11) else { continue };
            assert_eq!(fast.solve(&p), portable.solve(&p), "{p:?}");
            let window = (Score::new(0, 30), Score::new(1, 30));
            assert_eq!(fast.solved_within(&p, window.0, window.1), portable.solved_within(&p, window.0, window.1));
            assert_eq!(fast.nodes(), portable.nodes(), "{p:?}");
            checked += 1;
        }
    }

    #[test]
    fn a_solver_that_met_a_position_at_another_ply_keeps_its_plies() {
        // The table's entries are read at other plies than they were
        // written at: each position's children are solved first (each at
        // ply 0), then the position itself, which meets them at ply 1, then
        // the children again, which meet the entries the position wrote.
        let mut rng = fastrand::Rng::with_seed(29);
        let solver = Endgame::new(9);
        let mut checked = 0;
        while checked < 12 {
            let Some(p) = random_endgame(&mut rng, TABLE_EMPTIES + 2) else { continue };
            let children: Vec<Othello> = p.moves().map(|mv| p.play(mv)).collect();
            for round in 0..2 {
                for position in children.iter().chain(std::iter::once(&p)) {
                    let reference = minimax(position, Limits::default()).expect("not cancelled").score;
                    let (value, plies) = solver.solve(position).expect("few empties");
                    assert_eq!(Score::new(value, plies), reference, "round {round}, {position:?}");
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
            let Some(p) = random_endgame(&mut rng, 7) else { continue };
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
