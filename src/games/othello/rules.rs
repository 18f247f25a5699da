//! The rules of Othello on bitboards: legal moves, flips and the final
//! score, for one side's discs `me` and the other side's `op`.
//!
//! Bit `i` is square `i` (see the module map): a step east is `+1`, south
//! `+8`, south-east `+9`, south-west `+7`, and the other four directions
//! the negations. A step east or west must not wrap from one row's edge to
//! the next row's: discs that could be jumped over are masked to columns b
//! to g for every direction that moves sideways, which stops a run at the
//! edge, and vertical steps simply fall off the board.

/// Every square but those of columns a and h: where a run of discs that
/// moves sideways may pass through.
pub(super) const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The moves of `me` against `op` in one pair of opposite directions
/// (`+shift` and `-shift`), `jumpable` the opponent discs a run may cross:
/// a Kogge-Stone fill of the runs that start next to one of `me`'s discs,
/// doubled in length at each step (runs are at most six discs long).
#[inline(always)]
fn moves_along(me: u64, jumpable: u64, shift: u32) -> u64 {
    let double = jumpable & (jumpable << shift);
    let mut down = jumpable & (me << shift);
    down |= jumpable & (down << shift);
    down |= double & (down << (2 * shift));
    down |= double & (down << (2 * shift));
    let double = jumpable & (jumpable >> shift);
    let mut up = jumpable & (me >> shift);
    up |= jumpable & (up >> shift);
    up |= double & (up >> (2 * shift));
    up |= double & (up >> (2 * shift));
    (down << shift) | (up >> shift)
}

/// The squares where `me` may play against `op`: empty squares from which a
/// line in some direction crosses one or more of `op`'s discs and ends on
/// one of `me`'s.
#[inline(always)]
pub fn legal_moves(me: u64, op: u64) -> u64 {
    let sideways = op & INNER_COLUMNS;
    let moves = moves_along(me, sideways, 1)
        | moves_along(me, op, 8)
        | moves_along(me, sideways, 7)
        | moves_along(me, sideways, 9);
    moves & !(me | op)
}

/// For a move at `pos` on a line of eight squares and the opponent's discs
/// `pattern` on it: the squares that end a run of one or more of them in
/// each direction, where the mover's disc outflanks the run.
const OUTFLANK: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut pattern = 0;
        while pattern < 256 {
            let mut ends = 0u32;
            let mut square = pos + 1;
            while square < 8 && pattern >> square & 1 != 0 {
                square += 1;
            }
            if square < 8 && square > pos + 1 {
                ends |= 1 << square;
            }
            let mut square = pos as i32 - 1;
            while square >= 0 && pattern >> square & 1 != 0 {
                square -= 1;
            }
            if square >= 0 && square < pos as i32 - 1 {
                ends |= 1 << square;
            }
            table[pos][pattern] = ends as u8;
            pattern += 1;
        }
        pos += 1;
    }
    table
};

/// For a move at `pos` on a line of eight squares and the `ends` of the
/// runs it outflanks: the squares between, which it flips.
const FLIPPED: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut ends = 0;
        while ends < 256 {
            let mut flipped = 0u32;
            let mut square = 0;
            while square < 8 {
                if ends >> square & 1 != 0 {
                    let (low, high) = if square < pos { (square, pos) } else { (pos, square) };
                    let mut between = low + 1;
                    while between < high {
                        flipped |= 1 << between;
                        between += 1;
                    }
                }
                square += 1;
            }
            table[pos][ends] = flipped as u8;
            ends += 1;
        }
        pos += 1;
    }
    table
};

/// Multiplied by a board masked to column a, gathers its bits into the top
/// byte, a1 lowest.
const GATHER_COLUMN: u64 = 0x0102_0408_1020_4080;
/// Multiplied by a board masked to a line with one square a row (a
/// diagonal), adds its bytes into the top one: the line by column.
const GATHER_ROWS: u64 = 0x0101_0101_0101_0101;

/// For each eight-bit pattern, the same bits down column a (bit `k` to row
/// `k`).
const SPREAD_COLUMN: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut pattern = 0;
    while pattern < 256 {
        let mut k = 0;
        while k < 8 {
            if pattern >> k & 1 != 0 {
                table[pattern] |= 1 << (8 * k);
            }
            k += 1;
        }
        pattern += 1;
    }
    table
};

/// Column `c` of `discs` as eight bits, row 1 lowest.
#[inline(always)]
fn column_bits(discs: u64, c: usize) -> u64 {
    ((discs >> c) & COLUMN_A).wrapping_mul(GATHER_COLUMN) >> 56
}

/// A line with one square a row (a diagonal, `line`) of `discs` as eight
/// bits by column.
#[inline(always)]
fn diagonal_bits(discs: u64, line: u64) -> u64 {
    (discs & line).wrapping_mul(GATHER_ROWS) >> 56
}

/// The discs flipped along one line by a move at `pos` (its square's place
/// on the line), with the mover's discs `me` and the opponent's `op` on
/// the line as eight bits each.
#[inline(always)]
fn line_flips(pos: usize, me: u64, op: u64) -> u64 {
    let ends = OUTFLANK[pos][op as usize & 0xff] as u64 & me;
    u64::from(FLIPPED[pos][ends as usize])
}

/// The discs of `op` that `me` flips by playing on the empty `square`
/// (0 to 63): in each direction, the run of `op`'s discs from the square's
/// neighbour up to the first square that is not `op`'s, when that square
/// is `me`'s. None flipped means the move is not legal. Each of the four
/// lines through the square is read as eight bits (by column, by row for
/// the column), its runs looked up, and the flips put back on the board.
#[inline(always)]
pub fn flips(me: u64, op: u64, square: u32) -> u64 {
    let square = square & 63;
    let (c, r) = ((square & 7) as usize, (square >> 3) as usize);
    let shift = 8 * r as u32;
    let mut flipped = line_flips(c, me >> shift & 0xff, op >> shift & 0xff) << shift;
    flipped |= SPREAD_COLUMN[line_flips(r, column_bits(me, c), column_bits(op, c)) as usize] << c;
    for line in [DIAGONALS[7 + c - r], DIAGONALS[15 + c + r]] {
        flipped |= line_flips(c, diagonal_bits(me, line), diagonal_bits(op, line)).wrapping_mul(GATHER_ROWS) & line;
    }
    flipped
}

/// For every square, the squares next to it in the eight directions: a
/// move there can flip discs only when the opponent holds one of them.
pub(super) const ADJACENT: [u64; 64] = {
    let mut adjacent = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        adjacent[square] = neighbours(1 << square, !0);
        square += 1;
    }
    adjacent
};

/// For a move at `pos` on a full line of eight squares, `pattern` the
/// mover's discs on it and the opponent's every other square (the move's
/// own square empty): the discs flipped, in each direction the run of the
/// opponent's up to the mover's first disc, when there is one.
const LINE_FLIPS: [[u8; 256]; 8] = {
    let mut counts = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut pattern = 0;
        while pattern < 256 {
            let op = !pattern & !(1 << pos) & 0xff;
            let ends = OUTFLANK[pos][op] as usize & pattern;
            counts[pos][pattern] = FLIPPED[pos][ends].count_ones() as u8;
            pattern += 1;
        }
        pos += 1;
    }
    counts
};

/// The discs `me` flips by playing on `square`, the only empty square, the
/// other side holding every square that is not `me`'s: counted along the
/// four lines through the square, each read as eight bits by column (by
/// row for the column) and looked up. A diagonal's squares off the board
/// read as the opponent's, which no run of flips can end on.
#[inline(always)]
pub fn last_flip_count(me: u64, square: u32) -> u32 {
    let square = square & 63;
    let (c, r) = ((square & 7) as usize, (square >> 3) as usize);
    let row = (me >> (8 * r)) & 0xff;
    let column = column_bits(me, c);
    let falling = diagonal_bits(me, DIAGONALS[7 + c - r]);
    let rising = diagonal_bits(me, DIAGONALS[15 + c + r]);
    u32::from(LINE_FLIPS[c][row as usize])
        + u32::from(LINE_FLIPS[r][column as usize])
        + u32::from(LINE_FLIPS[c][falling as usize])
        + u32::from(LINE_FLIPS[c][rising as usize])
}

/// The final score of a finished game for the side with `me`: the disc
/// difference, the empty squares counted for the winner (the World Othello
/// Federation rule), 0 for a draw.
#[inline(always)]
pub fn final_score(me: u64, op: u64) -> i64 {
    let (mine, theirs) = (me.count_ones() as i64, op.count_ones() as i64);
    let empty = 64 - mine - theirs;
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + empty,
        std::cmp::Ordering::Less => mine - theirs - empty,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The empty squares next to at least one of `discs` (in any of the eight
/// directions), given the `empty` squares: where discs can be flipped from.
#[inline(always)]
pub const fn neighbours(discs: u64, empty: u64) -> u64 {
    let sideways = discs & INNER_COLUMNS;
    let near = (discs << 8)
        | (discs >> 8)
        | (sideways << 1)
        | (sideways >> 1)
        | (sideways << 7)
        | (sideways >> 7)
        | (sideways << 9)
        | (sideways >> 9);
    // A disc on column a or h reaches one step inwards only.
    let edge_a = discs & 0x0101_0101_0101_0101;
    let edge_h = discs & 0x8080_8080_8080_8080;
    let inwards = (edge_a << 1) | (edge_a << 9) | (edge_a >> 7) | (edge_h >> 1) | (edge_h >> 9) | (edge_h << 7);
    (near | inwards) & empty
}

/// Columns a and h, rows 1 and 8, and every square of the rim.
const EDGE_COLUMNS: u64 = 0x8181_8181_8181_8181;
const EDGE_ROWS: u64 = 0xff00_0000_0000_00ff;
const RIM: u64 = EDGE_COLUMNS | EDGE_ROWS;
const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const COLUMN_H: u64 = 0x8080_8080_8080_8080;

/// The 15 diagonals that run south-east (a1 to h8 and its parallels),
/// then the 15 that run south-west (h1 to a8 and its parallels).
const DIAGONALS: [u64; 30] = {
    let mut lines = [0u64; 30];
    let mut square = 0;
    while square < 64 {
        let (c, r) = (square % 8, square / 8);
        lines[7 + c - r] |= 1 << square;
        lines[15 + c + r] |= 1 << square;
        square += 1;
    }
    lines
};

/// The squares from which `k` steps of `(dc, dr)` (columns, rows) leave
/// the board.
const fn beyond(dc: i32, dr: i32, k: i32) -> u64 {
    let mut squares = 0u64;
    let mut square = 0;
    while square < 64 {
        let (c, r) = (square % 8 + k * dc, square / 8 + k * dr);
        if c < 0 || c > 7 || r < 0 || r > 7 {
            squares |= 1 << square;
        }
        square += 1;
    }
    squares
}

/// For each square of `filled`, whether every square from it to the edge
/// in the direction of `step` (a shift of the board, `+9` south-east, `-7`
/// north-east, ...) is filled: runs of one, two, then four steps joined,
/// `ends` the squares from which one, two and four steps leave the board.
#[inline(always)]
fn filled_to_edge(filled: u64, step: i32, ends: [u64; 3]) -> u64 {
    let toward = |x: u64, k: i32| if step > 0 { x >> (k * step) } else { x << (-k * step) };
    let mut run = filled;
    run &= toward(run, 1) | ends[0];
    run &= toward(run, 2) | ends[1];
    run &= toward(run, 4) | ends[2];
    run
}

/// The squares of `filled` whose line in each direction is full: no move
/// can ever be made on it. (Horizontal, vertical, south-east, south-west.)
#[inline(always)]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut horizontal = filled & (filled >> 1);
    horizontal &= horizontal >> 2;
    horizontal &= horizontal >> 4;
    let horizontal = (horizontal & COLUMN_A).wrapping_mul(0xff);
    let mut vertical = filled & (filled >> 8);
    vertical &= vertical >> 16;
    vertical &= vertical >> 32;
    let vertical = (vertical & 0xff).wrapping_mul(0x0101_0101_0101_0101);
    const SOUTH_EAST: [u64; 3] = [beyond(1, 1, 1), beyond(1, 1, 2), beyond(1, 1, 4)];
    const NORTH_WEST: [u64; 3] = [beyond(-1, -1, 1), beyond(-1, -1, 2), beyond(-1, -1, 4)];
    const SOUTH_WEST: [u64; 3] = [beyond(-1, 1, 1), beyond(-1, 1, 2), beyond(-1, 1, 4)];
    const NORTH_EAST: [u64; 3] = [beyond(1, -1, 1), beyond(1, -1, 2), beyond(1, -1, 4)];
    let south_east = filled_to_edge(filled, 9, SOUTH_EAST) & filled_to_edge(filled, -9, NORTH_WEST);
    let south_west = filled_to_edge(filled, 7, SOUTH_WEST) & filled_to_edge(filled, -7, NORTH_EAST);
    [horizontal, vertical, south_east, south_west]
}

/// Discs of `discs` that can never be flipped, whatever is played, given
/// the squares `filled` (both sides' discs): a disc is stable when, on
/// each of its four lines, the line is full, or the board ends on one
/// side, or the neighbour on one side is a stable disc of the same side
/// (a run to flip would have to flip that neighbour too). A lower bound
/// on the truly stable discs, found from the corners inwards.
#[inline]
pub fn stable_discs(discs: u64, filled: u64) -> u64 {
    let [horizontal, vertical, south_east, south_west] = full_lines(filled);
    let (horizontal, vertical) = (horizontal | EDGE_COLUMNS, vertical | EDGE_ROWS);
    let (south_east, south_west) = (south_east | RIM, south_west | RIM);
    let mut stable = 0u64;
    loop {
        let s = stable;
        let across = horizontal | (s << 1 & !COLUMN_A) | (s >> 1 & !COLUMN_H);
        let down = vertical | (s << 8) | (s >> 8);
        let falling = south_east | (s << 9 & !COLUMN_A) | (s >> 9 & !COLUMN_H);
        let rising = south_west | (s << 7 & !COLUMN_H) | (s >> 7 & !COLUMN_A);
        stable = s | (discs & across & down & falling & rising);
        if stable == s {
            return stable;
        }
    }
}

/// [`legal_moves`] on AVX2 where the processor has it (`super::avx2`, the
/// same squares), for the midgame search (its moves, its ranking and the
/// evaluation's mobility): about a sixth less time for the same positions.
/// The processor's features are read from a cached flag at each call.
/// (The flips stay on [`flips`]'s tables, which are as fast there.)
#[inline(always)]
pub(super) fn legal_moves_fast(me: u64, op: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, the one feature the function is
        // compiled with.
        return unsafe { super::avx2::legal_moves(me, op) };
    }
    legal_moves(me, op)
}

/// A random board for the tests: each square empty with a chance of a
/// quarter, else the side to move's or the opponent's alike; returns the
/// two sides' discs (`me`, `op`).
#[cfg(test)]
pub(super) fn random_board(rng: &mut fastrand::Rng) -> (u64, u64) {
    let filled = rng.u64(..) | rng.u64(..);
    let me = filled & rng.u64(..);
    (me, filled & !me)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Legal moves the slow way: every empty square with a flip.
    fn slow_moves(me: u64, op: u64) -> u64 {
        (0..64).filter(|&s| (me | op) >> s & 1 == 0 && flips(me, op, s) != 0).fold(0, |m, s| m | 1 << s)
    }

    /// Flips the slowest way: walking each direction square by square.
    fn walked_flips(me: u64, op: u64, square: u32) -> u64 {
        let mut all = 0;
        for (dc, dr) in [(1, 0), (-1, 1), (0, 1), (1, 1), (-1, 0), (1, -1), (0, -1), (-1, -1)] {
            let (mut c, mut r) = ((square % 8) as i32 + dc, (square / 8) as i32 + dr);
            let mut run = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) && op >> (r * 8 + c) & 1 != 0 {
                run |= 1 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            if (0..8).contains(&c) && (0..8).contains(&r) && me >> (r * 8 + c) & 1 != 0 {
                all |= run;
            }
        }
        all
    }

    #[test]
    fn the_last_square_flips_as_many_as_counted() {
        let mut rng = fastrand::Rng::with_seed(29);
        for _ in 0..20_000 {
            let square = rng.u32(..64);
            let me = rng.u64(..) & !(1 << square);
            let op = !me & !(1 << square);
            assert_eq!(last_flip_count(me, square), flips(me, op, square).count_ones(), "{me:#x} {square}");
            assert_eq!(last_flip_count(op, square), flips(op, me, square).count_ones(), "{op:#x} {square}");
        }
    }

    #[test]
    fn random_boards_agree_with_a_square_by_square_walk() {
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..3000 {
            let (me, op) = random_board(&mut rng);
            let filled = me | op;
            let mut expected_moves = 0;
            for square in 0..64 {
                if filled >> square & 1 == 0 {
                    let walked = walked_flips(me, op, square);
                    assert_eq!(flips(me, op, square), walked, "{me:#x} {op:#x} {square}");
                    if walked != 0 {
                        expected_moves |= 1 << square;
                    }
                }
            }
            assert_eq!(legal_moves(me, op), expected_moves, "{me:#x} {op:#x}");
            assert_eq!(slow_moves(me, op), expected_moves);
        }
    }

    #[test]
    fn the_start_position_has_four_moves_for_black() {
        let (black, white) = (1 << 28 | 1 << 35, 1 << 27 | 1 << 36);
        // d3, c4, f5, e6.
        assert_eq!(legal_moves(black, white), 1 << 19 | 1 << 26 | 1 << 37 | 1 << 44);
        assert_eq!(flips(black, white, 19), 1 << 27);
    }

    #[test]
    fn runs_do_not_wrap_around_the_edge() {
        // White on h1, black on a2 (the next bit): no move on g1 for black
        // through the wrap, and no move at all.
        let (black, white) = (1 << 8, 1 << 7);
        assert_eq!(legal_moves(black, white), 0);
        assert_eq!(flips(black, white, 6), 0);
    }

    #[test]
    fn scores_count_the_empty_squares_for_the_winner() {
        assert_eq!(final_score(0b111, 0b1), 2 + 60);
        assert_eq!(final_score(0b1, 0b111), -62);
        assert_eq!(final_score(0b11, 0b1100), 0);
        assert_eq!(final_score(u64::MAX >> 32, u64::MAX << 32), 0);
    }

    #[test]
    fn neighbours_are_the_adjacent_empty_squares() {
        // A disc on a1 touches b1, a2 and b2; one on h8 touches g8, h7, g7.
        assert_eq!(neighbours(1, !1), 1 << 1 | 1 << 8 | 1 << 9);
        assert_eq!(neighbours(1 << 63, !(1 << 63)), 1 << 62 | 1 << 55 | 1 << 54);
        let random = fastrand::Rng::with_seed(1).u64(..);
        let slow = (0..64)
            .filter(|&s| {
                random >> s & 1 == 0
                    && (0..64).any(|t: i32| {
                        let (dc, dr) = ((t % 8) - (s % 8), (t / 8) - (s / 8));
                        random >> t & 1 != 0 && dc.abs() <= 1 && dr.abs() <= 1
                    })
            })
            .fold(0u64, |m, s| m | 1 << s);
        assert_eq!(neighbours(random, !random), slow);
    }

    /// The discs of the side to move first and of the other side after up
    /// to `plies` random plies (passes included) from `(first, second)`,
    /// or to the end of the game.
    fn random_plies(rng: &mut fastrand::Rng, first: u64, second: u64, plies: u32) -> (u64, u64) {
        let (mut me, mut op) = (first, second);
        for ply in 0..plies {
            let moves = legal_moves(me, op);
            if moves == 0 && legal_moves(op, me) == 0 {
                return if ply.is_multiple_of(2) { (me, op) } else { (op, me) };
            }
            if moves != 0 {
                let square = random_square(rng, moves);
                let flipped = flips(me, op, square);
                (me, op) = (me | flipped | 1 << square, op & !flipped);
            }
            (me, op) = (op, me);
        }
        if plies.is_multiple_of(2) {
            (me, op)
        } else {
            (op, me)
        }
    }

    #[test]
    fn stable_discs_are_never_flipped_in_random_continuations() {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut found = 0;
        for _ in 0..400 {
            // A random game to a random point (an even ply, so that `me`
            // is to move), then random continuations to the end.
            let stop = 2 * rng.u32(10..30);
            let (me, op) = random_plies(&mut rng, 1 << 28 | 1 << 35, 1 << 27 | 1 << 36, stop);
            let (stable_me, stable_op) = (stable_discs(me, me | op), stable_discs(op, me | op));
            assert_eq!(stable_me & !me, 0);
            found += (stable_me | stable_op).count_ones();
            for _ in 0..8 {
                let (mine, theirs) = random_plies(&mut rng, me, op, 64);
                assert_eq!(stable_me & !mine, 0, "{me:#x} {op:#x}");
                assert_eq!(stable_op & !theirs, 0, "{me:#x} {op:#x}");
            }
        }
        // Corners and full lines make many discs stable late in a game.
        assert!(found > 1000, "{found}");
    }

    #[test]
    fn full_lines_are_the_lines_with_every_square_filled() {
        let mut rng = fastrand::Rng::with_seed(31);
        for _ in 0..20_000 {
            let filled = rng.u64(..) | rng.u64(..) | rng.u64(..) | rng.u64(..);
            let (mut rows, mut columns, mut south_east, mut south_west) = (0, 0, 0, 0);
            for i in 0..8 {
                let (row, column) = (0xffu64 << (8 * i), COLUMN_A << i);
                rows |= if filled & row == row { row } else { 0 };
                columns |= if filled & column == column { column } else { 0 };
            }
            for line in &DIAGONALS[..15] {
                south_east |= if filled & line == *line { *line } else { 0 };
            }
            for line in &DIAGONALS[15..] {
                south_west |= if filled & line == *line { *line } else { 0 };
            }
            assert_eq!(full_lines(filled), [rows, columns, south_east, south_west], "{filled:#x}");
        }
    }

    #[test]
    fn corners_edges_anchored_to_them_and_full_lines_are_stable() {
        // a1 b1 c1 black, d1 white, the rest of row 1 empty: the black run
        // from the corner is stable, d1 is not.
        let black = 0b111;
        let white = 0b1000;
        assert_eq!(stable_discs(black, black | white), 0b111);
        assert_eq!(stable_discs(white, black | white), 0);
        // A full board: everything is stable.
        assert_eq!(stable_discs(0xff00_ff00_ff00_ff00, u64::MAX), 0xff00_ff00_ff00_ff00);
        // A lone disc in the middle of an empty board is not.
        assert_eq!(stable_discs(1 << 27, 1 << 27), 0);
    }

    fn random_square(rng: &mut fastrand::Rng, squares: u64) -> u32 {
        let mut left = squares;
        for _ in 0..rng.u32(..squares.count_ones()) {
            left &= left - 1;
        }
        left.trailing_zeros()
    }
}
