//! The JSON answer to a request, and what the event stream reports while
//! a search goes on: the fields every game has, and a game's own fields,
//! each written at its place among them.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use crate::search::Score;

/// A move as the answer names it: a number (a cell, a child, a column) or
/// a name (a square, `"pass"`), as the game writes its moves.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum MoveId {
    /// A cell, a child or a column.
    Index(u64),
    /// A square's name, or `"pass"`.
    Name(String),
}

/// How a game names its moves in an answer, from the search's move as a
/// number.
pub type Naming = fn(u64) -> MoveId;

/// Moves as numbers: cells, children, columns.
pub fn index(mv: u64) -> MoveId {
    MoveId::Index(mv)
}

/// Where a game's own field goes among the fields every answer has: the
/// JSON keeps the order a client has always seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// After `best_move` (a tree's `best_move_name`).
    AfterBestMove,
    /// After `best_move_score` (an engine answer's `best_move_evaluation`).
    AfterBestMoveScore,
    /// After `exact` (an engine answer's `evaluation`).
    AfterExact,
    /// After `plies_to_end` (the board's facts, a tree's `maximizing`).
    AfterPliesToEnd,
    /// After `seed` (a game sent as moves: `moves_after`).
    AfterSeed,
}

/// A game's own fields of an answer or a move, in order, each as the JSON
/// it serializes to.
#[derive(Debug, Default)]
pub struct Extra(Vec<(Place, &'static str, Box<RawValue>)>);

impl Extra {
    /// Adds `name` with `value` at `place`, after the fields already there.
    pub fn push(&mut self, place: Place, name: &'static str, value: &impl Serialize) {
        // Values are plain data (numbers, strings, arrays and maps of them):
        // serializing one cannot fail.
        let raw = serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned());
        self.0.push((place, name, raw));
    }

    fn write<M: SerializeMap>(&self, map: &mut M, place: Place) -> Result<(), M::Error> {
        for (_, name, value) in self.0.iter().filter(|(p, _, _)| *p == place) {
            map.serialize_entry(name, value)?;
        }
        Ok(())
    }
}

/// What the event stream reports while the engine goes on: a finished
/// iteration of its deepening (a `progress` event), or a root move whose
/// score was just settled (a `move` event).
#[derive(Debug, serde::Serialize)]
#[serde(untagged)]
pub enum ProgressReport {
    /// A finished iteration.
    Iteration(IterationReport),
    /// A root move's settled score.
    Move(MoveReport),
}

/// A finished iteration of the engine, as the event stream reports it.
#[derive(Debug, serde::Serialize)]
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
    /// the answer's `evaluation`.
    pub evaluation: Option<i32>,
    /// Its line of best play.
    pub principal_variation: Vec<MoveId>,
    /// Positions the engine visited so far.
    pub nodes: u64,
    /// Microseconds since the engine started.
    pub elapsed_us: u64,
}

/// A root move's score, settled while the engine scores every move.
#[derive(Debug, serde::Serialize)]
pub struct MoveReport {
    /// The move, as in the answer's `moves`.
    #[serde(rename = "move")]
    pub mv: MoveId,
    /// Its score, in the answer's units.
    pub score: i64,
    /// True when the score saw every line to its end.
    pub exact: bool,
    /// Plies to the end, when known.
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
#[derive(Debug, serde::Serialize)]
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
#[derive(Debug, serde::Serialize)]
pub struct EngineReport {
    /// The fields every algorithm reports; `depth` is the deepest finished
    /// iteration.
    #[serde(flatten)]
    pub result: AlgorithmReport,
    /// Iterations of iterative deepening finished.
    pub iterations: u32,
    /// Positions whose transposition-table entry was used.
    pub table_hits: u64,
    /// Positions scored by the game's oracle without a search (an opening
    /// book's answers, or an endgame solver's).
    pub book_hits: u64,
}

/// A legal move and its score under best play, with the fields its game
/// or its search adds (a child's name after the move; an engine's
/// `exact`, `evaluation` and `depth` after `plies_to_end`).
#[derive(Debug)]
pub struct MoveScore {
    /// The move.
    pub mv: MoveId,
    /// The move's score; `None` when the engine's budget ran out before it
    /// was found.
    pub score: Option<i64>,
    /// Plies to the end of its line, when known.
    pub plies_to_end: Option<u64>,
    /// Its own fields: [`Place::AfterBestMove`] goes after the move,
    /// [`Place::AfterPliesToEnd`] after `plies_to_end`.
    pub extra: Extra,
}

impl Serialize for MoveScore {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("move", &self.mv)?;
        self.extra.write(&mut map, Place::AfterBestMove)?;
        map.serialize_entry("score", &self.score)?;
        map.serialize_entry("plies_to_end", &self.plies_to_end)?;
        self.extra.write(&mut map, Place::AfterPliesToEnd)?;
        map.end()
    }
}

/// The evaluation a score stands for, in the game's points: `Some` when the
/// score is not exact and no win or loss was forced within the search's
/// reach, `None` for an outcome.
pub fn heuristic(score: Score, exact: bool) -> Option<i32> {
    if exact {
        None
    } else {
        score.heuristic()
    }
}

/// The `200` answer to `POST /best-move`: the fields every game has, and
/// the game's own (`extra`), each at its place.
#[derive(Debug)]
pub struct Answer {
    /// The answer's shape: the game's kind (`"board"` for tic-tac-toe).
    pub kind: &'static str,
    /// The move to play; `None` when the game is over.
    pub best_move: Option<MoveId>,
    /// True when `mistake` (or a level) made the answer a move other than
    /// the best.
    pub random_move: bool,
    /// The score of `best_move` itself, as in `moves`.
    pub best_move_score: Option<i64>,
    /// The position's score under best play.
    pub score: i64,
    /// False when the depth limit or the budget cut a line.
    pub exact: bool,
    /// Plies to the end under best play, when known.
    pub plies_to_end: Option<u64>,
    /// The line of best play.
    pub principal_variation: Vec<MoveId>,
    /// The legal moves with their scores: the first `max_moves` of them.
    pub moves: Vec<MoveScore>,
    /// How many legal moves there are.
    pub moves_total: u64,
    /// True when `moves` lists fewer than `moves_total`.
    pub moves_truncated: bool,
    /// The depth limit the search ran under.
    pub max_depth: Option<u32>,
    /// The time budget in milliseconds, after the server's cap.
    pub time_ms: u64,
    /// "first" or "random".
    pub tie_break: &'static str,
    /// The mistake probability, as requested.
    pub mistake: f64,
    /// The difficulty level, as requested.
    pub level: Option<u8>,
    /// The seed behind every random choice.
    pub seed: u64,
    /// Plain minimax's own result; `None` when it was not run.
    pub minimax: Option<AlgorithmReport>,
    /// Alpha-beta's own result; `None` when it was not run.
    pub alphabeta: Option<AlgorithmReport>,
    /// The engine's own result; `None` when it was not run.
    pub engine: Option<EngineReport>,
    /// The game's own fields and its search's, each at its place.
    pub extra: Extra,
}

impl Serialize for Answer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("kind", self.kind)?;
        map.serialize_entry("best_move", &self.best_move)?;
        self.extra.write(&mut map, Place::AfterBestMove)?;
        map.serialize_entry("random_move", &self.random_move)?;
        map.serialize_entry("best_move_score", &self.best_move_score)?;
        self.extra.write(&mut map, Place::AfterBestMoveScore)?;
        map.serialize_entry("score", &self.score)?;
        map.serialize_entry("exact", &self.exact)?;
        self.extra.write(&mut map, Place::AfterExact)?;
        map.serialize_entry("plies_to_end", &self.plies_to_end)?;
        self.extra.write(&mut map, Place::AfterPliesToEnd)?;
        map.serialize_entry("principal_variation", &self.principal_variation)?;
        map.serialize_entry("moves", &self.moves)?;
        map.serialize_entry("moves_total", &self.moves_total)?;
        map.serialize_entry("moves_truncated", &self.moves_truncated)?;
        map.serialize_entry("max_depth", &self.max_depth)?;
        map.serialize_entry("time_ms", &self.time_ms)?;
        map.serialize_entry("tie_break", self.tie_break)?;
        map.serialize_entry("mistake", &self.mistake)?;
        map.serialize_entry("level", &self.level)?;
        map.serialize_entry("seed", &self.seed)?;
        self.extra.write(&mut map, Place::AfterSeed)?;
        map.serialize_entry("minimax", &self.minimax)?;
        map.serialize_entry("alphabeta", &self.alphabeta)?;
        map.serialize_entry("engine", &self.engine)?;
        map.end()
    }
}
