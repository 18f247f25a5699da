//! Calibrates the difficulty levels (`level` 1 to 10): every level plays
//! the level below it, level 1 plays a uniformly random player (in
//! Gomoku, one that picks among the empty squares within two steps of a
//! stone), and level 10 plays perfect play where a perfect player is at
//! hand; the openings are seeded and varied (Connect Four: 2 random moves;
//! tic-tac-toe: 1; Othello: 4; Gomoku, 15x15 freestyle: 2 stones within
//! two steps of the centre), each played once from each side. Prints each
//! level's score against the one below and an Elo-like rating per level
//! (level 1 at 0), as Markdown.
//!
//! A level plays as the service plays it: the search its level sets (the
//! engine at the level's depth, with the built-in opening book, the
//! endgame solvers or Gomoku's threat prover, at level 10 with the
//! service's default one-second budget; plain minimax for tic-tac-toe),
//! then the level's softmax choice over the root moves. Gomoku's levels
//! also keep the service's one-second deadline below level 10, and the
//! ladder says how deep and how long each level searched a move.
//!
//! `cargo run --release --example levels [pairs] [connect4|tictactoe|othello|gomoku]`
//! (default: 50 pairs of games per Connect Four matchup, ten times as many
//! for tic-tac-toe, a fifth as many for Othello and a fifth as many for
//! Gomoku, whose games are longest; every game). `OTHELLO_MS=n` and
//! `GOMOKU_MS=n` give Othello's or Gomoku's level 10 a budget of n ms a
//! move instead of the service's default 1,000; `LEVELS=3-5` plays only
//! the matchups of levels 3 to 5 against the level below each.

use std::cell::RefCell;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use bestmove::config::Config;
use bestmove::games::connect4::{Book, Connect4, Endgame};
use bestmove::games::gomoku::{self, Board, Rule, STRIDE};
use bestmove::games::othello::{self, Othello};
use bestmove::games::tictactoe::{Position, TicTacToe};
use bestmove::games::tree::TreeLimits;
use bestmove::games::{connect4, tictactoe};
use bestmove::games::{Registry, Settings};
use bestmove::play::arena::{matchup, Player, Random, Record};
use bestmove::search::{choose_softly, engine_with_oracle, minimax, EngineOptions, Game, Limits, Table, TieBreak};
use bestmove::suggest::{Answer, Context, MoveId, Request, TablePool, DEFAULT_TIME_MS, MAX_LEVEL};

/// A Connect Four player at a level; `perfect` searches to the end with
/// no budget instead (the engine's exact solve: the reference).
struct Connect4Level<'a> {
    level: u8,
    perfect: bool,
    book: &'a Book,
    table: Table,
    rng: fastrand::Rng,
}

impl Player<Connect4> for Connect4Level<'_> {
    fn pick(&mut self, position: &Connect4) -> u8 {
        let style = connect4::style(self.level);
        let deadline = (style.max_depth.is_none() && !self.perfect).then(|| Instant::now() + Duration::from_secs(1));
        let limits = Limits { max_depth: style.max_depth, deadline, ..Limits::default() };
        let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
        let oracle = Endgame::with_book(Some(self.book));
        let result = engine_with_oracle(position, &oracle, limits, &mut self.table, options, &mut |_| {})
            .expect("nothing cancels it");
        // Cut by the budget before every move is scored, the engine's own
        // best move (which weighs what it proved of each) is played.
        if result.root_moves.iter().all(|m| m.score.is_some()) {
            choose_softly(&result.root_moves, style.temperature, false, TieBreak::First, &mut self.rng)
                .expect("a position that is not over has a move")
                .mv
        } else {
            result.best_move.expect("a position that is not over has a move")
        }
    }
}

/// An Othello player at a level: the service's own answer to the request
/// a front end sends (the board with its side to move as black, which the
/// answer does not depend on, `"level"`, `"time_ms"` the budget,
/// `"compare": false`, a seed of the player's); a pass is played without
/// asking.
struct OthelloLevel<'a> {
    level: u8,
    budget: Duration,
    served: &'a Served,
    rng: fastrand::Rng,
}

impl Player<Othello> for OthelloLevel<'_> {
    fn pick(&mut self, position: &Othello) -> u8 {
        if position.legal_squares() == 0 {
            return othello::PASS;
        }
        let (me, op) = position.bitboards();
        let board: String = (0..64)
            .map(|square| {
                if me >> square & 1 != 0 {
                    'X'
                } else if op >> square & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        let (name, _) = self.served.level_move("othello", board.into(), "X", self.level, self.budget, &mut self.rng);
        othello::parse_square(&name).expect("a square of the board")
    }
}

/// How a Gomoku level searched its moves: the depth each reached, and
/// the time taken in all and at most.
#[derive(Clone, Default)]
struct Searched {
    depths: Vec<u32>,
    time: Duration,
    slowest: Duration,
}

/// A Gomoku player at a level: the service's own answer to the request
/// a front end sends (`"level"`, the board with `to_move`, `"time_ms"` the
/// budget, `"compare": false`, a seed of the player's), read and answered
/// as `POST /best-move` does (the provers, the answers to the opponent's
/// threat, the engine, the level's choice), without the HTTP layer.
struct GomokuLevel<'a> {
    level: u8,
    budget: Duration,
    served: &'a Served,
    rng: fastrand::Rng,
    searched: &'a RefCell<[Searched; MAX_LEVEL as usize]>,
}

/// What the service holds across requests: its games and its tables.
struct Served {
    games: Registry,
    tables: TablePool,
}

impl Served {
    fn new() -> Served {
        let config = Config::default();
        let tree_limits = TreeLimits { max_nodes: config.max_tree_nodes, max_depth: config.max_tree_depth };
        let settings = Settings { tree_limits, opening_book: config.opening_book };
        Served {
            games: Registry::new(&settings).expect("the built-in games"),
            tables: TablePool::new(config.tt_mib << 20, 1),
        }
    }

    /// The move a level plays, by name, and the whole answer: the
    /// service's answer to the request a front end sends (`board` with
    /// `to_move`, the level, `budget` as `time_ms`, no comparison, a seed
    /// drawn from `rng`).
    fn level_move(
        &self,
        game: &str,
        board: serde_json::Value,
        to_move: &str,
        level: u8,
        budget: Duration,
        rng: &mut fastrand::Rng,
    ) -> (String, Answer) {
        let body = serde_json::json!({
            "game": game,
            "board": board,
            "to_move": to_move,
            "level": level,
            "time_ms": budget.as_millis() as u64,
            "compare": false,
            "seed": rng.u32(..),
        });
        let answer = self.answer(&body);
        let Some(MoveId::Name(name)) = &answer.best_move else { panic!("a position that is not over has a move") };
        (name.clone(), answer)
    }

    /// The answer to `body`, as the service gives it.
    fn answer(&self, body: &serde_json::Value) -> Answer {
        let request = Request::parse(body.to_string().as_bytes(), &self.games, usize::MAX).expect("a valid request");
        let config = Config::default();
        let context = Context {
            tables: &self.tables,
            max_search_ms: config.max_search_ms,
            compare_max_nodes: config.compare_max_nodes,
            deadline: None,
            watched: false,
            compare: false,
            shared_table: None,
            equal_depths: false,
        };
        let cancel = AtomicBool::new(false);
        request.position.answer(&request.options, &context, &cancel, &mut |_| {}).expect("nothing cancels it")
    }
}

impl Player<Board> for GomokuLevel<'_> {
    fn pick(&mut self, board: &Board) -> u16 {
        let started = Instant::now();
        let rows = board.rows().into();
        let (name, answer) =
            self.served.level_move("gomoku", rows, board.to_move().as_str(), self.level, self.budget, &mut self.rng);
        let cell = gomoku::parse_square(&name, board.size()).expect("a square of the board");
        let elapsed = started.elapsed();
        let searched = &mut self.searched.borrow_mut()[usize::from(self.level - 1)];
        searched.depths.push(answer.engine.as_ref().and_then(|e| e.result.depth).unwrap_or(0));
        searched.time += elapsed;
        searched.slowest = searched.slowest.max(elapsed);
        cell as u16
    }
}

/// A Gomoku player that picks uniformly among the empty squares within
/// two steps of a stone.
struct NearRandom(fastrand::Rng);

impl Player<Board> for NearRandom {
    fn pick(&mut self, board: &Board) -> u16 {
        let near: Vec<usize> = board.near_empty().collect();
        near[self.0.usize(..near.len())] as u16
    }
}

/// A Gomoku opening: 2 stones, each on an empty square within two steps
/// of the centre of the 15x15 board (freestyle).
fn gomoku_opening(seed: u64) -> Board {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut board = Board::empty(gomoku::DEFAULT_SIZE, Rule::Freestyle);
    let (row, column) = (board.centre() / STRIDE, board.centre() % STRIDE);
    for _ in 0..2 {
        let near: Vec<usize> = (row - 2..=row + 2)
            .flat_map(|r| (column - 2..=column + 2).map(move |c| r * STRIDE + c))
            .filter(|&cell| board.cell(cell).is_none())
            .collect();
        board = board.play(near[rng.usize(..near.len())]);
    }
    board
}

/// A tic-tac-toe player at a level.
struct TicTacToeLevel {
    level: u8,
    rng: fastrand::Rng,
}

impl Player<TicTacToe> for TicTacToeLevel {
    fn pick(&mut self, position: &TicTacToe) -> u8 {
        let style = tictactoe::style(self.level);
        let result =
            minimax(position, Limits { max_depth: style.max_depth, ..Limits::default() }).expect("not cancelled");
        choose_softly(&result.root_moves, style.temperature, false, TieBreak::First, &mut self.rng)
            .expect("a position that is not over has a move")
            .mv
    }
}

/// A random opening of `plies` moves in which nobody wins.
fn opening<G: Game>(start: &G, plies: usize, seed: u64) -> G {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut position = start.clone();
    for _ in 0..plies {
        let moves: Vec<G::Move> = position.moves().filter(|&m| position.play(m).outcome().is_none()).collect();
        if moves.is_empty() {
            break;
        }
        position = position.play(moves[rng.usize(..moves.len())]);
    }
    position
}

/// The rating difference an expected share of the points stands for.
fn elo(share: f64) -> f64 {
    let share = share.clamp(0.005, 0.995);
    -400.0 * (1.0 / share - 1.0).log10()
}

fn line(name: &str, record: Record, rating: f64) {
    println!(
        "| {name} | {} | {} | {} | {:.0}% | {rating:+.0} |",
        record.wins,
        record.draws,
        record.losses,
        100.0 * record.share()
    );
}

fn main() {
    let pairs: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(50);
    let only = std::env::args().nth(2);
    let wanted = |game: &str| only.as_deref().is_none_or(|o| o == game);
    let book = Book::embedded().expect("the built-in book");
    let started = Instant::now();
    println!("Levels: each matchup plays every opening once from each side.");

    if wanted("connect4") {
        connect4(pairs, &book);
    }
    if wanted("tictactoe") {
        // Tic-tac-toe games take microseconds: ten times as many.
        tictactoe(10 * pairs);
    }
    if wanted("othello") {
        // Othello games are the longest: a fifth as many.
        let ms = std::env::var("OTHELLO_MS").ok().and_then(|ms| ms.parse().ok()).unwrap_or(1000);
        othello_ladder((pairs / 5).max(1), Duration::from_millis(ms));
    }
    if wanted("gomoku") {
        // Gomoku games are as long, and its deeper levels slower: a fifth
        // as many.
        let ms = std::env::var("GOMOKU_MS").ok().and_then(|ms| ms.parse().ok()).unwrap_or(DEFAULT_TIME_MS);
        gomoku_ladder((pairs / 5).max(1), Duration::from_millis(ms));
    }
    println!("\n{:.0} s in all.", started.elapsed().as_secs_f64());
}

/// Prints the ladder of a game: level 1 against `random` (named
/// `random_name`), then every level against the one below, over `pairs`
/// openings (`opening(i)` the i-th, described as `openings`); `at(level,
/// seed)` makes a player. Returns level 10's rating.
fn ladder<G: Game, P: Player<G>>(
    title: &str,
    pairs: usize,
    (openings, opening): (&str, &dyn Fn(usize) -> G),
    (random_name, random): (&str, &mut dyn Player<G>),
    at: &dyn Fn(u8, u64) -> P,
) -> f64 {
    println!("\n{title} ({pairs} openings of {openings})\n");
    println!("| Matchup | Wins | Draws | Losses | Score | Rating |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let mut openings = |i: usize| opening(i);
    let (first, last) = levels();
    if first == 1 {
        let record = matchup(pairs, &mut openings, &mut at(1, 1), random);
        line(&format!("1 vs {random_name}"), record, 0.0);
    }
    let mut rating = 0.0;
    for level in first.max(2)..=last {
        let record = matchup(pairs, &mut openings, &mut at(level, 3), &mut at(level - 1, 4));
        rating += elo(record.share());
        line(&format!("{level} vs {}", level - 1), record, rating);
    }
    rating
}

/// The levels whose matchups are played: `LEVELS=a-b` (or `LEVELS=a`)
/// plays level a against the one below up to level b against the one
/// below (level 1 against the random player); the whole ladder by
/// default. A part of the ladder rates its levels from the first one
/// played.
fn levels() -> (u8, u8) {
    let Ok(text) = std::env::var("LEVELS") else { return (1, MAX_LEVEL) };
    let level = |s: &str| s.trim().parse::<u8>().ok().filter(|l| (1..=MAX_LEVEL).contains(l));
    let (a, b) = text.split_once('-').unwrap_or((&text, &text));
    match (level(a), level(b)) {
        (Some(a), Some(b)) if a <= b => (a, b),
        _ => panic!("LEVELS is a level or a range of levels from 1 to {MAX_LEVEL} (3-5), not {text:?}"),
    }
}

/// Openings of `plies` random moves from `start`, the i-th seeded from
/// `base + i`, and their description.
fn random_openings<G: Game>(start: &G, plies: usize, base: u64) -> (String, impl Fn(usize) -> G + '_) {
    let s = if plies == 1 { "" } else { "s" };
    (format!("{plies} random move{s}"), move |i: usize| opening(start, plies, base + i as u64))
}

fn connect4(pairs: usize, book: &Book) {
    let start = Connect4::from_bitboards(0, 0);
    let at = |level: u8, seed: u64| Connect4Level {
        level,
        perfect: false,
        book,
        table: Table::with_bytes(16 << 20),
        rng: fastrand::Rng::with_seed(seed),
    };
    let (openings, seeded) = random_openings(&start, 2, 1000);
    let mut random = Random(fastrand::Rng::with_seed(2));
    let rating = ladder("Connect Four", pairs, (&openings, &seeded), ("random", &mut random), &at);
    // Level 10 against perfect play (the engine's exact solve, no budget).
    let mut perfect = at(10, 5);
    perfect.perfect = true;
    let record = matchup(pairs, &mut |i| opening(&start, 2, 1000 + i as u64), &mut at(10, 6), &mut perfect);
    line("10 vs perfect play", record, rating);
}

fn tictactoe(pairs: usize) {
    let start = Position::parse(".........", None).expect("the empty board").game();
    let at = |level: u8, seed: u64| TicTacToeLevel { level, rng: fastrand::Rng::with_seed(seed) };
    let (openings, seeded) = random_openings(&start, 1, 2000);
    let mut random = Random(fastrand::Rng::with_seed(2));
    ladder("Tic-tac-toe", pairs, (&openings, &seeded), ("random", &mut random), &at);
    // Level 10 against every level and a random player: it never loses.
    let mut openings = |i: usize| opening(&start, 1, 3000 + i as u64);
    let mut lost = 0;
    for opponent in 1..=MAX_LEVEL {
        let record = matchup(pairs, &mut openings, &mut at(10, 5), &mut at(opponent, 6));
        if opponent == 1 {
            // The whole span of the levels, in one matchup (its rating:
            // level 10's above level 1).
            line("10 vs 1", record, elo(record.share()));
        }
        lost += record.losses;
    }
    let record = matchup(pairs, &mut openings, &mut at(10, 5), &mut Random(fastrand::Rng::with_seed(7)));
    // Perfect play against the random player: the widest span any ladder
    // above it could have.
    line("10 vs random", record, elo(record.share()));
    lost += record.losses;
    println!(
        "\nTic-tac-toe level 10 against every level and a random player: {lost} games lost of {}.",
        2 * pairs * 11
    );
}

fn othello_ladder(pairs: usize, budget: Duration) {
    let served = Served::new();
    let at =
        |level: u8, seed: u64| OthelloLevel { level, budget, served: &served, rng: fastrand::Rng::with_seed(seed) };
    let title = format!("Othello, level 10 with {} ms a move", budget.as_millis());
    let (openings, seeded) = random_openings(&Othello::START, 4, 4000);
    let mut random = Random(fastrand::Rng::with_seed(2));
    ladder(&title, pairs, (&openings, &seeded), ("random", &mut random), &at);
}

fn gomoku_ladder(pairs: usize, budget: Duration) {
    let searched = RefCell::new(std::array::from_fn(|_| Searched::default()));
    let served = Served::new();
    let at = |level: u8, seed: u64| GomokuLevel {
        level,
        budget,
        served: &served,
        rng: fastrand::Rng::with_seed(seed),
        searched: &searched,
    };
    let title = format!("Gomoku (15x15, freestyle), {} ms a move", budget.as_millis());
    let opening = |i: usize| gomoku_opening(5000 + i as u64);
    let mut random = NearRandom(fastrand::Rng::with_seed(2));
    let openings = ("2 stones within two steps of the centre", &opening as &dyn Fn(usize) -> Board);
    ladder(&title, pairs, openings, ("random near the stones", &mut random), &at);
    // How deep each level searched, over all its games (level 10: the
    // depth the budget reaches; a forced line deepens further than a
    // quiet position, hence the median).
    println!("\n| Level | Moves | Median depth | Mean depth | Mean time a move | Slowest move |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for (level, s) in searched.borrow_mut().iter_mut().enumerate() {
        let moves = s.depths.len().max(1) as f64;
        s.depths.sort_unstable();
        println!(
            "| {} | {} | {} | {:.1} | {:.0} ms | {:.0} ms |",
            level + 1,
            s.depths.len(),
            s.depths.get(s.depths.len() / 2).copied().unwrap_or(0),
            s.depths.iter().map(|&d| f64::from(d)).sum::<f64>() / moves,
            s.time.as_secs_f64() * 1000.0 / moves,
            s.slowest.as_secs_f64() * 1000.0
        );
    }
}
