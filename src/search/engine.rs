//! The engine: alpha-beta made fast by everything the game can tell it.
//!
//! - **Move ordering**: the game's hint ([`Game::engine_moves`]), with the
//!   transposition table's best move first; the game's costlier ranking
//!   ([`Game::rank_moves`]) only when the table's move does not settle the
//!   position. The children's table entries are fetched into the cache
//!   before they are searched.
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
//! - **Null-window bisection** ([`Game::value_range`]): the score is found
//!   by asking "is it at least `s`?" for scores `s` that halve the range of
//!   possible scores (value, and ply of the end), each question a search
//!   with an empty window that prunes far more than a full one.
//! - **Every root move scored** ([`EngineOptions::score_root_moves`]): each
//!   move's own exact score, by the same bisection, sharing the table.
//!
//! At a fixed depth limit the engine's score equals [`super::minimax`]'s
//! with the same evaluation: every pruning rule is exact at the depth it is
//! used, and table entries are reused only at the depth they were searched
//! to (or deeper, when no line below them was cut).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::score::{Packed, SmallScore};
use super::table::{Bound, Hit, Table, NO_MOVE, UNLIMITED};
use super::{cut_score, Cancelled, Game, Limits, Lines, NoOracle, Oracle, Score, Tactics};

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
    /// Positions visited, the root included.
    pub nodes: u64,
    /// Positions whose table entry was used.
    pub table_hits: u64,
    /// Positions whose score the oracle knew without searching ([`super::Oracle`]).
    pub book_hits: u64,
    /// The line of best play: at each step the first move in the game's
    /// order that keeps the score, as minimax chooses.
    pub principal_variation: Vec<M>,
    /// Wall time spent.
    pub elapsed: Duration,
    /// With [`EngineOptions::score_root_moves`], every legal root move in
    /// the game's move order; otherwise empty.
    pub root_moves: Vec<EngineMove<M>>,
}

/// A finished iteration, reported while the engine goes on.
#[derive(Clone, Debug)]
pub struct Progress<'a, M> {
    /// The iteration's depth limit, in plies.
    pub depth: u32,
    /// Its best move.
    pub best_move: Option<M>,
    /// Its score.
    pub score: Score,
    /// True when it saw every line to its end (the engine stops there).
    pub exact: bool,
    /// Its line of best play.
    pub principal_variation: &'a [M],
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
pub fn engine<G: Game>(
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
pub fn engine_with_oracle<G: Game, O: Oracle<G>>(
    root: &G,
    oracle: &O,
    limits: Limits<'_>,
    table: &mut Table,
    options: EngineOptions,
    progress: &mut dyn FnMut(&Progress<'_, G::Move>),
) -> Result<EngineResult<G::Move>, Cancelled> {
    if root.small_values() {
        Engine::<G, SmallScore, O>::new(root, oracle, limits, table).run(root, options, progress)
    } else {
        Engine::<G, Score, O>::new(root, oracle, limits, table).run(root, options, progress)
    }
}

/// Nodes between two looks at the clock and the cancel flag.
const CHECK_INTERVAL: u64 = 1 << 12;
/// When every root move is to be scored, iterative deepening gets this
/// share of the budget (at most `DEEPENING_CAP`), and scoring the moves the
/// rest: deepening is what answers when the budget runs out, scoring is
/// what answers exactly.
const DEEPENING_SHARE: u32 = 16;
const DEEPENING_CAP: Duration = Duration::from_millis(20);
/// Searched to the end, the root moves are first scored within this share
/// of the budget, before any deepening.
const FIRST_SCORING_SHARE: u32 = 8;
/// The first tests of a move's distance to the end step just past the bound
/// its kind's test proved; then the tests halve what is left.
const WALK_STEPS: u32 = 2;
/// A child's table entry can settle a position without the child being
/// searched (an enhanced transposition cutoff), at the cost of a table probe
/// per child: worth it only where at least this many plies may be left, so
/// that the searches it saves are large.
const CHILD_CUT_PLIES: usize = 16;
/// The longest principal variation written.
const MAX_LINE: usize = 4096;

/// The fewest positions the line of best play may take after every root
/// move is scored with the help of the game's book (see
/// `score_root_moves`).
const LINE_ALLOWANCE: u64 = 1 << 16;
/// The first allowance, in positions, of each root move's turn at reaching
/// a score the game knows; it doubles every round.
const FIRST_ALLOWANCE: u64 = 1 << 14;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    Running,
    /// The allowance of one test (`Engine::allowance`) is spent; the
    /// search goes on with another.
    Allowance,
    Deadline,
    Cancelled,
}

/// The scoring of every root move, which may run in more than one part.
struct RootScoring<G: Game, S> {
    moves: Vec<EngineMove<G::Move>>,
    children: Vec<G>,
    /// For a move whose score is its twin's (see [`Game::twin`]), the twin.
    twins: Vec<Option<usize>>,
    /// What is proven of each move's score: at least, at most.
    bounds: Vec<(S, S)>,
    /// Whether a line below the move was cut by the depth limit.
    cut: Vec<bool>,
    /// Each move's score at the deepest iteration that scored it, and that
    /// depth: what a search cut by the budget still knows of the moves it
    /// did not solve.
    heuristic: Vec<Option<(S, u32)>>,
    /// The root's score, when the game knows it.
    known: Option<S>,
    /// The moves searched, in the order of the last part.
    rank: Vec<usize>,
    /// The engine's positions and book hits when the scoring began.
    from: u64,
    book_hits: u64,
}

impl<G: Game, S: Packed> RootScoring<G, S> {
    /// True when every move searched has its score.
    fn scored(&self) -> bool {
        self.twins.iter().zip(&self.bounds).all(|(twin, (low, high))| twin.is_some() || low == high)
    }
}

struct Engine<'a, G: Game, S, O> {
    /// Exact scores from outside the search.
    oracle: &'a O,
    table: Option<&'a mut Table>,
    nodes: u64,
    hits: u64,
    book_hits: u64,
    /// Lines cut by the depth limit (or decided by a table entry that was).
    cuts: u64,
    next_check: u64,
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
    lines: Option<Lines<G::Move>>,
    range: Option<(i64, i64)>,
    /// Every score a line can end with, ascending, for bisection.
    candidates: Vec<S>,
    root_best: Option<G::Move>,
    /// The root move of the last search that reached its bound.
    proven_best: Option<G::Move>,
    /// The depth the caller asked for: the ply of the last iteration.
    target: u32,
}

impl<'a, G: Game, S: Packed, O: Oracle<G>> Engine<'a, G, S, O> {
    fn new(root: &G, oracle: &'a O, limits: Limits<'a>, table: &'a mut Table) -> Self {
        let keyed = root.key().is_some();
        if keyed {
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
        Engine {
            oracle,
            table: keyed.then_some(table),
            nodes: 0,
            hits: 0,
            book_hits: 0,
            cuts: 0,
            next_check: CHECK_INTERVAL,
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
                self.with_allowance(positions, |engine| engine.score_moves(root, target, &mut moves, None));
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
        if self.table.is_none() && self.candidates.is_empty() {
            let plies = root.max_plies_hint().min(target as usize);
            self.lines = Some(Lines::new(plies, root.moves().next()));
        }
        let mut guess = None;
        // Deepening pays for itself by filling the table with the moves that
        // order the next iteration, and by having an answer ready when the
        // budget runs out. With no table and no budget it has neither use,
        // and each iteration would search again what the last one did: one
        // search at the depth asked.
        let anytime = self.deadline.is_some() || self.node_budget != u64::MAX;
        let mut depth = if self.table.is_none() && !anytime { target } else { 1 };
        loop {
            let limit = depth.min(target);
            self.deadline_active = result.iterations > 0;
            let Some((score, complete)) = self.iteration(root, limit, guess) else {
                break;
            };
            // An exact result gives the first best line, as minimax does; a
            // cut one leads with the move the search found good enough.
            let first = if complete { None } else { self.proven_best };
            // A complete iteration's score holds at every greater depth,
            // but a move its search pruned may keep that score only at the
            // iteration's own depth: the line is walked at the depth asked
            // (to the end when none was), as minimax would choose there.
            let walk = if complete { target } else { limit };
            let line = match &self.lines {
                // The search's own line: the first best line in its order
                // of moves (the game's, unless its hints reorder them).
                Some(lines) => lines.root(),
                None => self.line(root, score, walk, first),
            };
            if self.stop == Stop::Cancelled {
                return Err(Cancelled);
            }
            result.iterations += 1;
            result.depth = limit;
            result.score = score.score();
            result.exact = complete;
            result.best_move = line.first().copied().or(self.root_best);
            result.principal_variation = line;
            guess = Some(score);
            progress(&Progress {
                depth: limit,
                best_move: result.best_move,
                score: result.score,
                exact: complete,
                principal_variation: &result.principal_variation,
                nodes: self.nodes,
                elapsed: started.elapsed(),
            });
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
            self.score_moves(root, target, &mut moves, result.best_move);
            self.settle(root, target, moves, &mut result);
        }
        self.finish(result, started)
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

    /// Narrows the bounds `(low, high)` on a root move's score (the move to
    /// `child`) with the question "is it at least `t`?"; a move whose score
    /// the game tells at once gets it exactly. `cut` learns of lines cut by
    /// the depth limit.
    fn narrow(&mut self, child: &G, bounds: &mut (S, S), cut: &mut bool, target: u32, t: S) {
        self.narrow_within(child, bounds, cut, target, (t.below(), t));
    }

    /// [`Self::narrow`] with the window `(alpha, beta)`: a score inside it
    /// is exact, one at or beyond it a bound.
    fn narrow_within(&mut self, child: &G, bounds: &mut (S, S), cut: &mut bool, target: u32, window: (S, S)) {
        let (alpha, beta) = window;
        let cuts = self.cuts;
        let exact = match child.outcome() {
            Some(value) => Some(-S::new(value, 1)),
            None if target <= 1 => {
                self.cuts += 1;
                Some(-cut_score::<G, S>(child, 1))
            }
            None if self.candidates.is_empty() => Some(-self.node(child, 1, -S::INFINITY, S::INFINITY)),
            None => None,
        };
        if self.stop != Stop::Running {
            return;
        }
        match exact {
            Some(score) => *bounds = (score, score),
            None => {
                let r = -self.node(child, 1, -beta, -alpha);
                if self.stop != Stop::Running {
                    return;
                }
                if r >= beta {
                    // A fail-soft bound never passes a proven one.
                    bounds.0 = r.min(bounds.1);
                } else if r <= alpha {
                    bounds.1 = r;
                } else {
                    *bounds = (r, r);
                }
            }
        }
        *cut |= self.cuts != cuts;
    }

    /// Scores every root move at the depth `limit` of the iteration just
    /// finished (full windows, the table warm from the iteration), for as
    /// long as the deepening's share lasts.
    fn score_at_depth(&mut self, scoring: &mut RootScoring<G, S>, limit: u32) {
        for i in 0..scoring.moves.len() {
            if scoring.twins[i].is_some() || self.stop != Stop::Running {
                continue;
            }
            let child = &scoring.children[i];
            let score = match child.outcome() {
                Some(value) => -S::new(value, 1),
                None if limit <= 1 => -cut_score::<G, S>(child, 1),
                None => -self.node(child, 1, -S::INFINITY, S::INFINITY),
            };
            if self.stop == Stop::Running {
                scoring.heuristic[i] = Some((score, limit));
            }
        }
    }

    /// Sets up the scoring of every root move at the target depth: nothing
    /// known of any move yet, except that none beats a score the game knows.
    fn start_scoring(&mut self, root: &G, target: u32) -> RootScoring<G, S> {
        let moves: Vec<EngineMove<G::Move>> =
            root.moves().map(|mv| EngineMove { mv, score: None, exact: false, depth: None }).collect();
        // A move the position's symmetry makes the twin of one before it
        // scores the same: it is not searched, and takes its twin's score.
        let twins: Vec<Option<usize>> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| root.twin(m.mv).and_then(|t| moves[..i].iter().position(|n| n.mv == t)))
            .collect();
        let children: Vec<G> = moves.iter().map(|m| root.play(m.mv)).collect();
        let (from, book_hits) = (self.nodes, self.book_hits);
        self.nodes += children.len() as u64;
        // A position whose score the game knows (from an opening book): no
        // move scores more, and a move that reaches it is a best move.
        let known =
            if target == u32::MAX { self.oracle.solved(root).map(|(value, plies)| S::new(value, plies)) } else { None };
        let bounds = vec![(-S::INFINITY, known.unwrap_or(S::INFINITY)); moves.len()];
        let cut = vec![false; moves.len()];
        let heuristic = vec![None; moves.len()];
        RootScoring { rank: Vec::new(), moves, twins, children, bounds, cut, heuristic, known, from, book_hits }
    }

    /// Narrows the root moves' scores at the target depth, for as long as
    /// the budget (or the allowance) lasts: the move `first` first, then
    /// the game's order of preference. What an earlier call proved is kept,
    /// so a call cut short can be resumed by another.
    fn score_moves(&mut self, root: &G, target: u32, scoring: &mut RootScoring<G, S>, first: Option<G::Move>) {
        self.limit = target;
        self.next_check = self.nodes;
        self.deadline_active = true;
        let mut order: Vec<(G::Move, i32)> = Vec::new();
        let _ = root.engine_moves(&mut order);
        root.rank_moves(&mut order);
        let hint = |mv: G::Move| order.iter().find(|(m, _)| *m == mv).map_or(i32::MIN, |&(_, h)| h);
        let mut rank: Vec<usize> = (0..scoring.moves.len()).filter(|&i| scoring.twins[i].is_none()).collect();
        rank.sort_by_key(|&i| {
            let mv = scoring.moves[i].mv;
            (Some(mv) != first, std::cmp::Reverse(hint(mv)))
        });
        scoring.rank = rank.clone();
        let RootScoring { children, bounds, cut, known, .. } = scoring;
        if let Some(known) = *known {
            self.reach(children, &rank, bounds, cut, target, known);
        }
        // First, what each move is worth in kind (loss, draw, win): two
        // null windows each, so that a winning move is known early even if
        // the budget runs out before every distance is.
        let draw = S::new(0, 0);
        let kinds: Vec<S> = [self.candidates.iter().copied().find(|&c| c > draw).unwrap_or(draw), draw]
            .into_iter()
            .filter(|t| self.candidates.binary_search(t).is_ok())
            .collect();
        for &i in &rank {
            for &t in &kinds {
                if self.stop == Stop::Running && bounds[i].0 < t && t <= bounds[i].1 {
                    self.narrow(&children[i], &mut bounds[i], &mut cut[i], target, t);
                }
            }
        }
        // Then every distance, the most promising moves first. A win's
        // distance is usually close to the bound the kind's test proved,
        // and a loss's too: the first tests ask just past that bound, the
        // rest halve what is left.
        let mut promising = rank;
        promising.sort_by_key(|&i| std::cmp::Reverse(bounds[i].0));
        for &i in &promising {
            let mut steps = 0;
            while bounds[i].0 < bounds[i].1 && self.stop == Stop::Running {
                let (low, high) = bounds[i];
                let first = self.candidates.partition_point(|&c| c <= low);
                let end = self.candidates.partition_point(|&c| c <= high);
                steps += 1;
                if first >= end {
                    // No outcome left between the bounds (an evaluation, or
                    // lines longer than the game's hint): one window settles it.
                    self.narrow_within(&children[i], &mut bounds[i], &mut cut[i], target, around(low, high));
                    continue;
                }
                let t = if steps <= WALK_STEPS && low >= draw && high == S::INFINITY {
                    self.candidates[first]
                } else if steps <= WALK_STEPS && high < draw && low == -S::INFINITY {
                    self.candidates[end - 1]
                } else {
                    self.candidates[(first + end) / 2]
                };
                self.narrow(&children[i], &mut bounds[i], &mut cut[i], target, t);
            }
        }
    }

    /// Settles the answer from the root moves' scores: when every move is
    /// scored, the best of them and its line; otherwise the best guess
    /// from what is proven and the deepening's answer in `result`.
    fn settle(&mut self, root: &G, target: u32, scoring: RootScoring<G, S>, result: &mut EngineResult<G::Move>) {
        let RootScoring {
            rank: ranked,
            mut moves,
            twins,
            mut bounds,
            mut cut,
            mut heuristic,
            known,
            from,
            book_hits,
            ..
        } = scoring;
        for (i, twin) in twins.iter().enumerate() {
            if let Some(j) = *twin {
                (bounds[i], cut[i], heuristic[i]) = (bounds[j], cut[j], heuristic[j]);
            }
        }
        let mut solved = 0;
        for (i, m) in moves.iter_mut().enumerate() {
            let (low, high) = bounds[i];
            if low == high {
                m.score = Some(low.score());
                m.exact = !cut[i];
                m.depth = (!m.exact).then_some(target);
                solved += 1;
            }
        }
        let all = solved == moves.len();
        if !all {
            // Cut by the budget: a move not solved keeps what the deepening
            // saw of it, within what the solver proved. A win or a loss
            // forced within that depth is its exact score (a quicker win or
            // a longer defence would have been seen there too).
            for (i, m) in moves.iter_mut().enumerate() {
                let (low, high) = bounds[i];
                let Some((seen, depth)) = heuristic[i].filter(|_| low != high) else { continue };
                let score = seen.clamp(low, high);
                // What the solver proved overrides: a bound is not exact.
                let forced = score == seen && seen.parts().0 != 0;
                m.score = Some(score.score());
                m.exact = forced;
                m.depth = (!forced).then_some(depth);
            }
        }
        if all {
            // Every move scored at the target depth: the best of them is the
            // answer, and its line is walked at that depth, within what is
            // left of the budget (a line cut short is still the start of the
            // line of best play).
            let best = moves.iter().filter_map(|m| m.score).max().expect("a position with moves");
            let exact = moves.iter().all(|m| m.exact);
            if self.stop == Stop::Deadline {
                self.stop = Stop::Running;
            }
            // Scores the book gave cheaply say nothing of the line past
            // its reach, a fresh search that can cost many times more: the
            // line then takes at most as many positions as the scores did,
            // and a line cut short is still the start of the line of best
            // play.
            let positions =
                if self.book_hits > book_hits { self.nodes.saturating_sub(from).max(LINE_ALLOWANCE) } else { u64::MAX };
            let line = self.with_allowance(positions, |engine| engine.line(root, from_score::<S>(best), target, None));
            result.score = best;
            result.exact = exact;
            // Searched to the end, no line is longer than the game.
            result.depth = if target == u32::MAX { root.max_plies_hint() as u32 } else { target };
            result.best_move =
                line.first().copied().or_else(|| moves.iter().find(|m| m.score == Some(best)).map(|m| m.mv));
            result.principal_variation = line;
        } else if let Some(i) = known.and_then(|k| ranked.iter().copied().find(|&i| bounds[i].0 >= k)) {
            // The known score, and a move proven to reach it.
            result.exact = false;
            result.score = bounds[i].0.score();
            result.best_move = Some(moves[i].mv);
            result.principal_variation = vec![moves[i].mv];
        } else {
            result.exact = false;
            // What is proven beats the iteration's guess, which may be only
            // "nothing forced within its depth": a move proven at least a
            // draw, or proven better than the guess can be; and a guess
            // proven to lose gives way to the move with the most hope.
            // With the position's score known, only the moves not yet
            // proven short of it are candidates.
            let draw = S::new(0, 0);
            let mut ranked = ranked;
            if let Some(k) = known {
                if ranked.iter().any(|&i| bounds[i].1 >= k) {
                    ranked.retain(|&i| bounds[i].1 >= k);
                }
            }
            let guess = ranked.iter().copied().find(|&i| Some(moves[i].mv) == result.best_move);
            let surest = ranked.iter().copied().max_by_key(|&i| (bounds[i].0, std::cmp::Reverse(i)));
            let hopeful = ranked.iter().copied().max_by_key(|&i| (bounds[i].1, std::cmp::Reverse(i)));
            let guess_high = guess.map_or(S::INFINITY, |j| bounds[j].1);
            let better = match (surest, hopeful) {
                (Some(i), _) if bounds[i].0 > -S::INFINITY && (bounds[i].0 >= draw || guess_high < bounds[i].0) => {
                    Some(i)
                }
                (_, Some(i)) if guess_high < draw => Some(i),
                _ => None,
            };
            // A guess proven short of the known score gives way.
            let better = better.or(if known.is_some() && guess.is_none() { ranked.first().copied() } else { None });
            if let Some(i) = better.filter(|&i| Some(i) != guess) {
                result.best_move = Some(moves[i].mv);
                result.principal_variation = vec![moves[i].mv];
            }
        }
        result.root_moves = moves;
    }

    /// Looks for a root move that reaches `known`, the root's own score:
    /// one null window per move, each move in turn given an allowance of
    /// positions that doubles every round, so that one move that is hard to
    /// refute does not hold up one that is easy to prove. Stops at the first
    /// move that reaches it, or when the budget runs out.
    fn reach(
        &mut self,
        children: &[G],
        rank: &[usize],
        bounds: &mut [(S, S)],
        cut: &mut [bool],
        target: u32,
        known: S,
    ) {
        let mut allowance = FIRST_ALLOWANCE;
        while self.stop == Stop::Running {
            let mut open = false;
            for &i in rank {
                if bounds[i].1 < known {
                    continue;
                }
                open = true;
                self.with_allowance(allowance, |engine| {
                    engine.narrow(&children[i], &mut bounds[i], &mut cut[i], target, known)
                });
                if bounds[i].0 >= known || self.stop != Stop::Running {
                    return;
                }
            }
            if !open {
                return;
            }
            allowance = allowance.saturating_mul(2);
        }
    }

    /// Runs `work` with at most `positions` more positions (`u64::MAX`:
    /// no allowance). A spent allowance stops `work` only: the search goes
    /// on after it.
    fn with_allowance<T>(&mut self, positions: u64, work: impl FnOnce(&mut Self) -> T) -> T {
        self.allowance = self.nodes.saturating_add(positions);
        let done = work(self);
        self.allowance = u64::MAX;
        if self.stop == Stop::Allowance {
            self.stop = Stop::Running;
        }
        done
    }

    /// The principal variation of a position whose score at `limit` is
    /// `score`: at each step, the first move in the game's order that keeps
    /// the score, proved by one null-window test per move tried; at the
    /// root, `first` is tried before the others.
    fn line(&mut self, root: &G, score: S, limit: u32, first: Option<G::Move>) -> Vec<G::Move> {
        let saved = self.limit;
        self.limit = limit;
        let mut line = Vec::new();
        let mut position = root.clone();
        let mut target = score;
        let mut ply = 0;
        while position.outcome().is_none() && ply < limit && line.len() < MAX_LINE && self.stop == Stop::Running {
            let mut next = None;
            let preferred = first.filter(|_| ply == 0);
            for mv in preferred.into_iter().chain(position.moves().filter(|&mv| Some(mv) != preferred)) {
                let child = position.play(mv);
                let keeps = match child.outcome() {
                    Some(value) => -S::new(value, ply + 1) >= target,
                    None if ply + 1 >= limit => -cut_score::<G, S>(&child, ply + 1) >= target,
                    None => -self.node(&child, ply + 1, -target, -target.below()) >= target,
                };
                if self.stop != Stop::Running {
                    break;
                }
                if keeps {
                    next = Some((mv, child));
                    break;
                }
            }
            let Some((mv, child)) = next else { break };
            line.push(mv);
            position = child;
            target = -target;
            ply += 1;
        }
        self.limit = saved;
        line
    }

    #[inline(always)]
    fn stopped(&mut self) -> bool {
        self.nodes >= self.next_check && self.poll()
    }

    #[cold]
    fn poll(&mut self) -> bool {
        if self.stop == Stop::Running {
            if self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) || self.nodes > self.max_nodes {
                self.stop = Stop::Cancelled;
            } else if self.deadline_active
                && (self.nodes > self.node_budget || self.deadline.is_some_and(|d| Instant::now() >= d))
            {
                self.stop = Stop::Deadline;
            } else if self.nodes > self.allowance {
                self.stop = Stop::Allowance;
            }
        }
        self.next_check = if self.stop == Stop::Running { self.nodes + CHECK_INTERVAL } else { 0 };
        self.stop != Stop::Running
    }

    /// The depth the table records for a search with `left` plies to go:
    /// `None` when it cannot record it.
    #[inline(always)]
    fn depth_code(&self, left: u32) -> Option<u8> {
        if self.limit == u32::MAX {
            Some(UNLIMITED)
        } else if left < UNLIMITED as u32 {
            Some(left as u8)
        } else {
            None
        }
    }

    /// Searches a position that is not over, at `ply` (below the limit),
    /// within `(alpha, beta)`; fail-soft.
    fn node(&mut self, pos: &G, ply: u32, alpha: S, beta: S) -> S {
        self.search(pos, ply, alpha, beta, false)
    }

    /// [`Self::node`], told whether the move into `pos` was a safe one
    /// ([`Tactics::Safe`]), after which the side to move cannot win at once.
    fn search(&mut self, pos: &G, ply: u32, mut alpha: S, mut beta: S, after_safe: bool) -> S {
        if self.stopped() {
            return S::new(0, 0);
        }
        if self.limit == u32::MAX && ply > 0 {
            if let Some((value, plies)) = self.oracle.solved(pos) {
                self.book_hits += 1;
                return S::new(value, ply + plies);
            }
        }
        if let Some(lines) = self.lines.as_mut() {
            lines.open(ply as usize);
        }
        let left = self.limit.saturating_sub(ply);
        let (alpha_in, beta_in) = (alpha, beta);
        let cuts = self.cuts;
        let nodes = self.nodes;
        let root = ply == 0;

        let mut moves = self.take_buffer(ply);
        let tactics = if after_safe { pos.engine_moves_after_safe(&mut moves) } else { pos.engine_moves(&mut moves) };
        // No move wins at once: children need no look for a win.
        let quiet = matches!(tactics, Tactics::Safe | Tactics::Lost);
        // Only safe moves are searched: no child can win at once. (With
        // fewer than two plies left, every move is, but none is searched.)
        let safe = matches!(tactics, Tactics::Safe);
        match (tactics, self.range) {
            (Tactics::Win(mv), _) => {
                self.nodes += 1;
                self.give_back(ply, moves);
                if root {
                    self.root_best = Some(mv);
                }
                if let Some(lines) = self.lines.as_mut() {
                    lines.best_leaf(ply as usize, mv);
                }
                let child = pos.play(mv);
                return -S::new(child.outcome().unwrap_or(0), ply + 1);
            }
            (Tactics::Lost, Some((low, _))) if left >= 2 => {
                self.give_back(ply, moves);
                if root {
                    self.root_best = pos.moves().next();
                }
                if let Some(lines) = self.lines.as_mut() {
                    match pos.moves().next() {
                        Some(mv) => lines.best_leaf(ply as usize, mv),
                        None => lines.none(ply as usize),
                    }
                }
                return S::new(low, ply + 2);
            }
            (Tactics::Lost | Tactics::Safe, _) if left < 2 => {
                // Pruning by the opponent's reply is exact only when that
                // reply is searched: take every move, the safe ones first.
                let safe = moves.len();
                for mv in pos.moves() {
                    if !moves[..safe].iter().any(|&(m, _)| m == mv) {
                        moves.push((mv, i32::MIN / 2));
                    }
                }
            }
            (Tactics::Lost, _) => moves.extend(pos.moves().map(|mv| (mv, 0))),
            (Tactics::Safe, Some((low, high))) => {
                // No win at once: the soonest is two plies on. And after a
                // safe move, no loss at once.
                let upper = S::new(high, ply + 3);
                if upper <= alpha {
                    self.give_back(ply, moves);
                    self.no_line(ply);
                    return upper;
                }
                let lower = S::new(low, ply + 4);
                if lower >= beta {
                    self.give_back(ply, moves);
                    self.no_line(ply);
                    return lower;
                }
                beta = beta.min(upper);
                alpha = alpha.max(lower);
            }
            _ => {}
        }

        let key = pos.key();
        let mut hint_move = NO_MOVE;
        if let (Some(key), Some(table)) = (key, self.table.as_deref()) {
            if let Some(hit) = table.probe(key) {
                let depth = self.depth_code(left);
                // A move from a much shallower search orders worse than the
                // game's own hint.
                if hit.complete || depth.is_some_and(|d| hit.depth >= d.saturating_sub(2)) {
                    hint_move = hit.mv;
                }
                let usable = usable(&hit, depth);
                if usable && !root {
                    self.hits += 1;
                    if !hit.complete {
                        self.cuts += 1;
                    }
                    let stored = S::from_table(hit.score, ply);
                    match hit.bound {
                        Bound::Exact => {
                            self.give_back(ply, moves);
                            return stored;
                        }
                        Bound::Lower => alpha = alpha.max(stored),
                        Bound::Upper => beta = beta.min(stored),
                    }
                    if alpha >= beta {
                        self.give_back(ply, moves);
                        return stored;
                    }
                }
            }
        }
        // With the table's move first, the game ranks the other moves only
        // if that one does not settle the position.
        let lazy = hint_move != NO_MOVE && moves.iter().any(|&(mv, _)| mv.into() == hint_move as u64);
        if !lazy {
            pos.rank_moves(&mut moves);
        }
        order(&mut moves, hint_move);
        self.prefetch_children(pos, if lazy { &moves[..1] } else { &moves });
        if !lazy && !root && pos.max_plies_hint() >= CHILD_CUT_PLIES {
            if let Some(score) = self.child_cut(pos, ply, &moves, beta) {
                self.give_back(ply, moves);
                return score;
            }
        }

        let mut best = -S::INFINITY;
        let mut best_move = NO_MOVE;
        for i in 0..moves.len() {
            if lazy && i == 1 {
                pos.rank_moves(&mut moves[1..]);
                order(&mut moves[1..], NO_MOVE);
                self.prefetch_children(pos, &moves[1..]);
                if !root && pos.max_plies_hint() >= CHILD_CUT_PLIES {
                    if let Some(score) = self.child_cut(pos, ply, &moves[1..], beta) {
                        self.give_back(ply, moves);
                        return score;
                    }
                }
            }
            let mv = moves[i].0;
            let child = pos.play(mv);
            self.nodes += 1;
            let outcome = if quiet { child.outcome_after_quiet_move() } else { child.outcome() };
            let searched = outcome.is_none() && left > 1;
            let score = match outcome {
                Some(value) => -S::new(value, ply + 1),
                None if left <= 1 => {
                    self.cuts += 1;
                    -cut_score::<G, S>(&child, ply + 1)
                }
                None => -self.search(&child, ply + 1, -beta, -alpha, safe),
            };
            if self.stop != Stop::Running {
                self.give_back(ply, moves);
                return S::new(0, 0);
            }
            if score > best {
                best = score;
                best_move = u8::try_from(mv.into()).unwrap_or(NO_MOVE);
                if root {
                    self.root_best = Some(mv);
                }
                if let Some(lines) = self.lines.as_mut() {
                    if searched {
                        lines.best_node(ply as usize, mv);
                    } else {
                        lines.best_leaf(ply as usize, mv);
                    }
                }
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.give_back(ply, moves);
        if best == -S::INFINITY {
            // No legal move in a position that is not over breaks the
            // `Game` contract: score it statically, as minimax does.
            self.no_line(ply);
            return cut_score(pos, ply);
        }

        if let (Some(key), Some(depth)) = (key, self.depth_code(left)) {
            if let (Some(stored), Some(table)) = (best.to_table(ply), self.table.as_deref_mut()) {
                let bound = if best <= alpha_in {
                    Bound::Upper
                } else if best >= beta_in {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                let mv = if bound == Bound::Upper { NO_MOVE } else { best_move };
                table.store(key, stored, bound, mv, depth, self.cuts == cuts, self.nodes - nodes);
            }
        }
        best
    }

    /// A score of at least `beta` that a child's table entry proves without
    /// searching it (an enhanced transposition cutoff), if any.
    fn child_cut(&mut self, pos: &G, ply: u32, moves: &[(G::Move, i32)], beta: S) -> Option<S> {
        let table = self.table.as_deref()?;
        let left = self.limit.saturating_sub(ply + 1);
        let depth = self.depth_code(left);
        for &(mv, _) in moves {
            let Some(key) = pos.play(mv).key() else { continue };
            let Some(hit) = table.probe(key) else { continue };
            if !usable(&hit, depth) || hit.bound == Bound::Lower {
                continue;
            }
            // The child's score is at most the stored one: this position's
            // is at least its negation.
            let score = -S::from_table(hit.score, ply + 1);
            if score >= beta {
                self.hits += 1;
                if !hit.complete {
                    self.cuts += 1;
                }
                return Some(score);
            }
        }
        None
    }

    /// Starts loading the table entries of the positions after `moves`.
    #[inline(always)]
    fn prefetch_children(&self, pos: &G, moves: &[(G::Move, i32)]) {
        if let Some(table) = self.table.as_deref() {
            for &(mv, _) in moves {
                if let Some(key) = pos.play(mv).key() {
                    table.prefetch(key);
                }
            }
        }
    }

    /// The line from `ply` ends here, when lines are kept.
    #[inline(always)]
    fn no_line(&mut self, ply: u32) {
        if let Some(lines) = self.lines.as_mut() {
            lines.none(ply as usize);
        }
    }

    #[inline(always)]
    fn take_buffer(&mut self, ply: u32) -> Vec<(G::Move, i32)> {
        let ply = ply as usize;
        if ply >= self.buffers.len() {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut buffer = std::mem::take(&mut self.buffers[ply]);
        buffer.clear();
        buffer
    }

    #[inline(always)]
    fn give_back(&mut self, ply: u32, buffer: Vec<(G::Move, i32)>) {
        self.buffers[ply as usize] = buffer;
    }
}

/// Moves by hint, highest first (stable, so equal hints keep the game's
/// order), with the table's move before all.
#[inline(always)]
fn order<M: Copy + Into<u64>>(moves: &mut [(M, i32)], first: u8) {
    for i in 1..moves.len() {
        let item = moves[i];
        let mut j = i;
        while j > 0 && moves[j - 1].1 < item.1 {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = item;
    }
    if first != NO_MOVE {
        if let Some(at) = moves.iter().position(|&(mv, _)| mv.into() == first as u64) {
            moves[..=at].rotate_right(1);
        }
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

/// True when a table entry's score holds for a search of depth code `depth`
/// (see `Engine::depth_code`): one searched to that same depth, or one
/// that no depth limit cut, searched to that depth or less.
#[inline(always)]
fn usable(hit: &Hit, depth: Option<u8>) -> bool {
    Some(hit.depth) == depth || (hit.complete && depth.is_none_or(|d| hit.depth <= d))
}

fn from_score<S: Packed>(score: Score) -> S {
    match (score.ply(), score.heuristic()) {
        (Some(ply), _) => S::new(score.value(), ply),
        (None, evaluation) => S::evaluation(evaluation.unwrap_or(0)),
    }
}
