//! Fits weights for Gomoku's evaluation features ([`Board::features`]) to
//! the results of the engine's own games, reproducibly from a seed:
//!
//! ```sh
//! cargo run --release --example gomoku_fit -- [GAMES] [DEPTH] [SEED]
//! ```
//!
//! 1. Self-play on 15x15 (freestyle), on two threads: each game opens with
//!    the centre and 2 to 5 random squares near the stones; then both
//!    sides play the engine's move at a fixed depth (4 unless told) with
//!    the evaluation the fitted one replaced (window points, [`WINDOWS`],
//!    so that the games do not depend on the weights being fitted), except
//!    that within the first 20 stones one move in ten is a random one of
//!    the 5 best candidates, so that games vary.
//! 2. Samples: every position of a game that the evaluation scores by
//!    its features (neither may the side to move make five at once nor
//!    its opponent on two squares), its features for the side to move and
//!    its label: 1 when the side to move went on to win, 0 when
//!    it lost, 1/2 for a draw.
//! 3. Fit: logistic regression (the probability of a win is the logistic
//!    of the weighted features plus a constant for having the move) by
//!    Newton's method, on nine games in ten; the tenth scores it against
//!    window points, whose own logistic scale is fitted the same
//!    way. The weights are printed in points (the logit times the window
//!    points a logit), as `bestmove::games::gomoku::WEIGHTS` holds them.

use std::sync::Mutex;
use std::time::Instant;

use bestmove::games::gomoku::{Board, Forcing, Rule, DEFAULT_SIZE, FEATURES, WEIGHTS};
use bestmove::search::fastrand::Rng;
use bestmove::search::{engine, EngineOptions, Limits, Table};

/// The evaluation before the fitted one, in the same features: window
/// points (1, 12, 120 and 1,000 for a window of one to four stones) of the
/// side to move less the opponent's, 300 more for each of the side to
/// move's windows of three, and 20 for the move.
static WINDOWS: [i32; FEATURES + 1] = [1, 12, 420, 1000, -1, -12, -120, -1000, 0, 0, 0, 0, 20];

/// A labelled position.
struct Sample {
    game: usize,
    features: [i32; FEATURES],
    evaluation: i32,
    label: f64,
}

fn play_game(game: usize, depth: u32, seed: u64, table: &mut Table) -> Vec<Sample> {
    let mut rng = Rng::with_seed(seed ^ (game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let empty = Board::empty(DEFAULT_SIZE, Rule::Freestyle).with_weights(&WINDOWS);
    let mut board = empty.play(empty.centre());
    for _ in 0..rng.usize(2..=5) {
        let near: Vec<usize> = board.near_empty().collect();
        board = board.play(near[rng.usize(..near.len())]);
    }
    let mut positions: Vec<(bool, [i32; FEATURES], i32)> = Vec::new();
    while !board.over() {
        let forcing = board.forcing();
        if matches!(forcing, Forcing::Open | Forcing::Block(_)) {
            positions.push((board.to_move() == bestmove::games::board::Player::X, board.features(), board.evaluate()));
        }
        let cell = if forcing == Forcing::Open && board.stones() < 20 && rng.usize(..10) == 0 {
            let mut candidates = Vec::new();
            board.candidates(&mut candidates);
            usize::from(candidates[rng.usize(..candidates.len().min(5))].0)
        } else {
            let limits = Limits { max_depth: Some(depth), ..Limits::default() };
            let options = EngineOptions { score_root_moves: false, ..EngineOptions::default() };
            let result = engine(&board, limits, table, options, &mut |_| {}).expect("no cancel flag");
            usize::from(result.best_move.expect("a position not over has a move"))
        };
        board = board.play(cell);
    }
    let x_won = board.winner().map(|p| p == bestmove::games::board::Player::X);
    positions
        .into_iter()
        .map(|(x_to_move, features, evaluation)| Sample {
            game,
            features,
            evaluation,
            label: match x_won {
                None => 0.5,
                Some(won) if won == x_to_move => 1.0,
                Some(_) => 0.0,
            },
        })
        .collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean log loss of the logit `predict(sample)` on `samples`.
fn loss<'a>(samples: impl Iterator<Item = &'a Sample>, predict: impl Fn(&Sample) -> f64) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for s in samples {
        let p = sigmoid(predict(s)).clamp(1e-9, 1.0 - 1e-9);
        sum -= s.label * p.ln() + (1.0 - s.label) * (1.0 - p).ln();
        n += 1;
    }
    sum / n.max(1) as f64
}

/// Logistic regression of the labels on `x(sample)` (with a constant
/// last), by Newton's method with a little ridge.
fn fit_logistic<const N: usize>(samples: &[&Sample], x: impl Fn(&Sample) -> [f64; N]) -> [f64; N] {
    let mut w = [0.0; N];
    for _ in 0..30 {
        let mut gradient = [0.0; N];
        let mut hessian = [[0.0; N]; N];
        for s in samples {
            let xs = x(s);
            let z: f64 = xs.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = sigmoid(z);
            let weight = (p * (1.0 - p)).max(1e-6);
            for i in 0..N {
                gradient[i] += (p - s.label) * xs[i];
                for j in 0..N {
                    hessian[i][j] += weight * xs[i] * xs[j];
                }
            }
        }
        for (i, row) in hessian.iter_mut().enumerate() {
            row[i] += 1e-3 * samples.len() as f64 * 1e-4;
        }
        let step = solve(hessian, gradient);
        let mut largest: f64 = 0.0;
        for i in 0..N {
            w[i] -= step[i];
            largest = largest.max(step[i].abs());
        }
        if largest < 1e-9 {
            break;
        }
    }
    w
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..N {
            let factor = a[row][col] / pivot_row[col];
            for (value, pivot_value) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *value -= factor * pivot_value;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let rest: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    x
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().map_or(2000, |a| a.parse().expect("a number of games"));
    let depth: u32 = args.next().map_or(4, |a| a.parse().expect("a depth"));
    let seed: u64 = args.next().map_or(1, |a| a.parse().expect("a seed"));
    let started = Instant::now();
    let samples = Mutex::new(Vec::new());
    let next = Mutex::new(0usize);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut table = Table::with_bytes(16 << 20);
                loop {
                    let game = {
                        let mut next = next.lock().expect("not poisoned");
                        *next += 1;
                        *next - 1
                    };
                    if game >= games {
                        break;
                    }
                    let played = play_game(game, depth, seed, &mut table);
                    samples.lock().expect("not poisoned").extend(played);
                }
            });
        }
    });
    let mut samples = samples.into_inner().expect("not poisoned");
    // In the games' order, whichever thread played them.
    samples.sort_by_key(|s| s.game);
    println!("{games} games at depth {depth}, {} positions, {:.0} s", samples.len(), started.elapsed().as_secs_f64());
    let (train, test): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| s.game % 10 != 0);
    // Window points: their logistic scale.
    let [scale] = fit_logistic(&train, |s| [f64::from(s.evaluation)]);
    let points_per_logit = 1.0 / scale;
    println!("window points: {points_per_logit:.0} a logit");
    let with_constant = |s: &Sample| -> [f64; FEATURES + 1] {
        let mut x = [1.0; FEATURES + 1];
        for (i, &f) in s.features.iter().enumerate() {
            x[i] = f64::from(f);
        }
        x
    };
    let w = fit_logistic(&train, with_constant);
    let old = loss(test.iter().copied(), |s| f64::from(s.evaluation) * scale);
    let new = loss(test.iter().copied(), |s| with_constant(s).iter().zip(&w).map(|(a, b)| a * b).sum());
    let prior = test.iter().map(|s| s.label).sum::<f64>() / test.len().max(1) as f64;
    let base = loss(test.iter().copied(), |_| (prior / (1.0 - prior)).ln());
    let built = loss(test.iter().copied(), |s| {
        s.features.iter().zip(&WEIGHTS).map(|(&f, &w)| f64::from(f * w)).sum::<f64>() * scale
            + f64::from(WEIGHTS[FEATURES]) * scale
    });
    println!(
        "held-out log loss: a constant {base:.4}, window points {old:.4}, fitted {new:.4}, this build's weights {built:.4}"
    );
    let points: Vec<String> = w.iter().map(|v| format!("{}", (v * points_per_logit).round() as i64)).collect();
    println!("weights: [{}]", points.join(", "));
}
