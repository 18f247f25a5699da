//! The shared search core: the [`Game`] trait, the [`Score`] type, and the two
//! searches over it, plain [`minimax`] and [`alpha_beta`].
//!
//! Nothing here knows about HTTP, JSON or a particular game. Both searches are
//! negamax: scores are always from the point of view of the side to move, and
//! a parent's score is the negation of its best child's.

mod choose;
mod score;

pub use choose::{choose, Choice, TieBreak};
pub use score::Score;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A two-player, zero-sum, perfect-information game, seen from one position.
///
/// This is all a search sees. Positions are small values that are cheap to
/// copy; [`Game::play`] returns the position after a move instead of mutating,
/// so the search never has to undo anything.
///
/// Contract the searches rely on:
/// - every value (from [`Game::outcome`] and [`Game::evaluate`]) is from the
///   point of view of the side to move, and is never `i64::MIN`, so it can
///   always be negated;
/// - a position that is not over has at least one legal move.
pub trait Game: Clone {
    /// A move, as small as the game allows (a cell index, a child index).
    type Move: Copy + PartialEq + std::fmt::Debug;
    /// The legal moves of a position, in the game's canonical order. "First"
    /// among equally good moves means first in this order.
    type Moves: Iterator<Item = Self::Move>;

    /// The final value when the game is over (for example +1 won, 0 drawn,
    /// -1 lost), or `None` while it goes on.
    fn outcome(&self) -> Option<i64>;

    /// The legal moves. Only called on positions whose [`Game::outcome`] is `None`.
    fn moves(&self) -> Self::Moves;

    /// The position after `mv`, with the other side to move.
    fn play(&self, mv: Self::Move) -> Self;

    /// A static estimate for a position that is not over, used when a depth
    /// limit stops the search before the end of a line.
    fn evaluate(&self) -> i64;

    /// An upper bound on the plies left in any line from here, if known. Only
    /// used to size buffers up front; a wrong guess costs speed, not
    /// correctness.
    fn max_plies_hint(&self) -> usize {
        16
    }
}

/// How far and how long a search may go.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Plies to look ahead (at least 1); `None` searches every line to its end.
    pub max_depth: Option<u32>,
    /// Set from another thread to abandon the search; checked every few
    /// thousand nodes, so an abandoned search stops within microseconds.
    pub cancel: Option<&'a AtomicBool>,
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

/// Plain minimax (negamax form): visits every position in the game tree below
/// the root (down to the depth limit) and returns the exact score of every
/// root move.
pub fn minimax<G: Game>(root: &G, limits: Limits<'_>) -> Result<SearchResult<G::Move>, Cancelled> {
    Searcher::new(root, limits).run(root, false)
}

/// Alpha-beta: the same score and best move as [`minimax`], found by skipping
/// lines that cannot change the result, so it never visits more positions.
pub fn alpha_beta<G: Game>(root: &G, limits: Limits<'_>) -> Result<SearchResult<G::Move>, Cancelled> {
    Searcher::new(root, limits).run(root, true)
}

/// Nodes between two looks at the cancel flag (a power of two, minus one).
const CANCEL_CHECK_MASK: u64 = (1 << 14) - 1;

/// One search's working state.
///
/// Principal variations are kept without copying: `plies[p].line` holds the
/// line a node at ply `p` reports to its parent, `plies[p].best` the line of
/// that node's best child so far, both stored leaf first. A new best child is
/// recorded by swapping two buffers, and a finished node appends its move: O(1)
/// per node, however deep the tree.
struct Searcher<'a, M> {
    nodes: u64,
    cut: bool,
    cancelled: bool,
    depth: u32,
    cancel: Option<&'a AtomicBool>,
    plies: Vec<Lines<M>>,
    root_moves: Vec<RootMove<M>>,
}

/// The two line buffers of one ply.
struct Lines<M> {
    line: Vec<M>,
    best: Vec<M>,
}

impl<M> Lines<M> {
    fn with_capacity(capacity: usize) -> Self {
        Lines { line: Vec::with_capacity(capacity), best: Vec::with_capacity(capacity) }
    }
}

impl<'a, M: Copy> Searcher<'a, M> {
    fn new<G: Game<Move = M>>(root: &G, limits: Limits<'a>) -> Self {
        // A depth of 0 would leave nothing to search: one ply is the least.
        let depth = limits.max_depth.map_or(u32::MAX, |d| d.max(1));
        let plies = root.max_plies_hint().min(depth as usize) + 2;
        Searcher {
            nodes: 0,
            cut: false,
            cancelled: false,
            depth,
            cancel: limits.cancel,
            plies: (0..plies).map(|_| Lines::with_capacity(plies)).collect(),
            root_moves: Vec::new(),
        }
    }

    fn run<G: Game<Move = M>>(mut self, root: &G, pruned: bool) -> Result<SearchResult<M>, Cancelled> {
        let started = Instant::now();
        self.visit();
        let (alpha, beta) = (-Score::INFINITY, Score::INFINITY);
        let score = match self.leaf(root, self.depth) {
            Some(value) => Score::new(value, 0),
            None if pruned => self.node::<G, true, false>(root, self.depth, 0, alpha, beta),
            None => self.node::<G, false, true>(root, self.depth, 0, alpha, beta),
        };
        if self.cancelled {
            return Err(Cancelled);
        }
        let mut principal_variation = std::mem::take(&mut self.plies[0].line);
        principal_variation.reverse();
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

    /// Counts a visit, and now and then looks whether the search was called off.
    #[inline(always)]
    fn visit(&mut self) {
        self.nodes += 1;
        if self.nodes & CANCEL_CHECK_MASK == 0 {
            if let Some(flag) = self.cancel {
                if flag.load(Ordering::Relaxed) {
                    self.cancelled = true;
                }
            }
        }
    }

    /// The value of a position where the search stops (the game is over, or
    /// the depth limit is reached), or `None` if it goes on.
    #[inline(always)]
    fn leaf<G: Game<Move = M>>(&mut self, pos: &G, depth: u32) -> Option<i64> {
        match pos.outcome() {
            Some(value) => Some(value),
            None if depth == 0 => {
                self.cut = true;
                Some(pos.evaluate())
            }
            None => None,
        }
    }

    /// Searches below a position that does not end the search (the caller
    /// has visited it and checked). One body serves both algorithms:
    /// `PRUNE` turns plain negamax into fail-soft alpha-beta, and `ROOT`
    /// records every root move's score.
    fn node<G: Game<Move = M>, const PRUNE: bool, const ROOT: bool>(
        &mut self,
        pos: &G,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        if ply + 1 >= self.plies.len() {
            self.plies.resize_with(ply + 2, || Lines::with_capacity(0));
        }
        let mut best = -Score::INFINITY;
        let mut best_move = None;
        for mv in pos.moves() {
            if self.cancelled {
                break;
            }
            // Children that end the search are scored here, without a call:
            // nearly half of all positions are such leaves.
            let child = pos.play(mv);
            self.visit();
            let (score, leaf) = match self.leaf(&child, depth - 1) {
                Some(value) => (-Score::new(value, ply as u32 + 1), true),
                None => (-self.node::<G, PRUNE, false>(&child, depth - 1, ply + 1, -beta, -alpha), false),
            };
            if ROOT {
                let plies = if leaf { 1 } else { self.plies[ply + 1].line.len() as u32 + 1 };
                self.root_moves.push(RootMove { mv, score, plies });
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                let (here, below) = self.plies.split_at_mut(ply + 1);
                if leaf {
                    here[ply].best.clear();
                } else {
                    std::mem::swap(&mut here[ply].best, &mut below[0].line);
                }
                if PRUNE && score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let lines = &mut self.plies[ply];
        match best_move {
            Some(mv) => {
                lines.best.push(mv);
                std::mem::swap(&mut lines.line, &mut lines.best);
                best
            }
            // A position that is not over yet has no legal move: that breaks
            // the `Game` contract, so score it statically.
            None => {
                lines.line.clear();
                Score::new(pos.evaluate(), ply as u32)
            }
        }
    }
}
