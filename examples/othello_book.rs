//! Builds the Othello opening book (`data/othello/book.txt`, see
//! `src/games/othello/book.rs`) by the engine's own searches, from a
//! position budget, so that the same build writes the same book on any
//! machine:
//!
//! ```sh
//! cargo run --release --example othello_book -- --out data/othello/book.txt
//! ```
//!
//! 1. Every position up to `--all-plies` plies from the start (each once,
//!    whatever its orientation: the book files a position under all eight
//!    of its images).
//! 2. The book's lines: from every position of up to `--line-from` plies,
//!    the game as both sides would play it by the book (each side its best
//!    move), up to `--line-plies` plies, every position on the way.
//! 3. Each position's every legal move scored by the engine, a fresh table
//!    and `--nodes` positions each (the budget the request's own time
//!    policy spends: every move scored first, the best searched deeper),
//!    on `--threads` threads.
//!
//! `--from FILE` starts from the positions a book file already scored (made
//! with the same `--nodes`: a larger book grows from a smaller one).
//!
//! Prints the positions and the time of each step.

use std::collections::{BTreeMap, HashSet};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use bestmove::games::othello::book::{self, canonical, parse_line, BookLine};
use bestmove::games::othello::{move_name, points, Endgame, Othello};
use bestmove::search::{engine_with_oracle, BookAnswer, EngineOptions, Game, Limits, Table};

struct Options {
    nodes: u64,
    all_plies: usize,
    line_from: usize,
    line_plies: usize,
    threads: usize,
    out: Option<String>,
    from: Option<String>,
}

fn parse_options() -> Result<Options, String> {
    let mut options =
        Options { nodes: book::NODES, all_plies: 5, line_from: 2, line_plies: 12, threads: 2, out: None, from: None };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().ok_or(format!("{arg} needs a value"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|e| format!("{arg} {v}: {e}"));
        match arg.as_str() {
            "--nodes" => options.nodes = number(&value)?,
            "--all-plies" => options.all_plies = number(&value)? as usize,
            "--line-from" => options.line_from = number(&value)? as usize,
            "--line-plies" => options.line_plies = number(&value)? as usize,
            "--threads" => options.threads = (number(&value)? as usize).max(1),
            "--out" => options.out = Some(value),
            "--from" => options.from = Some(value),
            _ => return Err(format!("unknown option {arg}")),
        }
    }
    Ok(options)
}

/// A position of the book: the moves that reach it from the start (square
/// names run together) and the position.
#[derive(Clone)]
struct Entry {
    path: String,
    position: Othello,
}

/// Each legal move with its evaluation (points, 100 to a disc) and depth,
/// in square order.
type Scored = Vec<(u8, i32, u32)>;

/// Every legal move of `position` scored by the engine within `nodes`
/// positions.
fn score(position: &Othello, nodes: u64) -> Scored {
    let mut table = Table::with_bytes(64 << 20);
    let oracle = Endgame::default();
    let limits = Limits { node_budget: Some(nodes), ..Limits::default() };
    let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
    let result = engine_with_oracle(position, &oracle, limits, &mut table, options, &mut |_| {})
        .expect("a search without a cancel flag or deadline is not cancelled");
    let mut moves: Scored = result
        .root_moves
        .iter()
        .map(|m| {
            let score = m.score.map(points).and_then(|s| s.heuristic()).unwrap_or(i32::MIN + 1);
            (m.mv, score, m.depth.unwrap_or(result.depth))
        })
        .collect();
    moves.sort_unstable_by_key(|&(mv, _, _)| mv);
    moves
}

/// The positions of a book file, scored as the file says.
fn read_book(text: &str) -> Result<Vec<(Entry, Scored)>, String> {
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(BookLine { path, position, moves }) = parse_line(line)? {
            out.push((Entry { path, position }, moves));
        }
    }
    Ok(out)
}

/// The scored positions, by canonical form.
type Book = BTreeMap<(u64, u64), (Entry, Scored)>;

/// Scores `entries` on `threads` threads, in any order, into `scored`.
fn score_all(entries: &[Entry], nodes: u64, threads: usize, scored: &Mutex<Book>) {
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(entry) = entries.get(i) else { break };
                let moves = score(&entry.position, nodes);
                let mut scored = scored.lock().unwrap_or_else(|e| e.into_inner());
                scored.insert(canonical(&entry.position), (entry.clone(), moves));
                if scored.len().is_multiple_of(50) {
                    eprintln!("  {} positions scored, {:.0} s", scored.len(), started.elapsed().as_secs_f64());
                }
            });
        }
    });
}

/// The best move of a scored position (the first of equals), as the book
/// chooses it.
fn best(moves: &Scored) -> Option<u8> {
    BookAnswer::best_of(moves).map(|(mv, _, _)| mv)
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    // 1. Every position to `all_plies`, each once.
    let mut seen = HashSet::new();
    let mut level = vec![Entry { path: String::new(), position: Othello::START }];
    seen.insert(canonical(&Othello::START));
    let mut all = level.clone();
    for _ in 0..options.all_plies {
        let mut next = Vec::new();
        for entry in &level {
            let mut squares = entry.position.legal_squares();
            while squares != 0 {
                let square = squares.trailing_zeros() as u8;
                squares &= squares - 1;
                let child = entry.position.play(square);
                // Lines whose side to move must pass are left out.
                if child.legal_squares() != 0 && seen.insert(canonical(&child)) {
                    next.push(Entry { path: format!("{}{}", entry.path, move_name(square)), position: child });
                }
            }
        }
        all.extend(next.iter().cloned());
        level = next;
    }
    println!("{} positions of up to {} plies", all.len(), options.all_plies);
    let mut known = Book::new();
    if let Some(from) = &options.from {
        match std::fs::read_to_string(from).map_err(|e| e.to_string()).and_then(|text| read_book(&text)) {
            Ok(entries) => {
                for (entry, moves) in entries {
                    known.insert(canonical(&entry.position), (entry, moves));
                }
                println!("{} positions read from {from}", known.len());
            }
            Err(message) => {
                eprintln!("{from}: {message}");
                return ExitCode::FAILURE;
            }
        }
    }
    let new: Vec<Entry> = all.iter().filter(|e| !known.contains_key(&canonical(&e.position))).cloned().collect();
    let scored = Mutex::new(known);
    score_all(&new, options.nodes, options.threads, &scored);
    println!("scored in {:.0} s", started.elapsed().as_secs_f64());
    // 2. The lines, one ply at a time, every line's next position scored
    //    together.
    let mut frontier: Vec<Entry> = all.iter().filter(|e| e.path.len() / 2 <= options.line_from).cloned().collect();
    let mut ply = 0;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        let mut added = HashSet::new();
        {
            let scored = scored.lock().unwrap_or_else(|e| e.into_inner());
            for entry in &frontier {
                if entry.path.len() / 2 >= options.line_plies {
                    continue;
                }
                let Some(mv) = scored.get(&canonical(&entry.position)).and_then(|(_, moves)| best(moves)) else {
                    continue;
                };
                let child = entry.position.play(mv);
                if child.legal_squares() != 0 && added.insert(canonical(&child)) {
                    next.push(Entry { path: format!("{}{}", entry.path, move_name(mv)), position: child });
                }
            }
        }
        let new: Vec<Entry> = {
            let scored = scored.lock().unwrap_or_else(|e| e.into_inner());
            next.iter().filter(|e| !scored.contains_key(&canonical(&e.position))).cloned().collect()
        };
        ply += 1;
        score_all(&new, options.nodes, options.threads, &scored);
        println!(
            "lines, step {ply}: {} positions, {} new, {:.0} s",
            next.len(),
            new.len(),
            started.elapsed().as_secs_f64()
        );
        frontier = next;
    }
    // 3. The file, by plies, then moves.
    let scored = scored.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut lines: Vec<(usize, String, String)> = scored
        .values()
        .map(|(entry, moves)| {
            let path = if entry.path.is_empty() { "start".to_string() } else { entry.path.clone() };
            let fields: Vec<String> =
                moves.iter().map(|&(mv, points, depth)| format!("{}:{points}:{depth}", move_name(mv))).collect();
            (entry.path.len(), path.clone(), format!("{path} {}", fields.join(" ")))
        })
        .collect();
    lines.sort();
    let mut text = format!(
        "# bestmove's Othello opening book: every legal move of each position scored by the engine within\n\
         # {} positions (`cargo run --release --example othello_book -- --nodes {} --all-plies {} --line-from {} \
         --line-plies {}`).\n\
         # moves from the start, then square:points:depth per legal move (points: 100 to a disc, for the side to move)\n",
        options.nodes, options.nodes, options.all_plies, options.line_from, options.line_plies
    );
    for (_, _, line) in &lines {
        text.push_str(line);
        text.push('\n');
    }
    println!("{} positions in the book, {:.0} s in all", lines.len(), started.elapsed().as_secs_f64());
    if let Some(out) = &options.out {
        if let Err(e) = std::fs::write(out, text) {
            eprintln!("{out}: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {out}");
    }
    ExitCode::SUCCESS
}
