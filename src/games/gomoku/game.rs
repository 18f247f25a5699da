//! The search's view of a board: its moves (near the stones, ordered by
//! the threats they make and stop, narrowed to the forced ones when a
//! five threatens), its evaluation and what it tells the engine.

use std::cell::RefCell;

use super::rules::{colour, Board};
use super::threats::{refutations, vcf};
use crate::search::{Game, Heuristics, Solver, Tactics};

/// The most moves searched in a position with no five threatened: the
/// best by the threats they make and stop ([`Board::gain`]).
pub const WIDTH: usize = 20;

/// Candidate lists remembered by each thread that searches: a search
/// visits many positions again (each iteration of the deepening, each
/// search again within a wider window), and working a list out (the
/// opponent's threat looked for, every square near the stones weighed)
/// is most of a position's cost.
const REMEMBERED_LISTS: usize = 1 << 13;

/// A remembered list of candidates, with its position's key.
#[derive(Clone, Copy)]
struct Remembered {
    key: u64,
    len: u8,
    moves: [(u16, i32); WIDTH],
}

/// [`REMEMBERED_LISTS`] lists by key (a list longer than [`WIDTH`] is not
/// kept), about 1.4 MB, made on the first use by a thread.
#[derive(Default)]
struct Lists(Vec<Remembered>);

impl Lists {
    /// Appends to `out` the list remembered for `key`, if any; true then.
    /// A list with a square taken on `board` (two positions sharing a
    /// key) is not used.
    fn recall(&self, key: u64, board: &Board, out: &mut Vec<(u16, i32)>) -> bool {
        let Some(kept) = self.0.get(key as usize % REMEMBERED_LISTS) else { return false };
        let moves = &kept.moves[..usize::from(kept.len)];
        if kept.key != key || kept.len == 0 || moves.iter().any(|&(cell, _)| board.cell(usize::from(cell)).is_some()) {
            return false;
        }
        out.extend_from_slice(moves);
        true
    }

    /// Remembers `moves` as the list of `key`.
    fn keep(&mut self, key: u64, moves: &[(u16, i32)]) {
        if moves.is_empty() || moves.len() > WIDTH {
            return;
        }
        if self.0.is_empty() {
            self.0 = vec![Remembered { key: 0, len: 0, moves: [(0, 0); WIDTH] }; REMEMBERED_LISTS];
        }
        let kept = &mut self.0[key as usize % REMEMBERED_LISTS];
        kept.key = key;
        kept.len = moves.len() as u8;
        kept.moves[..moves.len()].copy_from_slice(moves);
    }
}

thread_local! {
    static REMEMBERED: RefCell<Lists> = RefCell::new(Lists::default());
}

/// Late move reductions, under a budget (see [`Heuristics::reduction`]):
/// the candidates from this one on (0 the first, in the order searched)
/// that neither make a four nor stop one are first searched a ply
/// shallower, and searched again at full depth when they beat the best
/// move so far. Through the release server at the default second, the
/// engine with them took 15 of 20 games from the one without
/// (`scripts/gomoku_compare.py duel`, docs/figures.md).
const REDUCE_FROM: usize = 3;
/// From this candidate on, such moves are searched two plies shallower
/// where [`REDUCE_TWO_LEFT`] plies or more are left. Reducing from the
/// third and by two from the seventh with 4 plies left took 11 of 20 in
/// self-play against these, no more: the milder form is kept.
const REDUCE_TWO_FROM: usize = 8;
/// The plies left from which the later candidates are reduced by two.
const REDUCE_TWO_LEFT: u32 = 5;

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
        // Where the moves are narrowed, the list is this position's alone.
        if !self.narrowed() {
            let key = self.list_key();
            let start = out.len();
            if REMEMBERED.with_borrow(|lists| lists.recall(key, self, out)) {
                return;
            }
            self.find_candidates(out);
            REMEMBERED.with_borrow_mut(|lists| lists.keep(key, &out[start..]));
            return;
        }
        self.find_candidates(out);
    }

    /// The key of the position's candidate list: its stones, the side to
    /// move, the board's side and the rule.
    fn list_key(&self) -> u64 {
        let side = colour(self.to_move()) as u64 | (self.size() as u64) << 1 | (self.rule() as u64) << 6;
        self.key() ^ (side + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// [`Board::candidates`] of a position with stones, worked out.
    fn find_candidates(&self, out: &mut Vec<(u16, i32)>) {
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
        let start = out.len();
        out.extend(
            self.near_empty().filter(|&cell| self.in_focus(cell)).map(|cell| (cell as u16, self.gain(cell, me))),
        );
        let order = |a: &(u16, i32), b: &(u16, i32)| b.1.cmp(&a.1).then(a.0.cmp(&b.0));
        let found = &mut out[start..];
        if found.len() > WIDTH {
            found.select_nth_unstable_by(WIDTH, order);
            out.truncate(start + WIDTH);
        }
        out[start..].sort_unstable_by(order);
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

    /// The candidates from the fourth on that neither may make a four
    /// nor stand where the opponent may make one are searched a ply
    /// shallower first, two from the ninth on where 5 plies or more are
    /// left (`REDUCE_FROM`, `REDUCE_TWO_FROM`, `REDUCE_TWO_LEFT`).
    fn reduction(&self, mv: u16, index: usize, left: u32) -> u32 {
        let cell = usize::from(mv);
        let me = self.to_move();
        if index < REDUCE_FROM || self.may_make_four(cell, me) || self.may_make_four(cell, me.other()) {
            0
        } else if index >= REDUCE_TWO_FROM && left >= REDUCE_TWO_LEFT {
            2
        } else {
            1
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::Rule;

    /// A remembered list is the list worked out, and one that names a
    /// taken square (another position under the same key) is not used.
    #[test]
    fn remembered_lists_are_the_lists_worked_out() {
        let mut rng = fastrand::Rng::with_seed(7);
        for size in [9, 15, 20] {
            let mut board = Board::empty(size, Rule::Freestyle);
            while board.stones() < 30 && !board.over() {
                let (mut first, mut again, mut worked_out) = (Vec::new(), Vec::new(), Vec::new());
                board.candidates(&mut first);
                board.candidates(&mut again);
                if board.stones() > 0 {
                    board.find_candidates(&mut worked_out);
                    assert_eq!(first, worked_out);
                }
                assert_eq!(first, again);
                board = board.play(usize::from(first[rng.usize(..first.len())].0));
            }
        }
        let board = Board::empty(15, Rule::Freestyle).play(7 * 20 + 7);
        let mut lists = Lists::default();
        lists.keep(1, &[(7 * 20 + 7, 0)]);
        assert!(!lists.recall(1, &board, &mut Vec::new()));
        lists.keep(1, &[(7 * 20 + 8, 5)]);
        let mut out = Vec::new();
        assert!(lists.recall(1, &board, &mut out));
        assert_eq!(out, [(7 * 20 + 8, 5)]);
        assert!(!lists.recall(2, &board, &mut Vec::new()));
    }
}
