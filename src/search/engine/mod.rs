//! The engine: alpha-beta made fast by everything the game can tell it.
//!
//! - **Move ordering**: the game's hint ([`Solver::engine_moves`]), with the
//!   transposition table's best move first ([`Game::move_index`]); the
//!   game's costlier ranking ([`super::Heuristics::rank_moves`]) only when
//!   the table's move does not settle the position; the rest picked best
//!   first one at a time, so that a cut-off leaves the others unsorted
//!   (sorted at once past a few dozen moves). The children's table
//!   entries are fetched into the cache before they are searched, by their
//!   keys ([`Game::key_after`]).
//! - **Pruning the game vouches for** ([`Tactics`]): a move that wins at
//!   once ends the search of a position; a position where every move lets
//!   the opponent win at once is lost; moves that let the opponent win at
//!   once are not searched; scores are bounded by how soon a win can come.
//! - **A transposition table** ([`Table`]) of bounds, each tagged with the
//!   depth it was searched to and whether any line below was cut by that
//!   depth, so a depth-limited search and a search to the end never take
//!   each other's values. Where many plies may be left, the children's
//!   entries are looked at before any child is searched: one that already
//!   proves a cutoff settles the position (an enhanced transposition
//!   cutoff).
//! - **Iterative deepening**: depth 1, 2, 3, ... each iteration ordering
//!   moves by the last one's table, until an iteration sees every line to
//!   its end or the time budget runs out (the first iteration always
//!   finishes).
//! - **Null-window bisection** ([`Solver::value_range`]): the score is found
//!   by asking "is it at least `s`?" for scores `s` that halve the range of
//!   possible scores (value, and ply of the end), each question a search
//!   with an empty window that prunes far more than a full one.
//! - **The heuristic driver**, when the outcomes are too many to bisect
//!   (Othello's disc differences): principal variation search (every move
//!   after the first is first asked with an empty window whether it beats
//!   the best so far, and searched again with the full window only when it
//!   does), each iteration within an aspiration window around the last
//!   one's evaluation, a soft time limit past which no iteration starts,
//!   and every root move's score at the depth reached; before a search to
//!   the end, selective passes that cut where a shallow search predicts
//!   the outcome ([`super::Heuristics::outcome_probe`]), to order it.
//! - **Every root move scored** ([`EngineOptions::score_root_moves`]): each
//!   move's own exact score, by the same bisection, sharing the table.
//!
//! The parts, a file each: `node.rs` the node search; `picker.rs` the move
//! buffers and the order moves are tried in; `budget.rs` what stops a
//! search (time, positions, allowances, cancellation); `bisect.rs` the
//! bisection driver's root (every move's exact score by null windows over
//! the outcomes, the oracle's known score, what a budget cut leaves);
//! `pvs.rs` the heuristic driver (principal variation search within
//! aspiration windows, selective passes, the soft and hard time limits);
//! `line.rs` the line of best play; this file the shared state and the
//! bisection driver itself (deepening, bisection, the time shares).
//!
//! At a fixed depth limit the engine's score equals [`super::minimax`]'s
//! with the same evaluation: every pruning rule is exact at the depth it is
//! used, and table entries are reused only at the depth they were searched
//! to (or deeper, when no line below them was cut).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::score::{Packed, SmallScore};
use super::table::{Bound, Hit, Table, NO_MOVE, UNLIMITED};
use super::{cut_score, Cancelled, Game, Limits, NoOracle, Oracle, OutcomeProbe, PvTable, Score, Solver, Tactics};

mod bisect;
mod budget;
mod line;
mod node;
mod picker;
mod pvs;

use budget::{Stop, CHECK_INTERVAL, CLOCK_INTERVAL_START};

/// What the engine computes beyond the best move.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineOptions {
    /// Find every root move's own score, not only the best one's.
    pub score_root_moves: bool,
    /// With `score_root_moves`, deepen before scoring even when searching
    /// to the end, for a caller that watches the iterations through
    /// `progress`. Otherwise a search to the end scores the moves first,
    /// within a share of the budget, and deepens (which answers only when
    /// the budget runs out) only when that is not enough.
    pub deepen_first: bool,
    /// Search every iteration full-width, even under a time or position
    /// budget, where the game's midgame probes would otherwise cut
    /// ([`super::Heuristics::midgame_probe`]): each iteration's answer is
    /// then the one a search to that fixed depth gives.
    pub full_width: bool,
    /// Keep what the table holds from the searches before this one (of
    /// the same game, one after another: the positions of a game under
    /// review) instead of starting it empty. Its entries are facts about
    /// positions, whatever the root (a bound on a score that counts the
    /// plies from the position, to a depth counted from it, or to the
    /// end), so a search may take them as it takes its own iterations'.
    pub keep_table: bool,
    /// With `score_root_moves` under a budget, score every move at each
    /// iteration, so that all are searched to the same depth and each has
    /// a score of its own (never a bound): in the midgame instead of
    /// searching the best move alone once a share of the budget is spent,
    /// near the end instead of proving the best move first and bounding
    /// the others.
    pub equal_depths: bool,
}

/// One root move, as the engine scored it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineMove<M> {
    /// The move.
    pub mv: M,
    /// Its score for the side to move at the root, when the engine found it
    /// within its budget (to the depth limit, when there is one).
    pub score: Option<Score>,
    /// True when that score saw every line to its end.
    pub exact: bool,
    /// For a score that is not exact, the depth in plies it was searched
    /// to: the depth limit, or the deepest iteration the budget allowed
    /// (its evaluation there, within what the solver proved).
    pub depth: Option<u32>,
    /// True when `score` is only an upper bound, proven to the end: the
    /// move was shown to score no more than the best move's exact score
    /// (at most this) while the best move was proven, and the budget ran
    /// out before its own score was. `exact` is then false and `depth`
    /// `None`.
    pub upper_bound: bool,
}

/// What the engine found.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineResult<M> {
    /// The best move, or `None` when the game is over.
    pub best_move: Option<M>,
    /// The score of the position for the side to move.
    pub score: Score,
    /// True when no line was cut by a depth limit or the budget.
    pub exact: bool,
    /// The depth of the deepest finished iteration, in plies.
    pub depth: u32,
    /// Iterations finished.
    pub iterations: u32,
    /// Positions visited, the root included, with those the oracle visited
    /// in its own searches ([`super::Oracle::nodes`]).
    pub nodes: u64,
    /// Positions whose table entry was used.
    pub table_hits: u64,
    /// Positions whose score the oracle knew without searching
    /// ([`super::Oracle`]): an opening book's answers.
    pub book_hits: u64,
    /// The line of best play: at each step the first move in the game's
    /// order that keeps the score, as minimax chooses; for a game of many
    /// outcomes (the heuristic driver, whose outcomes tie often), the
    /// move its search found wherever that one keeps the score.
    pub principal_variation: Vec<M>,
    /// Wall time spent.
    pub elapsed: Duration,
    /// With [`EngineOptions::score_root_moves`], every legal root move in
    /// the game's move order; otherwise empty.
    pub root_moves: Vec<EngineMove<M>>,
}

/// What the engine reports while it goes on.
#[derive(Clone, Debug)]
pub enum Progress<'a, M> {
    /// A finished iteration of the deepening.
    Iteration(Iteration<'a, M>),
    /// A root move whose score was just settled, while every root move is
    /// scored ([`EngineOptions::score_root_moves`]).
    RootMove(RootMoveReport<M>),
}

/// A finished iteration of the deepening.
#[derive(Clone, Debug)]
pub struct Iteration<'a, M> {
    /// The iteration's depth limit, in plies.
    pub depth: u32,
    /// Its best move.
    pub best_move: Option<M>,
    /// Its score.
    pub score: Score,
    /// True when it saw every line to its end (the engine stops there).
    pub exact: bool,
    /// For a selective pass of the heuristic driver, how far (in
    /// hundredths of a standard deviation) an outcome probe had to clear a
    /// bound to cut ([`super::Heuristics::outcome_probe`]); `None` for a
    /// full-width iteration.
    pub selectivity: Option<u32>,
    /// Its line of best play.
    pub principal_variation: &'a [M],
    /// Positions visited so far.
    pub nodes: u64,
    /// Time since the engine started.
    pub elapsed: Duration,
}

/// A root move whose score was settled at the target depth.
#[derive(Clone, Debug)]
pub struct RootMoveReport<M> {
    /// The move.
    pub mv: M,
    /// Its score for the side to move at the root.
    pub score: Score,
    /// True when that score saw every line to its end.
    pub exact: bool,
    /// For a score that is not exact, the depth limit it was searched to.
    pub depth: Option<u32>,
    /// Positions visited so far.
    pub nodes: u64,
    /// Time since the engine started.
    pub elapsed: Duration,
}

/// Runs the engine on `root`.
///
/// `limits.max_depth` fixes the depth (the score is then the depth-limited
/// minimax score); `limits.deadline` is the time budget, after which the
/// answer is the deepest finished iteration's, with `exact: false`;
/// `limits.cancel` abandons the search altogether. `table` is cleared
/// logically (not wiped) before use. `progress` hears of every finished
/// iteration.
pub fn engine<G: Solver>(
    root: &G,
    limits: Limits<'_>,
    table: &mut Table,
    options: EngineOptions,
    progress: &mut dyn FnMut(&Progress<'_, G::Move>),
) -> Result<EngineResult<G::Move>, Cancelled> {
    engine_with_oracle(root, &NoOracle, limits, table, options, progress)
}

/// [`engine`], consulting `oracle` (an opening book, say) for the exact
/// score of the positions it knows, when the search goes to the end.
pub fn engine_with_oracle<G: Solver, O: Oracle<G>>(
    root: &G,
    oracle: &O,
    limits: Limits<'_>,
    table: &mut Table,
    options: EngineOptions,
    progress: &mut dyn FnMut(&Progress<'_, G::Move>),
) -> Result<EngineResult<G::Move>, Cancelled> {
    if root.small_values() {
        Engine::<G, SmallScore, O>::new(root, oracle, limits, table, options.keep_table).run(root, options, progress)
    } else {
        Engine::<G, Score, O>::new(root, oracle, limits, table, options.keep_table).run(root, options, progress)
    }
}

/// When every root move is to be scored, iterative deepening gets this
/// share of the budget (at most `DEEPENING_CAP`), and scoring the moves the
/// rest: deepening is what answers when the budget runs out, scoring is
/// what answers exactly.
const DEEPENING_SHARE: u32 = 16;
const DEEPENING_CAP: Duration = Duration::from_millis(20);
/// Searched to the end, the root moves are first scored within this share
/// of the budget, before any deepening.
const FIRST_SCORING_SHARE: u32 = 8;
/// The longest principal variation written.
const MAX_LINE: usize = 4096;

struct Engine<'a, G: Solver, S, O> {
    /// Exact scores from outside the search.
    oracle: &'a O,
    table: Option<&'a mut Table>,
    nodes: u64,
    hits: u64,
    book_hits: u64,
    /// Lines cut by the depth limit (or decided by a table entry that was).
    cuts: u64,
    /// The node count at which the budget is next looked at.
    next_check: u64,
    /// The node count at which the counts are next checked (every
    /// `CHECK_INTERVAL` nodes).
    next_count: u64,
    /// Nodes between two looks at the clock, and the last look.
    clock_interval: u64,
    last_clock: Option<Instant>,
    stop: Stop,
    cancel: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    /// False during the first iteration, which always finishes.
    deadline_active: bool,
    max_nodes: u64,
    /// The node count at which the budget runs out, as at the deadline.
    node_budget: u64,
    /// The node count at which the current test gives up (`u64::MAX`: none).
    allowance: u64,
    /// The ply at which lines are cut; `u32::MAX` for none.
    limit: u32,
    /// Move lists, one per ply, kept between nodes.
    buffers: Vec<Vec<(G::Move, i32)>>,
    /// The line of best play of each ply, kept during a full-window search
    /// of a game with no table, where walking the line afterwards would
    /// search again what the search itself saw.
    lines: Option<PvTable<G::Move>>,
    range: Option<(i64, i64)>,
    /// Every score a line can end with, ascending, for bisection.
    candidates: Vec<S>,
    root_best: Option<G::Move>,
    /// The root move of the last search that reached its bound.
    proven_best: Option<G::Move>,
    /// The depth the caller asked for: the ply of the last iteration.
    target: u32,
    /// Search every move after the first with an empty window first
    /// (principal variation search): for a game with a range of outcomes
    /// but too many of them to bisect.
    scout: bool,
    /// In a selective pass of the heuristic driver, how many standard
    /// deviations (in hundredths) an outcome probe's score must clear a
    /// bound by to cut ([`Heuristics::outcome_probe`]); `None` in every
    /// other search.
    selectivity: Option<u32>,
    /// True while a probe's shallow search runs.
    probing: bool,
    /// True in a heuristic iteration, under a budget, whose lines stop
    /// short of the end: positions may be cut by midgame probes
    /// ([`Heuristics::midgame_probe`]).
    midgame_selective: bool,
    /// Points to one unit of the game's outcome, once a position of this
    /// iteration was searched selectively (an outcome or midgame probe was
    /// tried): its outcomes that are not exact are then estimates, not
    /// results forced within the depth (see `Engine::reported`).
    selective_unit: Option<i32>,
}

impl<'a, G: Solver, S: Packed, O: Oracle<G>> Engine<'a, G, S, O> {
    fn new(root: &G, oracle: &'a O, limits: Limits<'a>, table: &'a mut Table, keep_table: bool) -> Self {
        let keyed = root.key().is_some();
        if keyed && !keep_table {
            table.new_search();
        }
        let range = root.value_range();
        let mut candidates = Vec::new();
        if let Some((low, high)) = range {
            // Bisection needs a short list: only games with few values get one.
            if high.saturating_sub(low) <= 16 {
                let plies = root.max_plies_hint().min(MAX_LINE) as u32 + 1;
                for value in low..=high {
                    if value == 0 {
                        candidates.push(S::new(0, 0));
                    } else {
                        // Wins for the side to move at odd plies, losses
                        // at even ones, when the game says so.
                        let parity = if value > 0 { 1 } else { 0 };
                        candidates.extend(
                            (1..=plies)
                                .filter(|ply| !root.last_mover_wins() || ply % 2 == parity)
                                .map(|ply| S::new(value, ply)),
                        );
                    }
                }
                candidates.sort();
                candidates.dedup();
            }
        }
        // Bisection already searches with empty windows; a game whose
        // outcomes are too many to bisect (disc differences) gets them move
        // by move instead. Games with no known range keep the plain
        // full-window search.
        let scout = range.is_some() && candidates.is_empty();
        Engine {
            oracle,
            table: keyed.then_some(table),
            nodes: 0,
            hits: 0,
            book_hits: 0,
            cuts: 0,
            next_check: CLOCK_INTERVAL_START,
            next_count: CHECK_INTERVAL,
            clock_interval: CLOCK_INTERVAL_START,
            last_clock: None,
            stop: Stop::Running,
            cancel: limits.cancel,
            deadline: limits.deadline,
            deadline_active: false,
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            node_budget: limits.node_budget.unwrap_or(u64::MAX),
            allowance: u64::MAX,
            limit: u32::MAX,
            buffers: Vec::new(),
            lines: None,
            range,
            candidates,
            root_best: None,
            proven_best: None,
            target: limits.max_depth.map_or(u32::MAX, |d| d.max(1)),
            scout,
            selectivity: None,
            probing: false,
            midgame_selective: false,
            selective_unit: None,
        }
    }

    fn run(
        mut self,
        root: &G,
        options: EngineOptions,
        progress: &mut dyn FnMut(&Progress<'_, G::Move>),
    ) -> Result<EngineResult<G::Move>, Cancelled> {
        let started = Instant::now();
        self.nodes = 1;
        let mut result = EngineResult {
            best_move: None,
            score: Score::new(0, 0),
            exact: true,
            depth: 0,
            iterations: 0,
            nodes: 1,
            table_hits: 0,
            book_hits: 0,
            principal_variation: Vec::new(),
            elapsed: Duration::ZERO,
            root_moves: Vec::new(),
        };
        if let Some(value) = root.outcome() {
            result.score = Score::new(value, 0);
            result.elapsed = started.elapsed();
            return Ok(result);
        }
        if self.scout {
            // Outcomes too many to bisect: the heuristic driver.
            return self.run_heuristic(root, options, result, started, progress);
        }
        let target = self.target;
        let deadline = self.deadline;
        let mut scoring = None;
        if options.score_root_moves {
            let mut moves = self.start_scoring(root, target);
            if target == u32::MAX && !options.deepen_first {
                // Searched to the end, most positions are scored long
                // before the budget runs out, and deepening, which answers
                // only then, would be wasted: scoring comes first, within a
                // share of the budget (in time, and in positions when the
                // budget is counted in positions). Deepening runs only when
                // that is not enough, and what the scoring proved is kept.
                let share = deadline.map(|d| d.saturating_duration_since(started) / FIRST_SCORING_SHARE);
                self.deadline = deadline.zip(share).map(|(d, share)| d.min(started + share));
                let positions = match self.node_budget {
                    u64::MAX => u64::MAX,
                    budget => budget / u64::from(FIRST_SCORING_SHARE),
                };
                self.with_allowance(positions, |engine| {
                    engine.score_moves(root, target, &mut moves, None, started, progress)
                });
                if self.stop == Stop::Cancelled {
                    return Err(Cancelled);
                }
                self.stop = Stop::Running;
                if moves.scored() {
                    self.deadline = deadline;
                    self.settle(root, target, moves, &mut result);
                    return self.finish(result, started);
                }
            }
            scoring = Some(moves);
            let now = Instant::now();
            let budget = deadline.map_or(DEEPENING_CAP, |d| d.saturating_duration_since(now));
            let share = (budget / DEEPENING_SHARE).min(DEEPENING_CAP);
            self.deadline = Some(deadline.map_or(now + share, |d| d.min(now + share)));
        }
        let mut depth = self.start_deepening(root, self.candidates.is_empty());
        let mut guess = None;
        loop {
            let limit = depth.min(target);
            self.deadline_active = result.iterations > 0;
            let Some((score, complete)) = self.iteration(root, limit, guess) else {
                break;
            };
            let line = self.iteration_line(root, score, limit, complete);
            if self.stop == Stop::Cancelled {
                return Err(Cancelled);
            }
            self.record(&mut result, limit, score, complete, line, started, progress);
            guess = Some(score);
            if let Some(scoring) = scoring.as_mut().filter(|_| target == u32::MAX && self.stop == Stop::Running) {
                // Searched to the end, the moves are scored at this depth as
                // well, for an answer the budget cuts before they are solved.
                self.score_at_depth(scoring, limit);
            }
            if complete || limit == target || self.stop != Stop::Running {
                break;
            }
            depth += 1;
        }
        if self.stop == Stop::Cancelled {
            return Err(Cancelled);
        }
        if let Some(mut moves) = scoring {
            // Deepening's share is spent (or its answer is final): the rest
            // of the budget scores the moves, its best move first.
            self.deadline = deadline;
            self.stop = Stop::Running;
            self.score_moves(root, target, &mut moves, result.best_move, started, progress);
            self.settle(root, target, moves, &mut result);
        }
        self.finish(result, started)
    }

    /// Sets up iterative deepening and gives its first depth. With no
    /// table, the line of best play is kept as the search goes when
    /// `keep_lines` (a full-window search of the root itself).
    fn start_deepening(&mut self, root: &G, keep_lines: bool) -> u32 {
        if self.table.is_none() && keep_lines {
            let plies = root.max_plies_hint().min(self.target as usize);
            self.lines = Some(PvTable::new(plies, root.moves().next()));
        }
        // Deepening pays for itself by filling the table with the moves that
        // order the next iteration, and by having an answer ready when the
        // budget runs out. With no table and no budget it has neither use,
        // and each iteration would search again what the last one did: one
        // search at the depth asked.
        let anytime = self.deadline.is_some() || self.node_budget != u64::MAX;
        if self.table.is_none() && !anytime {
            self.target
        } else {
            1
        }
    }

    /// A finished iteration at `limit` becomes the answer so far, and
    /// `progress` hears of it.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        result: &mut EngineResult<G::Move>,
        limit: u32,
        score: S,
        complete: bool,
        line: Vec<G::Move>,
        started: Instant,
        progress: &mut dyn FnMut(&Progress<'_, G::Move>),
    ) {
        result.iterations += 1;
        result.depth = limit;
        result.score = score.score();
        result.exact = complete;
        result.best_move = line.first().copied().or(self.root_best);
        result.principal_variation = line;
        progress(&Progress::Iteration(Iteration {
            depth: limit,
            best_move: result.best_move,
            score: result.score,
            exact: complete,
            selectivity: self.selectivity,
            principal_variation: &result.principal_variation,
            nodes: self.nodes,
            elapsed: started.elapsed(),
        }));
    }

    /// The result with the engine's counts, unless the search was cancelled.
    fn finish(&self, mut result: EngineResult<G::Move>, started: Instant) -> Result<EngineResult<G::Move>, Cancelled> {
        if self.stop == Stop::Cancelled {
            return Err(Cancelled);
        }
        result.nodes = self.nodes;
        result.table_hits = self.hits;
        result.book_hits = self.book_hits;
        result.elapsed = started.elapsed();
        Ok(result)
    }

    /// One iteration: the root's score with lines cut at `limit`, and
    /// whether no line was cut. `None` when the search was stopped.
    fn iteration(&mut self, root: &G, limit: u32, guess: Option<S>) -> Option<(S, bool)> {
        self.limit = limit;
        let cuts = self.cuts;
        self.root_best = None;
        self.proven_best = None;
        let score = if self.candidates.is_empty() {
            let score = self.node(root, 0, -S::INFINITY, S::INFINITY);
            self.proven_best = self.root_best;
            score
        } else {
            self.bisect(guess, |engine, alpha, beta| {
                let r = engine.node(root, 0, alpha, beta);
                // A move that passed `alpha` is a best move so far; a search
                // that failed low proves nothing about its moves.
                if r > alpha {
                    engine.proven_best = engine.root_best;
                }
                r
            })
        };
        (self.stop == Stop::Running).then_some((score, self.cuts == cuts))
    }

    /// Finds a score by null-window tests over the outcomes: `test(alpha,
    /// beta)` searches that window and returns a fail-soft score. When no
    /// outcome is left between what is proven (the score is an evaluation,
    /// or a line runs longer than the game's hint), one search with the
    /// window around what is left settles it.
    fn bisect(&mut self, guess: Option<S>, mut test: impl FnMut(&mut Self, S, S) -> S) -> S {
        let (mut low, mut high) = (-S::INFINITY, S::INFINITY);
        let mut next = guess;
        while low < high && self.stop == Stop::Running {
            let t = match next.take().filter(|&g| low < g && g <= high) {
                Some(t) => t,
                None => {
                    let first = self.candidates.partition_point(|&c| c <= low);
                    let end = self.candidates.partition_point(|&c| c <= high);
                    if first >= end {
                        let (alpha, beta) = around(low, high);
                        let r = test(self, alpha, beta);
                        if self.stop == Stop::Running {
                            low = r;
                        }
                        break;
                    }
                    self.candidates[(first + end) / 2]
                }
            };
            let r = test(self, t.below(), t);
            if r >= t {
                // A fail-soft bound never passes a proven one.
                low = r.min(high);
            } else {
                high = r;
            }
        }
        low
    }
}

/// The window just around the proven bounds `[low, high]` on a score, so
/// that a fail-soft search inside it returns the score itself.
#[inline(always)]
fn around<S: Packed>(low: S, high: S) -> (S, S) {
    let alpha = if low == -S::INFINITY { low } else { low.below() };
    let beta = if high == S::INFINITY { high } else { high.above() };
    (alpha, beta)
}

fn from_score<S: Packed>(score: Score) -> S {
    match (score.ply(), score.heuristic()) {
        (Some(ply), _) => S::new(score.value(), ply),
        (None, evaluation) => S::evaluation(evaluation.unwrap_or(0)),
    }
}
