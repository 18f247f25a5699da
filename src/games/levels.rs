//! Difficulty levels, 1 (weakest) to 10 (full strength), for every game.
//!
//! A level is two knobs: how far the search looks ([`Style::max_depth`]),
//! and how loosely the move is chosen among the root moves' scores
//! ([`Style::temperature`]): a move is played with a probability that falls
//! exponentially with how much it loses against the best one (a softmax,
//! [`crate::search::choose_softly`]), so a weak level makes plausible
//! mistakes (a move a little worse) far more often than blunders (a move
//! that loses outright). Level 10 is full strength: the whole search, the
//! best move (perfect where the game is solved).
//!
//! The tables were calibrated by `examples/levels.rs`, which plays every
//! level against the one below; the README gives its table.

use crate::search::Score;

/// The strongest level: full strength.
pub const MAX_LEVEL: u8 = 10;

/// How one level plays one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Plies the search looks ahead; `None` for the whole game (or the
    /// time budget).
    pub max_depth: Option<u32>,
    /// The softmax temperature, in the units of [`crate::search::utility`]:
    /// a move that loses `t` against the best is `e` times less likely.
    /// 0 plays the best move.
    pub temperature: f64,
}

/// Tic-tac-toe: every level sees the whole game (it is tiny) and differs
/// only in how often it slips: a loss is 1,000 utility points below a
/// draw, so at level 1 each losing move is about 4 times less likely than
/// a drawing one, at level 9 about 40 times. The range from a player that
/// beats a random one to perfect play is narrow in tic-tac-toe (most games
/// between good players are draws), so neighbouring levels are close: see
/// the README's table.
pub fn tictactoe(level: u8) -> Style {
    const TEMPERATURE: [f64; 10] = [700.0, 600.0, 520.0, 460.0, 410.0, 370.0, 330.0, 300.0, 270.0, 0.0];
    at(level, &[None; 10], &TEMPERATURE)
}

/// Connect Four: the evaluation's points (a threat is 3 to 6, a centre
/// stone 4) drive the weak levels' choices; a win or a loss the search
/// sees is 1,000 points from a draw.
pub fn connect4(level: u8) -> Style {
    const DEPTH: [Option<u32>; 10] =
        [Some(1), Some(2), Some(2), Some(3), Some(4), Some(5), Some(6), Some(8), Some(10), None];
    const TEMPERATURE: [f64; 10] = [8.0, 8.0, 4.0, 4.0, 3.0, 2.0, 1.5, 1.0, 0.5, 0.0];
    at(level, &DEPTH, &TEMPERATURE)
}

/// Othello: as Connect Four's, in the evaluation's points (100 points is
/// one disc of final disc difference, which the fitted evaluation
/// estimates); a score the search saw to the end counts its final disc
/// difference as 100 points a disc ([`othello_points`]). Each level looks
/// further or chooses more tightly than the one below: level 1 plays moves
/// within 6 discs of the best often, level 9 hardly ever a move 1 disc
/// worse. No search reaches the end from the opening, so level 10 is the
/// engine's time budget, solving exactly once the end is in reach.
pub fn othello(level: u8) -> Style {
    const DEPTH: [Option<u32>; 10] =
        [Some(1), Some(1), Some(2), Some(2), Some(3), Some(4), Some(5), Some(6), Some(8), None];
    const TEMPERATURE: [f64; 10] = [600.0, 200.0, 200.0, 60.0, 60.0, 40.0, 20.0, 10.0, 5.0, 0.0];
    at(level, &DEPTH, &TEMPERATURE)
}

/// The score an Othello level weighs a root move by: an evaluation as it
/// is, a final disc difference the search saw to the end as 100 points a
/// disc, so that both are in the evaluation's units.
pub fn othello_points(score: Score) -> Score {
    match score.heuristic() {
        Some(_) => score,
        None => Score::evaluation((score.value().clamp(-64, 64) * 100) as i32),
    }
}

/// A game tree: always searched whole (a depth limit needs every inner
/// node's value); the temperature is a share of the spread between the
/// best and the worst root move.
pub fn tree(level: u8) -> Style {
    const TEMPERATURE: [f64; 10] = [1.0, 0.6, 0.4, 0.3, 0.2, 0.15, 0.1, 0.06, 0.03, 0.0];
    at(level, &[None; 10], &TEMPERATURE)
}

fn at(level: u8, depth: &[Option<u32>; 10], temperature: &[f64; 10]) -> Style {
    let i = usize::from(level.clamp(1, MAX_LEVEL) - 1);
    Style { max_depth: depth[i], temperature: temperature[i] }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_10_is_full_strength_in_every_game() {
        for style in [tictactoe(10), connect4(10), othello(10), tree(10)] {
            assert_eq!(style, Style { max_depth: None, temperature: 0.0 });
        }
    }

    #[test]
    fn the_depths_are_pinned() {
        let depths = |game: fn(u8) -> Style| (1..=MAX_LEVEL).map(|l| game(l).max_depth).collect::<Vec<_>>();
        let some = |d: &[u32]| d.iter().map(|&d| Some(d)).chain([None]).collect::<Vec<_>>();
        assert_eq!(depths(connect4), some(&[1, 2, 2, 3, 4, 5, 6, 8, 10]));
        assert_eq!(depths(othello), some(&[1, 1, 2, 2, 3, 4, 5, 6, 8]));
        assert_eq!(depths(tictactoe), vec![None; 10]);
        assert_eq!(depths(tree), vec![None; 10]);
        // Temperatures fall to 0 at level 10.
        for game in [tictactoe, connect4, othello, tree] {
            assert!((1..MAX_LEVEL).all(|l| game(l).temperature > 0.0));
        }
    }

    #[test]
    fn othello_levels_weigh_final_disc_differences_as_100_points_a_disc() {
        assert_eq!(othello_points(Score::new(12, 30)), Score::evaluation(1200));
        assert_eq!(othello_points(Score::new(-64, 3)), Score::evaluation(-6400));
        assert_eq!(othello_points(Score::new(0, 0)), Score::evaluation(0));
        assert_eq!(othello_points(Score::evaluation(-75)), Score::evaluation(-75));
    }

    #[test]
    fn weaker_levels_look_no_further_than_stronger_ones() {
        for game in [tictactoe, connect4, othello, tree] {
            for level in 2..=MAX_LEVEL {
                let (weaker, stronger) = (game(level - 1).max_depth, game(level).max_depth);
                assert!(stronger.is_none() || weaker.is_some_and(|w| Some(w) <= stronger), "level {level}");
            }
        }
    }
}
