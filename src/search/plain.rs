//! Plain minimax and alpha-beta: every position below the root (to the
//! depth limit), the exact score of every root move, and the line of best
//! play; what bounds them ([`Limits`]) and what they find
//! ([`SearchResult`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::pv_table::PvTable;
use super::score::{Packed, SmallScore};
use super::{cut_score, Game, Heuristics, Score};

/// How far and how long a search may go.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Plies to look ahead (at least 1); `None` searches every line to its end.
    pub max_depth: Option<u32>,
    /// Set from another thread to abandon the search; checked on entering a
    /// position with moves once some sixteen thousand nodes have passed since
    /// the last look, so an abandoned search stops within microseconds.
    pub cancel: Option<&'a AtomicBool>,
    /// The engine stops deepening at this time and answers with what it has;
    /// [`minimax`] and [`alpha_beta`] give up at it (as if cancelled),
    /// looking at the clock as often as at the cancel flag.
    pub deadline: Option<Instant>,
    /// The searches give up (as if cancelled) after about this many positions.
    pub max_nodes: Option<u64>,
    /// The engine answers with what it has after about this many positions,
    /// as at the deadline: a budget that, unlike time, gives the same answer
    /// on every run (the other searches ignore it).
    pub node_budget: Option<u64>,
}

/// The exact score of one root move, as plain minimax found it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Its score for the side to move at the root.
    pub score: Score,
    /// Plies from the root to the end of this move's line of best play.
    pub plies: u32,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The best move (the first among equals), or `None` when the game is over.
    pub best_move: Option<M>,
    /// The score of the position for the side to move.
    pub score: Score,
    /// True when no line was cut by the depth limit.
    pub exact: bool,
    /// Positions visited, the root included.
    pub nodes: u64,
    /// The line of best play from the root.
    pub principal_variation: Vec<M>,
    /// Wall time spent searching.
    pub elapsed: Duration,
    /// Every root move with its score, in move order (plain minimax only;
    /// empty for alpha-beta, which does not compute them).
    pub root_moves: Vec<RootMove<M>>,
}

/// Why a search did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the search was cancelled")
    }
}

impl std::error::Error for Cancelled {}

/// Plain minimax (negamax form): visits every position in the game tree below
/// the root (down to the depth limit) and returns the exact score of every
/// root move.
pub fn minimax<G: Heuristics>(root: &G, limits: Limits<'_>) -> Result<SearchResult<G::Move>, Cancelled> {
    search::<G, false>(root, limits)
}

/// Alpha-beta: the same score and best move as [`minimax`], found by skipping
/// lines that cannot change the result, so it never visits more positions.
pub fn alpha_beta<G: Heuristics>(root: &G, limits: Limits<'_>) -> Result<SearchResult<G::Move>, Cancelled> {
    search::<G, true>(root, limits)
}

fn search<G: Heuristics, const PRUNE: bool>(root: &G, limits: Limits<'_>) -> Result<SearchResult<G::Move>, Cancelled> {
    if root.small_values() {
        Searcher::new(root, limits).run::<G, SmallScore, PRUNE>(root)
    } else {
        Searcher::new(root, limits).run::<G, Score, PRUNE>(root)
    }
}

/// Nodes between two looks at the cancel flag.
const CANCEL_CHECK_INTERVAL: u64 = 1 << 14;

/// One search's working state.
struct Searcher<'a, M> {
    /// Positions visited, except the children of the nodes still open.
    nodes: u64,
    /// When `nodes` reaches this, look at the cancel flag.
    next_check: u64,
    cut: bool,
    cancelled: bool,
    /// The depth limit: the ply at which lines are cut.
    depth: usize,
    cancel: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    max_nodes: u64,
    lines: PvTable<M>,
    root_moves: Vec<RootMove<M>>,
}

impl<'a, M: Copy> Searcher<'a, M> {
    fn new<G: Game<Move = M>>(root: &G, limits: Limits<'a>) -> Self {
        // A depth of 0 would leave nothing to search: one ply is the least.
        let depth = limits.max_depth.map_or(usize::MAX, |d| d.max(1) as usize);
        let plies = root.max_plies_hint().min(depth) + 2;
        Searcher {
            nodes: 0,
            next_check: CANCEL_CHECK_INTERVAL,
            cut: false,
            cancelled: false,
            depth,
            cancel: limits.cancel,
            deadline: limits.deadline,
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            // Any legal move fills the line buffer up front; a finished root
            // writes no line.
            lines: PvTable::new(plies, if root.outcome().is_none() { root.moves().next() } else { None }),
            root_moves: Vec::new(),
        }
    }

    fn run<G: Heuristics<Move = M>, S: Packed, const PRUNE: bool>(
        mut self,
        root: &G,
    ) -> Result<SearchResult<M>, Cancelled> {
        let started = Instant::now();
        self.nodes = 1;
        let score = match self.leaf::<G, S>(root, 0) {
            Some(score) => score.score(),
            None => self.node::<G, S, PRUNE, true>(root, 0, -S::INFINITY, S::INFINITY).score(),
        };
        if self.cancelled {
            return Err(Cancelled);
        }
        let principal_variation = self.lines.root();
        Ok(SearchResult {
            best_move: principal_variation.first().copied(),
            score,
            exact: !self.cut,
            nodes: self.nodes,
            principal_variation,
            elapsed: started.elapsed(),
            root_moves: self.root_moves,
        })
    }

    /// True when the search was called off. Looks at the flag only now and
    /// then; once called off, it says so to every node, which returns at once.
    #[inline(always)]
    fn stopped(&mut self) -> bool {
        self.nodes >= self.next_check && self.poll()
    }

    #[cold]
    fn poll(&mut self) -> bool {
        if !self.cancelled
            && (self.nodes > self.max_nodes
                || self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|deadline| Instant::now() >= deadline))
        {
            self.cancelled = true;
        }
        self.next_check = if self.cancelled { 0 } else { self.nodes + CANCEL_CHECK_INTERVAL };
        self.cancelled
    }

    /// The score of a position where the search stops (the game is over,
    /// or the depth limit is reached at `ply`), or `None` if it goes on.
    #[inline(always)]
    fn leaf<G: Heuristics<Move = M>, S: Packed>(&mut self, pos: &G, ply: usize) -> Option<S> {
        match pos.outcome() {
            Some(value) => Some(S::new(value, ply as u32)),
            None if ply == self.depth => {
                self.cut = true;
                Some(cut_score(pos, ply as u32))
            }
            None => None,
        }
    }

    /// Searches below a position that does not end the search (the caller
    /// has visited it and checked). One body serves both algorithms:
    /// `PRUNE` turns plain negamax into fail-soft alpha-beta, and `ROOT`
    /// records every root move's score.
    fn node<G: Heuristics<Move = M>, S: Packed, const PRUNE: bool, const ROOT: bool>(
        &mut self,
        pos: &G,
        ply: usize,
        mut alpha: S,
        beta: S,
    ) -> S {
        if self.stopped() {
            // The result is thrown away: any score will do.
            return -S::INFINITY;
        }
        self.lines.open(ply);
        let mut best = -S::INFINITY;
        // Children are counted here and added once, when this node is done.
        let mut children = 0;
        for mv in pos.moves() {
            // Children that end the search are scored here, without a call:
            // nearly half of all positions are such leaves.
            let child = pos.play(mv);
            children += 1;
            let (score, leaf) = match self.leaf::<G, S>(&child, ply + 1) {
                Some(score) => (-score, true),
                None => (-self.node::<G, S, PRUNE, false>(&child, ply + 1, -beta, -alpha), false),
            };
            if ROOT && !PRUNE {
                let plies = if leaf { 1 } else { self.lines.len(ply + 1) as u32 + 1 };
                self.root_moves.push(RootMove { mv, score: score.score(), plies });
            }
            if score > best {
                best = score;
                if leaf {
                    self.lines.best_leaf(ply, mv);
                } else {
                    self.lines.best_node(ply, mv);
                }
                if PRUNE && score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.nodes += children;
        if best == -S::INFINITY {
            // A position that is not over yet has no legal move: that breaks
            // the `Game` contract, so score it statically.
            self.lines.none(ply);
            return cut_score(pos, ply as u32);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::Position;

    #[test]
    fn a_cancelled_search_says_so_and_a_clear_flag_changes_nothing() {
        let game = Position::EMPTY.game();
        let flag = AtomicBool::new(true);
        let cancelled = Limits { cancel: Some(&flag), ..Limits::default() };
        assert_eq!(minimax(&game, cancelled), Err(Cancelled));
        assert_eq!(alpha_beta(&game, cancelled).map(|r| r.nodes), Err(Cancelled));
        flag.store(false, Ordering::Relaxed);
        let plain = minimax(&game, Limits::default()).unwrap();
        let watched = minimax(&game, cancelled).unwrap();
        assert_eq!(
            (watched.nodes, watched.score, watched.principal_variation),
            (plain.nodes, plain.score, plain.principal_variation)
        );
    }
}
