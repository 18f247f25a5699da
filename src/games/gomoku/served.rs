//! Gomoku as the service serves it: `moves` (square names) or a `board`
//! with `to_move`, on a board of `size` (5 to 20, 15 by default) under a
//! `rule` (`freestyle` or `standard`), answered by the engine with the
//! threat prover as its oracle. An answer is exact only where the prover
//! vouches for it (see [`super::threats`]).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::input::{GomokuError, Position, Status, BOARD_SHAPE, MOVES_SHAPE};
use super::rules::{square_name, Board, Rule, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
use super::threats::{defences, forced_loss, vcf, vct, vct_until, Halt, Line, Proof, ROOT_BUDGET};
use crate::games::board::{moves_or_board, side_to_move, PositionField};
use crate::search::{Cancelled, Oracle, Score};
use crate::suggest::answer::Place;
use crate::suggest::pipeline::{self, engine, EngineGame};
use crate::suggest::request::{option, read_position};
use crate::suggest::{
    Answer, Context, Extra, Fields, InputError, MoveId, Options, Played, PlayedGame, ProgressReport, Scale,
    ServedPosition, Style, MAX_LEVEL,
};

/// A level's style: deeper and sharper with each level, the time budget
/// at level 10; the choice weighs evaluations in points, a win counting
/// [`WIN_POINTS`]. Level 9 looks 6 plies ahead, well within what level
/// 10's second reaches (11 plies, the median in play). Each level aims at
/// 60% against the one below (`examples/levels.rs`, which asks the
/// service's own answers); level 10 falls short of it against level 9
/// (58% of 100 games with level 9 at 20 points, 54% at 4, 55% at 0: six
/// plies a move are nearly as strong as the second). At 2 plies a temperature below 25 points
/// gained nothing in play (10 against 25: 48%), so the steps above level
/// 4 come from depth first. Levels 2 and 5 choose more loosely (250 and
/// 120 points) and level 6 more sharply (5): with 10 at level 6, as
/// before the evaluation's weights were fitted, level 6 took 57% from
/// level 5; with 5, 68% of 80 games (`LEVELS=5-7 ... levels 200
/// gomoku`). Levels 8 and 9 choose at 12 and 20 points, which keeps 9
/// at 60% against 8 (`LEVELS=8-10 ... levels 250 gomoku`).
pub fn style(level: u8) -> Style {
    const DEPTH: [Option<u32>; 10] =
        [Some(1), Some(1), Some(1), Some(2), Some(3), Some(3), Some(4), Some(5), Some(6), None];
    const TEMPERATURE: [f64; 10] = [1000.0, 250.0, 40.0, 25.0, 120.0, 5.0, 8.0, 12.0, 20.0, 0.0];
    Style::at(level, &DEPTH, &TEMPERATURE)
}

/// What a win (or a loss) forced within the search counts in a level's
/// choice, in the evaluation's points.
pub const WIN_POINTS: i32 = 30_000;

/// A score in the evaluation's points, which a level's choice weighs.
pub fn points(score: Score) -> Score {
    match score.heuristic() {
        Some(_) => score,
        None => Score::evaluation(score.value().signum() as i32 * WIN_POINTS),
    }
}

/// A move's name: the square numbered `mv` (see `rules::STRIDE`).
fn square(mv: u64) -> MoveId {
    MoveId::Name(square_name(mv as usize))
}

/// The positions the oracle's prover may visit for one position of the
/// engine's search, and the most fours in its lines.
const ORACLE_BUDGET: u64 = 24;

/// The prover as the engine's oracle: where the side to move wins by
/// continuous fours, or must block a four and then loses to them, the
/// outcome is proven (the plies those of the line found).
#[derive(Default)]
pub struct Threats {
    nodes: Cell<u64>,
}

impl Oracle<Board> for Threats {
    fn solved(&self, board: &Board) -> Option<(i64, u32)> {
        let me = board.to_move();
        // A line of fours ends in two threats at once: two windows of
        // three or four at least.
        if board.threat_windows(me) >= 2 {
            self.nodes.set(self.nodes.get() + 1);
            if let Some(line) = vcf(board, ORACLE_BUDGET) {
                return Some((1, line.len() as u32));
            }
        }
        if board.has_four(me.other()) {
            self.nodes.set(self.nodes.get() + 1);
            if let Some(line) = forced_loss(board, ORACLE_BUDGET) {
                return Some((-1, line.len() as u32));
            }
        }
        None
    }

    fn in_iterations(&self) -> bool {
        true
    }

    fn nodes(&self) -> u64 {
        self.nodes.get()
    }
}

/// A Gomoku position to answer, and the moves that reached it (for a game
/// sent as moves).
#[derive(Debug)]
pub struct Question {
    position: Position,
    moves: Option<Vec<usize>>,
}

/// Reads `size` (5 to 20, 15 by default) and `rule`.
fn settings(fields: &Fields<'_>) -> Result<(Option<usize>, Rule), InputError> {
    let size = option::<u64>(fields.get("size"), "size", "an integer from 5 to 20")?
        .map(|size| match usize::try_from(size) {
            Ok(size) if (MIN_SIZE..=MAX_SIZE).contains(&size) => Ok(size),
            _ => Err(InputError::invalid(
                "invalid_option",
                "size".to_string(),
                format!("size must be an integer from {MIN_SIZE} to {MAX_SIZE}, not {size}"),
            )),
        })
        .transpose()?;
    let rule = match option::<String>(fields.get("rule"), "rule", "\"freestyle\" or \"standard\"")?.as_deref() {
        None | Some("freestyle") => Rule::Freestyle,
        Some("standard") => Rule::Standard,
        Some(other) => {
            return Err(InputError::invalid(
                "invalid_option",
                "rule".to_string(),
                format!(
                    "rule must be \"freestyle\" (five or more in a row win) or \"standard\" (exactly five), not {:?}",
                    crate::suggest::shorten(other)
                ),
            ))
        }
    };
    Ok((size, rule))
}

/// The longest `moves` read, in bytes: a full 20x20 game, with room.
const MOVES_BYTES: usize = 16 << 10;

/// Reads the position from exactly one of `moves` (black first, no
/// `to_move`) or `board` (with `to_move` if wished), with `size` and
/// `rule`, refusing the other games' fields.
pub fn read(fields: &Fields<'_>) -> Result<Box<dyn ServedPosition>, InputError> {
    let field = moves_or_board(
        "gomoku",
        fields,
        &[("maximizing", "black moves first; with a board, to_move says whose turn it is")],
        "a gomoku request needs \"moves\" (such as \"h8 i9 j10\" or [\"h8\", \"i9\"]) or \"board\" (rows of X, O and \".\", the top row first)",
    )?;
    let (size, rule) = settings(fields)?;
    let question = match field {
        PositionField::Moves(raw) => {
            if fields.get("to_move").is_some() {
                return Err(InputError::invalid(
                    "invalid_request",
                    "to_move".to_string(),
                    "to_move does not apply to gomoku moves: black (X) moves first and the players take turns, so the moves say whose turn it is",
                ));
            }
            let (position, value) = read_moves(raw, size, rule)?;
            let played = moves_played(&value, position.size());
            Question { position, moves: Some(played) }
        }
        PositionField::Board(raw) => {
            let to_move = side_to_move(fields.get("to_move"))?;
            let value = read_position(raw, "board", "invalid_board", BOARD_SHAPE)?;
            Question { position: Position::from_json_board(&value, size, rule, to_move).map_err(error)?, moves: None }
        }
    };
    Ok(Box::new(question))
}

/// Reads `moves` (its JSON within [`MOVES_BYTES`]) into the position it
/// reaches, with the value read.
fn read_moves(
    raw: &serde_json::value::RawValue,
    size: Option<usize>,
    rule: Rule,
) -> Result<(Position, Value), InputError> {
    let text = raw.get();
    if text.len() > MOVES_BYTES {
        return Err(InputError::invalid(
            "invalid_moves",
            "moves".to_string(),
            format!("moves is {} bytes long, more than any game needs ({MOVES_BYTES}): {MOVES_SHAPE}", text.len()),
        ));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|_| InputError::invalid("invalid_moves", "moves".to_string(), MOVES_SHAPE))?;
    let position = Position::from_json_moves(&value, size.unwrap_or(DEFAULT_SIZE), rule).map_err(error)?;
    Ok((position, value))
}

/// A review weighs a proven win or loss by its outcome, and an evaluation
/// of `p` points by a winning chance of 1 / (1 + e^(-p / 1000)).
const REVIEW_SCALE: Scale = Scale { points_per_unit: None, chance_slope: 0.001, distance_counts: true, good_margin: 0 };

/// Reads a game to review from `moves` (with `size` and `rule`): each move
/// with the position it was played in.
pub fn read_game(fields: &Fields<'_>) -> Result<PlayedGame, InputError> {
    if let Some(field) = ["board", "to_move"].into_iter().find(|f| fields.get(f).is_some()) {
        return Err(InputError::invalid(
            "invalid_request",
            field.to_string(),
            "a gomoku review starts from the empty board: send its moves from the first",
        ));
    }
    let (size, rule) = settings(fields)?;
    let raw = fields.get("moves").ok_or_else(|| InputError::invalid("invalid_request", None, MOVES_SHAPE))?;
    let (last, value) = read_moves(raw, size, rule)?;
    let names: Vec<Value> = match &value {
        Value::String(text) => {
            super::input::split_moves(text).unwrap_or_default().into_iter().map(Value::String).collect()
        }
        Value::Array(items) => items.clone(),
        _ => Vec::new(),
    };
    let mut position = Position::new(last.size(), rule);
    let mut plies = Vec::with_capacity(names.len());
    for (index, (notation, cell)) in names.into_iter().zip(moves_played(&value, last.size())).enumerate() {
        let after = position.play(cell).ok_or_else(|| {
            InputError::invalid("invalid_moves", format!("moves[{index}]"), "this move cannot be played here")
        })?;
        plies.push(Played {
            notation,
            name: square(cell as u64),
            index,
            mover: position.to_move().as_str(),
            before: Box::new(Question { position, moves: None }),
            // Answers list the strongest candidates only.
            after: Some(Box::new(Question { position: after.clone(), moves: None })),
        });
        position = after;
    }
    Ok(PlayedGame { game: "gomoku", plies, scale: REVIEW_SCALE })
}

/// The squares of a move list already read into a position.
fn moves_played(value: &Value, size: usize) -> Vec<usize> {
    let names: Vec<String> = match value {
        Value::String(text) => super::input::split_moves(text).unwrap_or_default(),
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(|s| s.trim().to_string()).collect(),
        _ => Vec::new(),
    };
    names.iter().filter_map(|name| super::input::parse_square(name, size).ok()).collect()
}

fn error(error: GomokuError) -> InputError {
    InputError::invalid(error.code, error.field, error.message)
}

/// The names of squares.
fn names(cells: &[usize]) -> Vec<String> {
    cells.iter().map(|&cell| square_name(cell)).collect()
}

/// What the provers vouch for about the position after `mv` at the
/// root: `(value, plies, line)` for the side to move at the root. A
/// win is the root's own proof when it starts with `mv` (`root`), or a
/// four to block and then continuous fours; a loss, the opponent's win
/// by fours or threats.
fn proven_move(board: &Board, mv: usize, root: Option<&Proof>, budget: u64) -> Option<(i64, u64, Line)> {
    let child = board.play(mv);
    if child.winner().is_some() {
        return Some((1, 1, vec![mv]));
    }
    let (value, rest) = match forced_loss(&child, budget) {
        Some(line) => (1, Proof { plies: line.len(), line }),
        None => match root.filter(|proof| proof.line.first() == Some(&mv)) {
            Some(proof) => return Some((1, proof.plies as u64, proof.line.clone())),
            None => (-1, vct(&child, budget)?),
        },
    };
    let mut line = vec![mv];
    line.extend(rest.line);
    Some((value, 1 + rest.plies as u64, line))
}

/// The positions the provers may visit before the engine's search, per
/// millisecond of the request's time budget: the root's proof (a sixth
/// of the budget at most on one core of a 2020s server), and a quarter as
/// many for the search for the opponent's threat.
const NODES_PER_MS: u64 = 450;

/// The positions the checks of the answers to the opponent's threat may
/// visit, per millisecond of the budget: up to about half the budget,
/// where there is a threat to meet. The engine's search then chooses
/// among the few moves left, which the rest of the budget searches
/// deeply.
const DEFENCE_NODES_PER_MS: u64 = 1500;

/// The share of the time budget after which the provers stop, whatever
/// positions they have left (on a slow machine, or a busy one), so that
/// the engine has at least the rest. They stop at once, too, when the
/// request is cancelled.
const PROVERS_SHARE: f64 = 0.75;

/// The positions the provers may visit for a request of `budget`: the
/// root's proof by fours or threats, the look for the opponent's threat
/// (a quarter as many), and the checks of the answers to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProverBudgets {
    /// The root's proof.
    pub root: u64,
    /// The search for the opponent's threat.
    pub look: u64,
    /// The checks of the answers to the threat.
    pub checks: u64,
}

impl ProverBudgets {
    /// The budgets of a request of `budget`.
    pub fn of(budget: Duration) -> ProverBudgets {
        let ms = budget.as_millis() as u64;
        let root = ms.saturating_mul(NODES_PER_MS).max(ROOT_BUDGET);
        ProverBudgets { root, look: root / 4, checks: ms.saturating_mul(DEFENCE_NODES_PER_MS).max(ROOT_BUDGET) }
    }
}

/// The moves searched at the root where the opponent threatens a win by
/// fours or threats: those that may meet it and are not proven to lose
/// (see [`defences`]: the threat looked for within `look` positions, the
/// answers checked within `budget` more), with the engine's own
/// candidates checked too.
fn narrowed(board: &Board, look: u64, budget: u64, halt: Halt<'_>) -> Option<Vec<usize>> {
    if board.over() || board.forcing() != super::game::Forcing::Open {
        return None;
    }
    let mut candidates = Vec::new();
    board.candidates(&mut candidates);
    let others: Vec<usize> = candidates.iter().map(|&(cell, _)| usize::from(cell)).collect();
    defences(board, &others, look, budget, halt)
}

/// The positions the prover may visit for each listed move.
const MOVE_BUDGET: u64 = 400;

impl Question {
    /// Holds the answer's exact claims to what the prover vouches for:
    /// a root proven won (by continuous fours) or lost (a four to block,
    /// then continuous fours), and each listed move's likewise. A claim
    /// the search made on the moves it searched, which are not all the
    /// legal moves, stays a result forced within the search, not exact.
    /// Returns the move to play when the prover changed it.
    fn vouch(&self, answer: &mut Answer, options: &Options, proof: Option<Proof>) -> Option<usize> {
        let board = self.position.board();
        if board.over() {
            return None;
        }
        // The engine's own fields, read before they are held to the proofs.
        let original = serde_json::to_value(&*answer).unwrap_or(Value::Null);
        let depth = answer.engine.as_ref().and_then(|e| e.result.depth);
        let mut quickest: Option<Proof> = None;
        for m in &mut answer.moves {
            let MoveId::Name(name) = &m.mv else { continue };
            let Ok(cell) = super::input::parse_square(name, board.size()) else { continue };
            let json = serde_json::to_value(&*m).unwrap_or(Value::Null);
            let mut extra = Extra::default();
            match proven_move(board, cell, proof.as_ref(), MOVE_BUDGET) {
                Some((value, plies, line)) => {
                    if value > 0 && quickest.as_ref().is_none_or(|q| plies < q.plies as u64) {
                        quickest = Some(Proof { line, plies: plies as usize });
                    }
                    m.score = Some(value);
                    m.plies_to_end = Some(plies);
                    extra.push(Place::AfterPliesToEnd, "exact", &true);
                    extra.push(Place::AfterPliesToEnd, "evaluation", &Value::Null);
                    extra.push(Place::AfterPliesToEnd, "depth", &Value::Null);
                }
                None => {
                    // A result the search claimed on its candidates alone
                    // is forced within the search, not proven.
                    let claimed = json["exact"] == Value::Bool(true);
                    let evaluation = match &json["evaluation"] {
                        Value::Null if m.score == Some(0) => Value::from(0),
                        evaluation => evaluation.clone(),
                    };
                    extra.push(Place::AfterPliesToEnd, "exact", &false);
                    extra.push(Place::AfterPliesToEnd, "evaluation", &evaluation);
                    extra.push(
                        Place::AfterPliesToEnd,
                        "depth",
                        &if claimed { json!(depth) } else { json["depth"].clone() },
                    );
                }
            }
            m.extra = extra;
        }
        let root = match (proof, quickest) {
            (Some(proof), Some(quick)) if quick.plies < proof.plies => Some(quick),
            (proof, quick) => proof.or(quick),
        }
        .map(|proof| (1, proof))
        .or_else(|| forced_loss(board, ROOT_BUDGET).map(|line| (-1, Proof { plies: line.len(), line })));
        let mut played = None;
        match root {
            Some((value, Proof { line, plies })) => {
                answer.score = value;
                answer.exact = true;
                answer.plies_to_end = Some(plies as u64);
                answer.principal_variation = names(&line).into_iter().map(MoveId::Name).collect();
                let full_strength = options.level.is_none() && options.mistake == 0.0;
                let first = MoveId::Name(square_name(line[0]));
                if value > 0 && full_strength && answer.best_move.as_ref() != Some(&first) {
                    answer.best_move = Some(first);
                    answer.random_move = false;
                    played = Some(line[0]);
                }
            }
            None => answer.exact = false,
        }
        if let Some(engine) = answer.engine.as_mut() {
            engine.result.exact &= answer.exact;
        }
        // The played move's score and evaluation, as its entry says.
        let entry = answer.best_move.as_ref().and_then(|best| answer.moves.iter().find(|m| &m.mv == best));
        let best_move_evaluation = match entry {
            Some(m) => {
                answer.best_move_score = m.score;
                serde_json::to_value(m).unwrap_or(Value::Null)["evaluation"].clone()
            }
            None if played.is_some() => {
                answer.best_move_score = Some(1);
                Value::Null
            }
            None => original["best_move_evaluation"].clone(),
        };
        let evaluation = match &original["evaluation"] {
            _ if answer.exact || answer.score != 0 => Value::Null,
            Value::Null => Value::from(0),
            evaluation => evaluation.clone(),
        };
        // The pipeline's own fields of the answer are these two: written
        // again as the proofs leave them.
        answer.extra = Extra::default();
        answer.extra.push(Place::AfterBestMoveScore, "best_move_evaluation", &best_move_evaluation);
        answer.extra.push(Place::AfterExact, "evaluation", &evaluation);
        played
    }
}

/// The standing of a position, for the answer.
fn standing(position: &Position) -> (&'static str, Option<&'static str>, Option<Vec<String>>) {
    let status = position.status();
    let winner = match status {
        Status::Won(player) => Some(player.as_str()),
        _ => None,
    };
    (status.as_str(), winner, position.winning_line().map(names))
}

impl ServedPosition for Question {
    fn style(&self, level: u8) -> Style {
        style(level)
    }

    /// Scores are +1 (the side to move wins) or -1 (loses) with the plies
    /// to the five when a win is proven or forced within the search, 0 for
    /// a draw; otherwise 0 with the evaluation, in points.
    fn answer(
        &self,
        options: &Options,
        context: &Context<'_>,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&ProgressReport),
    ) -> Result<Answer, Cancelled> {
        let position = &self.position;
        let rules = EngineGame { kind: "gomoku", name: square, draw_plies: None, level_score: points };
        let oracle = Threats::default();
        // The provers first, within a share of the time budget: a win by
        // fours or threats, else the answers to the opponent's threat, to
        // which the engine's search is narrowed. The engine has the rest.
        let started = Instant::now();
        let budget = pipeline::budget(options, context);
        let budgets = ProverBudgets::of(budget);
        let mut board = position.board().clone();
        let halt = Halt { cancel: Some(cancel), deadline: Some(started + budget.mul_f64(PROVERS_SHARE)) };
        // A level below the top plays by its depth and temperature alone,
        // as its calibration measured it: the provers see far beyond its
        // depth, and would take most of its budget for it.
        let provers = options.level.is_none_or(|level| level >= MAX_LEVEL) && !board.over();
        let proof = if provers { vct_until(&board, budgets.root, halt) } else { None };
        if provers && proof.is_none() {
            if let Some(moves) = narrowed(&board, budgets.look, budgets.checks, halt) {
                board.focus_on(&moves);
            }
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(Cancelled);
        }
        let mut options = options.clone();
        options.time_ms = Some(budget.saturating_sub(started.elapsed()).as_millis().max(1) as u64);
        let (mut answer, choice) = engine(&board, &oracle, rules, &options, context, cancel, progress)?;
        // The budget the request was given, the provers' share included.
        answer.time_ms = budget.as_millis() as u64;
        let played = self.vouch(&mut answer, &options, proof).or(choice.map(|c| usize::from(c.mv)));
        let after = played.and_then(|cell| position.play(cell));
        let at = Place::AfterPliesToEnd;
        let extra = &mut answer.extra;
        let (status, winner, line) = standing(position);
        extra.push(at, "to_move", &position.to_move().as_str());
        extra.push(at, "status", &status);
        extra.push(at, "winner", &winner);
        extra.push(at, "winning_line", &line);
        let (status_after, winner_after, line_after) = after.as_ref().map_or((status, winner, line), standing);
        extra.push(at, "board_after", &after.as_ref().map(Position::rows));
        extra.push(at, "status_after", &status_after);
        extra.push(at, "winner_after", &winner_after);
        extra.push(at, "winning_line_after", &line_after);
        let to_move_after = after.as_ref().filter(|p| p.status() == Status::InProgress).map(|p| p.to_move().as_str());
        extra.push(at, "to_move_after", &to_move_after);
        extra.push(at, "size", &position.size());
        extra.push(at, "rule", &position.board().rule().as_str());
        let moves_after = self.moves.as_ref().zip(played).map(|(moves, cell)| {
            let mut moves = names(moves);
            moves.push(square_name(cell));
            moves.join(" ")
        });
        answer.extra.push(Place::AfterSeed, "moves_after", &moves_after);
        Ok(answer)
    }
}
