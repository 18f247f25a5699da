//! What the fitting script (`examples/othello_fit.rs`) needs to fit the
//! evaluation's weights: the features of a position and a regularised
//! least-squares solver over sparse features; the weights file's format
//! is [`super::weights`]'s, re-exported here for the script.

use super::patterns::LAYOUT;
pub use super::patterns::{stage, INSTANCES, PATTERNS, SCALARS, STAGES};
pub use super::weights::{decode_weights, encode_weights, features_per_stage, WeightsError, WEIGHTS_VERSION};

/// Each pattern's name, number of squares and number of canonical indices
/// (its weights in a stage).
pub fn patterns() -> Vec<(&'static str, usize, usize)> {
    LAYOUT.describe()
}

/// The features of a position (`me` the side to move's discs): the weight
/// number (within its stage) of each pattern instance, each counting 1,
/// and the values of the scalar features, whose weights follow the
/// patterns' (weight `features_per_stage() - SCALARS + i` for scalar `i`).
pub fn features(me: u64, op: u64) -> ([u32; INSTANCES], [i32; SCALARS]) {
    (LAYOUT.features(me, op), super::evaluation::scalar_features(me, op))
}

/// A sparse least-squares problem: rows of (column, value) entries, each
/// with a target.
#[derive(Debug, Clone, Default)]
pub struct Problem {
    columns: usize,
    entries: Vec<(u32, f32)>,
    starts: Vec<usize>,
    targets: Vec<f32>,
}

impl Problem {
    /// An empty problem over `columns` unknowns.
    pub fn new(columns: usize) -> Problem {
        Problem { columns, entries: Vec::new(), starts: vec![0], targets: Vec::new() }
    }

    /// Adds the row `entries` (columns below the problem's count; a column
    /// may repeat, its values adding up) with its `target`.
    pub fn push(&mut self, entries: impl IntoIterator<Item = (u32, f32)>, target: f32) {
        self.entries.extend(entries.into_iter().filter(|&(c, _)| (c as usize) < self.columns));
        self.starts.push(self.entries.len());
        self.targets.push(target);
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.targets.len()
    }

    fn row(&self, i: usize) -> &[(u32, f32)] {
        &self.entries[self.starts[i]..self.starts[i + 1]]
    }

    /// The row `i`'s prediction with the weights `w`.
    pub fn predict(&self, i: usize, w: &[f64]) -> f64 {
        self.row(i).iter().map(|&(c, v)| w[c as usize] * f64::from(v)).sum()
    }

    /// The mean squared error of the weights `w` over the rows.
    pub fn mean_squared_error(&self, w: &[f64]) -> f64 {
        let total: f64 = (0..self.rows()).map(|i| (self.predict(i, w) - f64::from(self.targets[i])).powi(2)).sum();
        total / self.rows().max(1) as f64
    }

    /// The weights minimising the squared error plus `lambda` times the
    /// sum of the squared weights (ridge regression), by conjugate
    /// gradients on the normal equations with a diagonal preconditioner,
    /// from zero, for at most `iterations` steps (fewer once the residual
    /// falls below a millionth of where it started).
    pub fn solve(&self, lambda: f64, iterations: usize) -> Vec<f64> {
        let n = self.columns;
        // A^T A + lambda I applied to x.
        let normal = |x: &[f64], out: &mut Vec<f64>| {
            out.clear();
            out.extend(x.iter().map(|&v| lambda * v));
            for i in 0..self.rows() {
                let dot: f64 = self.row(i).iter().map(|&(c, v)| x[c as usize] * f64::from(v)).sum();
                for &(c, v) in self.row(i) {
                    out[c as usize] += dot * f64::from(v);
                }
            }
        };
        let mut diagonal = vec![lambda.max(1e-9); n];
        let mut rhs = vec![0.0; n];
        for i in 0..self.rows() {
            for &(c, v) in self.row(i) {
                diagonal[c as usize] += f64::from(v) * f64::from(v);
                rhs[c as usize] += f64::from(v) * f64::from(self.targets[i]);
            }
        }
        let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
        let mut x = vec![0.0; n];
        let mut r = rhs;
        let mut z: Vec<f64> = r.iter().zip(&diagonal).map(|(r, d)| r / d).collect();
        let mut p = z.clone();
        let mut rz = dot(&r, &z);
        let start = rz.abs();
        let mut q = Vec::with_capacity(n);
        for _ in 0..iterations {
            if rz.abs() <= start * 1e-12 || start == 0.0 {
                break;
            }
            normal(&p, &mut q);
            let alpha = rz / dot(&p, &q);
            for k in 0..n {
                x[k] += alpha * p[k];
                r[k] -= alpha * q[k];
                z[k] = r[k] / diagonal[k];
            }
            let next = dot(&r, &z);
            let beta = next / rz;
            rz = next;
            for k in 0..n {
                p[k] = z[k] + beta * p[k];
            }
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solver_recovers_known_weights() {
        // 40 unknowns, rows of 5 ones (as pattern instances) and one scalar.
        let known: Vec<f64> = (0..40).map(|i| (i as f64 * 7.3).sin() * 50.0).collect();
        let mut rng = fastrand::Rng::with_seed(9);
        let mut problem = Problem::new(40);
        for _ in 0..2000 {
            let mut row: Vec<(u32, f32)> = (0..5).map(|_| (rng.u32(0..39), 1.0)).collect();
            row.push((39, rng.i32(-10..=10) as f32));
            let target: f64 = row.iter().map(|&(c, v)| known[c as usize] * f64::from(v)).sum();
            problem.push(row, target as f32);
        }
        let fitted = problem.solve(1e-6, 200);
        for (f, k) in fitted.iter().zip(&known) {
            assert!((f - k).abs() < 1e-2, "{f} against {k}");
        }
        assert!(problem.mean_squared_error(&fitted) < 1e-3);
    }

    #[test]
    fn weights_files_read_back_and_are_checked() {
        let stages: Vec<Vec<i16>> = (0..STAGES).map(|s| vec![s as i16 - 3; features_per_stage()]).collect();
        let bytes = encode_weights(&stages);
        assert_eq!(decode_weights(&bytes), Ok(stages.clone()));
        assert_eq!(decode_weights(&bytes[..bytes.len() - 2]), Err(WeightsError::Length));
        assert_eq!(decode_weights(b"nope"), Err(WeightsError::NotAWeightsFile));
        let short = encode_weights(&stages[..2]);
        assert!(matches!(decode_weights(&short), Err(WeightsError::Layout { stages: 2, .. })));
    }
}
