//! The move generator on AVX2, for x86-64 processors that have it (every
//! one since about 2013-2015): the four pairs of directions of
//! [`super::rules::legal_moves`] side by side in the four lanes of one
//! 256-bit register, each lane shifted by its own step. The crate's
//! baseline target (x86-64-v2) has no AVX2, so this is compiled apart and
//! chosen at run time (`std::arch::is_x86_feature_detected`): the endgame
//! solver, the hottest caller, is compiled a second time around it (see
//! `super::endgame`); in the midgame, the evaluation at the depth limit
//! and the move ranking are compiled with AVX2 around it (see
//! `super::evaluation` and `super::game`), and the rest calls its
//! `legal_moves` through `super::rules::legal_moves_fast`.

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64,
    _mm256_extracti128_si256, _mm256_or_si256, _mm256_set1_epi64x, _mm256_set_epi64x, _mm256_setzero_si256,
    _mm256_sllv_epi64, _mm256_srlv_epi64, _mm_cvtsi128_si64, _mm_extract_epi64, _mm_or_si128,
};

use super::rules::INNER_COLUMNS;

/// True when this processor has AVX2 and the bit-manipulation
/// instructions the solver's AVX2 build is compiled with (the answers are
/// cached by the standard library after the first call).
#[inline]
pub fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
}

/// In each lane, the discs of `jumpable` reached from `from` by one or
/// more steps of the lane's `step` towards the higher bits over
/// `jumpable` alone: runs of up to six, filled two steps at a time
/// (`double_step` is twice `step`).
#[target_feature(enable = "avx2")]
#[inline]
fn runs_upwards(from: __m256i, jumpable: __m256i, step: __m256i, double_step: __m256i) -> __m256i {
    let double = _mm256_and_si256(jumpable, _mm256_sllv_epi64(jumpable, step));
    let mut run = _mm256_and_si256(jumpable, _mm256_sllv_epi64(from, step));
    run = _mm256_or_si256(run, _mm256_and_si256(jumpable, _mm256_sllv_epi64(run, step)));
    run = _mm256_or_si256(run, _mm256_and_si256(double, _mm256_sllv_epi64(run, double_step)));
    _mm256_or_si256(run, _mm256_and_si256(double, _mm256_sllv_epi64(run, double_step)))
}

/// [`runs_upwards`] towards the lower bits.
#[target_feature(enable = "avx2")]
#[inline]
fn runs_downwards(from: __m256i, jumpable: __m256i, step: __m256i, double_step: __m256i) -> __m256i {
    let double = _mm256_and_si256(jumpable, _mm256_srlv_epi64(jumpable, step));
    let mut run = _mm256_and_si256(jumpable, _mm256_srlv_epi64(from, step));
    run = _mm256_or_si256(run, _mm256_and_si256(jumpable, _mm256_srlv_epi64(run, step)));
    run = _mm256_or_si256(run, _mm256_and_si256(double, _mm256_srlv_epi64(run, double_step)));
    _mm256_or_si256(run, _mm256_and_si256(double, _mm256_srlv_epi64(run, double_step)))
}

/// The lanes' steps (1, 8, 7 and 9), the same doubled, and the opponent
/// discs `op` a run may cross in each lane (the sideways ones over the
/// inner columns only, which stops a run at the edge).
#[target_feature(enable = "avx2")]
#[inline]
fn lanes(op: u64) -> (__m256i, __m256i, __m256i) {
    let inner = INNER_COLUMNS as i64;
    let step = _mm256_set_epi64x(9, 7, 8, 1);
    let double_step = _mm256_set_epi64x(18, 14, 16, 2);
    let jumpable = _mm256_and_si256(_mm256_set1_epi64x(op as i64), _mm256_set_epi64x(inner, inner, -1, inner));
    (step, double_step, jumpable)
}

/// The four lanes' bits, or-ed together.
#[target_feature(enable = "avx2")]
#[inline]
fn or_lanes(lanes: __m256i) -> u64 {
    let halves = _mm_or_si128(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256(lanes, 1));
    (_mm_cvtsi128_si64(halves) | _mm_extract_epi64(halves, 1)) as u64
}

/// [`super::rules::legal_moves`] on AVX2: the same squares, from the same
/// Kogge-Stone fill, one direction pair per lane.
#[target_feature(enable = "avx2")]
#[inline]
pub fn legal_moves(me: u64, op: u64) -> u64 {
    let (step, double_step, jumpable) = lanes(op);
    let mine = _mm256_set1_epi64x(me as i64);
    let up = _mm256_sllv_epi64(runs_upwards(mine, jumpable, step, double_step), step);
    let down = _mm256_srlv_epi64(runs_downwards(mine, jumpable, step, double_step), step);
    or_lanes(_mm256_or_si256(up, down)) & !(me | op)
}

/// [`super::rules::flips`] on AVX2: from `square`, in each lane's two
/// directions, the run of `op`'s discs, kept where the square just past it
/// is `me`'s.
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips(me: u64, op: u64, square: u32) -> u64 {
    let (step, double_step, jumpable) = lanes(op);
    let mine = _mm256_set1_epi64x(me as i64);
    let from = _mm256_set1_epi64x((1u64 << (square & 63)) as i64);
    let zero = _mm256_setzero_si256();
    let up = runs_upwards(from, jumpable, step, double_step);
    let open = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_sllv_epi64(up, step), mine), zero);
    let up = _mm256_andnot_si256(open, up);
    let down = runs_downwards(from, jumpable, step, double_step);
    let open = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_srlv_epi64(down, step), mine), zero);
    let down = _mm256_andnot_si256(open, down);
    or_lanes(_mm256_or_si256(up, down))
}

#[cfg(test)]
mod tests {
    use super::super::rules;
    use super::*;

    #[test]
    fn the_avx2_moves_and_flips_are_the_portable_ones() {
        if !available() {
            return;
        }
        let mut rng = fastrand::Rng::with_seed(17);
        for _ in 0..100_000 {
            let (me, op) = rules::random_board(&mut rng);
            let filled = me | op;
            // SAFETY: the processor has AVX2 (checked above).
            let fast = unsafe { legal_moves(me, op) };
            assert_eq!(fast, rules::legal_moves(me, op), "{me:#x} {op:#x}");
            for square in 0..64 {
                if filled >> square & 1 == 0 {
                    // SAFETY: as above.
                    let fast = unsafe { flips(me, op, square) };
                    assert_eq!(fast, rules::flips(me, op, square), "{me:#x} {op:#x} {square}");
                }
            }
        }
    }
}
