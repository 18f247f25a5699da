//! The rules on boards of 5x5 to 20x20: a compact position the searches
//! copy, which knows its winner, its threats (the squares where a stone
//! makes five) and its evaluation, kept up to date stone by stone.

use std::sync::LazyLock;

use crate::games::board::Player;

/// The smallest board side.
pub const MIN_SIZE: usize = 5;
/// The largest board side (Gomocup's freestyle board).
pub const MAX_SIZE: usize = 20;
/// The board side when a request does not say.
pub const DEFAULT_SIZE: usize = 15;
/// Squares of the largest board.
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;
/// A square's number: `row * STRIDE + column`, row 0 at the bottom,
/// whatever the board's side, so that a number names the same square on
/// every board.
pub const STRIDE: usize = MAX_SIZE;
/// 64-bit words of a set of squares.
const WORDS: usize = MAX_CELLS.div_ceil(64);
/// Lines of the largest board, in the four directions: its rows, its
/// columns and its diagonals each way (39 each).
const LINES: usize = 2 * MAX_SIZE + 2 * (2 * MAX_SIZE - 1);
/// A square's bit in its line's bits is its place along the line plus
/// this, so that the nine squares around any square are bits `place` to
/// `place + 8`, and squares off the board read as empty.
const LINE_SHIFT: usize = 4;

/// What wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row win.
    Freestyle,
    /// Exactly five in a row win; six or more (an overline) do not.
    Standard,
}

impl Rule {
    /// The rule's name in requests and answers.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
        }
    }

    /// True when a run of `length` stones in a row wins.
    #[inline(always)]
    pub fn wins(self, length: usize) -> bool {
        match self {
            Rule::Freestyle => length >= 5,
            Rule::Standard => length == 5,
        }
    }
}

/// The four directions of a line, as (rows, columns) per step: across,
/// up, up-right, up-left.
pub const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Points of a window of five squares on a line that holds `k` stones of
/// one side and none of the other: the move order's unit ([`Board::gain`]:
/// what a stone makes and stops). A window with both colours is dead and
/// worth nothing; one of five stones is a won game.
pub const WINDOW_POINTS: [i32; 6] = [0, 1, 12, 120, 1_000, 0];

/// The evaluation's weights, in points, of [`Board::features`] (the side
/// to move's windows of one to four stones, the opponent's, each side's
/// squares that may make a four, then those that may make two), and last
/// the side to move's points for having the move. They are a logistic
/// regression of the results of the engine's own games on the features,
/// its logit scaled to the window points of the evaluation they replaced:
/// `cargo run --release --example gomoku_fit -- 8000 4 1` (8,000 games
/// between searches to depth 4, 166,137 positions, docs/figures.md). The
/// side to move's own windows of four never count (it would make five),
/// and the squares weigh more than the windows that make them: a window
/// of three gives two squares that may make a four.
pub const WEIGHTS: [i32; FEATURES + 1] = [10, 116, -1000, 0, -4, -95, 550, -1272, 692, -450, 911, -532, 206];

/// The evaluation of a side to move that can make five at once, and of
/// one whose opponent can make five on two squares: decided positions
/// the depth limit cut.
const DECIDED: i32 = 20_000;

/// The evaluation's features ([`Board::features`]).
pub const FEATURES: usize = 12;

/// A random key per square and colour, for the transposition table.
static ZOBRIST: [[u64; MAX_CELLS]; 2] = {
    let mut keys = [[0; MAX_CELLS]; 2];
    let mut state: u64 = 0x6a09_e667_f3bc_c908;
    let mut colour = 0;
    while colour < 2 {
        let mut cell = 0;
        while cell < MAX_CELLS {
            // splitmix64
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            keys[colour][cell] = z ^ (z >> 31);
            cell += 1;
        }
        colour += 1;
    }
    keys
};

/// The index of a colour in per-colour arrays: X (black) 0, O 1.
#[inline(always)]
pub fn colour(player: Player) -> usize {
    match player {
        Player::X => 0,
        Player::O => 1,
    }
}

/// A position: the stones (as bits by line, so that the stones of a
/// window of five are read with a shift and a mask), the side to move, the
/// rule, and what the searches need kept up to date (the squares near a
/// stone, the key, each side's windows by the stones they hold and the
/// squares where it may make a four or five). About 3 KB, copied by
/// [`Board::play`].
#[derive(Clone)]
pub struct Board {
    /// The squares that hold a stone, a bit each by square number
    /// ([`STRIDE`]); whose stone, the lines tell.
    occupied: [u64; WORDS],
    /// The empty and full squares within two steps (either way) of a stone
    /// or of the centre.
    near: [u64; WORDS],
    size: u8,
    rule: Rule,
    to_move: Player,
    stones: u16,
    key: u64,
    /// Each colour's windows of five squares by the stones of the colour
    /// they hold (1 to 4; index 0 unused) and none of the other's: a
    /// side with no window of four cannot make five at once, one with
    /// no window of three or four cannot make a four.
    windows: [[u16; 5]; 2],
    /// For each colour and square, the windows through the square that
    /// hold three of the colour's stones and none of the other's: an
    /// empty square with one may make a four.
    in_threes: [[u8; MAX_CELLS]; 2],
    /// The same for windows of four stones: an empty square with one may
    /// make five.
    in_fours: [[u8; MAX_CELLS]; 2],
    /// The squares where `in_threes` is not 0, a bit each, for each colour.
    three_marks: [[u64; WORDS]; 2],
    /// The squares where `in_fours` is not 0, a bit each, for each colour.
    four_marks: [[u64; WORDS]; 2],
    /// Each colour's stones by line ([`line_of`]), a bit a square.
    lines: [[u32; LINES]; 2],
    /// The player whose last stone made a winning line.
    winner: Option<Player>,
    /// The last stone played, if any.
    last: Option<u16>,
    /// The squares a search may play in the position with
    /// `focus_stones` stones (its root), when told ([`Board::focus_on`]).
    focus: [u64; WORDS],
    /// The stones of the position `focus` applies to; `u16::MAX`: none.
    focus_stones: u16,
    /// The evaluation's weights ([`WEIGHTS`] unless told).
    weights: &'static [i32; FEATURES + 1],
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("size", &self.size)
            .field("rule", &self.rule)
            .field("to_move", &self.to_move)
            .field("rows", &self.rows())
            .finish()
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.rule == other.rule && self.to_move == other.to_move && self.lines == other.lines
    }
}

impl Board {
    /// The empty board of side `size` (5 to 20), X to move.
    pub fn empty(size: usize, rule: Rule) -> Board {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "a board side from 5 to 20");
        let mut board = Board {
            occupied: [0; WORDS],
            near: [0; WORDS],
            size: size as u8,
            rule,
            to_move: Player::X,
            stones: 0,
            key: 0,
            windows: [[0; 5]; 2],
            in_threes: [[0; MAX_CELLS]; 2],
            in_fours: [[0; MAX_CELLS]; 2],
            three_marks: [[0; WORDS]; 2],
            four_marks: [[0; WORDS]; 2],
            lines: [[0; LINES]; 2],
            winner: None,
            last: None,
            focus: [0; WORDS],
            focus_stones: u16::MAX,
            weights: &WEIGHTS,
        };
        board.set_near(board.centre());
        board
    }

    /// The board, evaluated with `weights` for [`Board::features`] and the
    /// move instead of [`WEIGHTS`] (here and in every position after it),
    /// as a tool that fits them plays.
    pub fn with_weights(mut self, weights: &'static [i32; FEATURES + 1]) -> Board {
        self.weights = weights;
        self
    }

    /// The board side.
    #[inline(always)]
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// How many squares the board has.
    #[inline(always)]
    pub fn cells(&self) -> usize {
        self.size() * self.size()
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move.
    #[inline(always)]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Hands the move to `player` (for a board read with its side to move).
    pub fn set_to_move(&mut self, player: Player) {
        self.to_move = player;
    }

    /// The stones on the board.
    pub fn stones(&self) -> usize {
        usize::from(self.stones)
    }

    /// The last stone played, if known.
    pub fn last(&self) -> Option<u16> {
        self.last
    }

    /// The stone on `cell`, if any.
    #[inline(always)]
    pub fn cell(&self, cell: usize) -> Option<Player> {
        if self.occupied[cell / 64] & (1 << (cell % 64)) == 0 {
            None
        } else if self.lines[0][cell / STRIDE] & (1 << (cell % STRIDE + LINE_SHIFT)) != 0 {
            Some(Player::X)
        } else {
            Some(Player::O)
        }
    }

    /// The centre square (the first move's candidate).
    pub fn centre(&self) -> usize {
        let half = self.size() / 2;
        half * STRIDE + half
    }

    /// The player whose last stone made a winning line, if any.
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// True when every square holds a stone.
    pub fn full(&self) -> bool {
        self.stones() == self.cells()
    }

    /// True when the game is over (won, or the board full).
    pub fn over(&self) -> bool {
        self.winner.is_some() || self.full()
    }

    /// The 64-bit key of the stones (the side to move and the rule are the
    /// same throughout a search).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key after `player` puts a stone on `cell`.
    #[inline(always)]
    pub fn key_with(&self, cell: usize, player: Player) -> u64 {
        self.key ^ ZOBRIST[colour(player)][cell]
    }

    /// `cell`'s row (0 at the bottom) and column.
    #[inline(always)]
    fn coordinates(&self, cell: usize) -> (i32, i32) {
        ((cell / STRIDE) as i32, (cell % STRIDE) as i32)
    }

    /// The square at `row` and `column`, if on the board.
    #[inline(always)]
    fn at(&self, row: i32, column: i32) -> Option<usize> {
        let size = self.size() as i32;
        (row >= 0 && row < size && column >= 0 && column < size).then(|| row as usize * STRIDE + column as usize)
    }

    fn set_near(&mut self, cell: usize) {
        let (row, column) = (cell / STRIDE, cell % STRIDE);
        let last = self.size() - 1;
        // Up to five squares of each row within two steps: a run of bits,
        // in one word or across two.
        let (first, end) = (column.saturating_sub(2), (column + 2).min(last) + 1);
        let run = (1u128 << (end - first)) - 1;
        for r in row.saturating_sub(2)..=(row + 2).min(last) {
            let at = r * STRIDE + first;
            let bits = run << (at % 64);
            self.near[at / 64] |= bits as u64;
            if at / 64 + 1 < WORDS {
                self.near[at / 64 + 1] |= (bits >> 64) as u64;
            }
        }
    }

    /// Narrows the moves searched in this position (not in those after
    /// it) to `cells`: the moves that meet a threat.
    pub fn focus_on(&mut self, cells: &[usize]) {
        self.focus = [0; WORDS];
        for &cell in cells {
            self.focus[cell / 64] |= 1 << (cell % 64);
        }
        self.focus_stones = self.stones;
    }

    /// True when the moves searched in this position are narrowed
    /// ([`Board::focus_on`]).
    pub fn narrowed(&self) -> bool {
        self.focus_stones == self.stones
    }

    /// False when the moves searched in this position are narrowed and
    /// `cell` is not among them.
    #[inline(always)]
    pub fn in_focus(&self, cell: usize) -> bool {
        self.focus_stones != self.stones || self.focus[cell / 64] & (1 << (cell % 64)) != 0
    }

    /// The empty squares within two steps of a stone or of the centre,
    /// ascending.
    pub fn near_empty(&self) -> impl Iterator<Item = usize> + '_ {
        const EVERY_SQUARE: [u64; WORDS] = [u64::MAX; WORDS];
        self.marked_empty(&EVERY_SQUARE)
    }

    /// The empty squares near the stones (as [`Board::near_empty`], in
    /// the same order) whose bit is set in `marks`.
    #[inline(always)]
    fn marked_empty<'a>(&'a self, marks: &'a [u64; WORDS]) -> impl Iterator<Item = usize> + 'a {
        (0..WORDS).flat_map(move |w| {
            let mut bits = self.near[w] & marks[w] & !self.occupied[w];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let cell = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    cell
                })
            })
        })
    }

    /// The empty squares near the stones where a stone of `player` may
    /// make a four ([`Board::may_make_four`]), in the order of
    /// [`Board::near_empty`].
    pub fn four_squares(&self, player: Player) -> impl Iterator<Item = usize> + '_ {
        self.marked_empty(&self.three_marks[colour(player)])
    }

    /// The length of the run of `player`'s stones through `cell` (the
    /// square counted as one of them) in each direction.
    #[inline(always)]
    fn run_lengths(&self, cell: usize, player: Player) -> [usize; 4] {
        let lines = &self.lines[colour(player)];
        std::array::from_fn(|direction| {
            let (back, forth) = runs(lines, cell, direction);
            1 + back + forth
        })
    }

    /// True when a stone of `player` on the empty `cell` makes a winning
    /// line.
    #[inline]
    pub fn wins_at(&self, cell: usize, player: Player) -> bool {
        self.run_lengths(cell, player).into_iter().any(|length| self.rule.wins(length))
    }

    /// The winning line through the stone on `cell`, if it lies on one:
    /// every stone of the run, ascending.
    pub fn line_through(&self, cell: usize) -> Option<Vec<usize>> {
        self.lines_through(cell).next()
    }

    /// Every winning line through the stone on `cell` (one a direction at
    /// most), each the whole run, ascending.
    pub fn lines_through(&self, cell: usize) -> impl Iterator<Item = Vec<usize>> + '_ {
        let stone = self.cell(cell);
        DIRECTIONS.iter().enumerate().filter(move |_| stone.is_some()).filter_map(move |(direction, &(dr, dc))| {
            let lines = &self.lines[stone.map_or(0, colour)];
            let (back, forth) = runs(lines, cell, direction);
            self.rule.wins(1 + back + forth).then(|| {
                let (row, column) = self.coordinates(cell);
                let mut line: Vec<usize> =
                    (-(back as i32)..=forth as i32).filter_map(|k| self.at(row + k * dr, column + k * dc)).collect();
                line.sort_unstable();
                line
            })
        })
    }

    /// The squares where `player` makes a winning line at once, ascending.
    pub fn winning_squares(&self, player: Player) -> Vec<usize> {
        let c = colour(player);
        if self.windows[c][4] == 0 {
            return Vec::new();
        }
        self.marked_empty(&self.four_marks[c]).filter(|&cell| self.wins_at(cell, player)).collect()
    }

    /// True when `player` may make a four or five at once: some window
    /// holds three or four of its stones and none of the opponent's.
    pub fn may_threaten(&self, player: Player) -> bool {
        let c = colour(player);
        self.windows[c][4] > 0 || self.windows[c][3] > 0
    }

    /// How many windows hold three or four of `player`'s stones and none
    /// of the opponent's: a win by fours needs two threats at its end.
    pub fn threat_windows(&self, player: Player) -> u32 {
        let c = colour(player);
        u32::from(self.windows[c][4]) + u32::from(self.windows[c][3])
    }

    /// True when `player` may make five at once (some window holds four
    /// of its stones and none of the opponent's).
    pub fn has_four(&self, player: Player) -> bool {
        self.windows[colour(player)][4] > 0
    }

    /// True when `player` can make a winning line at once.
    pub fn can_win(&self, player: Player) -> bool {
        let c = colour(player);
        self.windows[c][4] > 0 && self.marked_empty(&self.four_marks[c]).any(|cell| self.wins_at(cell, player))
    }

    /// The change in `player`'s window points minus the opponent's when
    /// `player` puts a stone on the empty `cell`: the threats it makes and
    /// stops, as [`Board::play`] would count them.
    #[inline]
    pub fn gain(&self, cell: usize, player: Player) -> i32 {
        let gains = &*LINE_GAINS;
        let me = colour(player);
        let mut gain = 0;
        for_each_line(self.size(), cell, |direction, off_board| {
            let (line, place) = line_of(cell, direction);
            let shift = place - LINE_SHIFT;
            let mine = (self.lines[me][line] >> shift) & 0x1ff | off_board;
            let theirs = (self.lines[1 - me][line] >> shift) & 0x1ff | off_board;
            gain += i32::from(gains[(mine | theirs << 9) as usize]);
        });
        gain
    }

    /// True when a stone of `player` on the empty `cell` may make a four:
    /// some window of five through it holds three of `player`'s stones
    /// and none of the opponent's.
    #[inline(always)]
    pub fn may_make_four(&self, cell: usize, player: Player) -> bool {
        self.in_threes[colour(player)][cell] > 0
    }

    /// True when a stone of `player` on the empty `cell` may make five:
    /// some window of five through it holds four of `player`'s stones and
    /// none of the opponent's.
    #[inline(always)]
    pub fn may_make_five(&self, cell: usize, player: Player) -> bool {
        self.in_fours[colour(player)][cell] > 0
    }

    /// True when a stone of `player` on the empty `cell` may make a three:
    /// some window of five through it holds two of `player`'s stones and
    /// none of the opponent's.
    pub fn may_make_three(&self, cell: usize, player: Player) -> bool {
        let mut found = false;
        self.windows(cell, |mine, theirs| found |= mine == 2 && theirs == 0, player);
        found
    }

    /// Calls `f(mine, theirs)` with the stones of `player` and of the
    /// other colour in each window of five on the board that holds `cell`.
    #[inline(always)]
    fn windows(&self, cell: usize, mut f: impl FnMut(usize, usize), player: Player) {
        windows(&self.lines, self.size(), cell, colour(player), |mine, theirs, _, _| f(mine, theirs));
    }

    /// The board after the side to move puts a stone on the empty `cell`,
    /// with the other side to move.
    pub fn play(&self, cell: usize) -> Board {
        let mut next = self.clone();
        next.put(cell);
        next
    }

    /// Puts the side to move's stone on the empty `cell` and hands over
    /// the move.
    pub fn put(&mut self, cell: usize) {
        debug_assert!(self.cell(cell).is_none() && self.winner.is_none());
        let player = self.to_move;
        let (me, other) = (colour(player), 1 - colour(player));
        let mut counts = self.windows;
        let (in_threes, in_fours) = (&mut self.in_threes, &mut self.in_fours);
        let (three_marks, four_marks) = (&mut self.three_marks, &mut self.four_marks);
        // A square's count, and its bit where the count leaves or reaches 0.
        let mark_all =
            |counts: &mut [u8; MAX_CELLS], marks: &mut [u64; WORDS], (first, step): (usize, isize), up: bool| {
                for k in 0..5 {
                    let at = (first as isize + k * step) as usize;
                    let bit = 1u64 << (at % 64);
                    if up {
                        counts[at] += 1;
                        marks[at / 64] |= bit;
                    } else {
                        counts[at] -= 1;
                        if counts[at] == 0 {
                            marks[at / 64] &= !bit;
                        }
                    }
                }
            };
        windows(&self.lines, usize::from(self.size), cell, me, |mine, theirs, first, step| {
            let squares = (first, step);
            if theirs == 0 {
                counts[me][mine] -= u16::from(mine > 0);
                counts[me][(mine + 1).min(4)] += u16::from(mine < 4);
                match mine {
                    2 => mark_all(&mut in_threes[me], &mut three_marks[me], squares, true),
                    3 => {
                        mark_all(&mut in_threes[me], &mut three_marks[me], squares, false);
                        mark_all(&mut in_fours[me], &mut four_marks[me], squares, true);
                    }
                    4 => mark_all(&mut in_fours[me], &mut four_marks[me], squares, false),
                    _ => {}
                }
            }
            if mine == 0 {
                counts[other][theirs] -= u16::from(theirs > 0);
                match theirs {
                    3 => mark_all(&mut in_threes[other], &mut three_marks[other], squares, false),
                    4 => mark_all(&mut in_fours[other], &mut four_marks[other], squares, false),
                    _ => {}
                }
            }
        });
        self.windows = counts;
        self.occupied[cell / 64] |= 1 << (cell % 64);
        for direction in 0..DIRECTIONS.len() {
            let (line, place) = line_of(cell, direction);
            self.lines[me][line] |= 1 << place;
        }
        self.key ^= ZOBRIST[me][cell];
        self.stones += 1;
        self.last = Some(cell as u16);
        self.set_near(cell);
        if self.run_lengths(cell, player).into_iter().any(|length| self.rule.wins(length)) {
            self.winner = Some(player);
        }
        self.to_move = player.other();
    }

    /// Puts a stone of `player` on the empty `cell` without handing over
    /// the move or judging the game (for a board read square by square).
    pub fn place(&mut self, cell: usize, player: Player) {
        let to_move = self.to_move;
        self.to_move = player;
        self.put(cell);
        self.to_move = to_move;
        self.winner = None;
    }

    /// Marks `player` as the winner (for a board read square by square,
    /// once its lines are checked).
    pub fn set_winner(&mut self, player: Option<Player>) {
        self.winner = player;
    }

    /// The evaluation for the side to move, in points: its features
    /// ([`Board::features`]) weighed by the fitted weights ([`WEIGHTS`]),
    /// plus the points for having the move; ±20,000 where the depth limit
    /// cut a decided position (the side to move makes five at once, or
    /// the opponent has two ways to).
    pub fn evaluate(&self) -> i32 {
        let me = colour(self.to_move);
        if self.can_win(self.to_move) {
            return DECIDED;
        }
        if self.windows[1 - me][4] >= 2 && self.winning_squares(self.to_move.other()).len() >= 2 {
            return -DECIDED;
        }
        let features = self.features();
        let weights = self.weights;
        let sum: i32 = features.iter().zip(weights).map(|(&f, &w)| f * w).sum::<i32>() + weights[FEATURES];
        sum.clamp(-DECIDED + 1, DECIDED - 1)
    }

    /// The evaluation's features, for the side to move: its windows of
    /// 1 to 4 stones (and none of the opponent's), the opponent's, the
    /// empty squares near the stones where each side may make a four,
    /// then those where it may make two (an open four, or fours in two
    /// lines).
    pub fn features(&self) -> [i32; FEATURES] {
        let me = colour(self.to_move);
        let mut out = [0; FEATURES];
        for k in 1..=4 {
            out[k - 1] = i32::from(self.windows[me][k]);
            out[k + 3] = i32::from(self.windows[1 - me][k]);
        }
        for (i, c) in [me, 1 - me].into_iter().enumerate() {
            if self.windows[c][3] == 0 {
                continue;
            }
            for cell in self.marked_empty(&self.three_marks[c]) {
                out[8 + i] += 1;
                out[10 + i] += i32::from(self.in_threes[c][cell] >= 2);
            }
        }
        out
    }

    /// The board as rows of `X`, `O` and `.`, the top row (row `size`)
    /// first.
    pub fn rows(&self) -> Vec<String> {
        (0..self.size())
            .rev()
            .map(|row| {
                (0..self.size())
                    .map(|column| match self.cell(row * STRIDE + column) {
                        Some(Player::X) => 'X',
                        Some(Player::O) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// Each colour's windows by the stones they hold, counted over the
    /// whole board (what [`Board::put`] keeps up to date), for tests.
    pub fn recount(&self) -> [[u16; 5]; 2] {
        let mut counts = [[0; 5]; 2];
        let size = self.size() as i32;
        for row in 0..size {
            for column in 0..size {
                for (dr, dc) in DIRECTIONS {
                    let cells: Option<Vec<u8>> = (0..5)
                        .map(|k| {
                            self.at(row + k * dr, column + k * dc)
                                .map(|at| self.cell(at).map_or(0, |p| colour(p) as u8 + 1))
                        })
                        .collect();
                    let Some(cells) = cells else { continue };
                    let x = cells.iter().filter(|&&m| m == 1).count();
                    let o = cells.iter().filter(|&&m| m == 2).count();
                    if o == 0 && (1..5).contains(&x) {
                        counts[0][x] += 1;
                    }
                    if x == 0 && (1..5).contains(&o) {
                        counts[1][o] += 1;
                    }
                }
            }
        }
        counts
    }

    /// What [`Board::recount`] counts, as kept up to date.
    pub fn counts(&self) -> [[u16; 5]; 2] {
        self.windows
    }
}

/// The line through `cell` in the direction [`DIRECTIONS`]`[direction]`
/// (its index in [`Board`]'s lines) and the cell's bit in it.
#[inline(always)]
fn line_of(cell: usize, direction: usize) -> (usize, usize) {
    let (row, column) = (cell / STRIDE, cell % STRIDE);
    match direction {
        0 => (row, column + LINE_SHIFT),
        1 => (MAX_SIZE + column, row + LINE_SHIFT),
        2 => (2 * MAX_SIZE + row + MAX_SIZE - 1 - column, column + LINE_SHIFT),
        _ => (2 * MAX_SIZE + 2 * MAX_SIZE - 1 + row + column, row + LINE_SHIFT),
    }
}

/// The stones of one colour ([`Board`]'s lines) in a row from `cell`
/// (excluded) backwards and forwards along [`DIRECTIONS`]`[direction]`.
#[inline(always)]
fn runs(lines: &[u32; LINES], cell: usize, direction: usize) -> (usize, usize) {
    let (line, place) = line_of(cell, direction);
    let bits = lines[line];
    let forth = (bits >> (place + 1)).trailing_ones() as usize;
    // The bits below the cell's (`place` is at least LINE_SHIFT), moved to
    // the top of the word.
    let back = (bits << (32 - place)).leading_ones() as usize;
    (back, forth)
}

/// The points [`Board::gain`] counts along one line: for each window of
/// five of the nine squares around an empty square (its bit 4), the
/// change in a side's window points when it puts a stone there, plus the
/// opponent's points it stops, by those nine squares' stones of the side
/// (bits 0 to 8 of the index) and of the opponent (bits 9 to 17). A square
/// off the board counts as both sides' stone, so that a window over the
/// edge counts for neither. 512 KB, built once ([`load`]).
static LINE_GAINS: LazyLock<Box<[i16]>> = LazyLock::new(|| {
    (0..1u32 << 18)
        .map(|index| {
            let (mine, theirs) = (index & 0x1ff, index >> 9);
            let mut gain = 0;
            for start in 0..5 {
                let window = 0x1f << start;
                let (m, t) = ((mine & window).count_ones() as usize, (theirs & window).count_ones() as usize);
                if t == 0 && m < 5 {
                    gain += WINDOW_POINTS[m + 1] - WINDOW_POINTS[m];
                }
                if m == 0 {
                    gain += WINDOW_POINTS[t.min(5)];
                }
            }
            gain as i16
        })
        .collect()
});

/// Builds the table [`Board::gain`] reads now rather than in the first
/// request that needs it.
pub fn load() {
    LazyLock::force(&LINE_GAINS);
}

/// Calls `f` for each direction ([`DIRECTIONS`]) with the bits of the
/// nine squares of the line around `cell` (the cell's bit 4) that lie off
/// a board of side `size`.
#[inline(always)]
fn for_each_line(size: usize, cell: usize, mut f: impl FnMut(usize, u32)) {
    for direction in 0..DIRECTIONS.len() {
        let (before, after) = reach(size, cell, direction);
        let on_board = (0x1ffu32 >> (4 - before) << (4 - before)) & (0x1ff >> (4 - after));
        f(direction, !on_board & 0x1ff);
    }
}

/// How many steps (at most 4) the line through `cell` in
/// [`DIRECTIONS`]`[direction]` goes on a board of side `size` before the
/// cell and after it.
#[inline(always)]
fn reach(size: usize, cell: usize, direction: usize) -> (usize, usize) {
    let last = size - 1;
    let (row, column) = (cell / STRIDE, cell % STRIDE);
    let (before, after) = match direction {
        0 => (column, last - column),
        1 => (row, last - row),
        2 => (row.min(column), (last - row).min(last - column)),
        _ => (row.min(last - column), (last - row).min(column)),
    };
    (before.min(4), after.min(4))
}

/// Calls `f(mine, theirs, first, step)` for each window of five squares
/// on a board of side `size` that holds `cell`: the stones of colour `me`
/// (an index, [`colour`]) in it, the other colour's, its first square and
/// the step from one of its squares to the next.
#[inline(always)]
fn windows(
    lines: &[[u32; LINES]; 2],
    size: usize,
    cell: usize,
    me: usize,
    mut f: impl FnMut(usize, usize, usize, isize),
) {
    for (direction, (dr, dc)) in DIRECTIONS.into_iter().enumerate() {
        let (before, after) = reach(size, cell, direction);
        // The nine squares of the line around the cell, 4 on each side, as
        // bits (the cell's bit 4) for each colour's stones.
        let (line, place) = line_of(cell, direction);
        let shift = place - LINE_SHIFT;
        let mine = lines[me][line] >> shift;
        let theirs = lines[1 - me][line] >> shift;
        let step = (dr * STRIDE as i32 + dc) as isize;
        // The windows on the board: squares `start..start + 5` of the nine.
        for start in 4 - before..=after {
            let window = 0x1f << start;
            let first = (cell as isize + (start as isize - 4) * step) as usize;
            f((mine & window).count_ones() as usize, (theirs & window).count_ones() as usize, first, step);
        }
    }
}

/// The name of the square numbered `cell` ([`STRIDE`]): its column's
/// letter (`a` on the left) and its row's number (1 at the bottom), as
/// `h8`.
pub fn square_name(cell: usize) -> String {
    let (row, column) = (cell / STRIDE, cell % STRIDE);
    format!("{}{}", char::from(b'a' + column as u8), row + 1)
}
