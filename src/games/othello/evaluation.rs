//! The evaluation the searches use: board patterns weighed per game stage
//! (see `patterns`), plus mobility, potential mobility, parity and a
//! constant, the weights fitted to positions labelled by the engine's own
//! searches (`examples/othello_fit.rs`) and built into the crate from
//! `data/othello/weights.bin`.
//!
//! The estimate is in points, 100 to a disc of the final disc difference,
//! for the side to move, within `±MAX_EVALUATION`.

use std::sync::LazyLock;

#[cfg(target_arch = "x86_64")]
use super::avx2;
use super::patterns::{stage, Layout, LAYOUT, SCALARS, STAGES};
use super::rules::{final_score, legal_moves_fast as legal_moves, neighbours};
use super::weights::{decode_weights, WeightsError};
use crate::search::MAX_EVALUATION;

/// The fitted weights as the crate embeds them.
pub(super) const EMBEDDED: &[u8] = include_bytes!("../../../data/othello/weights.bin");

/// A stage's weights, expanded: every pattern index with its weight, so
/// that the evaluation reads one table entry per instance.
struct Weights {
    /// `STAGES` full tables of `Layout::full_len` entries, one after
    /// another (some 4 MB); empty on the fast path, which reads only
    /// `by_instance`, but in the crate's own tests, which compare both.
    patterns: Vec<i16>,
    /// On the fast path only (else empty): `STAGES` instance tables of
    /// `Layout::instance_len` entries ([`Layout::instance_tables`]), one
    /// after another, some 21 MB.
    by_instance: Vec<i16>,
    scalars: [[i16; SCALARS]; STAGES],
}

impl Weights {
    /// The weights of a weights file (see [`super::weights`]).
    fn parse(bytes: &[u8], layout: &Layout) -> Result<Weights, WeightsError> {
        let stages = decode_weights(bytes)?;
        let mut patterns = vec![0i16; STAGES * layout.full_len];
        let mut scalars = [[0i16; SCALARS]; STAGES];
        for (s, weights) in stages.iter().enumerate() {
            let (pattern_weights, scalar_weights) = weights.split_at(layout.pattern_features);
            layout.expand(pattern_weights, &mut patterns[s * layout.full_len..(s + 1) * layout.full_len]);
            scalars[s].copy_from_slice(scalar_weights);
        }
        let by_instance = if instance_tables_wanted() {
            patterns.chunks(layout.full_len).flat_map(|full| layout.instance_tables(full)).collect()
        } else {
            Vec::new()
        };
        #[cfg(target_arch = "x86_64")]
        if fast_path() && !cfg!(test) {
            // The fast path never reads the full tables: let them go.
            patterns = Vec::new();
        }
        Ok(Weights { patterns, by_instance, scalars })
    }
}

/// The embedded weights, read on first use. The crate's tests hold the
/// embedded file to the layout; were it unreadable, every weight would be
/// zero (an evaluation of 0 everywhere) rather than a panic.
static WEIGHTS: LazyLock<Weights> = LazyLock::new(|| {
    Weights::parse(EMBEDDED, &LAYOUT).unwrap_or_else(|_| Weights {
        patterns: vec![0; STAGES * LAYOUT.full_len],
        by_instance: if instance_tables_wanted() { vec![0; STAGES * LAYOUT.instance_len()] } else { Vec::new() },
        scalars: [[0; SCALARS]; STAGES],
    })
});

/// Expands the embedded weights now (see [`super::load`]).
pub(super) fn load() {
    LazyLock::force(&WEIGHTS);
}

/// The scalar features of a position, in the order of
/// [`super::patterns::SCALARS`]'s docs.
#[inline(always)]
pub(super) fn scalar_features(me: u64, op: u64) -> [i32; SCALARS] {
    scalar_features_with(me, op, legal_moves(me, op), legal_moves)
}

/// [`scalar_features`], given the side to move's legal moves and the
/// move generator for the opponent's.
#[inline(always)]
fn scalar_features_with(me: u64, op: u64, moves: u64, legal: impl Fn(u64, u64) -> u64) -> [i32; SCALARS] {
    let empty = !(me | op);
    let mobility = moves.count_ones() as i32 - legal(op, me).count_ones() as i32;
    let potential = neighbours(op, empty).count_ones() as i32 - neighbours(me, empty).count_ones() as i32;
    [mobility, potential, (empty.count_ones() % 2) as i32, 1]
}

/// True where the evaluation takes its fast path: pattern indices by bit
/// extraction ([`super::patterns::extraction_is_fast`]) and moves by AVX2,
/// compiled into one function so that the move generator is inlined.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn fast_path() -> bool {
    super::patterns::extraction_is_fast() && std::arch::is_x86_feature_detected!("avx2")
}

/// True where the weights are also laid out by instance, for the fast
/// path's bit extraction: wherever the processor could take it (the
/// tests take it wherever it has AVX2 and BMI2, fast or not).
fn instance_tables_wanted() -> bool {
    #[cfg(target_arch = "x86_64")]
    if fast_path() || cfg!(test) {
        return std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2");
    }
    false
}

/// The estimate for the side to move, whose discs are `me`, against `op`,
/// in points (100 to a disc), positive favouring the side to move, within
/// `±MAX_EVALUATION`. The same on all eight symmetric images of a board.
///
/// The pattern indices are read by bit extraction where the processor
/// does that fast, else a few squares at a time: the same indices either
/// way.
#[inline]
pub fn evaluate(me: u64, op: u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if fast_path() {
        // SAFETY: the processor has AVX2 and BMI2 (`fast_path` checks).
        return unsafe { evaluate_fast(me, op) };
    }
    evaluate_grouped(me, op, legal_moves(me, op))
}

/// The final disc difference for the side to move once neither side can
/// play (`Ok`), else [`evaluate`]'s estimate (`Err`): the side to move's
/// legal moves worked out once, for both.
#[inline]
pub(super) fn outcome_or_evaluate(me: u64, op: u64) -> Result<i64, i32> {
    #[cfg(target_arch = "x86_64")]
    if fast_path() {
        // SAFETY: as in `evaluate`.
        return unsafe { outcome_or_evaluate_fast(me, op) };
    }
    outcome_or(me, op, legal_moves, evaluate_grouped)
}

/// [`outcome_or_evaluate`], given the move generator and the estimate
/// from the side to move's moves.
#[inline(always)]
fn outcome_or(
    me: u64,
    op: u64,
    legal: impl Fn(u64, u64) -> u64,
    estimate: impl FnOnce(u64, u64, u64) -> i32,
) -> Result<i64, i32> {
    let moves = legal(me, op);
    if moves == 0 && legal(op, me) == 0 {
        return Ok(final_score(me, op));
    }
    Err(estimate(me, op, moves))
}

/// [`evaluate`] on the fast path.
///
/// # Safety
///
/// The processor must have AVX2 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
unsafe fn evaluate_fast(me: u64, op: u64) -> i32 {
    // SAFETY: as this function's.
    unsafe { evaluate_extracted(me, op, avx2::legal_moves(me, op)) }
}

/// [`outcome_or_evaluate`] on the fast path.
///
/// # Safety
///
/// The processor must have AVX2 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
unsafe fn outcome_or_evaluate_fast(me: u64, op: u64) -> Result<i64, i32> {
    // SAFETY: as this function's.
    outcome_or(me, op, |me, op| avx2::legal_moves(me, op), |me, op, moves| unsafe { evaluate_extracted(me, op, moves) })
}

/// The estimate given the side to move's legal moves (`moves`), the
/// indices read by [`Layout::visit_indices`].
#[inline(always)]
fn evaluate_grouped(me: u64, op: u64, moves: u64) -> i32 {
    weigh(me, op, moves, legal_moves, |weights, layout, stage| {
        let table = &weights.patterns[stage * layout.full_len..(stage + 1) * layout.full_len];
        let mut points = 0i32;
        layout.visit_indices(me, op, |index| points += i32::from(table[index]));
        points
    })
}

/// The estimate given the side to move's legal moves (`moves`), the
/// instance tables read by [`Layout::visit_instance_indices`], the
/// opponent's moves by AVX2.
///
/// # Safety
///
/// The processor must have AVX2 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
#[inline]
unsafe fn evaluate_extracted(me: u64, op: u64, moves: u64) -> i32 {
    weigh(
        me,
        op,
        moves,
        |me, op| avx2::legal_moves(me, op),
        |weights, layout, stage| {
            let len = layout.instance_len();
            let table = &weights.by_instance[stage * len..(stage + 1) * len];
            let mut points = 0i32;
            // SAFETY: as this function's.
            unsafe { layout.visit_instance_indices(me, op, |index| points += i32::from(table[index])) };
            points
        },
    )
}

/// The estimate: the patterns' points, which `patterns` sums from the
/// weights and the layout for the stage, and the scalar features' points
/// (the opponent's mobility by `legal`).
#[inline(always)]
fn weigh(
    me: u64,
    op: u64,
    moves: u64,
    legal: impl Fn(u64, u64) -> u64,
    patterns: impl FnOnce(&Weights, &Layout, usize) -> i32,
) -> i32 {
    let (weights, layout) = (&*WEIGHTS, &*LAYOUT);
    let stage = stage((!(me | op)).count_ones());
    let mut points = patterns(weights, layout, stage);
    for (x, &w) in scalar_features_with(me, op, moves, legal).iter().zip(&weights.scalars[stage]) {
        points += x * i32::from(w);
    }
    points.clamp(-MAX_EVALUATION, MAX_EVALUATION)
}

#[cfg(test)]
mod tests {
    use super::super::book::image;
    use super::super::rules::random_board;
    use super::*;

    /// The eight images of a board under the symmetries.
    fn images(x: u64) -> [u64; 8] {
        std::array::from_fn(|s| image(x, s))
    }

    #[test]
    fn the_embedded_weights_match_the_layout() {
        let stages = decode_weights(EMBEDDED).expect("the embedded weights file reads");
        assert_eq!(stages.len(), STAGES);
        assert!(stages.iter().all(|s| s.len() == LAYOUT.pattern_features + SCALARS));
        assert!(stages.iter().flatten().any(|&w| w != 0), "the weights are fitted");
    }

    #[test]
    fn the_estimate_is_the_same_on_every_symmetric_image() {
        let mut rng = fastrand::Rng::with_seed(11);
        for _ in 0..300 {
            let (me, op) = random_board(&mut rng);
            let value = evaluate(me, op);
            for (a, b) in images(me).into_iter().zip(images(op)) {
                assert_eq!(evaluate(a, b), value, "{me:x} {op:x}");
            }
        }
    }

    #[test]
    fn both_ways_of_reading_the_patterns_give_the_same_estimate() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2") {
            let mut rng = fastrand::Rng::with_seed(23);
            for _ in 0..5000 {
                let (me, op) = random_board(&mut rng);
                let moves = legal_moves(me, op);
                // SAFETY: the processor has AVX2 and BMI2 (checked above).
                let extracted = unsafe { evaluate_extracted(me, op, moves) };
                assert_eq!(extracted, evaluate_grouped(me, op, moves), "{me:x} {op:x}");
            }
        }
    }

    #[test]
    fn the_fast_path_gives_the_portable_outcome_or_estimate() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2") {
            let mut rng = fastrand::Rng::with_seed(37);
            let mut finished = 0;
            for i in 0..5000 {
                let (mut me, op) = random_board(&mut rng);
                if i % 2 == 0 {
                    // Nearly full (each empty square kept with a chance of
                    // 1 in 16), so that many games are over.
                    let keep = rng.u64(..) & rng.u64(..) & rng.u64(..) & rng.u64(..);
                    me |= !(me | op) & !keep;
                }
                let portable = outcome_or(me, op, super::super::rules::legal_moves, evaluate_grouped);
                // SAFETY: the processor has AVX2 and BMI2 (checked above).
                let fast = unsafe { outcome_or_evaluate_fast(me, op) };
                assert_eq!(fast, portable, "{me:#x} {op:#x}");
                finished += usize::from(fast.is_ok());
            }
            assert!(finished > 500, "{finished} finished games");
        }
    }

    #[test]
    fn the_estimate_stays_within_the_evaluation_band() {
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..2000 {
            let (me, op) = random_board(&mut rng);
            assert!(evaluate(me, op).abs() <= MAX_EVALUATION);
        }
    }

    #[test]
    fn a_corner_is_worth_having() {
        // Positions of random games at 20 to 40 empty squares, a1 empty:
        // a1 given to the side to move scores better than a1 given to the
        // opponent, nearly always.
        let mut rng = fastrand::Rng::with_seed(8);
        let (mut better, mut total) = (0, 0);
        while total < 200 {
            let (mut me, mut op) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
            while (!(me | op)).count_ones() > 20 {
                let moves = legal_moves(me, op);
                if moves == 0 {
                    break;
                }
                let square = (0..64).filter(|s| moves >> s & 1 != 0).nth(rng.usize(..moves.count_ones() as usize));
                let square = square.unwrap_or(0);
                let flipped = super::super::flips(me, op, square);
                (me, op) = (op ^ flipped, me | flipped | 1 << square);
                if (!(me | op)).count_ones() <= 40 && (me | op) & 1 == 0 {
                    total += 1;
                    better += usize::from(evaluate(me | 1, op) > evaluate(me, op | 1));
                }
            }
        }
        assert!(better * 10 >= total * 9, "{better} of {total}");
    }
}
