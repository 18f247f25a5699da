//! Measures how well a shallow search predicts the exact score of an
//! Othello position, for the selective (ProbCut) passes of a search to
//! the end: positions from games of the engine's own play, each solved
//! exactly and searched to depths 0 to 6 with the evaluation; prints,
//! for each number of empty squares and each depth, the mean and the
//! standard deviation of (exact disc difference x 100 - shallow score).
//!
//! With `--midgame`, the same for the selective search of the midgame:
//! positions of 24 to 50 empty squares, each searched to depths 1 to 10,
//! and the deviation of each deeper score from each shallower one; then,
//! for the pairs four plies apart (the midgame probes'), the same by game
//! stage (bands of 9 empty squares: 24 to 32, 33 to 41, 42 to 50).
//!
//! ```sh
//! cargo run --release --example othello_probcut -- [--games 200] [--seed 1] [--midgame]
//! ```

use bestmove::games::othello::{Endgame, Othello};
use bestmove::search::{engine_with_oracle, fastrand, EngineOptions, Game, Heuristics, Limits, Score, Table};

const MIN_EMPTIES: u32 = 12;
const MAX_EMPTIES: u32 = 22;
const DEPTHS: u32 = 7;

fn points(score: Score) -> i64 {
    score.heuristic().map_or(score.value() * 100, i64::from)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut games, mut seed, mut midgame) = (200usize, 1u64, false);
    while let Some(arg) = args.next() {
        if arg == "--midgame" {
            midgame = true;
            continue;
        }
        let value = args.next().and_then(|v| v.parse::<u64>().ok()).expect("a number after each option");
        match arg.as_str() {
            "--games" => games = value as usize,
            "--seed" => seed = value,
            _ => panic!("usage: othello_probcut [--games N] [--seed S] [--midgame]"),
        }
    }
    if midgame {
        return midgame_deviations(games, seed);
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    let oracle = Endgame::new(Endgame::DEFAULT_EMPTIES);
    let mut table = Table::with_bytes(64 << 20);
    let search = |table: &mut Table, pos: &Othello, depth: Option<u32>| {
        let limits = Limits { max_depth: depth, ..Limits::default() };
        engine_with_oracle(pos, &oracle, limits, table, EngineOptions::default(), &mut |_| {}).expect("not cancelled")
    };
    // Sums by (empties, depth): count, sum, sum of squares of the residual.
    let mut sums = vec![[(0f64, 0f64, 0f64); DEPTHS as usize]; MAX_EMPTIES as usize + 1];
    for _ in 0..games {
        let mut pos = Othello::START;
        while pos.outcome().is_none() && pos.empties() >= MIN_EMPTIES {
            let empties = pos.empties();
            if empties <= MAX_EMPTIES && pos.legal_squares() != 0 {
                let exact = search(&mut table, &pos, None).score.value() * 100;
                for depth in 0..DEPTHS {
                    let shallow = if depth == 0 {
                        i64::from(pos.estimate())
                    } else {
                        points(search(&mut table, &pos, Some(depth)).score)
                    };
                    let r = (exact - shallow) as f64;
                    let s = &mut sums[empties as usize][depth as usize];
                    *s = (s.0 + 1.0, s.1 + r, s.2 + r * r);
                }
            }
            let mv = next_move(&mut rng, &pos, || search(&mut table, &pos, Some(2)).best_move);
            pos = pos.play(mv);
        }
    }
    println!("empties depth count mean sigma");
    for empties in MIN_EMPTIES..=MAX_EMPTIES {
        for depth in 0..DEPTHS {
            let (n, s, q) = sums[empties as usize][depth as usize];
            if n > 1.0 {
                let mean = s / n;
                println!("{empties} {depth} {n} {mean:.0} {:.0}", (q / n - mean * mean).sqrt());
            }
        }
    }
    println!("all {MIN_EMPTIES}-{MAX_EMPTIES} empties: depth count mean sigma");
    for depth in 0..DEPTHS as usize {
        let (n, s, q) =
            sums.iter().fold((0.0, 0.0, 0.0), |a, e| (a.0 + e[depth].0, a.1 + e[depth].1, a.2 + e[depth].2));
        if n > 1.0 {
            let mean = s / n;
            println!("{depth} {n} {mean:.0} {:.0}", (q / n - mean * mean).sqrt());
        }
    }
}

/// The next move of a self-play game: mostly the engine's choice at depth
/// 2 (`best`, asked only then), sometimes a random move.
fn next_move(rng: &mut fastrand::Rng, pos: &Othello, best: impl FnOnce() -> Option<u8>) -> u8 {
    let moves: Vec<u8> = pos.moves().collect();
    if rng.u32(..100) < 15 {
        moves[rng.usize(..moves.len())]
    } else {
        best().unwrap_or(moves[0])
    }
}

/// The deepest midgame search measured.
const MIDGAME_DEPTH: usize = 10;

/// Prints, for each pair of depths `shallow < deep`, the mean and the
/// standard deviation of (deep score - shallow score), over positions of
/// 24 to 50 empty squares from games of the engine's own play.
fn midgame_deviations(games: usize, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let oracle = Endgame::new(Endgame::DEFAULT_EMPTIES);
    let mut table = Table::with_bytes(64 << 20);
    let mut search = |pos: &Othello, depth: u32| {
        let limits = Limits { max_depth: Some(depth), ..Limits::default() };
        engine_with_oracle(pos, &oracle, limits, &mut table, EngineOptions::default(), &mut |_| {})
            .expect("not cancelled")
    };
    let mut sums = vec![[(0f64, 0f64, 0f64); MIDGAME_DEPTH + 1]; MIDGAME_DEPTH + 1];
    let mut by_band = vec![[(0f64, 0f64, 0f64); MIDGAME_DEPTH + 1]; BANDS];
    for _ in 0..games {
        let mut pos = Othello::START;
        while pos.outcome().is_none() && pos.empties() >= 24 {
            if pos.empties() <= 50 && pos.legal_squares() != 0 && rng.u32(..3) == 0 {
                let scores: Vec<Option<i64>> =
                    (1..=MIDGAME_DEPTH as u32).map(|d| search(&pos, d).score.heuristic().map(i64::from)).collect();
                for deep in 2..=MIDGAME_DEPTH {
                    for shallow in 1..deep {
                        if let (Some(a), Some(b)) = (scores[deep - 1], scores[shallow - 1]) {
                            let r = (a - b) as f64;
                            let s = &mut sums[shallow][deep];
                            *s = (s.0 + 1.0, s.1 + r, s.2 + r * r);
                            if deep - shallow == PROBE_GAP {
                                let s = &mut by_band[band(pos.empties())][deep];
                                *s = (s.0 + 1.0, s.1 + r, s.2 + r * r);
                            }
                        }
                    }
                }
            }
            let mv = next_move(&mut rng, &pos, || search(&pos, 2).best_move);
            pos = pos.play(mv);
        }
    }
    println!("shallow deep count mean sigma");
    for deep in 2..=MIDGAME_DEPTH {
        for (shallow, by_deep) in sums.iter().enumerate().take(deep).skip(1) {
            let (n, s, q) = by_deep[deep];
            if n > 1.0 {
                let mean = s / n;
                println!("{shallow} {deep} {n} {mean:.0} {:.0}", (q / n - mean * mean).sqrt());
            }
        }
    }
    println!();
    println!("empties shallow deep count mean sigma");
    for (b, by_deep) in by_band.iter().enumerate() {
        for (deep, &(n, s, q)) in by_deep.iter().enumerate() {
            if n > 1.0 {
                let mean = s / n;
                let (low, high) = (24 + 9 * b, 32 + 9 * b);
                println!("{low}-{high} {} {deep} {n} {mean:.0} {:.0}", deep - PROBE_GAP, (q / n - mean * mean).sqrt());
            }
        }
    }
}

/// The plies between a midgame probe's search and the search it predicts.
const PROBE_GAP: usize = 4;
/// The stage bands of the by-stage figures.
const BANDS: usize = 3;

/// The band of a position of 24 to 50 empty squares.
fn band(empties: u32) -> usize {
    (empties.saturating_sub(24) as usize / 9).min(BANDS - 1)
}
