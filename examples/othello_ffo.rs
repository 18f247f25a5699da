//! Solves the positions of an `.obf` file (the FFO endgame suite, say)
//! exactly with the engine, and checks each score against the one the
//! file gives for its best move.
//!
//! ```sh
//! cargo run --release --example othello_ffo -- /work/shared/othello/fforum-1-19.obf
//! cargo run --release --example othello_ffo -- fforum-40-59.obf --positions 40-44
//! ```
//!
//! Options: `--positions A-B` solves only those positions (numbered as the
//! file name says, `fforum-40-59.obf` starting at 40, otherwise from 1);
//! `--oracle N` hands the engine the exact solver for the last `N` empty
//! squares (default [`Endgame::DEFAULT_EMPTIES`], 0 for none); `--table-mb
//! M` sizes the transposition table (default 256); `--every-move` scores
//! every root move, not only the best; `--iterations` prints each
//! iteration of the deepening to stderr, and the positions the endgame
//! solver visited; `--portable` runs the solver's portable build even
//! where the processor has AVX2.
//!
//! Prints one line per position (number, empties, best move, score,
//! expected score, positions searched, time) and a total; exits with
//! status 1 if any score is wrong, 2 on bad arguments or input.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use bestmove::games::othello::{move_name, parse_square, Endgame, Position};
use bestmove::search::{engine_with_oracle, EngineOptions, Limits, Progress, Table};

/// One position of the file: its number, the position, and the scores
/// the file lists for its moves (best first).
struct Case {
    number: usize,
    position: Position,
    scores: Vec<(u8, i64)>,
}

fn read_cases(path: &str) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    // "fforum-40-59.obf" numbers its positions from 40.
    let first = std::path::Path::new(path)
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(|name| name.split('-').nth(1))
        .and_then(|number| number.parse::<usize>().ok())
        .unwrap_or(1);
    let mut cases = Vec::new();
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('%')).enumerate() {
        let position = Position::from_obf(line).map_err(|e| format!("{path}, position {}: {e}", first + i))?;
        let mut scores = Vec::new();
        for annotation in line.split(';').skip(1).map(str::trim).filter(|a| !a.is_empty()) {
            let (name, score) = annotation.split_once(':').ok_or(format!("{path}: bad annotation {annotation:?}"))?;
            let square = parse_square(name).ok_or(format!("{path}: bad square {name:?}"))?;
            let score =
                score.trim_start_matches('+').parse::<i64>().map_err(|e| format!("{path}: {annotation:?}: {e}"))?;
            scores.push((square, score));
        }
        cases.push(Case { number: first + i, position, scores });
    }
    Ok(cases)
}

struct Options {
    path: String,
    positions: Option<(usize, usize)>,
    oracle: u32,
    table_mb: usize,
    every_move: bool,
    iterations: bool,
    portable: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        path: String::new(),
        positions: None,
        oracle: Endgame::DEFAULT_EMPTIES,
        table_mb: 256,
        every_move: false,
        iterations: false,
        portable: false,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--positions" => {
                let range = value("--positions")?;
                let (a, b) = range.split_once('-').unwrap_or((&range, &range));
                options.positions =
                    Some((a.parse().map_err(|_| "bad --positions")?, b.parse().map_err(|_| "bad --positions")?));
            }
            "--oracle" => options.oracle = value("--oracle")?.parse().map_err(|_| "bad --oracle")?,
            "--table-mb" => options.table_mb = value("--table-mb")?.parse().map_err(|_| "bad --table-mb")?,
            "--every-move" => options.every_move = true,
            "--iterations" => options.iterations = true,
            "--portable" => options.portable = true,
            path if options.path.is_empty() && !path.starts_with("--") => options.path = path.to_string(),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if options.path.is_empty() {
        return Err(
            "usage: othello_ffo FILE.obf [--positions A-B] [--oracle N] [--table-mb M] [--every-move] [--iterations] [--portable]"
                .into(),
        );
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let cases = match read_cases(&options.path) {
        Ok(cases) => cases,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let mut table = Table::with_bytes(options.table_mb << 20);
    table.prefault();
    let oracle = if options.portable { Endgame::portable(options.oracle) } else { Endgame::new(options.oracle) };
    let engine_options = EngineOptions { score_root_moves: options.every_move, ..EngineOptions::default() };
    let (mut total_nodes, mut total_time, mut wrong, mut solved) = (0u64, Duration::ZERO, 0, 0);
    println!(
        "{:>3} {:>7} {:>5} {:>5} {:>8} {:>14} {:>9}",
        "#", "empties", "move", "score", "expected", "nodes", "seconds"
    );
    for case in cases.iter().filter(|c| options.positions.is_none_or(|(a, b)| (a..=b).contains(&c.number))) {
        let root = case.position.game();
        let started = Instant::now();
        let result = match engine_with_oracle(&root, &oracle, Limits::default(), &mut table, engine_options, &mut |p| {
            if options.iterations {
                if let Progress::Iteration(it) = p {
                    eprintln!(
                        "    iteration {:>2}: {:?}, exact {}, {} positions, {:.3} s",
                        it.depth,
                        it.score,
                        it.exact,
                        it.nodes,
                        it.elapsed.as_secs_f64()
                    );
                }
            }
        }) {
            Ok(result) => result,
            Err(cancelled) => {
                eprintln!("position {}: {cancelled}", case.number);
                return ExitCode::from(2);
            }
        };
        let elapsed = started.elapsed();
        if options.iterations {
            eprintln!("    the endgame solver's positions so far: {}", oracle.nodes());
        }
        let nodes = result.nodes;
        let score = result.score.value();
        let expected = case.scores.first().map(|&(_, s)| s);
        // The file lists the best moves with their scores: the move played
        // must score the best, when it is listed.
        let move_ok = result
            .best_move
            .and_then(|mv| case.scores.iter().find(|&&(square, _)| square == mv))
            .is_none_or(|&(_, s)| Some(s) == expected);
        let ok = result.exact && expected.is_none_or(|e| e == score) && move_ok;
        println!(
            "{:>3} {:>7} {:>5} {:>+5} {:>8} {:>14} {:>9.3}{}",
            case.number,
            case.position.empties(),
            result.best_move.map_or("-".to_string(), move_name),
            score,
            expected.map_or("?".to_string(), |e| format!("{e:+}")),
            nodes,
            elapsed.as_secs_f64(),
            if ok { "" } else { "  WRONG" }
        );
        wrong += usize::from(!ok);
        solved += 1;
        total_nodes += nodes;
        total_time += elapsed;
    }
    println!(
        "total: {solved} positions, {wrong} wrong, {total_nodes} nodes, {:.3} s, {:.1} M nodes/s",
        total_time.as_secs_f64(),
        total_nodes as f64 / total_time.as_secs_f64().max(1e-9) / 1e6
    );
    if wrong > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
