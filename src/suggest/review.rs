//! Game review: every move of a game judged against the best move of the
//! position it was played in, for any served game.
//!
//! The game reads its moves into positions ([`PlayedGame`], by the
//! registry's [`Catalog::read_game`]); each position is answered as
//! `/best-move` answers it, every move scored, and the move played is
//! compared with the best one. Where both scores are exact the judgement
//! is proven: a move that keeps the position's outcome is `best` or
//! `good`, one that gives up a step of it (a win to a draw, a draw to a
//! loss) a `mistake`, a win to a loss a `blunder`. Where a score is an
//! evaluation, the judgement weighs winning chances, as Lichess does:
//! the best move's chance less the played move's, on a scale from 0 to 1.
//!
//! Plies are searched from the end of the game backwards: the end is
//! decided soonest and costs least. While every ply so far was solved
//! exactly, the next one may take sixteen times the longest solve so far,
//! or an eighth of the budget if more (within what the other plies can
//! spare), since it may be solved too,
//! and it runs alone, with the whole machine; from the first ply that is
//! not solved, the plies left share what is left evenly, in as many search
//! slots as are idle. With more than one worker (the idle
//! search slots of a replica), workers take the next ply from the end in
//! turn.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};

use super::answer::MoveId;
use super::pipeline::{Context, ANSWER_RESERVE};
use super::request::{option, Fields, InputError, Options, DEFAULT_MAX_MOVES};
use super::served::{Catalog, ServedPosition};
use crate::search::{Cancelled, Table, TieBreak};

/// The fields a review request may have.
pub const REVIEW_FIELDS: [&str; 7] = ["game", "moves", "board", "to_move", "time_ms", "size", "rule"];

/// How many times the longest solve so far the next ply may take, while
/// every ply so far was solved: a solve costs a few times more with each
/// ply further from the end, and the ply before the next may still be
/// under way beside it.
const GROWTH: u32 = 16;

/// While every ply so far was solved, the next may take at least this
/// part of the whole budget (`1 / TAIL_SHARE`): the time to solve grows
/// unevenly from ply to ply.
const TAIL_SHARE: u32 = 8;

/// The time budget of a review that does not set `time_ms`.
pub const DEFAULT_REVIEW_MS: u64 = 25_000;

/// Winning-chance losses (from 0 to 1) from which a move whose scores are
/// not both exact is an inaccuracy, a mistake, a blunder: Lichess's
/// thresholds (0.1, 0.2, 0.3 on its scale of -1 to 1), halved for a
/// scale of 0 to 1.
const THRESHOLDS: [f64; 3] = [0.05, 0.10, 0.15];

/// How a game's scores read as winning chances and judgements.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    /// Evaluation points to one unit of the game's score (Othello: 100 a
    /// disc), when the evaluation counts in them; a score then reads in
    /// those units whether exact or estimated.
    pub points_per_unit: Option<f64>,
    /// The winning chance of an evaluation of `p` points is
    /// `1 / (1 + e^(-slope × p))`.
    pub chance_slope: f64,
    /// Whether the plies to the end tell best moves apart (a quicker win
    /// is best; a slower one that keeps the win is good).
    pub distance_counts: bool,
    /// The most, in the game's units, that a move keeping a proven outcome
    /// may lose against the best and still be `good` (beyond it, an
    /// `inaccuracy`).
    pub good_margin: i64,
}

/// One move of a game, with the position it was played in.
pub struct Played {
    /// The move as the request wrote it.
    pub notation: Value,
    /// The move as answers name it.
    pub name: MoveId,
    /// The index of the move in the request's list (from 0).
    pub index: usize,
    /// The side that played it (`"X"` or `"O"`).
    pub mover: &'static str,
    /// The position it was played in.
    pub before: Box<dyn ServedPosition>,
    /// The position after it, for a game whose answers list only some
    /// moves (the strongest candidates): the move played, when not among
    /// them, is scored from there.
    pub after: Option<Box<dyn ServedPosition>>,
}

/// A game to review: its name, its moves in order, and how its scores
/// read.
pub struct PlayedGame {
    /// The game's name (`game` in the request).
    pub game: &'static str,
    /// The moves to judge, in order (passes left out).
    pub plies: Vec<Played>,
    /// How its scores read.
    pub scale: Scale,
}

/// A validated review request.
pub struct ReviewRequest {
    /// The game.
    pub game: PlayedGame,
    /// The whole review's time budget, in milliseconds.
    pub time_ms: u64,
}

impl ReviewRequest {
    /// Reads a review request: the game by the registry (`games`), and a
    /// `time_ms` up to `max_time_ms` (a larger one is capped at it).
    pub fn parse(body: &[u8], games: &dyn Catalog, max_time_ms: u64) -> Result<ReviewRequest, InputError> {
        let fields = Fields::parse(body, &REVIEW_FIELDS)?;
        let time_ms =
            option::<u64>(fields.get("time_ms"), "time_ms", "an integer number of milliseconds of at least 1")?;
        if time_ms == Some(0) {
            return Err(InputError::invalid(
                "invalid_option",
                "time_ms".to_string(),
                "time_ms must be an integer number of milliseconds of at least 1, not 0",
            ));
        }
        let game = option::<String>(fields.get("game"), "game", &games.expected())?;
        let game = games.read_game(game.as_deref(), &fields)?;
        if game.plies.is_empty() {
            return Err(InputError::invalid(
                "invalid_moves",
                "moves".to_string(),
                "moves has no move to review: send the moves of the game, from its first",
            ));
        }
        Ok(ReviewRequest { game, time_ms: time_ms.unwrap_or(DEFAULT_REVIEW_MS).min(max_time_ms) })
    }
}

/// What a review says of one move.
#[derive(Clone, Debug, Serialize)]
pub struct PlyReview {
    /// The move's number in the game, from 1 (its place in the request's
    /// list, passes counted).
    pub ply: usize,
    /// Who played it.
    pub to_move: &'static str,
    /// The move, as the request wrote it.
    #[serde(rename = "move")]
    pub mv: Value,
    /// The move played's score for its player, in the game's units (an
    /// evaluation in those units when not exact); `null` when the game
    /// has no such units for an evaluation, or the move was not scored.
    pub played_score: Option<Value>,
    /// The best move's score, likewise.
    pub best_score: Option<Value>,
    /// The moves as good as the best one.
    pub best_moves: Vec<Value>,
    /// Both scores are exact.
    pub exact: bool,
    /// Plies to the end after the move played, when its score is exact
    /// and the game is decided.
    pub played_plies_to_end: Option<u64>,
    /// Plies to the end after the best move, likewise.
    pub best_plies_to_end: Option<u64>,
    /// The best score less the played one, in the game's units.
    pub loss: Option<Value>,
    /// The mover's winning chance, from 0 to 1, after the best move.
    pub best_win_chance: Option<f64>,
    /// The mover's winning chance after the move played.
    pub played_win_chance: Option<f64>,
    /// Lichess's accuracy of the move, from 0 to 100, from the chance lost.
    pub accuracy: Option<f64>,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`; `null` when the
    /// move was not scored in time.
    pub judgement: Option<&'static str>,
    /// True when the judgement rests on exact scores.
    pub proven: bool,
    /// True when the move was the only legal one.
    pub forced: bool,
    /// Positions the search of this ply visited.
    pub nodes: u64,
    /// The time it took, in microseconds.
    pub elapsed_us: u64,
}

/// What a review says of one side.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SideSummary {
    /// The side's moves reviewed.
    pub moves: usize,
    /// Moves judged best.
    pub best: usize,
    /// Moves judged good.
    pub good: usize,
    /// Moves judged inaccuracies.
    pub inaccuracy: usize,
    /// Moves judged mistakes.
    pub mistake: usize,
    /// Moves judged blunders.
    pub blunder: usize,
    /// The mean accuracy of the side's moves that had a choice, from 0 to
    /// 100 (`null` with none).
    pub accuracy: Option<f64>,
}

/// Both sides' summaries.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Sides {
    /// The first player's.
    #[serde(rename = "X")]
    pub x: SideSummary,
    /// The second player's.
    #[serde(rename = "O")]
    pub o: SideSummary,
}

/// A whole review.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// Always `"review"`.
    pub kind: &'static str,
    /// The game's name.
    pub game: &'static str,
    /// Every move, in order.
    pub plies: Vec<PlyReview>,
    /// Per side: the judgements counted, and the accuracy.
    pub sides: Sides,
    /// The plies (numbers) whose move changed the proven outcome.
    pub turning_points: Vec<usize>,
    /// Plies whose scores are both exact.
    pub exact_plies: usize,
    /// The review's time budget, in milliseconds.
    pub time_ms: u64,
    /// The most plies searched at once (the review's own search slot and
    /// the idle ones it was lent).
    pub workers: usize,
    /// Positions visited in all.
    pub nodes: u64,
    /// The review's time, in microseconds.
    pub elapsed_us: u64,
}

/// One move's score in an answer, as the review reads it.
#[derive(Clone, Debug, PartialEq)]
struct Scored {
    score: Option<i64>,
    exact: bool,
    evaluation: Option<i64>,
    plies: Option<u64>,
}

impl Scored {
    /// A move's entry in an answer's `moves`. A bound (`"bound"`: the
    /// move proven no better than the best, its own score not found) says
    /// nothing of how much the move loses: it reads as unscored.
    fn read(entry: &Map<String, Value>, exact_default: bool) -> Scored {
        let bounded = entry.get("bound").is_some_and(|b| !b.is_null());
        Scored {
            score: entry.get("score").and_then(Value::as_i64).filter(|_| !bounded),
            exact: entry.get("exact").and_then(Value::as_bool).unwrap_or(exact_default),
            evaluation: entry.get("evaluation").and_then(Value::as_i64),
            plies: entry.get("plies_to_end").and_then(Value::as_u64),
        }
    }

    /// The mover's winning chance, from 0 to 1: the logistic of its
    /// evaluation, or of its score in evaluation points for a game whose
    /// evaluation counts in its units; else a decided score's outcome (a
    /// win 1, a draw one half, a loss 0).
    fn chance(&self, scale: &Scale) -> Option<f64> {
        let logistic = |points: f64| 1.0 / (1.0 + (-scale.chance_slope * points).exp());
        match (self.score, self.evaluation, scale.points_per_unit) {
            (_, Some(points), _) => Some(logistic(points as f64)),
            (Some(score), None, Some(per_unit)) => Some(logistic(score as f64 * per_unit)),
            (Some(score), None, None) if score != 0 || self.exact => Some(match score.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            }),
            _ => None,
        }
    }

    /// The score in the game's units: exact, or the evaluation in them.
    fn units(&self, scale: &Scale) -> Option<f64> {
        match (self.score, self.evaluation, scale.points_per_unit) {
            (Some(score), None, _) => Some(score as f64),
            (_, Some(points), Some(per_unit)) => Some(points as f64 / per_unit),
            _ => None,
        }
    }
}

/// A number for the answer: an integer as one, anything else to two
/// decimals.
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        Value::from(x as i64)
    } else {
        serde_json::Number::from_f64((x * 100.0).round() / 100.0).map_or(Value::Null, Value::Number)
    }
}

/// Lichess's accuracy of a move that lost `lost` of the mover's winning
/// chance (from 0 to 1), from 0 to 100.
fn accuracy(lost: f64) -> f64 {
    let percent = (lost * 100.0).max(0.0);
    ((103.1668 * (-0.04354 * percent).exp() - 3.1669).clamp(0.0, 100.0) * 10.0).round() / 10.0
}

/// The score of the move into the position answered by `answer` (as
/// JSON), for the side that played it: the answer's own, seen from the
/// other side, one ply further from the end.
fn scored_after(answer: &Value) -> Scored {
    let exact = answer.get("exact").and_then(Value::as_bool).unwrap_or(false);
    let over = answer.get("status").and_then(Value::as_str).is_some_and(|s| s != "in_progress");
    Scored {
        score: answer.get("score").and_then(Value::as_i64).map(|s| -s),
        exact,
        evaluation: answer.get("evaluation").and_then(Value::as_i64).map(|e| -e),
        plies: answer.get("plies_to_end").and_then(Value::as_u64).or(over.then_some(0)).map(|p| p + 1),
    }
}

/// Judges the move played from its answer (as JSON), and from the answer
/// after it when the move is not among those listed (`after`).
fn judge(played: &Played, answer: &Value, after: Option<&Value>, scale: &Scale) -> PlyReview {
    let empty = Map::new();
    let object = answer.as_object().unwrap_or(&empty);
    let exact_default = object.get("exact").and_then(Value::as_bool).unwrap_or(false);
    let moves: Vec<(Value, Scored)> = object
        .get("moves")
        .and_then(Value::as_array)
        .map(|moves| {
            moves
                .iter()
                .filter_map(Value::as_object)
                .map(|m| (m.get("move").cloned().unwrap_or(Value::Null), Scored::read(m, exact_default)))
                .collect()
        })
        .unwrap_or_default();
    let best_name = object.get("best_move").cloned().unwrap_or(Value::Null);
    let best = moves.iter().find(|(name, _)| *name == best_name).map(|(_, s)| s.clone());
    let name = serde_json::to_value(&played.name).unwrap_or(Value::Null);
    let played_score =
        moves.iter().find(|(n, _)| *n == name).map(|(_, s)| s.clone()).or_else(|| after.map(scored_after));
    let same = |a: &Scored, b: &Scored| {
        a.score == b.score
            && a.exact == b.exact
            && a.evaluation == b.evaluation
            && (!scale.distance_counts || a.plies == b.plies)
    };
    let mut best_moves: Vec<Value> = match &best {
        Some(best) => moves.iter().filter(|(_, s)| same(s, best)).map(|(n, _)| n.clone()).collect(),
        None => Vec::new(),
    };
    // A move scored apart (not listed) that is as good as the best is one.
    if let (Some(best), Some(mine)) = (&best, &played_score) {
        if same(mine, best) && !best_moves.contains(&name) {
            best_moves.push(name.clone());
        }
    }
    let forced = object.get("moves_total").and_then(Value::as_u64) == Some(1);
    let engine = object.get("engine").filter(|e| !e.is_null()).or(object.get("minimax"));
    let nodes = engine.and_then(|e| e.get("nodes")).and_then(Value::as_u64).unwrap_or(0);
    let elapsed_us = engine.and_then(|e| e.get("elapsed_us")).and_then(Value::as_u64).unwrap_or(0);

    let mut review = PlyReview {
        ply: played.index + 1,
        to_move: played.mover,
        mv: played.notation.clone(),
        played_score: None,
        best_score: None,
        best_moves,
        exact: false,
        played_plies_to_end: None,
        best_plies_to_end: None,
        loss: None,
        best_win_chance: None,
        played_win_chance: None,
        accuracy: None,
        judgement: None,
        proven: false,
        forced,
        nodes,
        elapsed_us,
    };
    let (Some(best), Some(mine)) = (best, played_score) else {
        return review;
    };
    let is_best = review.best_moves.contains(&name);
    review.exact = best.exact && mine.exact;
    review.best_score = best.units(scale).map(number);
    review.played_score = mine.units(scale).map(number);
    review.best_plies_to_end = best.plies.filter(|_| best.exact);
    review.played_plies_to_end = mine.plies.filter(|_| mine.exact);
    review.loss = best.units(scale).zip(mine.units(scale)).map(|(b, m)| number((b - m).max(0.0)));
    let (best_chance, my_chance) = (best.chance(scale), mine.chance(scale));
    review.best_win_chance = best_chance.map(|c| (c * 1000.0).round() / 1000.0);
    review.played_win_chance = my_chance.map(|c| (c * 1000.0).round() / 1000.0);
    let lost = best_chance.zip(my_chance).map(|(b, m)| (b - m).max(0.0));
    review.accuracy = lost.map(accuracy);
    review.judgement = if review.exact {
        review.proven = true;
        let outcome = |s: &Scored| s.score.unwrap_or(0).signum();
        match outcome(&best) - outcome(&mine) {
            d if d <= 0 && is_best => Some("best"),
            d if d <= 0 => {
                let loss = best.score.unwrap_or(0) - mine.score.unwrap_or(0);
                Some(if loss <= scale.good_margin { "good" } else { "inaccuracy" })
            }
            1 => Some("mistake"),
            _ => Some("blunder"),
        }
    } else if is_best {
        Some("best")
    } else {
        lost.map(|lost| match lost {
            l if l < THRESHOLDS[0] => "good",
            l if l < THRESHOLDS[1] => "inaccuracy",
            l if l < THRESHOLDS[2] => "mistake",
            _ => "blunder",
        })
    };
    review
}

/// The options each ply's answer is searched with: every move scored,
/// the best move first among equals, nothing compared, within `time_ms`.
fn ply_options(time_ms: u64) -> Options {
    Options {
        max_depth: None,
        tie_break: TieBreak::First,
        seed: 0,
        mistake: 0.0,
        level: None,
        temperature: None,
        time_ms: Some(time_ms.max(1)),
        max_moves: DEFAULT_MAX_MOVES,
        compare: Some(false),
    }
}

/// A search slot lent to a review beyond its own, held while one ply is
/// searched.
pub type Lent = Box<dyn Send>;

/// Reviews `request`'s game within its budget and `context`'s deadline.
/// One worker always runs; up to `helpers` more search plies beside it,
/// each ply in a slot that `lend` lends while one is idle (a helper stops
/// when it gets none). `on_ply` hears of each ply as it is judged (from the
/// end of the game backwards).
pub fn review(
    request: &ReviewRequest,
    context: &Context<'_>,
    helpers: usize,
    lend: &(dyn Fn() -> Option<Lent> + Sync),
    cancel: &AtomicBool,
    on_ply: &(dyn Fn(&PlyReview) + Sync),
) -> Result<Review, Cancelled> {
    let started = Instant::now();
    let game = &request.game;
    let count = game.plies.len();
    let budget = Duration::from_millis(request.time_ms);
    let end = match context.deadline {
        Some(deadline) => (started + budget).min(deadline.checked_sub(ANSWER_RESERVE).unwrap_or(deadline)),
        None => started + budget,
    };
    // The next ply to take, counted from the end.
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<Option<PlyReview>>> = Mutex::new(vec![None; count]);
    let nodes = AtomicU64::new(0);
    let active = AtomicUsize::new(1);
    // Set once a ply is judged without exact scores: from then on the
    // plies share what is left evenly.
    let undecided = AtomicBool::new(false);
    let floor = budget / (3 * count as u32);
    // The longest time a ply took to be solved, in microseconds.
    let longest_solve = AtomicU64::new(0);
    let most = AtomicUsize::new(1);
    // What the workers take from the context, which holds no table of theirs.
    let (tables, compare_max_nodes) = (context.tables, context.compare_max_nodes);
    let plies = |helper: bool, table: &RefCell<Table>| -> Result<(), Cancelled> {
        loop {
            let slot = if helper {
                match lend() {
                    Some(slot) => Some(slot),
                    None => return Ok(()),
                }
            } else {
                None
            };
            let (index, share) = {
                let Ok(mut taken) = next.lock() else { return Err(Cancelled) };
                if *taken == count {
                    return Ok(());
                }
                let index = count - 1 - *taken;
                *taken += 1;
                let left = end.saturating_duration_since(Instant::now());
                let plies_left = (count - *taken + 1) as u32;
                let workers = active.load(Ordering::Relaxed) as u32;
                // What is left of the budget, shared among the plies left
                // and the workers: a ply may take twice its part, since the
                // decided ones finish early.
                let even = left * 2 * workers / plies_left;
                let share = if undecided.load(Ordering::Relaxed) {
                    even
                } else {
                    // Every ply judged so far was solved: this one may be
                    // too, at several times the cost of the longest solve, with
                    // what the others can spare (each keeps a third of its
                    // part of the budget) and a share of it beside the
                    // other workers.
                    let spare = left.saturating_sub(floor * (plies_left - 1)).min(left / (workers + 1));
                    let grown = Duration::from_micros(longest_solve.load(Ordering::Relaxed)) * GROWTH;
                    grown.max(budget / TAIL_SHARE).min(spare).max(even)
                };
                (index, share.min(left))
            };
            if cancel.load(Ordering::Relaxed) {
                return Err(Cancelled);
            }
            let played = &game.plies[index];
            let ply_context = Context {
                tables,
                max_search_ms: u64::MAX,
                compare_max_nodes,
                deadline: Some(end + ANSWER_RESERVE),
                watched: false,
                compare: false,
                shared_table: Some(table),
                equal_depths: true,
            };
            let options = ply_options(share.as_millis() as u64);
            let answer = played.before.answer(&options, &ply_context, cancel, &mut |_| {})?;
            let answer = serde_json::to_value(&answer).unwrap_or(Value::Null);
            let name = serde_json::to_value(&played.name).unwrap_or(Value::Null);
            let listed = answer["moves"].as_array().is_some_and(|moves| moves.iter().any(|m| m["move"] == name));
            let after = match (&played.after, listed) {
                (Some(after), false) => {
                    let answered = after.answer(&options, &ply_context, cancel, &mut |_| {})?;
                    Some(serde_json::to_value(&answered).unwrap_or(Value::Null))
                }
                _ => None,
            };
            drop(slot);
            let judged = judge(played, &answer, after.as_ref(), &game.scale);
            nodes.fetch_add(judged.nodes, Ordering::Relaxed);
            if judged.exact {
                longest_solve.fetch_max(judged.elapsed_us, Ordering::Relaxed);
            } else {
                undecided.store(true, Ordering::Relaxed);
            }
            on_ply(&judged);
            if let Ok(mut results) = results.lock() {
                results[index] = Some(judged);
            }
        }
    };
    // Searches plies until none is left; a helper only while it has a slot.
    // Each worker keeps one table for all its plies: a ply finds there what
    // the plies after it (searched before it) found.
    let work = |helper: bool| -> Result<(), Cancelled> {
        let table = RefCell::new(tables.take_owned());
        let done = plies(helper, &table);
        tables.give_back(table.into_inner());
        done
    };
    if helpers == 0 || count == 1 {
        work(false)?;
    } else {
        std::thread::scope(|scope| {
            let spawned: Vec<_> = (0..helpers.min(count - 1))
                .map(|_| {
                    scope.spawn(|| {
                        // The solved end goes one ply at a time, each with
                        // the whole machine: helpers join once a ply is not
                        // solved.
                        while !undecided.load(Ordering::Relaxed) {
                            if cancel.load(Ordering::Relaxed) || next.lock().map_or(true, |taken| *taken == count) {
                                return Ok(());
                            }
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        let now = active.fetch_add(1, Ordering::Relaxed) + 1;
                        most.fetch_max(now, Ordering::Relaxed);
                        let done = work(true);
                        active.fetch_sub(1, Ordering::Relaxed);
                        done
                    })
                })
                .collect();
            let mine = work(false);
            spawned.into_iter().fold(mine, |all, h| all.and(h.join().unwrap_or(Err(Cancelled))))
        })?;
    }
    let plies: Vec<PlyReview> =
        results.into_inner().map_err(|_| Cancelled)?.into_iter().collect::<Option<Vec<_>>>().ok_or(Cancelled)?;
    Ok(summarise(game.game, plies, request.time_ms, most.into_inner(), nodes.into_inner(), started.elapsed()))
}

fn summarise(
    game: &'static str,
    plies: Vec<PlyReview>,
    time_ms: u64,
    workers: usize,
    nodes: u64,
    elapsed: Duration,
) -> Review {
    let mut sides = Sides::default();
    let mut accuracies: [(f64, usize); 2] = [(0.0, 0); 2];
    for ply in &plies {
        let (side, sum) =
            if ply.to_move == "X" { (&mut sides.x, &mut accuracies[0]) } else { (&mut sides.o, &mut accuracies[1]) };
        side.moves += 1;
        match ply.judgement {
            Some("best") => side.best += 1,
            Some("good") => side.good += 1,
            Some("inaccuracy") => side.inaccuracy += 1,
            Some("mistake") => side.mistake += 1,
            Some("blunder") => side.blunder += 1,
            _ => {}
        }
        if let (Some(accuracy), false) = (ply.accuracy, ply.forced) {
            sum.0 += accuracy;
            sum.1 += 1;
        }
    }
    for (side, (sum, n)) in [&mut sides.x, &mut sides.o].into_iter().zip(accuracies) {
        side.accuracy = (n > 0).then(|| (sum / n as f64 * 10.0).round() / 10.0);
    }
    let turning_points = plies
        .iter()
        .filter(|p| p.proven && matches!(p.judgement, Some("mistake" | "blunder")))
        .map(|p| p.ply)
        .collect();
    let exact_plies = plies.iter().filter(|p| p.exact).count();
    Review {
        kind: "review",
        game,
        plies,
        sides,
        turning_points,
        exact_plies,
        time_ms,
        workers,
        nodes,
        elapsed_us: elapsed.as_micros() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accuracy_is_lichess_formula() {
        assert_eq!(accuracy(0.0), 100.0);
        // 10 points of winning percentage lost: 103.1668 e^-0.4354 - 3.1669.
        assert!((accuracy(0.10) - 63.6).abs() < 0.1, "{}", accuracy(0.10));
        assert_eq!(accuracy(1.0), 0.0);
    }

    #[test]
    fn numbers_keep_integers_whole() {
        assert_eq!(number(3.0), Value::from(3));
        assert_eq!(number(-2.456), serde_json::json!(-2.46));
    }
}
