//! The traits a game implements for the searches: [`Game`] (the rules),
//! [`Heuristics`] (what guides a search but proves nothing), [`Solver`]
//! (exact knowledge the engine prunes with) and [`Oracle`] (exact scores
//! from outside the search: a book, an endgame solver), with what they
//! say ([`OutcomeProbe`], [`Tactics`]).

use super::Score;

/// The rules of a two-player, zero-sum, perfect-information game, seen from
/// one position: all that [`minimax`](super::minimax) needs besides a static value for the
/// lines a depth limit cuts ([`Heuristics`]), and the base of the engine's
/// [`Solver`].
///
/// Positions are small values that are cheap to copy; [`Game::play`]
/// returns the position after a move instead of mutating, so the search
/// never has to undo anything.
///
/// Contract the searches rely on:
/// - every value (from [`Game::outcome`] and [`Heuristics::cut_value`]) is
///   from the point of view of the side to move, and is never `i64::MIN`,
///   so it can always be negated;
/// - a position that is not over has at least one legal move.
///
/// Besides the three rules, the methods with defaults make the engine
/// fast without changing an answer: [`Game::key`] turns its transposition
/// table on, the greatest speed-up of all (iterative deepening, null-window
/// solving and move ordering all reuse what the table keeps);
/// [`Game::key_after`] gives a child's key without building the child, for
/// the table look-ups made ahead of searching the children; and
/// [`Game::move_index`] numbers the moves for the table, whose best move is
/// tried first.
pub trait Game: Clone {
    /// A move, as small as the game allows (a cell index, a child index).
    type Move: Copy + PartialEq + std::fmt::Debug + Into<u64>;
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

    /// A number that tells this position apart from every other position
    /// the search can meet, for the engine's transposition table. `None`
    /// (the default) leaves the table unused.
    ///
    /// The table keeps and compares only the low 56 bits of a key (the bits
    /// above hold part of the stored move), so keys must differ there: a
    /// key below 2^56 (a bitboard encoding, a node number) is used whole,
    /// and a good 64-bit hash still tells positions apart by its low 56
    /// bits.
    fn key(&self) -> Option<u64> {
        None
    }

    /// The [`Game::key`] of the position after `mv`, which a game may
    /// compute without making the position (from the key, or the move's
    /// bits alone). The engine asks for its children's keys to fetch their
    /// table entries into the cache before searching them, and where many
    /// plies are left to look for a child whose entry settles the position
    /// at once. The default plays the move and asks the child.
    #[inline(always)]
    fn key_after(&self, mv: Self::Move) -> Option<u64> {
        self.play(mv).key()
    }

    /// The number under which the transposition table keeps `mv` as a
    /// position's best move, tried first when the position is met again.
    /// Distinct legal moves of a position must have distinct indices.
    /// `None`, or `u16::MAX` (which the table keeps for "no move"), stores
    /// no move for it: the position is then ordered by the game's hints
    /// alone, never by a wrong move. The default is the move's
    /// [`Into<u64>`] number, when it fits in 16 bits.
    #[inline(always)]
    fn move_index(mv: Self::Move) -> Option<u16> {
        u16::try_from(mv.into()).ok()
    }

    /// An upper bound on the plies left in any line from here, if known. Only
    /// used to size buffers up front; a wrong guess costs speed, not
    /// correctness.
    fn max_plies_hint(&self) -> usize {
        16
    }
}

/// What guides a search but proves nothing: the value of a line cut by a
/// depth limit, and the order moves are tried in. What [`minimax`](super::minimax) and
/// [`alpha_beta`](super::alpha_beta) need beyond the rules.
///
/// A game with nothing to say here gives [`Heuristics::cut_value`] as 0
/// (every cut line a draw) and keeps every default, as the
/// [module's example](crate::search) does.
///
/// A better estimate ([`Heuristics::estimate`]) makes a search cut by a
/// depth or a budget play better; a better ranking of the moves
/// ([`Heuristics::rank_moves`]) makes the engine's alpha-beta cut sooner,
/// and so faster. Neither changes a score the engine proves.
/// [`Heuristics::small_values`] is the one promise here, about the size of
/// the values: it lets every search hold its scores in 64 bits instead of
/// 128.
pub trait Heuristics: Game {
    /// A static estimate for a position that is not over, used when a depth
    /// limit stops the search before the end of a line, as a value like
    /// [`Game::outcome`]'s (a game tree's inner node's own value, say).
    /// A game whose outcomes are few (win, draw, loss) returns 0 here and
    /// gives its heuristic as [`Heuristics::estimate`].
    fn cut_value(&self) -> i64;

    /// A heuristic estimate, in the game's own points (positive favours the
    /// side to move, at most [`MAX_EVALUATION`](super::MAX_EVALUATION) either way), of a position
    /// that is not over, for a search cut by a depth limit or a budget
    /// where [`Heuristics::cut_value`] is 0. It ranks below every win and
    /// above every loss ([`Score::evaluation`]), so a forced result within
    /// the horizon always outweighs it. The default, 0, knows nothing.
    fn estimate(&self) -> i32 {
        0
    }

    /// The outcome an [`Heuristics::estimate`] of `points` estimates, for
    /// a game whose evaluation is counted in its outcome's units (Othello's
    /// 100 points to a disc): a search to the end centres its aspiration
    /// windows on it once its lines reach the end (see [`Oracle::reach`]).
    /// The default, `None`, estimates nothing.
    fn outcome_estimate(&self, points: i32) -> Option<i64> {
        let _ = points;
        None
    }

    /// True when every value anywhere below this position (of
    /// [`Game::outcome`] and [`Heuristics::cut_value`]) lies within
    /// `-(2^31 - 1) ..= 2^31 - 1`. The searches then pack their scores into
    /// 64 bits instead of 128, which is faster; a game that says so wrongly
    /// gets wrong scores, so the default is false.
    fn small_values(&self) -> bool {
        false
    }

    /// Raises the hints [`Solver::engine_moves`] wrote for `moves` by what
    /// costs more to know (the replies each move leaves, say). The engine
    /// asks only when it needs more than the transposition table's move: a
    /// position whose table move settles it never pays for it. The default
    /// adds nothing.
    fn rank_moves(&self, moves: &mut [(Self::Move, i32)]) {
        let _ = moves;
    }

    /// [`Heuristics::rank_moves`] for a search with `plies_left` plies to go
    /// below this position (`u32::MAX - ply` searched to the end): a game
    /// may rank with costlier knowledge where the search below is large
    /// enough to pay for it. The engine asks this; the default is
    /// [`Heuristics::rank_moves`].
    fn rank_moves_with_depth(&self, moves: &mut [(Self::Move, i32)], plies_left: u32) {
        let _ = plies_left;
        self.rank_moves(moves);
    }

    /// How a shallow search predicts this position's outcome, for the
    /// selective passes (ProbCut) the heuristic driver runs before it
    /// solves a position exactly: their cut-offs fill the table with the
    /// moves that order the exact search, which takes no score from them.
    /// The default, `None`, predicts nothing, and the driver solves at
    /// once.
    fn outcome_probe(&self) -> Option<OutcomeProbe> {
        None
    }

    /// The selective search of the midgame (multi-ProbCut): for a position
    /// with `left` plies still to search in an iteration that stops short
    /// of the end, a shallower search that predicts the deeper one's
    /// evaluation within `sigma` points (one standard deviation). Where
    /// its score clears the window by two standard deviations, the engine
    /// takes the cut without the deeper look. Only for a search under a
    /// time or position budget, which trades width for depth; a search to
    /// a fixed depth stays full-width. The default, `None`, searches every
    /// iteration full-width.
    fn midgame_probe(&self, left: u32) -> Option<OutcomeProbe> {
        let _ = left;
        None
    }

    /// Late move reductions: how many plies less than its depth the
    /// engine first searches `mv`, the move tried `index`-th (0 the first)
    /// in a position with `left` plies to go, in an iteration under a
    /// budget (as [`Heuristics::midgame_probe`]). A reduced move is only
    /// asked whether it beats the best move so far, and is searched again
    /// at the full depth when it does; a search to a fixed depth never
    /// reduces. The default, 0, reduces nothing.
    fn reduction(&self, mv: Self::Move, index: usize, left: u32) -> u32 {
        let _ = (mv, index, left);
        0
    }

    /// An opening book's answer for this position, if the game has one:
    /// every legal move's evaluation by a search much deeper than a
    /// request's budget allows (see [`BookAnswer`]). A request searched
    /// under a budget of no more than [`BookAnswer::worth`] is answered
    /// from it rather than searched. The default, `None`, has no book.
    fn book(&self) -> Option<BookAnswer<Self::Move>> {
        None
    }
}

/// An opening book's answer for a position (see [`Heuristics::book`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookAnswer<M> {
    /// Every legal move, in the game's move order, with its evaluation in
    /// the points of [`Heuristics::estimate`] for the side to move and the
    /// depth in plies its search reached.
    pub moves: Vec<(M, i32, u32)>,
    /// The line of best play as far as the book knows it, the best move
    /// first.
    pub line: Vec<M>,
    /// About what the book's search is worth in time: a request with a
    /// larger budget searches instead.
    pub worth: std::time::Duration,
}

impl<M: Copy> BookAnswer<M> {
    /// The best of the book's moves: the highest evaluation, the first of
    /// equals in the game's order, with its evaluation and depth.
    pub fn best(&self) -> Option<(M, i32, u32)> {
        Self::best_of(&self.moves)
    }

    /// The best of `moves` (each with its evaluation and depth), as
    /// [`BookAnswer::best`] chooses.
    pub fn best_of(moves: &[(M, i32, u32)]) -> Option<(M, i32, u32)> {
        moves.iter().copied().fold(None, |best, (mv, points, depth)| match best {
            Some((_, top, _)) if top >= points => best,
            _ => Some((mv, points, depth)),
        })
    }
}

/// A prediction of a position's outcome (or, in the midgame, of a deeper
/// search's score) by a shallow search (see [`Heuristics::outcome_probe`]
/// and [`Heuristics::midgame_probe`]): the outcome, in points of
/// [`Heuristics::estimate`], lies within `t * sigma` of the shallow
/// search's score with the probability of `t` standard deviations of a
/// normal distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutcomeProbe {
    /// Plies the shallow search looks ahead, at least 1.
    pub depth: u32,
    /// The standard deviation of the outcome around the shallow score, in
    /// points.
    pub sigma: i32,
    /// Points to one unit of [`Game::outcome`] (Othello's 100 to a disc).
    pub unit: i32,
}

/// The solver's exact knowledge of a game: what the [`engine`](super::engine) needs beyond
/// the rules and the heuristics, every method an optional extension whose
/// default is always correct, only slower. A game with nothing to add
/// writes `impl Solver for MyGame {}`.
///
/// Unlike a [`Heuristics`] method, each of these is a claim the engine
/// prunes with: a wrong one gives wrong scores. What each makes faster:
/// - [`Solver::value_range`] (with [`Solver::last_mover_wins`]): the
///   engine solves by null-window bisection over the few possible
///   outcomes, each test a search with an empty window that prunes far
///   more than a full one; for a game of many outcomes (disc differences),
///   principal variation search instead. Without it, plain full-window
///   alpha-beta.
/// - [`Solver::engine_moves`] (and [`Solver::engine_moves_after_safe`]):
///   ordering hints for every move, and [`Tactics`], what the game sees at
///   a glance of the next two plies: a win at once ends a position's
///   search, a position lost at once needs none, and moves that hand the
///   opponent a win at once are never searched.
/// - [`Solver::outcome_after_quiet_move`]: a cheaper end-of-game test
///   where no win at once is possible.
/// - [`Solver::twin`]: a symmetric position's twin moves are scored once.
pub trait Solver: Heuristics {
    /// The least and the greatest value an outcome can have, when the game
    /// knows them; [`Heuristics::cut_value`] must lie strictly between the
    /// two. The engine then narrows its windows and solves by null-window
    /// bisection. `None` (the default) says nothing.
    fn value_range(&self) -> Option<(i64, i64)> {
        None
    }

    /// True when a game only ever ends in a win for the player who made
    /// the last move, as in tic-tac-toe and Connect Four: a win for the
    /// side to move here then comes an odd number of plies on, and a loss
    /// an even number. The engine's null-window tests then skip the plies
    /// no outcome can have. The default is false.
    fn last_mover_wins(&self) -> bool {
        false
    }

    /// The moves the engine searches, written to `out` (empty on entry) with
    /// an ordering hint each (higher is tried first), and what the game can
    /// tell at a glance about the next two plies (see [`Tactics`]).
    ///
    /// The default writes every legal move with the hint 0 and knows nothing:
    /// always correct, only slower.
    fn engine_moves(&self, out: &mut Vec<(Self::Move, i32)>) -> Tactics<Self::Move> {
        out.extend(self.moves().map(|mv| (mv, 0)));
        Tactics::Unknown
    }

    /// [`Solver::engine_moves`] for a position reached by a move that
    /// [`Solver::engine_moves`] wrote under [`Tactics::Safe`]: the side to
    /// move is known to have no win at once, so the game need not look for
    /// one (and must not answer [`Tactics::Win`]). The default asks
    /// [`Solver::engine_moves`].
    fn engine_moves_after_safe(&self, out: &mut Vec<(Self::Move, i32)>) -> Tactics<Self::Move> {
        self.engine_moves(out)
    }

    /// [`Game::outcome`] for a position reached by a move that
    /// [`Solver::engine_moves`] said does not win at once, which a game may
    /// answer faster. The default asks [`Game::outcome`].
    fn outcome_after_quiet_move(&self) -> Option<i64> {
        self.outcome()
    }

    /// What the engine reads of a position at its depth limit whose
    /// [`Heuristics::cut_value`] is 0: the outcome when the game is over
    /// (`Ok`, as [`Game::outcome`] says, or
    /// [`Solver::outcome_after_quiet_move`] when `quiet`), else the
    /// estimate (`Err`, [`Heuristics::estimate`]). A game that works out
    /// the same thing for both (Othello's legal moves) may answer both at
    /// once. The default asks one, then the other.
    fn outcome_or_estimate(&self, quiet: bool) -> Result<i64, i32> {
        match if quiet { self.outcome_after_quiet_move() } else { self.outcome() } {
            Some(value) => Ok(value),
            None => Err(self.estimate()),
        }
    }

    /// A move whose score equals `mv`'s in this position because the
    /// position is symmetric (a Connect Four board that is its own mirror
    /// image, say), other than `mv` itself. The engine scores only one of
    /// the two. The default knows no symmetry.
    fn twin(&self, mv: Self::Move) -> Option<Self::Move> {
        let _ = mv;
        None
    }
}

/// Exact knowledge from outside the search (an opening book, endgame
/// tables), handed to the engine beside the position
/// ([`engine_with_oracle`](super::engine_with_oracle)): positions never carry it.
pub trait Oracle<G: Game> {
    /// The exact score of `position`, when known without searching: the
    /// value for the side to move and the plies to the end of the game
    /// under best play. The engine asks only when it searches to the end.
    fn solved(&self, position: &G) -> Option<(i64, u32)>;

    /// True when the engine may ask during the iterations of a search to
    /// the end too, not only at the depth of the end: for an exact solver
    /// of the last plies of a game, whose scores hold at every depth, so
    /// that each iteration, which a search to the end runs to order its
    /// moves, stops where the oracle answers. The default, false, keeps
    /// every iteration's score that of a search cut at its depth.
    fn in_iterations(&self) -> bool {
        false
    }

    /// [`Oracle::solved`] for a search that needs only to compare the
    /// score with the window `(alpha, beta)`: the bounds and the answer
    /// count their plies from `position` (`±Score::INFINITY` for no
    /// bound), and the answer may be fail-soft, as a search's: a score
    /// within the window is exact, one at or below `alpha` a bound the
    /// score does not pass, one at or above `beta` a bound it reaches.
    /// The engine asks this, where [`Oracle::solved`] would be asked, so
    /// that an exact solver can prune with the window. The default answers
    /// with [`Oracle::solved`]'s exact score.
    #[inline(always)]
    fn solved_within(&self, position: &G, alpha: Score, beta: Score) -> Option<Score> {
        let _ = (alpha, beta);
        self.solved(position).map(|(value, plies)| Score::new(value, plies))
    }

    /// How many plies below `position` every line is in the oracle's hands
    /// (an endgame solver's: the plies to the last empty squares it
    /// solves), for an oracle that answers in the iterations: an iteration
    /// that deep ends its lines in outcomes, and the engine aims its window
    /// at an outcome there (see [`Heuristics::outcome_estimate`]). The
    /// default, `None`, is an oracle that does not say.
    fn reach(&self, position: &G) -> Option<u32> {
        let _ = position;
        None
    }

    /// The positions the oracle has visited in searches of its own so far
    /// (an exact solver's; a book visits none). The engine counts them
    /// among its positions, and counts an answer that visited none as a
    /// book hit. The default, 0, is an oracle that only looks answers up.
    #[inline(always)]
    fn nodes(&self) -> u64 {
        0
    }
}

/// The oracle that knows nothing: what [`engine`](super::engine) consults.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOracle;

impl<G: Game> Oracle<G> for NoOracle {
    #[inline(always)]
    fn solved(&self, _: &G) -> Option<(i64, u32)> {
        None
    }
}

/// An oracle that may be absent.
impl<G: Game, O: Oracle<G>> Oracle<G> for Option<&O> {
    #[inline(always)]
    fn solved(&self, position: &G) -> Option<(i64, u32)> {
        self.and_then(|oracle| oracle.solved(position))
    }

    fn in_iterations(&self) -> bool {
        self.is_some_and(|oracle| oracle.in_iterations())
    }

    #[inline(always)]
    fn solved_within(&self, position: &G, alpha: Score, beta: Score) -> Option<Score> {
        self.and_then(|oracle| oracle.solved_within(position, alpha, beta))
    }

    fn reach(&self, position: &G) -> Option<u32> {
        self.and_then(|oracle| oracle.reach(position))
    }

    #[inline(always)]
    fn nodes(&self) -> u64 {
        self.map_or(0, |oracle| oracle.nodes())
    }
}

/// What a game can tell at a glance about a position's next two plies, for
/// the engine to prune with. "Wins" and "loses" here mean the greatest and
/// the least value of [`Solver::value_range`], and every claim must be exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tactics<M> {
    /// Nothing is known: the moves written are every legal move.
    Unknown,
    /// This move ends the game at once, and the side to move wins.
    Win(M),
    /// No move wins at once, and whatever the side to move plays, the
    /// opponent then has a move that wins at once. Nothing is written.
    Lost,
    /// No move wins at once. The moves written are exactly those after
    /// which the opponent cannot win at once; every other legal move
    /// lets the opponent win at once.
    Safe,
}
