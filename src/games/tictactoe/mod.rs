//! Tic-tac-toe on bitboards: a validated [`Position`] for the api layer, and
//! the [`TicTacToe`] game state that the search plays through.
//!
//! Cells are numbered 0..8 row-major; bit `i` of a board is cell `i`.

use std::fmt;

pub use super::board::Player;
use super::board::{cell_from_char, cell_from_json, json_kind};
use crate::search::{Game, Heuristics, Solver, Tactics};

mod served;

pub use served::{read, read_game, style};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Moves remain and nobody has won.
    InProgress,
    /// This player has three in a row, along the given line.
    Won(Player, [u8; 3]),
    /// The board is full and nobody has won.
    Draw,
}

impl Status {
    /// The status as the api names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::InProgress => "in_progress",
            Status::Won(Player::X, _) => "x_won",
            Status::Won(Player::O, _) => "o_won",
            Status::Draw => "draw",
        }
    }
}

/// The eight lines, as cell masks: rows, columns, diagonals.
pub const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

const FULL: u16 = 0o777;

/// `WINS[m]` is true when the cell mask `m` holds a whole line: one byte
/// load answers "has this side won?".
static WINS: [bool; 512] = {
    let mut table = [false; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut line = 0;
        while line < 8 {
            if mask & LINES[line] as usize == LINES[line] as usize {
                table[mask] = true;
            }
            line += 1;
        }
        mask += 1;
    }
    table
};

#[inline(always)]
fn has_line(stones: u16) -> bool {
    WINS[(stones & FULL) as usize]
}

fn first_line(stones: u16) -> Option<[u8; 3]> {
    LINES.iter().find(|&&line| stones & line == line).map(|&line| {
        let mut cells = [0u8; 3];
        let mut bits = line;
        for cell in &mut cells {
            *cell = bits.trailing_zeros() as u8;
            bits &= bits - 1;
        }
        cells
    })
}

/// What is wrong with a board a caller sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Not a board at all: wrong size, unknown symbol, wrong type. `field` is
    /// the path of the offending part (`board`, `board[4]`, `board[1][2]`).
    Invalid {
        /// Where: `board`, `board[4]` or `board[1][2]`.
        field: String,
        /// What is wrong, for a person.
        message: String,
    },
    /// A well-formed board that no game can produce.
    Impossible {
        /// Why no game reaches it.
        message: String,
    },
    /// `to_move` disagrees with the stone counts.
    ToMoveContradiction {
        /// How they disagree.
        message: String,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Invalid { field, message } => write!(f, "{field}: {message}"),
            BoardError::Impossible { message } | BoardError::ToMoveContradiction { message } => f.write_str(message),
        }
    }
}

impl std::error::Error for BoardError {}

/// A tic-tac-toe position that some game can reach, with its side to move.
///
/// The only ways to get one are [`Position::new`] and the parsers, which
/// reject every impossible board, so code holding a `Position` never has to
/// check it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    x: u16,
    o: u16,
    to_move: Player,
}

impl Position {
    /// The empty board, X to move.
    pub const EMPTY: Position = Position { x: 0, o: 0, to_move: Player::X };

    /// Validates a board given as nine cells.
    ///
    /// The side to move is inferred from the counts (equal: X; one more X: O;
    /// one more O: X, because O started) unless `to_move` says; with equal
    /// counts, `to_move: O` means O started the game.
    pub fn new(cells: [Option<Player>; 9], to_move: Option<Player>) -> Result<Position, BoardError> {
        let mask =
            |p: Player| cells.iter().enumerate().filter(|(_, c)| **c == Some(p)).fold(0u16, |m, (i, _)| m | 1 << i);
        let (x, o) = (mask(Player::X), mask(Player::O));
        let (nx, no) = (x.count_ones(), o.count_ones());
        let by_counts = match nx as i32 - no as i32 {
            0 => None,
            1 => Some(Player::O),
            -1 => Some(Player::X),
            _ => {
                return Err(BoardError::Impossible {
                    message: format!("X has {nx} stones and O has {no}: the counts may differ by at most one"),
                })
            }
        };
        let to_move = match (by_counts, to_move) {
            (None, given) => given.unwrap_or(Player::X),
            (Some(inferred), Some(given)) if given != inferred => {
                let (more, fewer) = if nx > no { ("X", "O") } else { ("O", "X") };
                return Err(BoardError::ToMoveContradiction {
                    message: format!(
                        "to_move is {given}, but {more} has one stone more than {fewer} ({nx} X, {no} O), so {inferred} is to move"
                    ),
                });
            }
            (Some(inferred), _) => inferred,
        };
        let (x_won, o_won) = (has_line(x), has_line(o));
        if x_won && o_won {
            return Err(BoardError::Impossible {
                message: "X and O both have three in a row: a game ends at the first".into(),
            });
        }
        for (won, winner) in [(x_won, Player::X), (o_won, Player::O)] {
            if won && to_move == winner {
                let line = first_line(if winner == Player::X { x } else { o }).unwrap_or_default();
                let started = if nx == no { to_move } else { to_move.other() };
                return Err(BoardError::Impossible {
                    message: format!(
                        "{winner} has three in a row ({}, {}, {}), but {} moved after that: a game ends at the first three in a row ({} started, {nx} X, {no} O)",
                        line[0], line[1], line[2], winner.other(), started
                    ),
                });
            }
        }
        Ok(Position { x, o, to_move })
    }

    /// Validates a board written as nine characters (`X`, `O` in either case;
    /// empty as `.`, ` `, `-` or `_`), row by row; `to_move` as in
    /// [`Position::new`].
    ///
    /// ```
    /// use bestmove::games::tictactoe::{Player, Position};
    ///
    /// let position = Position::parse("XO..X....", None)?;
    /// assert_eq!(position.to_move(), Player::O);
    /// assert!(Position::parse("XXXX.....", None).is_err()); // 4 X, 0 O
    /// # Ok::<(), bestmove::games::tictactoe::BoardError>(())
    /// ```
    pub fn parse(board: &str, to_move: Option<Player>) -> Result<Position, BoardError> {
        Position::new(cells_from_json(&serde_json::Value::String(board.into()))?, to_move)
    }

    /// The side to move (or that would move, were the game not over).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The mark on `cell`, if any.
    pub fn cell(&self, cell: u8) -> Option<Player> {
        if self.x >> cell & 1 != 0 {
            Some(Player::X)
        } else if self.o >> cell & 1 != 0 {
            Some(Player::O)
        } else {
            None
        }
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        if let Some(line) = first_line(self.x) {
            Status::Won(Player::X, line)
        } else if let Some(line) = first_line(self.o) {
            Status::Won(Player::O, line)
        } else if self.x | self.o == FULL {
            Status::Draw
        } else {
            Status::InProgress
        }
    }

    /// The empty cells, ascending; none once the game is over.
    pub fn legal_moves(&self) -> Vec<u8> {
        if self.status() == Status::InProgress {
            Cells(FULL & !(self.x | self.o)).collect()
        } else {
            Vec::new()
        }
    }

    /// The position after the side to move plays `cell`, or `None` if that
    /// is not a legal move.
    pub fn play(&self, cell: u8) -> Option<Position> {
        if !self.legal_moves().contains(&cell) {
            return None;
        }
        let bit = 1 << cell;
        let (x, o) = match self.to_move {
            Player::X => (self.x | bit, self.o),
            Player::O => (self.x, self.o | bit),
        };
        Some(Position { x, o, to_move: self.to_move.other() })
    }

    /// The game state the search plays through, from the side to move's view.
    pub fn game(&self) -> TicTacToe {
        match self.to_move {
            Player::X => TicTacToe { me: self.x, opp: self.o },
            Player::O => TicTacToe { me: self.o, opp: self.x },
        }
    }
}

impl fmt::Display for Position {
    /// Nine characters, `X`, `O` or `.`, row-major.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in 0..9 {
            f.write_str(self.cell(cell).map_or(".", Player::as_str))?;
        }
        Ok(())
    }
}

/// The set bits of a cell mask, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Cells(u16);

impl Iterator for Cells {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let cell = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(cell)
    }
}

/// Tic-tac-toe as the search sees it: the stones of the side to move and of
/// the opponent. Two `u16`s, copied for every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    me: u16,
    opp: u16,
}

impl Game for TicTacToe {
    type Move = u8;
    type Moves = Cells;

    /// Only the side that just moved can have completed a line.
    #[inline(always)]
    fn outcome(&self) -> Option<i64> {
        if has_line(self.opp) {
            Some(-1)
        } else if self.me | self.opp == FULL {
            Some(0)
        } else {
            None
        }
    }

    #[inline(always)]
    fn moves(&self) -> Cells {
        Cells(FULL & !(self.me | self.opp))
    }

    #[inline(always)]
    fn play(&self, mv: u8) -> TicTacToe {
        TicTacToe { me: self.opp, opp: self.me | 1 << mv }
    }

    /// The stones of the side to move and of the opponent decide all that
    /// follows, whoever they are: 18 bits.
    fn key(&self) -> Option<u64> {
        Some(self.me as u64 | (self.opp as u64) << 9)
    }

    fn max_plies_hint(&self) -> usize {
        (FULL & !(self.me | self.opp)).count_ones() as usize
    }
}

impl Heuristics for TicTacToe {
    /// An undecided position is worth a draw.
    fn cut_value(&self) -> i64 {
        0
    }

    /// Values are -1, 0 and +1.
    fn small_values(&self) -> bool {
        true
    }
}

impl Solver for TicTacToe {
    fn value_range(&self) -> Option<(i64, i64)> {
        Some((-1, 1))
    }

    /// Only the player who just moved can complete a line.
    fn last_mover_wins(&self) -> bool {
        true
    }

    /// A win at once if there is one; otherwise the moves that leave the
    /// opponent no win at once (the one cell that blocks, when there is a
    /// single threat), centre first, then corners, then edges.
    fn engine_moves(&self, out: &mut Vec<(u8, i32)>) -> Tactics<u8> {
        let empty = FULL & !(self.me | self.opp);
        let completing = |stones: u16| {
            LINES.iter().fold(0u16, |cells, &line| {
                let missing = line & !stones;
                if missing.count_ones() == 1 {
                    cells | missing
                } else {
                    cells
                }
            }) & empty
        };
        let wins = completing(self.me);
        if wins != 0 {
            return Tactics::Win(wins.trailing_zeros() as u8);
        }
        let threats = completing(self.opp);
        let safe = match threats.count_ones() {
            0 => empty,
            1 => threats,
            _ => return Tactics::Lost,
        };
        out.extend(Cells(safe).map(|cell| (cell, [1, 0, 1, 0, 2, 0, 1, 0, 1][cell as usize])));
        Tactics::Safe
    }
}

/// What a tic-tac-toe `board` holds, for error messages.
pub const BOARD_SHAPE: &str = "a board is a 9-character string, an array of 9 cells or 3 rows of 3 cells";

/// Reads a board from JSON: a 9-character string, an array of 9 cells, or 3
/// rows of 3 cells. Cells are `X`/`O` in either case; empty is `" "`, `"."`,
/// `"-"`, `"_"`, `""` or `null`.
pub fn cells_from_json(board: &serde_json::Value) -> Result<[Option<Player>; 9], BoardError> {
    use serde_json::Value;
    let invalid = |field: String, message: String| BoardError::Invalid { field, message };
    let mut cells = [None; 9];
    match board {
        Value::String(text) => {
            let chars: Vec<char> = text.chars().collect();
            if chars.len() != 9 {
                return Err(invalid(
                    "board".into(),
                    format!("a board string has 9 characters, one per cell; this one has {}", chars.len()),
                ));
            }
            for (i, c) in chars.into_iter().enumerate() {
                cells[i] = cell_from_char(c).map_err(|()| {
                    invalid(
                        "board".into(),
                        format!("character {} is {c:?}, not a cell: use X, O, or one of \" \", \".\", \"-\", \"_\" for an empty cell", i),
                    )
                })?;
            }
        }
        Value::Array(items) if items.len() == 3 && items.iter().all(Value::is_array) => {
            for (r, row) in items.iter().enumerate() {
                let row = row.as_array().map(Vec::as_slice).unwrap_or_default();
                if row.len() != 3 {
                    return Err(invalid(
                        format!("board[{r}]"),
                        format!("each of the 3 rows has 3 cells; this row has {}", row.len()),
                    ));
                }
                for (c, value) in row.iter().enumerate() {
                    cells[r * 3 + c] = cell_from_json(value).map_err(|m| invalid(format!("board[{r}][{c}]"), m))?;
                }
            }
        }
        Value::Array(items) => {
            if items.len() != 9 {
                return Err(invalid(
                    "board".into(),
                    format!("a board array has 9 cells (or 3 rows of 3); this one has {} items", items.len()),
                ));
            }
            for (i, value) in items.iter().enumerate() {
                cells[i] = cell_from_json(value).map_err(|m| invalid(format!("board[{i}]"), m))?;
            }
        }
        other => return Err(invalid("board".into(), format!("{BOARD_SHAPE}, not {}", json_kind(other)))),
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(board: &str, to_move: Option<Player>) -> Result<Position, BoardError> {
        Position::parse(board, to_move)
    }

    #[test]
    fn the_side_to_move_is_inferred_from_the_counts() {
        assert_eq!(parse(".........", None).unwrap().to_move(), Player::X);
        assert_eq!(parse("X........", None).unwrap().to_move(), Player::O);
        assert_eq!(parse("O........", None).unwrap().to_move(), Player::X);
        assert_eq!(parse(".........", Some(Player::O)).unwrap().to_move(), Player::O);
    }

    #[test]
    fn a_board_with_too_many_x_stones_names_both_counts() {
        let err = parse("XXXXX.OO.", None).unwrap_err();
        assert_eq!(
            err,
            BoardError::Impossible {
                message: "X has 5 stones and O has 2: the counts may differ by at most one".into()
            }
        );
    }

    #[test]
    fn a_win_followed_by_a_move_is_impossible_when_x_started_but_not_when_o_did() {
        assert!(matches!(parse("XXXOO.O..", None), Err(BoardError::Impossible { .. })));
        let finished = parse("XXXOO.O..", Some(Player::O)).unwrap();
        assert_eq!(finished.status(), Status::Won(Player::X, [0, 1, 2]));
        assert!(finished.legal_moves().is_empty());
    }

    #[test]
    fn to_move_must_agree_with_uneven_counts() {
        assert!(matches!(parse("X........", Some(Player::X)), Err(BoardError::ToMoveContradiction { .. })));
    }

    #[test]
    fn the_win_table_matches_the_lines() {
        for mask in 0u16..512 {
            let complete = LINES.iter().filter(|&&line| mask & line == line).count();
            assert_eq!(has_line(mask), complete > 0, "mask {mask:o}");
        }
    }

    #[test]
    fn boards_print_as_nine_characters() {
        assert_eq!(parse("xo..X...-", None).unwrap().to_string(), "XO..X....");
    }
}
