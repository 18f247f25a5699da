//! Choosing the move to give the caller among the root moves.

use super::RootMove;

/// How to choose among equally good moves: moves of the same [`Score`](super::Score).
/// A win is better the sooner it comes and a loss the later, so among wins
/// (or losses) only those ending at the same ply are equal; every move worth
/// zero is as good as any other, however long its line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieBreak {
    /// The first in move order: deterministic.
    #[default]
    First,
    /// Uniformly at random (from the caller's seeded generator).
    Random,
}

/// The move given to the caller, and how it was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    /// The move to play.
    pub mv: M,
    /// True when `mistake` replaced the best move with a random legal move
    /// (even when that move happens to be a best one too).
    pub random_move: bool,
}

/// Chooses a move from plain minimax's root moves (all legal moves with
/// their exact scores). With probability `mistake` the move is a uniformly
/// random legal move; otherwise it is the best one, ties broken by `tie_break`.
/// `None` when there is no legal move.
///
/// The generator is always asked the same questions in the same order, so a
/// seed reproduces the choice.
pub fn choose<M: Copy>(
    root_moves: &[RootMove<M>],
    tie_break: TieBreak,
    mistake: f64,
    rng: &mut fastrand::Rng,
) -> Option<Choice<M>> {
    let mut best = root_moves.first()?;
    for candidate in root_moves {
        if candidate.score > best.score {
            best = candidate;
        }
    }
    if rng.f64() < mistake {
        let pick = root_moves[rng.usize(..root_moves.len())];
        return Some(Choice { mv: pick.mv, random_move: true });
    }
    let mv = match tie_break {
        TieBreak::First => best.mv,
        TieBreak::Random => {
            // The score already tells wins and losses apart by ply, and not
            // draws: equal scores are exactly the equally good moves. Counted
            // and then walked again, so a root with millions of moves costs
            // no extra memory.
            let equal = || root_moves.iter().filter(|m| m.score == best.score);
            let pick = rng.usize(..equal().count());
            equal().nth(pick).map_or(best.mv, |m| m.mv)
        }
    };
    Some(Choice { mv, random_move: false })
}
