//! The proof that a Connect Four board is reachable: some game, X first
//! and the players alternating, stacks its columns as they stand and ends
//! no earlier than its last move (a four in a row completed by that move
//! at most). A board no game produces is refused with the reason.

use super::bitboard::{has_four, BOTTOM};
use super::input::{count, describe_line, fours, impossible, COLUMN, STRIDE};
use super::{Connect4Error, WIDTH};
use crate::games::board::Player;

/// Checks stones that rest on one another (`x`'s and `o`'s) against what a
/// game can produce.
pub(super) fn check(x: u64, o: u64) -> Result<(), Connect4Error> {
    let (nx, no) = (x.count_ones(), o.count_ones());
    if nx != no && nx != no + 1 {
        return Err(impossible(format!(
            "X has {} and O has {}: X moves first and the players alternate, so X has as many stones as O or one more",
            count(nx),
            count(no)
        )));
    }
    let last = if nx > no { Player::X } else { Player::O };
    let mut last_moves = x | o;
    match (has_four(x), has_four(o)) {
        (false, false) => {}
        (true, true) => {
            return Err(impossible(format!(
                "X and O both have four in a row (X at {}; O at {}): the game ends at the first",
                fours(x).map(describe_line).next().unwrap_or_default(),
                fours(o).map(describe_line).next().unwrap_or_default(),
            )))
        }
        (x_won, _) => {
            let (winner, stones) = if x_won { (Player::X, x) } else { (Player::O, o) };
            let lines: Vec<u64> = fours(stones).collect();
            let listed = lines.iter().map(|&line| describe_line(line)).collect::<Vec<_>>().join("; ");
            if winner != last {
                return Err(impossible(format!(
                    "{winner} has four in a row ({listed}), but {last} moved after it ({nx} X and {no} O stones): the game ends at the first four in a row"
                )));
            }
            // The last move completed every four, so it is a stone they
            // all share, with nothing above it.
            let shared = lines.iter().fold(stones, |shared, line| shared & line);
            let uncovered = stones & !((x | o) >> 1);
            if shared == 0 {
                return Err(impossible(format!(
                    "{winner} has fours in a row that share no stone ({listed}): one move cannot complete them all, and the game ends at the first"
                )));
            }
            if shared & uncovered == 0 {
                let (what, which) = if lines.len() == 1 {
                    (format!("{winner}'s four in a row ({listed}) was"), "each of its stones")
                } else {
                    (format!("{winner}'s fours in a row ({listed}) were"), "every stone they share")
                };
                return Err(impossible(format!(
                    "{what} complete before the last move: {which} has a stone above it, played after the game had ended"
                )));
            }
            last_moves = shared & uncovered;
        }
    }
    if !Unstacker::can_stack(x, o, last_moves) {
        return Err(impossible(if nx > 0 && x & BOTTOM == 0 {
            "no game produces this board: X's first move lands on the bottom row, but every stone there is O"
                .to_string()
        } else {
            "no game produces this board: no order of moves, X first and the players alternating, stacks its columns as they stand".to_string()
        }));
    }
    Ok(())
}

/// Searches for an order of moves that stacks a board's columns as they
/// stand, working backwards: the stone lifted off the top of a column must
/// be the colour of the player whose move it was (X's when the stones left,
/// it included, are odd in number).
///
/// What remains of the board depends only on the columns' heights, so a set
/// of heights once found to lead nowhere is marked and never tried again:
/// the work is bounded by the product of (height + 1) over the columns, at
/// most 7^7, whatever the board. Before the search, a quick test refuses
/// boards whose stones cannot each get a move of their own colour within
/// the window their column allows (a bottom row without X, for one); in
/// the search, among the stones that can be lifted, the one that had to
/// come latest is tried first, so a board some game reaches is usually
/// unstacked at the first try.
struct Unstacker {
    /// X's stones.
    x: u64,
    /// For every stone, by bit index, the earliest move (counting from 1)
    /// that can have played it: the players alternate, so a stone on one of
    /// the other colour comes at least one move later, on one of its own
    /// colour at least two.
    earliest: [u8; 64],
    /// The original height of each column, plus one: the radices of a
    /// height set's index.
    radix: [usize; WIDTH as usize],
    /// One bit per set of heights, set when it leads nowhere.
    dead: Vec<u64>,
}

impl Unstacker {
    /// Whether some game ends with `x` and `o` on the board, its last move
    /// one of the stones in `last_moves`. The caller has checked that the
    /// stones rest on one another, that the counts fit, and that no four is
    /// left once a stone of `last_moves` is lifted (positions before that
    /// hold fewer stones, so they have no four either).
    fn can_stack(x: u64, o: u64, last_moves: u64) -> bool {
        let all = x | o;
        let (mut heights, earliest) = columns_of(x, o);
        if !windows_fit(x, &earliest, &heights, all.count_ones()) {
            return false;
        }
        let radix = heights.map(|h| usize::from(h) + 1);
        let states: usize = radix.iter().product();
        let mut unstacker = Unstacker { x, earliest, radix, dead: vec![0; states.div_ceil(64)] };
        unstacker.lift(&mut heights, all.count_ones(), last_moves)
    }

    /// Lifts the stones down to the empty board, the first one from
    /// `allowed`. Recursion is at most 42 deep.
    fn lift(&mut self, heights: &mut [u8; WIDTH as usize], stones: u32, allowed: u64) -> bool {
        if stones == 0 {
            return true;
        }
        let index = heights.iter().zip(self.radix).rev().fold(0, |index, (&h, radix)| index * radix + usize::from(h));
        if self.dead[index / 64] >> (index % 64) & 1 != 0 {
            return false;
        }
        let x_moved = stones % 2 == 1;
        // The top stones that can be lifted now, and when each can have
        // been played at the earliest.
        let mut liftable = [(0u8, 0usize); WIDTH as usize];
        let mut count = 0;
        for (column, &height) in heights.iter().enumerate() {
            if height == 0 {
                continue;
            }
            let top = STRIDE * column as u32 + u32::from(height) - 1;
            if allowed >> top & 1 != 0 && (self.x >> top & 1 != 0) == x_moved {
                liftable[count] = (self.earliest[top as usize], column);
                count += 1;
            }
        }
        let liftable = &mut liftable[..count];
        liftable.sort_unstable_by(|a, b| b.cmp(a));
        for &(_, column) in liftable.iter() {
            heights[column] -= 1;
            let found = self.lift(heights, stones - 1, !0);
            heights[column] += 1;
            if found {
                return true;
            }
        }
        self.dead[index / 64] |= 1 << (index % 64);
        false
    }
}

/// The height of each column, and for every stone (by bit index) the
/// earliest move, counting from 1, that can have played it.
pub(super) fn columns_of(x: u64, o: u64) -> ([u8; WIDTH as usize], [u8; 64]) {
    let all = x | o;
    let mut heights = [0u8; WIDTH as usize];
    let mut earliest = [0u8; 64];
    for (column, height) in heights.iter_mut().enumerate() {
        *height = (all >> (STRIDE * column as u32) & COLUMN).count_ones() as u8;
        let mut below: Option<(u8, bool)> = None;
        for row in 0..u32::from(*height) {
            let index = STRIDE * column as u32 + row;
            let is_x = x >> index & 1 != 0;
            let move_number = match below {
                None if is_x => 1,
                None => 2,
                Some((under, under_x)) if under_x != is_x => under + 1,
                Some((under, _)) => under + 2,
            };
            earliest[index as usize] = move_number;
            below = Some((move_number, is_x));
        }
    }
    (heights, earliest)
}

/// Whether each stone can get a move of its own within its window: no
/// earlier than `earliest` (as in [`Unstacker`]), no later than the stones
/// above it allow when the last of them was move `stones`. A necessary
/// condition (it ignores the order within a column beyond the windows),
/// decided exactly for the windows: each colour's moves are filled in
/// turn, each with the open window that closes first. Checked once, before
/// the search: at every step it would cost more than it saves.
pub(super) fn windows_fit(x: u64, earliest: &[u8; 64], heights: &[u8; WIDTH as usize], stones: u32) -> bool {
    // (earliest, latest) per stone, X's and O's apart.
    let mut windows = [[(0u8, 0u8); 42]; 2];
    let mut counts = [0usize; 2];
    for (column, &height) in heights.iter().enumerate() {
        let mut above: Option<(u8, bool)> = None;
        for row in (0..u32::from(height)).rev() {
            let index = STRIDE * column as u32 + row;
            let is_x = x >> index & 1 != 0;
            let latest = match above {
                // X plays the odd moves, O the even ones.
                None => (stones - u32::from((stones % 2 == 1) != is_x)) as u8,
                Some((over, over_x)) if over_x != is_x => over.saturating_sub(1),
                Some((over, _)) => over.saturating_sub(2),
            };
            let first_possible = earliest[index as usize];
            if first_possible > latest {
                return false;
            }
            let side = usize::from(!is_x);
            windows[side][counts[side]] = (first_possible, latest);
            counts[side] += 1;
            above = Some((latest, is_x));
        }
    }
    // X's moves are 1, 3, 5, ...; O's are 2, 4, 6, ...
    windows.iter_mut().zip(counts).zip([1u8, 2]).all(|((windows, count), first)| {
        let windows = &mut windows[..count];
        (0..count).all(|k| {
            let move_number = first + 2 * k as u8;
            // The open window that closes first takes this move; a
            // taken window is closed for good.
            let open = windows.iter_mut().filter(|(earliest, _)| *earliest <= move_number);
            match open.min_by_key(|(_, latest)| *latest) {
                Some(window) if window.1 >= move_number => {
                    *window = (u8::MAX, 0);
                    true
                }
                _ => false,
            }
        })
    })
}
