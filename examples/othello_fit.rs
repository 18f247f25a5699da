//! Fits the Othello evaluation's weights (`data/othello/weights.bin`) to
//! positions the engine labels itself, reproducibly from a seed, on one
//! thread:
//!
//! ```sh
//! cargo run --release --example othello_fit -- --out data/othello/weights.bin
//! ```
//!
//! 1. Self-play: each game opens with a seeded random number of uniformly
//!    random moves (`--random-min` to `--random-max`), then both sides play
//!    by a small alpha-beta search (`--depth` plies) over the hand-weighed
//!    estimate (`hand_evaluation`, fixed, so the games do not depend on the
//!    weights being fitted), its root scores blurred by up to `--noise`
//!    points so that games vary.
//! 2. Labels: from `--exact` empty squares on, every position of the game
//!    is solved exactly by the engine with the endgame solver as its
//!    oracle, its label its exact final disc difference. Every earlier
//!    position is first labelled by the game's result: the exact score of
//!    its first position with `--exact` empties, for the side to move
//!    then (`--labels results`, the default). With `--labels bootstrap`,
//!    the positions with 21 or more empty squares are labelled again as
//!    the stages are fitted, from the end of the game back: by the value
//!    of the same game's first position five or more empty squares later
//!    (its exact score, or its evaluation by the stages already fitted),
//!    so that a label depends on a few moves of self-play rather than on
//!    all the rest of the game. Measured against Zebra, the two play
//!    alike (docs/figures.md); the results stay the default.
//!    `--samples FILE` keeps the labelled self-play in FILE (about 22
//!    bytes a position) and reads it from there when FILE exists, so
//!    that fits of the same games skip the self-play; `--samples A,B`
//!    reads several such files (made with distinct `--first-game`
//!    numbers, the first game's number, so that the games stay apart).
//!    `--player fitted` plays the self-play's moves by the embedded
//!    fitted evaluation instead of the hand-weighed one (`--player
//!    hand`, the default): stronger games, whose results say more about
//!    their positions.
//! 3. Fit: for each stage, ridge regression (least squares plus `lambda`
//!    times the squared weights) on the stage's positions and those within
//!    two empty squares of it (only those below it where labels are
//!    bootstrapped), by preconditioned conjugate gradients; each
//!    value of `--lambdas` is tried on nine games in ten and scored on the
//!    tenth, the best refitted on all of them.
//!
//! Prints each step's time, the positions and the validation errors (in
//! discs), and writes the weights file to `--out` (none: no file).
//! `--speed` instead times the fitted and the hand-weighed evaluations and
//! a fixed-depth search.

use std::process::ExitCode;
use std::time::Instant;

use bestmove::games::othello::tuning::{self, Problem, SCALARS, STAGES};
use bestmove::games::othello::{evaluate, flips, hand_evaluation, legal_moves, Endgame, Othello};
use bestmove::search::fastrand::Rng;
use bestmove::search::{engine_with_oracle, EngineOptions, Limits, Table};

/// The knobs, with their defaults.
struct Options {
    games: usize,
    seed: u64,
    exact: u32,
    depth: u32,
    random_min: usize,
    random_max: usize,
    noise: i32,
    lambdas: Vec<f64>,
    iterations: usize,
    out: Option<String>,
    samples: Option<String>,
    bootstrap: bool,
    fitted_player: bool,
    first_game: u32,
    speed: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            games: 30000,
            seed: 1,
            exact: 16,
            depth: 4,
            random_min: 2,
            random_max: 20,
            noise: 60,
            lambdas: vec![10.0, 40.0, 160.0],
            iterations: 150,
            out: None,
            samples: None,
            bootstrap: false,
            fitted_player: false,
            first_game: 0,
            speed: false,
        }
    }
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--speed" {
            options.speed = true;
            continue;
        }
        let value = args.next().ok_or(format!("{arg} needs a value"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|e| format!("{arg} {v}: {e}"));
        match arg.as_str() {
            "--games" => options.games = number(&value)? as usize,
            "--seed" => options.seed = number(&value)?,
            "--exact" => options.exact = number(&value)? as u32,
            "--depth" => options.depth = number(&value)? as u32,
            "--random-min" => options.random_min = number(&value)? as usize,
            "--random-max" => options.random_max = number(&value)? as usize,
            "--noise" => options.noise = number(&value)? as i32,
            "--iterations" => options.iterations = number(&value)? as usize,
            "--lambdas" => {
                options.lambdas = value
                    .split(',')
                    .map(|v| v.parse::<f64>().map_err(|e| format!("--lambdas {v}: {e}")))
                    .collect::<Result<_, _>>()?
            }
            "--first-game" => options.first_game = number(&value)? as u32,
            "--player" => {
                options.fitted_player = match value.as_str() {
                    "fitted" => true,
                    "hand" => false,
                    _ => return Err(format!("--player {value}: fitted or hand")),
                }
            }
            "--out" => options.out = Some(value),
            "--samples" => options.samples = Some(value),
            "--labels" => {
                options.bootstrap = match value.as_str() {
                    "bootstrap" => true,
                    "results" => false,
                    _ => return Err(format!("--labels {value}: bootstrap or results")),
                }
            }
            _ => return Err(format!("unknown option {arg}")),
        }
    }
    if options.random_min > options.random_max || options.lambdas.is_empty() {
        return Err("--random-min above --random-max, or no --lambdas".into());
    }
    Ok(options)
}

/// A labelled position: the side to move's discs, the opponent's, the
/// label (final disc difference for the side to move, in points, 100 to
/// a disc), whether the label is an exact solve, the side to move (true
/// for the side that moved first) and its game. A game's samples are
/// kept in the order they were played.
#[derive(Clone, Copy)]
struct Sample {
    me: u64,
    op: u64,
    label: f32,
    exact: bool,
    side: bool,
    game: u32,
}

/// The bytes of one sample in a samples file.
const SAMPLE_BYTES: usize = 22;

impl Sample {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.me.to_le_bytes());
        out.extend_from_slice(&self.op.to_le_bytes());
        out.push((self.label / 100.0).round() as i8 as u8);
        out.push(u8::from(self.exact) | u8::from(self.side) << 1);
        out.extend_from_slice(&self.game.to_le_bytes());
    }

    fn read(bytes: &[u8]) -> Sample {
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
        Sample {
            me: word(0),
            op: word(8),
            label: 100.0 * f32::from(bytes[16] as i8),
            exact: bytes[17] & 1 != 0,
            side: bytes[17] & 2 != 0,
            game: u32::from_le_bytes(bytes[18..22].try_into().unwrap_or_default()),
        }
    }
}

/// The squares of a bitboard.
fn squares(mut bits: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let square = bits.trailing_zeros();
            bits &= bits - 1;
            square
        })
    })
}

/// The position after the side to move plays `square`, the other side to
/// move.
fn play(me: u64, op: u64, square: u32) -> (u64, u64) {
    let flipped = flips(me, op, square);
    (op ^ flipped, me | flipped | 1 << square)
}

/// An estimate of a position for the side to move, in points.
type Estimate = fn(u64, u64) -> i32;

/// Plain fail-hard alpha-beta over `estimate`, `depth` plies, passes
/// included, the end of the game scored by the discs.
fn alpha_beta(me: u64, op: u64, depth: u32, mut alpha: i32, beta: i32, estimate: Estimate) -> i32 {
    let moves = legal_moves(me, op);
    if moves == 0 {
        if legal_moves(op, me) == 0 {
            return Othello::from_bitboards(me, op).final_score() as i32 * 1000;
        }
        return -alpha_beta(op, me, depth, -beta, -alpha, estimate);
    }
    if depth == 0 {
        return estimate(me, op);
    }
    for square in squares(moves) {
        let (a, b) = play(me, op, square);
        let score = -alpha_beta(a, b, depth - 1, -beta, -alpha, estimate);
        if score >= beta {
            return beta;
        }
        alpha = alpha.max(score);
    }
    alpha
}

/// The self-play move: the best by `depth` plies of alpha-beta over
/// `estimate`, each root score blurred by up to `noise` points.
fn player_move(me: u64, op: u64, depth: u32, noise: i32, estimate: Estimate, rng: &mut Rng) -> u32 {
    let mut best = (i32::MIN, 0);
    for square in squares(legal_moves(me, op)) {
        let (a, b) = play(me, op, square);
        let score = -alpha_beta(a, b, depth.saturating_sub(1), -1_000_000, 1_000_000, estimate) + rng.i32(0..=noise);
        if score > best.0 {
            best = (score, square);
        }
    }
    best.1
}

/// The exact final disc difference for the side to move, by the engine
/// with the endgame solver as its oracle.
fn solve(me: u64, op: u64, table: &mut Table) -> i64 {
    let position = Othello::from_bitboards(me, op);
    let oracle = Endgame::default();
    match engine_with_oracle(&position, &oracle, Limits::default(), table, EngineOptions::default(), &mut |_| {}) {
        Ok(result) => result.score.value(),
        Err(_) => unreachable!("a search without limits is never cancelled"),
    }
}

/// Plays and labels one game (see the module docs), its positions in
/// the order played.
fn play_game(game: u32, options: &Options, rng: &mut Rng, table: &mut Table, out: &mut Vec<Sample>) {
    let (mut me, mut op) = Othello::START.bitboards();
    let random_plies = rng.usize(options.random_min..=options.random_max);
    let first = out.len();
    // The exact score of the first position with `--exact` empties, for
    // its side to move.
    let mut result: Option<(i64, bool)> = None;
    let mut side = true;
    let mut ply = 0;
    loop {
        let moves = legal_moves(me, op);
        if moves == 0 {
            if legal_moves(op, me) == 0 {
                break;
            }
            (me, op, side) = (op, me, !side);
            continue;
        }
        let empties = (!(me | op)).count_ones();
        let mut sample = Sample { me, op, label: 0.0, exact: false, side, game };
        if empties <= options.exact {
            let score = solve(me, op, table);
            result.get_or_insert((score, side));
            (sample.label, sample.exact) = (100.0 * score as f32, true);
        }
        out.push(sample);
        let square = if ply < random_plies {
            let n = moves.count_ones() as usize;
            squares(moves).nth(rng.usize(..n)).unwrap_or(0)
        } else {
            let estimate: Estimate = if options.fitted_player { evaluate } else { hand_evaluation };
            player_move(me, op, options.depth, options.noise, estimate, rng)
        };
        (me, op) = play(me, op, square);
        side = !side;
        ply += 1;
    }
    // A game over before the exact empties: its final score.
    let (score, at) = result.unwrap_or((Othello::from_bitboards(me, op).final_score(), side));
    for sample in out[first..].iter_mut().filter(|s| !s.exact) {
        sample.label = 100.0 * if sample.side == at { score } else { -score } as f32;
    }
}

/// With `--labels bootstrap`, the positions with at least this many
/// empty squares are labelled again stage by stage as the stages are
/// fitted, from the end of the game back ...
const BOOTSTRAP_EMPTIES: u32 = 21;
/// ... each by the value of the same game's first position at least this
/// many empty squares further on: its exact score, or its evaluation by
/// the stages already fitted.
const BOOTSTRAP_PLIES: u32 = 5;

/// The value, for the side to move at `samples[i]`, of the game's first
/// later position with at least `BOOTSTRAP_PLIES` fewer empty squares:
/// its exact label, or its evaluation by `fitted` (the weights of the
/// stages fitted so far, by stage). `None` when the game ends first.
fn bootstrap_label(samples: &[Sample], i: usize, fitted: &[Vec<f64>]) -> Option<f32> {
    let here = samples[i];
    let target = empties(&here).checked_sub(BOOTSTRAP_PLIES)?;
    let later = samples[i + 1..].iter().take_while(|s| s.game == here.game).find(|s| empties(s) <= target)?;
    let value = if later.exact {
        later.label
    } else {
        let weights = fitted.get(tuning::stage(empties(later)))?;
        let (patterns, scalars) = tuning::features(later.me, later.op);
        let scalars_from = tuning::features_per_stage() - SCALARS;
        let points: f64 = patterns.iter().map(|&f| weights[f as usize]).sum::<f64>()
            + scalars.iter().enumerate().map(|(k, &x)| f64::from(x) * weights[scalars_from + k]).sum::<f64>();
        points.clamp(-6400.0, 6400.0) as f32
    };
    Some(if later.side == here.side { value } else { -value })
}

/// The empty squares of a sample.
fn empties(sample: &Sample) -> u32 {
    (!(sample.me | sample.op)).count_ones()
}

/// The least-squares problem of a stage over `samples`: the stage's
/// positions and those within two empty squares of it.
fn stage_problem<'a>(stage: usize, samples: impl Iterator<Item = &'a Sample>, above: usize) -> Problem {
    let per_stage = tuning::features_per_stage();
    let scalars_from = per_stage - SCALARS;
    let mut problem = Problem::new(per_stage);
    for sample in samples {
        let e = empties(sample) as usize;
        let (low, high) = (5 * stage + 1, 5 * stage + 5);
        if e + 2 < low || e > high + above {
            continue;
        }
        let (patterns, scalars) = tuning::features(sample.me, sample.op);
        let entries = patterns
            .iter()
            .map(|&f| (f, 1.0))
            .chain(scalars.iter().enumerate().map(|(i, &x)| ((scalars_from + i) as u32, x as f32)));
        problem.push(entries, sample.label);
    }
    problem
}

fn fit(samples: &mut [Sample], options: &Options) -> Vec<Vec<i16>> {
    let mut stages = Vec::new();
    let mut fitted: Vec<Vec<f64>> = Vec::new();
    // The rows of each problem in a fixed order (each game's exact
    // positions, then the others), on which the fit's sums depend.
    let mut rows: Vec<usize> = (0..samples.len()).collect();
    rows.sort_by_key(|&i| (samples[i].game, !samples[i].exact));
    for stage in 0..STAGES {
        let started = Instant::now();
        // Bootstrapped labels hold for the stages fitted so far: the stage
        // above keeps out of this one's problem.
        let above = if options.bootstrap && 5 * stage as u32 + 5 >= BOOTSTRAP_EMPTIES { 0 } else { 2 };
        if options.bootstrap {
            let relabel: Vec<(usize, f32)> = (0..samples.len())
                .filter(|&i| {
                    let s = &samples[i];
                    !s.exact && empties(s) >= BOOTSTRAP_EMPTIES && tuning::stage(empties(s)) == stage
                })
                .filter_map(|i| bootstrap_label(samples, i, &fitted).map(|label| (i, label)))
                .collect();
            for (i, label) in relabel {
                samples[i].label = label;
            }
        }
        let ordered = || rows.iter().map(|&i| &samples[i]);
        let in_stage = |s: &&Sample| tuning::stage(empties(s)) == stage;
        let train = stage_problem(stage, ordered().filter(|s| s.game % 10 != 0), above);
        let check = stage_problem(stage, ordered().filter(|s| s.game % 10 == 0).filter(in_stage), above);
        let mut best = (f64::MAX, options.lambdas[0]);
        let mut errors = Vec::new();
        for &lambda in &options.lambdas {
            let weights = train.solve(lambda, options.iterations);
            let error = check.mean_squared_error(&weights);
            errors.push(format!("lambda {lambda}: {:.2}", error.sqrt() / 100.0));
            if error < best.0 {
                best = (error, lambda);
            }
        }
        let all = stage_problem(stage, ordered(), above);
        let weights = all.solve(best.1, options.iterations);
        println!(
            "stage {stage:2} (empties {:2}-{:2}): {} positions, validation RMS error in discs {}; lambda {} ({:.1} s)",
            5 * stage + 1,
            5 * stage + 5,
            all.rows(),
            errors.join(", "),
            best.1,
            started.elapsed().as_secs_f64()
        );
        stages.push(weights.iter().map(|w| w.round().clamp(-32767.0, 32767.0) as i16).collect());
        fitted.push(weights);
    }
    stages
}

/// Times the two evaluations on positions of seeded random games, and a
/// fixed-depth search of the engine.
fn speed(options: &Options) {
    let mut rng = Rng::with_seed(options.seed);
    let mut boards = Vec::new();
    while boards.len() < 100_000 {
        let (mut me, mut op) = Othello::START.bitboards();
        loop {
            let moves = legal_moves(me, op);
            if moves == 0 {
                break;
            }
            boards.push((me, op));
            let square = squares(moves).nth(rng.usize(..moves.count_ones() as usize)).unwrap_or(0);
            (me, op) = play(me, op, square);
        }
    }
    for (name, f) in [("fitted", evaluate as fn(u64, u64) -> i32), ("hand-weighed", hand_evaluation)] {
        let started = Instant::now();
        let mut total = 0i64;
        for _ in 0..10 {
            total += boards.iter().map(|&(me, op)| i64::from(f(me, op))).sum::<i64>();
        }
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{name} evaluation: {:.1} M positions/s (checksum {total})",
            1e-6 * 10.0 * boards.len() as f64 / seconds
        );
    }
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("othello_fit: {message}");
            return ExitCode::from(2);
        }
    };
    if options.speed {
        speed(&options);
        return ExitCode::SUCCESS;
    }
    let started = Instant::now();
    // Several samples files, comma-separated, are read one after another
    // (games of distinct `--first-game` ranges); a file is written only
    // when a single one is named and it does not exist yet.
    let saved = options.samples.as_ref().and_then(|paths| {
        let files: Option<Vec<Vec<u8>>> = paths.split(',').map(|path| std::fs::read(path).ok()).collect();
        files.map(|files| files.concat())
    });
    let mut samples = match saved {
        Some(bytes) => {
            let samples: Vec<Sample> = bytes.chunks_exact(SAMPLE_BYTES).map(Sample::read).collect();
            println!("read {} positions from {}", samples.len(), options.samples.as_deref().unwrap_or(""));
            samples
        }
        None => {
            let mut rng = Rng::with_seed(options.seed);
            let mut table = Table::with_bytes(64 << 20);
            let mut samples = Vec::new();
            for game in 0..options.games {
                play_game(options.first_game + game as u32, &options, &mut rng, &mut table, &mut samples);
                if (game + 1) % 500 == 0 {
                    println!(
                        "{} games, {} positions ({:.0} s)",
                        game + 1,
                        samples.len(),
                        started.elapsed().as_secs_f64()
                    );
                }
            }
            println!(
                "self-play and labels: {} games, {} positions in {:.0} s",
                options.games,
                samples.len(),
                started.elapsed().as_secs_f64()
            );
            if let Some(path) = options.samples.as_ref().filter(|path| !path.contains(',')) {
                let mut bytes = Vec::with_capacity(samples.len() * SAMPLE_BYTES);
                samples.iter().for_each(|s| s.write(&mut bytes));
                if let Err(e) = std::fs::write(path, &bytes) {
                    eprintln!("othello_fit: {path}: {e}");
                    return ExitCode::from(1);
                }
                println!("wrote the positions to {path}");
            }
            samples
        }
    };
    let played = started.elapsed();
    let stages = fit(&mut samples, &options);
    let bytes = tuning::encode_weights(&stages);
    println!(
        "fit: {:.0} s; {} weights per stage, {} stages, {} bytes; total {:.0} s",
        (started.elapsed() - played).as_secs_f64(),
        tuning::features_per_stage(),
        STAGES,
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = &options.out {
        if let Err(e) = std::fs::write(path, &bytes) {
            eprintln!("othello_fit: {path}: {e}");
            return ExitCode::from(1);
        }
        println!("wrote {path}");
    }
    ExitCode::SUCCESS
}
