//! The Connect Four state the searches play through.

use super::{CELLS, HEIGHT, WIDTH};
use crate::search::{Game, Heuristics, Solver, Tactics};

/// One bit at the bottom of every column.
pub(super) const BOTTOM: u64 = {
    let mut mask = 0;
    let mut column = 0;
    while column < WIDTH {
        mask |= 1 << (column * (HEIGHT + 1));
        column += 1;
    }
    mask
};
/// Every cell of the board (no spare bits).
pub(super) const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
/// Columns from the centre out: the order moves of equal promise are tried in.
pub(super) const CENTRE_FIRST: [u8; WIDTH as usize] = [3, 2, 4, 1, 5, 0, 6];

#[inline(always)]
pub(super) const fn column_mask(column: u32) -> u64 {
    ((1 << HEIGHT) - 1) << (column * (HEIGHT + 1))
}

/// True when `stones` hold four in a row anywhere.
#[inline(always)]
pub(super) fn has_four(stones: u64) -> bool {
    // Vertical, horizontal, and the two diagonals: the shift between
    // neighbours along each line.
    for shift in [1, HEIGHT + 1, HEIGHT, HEIGHT + 2] {
        let pairs = stones & (stones >> shift);
        if pairs & (pairs >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

/// The empty cells that would complete four in a row for `stones`, given
/// all stones `mask` (whether or not they can be played yet).
#[inline(always)]
pub(super) fn winning_cells(stones: u64, mask: u64) -> u64 {
    // Vertical: three on top of each other, the cell above.
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    for shift in [HEIGHT + 1, HEIGHT, HEIGHT + 2] {
        // Pairs of neighbours, then the cells that complete X X X _,
        // _ X X X, X _ X X and X X _ X in either direction.
        let pairs = (stones << shift) & (stones << (2 * shift));
        cells |= pairs & (stones << (3 * shift));
        cells |= pairs & (stones >> shift);
        let pairs = (stones >> shift) & (stones >> (2 * shift));
        cells |= pairs & (stones >> (3 * shift));
        cells |= pairs & (stones << shift);
    }
    cells & (BOARD ^ mask)
}

/// Rows 1, 3 and 5 counted from the bottom (bit rows 0, 2 and 4): where the
/// first player's threats are worth most.
const ODD_ROWS: u64 = BOTTOM * 0b010101;
/// Rows 2, 4 and 6: where the second player's are.
const EVEN_ROWS: u64 = BOTTOM * 0b101010;
/// Points for a stone by its column: the centre takes part in the most fours.
const COLUMN_POINTS: [i32; WIDTH as usize] = [0, 1, 2, 4, 2, 1, 0];
/// Points for a threat (an empty cell that completes a four), and more for
/// one on a row of the owner's parity.
const THREAT_POINTS: i32 = 3;
const GOOD_PARITY_POINTS: i32 = 3;

/// A heuristic estimate for the side to move, whose stones are `me`, with
/// the opponent's `op` and every stone `mask`, in points:
///
/// - each threat, an empty cell that would complete four (the literature's
///   main positional factor), and more for a threat on a row of its
///   owner's parity: an odd row (1, 3, 5 from the bottom) for the first
///   player, an even row for the second, which zugzwang at the end of the
///   game tends to let its owner fill (Allis' rules);
/// - a threat directly above one of the opponent's counts for nothing: the
///   opponent's fills first;
/// - each stone by its column, the centre most.
///
/// Symmetric (the opponent's view is the negation) and mirror-symmetric.
pub(super) fn evaluation(me: u64, op: u64, mask: u64) -> i32 {
    let first_to_move = mask.count_ones().is_multiple_of(2);
    let (my_rows, op_rows) = if first_to_move { (ODD_ROWS, EVEN_ROWS) } else { (EVEN_ROWS, ODD_ROWS) };
    let my_threats = winning_cells(me, mask);
    let op_threats = winning_cells(op, mask);
    let mine = my_threats & !(op_threats << 1);
    let theirs = op_threats & !(my_threats << 1);
    let threats = |cells: u64, rows: u64| {
        THREAT_POINTS * cells.count_ones() as i32 + GOOD_PARITY_POINTS * (cells & rows).count_ones() as i32
    };
    let mut points = threats(mine, my_rows) - threats(theirs, op_rows);
    for (column, weight) in COLUMN_POINTS.iter().enumerate() {
        let cells = column_mask(column as u32);
        points += weight * ((me & cells).count_ones() as i32 - (op & cells).count_ones() as i32);
    }
    points
}

/// A Connect Four position as two bitboards (see the module map): the
/// stones of the side to move, and all stones. An opening book is not part
/// of it: the engine is handed one as its oracle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect4 {
    current: u64,
    mask: u64,
}

impl Connect4 {
    /// The state with `current` the stones of the side to move and `mask`
    /// all stones, both in the bit layout of the module map. The caller
    /// guarantees a reachable position.
    pub fn from_bitboards(current: u64, mask: u64) -> Connect4 {
        debug_assert_eq!(current & !mask, 0);
        Connect4 { current, mask }
    }

    /// The stones of the side to move, and all stones.
    pub fn bitboards(&self) -> (u64, u64) {
        (self.current, self.mask)
    }

    /// Stones on the board.
    pub fn stones(&self) -> u32 {
        self.mask.count_ones()
    }

    /// The cells where a stone can go now: the lowest empty cell of each
    /// column that is not full.
    #[inline(always)]
    fn playable(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    /// The cell where a stone dropped in `column` lands (0 when the column
    /// is full).
    #[inline(always)]
    fn landing(&self, column: u8) -> u64 {
        (self.mask + (1 << (column as u32 * (HEIGHT + 1)))) & column_mask(column as u32)
    }

    /// The same position seen in a mirror: column `c` becomes `6 - c`.
    pub fn mirrored(&self) -> Connect4 {
        let flip = |board: u64| {
            (0..WIDTH).fold(0, |acc, c| {
                acc | ((board >> (c * (HEIGHT + 1))) & ((1 << HEIGHT) - 1)) << ((WIDTH - 1 - c) * (HEIGHT + 1))
            })
        };
        Connect4 { current: flip(self.current), mask: flip(self.mask) }
    }
}

/// The playable columns of a position, ascending.
#[derive(Clone, Copy, Debug)]
pub struct Columns(u64);

impl Iterator for Columns {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some((bit / (HEIGHT + 1)) as u8)
    }
}

impl Game for Connect4 {
    type Move = u8;
    type Moves = Columns;

    /// Only the side that just moved can have made four.
    #[inline(always)]
    fn outcome(&self) -> Option<i64> {
        if has_four(self.current ^ self.mask) {
            Some(-1)
        } else if self.mask == BOARD {
            Some(0)
        } else {
            None
        }
    }

    #[inline(always)]
    fn moves(&self) -> Columns {
        Columns(self.playable())
    }

    #[inline(always)]
    fn play(&self, column: u8) -> Connect4 {
        let cell = self.landing(column);
        Connect4 { current: self.current ^ self.mask, mask: self.mask | cell }
    }

    /// Stones of the side to move plus all stones: the spare bit above each
    /// column's top stone marks its height, so no two positions share a key
    /// (of 49 bits).
    #[inline(always)]
    fn key(&self) -> Option<u64> {
        Some(self.current + self.mask)
    }

    fn max_plies_hint(&self) -> usize {
        (CELLS - self.stones()) as usize
    }
}

impl Heuristics for Connect4 {
    /// Outcomes are -1, 0 and +1: the estimate is [`Heuristics::estimate`].
    fn cut_value(&self) -> i64 {
        0
    }

    /// Threats and the centre, in points for the side to move: each empty
    /// cell that would complete a four for a side, more on a row of its
    /// owner's parity, and each stone by its column, centre first.
    #[inline]
    fn estimate(&self) -> i32 {
        evaluation(self.current, self.current ^ self.mask, self.mask)
    }

    /// Values are -1, 0 and +1.
    fn small_values(&self) -> bool {
        true
    }

    /// Moves that leave the side to move more winning cells first: eight
    /// points a cell and four more for one on a row of the mover's parity
    /// (odd rows for the first player, even for the second), counting only
    /// cells not directly above one of the opponent's (the opponent would
    /// win there first), over the centre-first order of `engine_moves`;
    /// eight points fewer for a move just under one of the mover's own
    /// winning cells, which it would hand to the opponent to block. (On the
    /// 16 positions of 9 to 11 stones of `scripts/connect4-compare.sh` with
    /// seed 1, the threat count alone took 117.4 M positions, this order
    /// 97.5 M; with seed 2, 107.9 M and 95.5 M.)
    #[inline]
    fn rank_moves(&self, moves: &mut [(u8, i32)]) {
        let good = if self.mask.count_ones().is_multiple_of(2) { ODD_ROWS } else { EVEN_ROWS };
        let mine = winning_cells(self.current, self.mask);
        let blocked = winning_cells(self.current ^ self.mask, self.mask) << 1;
        for (column, hint) in moves {
            let landing = self.landing(*column);
            let threats = winning_cells(self.current | landing, self.mask) & !blocked;
            *hint += threats.count_ones() as i32 * 8 + (threats & good).count_ones() as i32 * 4;
            if (landing << 1) & mine != 0 {
                *hint -= 8;
            }
        }
    }
}

impl Solver for Connect4 {
    fn value_range(&self) -> Option<(i64, i64)> {
        Some((-1, 1))
    }

    /// Only the player who just moved can complete a line.
    fn last_mover_wins(&self) -> bool {
        true
    }

    /// On a board that is its own mirror image, column `c` and column
    /// `6 - c`.
    fn twin(&self, column: u8) -> Option<u8> {
        let twin = WIDTH as u8 - 1 - column;
        (twin != column && self.mirrored() == *self).then_some(twin)
    }

    /// A win at once if there is one; otherwise the moves that do not hand
    /// the opponent a win at once (blocking a threat when there is one,
    /// never playing just below the opponent's winning cell), ordered by
    /// how many winning cells each leaves the side to move, centre first
    /// among equals.
    #[inline(always)]
    fn engine_moves(&self, out: &mut Vec<(u8, i32)>) -> Tactics<u8> {
        let wins = winning_cells(self.current, self.mask) & self.playable();
        if wins != 0 {
            return Tactics::Win((wins.trailing_zeros() / (HEIGHT + 1)) as u8);
        }
        self.engine_moves_after_safe(out)
    }

    /// [`Solver::engine_moves`] without the look for a win at once.
    #[inline(always)]
    fn engine_moves_after_safe(&self, out: &mut Vec<(u8, i32)>) -> Tactics<u8> {
        debug_assert_eq!(winning_cells(self.current, self.mask) & self.playable(), 0);
        let playable = self.playable();
        let threats = winning_cells(self.current ^ self.mask, self.mask);
        let mut safe = playable;
        let forced = playable & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return Tactics::Lost;
            }
            safe = forced;
        }
        safe &= !(threats >> 1);
        if safe == 0 {
            return Tactics::Lost;
        }
        for (rank, &column) in CENTRE_FIRST.iter().enumerate() {
            if safe & column_mask(column as u32) != 0 {
                out.push((column, -(rank as i32)));
            }
        }
        Tactics::Safe
    }

    /// The mover did not make four: only a full board ends the game.
    #[inline(always)]
    fn outcome_after_quiet_move(&self) -> Option<i64> {
        (self.mask == BOARD).then_some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(columns: &str) -> Connect4 {
        columns.bytes().fold(Connect4::from_bitboards(0, 0), |p, c| p.play(c - b'1'))
    }

    #[test]
    fn four_in_a_row_is_found_in_every_direction() {
        assert_eq!(after("1212121").outcome(), Some(-1), "vertical");
        assert_eq!(after("1122334").outcome(), Some(-1), "horizontal");
        assert_eq!(after("1223433454").outcome(), None);
        assert_eq!(after("12234334544").outcome(), Some(-1), "rising diagonal");
        assert_eq!(after("76654554344").outcome(), Some(-1), "falling diagonal");
        assert_eq!(after("121212").outcome(), None);
    }

    #[test]
    fn lines_do_not_wrap_from_one_column_to_the_next() {
        // Stones at the top of column 1 and the bottom of column 2 are
        // neighbours in bit order only.
        let p = after("1111112222");
        assert_eq!(p.outcome(), None);
    }

    #[test]
    fn a_win_at_once_is_taken_and_a_double_threat_is_lost() {
        let mut moves = Vec::new();
        assert_eq!(after("112233").engine_moves(&mut moves), Tactics::Win(3));
        // X threatens both ends of 2-3-4 on the bottom row: O is lost.
        moves.clear();
        assert_eq!(after("2737").engine_moves(&mut moves), Tactics::Safe);
        moves.clear();
        assert_eq!(after("27374").engine_moves(&mut moves), Tactics::Lost);
    }

    #[test]
    fn a_threat_must_be_blocked_and_the_cell_below_a_threat_is_avoided() {
        let mut moves = Vec::new();
        // X has three on the bottom row (1, 2, 3): O must play column 4.
        assert_eq!(after("17273").engine_moves(&mut moves), Tactics::Safe);
        assert_eq!(moves.iter().map(|m| m.0).collect::<Vec<_>>(), vec![3]);
    }

    #[test]
    fn moves_are_ranked_by_the_winning_cells_they_leave_then_centre_first() {
        // X on the bottom row in columns 2 and 3, O stacked in column 7.
        let p = after("2737");
        let mut moves = Vec::new();
        assert_eq!(p.engine_moves(&mut moves), Tactics::Safe);
        let cheap: Vec<u8> = moves.iter().map(|m| m.0).collect();
        assert_eq!(cheap, vec![3, 2, 4, 1, 5, 0, 6], "centre first before ranking");
        p.rank_moves(&mut moves);
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        let ranked: Vec<u8> = moves.iter().map(|m| m.0).collect();
        // Column 4 makes two winning cells; columns 5 and 1 one each; the
        // rest none, centre first.
        assert_eq!(ranked, vec![3, 4, 0, 2, 1, 5, 6], "{moves:?}");
    }

    #[test]
    fn after_a_safe_move_the_moves_are_the_same_without_the_look_for_a_win() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..500 {
            let mut p = Connect4::from_bitboards(0, 0);
            let mut moves = Vec::new();
            for _ in 0..rng.usize(0..30) {
                moves.clear();
                if p.engine_moves(&mut moves) != Tactics::Safe {
                    break;
                }
                p = p.play(moves[rng.usize(..moves.len())].0);
                let (mut full, mut quick) = (Vec::new(), Vec::new());
                let tactics = p.engine_moves(&mut full);
                assert!(!matches!(tactics, Tactics::Win(_)), "a safe move gave the opponent a win");
                assert_eq!(tactics, p.engine_moves_after_safe(&mut quick));
                assert_eq!(full, quick);
            }
        }
    }

    #[test]
    fn only_a_symmetric_board_has_twin_columns() {
        assert_eq!(after("").twin(0), Some(6));
        assert_eq!(after("44").twin(2), Some(4));
        assert_eq!(after("44").twin(3), None, "the centre is its own mirror");
        assert_eq!(after("3355").twin(1), Some(5));
        assert_eq!(after("17").twin(1), None, "X left, O right");
        assert_eq!(after("4").twin(0), Some(6));
        assert_eq!(after("43").twin(0), None);
        assert_eq!(after("12").twin(0), None);
    }

    #[test]
    fn keys_tell_positions_apart_and_mirrors_match() {
        assert_ne!(after("12").key(), after("21").key());
        assert_eq!(after("12").key(), after("12").key());
        assert_eq!(after("4455").mirrored(), after("4433"));
    }
}
