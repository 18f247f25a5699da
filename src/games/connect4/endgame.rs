//! An exact solver for the last empty cells of a Connect Four board,
//! handed to the engine as an oracle ([`Endgame`]), with the opening book
//! when there is one.
//!
//! Near the end of the board most positions of a search are small, and
//! what the engine spends on each (the probe of its large table, a cache
//! miss; the move ranking; the line) costs more than searching them
//! plainly. From [`Endgame::DEFAULT_EMPTIES`] empty cells on this solver
//! takes over: a fail-soft negamax on the two bitboards with the same
//! pruning by immediate threats as the engine (a win at once, a forced
//! block, never a stone just below the opponent's winning cell), moves
//! ordered by the winning cells they make, and a small table of its own
//! (at most 512 KiB, which stays in the processor's cache) for the positions with
//! 6 or more empty cells.
//!
//! Scores inside are one integer per outcome, in the order of the engine's
//! [`Score`]: a win ending after `s` stones are on the board is
//! `CELLS + 1 - s`, a loss its negation, a draw 0; so a sooner win and a
//! later loss rank higher.

use std::cell::{Cell, OnceCell};

use super::bitboard::{column_mask, winning_cells, BOARD, BOTTOM, CENTRE_FIRST};
use super::{Book, Connect4, BOOK_STONES, CELLS, WIDTH};
use crate::search::{Oracle, Score};

/// In a position with fewer empty cells than this, the solver tries moves
/// centre first without ranking them: the ranking costs more than it
/// saves.
const RANKED_EMPTIES: i32 = 5;

/// The exact solver for positions with at most a given number of empty
/// cells (see the module docs), with the opening book for positions of
/// at most [`BOOK_STONES`] stones when one is given; it counts the
/// positions it visits.
pub struct Endgame<'a> {
    book: Option<&'a Book>,
    max_empties: u32,
    nodes: Cell<u64>,
    /// Bounds of the larger positions searched, one per slot (see
    /// [`probe`]): small enough to stay in the cache, made at the first
    /// solve, sized for it.
    table: OnceCell<Box<[Cell<u64>]>>,
}

impl std::fmt::Debug for Endgame<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endgame")
            .field("book", &self.book.is_some())
            .field("max_empties", &self.max_empties)
            .field("nodes", &self.nodes.get())
            .finish()
    }
}

/// The solver's table has at most `1 << TABLE_BITS` slots of 8 bytes
/// (512 KiB); for a first solve of fewer empty cells, as many as it may
/// use (a solve of 12 empty cells visits a few thousand positions).
const TABLE_BITS: u32 = 16;
/// Positions with at least this many empty cells go in the table: below,
/// a search costs less than the look-up.
const TABLE_EMPTIES: i32 = 6;
/// What a slot says of its score.
const LOWER: u64 = 1;
const UPPER: u64 = 2;
const EXACT: u64 = 3;

impl<'a> Endgame<'a> {
    /// The number of empty cells from which the solver answers by default.
    pub const DEFAULT_EMPTIES: u32 = 14;

    /// A solver for positions with at most `max_empties` empty cells, that
    /// asks `book` first when given.
    pub fn new(book: Option<&'a Book>, max_empties: u32) -> Endgame<'a> {
        Endgame { book, max_empties, nodes: Cell::new(0), table: OnceCell::new() }
    }

    /// [`Endgame::new`] with [`Endgame::DEFAULT_EMPTIES`].
    pub fn with_book(book: Option<&'a Book>) -> Endgame<'a> {
        Endgame::new(book, Self::DEFAULT_EMPTIES)
    }

    /// The positions visited so far, over every solve.
    pub fn nodes(&self) -> u64 {
        self.nodes.get()
    }

    /// The fail-soft score (see the module docs) of the position with the
    /// side to move's stones `current` and all stones `mask`, not over,
    /// within `(alpha, beta)`.
    fn search(&self, table: &[Cell<u64>], current: u64, mask: u64, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes.set(self.nodes.get() + 1);
        let stones = mask.count_ones() as i32;
        let playable = (mask + BOTTOM) & BOARD;
        if winning_cells(current, mask) & playable != 0 {
            return CELLS as i32 - stones;
        }
        if stones == CELLS as i32 - 1 {
            // The last stone, and it does not win.
            return 0;
        }
        let threats = winning_cells(current ^ mask, mask);
        let forced = playable & threats;
        // The opponent's win on its next move.
        let lost = -(CELLS as i32 - stones - 1);
        let mut moves = playable & !(threats >> 1);
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return lost;
            }
            moves &= forced;
        }
        if moves == 0 {
            return lost;
        }
        // No win at once: at best a win with the stone after next; after a
        // move that hands nothing over, at worst a loss two stones later.
        let high = CELLS as i32 - 2 - stones;
        if high <= alpha {
            return high;
        }
        beta = beta.min(high);
        let low = -(CELLS as i32 - 3 - stones);
        if stones + 3 < CELLS as i32 {
            if low >= beta {
                return low;
            }
            alpha = alpha.max(low);
        }
        let keyed = CELLS as i32 - stones >= TABLE_EMPTIES;
        let key = current + mask;
        if keyed {
            if let Some((bound, score)) = probe(table, key) {
                match bound {
                    EXACT => return score,
                    LOWER => alpha = alpha.max(score),
                    _ => beta = beta.min(score),
                }
                if alpha >= beta {
                    return score;
                }
            }
        }
        let (alpha_in, beta_in) = (alpha, beta);
        // Moves by the winning cells they leave the side to move, centre
        // first among equals; near the very end, centre first only.
        let mut order = [(0u64, 0i32); WIDTH as usize];
        let mut count = 0;
        let ranked = stones + RANKED_EMPTIES <= CELLS as i32;
        for &column in &CENTRE_FIRST {
            let cell = moves & column_mask(column.into());
            if cell != 0 {
                let rank =
                    if ranked { (winning_cells(current | cell, mask) & !(mask | cell)).count_ones() as i32 } else { 0 };
                let mut i = count;
                while i > 0 && order[i - 1].1 < rank {
                    order[i] = order[i - 1];
                    i -= 1;
                }
                order[i] = (cell, rank);
                count += 1;
            }
        }
        let mut best = -(CELLS as i32);
        for &(cell, _) in &order[..count] {
            let score = -self.search(table, current ^ mask, mask | cell, -beta, -alpha);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        if keyed {
            let bound = if best <= alpha_in {
                UPPER
            } else if best >= beta_in {
                LOWER
            } else {
                EXACT
            };
            store(table, key, bound, best);
        }
        best
    }
}

/// The slot of a position's key (its stones and all stones, 49 bits) in a
/// table of a power of two slots.
#[inline(always)]
fn slot(table: &[Cell<u64>], key: u64) -> &Cell<u64> {
    let bits = table.len().trailing_zeros();
    &table[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize]
}

/// The bound stored for `key` (`LOWER`, `UPPER` or `EXACT`) and its score,
/// if its slot holds it. A slot is the key above 15 bits, the bound in 2
/// and the score plus 64 in 7: an empty slot (0) holds no key, its bound
/// being 0.
#[inline(always)]
fn probe(table: &[Cell<u64>], key: u64) -> Option<(u64, i32)> {
    let entry = slot(table, key).get();
    (entry >> 15 == key && entry >> 7 & 3 != 0).then(|| (entry >> 7 & 3, (entry & 0x7f) as i32 - 64))
}

#[inline(always)]
fn store(table: &[Cell<u64>], key: u64, bound: u64, score: i32) {
    slot(table, key).set(key << 15 | bound << 7 | (score + 64) as u64);
}

/// A score of the engine's, counted from a position of `stones` stones, as
/// the greatest inner score (see the module docs) at or below it.
fn floor(score: Score, stones: i32) -> i32 {
    inner(score, stones, false)
}

/// The least inner score at or above `score` (see [`floor`]).
fn ceil(score: Score, stones: i32) -> i32 {
    inner(score, stones, true)
}

/// [`floor`] or, with `up`, [`ceil`]. An outcome later than the board
/// allows ranks beside the outcomes that can happen: above every loss
/// and below the draw, or between the draw and every win.
fn inner(score: Score, stones: i32, up: bool) -> i32 {
    let end = CELLS as i32 + 1;
    if score == Score::INFINITY {
        return end;
    }
    if score == -Score::INFINITY {
        return -end;
    }
    match (score.value().signum(), score.ply(), score.heuristic()) {
        (0, _, Some(h)) => match (h.signum(), up) {
            (0, _) => 0,
            (1, false) | (-1, true) => 0,
            (1, true) => 1,
            _ => -1,
        },
        (value, Some(plies), _) => {
            let distance = end - stones - plies as i32;
            match (distance >= 1, value > 0, up) {
                (true, _, _) => value as i32 * distance,
                (false, true, false) | (false, false, true) => 0,
                (false, true, true) => 1,
                (false, false, false) => -1,
            }
        }
        _ => 0,
    }
}

/// The engine's score of an inner one, for a position of `stones` stones.
fn outer(score: i32, stones: i32) -> Score {
    if score == 0 {
        return Score::new(0, 0);
    }
    let plies = CELLS as i32 + 1 - stones - score.abs();
    Score::new(score.signum() as i64, plies as u32)
}

impl Oracle<Connect4> for Endgame<'_> {
    #[inline]
    fn solved(&self, position: &Connect4) -> Option<(i64, u32)> {
        let score = self.solved_within(position, -Score::INFINITY, Score::INFINITY)?;
        Some((score.value(), score.ply().unwrap_or(0)))
    }

    /// A fail-soft search within the window, or the book's exact score.
    #[inline(always)]
    fn solved_within(&self, position: &Connect4, alpha: Score, beta: Score) -> Option<Score> {
        let stones = position.stones();
        if stones <= BOOK_STONES {
            let (value, plies) = self.book?.solved(position)?;
            return Some(Score::new(value, plies));
        }
        if CELLS - stones > self.max_empties {
            return None;
        }
        let table = self.table.get_or_init(|| {
            let bits = TABLE_BITS.min(2 * (CELLS - stones).max(TABLE_EMPTIES as u32) - 10);
            (0..1 << bits).map(|_| Cell::new(0)).collect()
        });
        let (current, mask) = position.bitboards();
        let stones = stones as i32;
        let score = self.search(table, current, mask, floor(alpha, stones), ceil(beta, stones));
        Some(outer(score, stones))
    }

    #[inline(always)]
    fn nodes(&self) -> u64 {
        Endgame::nodes(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{alpha_beta, Game, Limits};

    /// Random positions of `stones` stones that are not over.
    fn positions(seed: u64, stones: u32, count: usize) -> Vec<Connect4> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut found = Vec::new();
        while found.len() < count {
            let mut position = Connect4::from_bitboards(0, 0);
            for _ in 0..stones {
                let moves: Vec<u8> = position.moves().collect();
                if position.outcome().is_some() || moves.is_empty() {
                    break;
                }
                position = position.play(moves[rng.usize(..moves.len())]);
            }
            if position.stones() == stones && position.outcome().is_none() {
                found.push(position);
            }
        }
        found
    }

    #[test]
    fn exact_scores_agree_with_alpha_beta() {
        let endgame = Endgame::new(None, 9);
        for stones in 33..CELLS {
            for position in positions(u64::from(stones), stones, 12) {
                let expected = alpha_beta(&position, Limits::default()).unwrap().score;
                let (value, plies) = endgame.solved(&position).unwrap();
                assert_eq!(Score::new(value, plies), expected, "{position:?}");
            }
        }
    }

    #[test]
    fn windowed_answers_are_fail_soft_bounds_of_the_exact_score() {
        let endgame = Endgame::new(None, 9);
        let mut rng = fastrand::Rng::with_seed(3);
        for stones in 33..CELLS {
            for position in positions(u64::from(stones) + 100, stones, 12) {
                let exact = alpha_beta(&position, Limits::default()).unwrap().score;
                let pick = |rng: &mut fastrand::Rng| match rng.u32(..4) {
                    0 => Score::evaluation(rng.i32(-50..50)),
                    1 => Score::new(0, 0),
                    _ => Score::new(if rng.bool() { 1 } else { -1 }, rng.u32(1..12)),
                };
                for _ in 0..8 {
                    let (a, b) = (pick(&mut rng), pick(&mut rng));
                    let (alpha, beta) = (a.min(b), a.max(b));
                    if alpha == beta {
                        continue;
                    }
                    let score = endgame.solved_within(&position, alpha, beta).unwrap();
                    if score <= alpha {
                        assert!(exact <= score, "{position:?} {alpha:?} {beta:?}: {score:?} vs {exact:?}");
                    } else if score >= beta {
                        assert!(exact >= score, "{position:?} {alpha:?} {beta:?}: {score:?} vs {exact:?}");
                    } else {
                        assert_eq!(exact, score, "{position:?} {alpha:?} {beta:?}");
                    }
                }
            }
        }
    }
}
