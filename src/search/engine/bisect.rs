//! The bisection driver's root: every root move's exact score by null
//! windows over the outcomes, a move that keeps a score the oracle knows,
//! the deepening's scores for what the budget leaves unsolved, and the
//! answer settled from all of it.

use super::*;

/// The first tests of a move's distance to the end step just past the bound
/// its kind's test proved; then the tests halve what is left.
const WALK_STEPS: u32 = 2;
/// The fewest positions the line of best play may take after every root
/// move is scored with the help of the game's book (see
/// `score_root_moves`).
const LINE_ALLOWANCE: u64 = 1 << 16;
/// The first allowance, in positions, of each root move's turn at reaching
/// a score the game knows; it doubles every round.
const FIRST_ALLOWANCE: u64 = 1 << 14;

/// The scoring of every root move, which may run in more than one part.
pub(super) struct RootScoring<G: Game, S> {
    pub(super) moves: Vec<EngineMove<G::Move>>,
    pub(super) children: Vec<G>,
    /// For a move whose score is its twin's (see [`Solver::twin`]), the twin.
    pub(super) twins: Vec<Option<usize>>,
    /// What is proven of each move's score: at least, at most.
    pub(super) bounds: Vec<(S, S)>,
    /// Whether a line below the move was cut by the depth limit.
    pub(super) cut: Vec<bool>,
    /// Each move's score at the deepest iteration that scored it, and that
    /// depth: what a search cut by the budget still knows of the moves it
    /// did not solve.
    pub(super) heuristic: Vec<Option<(S, u32)>>,
    /// The root's score, when the game knows it.
    pub(super) known: Option<S>,
    /// The moves searched, in the order of the last part.
    pub(super) rank: Vec<usize>,
    /// The engine's positions and book hits when the scoring began.
    pub(super) from: u64,
    pub(super) book_hits: u64,
}

impl<G: Game, S: Packed> RootScoring<G, S> {
    /// True when every move searched has its score.
    pub(super) fn scored(&self) -> bool {
        self.twins.iter().zip(&self.bounds).all(|(twin, (low, high))| twin.is_some() || low == high)
    }
}

impl<'a, G: Solver, S: Packed, O: Oracle<G>> Engine<'a, G, S, O> {
    /// Narrows the bounds `(low, high)` on a root move's score (the move to
    /// `child`) with the question "is it at least `t`?"; a move whose score
    /// the game tells at once gets it exactly. `cut` learns of lines cut by
    /// the depth limit.
    pub(super) fn narrow(&mut self, child: &G, bounds: &mut (S, S), cut: &mut bool, target: u32, t: S) {
        self.narrow_within(child, bounds, cut, target, (t.below(), t));
    }

    /// [`Self::narrow`] with the window `(alpha, beta)`: a score inside it
    /// is exact, one at or beyond it a bound.
    pub(super) fn narrow_within(
        &mut self,
        child: &G,
        bounds: &mut (S, S),
        cut: &mut bool,
        target: u32,
        window: (S, S),
    ) {
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
    pub(super) fn score_at_depth(&mut self, scoring: &mut RootScoring<G, S>, limit: u32) {
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
    pub(super) fn start_scoring(&mut self, root: &G, target: u32) -> RootScoring<G, S> {
        let moves: Vec<EngineMove<G::Move>> = root
            .moves()
            .map(|mv| EngineMove { mv, score: None, exact: false, depth: None, upper_bound: false })
            .collect();
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
    pub(super) fn score_moves(
        &mut self,
        root: &G,
        target: u32,
        scoring: &mut RootScoring<G, S>,
        first: Option<G::Move>,
        started: Instant,
        progress: &mut dyn FnMut(&Progress<'_, G::Move>),
    ) {
        self.limit = target;
        self.check_now();
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
        let RootScoring { moves, twins, children, bounds, cut, known, .. } = scoring;
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
            if bounds[i].0 == bounds[i].1 && self.stop == Stop::Running {
                // The move, and its twins, which score the same.
                let settled = moves.iter().enumerate().filter(|&(j, _)| j == i || twins[j] == Some(i));
                for (_, m) in settled {
                    progress(&Progress::RootMove(RootMoveReport {
                        mv: m.mv,
                        score: bounds[i].0.score(),
                        exact: !cut[i],
                        depth: cut[i].then_some(target),
                        nodes: self.nodes,
                        elapsed: started.elapsed(),
                    }));
                }
            }
        }
    }

    /// Settles the answer from the root moves' scores: when every move is
    /// scored, the best of them and its line; otherwise the best guess
    /// from what is proven and the deepening's answer in `result`.
    pub(super) fn settle(
        &mut self,
        root: &G,
        target: u32,
        scoring: RootScoring<G, S>,
        result: &mut EngineResult<G::Move>,
    ) {
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
    pub(super) fn reach(
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
}
