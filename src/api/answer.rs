//! Running a validated request through the three searches, and the JSON
//! answer.

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::request::{GameInput, MoveList, SearchRequest};
use crate::games::connect4::{self, Book};
use crate::games::levels;
use crate::games::othello::{self, Endgame};
use crate::games::tictactoe::{Position, Status};
use crate::search::{
    alpha_beta, choose, choose_softly, engine_with_oracle, minimax, Cancelled, Choice, EngineOptions, EngineResult,
    Heuristics, Limits, NoOracle, Oracle, Progress, RootMove, Score, SearchResult, Solver, Table, TieBreak,
};

/// The engine's time budget when a request does not set `time_ms`.
pub const DEFAULT_TIME_MS: u64 = 1000;

/// What the searches need from the service beyond the request.
pub struct Context<'a> {
    /// The Connect Four opening book, if one was loaded.
    pub book: Option<&'a Book>,
    /// Tables for Connect Four and Othello searches.
    pub tables: &'a TablePool,
    /// The most time the engine may take, whatever the request asks.
    pub max_search_ms: u64,
    /// Plain minimax and alpha-beta search Connect Four to the deepest
    /// depth whose plain minimax search visits at most this many positions.
    pub compare_max_nodes: u64,
    /// The request's own deadline (`REQUEST_TIMEOUT_MS` from its start),
    /// if it has one: every search stops by then, less
    /// [`ANSWER_RESERVE`], whatever the request's `time_ms`.
    pub deadline: Option<Instant>,
    /// True when the client watches the search's progress (an event
    /// stream): the engine then deepens first, which is what reports it.
    pub watched: bool,
    /// Whether a request that does not say (`compare`) also runs the
    /// searches its answer is not read from: plain minimax and alpha-beta
    /// on Connect Four (the engine answers), alpha-beta and the engine on
    /// tic-tac-toe and trees (plain minimax answers).
    pub compare: bool,
}

/// Transposition tables for Connect Four and Othello searches: made on first use (or
/// ahead of it by [`TablePool::warm`]), kept for the next search, and never
/// more kept than the searches that may run at once.
pub struct TablePool {
    bytes: usize,
    keep: usize,
    free: Mutex<Vec<Table>>,
}

impl TablePool {
    /// A pool of tables of `bytes` bytes each, keeping at most `keep`.
    pub fn new(bytes: usize, keep: usize) -> Self {
        TablePool { bytes, keep, free: Mutex::new(Vec::new()) }
    }

    /// Makes the tables the pool keeps and takes all of their memory from
    /// the system now: the first searches then pay no page faults (about
    /// 0.2 s for a 64 MiB table on huge pages). Searches that start
    /// meanwhile make their own tables, as ever.
    pub fn warm(&self) {
        loop {
            if self.free.lock().map_or(true, |free| free.len() >= self.keep) {
                return;
            }
            let mut table = Table::with_bytes(self.bytes);
            table.prefault();
            match self.free.lock() {
                Ok(mut free) if free.len() < self.keep => free.push(table),
                _ => return,
            }
        }
    }

    /// Tables kept for the next searches.
    #[cfg(test)]
    fn kept(&self) -> usize {
        self.free.lock().map_or(0, |free| free.len())
    }

    fn take(&self) -> PooledTable<'_> {
        let table = self.free.lock().ok().and_then(|mut free| free.pop());
        PooledTable { pool: self, table: Some(table.unwrap_or_else(|| Table::with_bytes(self.bytes))) }
    }
}

/// A table out of the pool; it goes back when dropped.
struct PooledTable<'a> {
    pool: &'a TablePool,
    table: Option<Table>,
}

impl Drop for PooledTable<'_> {
    fn drop(&mut self) {
        if let (Some(table), Ok(mut free)) = (self.table.take(), self.pool.free.lock()) {
            if free.len() < self.pool.keep {
                free.push(table);
            }
        }
    }
}

/// A move as the answer names it: a number for tic-tac-toe (a cell),
/// trees (a child) and Connect Four (a column); a square name such as
/// `"c4"`, or `"pass"`, for Othello.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum MoveId {
    /// A cell, a child or a column.
    Index(u64),
    /// An Othello square, or `"pass"`.
    Name(String),
}

/// How a game's moves are named in its answer.
type Naming = fn(u64) -> MoveId;

/// Moves as numbers: cells, children, columns.
fn index(mv: u64) -> MoveId {
    MoveId::Index(mv)
}

/// Othello moves as square names, or `"pass"`.
fn square(mv: u64) -> MoveId {
    MoveId::Name(othello::move_name(mv.min(u64::from(othello::PASS)) as u8))
}

/// What the event stream reports while the engine goes on: a finished
/// iteration of its deepening (a `progress` event), or a root move whose
/// score was just settled while every move is scored (a `move` event).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ProgressReport {
    /// A finished iteration.
    Iteration(IterationReport),
    /// A root move's settled score.
    Move(MoveReport),
}

/// A finished iteration of the engine, as the event stream reports it.
#[derive(Debug, Serialize)]
pub struct IterationReport {
    /// The iteration's depth, in plies.
    pub depth: u32,
    /// Its best move.
    pub best_move: Option<MoveId>,
    /// Its score, in the answer's units.
    pub score: i64,
    /// True when it saw every line to its end.
    pub exact: bool,
    /// Plies to the end, when the score is a win or a loss.
    pub plies_to_end: Option<u64>,
    /// The game's evaluation behind a score of 0 that is not exact, as in
    /// the answer's `evaluation` (Connect Four and Othello).
    pub evaluation: Option<i32>,
    /// Its line of best play.
    pub principal_variation: Vec<MoveId>,
    /// Positions the engine visited so far.
    pub nodes: u64,
    /// Microseconds since the engine started.
    pub elapsed_us: u64,
}

/// A root move's score, settled while the engine scores every move (for
/// Connect Four, each column's result as it is proven).
#[derive(Debug, Serialize)]
pub struct MoveReport {
    /// The move, as in the answer's `moves`.
    #[serde(rename = "move")]
    pub mv: MoveId,
    /// Its score, in the answer's units.
    pub score: i64,
    /// True when the score saw every line to its end.
    pub exact: bool,
    /// Plies to the end, when the score is a win or a loss.
    pub plies_to_end: Option<u64>,
    /// The game's evaluation behind a score of 0 that is not exact, as in
    /// the answer's `moves`.
    pub evaluation: Option<i32>,
    /// For a score that is not exact, the depth in plies it was searched to.
    pub depth: Option<u32>,
    /// Positions the engine visited so far.
    pub nodes: u64,
    /// Microseconds since the engine started.
    pub elapsed_us: u64,
}

/// One algorithm's own result.
#[derive(Debug, Serialize)]
pub struct AlgorithmReport {
    /// Its best move (first among equals); `null` when the game is over.
    pub best_move: Option<MoveId>,
    /// Its score, in the same units as the answer's `score`.
    pub score: i64,
    /// False when the depth limit (or the engine's budget) cut a line.
    pub exact: bool,
    /// Plies to the end of the line of best play, when exact, or when the
    /// score is a win or loss forced within the depth searched.
    pub plies_to_end: Option<u64>,
    /// Its line of best play.
    pub principal_variation: Vec<MoveId>,
    /// Positions visited, the root included.
    pub nodes: u64,
    /// Time spent searching, in microseconds.
    pub elapsed_us: u64,
    /// The depth searched to, in plies; `null` for "to the end".
    pub depth: Option<u32>,
}

/// The engine's result: the fields of every algorithm, and how it got there.
#[derive(Debug, Serialize)]
pub struct EngineReport {
    /// The fields every algorithm reports; `depth` is the deepest finished
    /// iteration.
    #[serde(flatten)]
    pub result: AlgorithmReport,
    /// Iterations of iterative deepening finished.
    pub iterations: u32,
    /// Positions whose transposition-table entry was used.
    pub table_hits: u64,
    /// Positions scored by the opening book.
    pub book_hits: u64,
}

/// A legal move and its score under best play.
#[derive(Debug, Serialize)]
pub struct MoveScore {
    /// The move: a cell index for a board, a child index for a tree, a
    /// column for Connect Four, a square name (or `"pass"`) for Othello.
    #[serde(rename = "move")]
    pub mv: MoveId,
    /// The child's name (trees only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Option<String>>,
    /// The move's score; `null` when the engine's budget ran out before it
    /// was found (Connect Four and Othello only).
    pub score: Option<i64>,
    /// Plies to the end of its line, when known.
    pub plies_to_end: Option<u64>,
    /// Connect Four and Othello only: true when the score saw every line
    /// to its end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    /// Connect Four and Othello only: the game's evaluation behind a score
    /// of 0 that is not exact (see [`heuristic`]), else `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evaluation: Option<Option<i32>>,
    /// Connect Four and Othello only: for a score that is not exact, the
    /// depth in plies it was searched to, else `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<Option<u32>>,
}

/// The evaluation a score stands for, in the game's points: `Some` when the
/// score is not exact and no win or loss was forced within the search's
/// reach, `None` for an outcome.
fn heuristic(score: Score, exact: bool) -> Option<i32> {
    if exact {
        None
    } else {
        score.heuristic()
    }
}

/// The board once a move is played: a tic-tac-toe board string, or
/// Connect Four or Othello rows.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum BoardText {
    /// Nine characters.
    Cells(String),
    /// Six rows of seven characters, the top row first (Connect Four);
    /// eight rows of eight, row 1 first (Othello).
    Rows(Vec<String>),
}

/// Othello: the discs of each colour on a board.
#[derive(Debug, Serialize)]
pub struct Discs {
    /// Black's discs.
    #[serde(rename = "X")]
    pub x: u32,
    /// White's discs.
    #[serde(rename = "O")]
    pub o: u32,
}

impl Discs {
    fn of(position: &othello::Position) -> Discs {
        let (x, o) = position.disc_counts();
        Discs { x, o }
    }
}

/// The `200` answer to `POST /best-move`.
#[derive(Debug, Serialize)]
pub struct Answer {
    /// "board", "tree", "connect4" or "othello".
    pub kind: &'static str,
    /// The move to play; `null` when the game is over.
    pub best_move: Option<MoveId>,
    /// Trees only: the chosen child's name, or `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_move_name: Option<Option<String>>,
    /// True when `mistake` made the answer a random legal move.
    pub random_move: bool,
    /// The score of `best_move` itself, as in `moves`: below `score` when a
    /// mistake chose a worse move; `null` when the game is over.
    pub best_move_score: Option<i64>,
    /// Connect Four and Othello only: the evaluation behind
    /// `best_move_score` when that is an estimate (0, not exact), as in
    /// `moves`, so that a weaker move chosen by a level shows what it
    /// costs; `null` for a proven score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_move_evaluation: Option<Option<i32>>,
    /// The position's score under best play (not that of a random move).
    pub score: i64,
    /// False when the depth limit or the budget cut a line.
    pub exact: bool,
    /// Connect Four and Othello only: the game's evaluation behind a
    /// `score` of 0 that is not exact, in its points (positive favours the
    /// side to move; Othello's are about a hundredth of a disc); `null`
    /// for a proven score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evaluation: Option<Option<i32>>,
    /// Plies to the end under best play, when known.
    pub plies_to_end: Option<u64>,
    /// Board-only facts (flattened into the answer).
    #[serde(flatten)]
    pub board: Option<BoardFacts>,
    /// Trees only: whether the root maximizes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximizing: Option<bool>,
    /// The line of best play.
    pub principal_variation: Vec<MoveId>,
    /// The legal moves with their scores, in move order: the first
    /// `max_moves` of them.
    pub moves: Vec<MoveScore>,
    /// How many legal moves there are.
    pub moves_total: u64,
    /// True when `moves` lists fewer than `moves_total`.
    pub moves_truncated: bool,
    /// The depth limit, as requested.
    pub max_depth: Option<u32>,
    /// The engine's time budget in milliseconds, after the server's cap.
    pub time_ms: u64,
    /// "first" or "random".
    pub tie_break: &'static str,
    /// The mistake probability, as requested.
    pub mistake: f64,
    /// The difficulty level, as requested (`null` for full strength
    /// without a level).
    pub level: Option<u8>,
    /// The seed behind every random choice.
    pub seed: u64,
    /// Connect Four and Othello only: the request's `moves` with
    /// `best_move` played, in the request's notation; `null` when the
    /// position came as a `board` or the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_after: Option<Option<MoveList>>,
    /// Plain minimax's own result; `null` when it was not run (`compare`).
    pub minimax: Option<AlgorithmReport>,
    /// Alpha-beta's own result; `null` when it was not run (`compare`).
    pub alphabeta: Option<AlgorithmReport>,
    /// The engine's own result; `null` when it was not run (`compare`).
    pub engine: Option<EngineReport>,
}

/// What a board answer says about the position before and after the move.
#[derive(Debug, Serialize)]
pub struct BoardFacts {
    /// "X" or "O".
    pub to_move: &'static str,
    /// The position's status.
    pub status: &'static str,
    /// Who has won, if anyone.
    pub winner: Option<&'static str>,
    /// The winning line's cells, if any (not for Othello, which has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_line: Option<Option<Vec<u8>>>,
    /// Othello only: the discs of each colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discs: Option<Discs>,
    /// The board once `best_move` is played.
    pub board_after: Option<BoardText>,
    /// Its status.
    pub status_after: &'static str,
    /// Its winner.
    pub winner_after: Option<&'static str>,
    /// Its winning line (not for Othello).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_line_after: Option<Option<Vec<u8>>>,
    /// Othello only: the discs of each colour once `best_move` is played,
    /// or `null` when the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discs_after: Option<Option<Discs>>,
    /// Who moves once `best_move` is played ("X" or "O"), or `null` when
    /// the game is over then.
    pub to_move_after: Option<&'static str>,
    /// Their legal moves then, in the answer's notation (Othello's
    /// `["pass"]` when they must pass); empty when the game is over.
    pub legal_moves_after: Vec<MoveId>,
    /// Othello only: the squares whose discs `best_move` flips, in square
    /// order (none for a pass); `null` when the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flipped: Option<Option<Vec<MoveId>>>,
}

/// A status's name, with its winner and winning line, if any.
type Standing = (&'static str, (Option<&'static str>, Option<Vec<u8>>));

impl BoardFacts {
    /// The facts of a game won by a line (tic-tac-toe, Connect Four): the
    /// standing before the move and after it.
    fn lined(to_move: &'static str, before: Standing, board_after: Option<BoardText>, after: Standing) -> BoardFacts {
        let (status, (winner, winning_line)) = before;
        let (status_after, (winner_after, winning_line_after)) = after;
        BoardFacts {
            to_move,
            status,
            winner,
            winning_line: Some(winning_line),
            discs: None,
            board_after,
            status_after,
            winner_after,
            winning_line_after: Some(winning_line_after),
            discs_after: None,
            to_move_after: None,
            legal_moves_after: Vec::new(),
            flipped: None,
        }
    }

    /// The side to move once `best_move` is played, and its moves
    /// (`moves`, named by `name`), when the game then goes on.
    fn next(mut self, next: Option<(&'static str, Vec<u8>)>, name: Naming) -> BoardFacts {
        if let Some((side, moves)) = next.filter(|(_, moves)| !moves.is_empty()) {
            self.to_move_after = Some(side);
            self.legal_moves_after = moves.into_iter().map(|mv| name(u64::from(mv))).collect();
        }
        self
    }
}

fn winner_of(status: Status) -> (Option<&'static str>, Option<Vec<u8>>) {
    match status {
        Status::Won(player, line) => (Some(player.as_str()), Some(line.to_vec())),
        _ => (None, None),
    }
}

fn connect4_winner_of(status: connect4::Status) -> (Option<&'static str>, Option<Vec<u8>>) {
    match status {
        connect4::Status::Won(player, line) => (Some(player.as_str()), Some(line.to_vec())),
        _ => (None, None),
    }
}

/// The searches over one game, and the move chosen for the caller. Plain
/// minimax always runs: the answer is read from it.
struct Searched<M> {
    minimax: SearchResult<M>,
    alphabeta: Option<SearchResult<M>>,
    engine: Option<EngineResult<M>>,
    choice: Option<Choice<M>>,
}

/// Whether this request runs the searches its answer is not read from.
fn compares(request: &SearchRequest, context: &Context<'_>) -> bool {
    request.compare.unwrap_or(context.compare)
}

/// The engine's time budget for a request.
fn budget(request: &SearchRequest, context: &Context<'_>) -> Duration {
    Duration::from_millis(request.time_ms.unwrap_or(DEFAULT_TIME_MS).min(context.max_search_ms))
}

/// When the searches of an answer begun at `started` must stop: its time
/// budget after `started`, and never later than the request's own deadline
/// less what the answer keeps back for itself.
fn deadline(request: &SearchRequest, context: &Context<'_>, started: Instant) -> Instant {
    let own = started + budget(request, context);
    match context.deadline {
        Some(last) => own.min(last.checked_sub(ANSWER_RESERVE).unwrap_or(last)).max(started),
        None => own,
    }
}

/// Runs the engine until `deadline`, reporting its iterations through
/// `progress` in the answer's units.
#[allow(clippy::too_many_arguments)]
fn run_engine<G: Solver>(
    game: &G,
    oracle: &impl Oracle<G>,
    request: &SearchRequest,
    deadline: Instant,
    table: &mut Table,
    options: EngineOptions,
    (sign, name, draw_plies): (i64, Naming, Option<u64>),
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&ProgressReport),
) -> Result<EngineResult<G::Move>, Cancelled> {
    let limits =
        Limits { max_depth: request.max_depth, cancel: Some(cancel), deadline: Some(deadline), ..Limits::default() };
    engine_with_oracle(game, oracle, limits, table, options, &mut |p: &Progress<'_, G::Move>| {
        progress(&match p {
            Progress::Iteration(p) => ProgressReport::Iteration(IterationReport {
                depth: p.depth,
                best_move: p.best_move.map(|m| name(m.into())),
                score: sign * p.score.value(),
                exact: p.exact,
                plies_to_end: p.score.ply().map(u64::from),
                evaluation: heuristic(p.score, p.exact).map(|e| sign as i32 * e),
                principal_variation: p.principal_variation.iter().map(|&m| name(m.into())).collect(),
                nodes: p.nodes,
                elapsed_us: p.elapsed.as_micros() as u64,
            }),
            Progress::RootMove(m) => ProgressReport::Move(MoveReport {
                mv: name(m.mv.into()),
                score: sign * m.score.value(),
                exact: m.exact,
                plies_to_end: match m.score.ply() {
                    Some(ply) => Some(u64::from(ply)),
                    None => draw_plies.filter(|_| m.exact),
                },
                evaluation: heuristic(m.score, m.exact).map(|e| sign as i32 * e),
                depth: m.depth,
                nodes: m.nodes,
                elapsed_us: m.elapsed.as_micros() as u64,
            }),
        })
    })
}

/// A table for a small search: about 16 bytes per position it may visit,
/// at most 16 MiB.
fn small_table(positions: u64) -> Table {
    Table::with_bytes((positions.saturating_mul(16) as usize).clamp(1 << 12, 16 << 20))
}

fn search_all<G: Solver>(
    game: &G,
    request: &SearchRequest,
    context: &Context<'_>,
    table: &mut Table,
    sign: i64,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&ProgressReport),
) -> Result<Searched<G::Move>, Cancelled> {
    let started = Instant::now();
    let limits = Limits { max_depth: request.max_depth, cancel: Some(cancel), ..Limits::default() };
    let minimax = minimax(game, limits)?;
    let (alphabeta, engine) = if compares(request, context) {
        let alphabeta = alpha_beta(game, limits)?;
        let options = EngineOptions::default();
        let deadline = deadline(request, context, started);
        let engine =
            run_engine(game, &NoOracle, request, deadline, table, options, (sign, index, None), cancel, progress)?;
        (Some(alphabeta), Some(engine))
    } else {
        (None, None)
    };
    let mut rng = fastrand::Rng::with_seed(request.seed);
    let relative = matches!(request.game, GameInput::Tree { .. });
    let choice = pick(&minimax.root_moves, request, relative, &mut rng);
    Ok(Searched { minimax, alphabeta, engine, choice })
}

/// Runs the searches and builds the answer. `cancel` abandons the work;
/// `progress` hears of every finished iteration of the engine.
pub fn answer(
    request: &SearchRequest,
    context: &Context<'_>,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&ProgressReport),
) -> Result<Answer, Cancelled> {
    match &request.game {
        GameInput::Board(position) => board_answer(position, request, context, cancel, progress),
        GameInput::Tree { tree, maximizing } => {
            // Reading the request checked the tree against this depth limit,
            // and refused it if it failed, so this cannot fail.
            let game = tree.game(*maximizing, request.max_depth).map_err(|_| Cancelled)?;
            let mut table = small_table(tree.len() as u64);
            // Scores are reported in the tree's own units: the root's view
            // negated when the root minimizes.
            let sign = if *maximizing { 1 } else { -1 };
            let searched = search_all(&game, request, context, &mut table, sign, cancel, progress)?;
            // Names are looked up for the listed moves only: a root may have
            // millions of children.
            let name_of = |mv: u32| tree.root_child_name(mv as usize).map(str::to_string);
            let mut answer = common("tree", &searched, request, context, sign);
            answer.best_move_name = Some(searched.choice.and_then(|c| name_of(c.mv)));
            // `moves` lists the first root moves, in order.
            for (entry, root_move) in answer.moves.iter_mut().zip(&searched.minimax.root_moves) {
                entry.name = Some(name_of(root_move.mv));
            }
            answer.maximizing = Some(*maximizing);
            Ok(answer)
        }
        GameInput::Connect4(position) => connect4_answer(position, request, context, cancel, progress),
        GameInput::Othello(position) => othello_answer(position, request, context, cancel, progress),
    }
}

thread_local! {
    /// Tic-tac-toe's table, one per thread that searches, reused by every
    /// answer (a new search makes the old entries read as empty). The game
    /// has a few thousand positions in all, which 8,192 entries hold; a
    /// fresh table per answer would be allocated and zeroed for nothing.
    static BOARD_TABLE: std::cell::RefCell<Table> = std::cell::RefCell::new(Table::with_bytes(1 << 17));
}

fn board_answer(
    position: &Position,
    request: &SearchRequest,
    context: &Context<'_>,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&ProgressReport),
) -> Result<Answer, Cancelled> {
    let searched = BOARD_TABLE
        .with_borrow_mut(|table| search_all(&position.game(), request, context, table, 1, cancel, progress))?;
    let mut answer = common("board", &searched, request, context, 1);
    let status = position.status();
    let after = searched.choice.and_then(|c| position.play(c.mv));
    let status_after = after.map_or(status, |p| p.status());
    answer.board = Some(
        BoardFacts::lined(
            position.to_move().as_str(),
            (status.as_str(), winner_of(status)),
            after.map(|p| BoardText::Cells(p.to_string())),
            (status_after.as_str(), winner_of(status_after)),
        )
        .next(after.map(|p| (p.to_move().as_str(), p.legal_moves())), index),
    );
    Ok(answer)
}

fn report<M: Copy + Into<u64>>(
    result: &SearchResult<M>,
    sign: i64,
    depth: Option<u32>,
    name: Naming,
) -> AlgorithmReport {
    AlgorithmReport {
        best_move: result.best_move.map(|m| name(m.into())),
        score: sign * result.score.value(),
        exact: result.exact,
        plies_to_end: result.exact.then_some(result.principal_variation.len() as u64),
        principal_variation: result.principal_variation.iter().map(|&m| name(m.into())).collect(),
        nodes: result.nodes,
        elapsed_us: result.elapsed.as_micros() as u64,
        depth,
    }
}

/// The engine's report. `draw_plies` is the length of every drawn line,
/// when the game knows it (a drawn Connect Four game fills the board).
fn engine_report<M: Copy + Into<u64>>(
    result: &EngineResult<M>,
    sign: i64,
    draw_plies: Option<u64>,
    name: Naming,
) -> EngineReport {
    let plies = match result.score.ply() {
        Some(ply) => Some(u64::from(ply)),
        None if result.exact => draw_plies.or(Some(result.principal_variation.len() as u64)),
        None => None,
    };
    EngineReport {
        result: AlgorithmReport {
            best_move: result.best_move.map(|m| name(m.into())),
            score: sign * result.score.value(),
            exact: result.exact,
            plies_to_end: plies,
            principal_variation: result.principal_variation.iter().map(|&m| name(m.into())).collect(),
            nodes: result.nodes,
            elapsed_us: result.elapsed.as_micros() as u64,
            depth: Some(result.depth),
        },
        iterations: result.iterations,
        table_hits: result.table_hits,
        book_hits: result.book_hits,
    }
}

fn tie_break_name(tie_break: TieBreak) -> &'static str {
    match tie_break {
        TieBreak::First => "first",
        TieBreak::Random => "random",
    }
}

fn common<M: Copy + PartialEq + Into<u64>>(
    kind: &'static str,
    s: &Searched<M>,
    request: &SearchRequest,
    context: &Context<'_>,
    sign: i64,
) -> Answer {
    let minimax = report(&s.minimax, sign, request.max_depth, index);
    let alphabeta = s.alphabeta.as_ref().map(|result| report(result, sign, request.max_depth, index));
    let engine = s.engine.as_ref().map(|result| engine_report(result, sign, None, index));
    let moves_total = s.minimax.root_moves.len();
    let moves: Vec<MoveScore> = s
        .minimax
        .root_moves
        .iter()
        .take(request.max_moves)
        .map(|m| MoveScore {
            mv: index(m.mv.into()),
            name: None,
            score: Some(sign * m.score.value()),
            plies_to_end: s.minimax.exact.then_some(u64::from(m.plies)),
            exact: None,
            evaluation: None,
            depth: None,
        })
        .collect::<Vec<MoveScore>>();
    let chosen = s.choice.map(|c| index(c.mv.into()));
    // From every move, not only the listed ones.
    let best_move_score =
        s.choice.and_then(|c| s.minimax.root_moves.iter().find(|m| m.mv == c.mv)).map(|m| sign * m.score.value());
    Answer {
        kind,
        best_move: chosen,
        best_move_name: None,
        random_move: s.choice.is_some_and(|c| c.random_move),
        best_move_score,
        best_move_evaluation: None,
        score: minimax.score,
        exact: minimax.exact,
        evaluation: None,
        plies_to_end: minimax.plies_to_end,
        board: None,
        maximizing: None,
        principal_variation: minimax.principal_variation.clone(),
        moves_truncated: moves.len() < moves_total,
        moves,
        moves_total: moves_total as u64,
        max_depth: request.max_depth,
        time_ms: budget(request, context).as_millis() as u64,
        tie_break: tie_break_name(request.tie_break),
        mistake: request.mistake,
        level: request.level,
        seed: request.seed,
        moves_after: None,
        minimax: Some(minimax),
        alphabeta,
        engine,
    }
}

/// The share of a request's time budget that plain minimax and alpha-beta
/// may take when they only compare (`1 / COMPARE_SHARE`): no deeper
/// comparison starts past it, and one under way gives up at it. The engine
/// has what is left, so the whole answer fits the budget.
const COMPARE_SHARE: u32 = 4;

/// What a request's deadline keeps back for the answer itself (its line,
/// its JSON) once the searches stop: a search that got its slot late still
/// answers before `REQUEST_TIMEOUT_MS`.
pub const ANSWER_RESERVE: Duration = Duration::from_millis(100);

/// Plain minimax and alpha-beta side by side, at the deepest depth both
/// finished within the comparison's budget, and all the time each took.
struct Compared<M> {
    minimax: SearchResult<M>,
    alphabeta: SearchResult<M>,
    depth: u32,
    /// The time of every iteration of each, the one abandoned included.
    minimax_time: Duration,
    alphabeta_time: Duration,
}

/// Plain minimax or alpha-beta.
type Search<G> = for<'a> fn(&G, Limits<'a>) -> Result<SearchResult<<G as crate::search::Game>::Move>, Cancelled>;

/// Plain minimax and alpha-beta, one depth after the other from 1, to the
/// deepest depth whose plain minimax search visits at most `max_nodes`
/// positions and at which both finish by `deadline` (depth 1 always runs,
/// at most `max_depth`); a game searched to its end stops there.
fn compare<G: Heuristics>(
    game: &G,
    max_nodes: u64,
    max_depth: Option<u32>,
    cancel: &AtomicBool,
    deadline: Instant,
) -> Result<Compared<G::Move>, Cancelled> {
    let mut deepest: Option<Compared<G::Move>> = None;
    let (mut minimax_time, mut alphabeta_time) = (Duration::ZERO, Duration::ZERO);
    // A finished game is searched to depth 1, which returns at once. Lines
    // may hold passes: the depth grows until a search reaches every end.
    for depth in 1..=max_depth.unwrap_or(u32::MAX) {
        let first = depth == 1;
        if !first && Instant::now() >= deadline {
            break;
        }
        let limits = Limits {
            max_depth: Some(depth),
            cancel: Some(cancel),
            max_nodes: (!first).then_some(max_nodes),
            deadline: (!first).then_some(deadline),
            ..Limits::default()
        };
        let timed = |search: Search<G>, spent: &mut Duration| {
            let started = Instant::now();
            let result = search(game, limits);
            *spent += started.elapsed();
            result
        };
        let plain = timed(minimax::<G>, &mut minimax_time);
        let pruned = match plain {
            Ok(_) => timed(alpha_beta::<G>, &mut alphabeta_time),
            Err(cancelled) => Err(cancelled),
        };
        match plain.and_then(|plain| pruned.map(|pruned| (plain, pruned))) {
            Ok((minimax, alphabeta)) => {
                let exact = minimax.exact;
                deepest = Some(Compared { minimax, alphabeta, depth, minimax_time, alphabeta_time });
                if exact {
                    break;
                }
            }
            Err(Cancelled) if cancel.load(std::sync::atomic::Ordering::Relaxed) => return Err(Cancelled),
            // Over the node budget or past the deadline: the depth before
            // is the deepest.
            Err(Cancelled) => break,
        }
    }
    let mut compared = deepest.ok_or(Cancelled)?;
    (compared.minimax_time, compared.alphabeta_time) = (minimax_time, alphabeta_time);
    Ok(compared)
}

/// How the answer of a game the engine answers (Connect Four, Othello)
/// reads its moves and scores.
#[derive(Clone, Copy)]
struct EngineRules {
    /// The answer's `kind`.
    kind: &'static str,
    /// The moves' names.
    name: Naming,
    /// The plies of every drawn line, when the game knows them (a drawn
    /// Connect Four game fills the board).
    draw_plies: Option<u64>,
    /// A root move's score in the units a level's softmax weighs (see
    /// [`crate::search::utility`]).
    level_score: fn(Score) -> Score,
}

/// An answer still without its board facts, and the move chosen for the
/// caller.
type Answered<M> = (Answer, Option<Choice<M>>);

/// The answer of a game the engine answers: plain minimax and alpha-beta
/// only compare, at the depth the comparison budget allows. The caller
/// adds what the answer says of the board (`board`, `moves_after`); the
/// move chosen for the caller comes with it.
#[allow(clippy::too_many_arguments)]
fn engine_answer<G: Solver>(
    game: &G,
    oracle: &impl Oracle<G>,
    rules: EngineRules,
    request: &SearchRequest,
    context: &Context<'_>,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&ProgressReport),
) -> Result<Answered<G::Move>, Cancelled> {
    let name = rules.name;
    let started = Instant::now();
    let deadline = deadline(request, context, started);
    let compared = if compares(request, context) {
        let share = started + budget(request, context) / COMPARE_SHARE;
        let c = compare(game, context.compare_max_nodes, request.max_depth, cancel, share.min(deadline))?;
        let mut minimax = report(&c.minimax, 1, Some(c.depth), name);
        let mut alphabeta = report(&c.alphabeta, 1, Some(c.depth), name);
        minimax.elapsed_us = c.minimax_time.as_micros() as u64;
        alphabeta.elapsed_us = c.alphabeta_time.as_micros() as u64;
        Some((minimax, alphabeta))
    } else {
        None
    };
    let (minimax_report, alphabeta_report) = compared.unzip();
    let options = EngineOptions { score_root_moves: true, deepen_first: context.watched, ..EngineOptions::default() };
    let mut pooled = context.tables.take();
    let table = pooled.table.as_mut().expect("a pooled table is present until dropped");
    let engine_result =
        run_engine(game, oracle, request, deadline, table, options, (1, name, rules.draw_plies), cancel, progress)?;
    drop(pooled);

    let mut rng = fastrand::Rng::with_seed(request.seed);
    let choice = engine_choice(&engine_result, rules, request, &mut rng);
    let engine = engine_report(&engine_result, 1, rules.draw_plies, name);
    let moves_total = engine_result.root_moves.len();
    let moves: Vec<MoveScore> = engine_result
        .root_moves
        .iter()
        .take(request.max_moves)
        .map(|m| MoveScore {
            mv: name(m.mv.into()),
            name: None,
            score: m.score.map(Score::value),
            plies_to_end: m.score.and_then(|s| match s.ply() {
                Some(ply) => Some(u64::from(ply)),
                None => rules.draw_plies.filter(|_| m.exact),
            }),
            exact: Some(m.exact),
            evaluation: Some(m.score.and_then(|s| heuristic(s, m.exact))),
            depth: Some(m.depth),
        })
        .collect();
    let chosen = choice.and_then(|c| engine_result.root_moves.iter().find(|m| m.mv == c.mv));
    let answer = Answer {
        kind: rules.kind,
        best_move: choice.map(|c| name(c.mv.into())),
        best_move_name: None,
        random_move: choice.is_some_and(|c| c.random_move),
        best_move_score: chosen.and_then(|m| m.score).map(Score::value),
        best_move_evaluation: Some(chosen.and_then(|m| m.score.and_then(|s| heuristic(s, m.exact)))),
        score: engine.result.score,
        exact: engine.result.exact,
        evaluation: Some(heuristic(engine_result.score, engine_result.exact)),
        plies_to_end: engine.result.plies_to_end,
        board: None,
        maximizing: None,
        principal_variation: engine.result.principal_variation.clone(),
        moves_truncated: moves.len() < moves_total,
        moves_total: moves_total as u64,
        moves,
        max_depth: request.max_depth,
        time_ms: budget(request, context).as_millis() as u64,
        tie_break: tie_break_name(request.tie_break),
        mistake: request.mistake,
        level: request.level,
        seed: request.seed,
        moves_after: None,
        minimax: minimax_report,
        alphabeta: alphabeta_report,
        engine: Some(engine),
    };
    Ok((answer, choice))
}

fn connect4_answer(
    position: &connect4::Position,
    request: &SearchRequest,
    context: &Context<'_>,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&ProgressReport),
) -> Result<Answer, Cancelled> {
    let remaining = u64::from(connect4::CELLS - position.stones());
    let rules = EngineRules { kind: "connect4", name: index, draw_plies: Some(remaining), level_score: |s| s };
    // The book near the start, the endgame solver near the end.
    let oracle = connect4::Endgame::with_book(context.book);
    let (mut answer, choice) = engine_answer(&position.game(), &oracle, rules, request, context, cancel, progress)?;
    let status = position.status();
    let after = choice.and_then(|c| position.play(c.mv));
    let status_after = after.map_or(status, |p| p.status());
    answer.board = Some(
        BoardFacts::lined(
            position.to_move().as_str(),
            (status.as_str(), connect4_winner_of(status)),
            after.map(|p| BoardText::Rows(p.rows())),
            (status_after.as_str(), connect4_winner_of(status_after)),
        )
        .next(after.map(|p| (p.to_move().as_str(), p.legal_moves())), index),
    );
    answer.moves_after = Some(request.moves.as_ref().zip(choice).map(|(moves, c)| moves.then(c.mv)));
    Ok(answer)
}

/// Othello: the engine with the exact endgame solver as its oracle. Scores
/// are final disc differences for the side to move when exact; otherwise
/// 0 with the evaluation, in about hundredths of a disc.
fn othello_answer(
    position: &othello::Position,
    request: &SearchRequest,
    context: &Context<'_>,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&ProgressReport),
) -> Result<Answer, Cancelled> {
    let rules = EngineRules { kind: "othello", name: square, draw_plies: None, level_score: levels::othello_points };
    let oracle = Endgame::default();
    let (mut answer, choice) = engine_answer(&position.game(), &oracle, rules, request, context, cancel, progress)?;
    let winner_of = |status: othello::Status| match status {
        othello::Status::Won(player) => Some(player.as_str()),
        _ => None,
    };
    let status = position.status();
    let after = choice.and_then(|c| position.play(c.mv));
    let status_after = after.map_or(status, |p| p.status());
    answer.board = Some(
        BoardFacts {
            to_move: position.to_move().as_str(),
            status: status.as_str(),
            winner: winner_of(status),
            winning_line: None,
            discs: Some(Discs::of(position)),
            board_after: after.map(|p| BoardText::Rows(p.rows())),
            status_after: status_after.as_str(),
            winner_after: winner_of(status_after),
            winning_line_after: None,
            discs_after: Some(after.as_ref().map(Discs::of)),
            to_move_after: None,
            legal_moves_after: Vec::new(),
            flipped: Some(after.as_ref().map(|after| {
                let mover = Some(position.to_move());
                (0..64u8)
                    .filter(|&at| position.cell(at).is_some_and(|c| Some(c) != mover) && after.cell(at) == mover)
                    .map(|at| square(u64::from(at)))
                    .collect()
            })),
        }
        .next(after.map(|p| (p.to_move().as_str(), p.legal_moves())), square),
    );
    answer.moves_after = Some(request.moves.as_ref().zip(choice).map(|(moves, c)| moves.then(c.mv)));
    Ok(answer)
}

/// The move for the caller among scored root moves: with a level, the
/// level's softmax choice (`relative` for a tree's own units); otherwise
/// the best, or a random move by the chance of a mistake.
fn pick<M: Copy>(
    root_moves: &[RootMove<M>],
    request: &SearchRequest,
    relative: bool,
    rng: &mut fastrand::Rng,
) -> Option<Choice<M>> {
    match request.temperature {
        Some(temperature) => choose_softly(root_moves, temperature, relative, request.tie_break, rng),
        None => choose(root_moves, request.tie_break, request.mistake, rng),
    }
}

/// The move for the caller: chosen among the engine's scored root moves as
/// for tic-tac-toe when it scored them all (a level weighs them in
/// `rules.level_score`'s units), else the engine's own best move (with the
/// same chance of a mistake).
fn engine_choice<M: Copy>(
    result: &EngineResult<M>,
    rules: EngineRules,
    request: &SearchRequest,
    rng: &mut fastrand::Rng,
) -> Option<Choice<M>> {
    let weigh = |score: Score| if request.temperature.is_some() { (rules.level_score)(score) } else { score };
    let draw_plies = rules.draw_plies.unwrap_or(0) as u32;
    let scored: Option<Vec<RootMove<M>>> = result
        .root_moves
        .iter()
        .map(|m| {
            m.score.map(|score| RootMove { mv: m.mv, score: weigh(score), plies: score.ply().unwrap_or(draw_plies) })
        })
        .collect();
    match scored {
        Some(scored) if !scored.is_empty() => pick(&scored, request, false, rng),
        _ => {
            let best = result.best_move?;
            if rng.f64() < request.mistake {
                let pick = result.root_moves[rng.usize(..result.root_moves.len())].mv;
                return Some(Choice { mv: pick, random_move: true });
            }
            Some(Choice { mv: best, random_move: false })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_warms_and_keeps_at_most_one_table_per_slot() {
        let pool = TablePool::new(4 << 20, 2);
        assert_eq!(pool.kept(), 0);
        pool.warm();
        assert_eq!(pool.kept(), 2);
        pool.warm();
        assert_eq!(pool.kept(), 2, "warming again makes nothing more");
        {
            // Three searches at once: two warm tables and a fresh one.
            let _a = pool.take();
            let _b = pool.take();
            assert_eq!(pool.kept(), 0);
            let _c = pool.take();
        }
        assert_eq!(pool.kept(), 2, "the third table is given back to the system");
    }
}
