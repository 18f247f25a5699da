//! How strong an answer plays: a level's style (how far the search looks,
//! how it weighs its moves), and the choice of the move among the scored
//! root moves, with the request's tie-break and chance of a mistake.

use crate::search::{choose, choose_softly, Choice, EngineResult, RootMove, Score, TieBreak};

use super::Options;

/// The strongest level: full strength in every game.
pub const MAX_LEVEL: u8 = 10;

/// What a difficulty level sets: how deep the search looks and how softly
/// it chooses (a game's own table of them, see
/// [`super::ServedPosition::style`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// The depth limit in plies; `None` for the game's own budget.
    pub max_depth: Option<u32>,
    /// The softmax temperature of the choice, in the units
    /// [`crate::search::choose_softly`] weighs (0: the best move).
    pub temperature: f64,
}

impl Style {
    /// Level `level` (1 to [`MAX_LEVEL`], clamped) of a game's table of
    /// depths and temperatures, weakest first.
    pub fn at(level: u8, depth: &[Option<u32>; 10], temperature: &[f64; 10]) -> Style {
        let i = usize::from(level.clamp(1, MAX_LEVEL) - 1);
        Style { max_depth: depth[i], temperature: temperature[i] }
    }
}

/// The move for the caller among scored root moves: with a level, the
/// level's softmax choice (`relative` for a tree's own units); otherwise
/// the best, or a random move by the chance of a mistake.
pub fn pick<M: Copy>(
    root_moves: &[RootMove<M>],
    options: &Options,
    relative: bool,
    rng: &mut fastrand::Rng,
) -> Option<Choice<M>> {
    match options.temperature {
        Some(temperature) => choose_softly(root_moves, temperature, relative, options.tie_break, rng),
        None => choose(root_moves, options.tie_break, options.mistake, rng),
    }
}

/// The move for the caller from the engine's root moves: chosen as from
/// plain minimax's when it scored them all (a level weighs them in
/// `level_score`'s units, with the plies of a drawn line as
/// `draw_plies`), else the engine's own best move (with the same chance
/// of a mistake).
pub fn engine_choice<M: Copy + PartialEq>(
    result: &EngineResult<M>,
    level_score: fn(Score) -> Score,
    draw_plies: Option<u64>,
    options: &Options,
    rng: &mut fastrand::Rng,
) -> Option<Choice<M>> {
    let weigh = |score: Score| if options.temperature.is_some() { level_score(score) } else { score };
    let draw_plies = draw_plies.unwrap_or(0) as u32;
    let scored: Option<Vec<RootMove<M>>> = result
        .root_moves
        .iter()
        .map(|m| {
            m.score.map(|score| {
                // A move known only not to pass its bound ranks just below
                // it, in the units the choice weighs: below the proven best
                // move whose score it is.
                let weighed = if m.upper_bound { weigh(score).just_below() } else { weigh(score) };
                RootMove { mv: m.mv, score: weighed, plies: score.ply().unwrap_or(draw_plies) }
            })
        })
        .collect();
    match scored {
        Some(mut scored) if !scored.is_empty() => {
            // Among equally scored moves, the first is the engine's own best
            // (the one its line of best play follows).
            let engine_best = scored.iter().position(|m| Some(m.mv) == result.best_move);
            let plays_best =
                options.temperature.is_none() && options.mistake == 0.0 && options.tie_break == TieBreak::First;
            if let Some(i) = engine_best.filter(|_| plays_best) {
                let best = scored.remove(i);
                scored.insert(0, best);
            }
            pick(&scored, options, false, rng)
        }
        _ => {
            let best = result.best_move?;
            if rng.f64() < options.mistake {
                let pick = result.root_moves[rng.usize(..result.root_moves.len())].mv;
                return Some(Choice { mv: pick, random_move: true });
            }
            Some(Choice { mv: best, random_move: false })
        }
    }
}

/// The tie-break's name in the answer.
pub fn tie_break_name(tie_break: TieBreak) -> &'static str {
    match tie_break {
        TieBreak::First => "first",
        TieBreak::Random => "random",
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::search::EngineMove;

    /// A level's choice weighs scores in coarser units (Othello's points:
    /// a disc difference, whatever the plies): a move left with an upper
    /// bound at the best move's score still ranks below the best move.
    #[test]
    fn a_bounded_move_is_not_chosen_over_the_proven_best_at_a_level() {
        let best = Score::new(60, 20);
        let moves = [
            EngineMove { mv: 1u8, score: Some(best), exact: false, depth: None, upper_bound: true },
            EngineMove { mv: 2, score: Some(best), exact: true, depth: None, upper_bound: false },
        ];
        let result = EngineResult {
            best_move: Some(2u8),
            score: best,
            exact: true,
            depth: 20,
            iterations: 1,
            nodes: 1,
            table_hits: 0,
            book_hits: 0,
            principal_variation: vec![2],
            elapsed: Duration::ZERO,
            root_moves: moves.to_vec(),
        };
        let points = |score: Score| Score::evaluation(score.value() as i32 * 100);
        for temperature in [None, Some(0.0)] {
            let options = Options {
                max_depth: None,
                tie_break: TieBreak::First,
                seed: 1,
                mistake: 0.0,
                level: temperature.map(|_| 10),
                temperature,
                time_ms: None,
                max_moves: 10,
                compare: None,
            };
            let mut rng = fastrand::Rng::with_seed(1);
            let choice = engine_choice(&result, points, None, &options, &mut rng).unwrap();
            assert_eq!(choice.mv, 2, "temperature {temperature:?}");
        }
    }
}
