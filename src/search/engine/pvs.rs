//! The heuristic driver, for games whose outcomes are too many to bisect
//! (Othello's disc differences): iterative deepening over the evaluation,
//! each iteration searched within an aspiration window around the last
//! one's score, with principal variation search below the root (in
//! `node.rs`); a time policy with a soft limit, past which no new
//! iteration starts (later after an iteration that changed its mind than
//! after a stable one), and a hard one, the deadline, which abandons the
//! iteration under way; and, when every root move is to be scored, each
//! move's own score at the depths reached within a share of the budget,
//! the best move's alone deeper (and, near the end, proven first).
//!
//! Once its lines reach the end, and when the game predicts outcomes by
//! shallow searches ([`Heuristics::outcome_probe`]), a search to the end
//! starts with selective passes (ProbCut): at each position, a shallow
//! search whose score clears the window by some standard deviations
//! settles it without a deeper look. Each pass trusts the prediction less
//! than the one before; their table entries order the next, and each
//! centres the next one's aspiration window. The final pass is the exact
//! search, which takes no score from them: their entries are at other
//! depths, and a cut counts as a cut line.
//!
//! The answer is the deepest finished iteration's: exact when no line of
//! it was cut (the oracle, an endgame solver, settles lines near the end),
//! its evaluation at that depth otherwise.

use super::*;
use crate::search::MAX_EVALUATION;

/// The half-width of the first aspiration window around the last
/// iteration's evaluation, in the game's points; it grows fourfold each
/// time a search falls outside it.
const ASPIRATION: i32 = 64;
/// A new iteration starts only while less than this share of the budget
/// (`numerator / denominator`, in time, and in positions when the budget
/// is counted in positions) is spent: an iteration takes several times as
/// long as the one before, so one begun later would mostly be abandoned at
/// the deadline, its work lost.
const SOFT_SHARE: (u32, u32) = (1, 2);
/// After an unstable iteration (one that changed the best move, or whose
/// score fell by more than `UNSTABLE_DROP` points, or either of the last
/// two iterations' scores was an outcome), a new one may start while less
/// than this share of the budget is spent: the search takes longer where
/// the answer is in doubt.
const UNSTABLE_SHARE: (u32, u32) = (3, 4);
/// See `UNSTABLE_SHARE`: a hundredth of a disc in Othello's points.
const UNSTABLE_DROP: i32 = 50;
/// When every root move is to be scored under a budget, iterations score
/// each move until this share of the budget is spent; the deeper ones
/// search the root for its own score, as `BEST_FIRST_PLIES` says, so that
/// the best move is searched deeper than each move's own score could be.
/// The other moves keep their scores at the depth of the last iteration
/// that scored them all (their `depth`), held below the best move's.
const EVERY_MOVE_SHARE: (u32, u32) = (1, 4);
/// When every root move is to be scored, the iterations from this many
/// plies short of the end's reach (the oracle's, see [`Oracle::reach`]) on
/// search the root for its own score, as a solver does, rather than each
/// move's: the best move and its score come first, proven exactly as soon
/// as a solver would, and the other moves keep the estimates of the last
/// iteration that scored them all (held below the best move's), or, once
/// the best is proven, the bound its proof gives them (no more than the
/// best), until what is left of the budget solves them too.
const BEST_FIRST_PLIES: u32 = 4;
/// The selective passes before a search to the end, in hundredths of a
/// standard deviation (see [`Heuristics::outcome_probe`]): each cuts
/// only where a shallow search clears a bound by that much, each fills
/// the table with better moves for the next, and the search to the end
/// that follows takes none of their scores.
const SELECTIVITY: &[u32] = &[110, 150, 200, 260];

impl<'a, G: Solver, S: Packed, O: Oracle<G>> Engine<'a, G, S, O> {
    /// Runs the heuristic driver on `root`, a position that is not over,
    /// into `result`.
    pub(super) fn run_heuristic(
        mut self,
        root: &G,
        options: EngineOptions,
        mut result: EngineResult<G::Move>,
        started: Instant,
        progress: &mut dyn FnMut(&Progress<'_, G::Move>),
    ) -> Result<EngineResult<G::Move>, Cancelled> {
        let target = self.target;
        // A share of the budget, in time and in positions, as a test of
        // whether it is spent.
        let (deadline, node_budget) = (self.deadline, self.node_budget);
        let share = |(numerator, denominator): (u32, u32)| {
            let at = deadline.map(|d| started + d.saturating_duration_since(started) * numerator / denominator);
            let nodes = match node_budget {
                u64::MAX => u64::MAX,
                budget => budget / u64::from(denominator) * u64::from(numerator),
            };
            move |engine: &Self| at.is_some_and(|at| Instant::now() >= at) || engine.nodes >= nodes
        };
        let (soft_spent, unstable_spent, scoring_spent) =
            (share(SOFT_SHARE), share(UNSTABLE_SHARE), share(EVERY_MOVE_SHARE));
        // Under a budget, once its share for scoring every move is spent,
        // the iterations search the root for its own score (see
        // `EVERY_MOVE_SHARE`).
        let selective_budget = target == u32::MAX && !options.full_width && !options.equal_depths;
        let mut previous: Option<(Option<G::Move>, S)> = None;
        let root_moves: Vec<G::Move> = if options.score_root_moves { root.moves().collect() } else { Vec::new() };
        let children: Vec<G> = root_moves.iter().map(|&mv| root.play(mv)).collect();
        self.nodes += children.len() as u64;
        // Each root move's score at the last finished iteration: the centre
        // of its next aspiration window.
        let mut last: Vec<Option<S>> = vec![None; root_moves.len()];
        let mut depth = self.start_deepening(root, root_moves.is_empty());
        let mut guess = None;
        // Searched to the end, the iterations from the oracle's reach on end
        // their lines in outcomes: their windows aim at the outcome the last
        // evaluation estimates.
        let reach = if target == u32::MAX && self.oracle.in_iterations() { self.oracle.reach(root) } else { None };
        // After a selective pass, its outcome is the estimate.
        let mut selective_before = false;
        // The root moves whose settled score `progress` heard of: each
        // once, when it is proven, or at the end at the depth reached.
        let mut announced = vec![false; root_moves.len()];
        let estimate = |score: Option<S>, limit: u32, selective_before: bool| {
            let score = score.filter(|_| reach.is_some_and(|r| limit >= r))?;
            match score.parts() {
                (0, _) => root.outcome_estimate(score.band()),
                (value, _) if selective_before => Some(value),
                _ => None,
            }
        };
        // The selective passes run first once the lines reach the end, if
        // the game predicts outcomes.
        let mut passes = if reach.is_some() && root.outcome_probe().is_some() { SELECTIVITY } else { &[] };
        loop {
            let limit = depth.min(target);
            self.selectivity = match passes.split_first() {
                Some((&t, rest)) if reach.is_some_and(|r| limit >= r) => {
                    passes = rest;
                    Some(t)
                }
                _ => None,
            };
            self.midgame_selective = target == u32::MAX && !options.full_width && reach.is_none_or(|r| limit < r);
            self.deadline_active = result.iterations > 0;
            self.limit = limit;
            self.selective_unit = None;
            let cuts = self.cuts;
            self.root_best = None;
            self.proven_best = None;
            // Near the end, the iterations search the root as a solver does
            // (see `BEST_FIRST_PLIES`), once one has scored every move;
            // with `equal_depths` every move keeps its own score to the end.
            let best_first = !result.root_moves.is_empty()
                && !options.equal_depths
                && (reach.is_some_and(|r| limit + BEST_FIRST_PLIES >= r) || (selective_budget && scoring_spent(&self)));
            let mut scored = Vec::with_capacity(root_moves.len());
            let score = if root_moves.is_empty() || best_first {
                self.aspirate(guess, estimate(guess, limit, selective_before), |engine, alpha, beta| {
                    let r = engine.node(root, 0, alpha, beta);
                    // A search that failed low proves nothing of its moves.
                    if r > alpha {
                        engine.proven_best = engine.root_best;
                    }
                    r
                })
            } else {
                let mut best = -S::INFINITY;
                for (i, child) in children.iter().enumerate() {
                    let cuts = self.cuts;
                    let score = match child.outcome() {
                        Some(value) => -S::new(value, 1),
                        None if limit <= 1 => {
                            self.cuts += 1;
                            -cut_score::<G, S>(child, 1)
                        }
                        None => {
                            self.aspirate(last[i], estimate(last[i], limit, selective_before), |engine, alpha, beta| {
                                -engine.node(child, 1, -beta, -alpha)
                            })
                        }
                    };
                    if self.stop != Stop::Running {
                        break;
                    }
                    scored.push((score, self.cuts == cuts));
                    if score > best {
                        best = score;
                        self.proven_best = Some(root_moves[i]);
                    }
                }
                self.root_best = self.proven_best;
                best
            };
            if self.stop == Stop::Cancelled {
                return Err(Cancelled);
            }
            if self.stop != Stop::Running {
                // Abandoned at the deadline: the last finished iteration
                // stands.
                break;
            }
            let complete = self.cuts == cuts;
            let line = self.iteration_line(root, score, limit, complete);
            if self.stop == Stop::Cancelled {
                return Err(Cancelled);
            }
            let reported = self.reported(score, complete);
            self.record(&mut result, limit, reported, complete, line, started, progress);
            if best_first {
                let best = self.reported(score, complete).score();
                for m in result.root_moves.iter_mut() {
                    *m = if Some(m.mv) == result.best_move {
                        EngineMove { score: Some(best), exact: complete, depth: (!complete).then_some(limit), ..*m }
                    } else if complete {
                        // The root's exact score is the best of its moves':
                        // none of the others scores more.
                        EngineMove { score: Some(score.score()), exact: false, depth: None, upper_bound: true, ..*m }
                    } else {
                        // An earlier estimate, held below the best move's.
                        EngineMove { score: m.score.map(|s| if s >= best { best.just_below() } else { s }), ..*m }
                    };
                }
                self.announce(&result.root_moves, &mut announced, true, started, progress);
            } else if !root_moves.is_empty() {
                result.root_moves = root_moves
                    .iter()
                    .zip(&scored)
                    .map(|(&mv, &(score, exact))| EngineMove {
                        mv,
                        score: Some(self.reported(score, exact).score()),
                        exact,
                        depth: (!exact).then_some(limit),
                        upper_bound: false,
                    })
                    .collect();
                last = scored.iter().map(|&(score, _)| Some(score)).collect();
                self.announce(&result.root_moves, &mut announced, true, started, progress);
            }
            // An iteration that changed the best move, or found it much
            // worse than the one before, may be followed by another later
            // in the budget than a stable one.
            let unstable = previous.is_some_and(|(best, before)| {
                best != result.best_move
                    || before.parts().0 != 0
                    || score.parts().0 != 0
                    || score.band() < before.band().saturating_sub(UNSTABLE_DROP)
            });
            previous = Some((result.best_move, score));
            guess = Some(score);
            selective_before = self.selectivity.take().is_some();
            let soft_passed = if unstable { unstable_spent(&self) } else { soft_spent(&self) };
            if complete || limit == target || self.stop != Stop::Running || soft_passed {
                break;
            }
            depth += 1;
        }
        if result.exact && result.root_moves.iter().any(|m| m.upper_bound) {
            // The best move is proven: what is left of the budget solves
            // the others, the closest to the best first.
            // Each move's window is centred on the outcome its last own
            // score estimates.
            let centres: Vec<Option<i64>> = last
                .iter()
                .map(|l| {
                    l.and_then(|l| match l.parts() {
                        (0, _) => root.outcome_estimate(l.band()),
                        (value, _) => Some(value),
                    })
                })
                .collect();
            self.solve_bounded(&children, &centres, &mut result.root_moves, &mut announced, started, progress);
            // The line leads with the first move in the game's order among
            // those solved to the best score, as when every move is scored
            // from the start.
            let first = result.root_moves.iter().find(|m| m.exact && m.score == Some(result.score)).map(|m| m.mv);
            if first.is_some() && first != result.best_move && self.stop == Stop::Running {
                let line = self.line(root, from_score(result.score), self.target, first);
                if self.stop == Stop::Running && line.first() == first.as_ref() {
                    result.best_move = first;
                    result.principal_variation = line;
                }
            }
        }
        self.announce(&result.root_moves, &mut announced, false, started, progress);
        self.finish(result, started)
    }

    /// Solves the root moves left with an upper bound (proven no better
    /// than the best), the best estimated first (`centres`: the outcome
    /// each move's last own score estimates), for as long as the budget
    /// lasts. Each is searched as the root is: the selective passes first
    /// (where the game predicts outcomes), each centring the next one's
    /// window and ordering its moves, then the exact search, never above
    /// the bound.
    fn solve_bounded(
        &mut self,
        children: &[G],
        centres: &[Option<i64>],
        moves: &mut [EngineMove<G::Move>],
        announced: &mut [bool],
        started: Instant,
        progress: &mut dyn FnMut(&Progress<'_, G::Move>),
    ) {
        let mut order: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].upper_bound).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(centres[i]));
        self.midgame_selective = false;
        'moves: for i in order {
            let Some(bound) = moves[i].score else { continue };
            let child = &children[i];
            let bound: S = from_score(bound);
            let mut centre = centres[i].map_or(bound.parts().0, |c| c.min(bound.parts().0));
            let passes = if child.outcome_probe().is_some() { SELECTIVITY } else { &[] };
            // Each pass a ply short of the next, as the root's were: the
            // table keeps their entries apart from the exact search's,
            // which takes only their moves.
            let exact_limit = self.limit;
            for (k, &t) in passes.iter().enumerate() {
                self.selectivity = Some(t);
                self.limit = exact_limit.saturating_sub((passes.len() - k) as u32).max(2);
                let r = self
                    .aspirate_outcome_below(centre, bound, |engine, alpha, beta| -engine.node(child, 1, -beta, -alpha));
                self.selectivity = None;
                self.limit = exact_limit;
                if self.stop != Stop::Running {
                    break 'moves;
                }
                centre = r.parts().0.min(bound.parts().0);
            }
            let cuts = self.cuts;
            let score =
                self.aspirate_outcome_below(centre, bound, |engine, alpha, beta| -engine.node(child, 1, -beta, -alpha));
            if self.stop != Stop::Running {
                break;
            }
            if self.cuts == cuts {
                moves[i] =
                    EngineMove { score: Some(score.score()), exact: true, depth: None, upper_bound: false, ..moves[i] };
                self.announce(moves, announced, true, started, progress);
            }
        }
    }

    /// Tells `progress` of the root moves not yet `announced`: with
    /// `exact_only`, those just proven; otherwise every one left, at the
    /// depth the search reached.
    fn announce(
        &self,
        moves: &[EngineMove<G::Move>],
        announced: &mut [bool],
        exact_only: bool,
        started: Instant,
        progress: &mut dyn FnMut(&Progress<'_, G::Move>),
    ) {
        for (m, announced) in moves.iter().zip(announced.iter_mut()) {
            let Some(score) = m.score.filter(|_| !*announced && !m.upper_bound && (m.exact || !exact_only)) else {
                continue;
            };
            *announced = true;
            progress(&Progress::RootMove(RootMoveReport {
                mv: m.mv,
                score,
                exact: m.exact,
                depth: m.depth,
                nodes: self.nodes,
                elapsed: started.elapsed(),
            }));
        }
    }

    /// A score of the iteration just finished as the answer reports it: an
    /// outcome that is not exact, found by an iteration that searched
    /// selectively, rests on cuts that only predict (ProbCut), so it is
    /// not forced even within the depth: it is reported as the estimate
    /// it is, an evaluation of the outcome's points (clamped to the
    /// evaluations' range). Exact scores, evaluations, and the outcomes of
    /// a full-width iteration (forced within its depth) are kept.
    fn reported(&self, score: S, exact: bool) -> S {
        match (self.selective_unit, score.parts().0) {
            (Some(unit), value) if !exact && value != 0 && score != S::INFINITY && score != -S::INFINITY => {
                let points = value.saturating_mul(i64::from(unit));
                let bound = i64::from(MAX_EVALUATION - 1);
                S::evaluation(points.clamp(-bound, bound) as i32)
            }
            _ => score,
        }
    }

    /// The score found by `search(alpha, beta)` (fail-soft) within an
    /// aspiration window around `guess`, widened until the score falls
    /// inside it. With no guess, or a guess that is not an evaluation (a
    /// forced result, which a deeper search keeps or betters), the window
    /// is the full one. With an `estimate` of the outcome (an iteration
    /// whose lines end in outcomes), the window is one around that
    /// outcome instead.
    pub(super) fn aspirate(
        &mut self,
        guess: Option<S>,
        estimate: Option<i64>,
        mut search: impl FnMut(&mut Self, S, S) -> S,
    ) -> S {
        if let Some(centre) = estimate {
            return self.aspirate_outcome(centre, search);
        }
        let Some(centre) = guess.filter(|g| g.parts().0 == 0).map(|g| g.band()) else {
            return search(self, -S::INFINITY, S::INFINITY);
        };
        let mut width = ASPIRATION;
        let window = (lower(centre, width), upper(centre, width));
        self.widen_until_inside(window, search, |r, fell_low| {
            width = width.saturating_mul(4);
            match (r.parts().0, fell_low) {
                (0, true) => lower(r.band(), width),
                (0, false) => upper(r.band(), width),
                (_, true) => -S::INFINITY,
                (_, false) => S::INFINITY,
            }
        })
    }

    /// The score found by `search` (fail-soft) within `window`, searched
    /// again for as long as it falls outside, with the bound it fell out
    /// of moved to `widen(score, fell_low)`.
    fn widen_until_inside(
        &mut self,
        window: (S, S),
        mut search: impl FnMut(&mut Self, S, S) -> S,
        mut widen: impl FnMut(S, bool) -> S,
    ) -> S {
        let (mut alpha, mut beta) = window;
        loop {
            let r = search(self, alpha, beta);
            if self.stop != Stop::Running {
                return r;
            }
            if r <= alpha {
                alpha = widen(r, true);
            } else if r >= beta {
                beta = widen(r, false);
            } else {
                return r;
            }
        }
    }

    /// [`Self::aspirate`] around the outcome `centre`: a window from just
    /// below the outcomes `OUTCOME_ASPIRATION` under it to just above
    /// those as far over it (whatever their plies), widened fourfold on
    /// the side the score falls out of, to the full window past the
    /// game's range.
    fn aspirate_outcome(&mut self, centre: i64, search: impl FnMut(&mut Self, S, S) -> S) -> S {
        let (low, high) = self.range.unwrap_or((i64::MIN, i64::MAX));
        let below = |width: i64| match centre.checked_sub(width) {
            Some(value) if value > low => highest::<S>(value - 1),
            _ => -S::INFINITY,
        };
        let above = |width: i64| match centre.checked_add(width) {
            Some(value) if value < high => lowest::<S>(value + 1),
            _ => S::INFINITY,
        };
        let mut width = OUTCOME_ASPIRATION;
        let window = (below(width), above(width));
        self.widen_until_inside(window, search, |_, fell_low| {
            width = width.saturating_mul(4);
            if fell_low {
                below(width)
            } else {
                above(width)
            }
        })
    }

    /// The score found by `search` (fail-soft) of a position proven to
    /// score at most `ceiling`, estimated at the outcome `centre`: in a
    /// window from just below the outcomes `OUTCOME_ASPIRATION` under the
    /// centre to just above as many over it (never above the ceiling),
    /// widened fourfold on the side the score falls out of.
    fn aspirate_outcome_below(&mut self, centre: i64, ceiling: S, search: impl FnMut(&mut Self, S, S) -> S) -> S {
        let low = self.range.map_or(i64::MIN, |(low, _)| low);
        let below = |width: i64| match centre.checked_sub(width) {
            Some(value) if value > low => highest::<S>(value - 1),
            _ => -S::INFINITY,
        };
        let above = |width: i64| match centre.checked_add(width) {
            Some(value) if lowest::<S>(value + 1) < ceiling.above() => lowest::<S>(value + 1),
            _ => ceiling.above(),
        };
        let mut width = OUTCOME_ASPIRATION;
        let window = (below(width), above(width));
        let mut top = window.1;
        self.widen_until_inside(window, search, |_, fell_low| {
            width = width.saturating_mul(4);
            if fell_low {
                below(width)
            } else {
                // A selective pass may predict more than the ceiling: past
                // it, the window opens fully.
                top = if top == ceiling.above() { S::INFINITY } else { above(width) };
                top
            }
        })
    }
}

/// The half-width, in the game's values, of the first aspiration window
/// around an estimated outcome.
const OUTCOME_ASPIRATION: i64 = 2;

/// A ply past the end of every line: outcomes at it are the least
/// favourable of their value (the latest win, the soonest loss aside).
const FAR_PLY: u32 = 1 << 20;

/// The highest score with the value `value`: the soonest win, the latest
/// loss.
fn highest<S: Packed>(value: i64) -> S {
    match value.signum() {
        1 => S::new(value, 0),
        -1 => S::new(value, FAR_PLY),
        _ => S::new(0, 0),
    }
}

/// The lowest score with the value `value`: the latest win, the soonest
/// loss.
fn lowest<S: Packed>(value: i64) -> S {
    match value.signum() {
        1 => S::new(value, FAR_PLY),
        -1 => S::new(value, 0),
        _ => S::new(0, 0),
    }
}

/// The bound `width` points below the evaluation `centre`: past the least
/// evaluation, every score (losses included) is above it.
fn lower<S: Packed>(centre: i32, width: i32) -> S {
    match centre.checked_sub(width) {
        Some(bound) if bound > -MAX_EVALUATION => S::evaluation(bound),
        _ => -S::INFINITY,
    }
}

/// The bound `width` points above the evaluation `centre`.
fn upper<S: Packed>(centre: i32, width: i32) -> S {
    match centre.checked_add(width) {
        Some(bound) if bound < MAX_EVALUATION => S::evaluation(bound),
        _ => S::INFINITY,
    }
}
