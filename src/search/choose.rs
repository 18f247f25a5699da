//! Choosing the move to give the caller among the root moves.

use super::{EngineMove, RootMove, Score};

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

/// A root move with the score a search gave it, as [`choose`] and
/// [`choose_softly`] take it: plain minimax's [`RootMove`] or the engine's
/// [`EngineMove`], whose score is `None` when its budget ran out first (such
/// a move is played only by a mistake).
pub trait Candidate {
    /// The move.
    type Move: Copy;
    /// The move.
    fn mv(&self) -> Self::Move;
    /// Its score for the side to move, when known.
    fn score(&self) -> Option<Score>;
}

impl<M: Copy> Candidate for RootMove<M> {
    type Move = M;
    #[inline]
    fn mv(&self) -> M {
        self.mv
    }
    #[inline]
    fn score(&self) -> Option<Score> {
        Some(self.score)
    }
}

impl<M: Copy> Candidate for EngineMove<M> {
    type Move = M;
    #[inline]
    fn mv(&self) -> M {
        self.mv
    }
    #[inline]
    fn score(&self) -> Option<Score> {
        self.score
    }
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

/// Chooses a move from the root moves of a search (plain minimax's, or the
/// engine's: see [`Candidate`]). With probability `mistake` the move is a
/// uniformly random legal move; otherwise it is the best scored one, ties
/// broken by `tie_break`. `None` when no move is scored.
///
/// The generator is always asked the same questions in the same order, so a
/// seed reproduces the choice.
pub fn choose<C: Candidate>(
    root_moves: &[C],
    tie_break: TieBreak,
    mistake: f64,
    rng: &mut fastrand::Rng,
) -> Option<Choice<C::Move>> {
    let mut best: Option<(Score, C::Move)> = None;
    for candidate in root_moves {
        if let Some(score) = candidate.score() {
            if best.is_none_or(|(top, _)| score > top) {
                best = Some((score, candidate.mv()));
            }
        }
    }
    let (top, first) = best?;
    if rng.f64() < mistake {
        let pick = &root_moves[rng.usize(..root_moves.len())];
        return Some(Choice { mv: pick.mv(), random_move: true });
    }
    let mv = match tie_break {
        TieBreak::First => first,
        TieBreak::Random => {
            // The score already tells wins and losses apart by ply, and not
            // draws: equal scores are exactly the equally good moves. Counted
            // and then walked again, so a root with millions of moves costs
            // no extra memory.
            let equal = || root_moves.iter().filter(|m| m.score() == Some(top));
            let pick = rng.usize(..equal().count());
            equal().nth(pick).map_or(first, |m| m.mv())
        }
    };
    Some(Choice { mv, random_move: false })
}

/// Utility points a win or a loss is worth, beyond any evaluation's reach
/// in a game whose outcomes are win, draw and loss.
pub const OUTCOME_UTILITY: f64 = 1000.0;

/// A score as a number to weigh moves by: an evaluation is its own points;
/// an outcome of a win/draw/loss game is [`OUTCOME_UTILITY`] times its
/// value, less a point per ply for a win (a quicker win is better) and
/// plus one for a loss; any other outcome (a tree's value) is the value.
pub fn utility(score: Score) -> f64 {
    if let Some(points) = score.heuristic() {
        return f64::from(points);
    }
    let (value, ply) = (score.value(), score.ply().unwrap_or(0));
    match value {
        1 | -1 => value as f64 * (OUTCOME_UTILITY - f64::from(ply)),
        _ => value as f64,
    }
}

/// A human-like choice among the root moves: each move with a probability
/// proportional to `exp(-(best - u) / temperature)`, where `u` is its
/// [`utility`] and `best` the best move's, so a move is less likely the
/// more it loses. With `relative` (for a tree's own units), `u` is the
/// score's value and the temperature a share of the spread between the
/// best and the worst move.
/// A temperature of 0 (or no spread) plays the best move, ties broken by
/// `tie_break`. The choice is marked `random_move` when it is not a best
/// move. One draw from `rng` (two with a random tie-break), so a seed
/// reproduces it.
pub fn choose_softly<C: Candidate>(
    root_moves: &[C],
    temperature: f64,
    relative: bool,
    tie_break: TieBreak,
    rng: &mut fastrand::Rng,
) -> Option<Choice<C::Move>> {
    let weigh = |score: Score| if relative { score.value() as f64 } else { utility(score) };
    // A move with no score is never chosen.
    let utilities: Vec<f64> = root_moves.iter().map(|m| m.score().map_or(f64::NEG_INFINITY, weigh)).collect();
    let best = utilities.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let worst = utilities.iter().copied().filter(|u| u.is_finite()).fold(f64::INFINITY, f64::min);
    let temperature = if relative { temperature * (best - worst) } else { temperature };
    if temperature.is_nan() || temperature <= 0.0 {
        return choose(root_moves, tie_break, 0.0, rng);
    }
    let weights: Vec<f64> = utilities.iter().map(|u| ((u - best) / temperature).exp()).collect();
    let mut left = rng.f64() * weights.iter().sum::<f64>();
    let mut pick = utilities.iter().rposition(|u| u.is_finite())?;
    for (i, w) in weights.iter().enumerate() {
        if left < *w {
            pick = i;
            break;
        }
        left -= w;
    }
    let top = root_moves.iter().filter_map(|m| m.score()).max()?;
    Some(Choice { mv: root_moves[pick].mv(), random_move: root_moves[pick].score() != Some(top) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(scores: &[Score]) -> Vec<RootMove<u8>> {
        scores.iter().enumerate().map(|(i, &score)| RootMove { mv: i as u8, score, plies: 1 }).collect()
    }

    #[test]
    fn the_engine_s_root_moves_are_chosen_from_directly_and_an_unscored_one_only_by_a_mistake() {
        let engine_moves = [
            EngineMove { mv: 0u8, score: None, exact: false, depth: None, upper_bound: false },
            EngineMove { mv: 1, score: Some(Score::new(1, 5)), exact: true, depth: None, upper_bound: false },
            EngineMove { mv: 2, score: Some(Score::new(1, 3)), exact: true, depth: None, upper_bound: false },
            EngineMove { mv: 3, score: Some(Score::new(0, 0)), exact: true, depth: None, upper_bound: false },
        ];
        let mut rng = fastrand::Rng::with_seed(5);
        assert_eq!(choose(&engine_moves, TieBreak::First, 0.0, &mut rng), Some(Choice { mv: 2, random_move: false }));
        for seed in 0..200 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let soft = choose_softly(&engine_moves, 400.0, false, TieBreak::First, &mut rng).unwrap();
            assert_ne!(soft.mv, 0, "an unscored move is not weighed");
        }
        let none: [EngineMove<u8>; 1] =
            [EngineMove { mv: 0, score: None, exact: false, depth: None, upper_bound: false }];
        assert_eq!(choose(&none, TieBreak::First, 0.0, &mut rng), None);
    }

    #[test]
    fn a_win_outweighs_any_evaluation_and_a_quicker_win_a_slower_one() {
        assert!(utility(Score::new(1, 9)) > utility(Score::evaluation(500)));
        assert!(utility(Score::new(1, 3)) > utility(Score::new(1, 9)));
        assert!(utility(Score::new(-1, 9)) > utility(Score::new(-1, 3)));
        assert!(utility(Score::evaluation(-500)) > utility(Score::new(-1, 40)));
        assert_eq!(utility(Score::new(250, 2)), 250.0);
    }

    #[test]
    fn the_softmax_prefers_small_losses_to_big_ones_and_a_seed_repeats_it() {
        let root = moves(&[Score::evaluation(10), Score::evaluation(8), Score::evaluation(-20), Score::new(-1, 3)]);
        let mut counts = [0u32; 4];
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..10_000 {
            counts[choose_softly(&root, 4.0, false, TieBreak::First, &mut rng).unwrap().mv as usize] += 1;
        }
        // exp(0), exp(-0.5), exp(-7.5), exp(-250): about 62%, 38%, 0.03%, 0.
        assert!(counts[0] > counts[1] && counts[1] > 3_000, "{counts:?}");
        assert!(counts[2] < 20 && counts[3] == 0, "{counts:?}");
        let again = |seed| choose_softly(&root, 4.0, false, TieBreak::First, &mut fastrand::Rng::with_seed(seed));
        for seed in 0..50 {
            assert_eq!(again(seed), again(seed));
        }
        // No temperature: the best move, never marked.
        let best = choose_softly(&root, 0.0, false, TieBreak::First, &mut fastrand::Rng::with_seed(1)).unwrap();
        assert_eq!(best, Choice { mv: 0, random_move: false });
    }
}
