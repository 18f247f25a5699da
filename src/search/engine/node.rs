//! The node search: fail-soft alpha-beta over one position, with the
//! game's tactics, the table's bounds and move, and enhanced
//! transposition cutoffs.

use super::picker::{pick, pick_all, stage_first, stage_rest, table_move, PICK_MOST};
use super::*;
use crate::search::MAX_EVALUATION;

/// A child's table entry can settle a position without the child being
/// searched (an enhanced transposition cutoff), at the cost of a table probe
/// per child: worth it only where at least this many plies may be left, so
/// that the searches it saves are large.
const CHILD_CUT_PLIES: usize = 16;
/// How many standard deviations (in hundredths) a midgame probe's score
/// must clear a bound by to cut ([`Heuristics::midgame_probe`]): in
/// Othello self-play at 300,000 positions a move (`examples/othello_match.rs`,
/// 80 games each, 160 at 2.0), the selective search took 50% of the points
/// against the full-width one at 1.5, 62.5% at 2.0, 57% at 2.5 and 51% at
/// 3.5.
const MIDGAME_SELECTIVITY: u32 = 200;

impl<'a, G: Solver, S: Packed, O: Oracle<G>> Engine<'a, G, S, O> {
    /// The depth the table records for a search with `left` plies to go:
    /// `None` when it cannot record it.
    #[inline(always)]
    pub(super) fn depth_code(&self, left: u32) -> Option<u8> {
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
    pub(super) fn node(&mut self, pos: &G, ply: u32, alpha: S, beta: S) -> S {
        self.search(pos, ply, alpha, beta, false)
    }

    /// [`Self::node`], told whether the move into `pos` was a safe one
    /// ([`Tactics::Safe`]), after which the side to move cannot win at once.
    pub(super) fn search(&mut self, pos: &G, ply: u32, mut alpha: S, mut beta: S, after_safe: bool) -> S {
        if self.stopped() {
            return S::new(0, 0);
        }
        // A search to the end may also ask in its iterations, if the
        // oracle's scores hold at every depth.
        if ply > 0 && (self.limit == u32::MAX || self.oracle_in_iterations()) {
            if let Some(score) = self.ask_oracle(pos, ply, alpha, beta) {
                return score;
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
        if !self.probing && !root {
            let probe = match self.selectivity {
                Some(t) => pos.outcome_probe().map(|probe| (probe, t)),
                None if self.midgame_selective => pos.midgame_probe(left).map(|probe| (probe, MIDGAME_SELECTIVITY)),
                None => None,
            };
            if let Some((probe, t)) = probe {
                self.selective_unit = Some(probe.unit);
                if let Some(score) = self.probe_cut(pos, ply, alpha, beta, probe, t, key, hint_move) {
                    self.give_back(ply, moves);
                    return score;
                }
            }
        }
        let lazy = stage_first(pos, &mut moves, hint_move, left);
        self.prefetch_children(pos, if lazy { &moves[..1] } else { &moves }, left);
        let child_cuts = !root && child_cuts_pay(pos, left);
        // Many moves, or moves whose children's entries are looked up now:
        // sorted at once. Otherwise each is picked as the search reaches it.
        let sorted = moves.len() > PICK_MOST || child_cuts;
        if !lazy && sorted {
            pick_all::<G>(&mut moves, 0);
        }
        if !lazy && child_cuts {
            if let Some(score) = self.child_cut(pos, ply, &moves, beta) {
                self.give_back(ply, moves);
                return score;
            }
        }

        let mut best = -S::INFINITY;
        let mut best_move = NO_MOVE;
        for i in 0..moves.len() {
            if lazy && i == 1 {
                stage_rest(pos, &mut moves[1..], left);
                self.prefetch_children(pos, &moves[1..], left);
                if sorted {
                    pick_all::<G>(&mut moves, 1);
                }
                if child_cuts {
                    if let Some(score) = self.child_cut(pos, ply, &moves[1..], beta) {
                        self.give_back(ply, moves);
                        return score;
                    }
                }
            }
            if !sorted && (i > 0 || !lazy) {
                pick::<G>(&mut moves, i);
            }
            let mv = moves[i].0;
            let child = pos.play(mv);
            self.nodes += 1;
            // At the depth limit (no oracle to ask), the outcome and the
            // estimate at once.
            let (outcome, estimate) = if left <= 1 && !self.oracle_in_iterations() && child.cut_value() == 0 {
                match child.outcome_or_estimate(quiet) {
                    Ok(value) => (Some(value), None),
                    Err(points) => (None, Some(points)),
                }
            } else {
                (if quiet { child.outcome_after_quiet_move() } else { child.outcome() }, None)
            };
            let searched = outcome.is_none() && left > 1;
            // A late move of a selective iteration, searched shallower
            // first: kept only when it fails low there.
            let reduced = match outcome {
                None if left > 2 && i > 0 && self.midgame_selective && !self.probing && alpha > -S::INFINITY => {
                    match pos.reduction(mv, i, left).min(left - 2) {
                        0 => None,
                        r => {
                            self.limit -= r;
                            let score = -self.search(&child, ply + 1, -alpha.above(), -alpha, safe);
                            self.limit += r;
                            (score <= alpha || self.stop != Stop::Running).then_some(score)
                        }
                    }
                }
                _ => None,
            };
            let score = match (outcome, reduced) {
                (_, Some(score)) => score,
                (Some(value), None) => -S::new(value, ply + 1),
                (None, None) if estimate.is_some() => {
                    self.cuts += 1;
                    -S::evaluation(estimate.unwrap_or(0))
                }
                (None, None) if left <= 1 => {
                    // At the depth limit, an oracle that answers in the
                    // iterations still settles the child: its line is not cut.
                    let known = if self.oracle_in_iterations() {
                        self.ask_oracle(&child, ply + 1, -beta, -alpha)
                    } else {
                        None
                    };
                    match known {
                        Some(score) => -score,
                        None => {
                            self.cuts += 1;
                            -cut_score::<G, S>(&child, ply + 1)
                        }
                    }
                }
                (None, None) if self.scout && i > 0 && alpha > -S::INFINITY && alpha.above() < beta => {
                    // Principal variation search: a move after the first is
                    // first asked only whether it beats `alpha`, with an
                    // empty window, and searched again with the full window
                    // when it does.
                    let scout = -self.search(&child, ply + 1, -alpha.above(), -alpha, safe);
                    if scout > alpha && scout < beta && self.stop == Stop::Running {
                        -self.search(&child, ply + 1, -beta, -alpha, safe)
                    } else {
                        scout
                    }
                }
                (None, None) => -self.search(&child, ply + 1, -beta, -alpha, safe),
            };
            if self.stop != Stop::Running {
                self.give_back(ply, moves);
                return S::new(0, 0);
            }
            if score > best {
                best = score;
                best_move = table_move::<G>(mv);
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
                if self.probing {
                    // A probe's shallow search leaves the deeper searches'
                    // entries alone: they order the passes to come.
                    table.store_unless_deeper(key, stored, bound, mv, depth, self.cuts == cuts, self.nodes - nodes);
                } else {
                    table.store(key, stored, bound, mv, depth, self.cuts == cuts, self.nodes - nodes);
                }
            }
        }
        best
    }

    /// A selective cut-off (ProbCut) of `pos`, searched within `(alpha,
    /// beta)` in a selective pass or a midgame iteration under a budget,
    /// as `probe` says: when a shallow search's score clears
    /// `beta` (or falls under `alpha`) by `t` hundredths of the game's
    /// standard deviation, the position is taken to score at least `beta`
    /// (at most `alpha`) without being searched. The cut counts as a cut
    /// line, so nothing that rests on it is taken for exact, and its table
    /// entry keeps the position's move for the next pass.
    #[allow(clippy::too_many_arguments)]
    fn probe_cut(
        &mut self,
        pos: &G,
        ply: u32,
        alpha: S,
        beta: S,
        probe: OutcomeProbe,
        t: u32,
        key: Option<u64>,
        hint: u16,
    ) -> Option<S> {
        let OutcomeProbe { depth, sigma, unit } = probe;
        let left = self.limit.saturating_sub(ply);
        if depth == 0 || left <= depth {
            return None;
        }
        let margin = i32::try_from(i64::from(sigma) * i64::from(t) / 100).ok()?;
        // A bound in points: an outcome's value in units, an evaluation
        // as it is.
        let points = |s: S| -> Option<i32> {
            if s == S::INFINITY || s == -S::INFINITY {
                return None;
            }
            match s.parts() {
                (0, _) => Some(s.band()),
                (value, _) => i32::try_from(value.saturating_mul(i64::from(unit))).ok(),
            }
        };
        let (limit, cuts) = (self.limit, self.cuts);
        self.probing = true;
        self.limit = ply + depth;
        let mut cut = None;
        if let Some(bound) = points(beta).and_then(|b| b.checked_add(margin)).filter(|&b| b < MAX_EVALUATION) {
            let at = S::evaluation(bound);
            let r = self.search(pos, ply, at.below(), at, false);
            if self.stop == Stop::Running && points(r).is_some_and(|p| p >= bound) {
                cut = Some((beta, Bound::Lower));
            }
        }
        if cut.is_none() && self.stop == Stop::Running {
            if let Some(bound) = points(alpha).and_then(|a| a.checked_sub(margin)).filter(|&a| a > -MAX_EVALUATION) {
                let at = S::evaluation(bound);
                let r = self.search(pos, ply, at, at.above(), false);
                if self.stop == Stop::Running && points(r).is_some_and(|p| p <= bound) {
                    cut = Some((alpha, Bound::Upper));
                }
            }
        }
        self.probing = false;
        self.limit = limit;
        // The shallow search's own depth cuts are not this search's.
        self.cuts = cuts;
        let (score, bound) = cut?;
        self.cuts += 1;
        if let (Some(key), Some(depth), Some(stored)) = (key, self.depth_code(left), score.to_table(ply)) {
            if let Some(table) = self.table.as_deref_mut() {
                let mv = match (bound, hint) {
                    (Bound::Upper, _) => NO_MOVE,
                    (_, NO_MOVE) => table.probe(key).map_or(NO_MOVE, |hit| hit.mv),
                    _ => hint,
                };
                table.store(key, stored, bound, mv, depth, false, 1);
            }
        }
        Some(score)
    }

    /// True when the oracle answers in the iterations of this search (a
    /// search to the end, see [`Oracle::in_iterations`]), but for a
    /// probe's shallow search, which looks only at its evaluations.
    #[inline(always)]
    fn oracle_in_iterations(&self) -> bool {
        self.target == u32::MAX && self.oracle.in_iterations() && !self.probing
    }

    /// The oracle's score for `pos` at `ply` within `(alpha, beta)`
    /// (fail-soft), if it knows it.
    #[inline(always)]
    fn ask_oracle(&mut self, pos: &G, ply: u32, alpha: S, beta: S) -> Option<S> {
        let before = self.oracle.nodes();
        let score = self.oracle.solved_within(pos, relative(alpha, ply), relative(beta, ply))?;
        match self.oracle.nodes() - before {
            0 => self.book_hits += 1,
            searched => self.nodes += searched,
        }
        Some(from_relative(score, ply))
    }

    /// A score of at least `beta` that a child's table entry proves without
    /// searching it (an enhanced transposition cutoff), if any.
    pub(super) fn child_cut(&mut self, pos: &G, ply: u32, moves: &[(G::Move, i32)], beta: S) -> Option<S> {
        let table = self.table.as_deref()?;
        let left = self.limit.saturating_sub(ply + 1);
        let depth = self.depth_code(left);
        for &(mv, _) in moves {
            let Some(key) = pos.key_after(mv) else { continue };
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

    /// Starts loading the table entries of the positions after `moves`,
    /// searched with `left` plies to go: none with one ply or less, whose
    /// children are scored where they stand, without the table (working
    /// out their keys and loading their entries would be time lost).
    #[inline(always)]
    pub(super) fn prefetch_children(&self, pos: &G, moves: &[(G::Move, i32)], left: u32) {
        if left <= 1 {
            return;
        }
        if let Some(table) = self.table.as_deref() {
            for &(mv, _) in moves {
                if let Some(key) = pos.key_after(mv) {
                    table.prefetch(key);
                }
            }
        }
    }

    /// The line from `ply` ends here, when lines are kept.
    #[inline(always)]
    pub(super) fn no_line(&mut self, ply: u32) {
        if let Some(lines) = self.lines.as_mut() {
            lines.none(ply as usize);
        }
    }
}

/// True when [`Engine::child_cut`] is worth its table probes at a
/// position with `left` plies to search below: where at least
/// `CHILD_CUT_PLIES` plies may be left, in the game and in the search. (In
/// an Othello midgame search to depth 12, `scripts/othello-compare.sh
/// PART=speed` on ten positions of 30 to 44 empty squares, probes at every
/// node saved 2.5% of the positions and took 13% more time: see
/// docs/figures.md.)
#[inline(always)]
fn child_cuts_pay<G: Game>(pos: &G, left: u32) -> bool {
    pos.max_plies_hint().min(left as usize) >= CHILD_CUT_PLIES
}

/// True when a table entry's score holds for a search of depth code `depth`
/// (see `Engine::depth_code`): one searched to that same depth, or one
/// that no depth limit cut, searched to that depth or less.
#[inline(always)]
fn usable(hit: &Hit, depth: Option<u8>) -> bool {
    Some(hit.depth) == depth || (hit.complete && depth.is_none_or(|d| hit.depth <= d))
}

/// A score of the search as seen from a position at `ply`: the plies
/// counted from there. An outcome whose line would end above `ply` is
/// placed at the position itself, which compares the same with every
/// score reachable from there.
#[inline(always)]
fn relative<S: Packed>(score: S, ply: u32) -> Score {
    if score == S::INFINITY {
        return Score::INFINITY;
    }
    if score == -S::INFINITY {
        return -Score::INFINITY;
    }
    match score.parts() {
        (0, _) => Score::evaluation(score.band()),
        (value, end) => Score::new(value, end.saturating_sub(ply)),
    }
}

/// A score counted from a position at `ply` (see [`relative`]) as the
/// search's.
#[inline(always)]
fn from_relative<S: Packed>(score: Score, ply: u32) -> S {
    match (score.ply(), score.heuristic()) {
        (Some(plies), _) => S::new(score.value(), ply + plies),
        (None, evaluation) => S::evaluation(evaluation.unwrap_or(0)),
    }
}
