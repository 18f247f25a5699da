//! Games played out between two players, to measure strength: a player is
//! anything that picks a move in a position (the engine at some depth, a
//! random mover), and a match plays seeded openings once from each side.

use crate::search::{engine, EngineOptions, Game, Limits, Solver, Table};

/// Picks a move in a position that is not over.
pub trait Player<G: Game> {
    /// The move to play in `position`.
    fn pick(&mut self, position: &G) -> G::Move;
}

/// The engine cut at a fixed depth: its best move, as `max_depth` answers.
pub struct AtDepth<'t> {
    /// Plies the engine looks ahead.
    pub depth: u32,
    /// The engine's transposition table.
    pub table: &'t mut Table,
}

impl<G: Solver> Player<G> for AtDepth<'_> {
    fn pick(&mut self, position: &G) -> G::Move {
        let limits = Limits { max_depth: Some(self.depth), ..Limits::default() };
        let options = EngineOptions { score_root_moves: true, ..EngineOptions::default() };
        let result = engine(position, limits, self.table, options, &mut |_| {}).expect("nothing cancels it");
        result.best_move.expect("a position that is not over has a move")
    }
}

/// A player that picks uniformly among the legal moves.
pub struct Random(pub fastrand::Rng);

impl<G: Game> Player<G> for Random {
    fn pick(&mut self, position: &G) -> G::Move {
        let moves: Vec<G::Move> = position.moves().collect();
        moves[self.0.usize(..moves.len())]
    }
}

/// Plays `start` out, `first` to move; returns the outcome for `first`
/// (for a game of win, draw and loss: +1, 0 or -1).
pub fn play<G: Game>(start: &G, first: &mut dyn Player<G>, second: &mut dyn Player<G>) -> i64 {
    let mut position = start.clone();
    let mut turn = 0u32;
    loop {
        if let Some(value) = position.outcome() {
            // The value is for the side to move now.
            return if turn.is_multiple_of(2) { value } else { -value };
        }
        let player: &mut dyn Player<G> = if turn.is_multiple_of(2) { &mut *first } else { &mut *second };
        position = position.play(player.pick(&position));
        turn += 1;
    }
}

/// Wins, draws and losses of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Record {
    /// Points: 1 a win, 1/2 a draw.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The share of the points available, from 0 to 1.
    pub fn share(&self) -> f64 {
        self.points() / f64::from((self.wins + self.draws + self.losses).max(1))
    }
}

/// `a` against `b` over `pairs` openings, each played twice, once with
/// each player moving first after the opening: `opening(i)` is the i-th
/// starting position. Returns `a`'s record.
pub fn matchup<G: Game>(
    pairs: usize,
    opening: &mut dyn FnMut(usize) -> G,
    a: &mut dyn Player<G>,
    b: &mut dyn Player<G>,
) -> Record {
    let mut record = Record::default();
    for i in 0..pairs {
        let start = opening(i);
        for result in [play(&start, a, b), -play(&start, b, a)] {
            match result.signum() {
                1 => record.wins += 1,
                0 => record.draws += 1,
                _ => record.losses += 1,
            }
        }
    }
    record
}
