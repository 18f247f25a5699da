//! The search's view of a board: its moves (near the stones, ordered by
//! the threats they make and stop, narrowed to the forced ones when a
//! five threatens), its evaluation and what it tells the engine.

use super::rules::Board;
use super::threats::{refutations, vcf};
use crate::search::{Game, Heuristics, Solver, Tactics};

/// The most moves searched in a position with no five threatened: the
/// best by the threats they make and stop ([`Board::gain`]).
pub const WIDTH: usize = 20;

/// The positions the search for the opponent's threat (a win by fours
/// were the side to move to pass) may visit, in each position searched.
const THREAT_NODES: u64 = 100;

/// The bound the engine is given on the outcomes' values (which are only
/// -1, 0 and +1): wider than the few values the engine would bisect, so
/// that it runs its heuristic driver (principal variation search within
/// aspiration windows, every root move scored at the depth reached), as
/// a game whose end no search reaches needs.
pub const OUTCOME_BOUND: i64 = 9;

/// What the next two plies force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forcing {
    /// The side to move makes five on this square.
    Win(usize),
    /// The opponent makes five on either of these squares, and the side to
    /// move cannot first.
    Lost(Vec<usize>),
    /// The opponent makes five on this square alone, unless the side to
    /// move takes it.
    Block(usize),
    /// Neither side makes five at once.
    Open,
}

impl Board {
    /// What the next two plies force.
    pub fn forcing(&self) -> Forcing {
        let me = self.to_move();
        if let Some(&win) = self.winning_squares(me).first() {
            return Forcing::Win(win);
        }
        let theirs = self.winning_squares(me.other());
        match theirs[..] {
            [] => Forcing::Open,
            [only] => Forcing::Block(only),
            _ => Forcing::Lost(theirs),
        }
    }

    /// The searched moves of a position with no five threatened, into
    /// `out` with their hints: the empty squares within two steps of a
    /// stone, the [`WIDTH`] that make and stop the most threats, best
    /// first (the lower square first among equals); the centre alone on
    /// an empty board. Where the opponent would win by continuous fours
    /// were the side to move to pass, the squares that may meet the fours
    /// instead ([`refutations`]: every other move loses to them), all of
    /// them. Where the moves are narrowed ([`Board::focus_on`]), those
    /// among them.
    pub fn candidates(&self, out: &mut Vec<(u16, i32)>) {
        if self.stones() == 0 {
            out.push((self.centre() as u16, 0));
            return;
        }
        let me = self.to_move();
        // Where the opponent would win by fours were the side to move to
        // pass, every move but those that may meet the fours loses to them.
        if let Some(threat) = self.threat() {
            let squares = refutations(self, &threat);
            out.extend(
                squares.into_iter().filter(|&cell| self.in_focus(cell)).map(|cell| (cell as u16, self.gain(cell, me))),
            );
            if !out.is_empty() {
                out.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                return;
            }
        }
        out.extend(
            self.near_empty().filter(|&cell| self.in_focus(cell)).map(|cell| (cell as u16, self.gain(cell, me))),
        );
        out.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out.truncate(WIDTH);
    }

    /// The opponent's win by continuous fours were the side to move to
    /// pass, found within [`THREAT_NODES`] positions.
    fn threat(&self) -> Option<Vec<usize>> {
        let opponent = self.to_move().other();
        if !self.may_threaten(opponent) {
            return None;
        }
        let mut passed = self.clone();
        passed.set_to_move(opponent);
        vcf(&passed, THREAT_NODES)
    }

    /// The searched moves, into `out` with their hints, and what the
    /// engine may prune with.
    fn searched(&self, out: &mut Vec<(u16, i32)>) -> Tactics<u16> {
        match self.forcing() {
            Forcing::Win(cell) => {
                out.push((cell as u16, 0));
                Tactics::Win(cell as u16)
            }
            // Every other move lets the opponent make five at once.
            Forcing::Block(cell) => {
                out.push((cell as u16, 0));
                Tactics::Safe
            }
            // Every move loses: the blocks are searched, to the five.
            Forcing::Lost(cells) => {
                out.extend(cells.into_iter().map(|cell| (cell as u16, 0)));
                Tactics::Unknown
            }
            Forcing::Open => {
                self.candidates(out);
                Tactics::Unknown
            }
        }
    }
}

impl Game for Board {
    type Move = u16;
    type Moves = std::vec::IntoIter<u16>;

    fn outcome(&self) -> Option<i64> {
        // A winner made the last move: the side to move has lost.
        if self.winner().is_some() {
            Some(-1)
        } else if self.full() {
            Some(0)
        } else {
            None
        }
    }

    /// The moves searched (see [`Solver::engine_moves`]), best first: not
    /// every legal move, which is why a score is exact only where the
    /// game proves it (see the module `threats`).
    fn moves(&self) -> Self::Moves {
        let mut out = Vec::with_capacity(WIDTH);
        let _ = self.searched(&mut out);
        out.into_iter().map(|(mv, _)| mv).collect::<Vec<_>>().into_iter()
    }

    fn play(&self, mv: u16) -> Board {
        Board::play(self, usize::from(mv))
    }

    fn key(&self) -> Option<u64> {
        Some(Board::key(self))
    }

    fn key_after(&self, mv: u16) -> Option<u64> {
        Some(self.key_with(usize::from(mv), self.to_move()))
    }

    fn max_plies_hint(&self) -> usize {
        self.cells() - self.stones()
    }
}

impl Heuristics for Board {
    fn cut_value(&self) -> i64 {
        0
    }

    fn estimate(&self) -> i32 {
        self.evaluate()
    }

    fn small_values(&self) -> bool {
        true
    }
}

impl Solver for Board {
    fn value_range(&self) -> Option<(i64, i64)> {
        Some((-OUTCOME_BOUND, OUTCOME_BOUND))
    }

    fn engine_moves(&self, out: &mut Vec<(u16, i32)>) -> Tactics<u16> {
        self.searched(out)
    }
}
