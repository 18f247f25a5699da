//! Validated Connect Four positions, read from move sequences or boards.
//!
//! Caller input is checked here, once. A move sequence is replayed: each
//! move must name a column that exists and is not full, and none may follow
//! the end of the game. A board is read cell by cell and then held to what a
//! game can produce: stones rest on stones, X has as many stones as O or one
//! more, at most the side that moved last has four in a row and its last
//! stone lies on every such four, and some order of moves, X first and the
//! players alternating, stacks the columns as they stand. Whatever passes is
//! a [`Position`].

use std::fmt;

use super::bitboard::{has_four, BOTTOM};
use super::reachable;
use super::{Connect4, CELLS, HEIGHT, WIDTH};
use crate::games::board::{cell_from_char, cell_from_json, json_kind, Player};
use crate::suggest::shorten;

/// Bits per column in the layout: its rows and the spare bit above them.
pub(super) const STRIDE: u32 = HEIGHT + 1;

/// The cells of column 0; column `c`'s are these shifted by `STRIDE * c`.
pub(super) const COLUMN: u64 = (1 << HEIGHT) - 1;

/// The bit of the cell in `column` and `row` (row 0 at the bottom).
const fn bit(column: u32, row: u32) -> u64 {
    1 << (STRIDE * column + row)
}

/// Every line of four cells, as masks: 24 across, 21 upwards and 12 along
/// each diagonal.
const LINES: [u64; 69] = {
    let mut lines = [0; 69];
    let mut count = 0;
    // (columns, rows) per step: across, up, up-right, down-right.
    let steps: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut s = 0;
    while s < steps.len() {
        let (dc, dr) = steps[s];
        let mut column = 0;
        while column < WIDTH as i32 {
            let mut row = 0;
            while row < HEIGHT as i32 {
                let (end_column, end_row) = (column + 3 * dc, row + 3 * dr);
                if end_column < WIDTH as i32 && end_row >= 0 && end_row < HEIGHT as i32 {
                    let mut line = 0;
                    let mut k = 0;
                    while k < 4 {
                        line |= bit((column + k * dc) as u32, (row + k * dr) as u32);
                        k += 1;
                    }
                    lines[count] = line;
                    count += 1;
                }
                row += 1;
            }
            column += 1;
        }
        s += 1;
    }
    assert!(count == 69);
    lines
};

/// The lines of four that `stones` hold.
pub(super) fn fours(stones: u64) -> impl Iterator<Item = u64> {
    LINES.into_iter().filter(move |&line| stones & line == line)
}

/// A cell's number as callers see it: `7 * row + column`, row 0 at the top.
fn cell_number(bit_index: u32) -> u8 {
    let (column, row) = (bit_index / STRIDE, bit_index % STRIDE);
    (WIDTH * (HEIGHT - 1 - row) + column) as u8
}

/// The cells of a line of four, ascending in the callers' numbering.
fn line_cells(line: u64) -> [u8; 4] {
    let mut cells = [0; 4];
    let mut bits = line;
    for cell in &mut cells {
        *cell = cell_number(bits.trailing_zeros());
        bits &= bits - 1;
    }
    cells.sort_unstable();
    cells
}

/// The path of a cell (in the callers' numbering) in a board.
fn cell_path(cell: u8) -> String {
    format!("board[{}][{}]", u32::from(cell) / WIDTH, u32::from(cell) % WIDTH)
}

/// A line of four for a message: the paths of its cells.
pub(super) fn describe_line(line: u64) -> String {
    line_cells(line).map(cell_path).join(", ")
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Moves remain and nobody has won.
    InProgress,
    /// This player has four in a row, on these cells (`7 * row + column`,
    /// row 0 at the top as in a board).
    Won(Player, [u8; 4]),
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

/// What is wrong with a position a caller sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Connect4Error {
    /// Not a position at all, or a move that cannot be played: `field` is
    /// the path of the offending part (`moves[5]`, `board[2][3]`).
    Invalid {
        /// Where in the request.
        field: String,
        /// What is wrong, for a person.
        message: String,
    },
    /// A well-formed board that no game can produce.
    Impossible {
        /// Where in the request.
        field: String,
        /// Why no game produces it.
        message: String,
    },
}

impl fmt::Display for Connect4Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Connect4Error::Invalid { field, message } | Connect4Error::Impossible { field, message } => {
                write!(f, "{field}: {message}")
            }
        }
    }
}

impl std::error::Error for Connect4Error {}

fn invalid(field: impl Into<String>, message: impl Into<String>) -> Connect4Error {
    Connect4Error::Invalid { field: field.into(), message: message.into() }
}

/// A number of stones, in words: "1 stone", "2 stones".
pub(super) fn count(stones: u32) -> String {
    format!("{stones} stone{}", if stones == 1 { "" } else { "s" })
}

pub(super) fn impossible(message: impl Into<String>) -> Connect4Error {
    Connect4Error::Impossible { field: "board".into(), message: message.into() }
}

/// How a move sequence numbers its columns, for messages about its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Notation {
    /// Column numbers 0 to 6.
    Columns,
    /// Digits 1 to 7.
    Digits,
}

/// A Connect Four position some game can reach.
///
/// The only ways to get one are the constructors below, which refuse every
/// impossible input, and [`Position::play`]; code holding a `Position` never
/// has to check it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// X's stones, in the bitboard layout.
    x: u64,
    /// O's stones.
    o: u64,
}

/// What `board` holds, for error messages.
pub const BOARD_SHAPE: &str =
    "a Connect Four board is 6 rows of 7 cells, top row first, each row a 7-character string or an array of 7 cells";

/// What `moves` holds, for error messages.
pub const MOVES_SHAPE: &str =
    "moves is a string of digits 1 to 7 (\"4453\") or an array of column numbers 0 to 6 ([3, 3, 4, 2]), at most 42 moves";

impl Position {
    /// The empty board.
    pub const EMPTY: Position = Position { x: 0, o: 0 };

    /// The position after playing `columns` (0 to 6) from the empty board.
    /// An error names the first bad move as `moves[i]`.
    pub fn from_columns(columns: &[u8]) -> Result<Position, Connect4Error> {
        replay(columns.iter().map(|&column| Ok(column)), Notation::Columns)
    }

    /// The position after a game written in the usual notation: one digit
    /// per move, 1 for the leftmost column to 7 (`"4453"`). An error names
    /// the first bad move as `moves[i]`, `i` counting characters from 0.
    pub fn from_notation(digits: &str) -> Result<Position, Connect4Error> {
        let columns = digits.chars().enumerate().map(|(i, c)| match c {
            '1'..='7' => Ok(c as u8 - b'1'),
            _ => Err(invalid(
                format!("moves[{i}]"),
                format!(
                    "character {:?} is not a column: in a move string each move is a digit from 1 (the leftmost column) to 7",
                    c
                ),
            )),
        });
        replay(columns, Notation::Digits)
    }

    /// Reads `moves` from JSON: a string in the usual notation (`"4453"`) or
    /// an array of column numbers 0 to 6 (`[3, 3, 4, 2]`).
    pub fn from_json_moves(value: &serde_json::Value) -> Result<Position, Connect4Error> {
        use serde_json::Value;
        match value {
            Value::String(digits) => Position::from_notation(digits),
            Value::Array(items) => {
                replay(items.iter().enumerate().map(|(i, item)| column_from_json(i, item)), Notation::Columns)
            }
            other => Err(invalid("moves", format!("{MOVES_SHAPE}, not {}", json_kind(other)))),
        }
    }

    /// Reads a board from JSON: 6 rows, top row first, each a 7-character
    /// string or an array of 7 cells. Cells are `X`/`O` in either case;
    /// empty is `"."`, `" "`, `"-"`, `"_"`, `""` or `null`.
    pub fn from_json_board(value: &serde_json::Value) -> Result<Position, Connect4Error> {
        use serde_json::Value;
        const SHAPE: &str = BOARD_SHAPE;
        let rows = match value {
            Value::Array(rows) => rows,
            other => return Err(invalid("board", format!("{SHAPE}, not {}", json_kind(other)))),
        };
        if rows.len() != HEIGHT as usize {
            return Err(invalid("board", format!("{SHAPE}; this one has {} rows", rows.len())));
        }
        let (mut x, mut o) = (0u64, 0u64);
        for (r, row) in rows.iter().enumerate() {
            let cells = row_cells(r, row)?;
            for (column, cell) in cells.into_iter().enumerate() {
                let cell_bit = bit(column as u32, HEIGHT - 1 - r as u32);
                match cell {
                    Some(Player::X) => x |= cell_bit,
                    Some(Player::O) => o |= cell_bit,
                    None => {}
                }
            }
        }
        let stones = x | o;
        // A stone whose cell below is empty: shifted up by one, the stones
        // cover every cell that rests on a stone.
        let floating = stones & !(stones << 1 | BOTTOM);
        if floating != 0 {
            // The first in reading order: top row first, then left to right.
            let first = (0..u64::BITS).filter(|&i| floating >> i & 1 != 0).map(cell_number).min().unwrap_or_default();
            return Err(invalid(
                cell_path(first),
                format!(
                    "a stone cannot float above an empty cell: {} below it is empty, and a stone falls to the lowest empty cell of its column",
                    cell_path(first + WIDTH as u8)
                ),
            ));
        }
        Position::validated(x, o)
    }

    /// Checks stones that rest on one another against what a game can
    /// produce (see [`super::reachable`]).
    fn validated(x: u64, o: u64) -> Result<Position, Connect4Error> {
        reachable::check(x, o)?;
        Ok(Position { x, o })
    }

    /// The side to move: X when the stone counts are equal.
    pub fn to_move(&self) -> Player {
        if self.x.count_ones() == self.o.count_ones() {
            Player::X
        } else {
            Player::O
        }
    }

    /// The number of stones on the board.
    pub fn stones(&self) -> u32 {
        (self.x | self.o).count_ones()
    }

    /// Where the game stands. With a winner, the line reported is the first
    /// of its fours (a last move can complete more than one).
    pub fn status(&self) -> Status {
        for (player, stones) in [(Player::X, self.x), (Player::O, self.o)] {
            if has_four(stones) {
                if let Some(line) = fours(stones).next() {
                    return Status::Won(player, line_cells(line));
                }
            }
        }
        if self.stones() == CELLS {
            Status::Draw
        } else {
            Status::InProgress
        }
    }

    /// The columns that are not full, ascending; none once the game is over.
    pub fn legal_moves(&self) -> Vec<u8> {
        if self.status() != Status::InProgress {
            return Vec::new();
        }
        (0..WIDTH as u8).filter(|&column| self.height(column) < HEIGHT).collect()
    }

    /// The position after the side to move drops a stone in `column`, or
    /// `None` if that is not a legal move.
    pub fn play(&self, column: u8) -> Option<Position> {
        if u32::from(column) >= WIDTH || self.height(column) == HEIGHT || self.status() != Status::InProgress {
            return None;
        }
        Some(self.drop_stone(column))
    }

    /// The board as 6 strings of 7 characters, `X`, `O` or `.`, top row
    /// first.
    pub fn rows(&self) -> Vec<String> {
        (0..HEIGHT as u8)
            .map(|row| (0..WIDTH as u8).map(|column| self.cell(column, row).map_or(".", Player::as_str)).collect())
            .collect()
    }

    /// The stone in `column` and `row_from_top`, if any (`None` off the
    /// board, too).
    pub fn cell(&self, column: u8, row_from_top: u8) -> Option<Player> {
        let (column, row_from_top) = (u32::from(column), u32::from(row_from_top));
        if column >= WIDTH || row_from_top >= HEIGHT {
            return None;
        }
        let cell_bit = bit(column, HEIGHT - 1 - row_from_top);
        if self.x & cell_bit != 0 {
            Some(Player::X)
        } else if self.o & cell_bit != 0 {
            Some(Player::O)
        } else {
            None
        }
    }

    /// The state the searches play through.
    pub fn game(&self) -> Connect4 {
        let current = if self.to_move() == Player::X { self.x } else { self.o };
        Connect4::from_bitboards(current, self.x | self.o)
    }

    /// The stones in `column` (at most [`HEIGHT`]).
    fn height(&self, column: u8) -> u32 {
        ((self.x | self.o) >> (STRIDE * u32::from(column)) & COLUMN).count_ones()
    }

    /// The side to move's stone dropped in `column`, which is not full.
    fn drop_stone(&self, column: u8) -> Position {
        let stone = bit(u32::from(column), self.height(column));
        match self.to_move() {
            Player::X => Position { x: self.x | stone, o: self.o },
            Player::O => Position { x: self.x, o: self.o | stone },
        }
    }
}

impl fmt::Display for Position {
    /// The rows, top first, joined by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rows().join("/"))
    }
}

/// Plays a sequence of moves from the empty board, stopping at the first
/// one that cannot be played.
fn replay(
    moves: impl Iterator<Item = Result<u8, Connect4Error>>,
    notation: Notation,
) -> Result<Position, Connect4Error> {
    let mut position = Position::EMPTY;
    for (i, column) in moves.enumerate() {
        let field = format!("moves[{i}]");
        // Only a move made the game end, so i >= 1 here.
        let previous = i.saturating_sub(1);
        match position.status() {
            Status::InProgress => {}
            Status::Won(player, line) => {
                return Err(invalid(
                    field,
                    format!(
                        "the game is over: {player} made four in a row ({}) with moves[{previous}]",
                        line.map(cell_path).join(", ")
                    ),
                ))
            }
            Status::Draw => {
                return Err(invalid(field, format!("the game is over: moves[{previous}] filled the board, a draw")))
            }
        }
        let column = column?;
        if u32::from(column) >= WIDTH {
            return Err(out_of_range(i, column.into()));
        }
        if position.height(column) == HEIGHT {
            let message = match notation {
                Notation::Columns => format!("column {column} is full: it already holds {HEIGHT} stones"),
                Notation::Digits => format!(
                    "character '{}' names column {} (counting from 1), which is full: it already holds {HEIGHT} stones",
                    column + 1,
                    column + 1
                ),
            };
            return Err(invalid(field, message));
        }
        position = position.drop_stone(column);
    }
    Ok(position)
}

fn out_of_range(i: usize, column: i128) -> Connect4Error {
    invalid(
        format!("moves[{i}]"),
        format!("column {column} is out of range: columns are numbered 0 to 6 (in a move string, 1 to 7)"),
    )
}

/// One move of a JSON array: a column number 0 to 6.
fn column_from_json(i: usize, item: &serde_json::Value) -> Result<u8, Connect4Error> {
    if let Some(column) = item.as_u64() {
        return u8::try_from(column)
            .ok()
            .filter(|&c| u32::from(c) < WIDTH)
            .ok_or_else(|| out_of_range(i, column.into()));
    }
    if let Some(column) = item.as_i64() {
        return Err(out_of_range(i, column.into()));
    }
    let hint = if item.is_string() { " (digits 1 to 7 go in one string, as in \"4453\")" } else { "" };
    Err(invalid(
        format!("moves[{i}]"),
        format!(
            "{} is not a column: a move in an array is a column number from 0 to 6{hint}",
            shorten(&item.to_string())
        ),
    ))
}

/// One row of a board: a 7-character string or an array of 7 cells.
fn row_cells(r: usize, row: &serde_json::Value) -> Result<Vec<Option<Player>>, Connect4Error> {
    use serde_json::Value;
    let width = WIDTH as usize;
    match row {
        Value::String(text) => {
            let length = text.chars().count();
            if length != width {
                return Err(invalid(
                    format!("board[{r}]"),
                    format!("a row string has 7 characters, one per column; this one has {length}"),
                ));
            }
            text.chars()
                .enumerate()
                .map(|(c, symbol)| {
                    cell_from_char(symbol).map_err(|()| {
                        invalid(
                            format!("board[{r}][{c}]"),
                            format!(
                                "{symbol:?} is not a cell: use X, O, or one of \".\", \" \", \"-\", \"_\" for an empty cell"
                            ),
                        )
                    })
                })
                .collect()
        }
        Value::Array(cells) => {
            if cells.len() != width {
                return Err(invalid(
                    format!("board[{r}]"),
                    format!("a row has 7 cells, one per column; this one has {}", cells.len()),
                ));
            }
            cells
                .iter()
                .enumerate()
                .map(|(c, cell)| cell_from_json(cell).map_err(|message| invalid(format!("board[{r}][{c}]"), message)))
                .collect()
        }
        other => Err(invalid(
            format!("board[{r}]"),
            format!("a row is a 7-character string or an array of 7 cells, not {}", json_kind(other)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    /// A 42-move game in which nobody makes four: it ends in a draw.
    const DRAWN_GAME: &str = "656173566152215676422337377473141445425321";

    fn board(rows: [&str; 6]) -> Result<Position, Connect4Error> {
        Position::from_json_board(&json!(rows))
    }

    fn field_and_message(error: Connect4Error) -> (String, String) {
        match error {
            Connect4Error::Invalid { field, message } | Connect4Error::Impossible { field, message } => {
                (field, message)
            }
        }
    }

    /// The message of an `Impossible` error, or a panic saying what came
    /// instead.
    fn impossible_message(result: Result<Position, Connect4Error>) -> String {
        match result {
            Err(Connect4Error::Impossible { field, message }) => {
                assert_eq!(field, "board");
                message
            }
            other => panic!("expected an impossible position, got {other:?}"),
        }
    }

    fn invalid_at(result: Result<Position, Connect4Error>) -> (String, String) {
        match result {
            Err(error @ Connect4Error::Invalid { .. }) => field_and_message(error),
            other => panic!("expected an invalid input, got {other:?}"),
        }
    }

    #[test]
    fn the_notation_and_column_numbers_describe_the_same_game() {
        let position = Position::from_notation("4453").unwrap();
        assert_eq!(position, Position::from_columns(&[3, 3, 4, 2]).unwrap());
        assert_eq!(position, Position::from_json_moves(&json!([3, 3, 4, 2])).unwrap());
        assert_eq!(position, Position::from_json_moves(&json!("4453")).unwrap());
        assert_eq!(position.rows(), [".......", ".......", ".......", ".......", "...O...", "..OXX.."]);
        assert_eq!(position.to_string(), "......./......./......./......./...O.../..OXX..");
        assert_eq!(position.stones(), 4);
        assert_eq!(position.to_move(), Player::X);
        assert_eq!(position.cell(3, 5), Some(Player::X));
        assert_eq!(position.cell(3, 4), Some(Player::O));
        assert_eq!(position.cell(3, 3), None);
        assert_eq!(position.cell(7, 5), None);
        assert_eq!(position.cell(0, 6), None);
        assert_eq!(position.status(), Status::InProgress);
    }

    #[test]
    fn the_empty_board_lets_x_play_any_column() {
        for empty in [Position::EMPTY, Position::from_notation("").unwrap(), Position::from_columns(&[]).unwrap()] {
            assert_eq!(empty, Position::EMPTY);
            assert_eq!(empty.to_move(), Player::X);
            assert_eq!(empty.legal_moves(), [0, 1, 2, 3, 4, 5, 6]);
        }
        assert_eq!(Position::EMPTY.play(3).unwrap().to_move(), Player::O);
        assert_eq!(Position::EMPTY.play(7), None);
    }

    #[test]
    fn a_move_into_a_full_column_names_the_move_and_the_column() {
        let (field, message) = invalid_at(Position::from_columns(&[2; 7]));
        assert_eq!(field, "moves[6]");
        assert_eq!(message, "column 2 is full: it already holds 6 stones");
        let (field, message) = invalid_at(Position::from_notation("3333333"));
        assert_eq!(field, "moves[6]");
        assert!(message.contains("column 3 (counting from 1), which is full"), "{message}");
        let full = Position::from_columns(&[2; 6]).unwrap();
        assert_eq!(full.play(2), None);
        assert_eq!(full.legal_moves(), [0, 1, 3, 4, 5, 6]);
    }

    #[test]
    fn a_column_out_of_range_names_the_move() {
        let (field, message) = invalid_at(Position::from_columns(&[3, 7]));
        assert_eq!(
            (field.as_str(), message.as_str()),
            ("moves[1]", "column 7 is out of range: columns are numbered 0 to 6 (in a move string, 1 to 7)")
        );
        for (moves, field, shown) in [
            (json!([3, -1]), "moves[1]", "column -1 is out of range"),
            (json!([3, 3, 300]), "moves[2]", "column 300 is out of range"),
            (json!([3, 2.5]), "moves[1]", "2.5 is not a column"),
            (json!([3.0]), "moves[0]", "3.0 is not a column"),
            (json!(["4"]), "moves[0]", "digits 1 to 7 go in one string"),
            (json!([null]), "moves[0]", "null is not a column"),
        ] {
            let (got_field, message) = invalid_at(Position::from_json_moves(&moves));
            assert_eq!(got_field, field, "{moves}");
            assert!(message.contains(shown), "{moves}: {message}");
        }
    }

    #[test]
    fn a_character_that_is_not_a_digit_from_1_to_7_names_its_place() {
        for (digits, field, shown) in [
            ("0", "moves[0]", "'0'"),
            ("448", "moves[2]", "'8'"),
            ("4 5", "moves[1]", "' '"),
            ("44é", "moves[2]", "'é'"),
        ] {
            let (got_field, message) = invalid_at(Position::from_notation(digits));
            assert_eq!(got_field, field, "{digits}");
            assert!(message.contains(&format!("character {shown} is not a column")), "{digits}: {message}");
        }
    }

    #[test]
    fn moves_of_another_type_are_refused_as_a_whole() {
        for moves in [json!(4453), json!({"moves": "4453"}), json!(true)] {
            let (field, message) = invalid_at(Position::from_json_moves(&moves));
            assert_eq!(field, "moves");
            assert!(message.starts_with("moves is a string of digits 1 to 7"), "{message}");
        }
    }

    #[test]
    fn a_move_after_a_four_is_refused_and_the_four_is_the_status() {
        let won = Position::from_notation("1212121").unwrap();
        // Column 0, rows 0 to 3 from the bottom: rows 5 to 2 from the top.
        assert_eq!(won.status(), Status::Won(Player::X, [14, 21, 28, 35]));
        assert_eq!(won.status().as_str(), "x_won");
        assert!(won.legal_moves().is_empty());
        assert_eq!(won.play(3), None);
        let (field, message) = invalid_at(Position::from_notation("12121212"));
        assert_eq!(field, "moves[7]");
        assert_eq!(
            message,
            "the game is over: X made four in a row (board[2][0], board[3][0], board[4][0], board[5][0]) with moves[6]"
        );
        // The game-over check comes before the move itself is read.
        assert_eq!(invalid_at(Position::from_notation("1212121x")).0, "moves[7]");
    }

    #[test]
    fn a_full_board_without_four_is_a_draw_and_nothing_follows_it() {
        let drawn = Position::from_notation(DRAWN_GAME).unwrap();
        assert_eq!(drawn.stones(), 42);
        assert_eq!(drawn.status(), Status::Draw);
        assert!(drawn.legal_moves().is_empty());
        let (field, message) = invalid_at(Position::from_notation(&format!("{DRAWN_GAME}1")));
        assert_eq!(field, "moves[42]");
        assert_eq!(message, "the game is over: moves[41] filled the board, a draw");
        // The same board, sent as rows, is valid too.
        let rows = drawn.rows();
        assert_eq!(Position::from_json_board(&json!(rows)).unwrap(), drawn);
    }

    #[test]
    fn boards_read_every_cell_spelling_and_both_row_forms() {
        let position = Position::from_json_board(&json!([
            ".......",
            "       ",
            "-------",
            "_______",
            [null, "", ".", "o", " ", "-", "_"],
            "..oXx.."
        ]))
        .unwrap();
        assert_eq!(position, Position::from_notation("4453").unwrap());
    }

    #[test]
    fn badly_shaped_boards_name_the_part_at_fault() {
        let cases = [
            (json!("XO..X...."), "board", "6 rows of 7 cells"),
            (json!([".......", "......."]), "board", "this one has 2 rows"),
            (json!(["......", ".......", ".......", ".......", ".......", "......."]), "board[0]", "this one has 6"),
            (json!([".......", ".......", ".......", ".......", ".......", ["X"]]), "board[5]", "this one has 1"),
            (json!([".......", ".......", 7, ".......", ".......", "......."]), "board[2]", "not a number"),
            (
                json!([".......", ".......", ".......", ".......", ".......", "...Z..."]),
                "board[5][3]",
                "'Z' is not a cell",
            ),
            (
                json!([".......", ".......", ".......", ".......", ".......", [".", ".", ".", 1, ".", ".", "."]]),
                "board[5][3]",
                "1 is not a cell",
            ),
        ];
        for (value, field, shown) in cases {
            let (got_field, message) = invalid_at(Position::from_json_board(&value));
            assert_eq!(got_field, field, "{value}");
            assert!(message.contains(shown), "{value}: {message}");
        }
    }

    #[test]
    fn a_floating_stone_is_named_with_the_empty_cell_below_it() {
        let (field, message) = invalid_at(board([".......", ".......", "...X...", ".......", "...O...", "..OXX.."]));
        assert_eq!(field, "board[2][3]");
        assert_eq!(
            message,
            "a stone cannot float above an empty cell: board[3][3] below it is empty, and a stone falls to the lowest empty cell of its column"
        );
        // Every stone in an otherwise empty column but the bottom one floats.
        let (field, _) = invalid_at(board([".......", ".......", ".......", ".......", "O......", "......."]));
        assert_eq!(field, "board[4][0]");
    }

    #[test]
    fn stone_counts_no_game_produces_are_impossible() {
        let message = impossible_message(board([".......", ".......", ".......", ".......", ".......", "XX....."]));
        assert_eq!(
            message,
            "X has 2 stones and O has 0 stones: X moves first and the players alternate, so X has as many stones as O or one more"
        );
        assert!(impossible_message(board([".......", ".......", ".......", ".......", ".......", "O......"]))
            .starts_with("X has 0 stones and O has 1 stone:"));
    }

    #[test]
    fn both_sides_with_four_is_impossible() {
        let message = impossible_message(board([".......", ".......", "X.....O", "X.....O", "X.....O", "X.....O"]));
        assert!(message.starts_with("X and O both have four in a row"), "{message}");
    }

    #[test]
    fn a_four_of_the_side_that_did_not_move_last_is_impossible() {
        // X has four across the bottom, but the counts say O moved last.
        let message = impossible_message(board([".......", ".......", ".......", ".......", "OOO....", "XXXXO.."]));
        assert_eq!(
            message,
            "X has four in a row (board[5][0], board[5][1], board[5][2], board[5][3]), but O moved after it (4 X and 4 O stones): the game ends at the first four in a row"
        );
        let message = impossible_message(board([".......", ".......", "O......", "OX.....", "OX.....", "OXXX..."]));
        assert!(message.starts_with("O has four in a row"), "{message}");
        assert!(message.contains("but X moved after it"), "{message}");
    }

    #[test]
    fn a_four_completed_by_the_last_move_is_a_finished_game() {
        let won = board([".......", ".......", ".......", ".......", "OOO....", "XXXX..."]).unwrap();
        assert_eq!(won, Position::from_notation("1122334").unwrap());
        assert_eq!(won.status(), Status::Won(Player::X, [35, 36, 37, 38]));
        assert!(won.legal_moves().is_empty());
        let won = board([".......", ".......", "O......", "OX.....", "OX.....", "OXX...."]).unwrap();
        assert_eq!(won, Position::from_notation("21213121").unwrap());
        assert_eq!(won.status(), Status::Won(Player::O, [14, 21, 28, 35]));
    }

    #[test]
    fn two_fours_of_the_winner_that_share_no_stone_are_impossible() {
        // Two columns of four X: no one move completes both.
        let message = impossible_message(board([".......", ".......", "X.....X", "XOO...X", "XOOO..X", "XOOXO.X"]));
        assert!(message.starts_with("X has fours in a row that share no stone"), "{message}");
    }

    #[test]
    fn a_four_whose_stones_all_have_a_stone_above_them_is_impossible() {
        // X's four across the bottom lies under other stones: play went on
        // after it, and neither of X's uncovered stones is part of it.
        let message = impossible_message(board([".......", ".......", ".......", ".......", "OOXO...", "XXXXOOX"]));
        assert!(message.starts_with("X's four in a row (board[5][0], board[5][1], board[5][2], board[5][3]) was complete before the last move"), "{message}");
        // A column of four X with an O on top.
        let message = impossible_message(board([".......", "O......", "X......", "X......", "XOO....", "XOOX..X"]));
        assert!(message.contains("each of its stones has a stone above it"), "{message}");
    }

    #[test]
    fn five_in_a_row_is_finished_when_the_last_stone_lies_on_both_fours() {
        // The middle stone is on top of its column: it completed both fours.
        let five = board([".......", ".......", ".......", ".......", "OO.OO..", "XXXXX.."]).unwrap();
        assert!(matches!(five.status(), Status::Won(Player::X, _)));
        // The stones both fours share are all covered.
        let message = impossible_message(board([".......", ".......", ".......", ".......", ".OOO...", "XXXXX.O"]));
        assert!(message.starts_with("X's fours in a row"), "{message}");
        assert!(message.contains("every stone they share has a stone above it"), "{message}");
    }

    #[test]
    fn fours_crossing_at_the_last_stone_are_a_finished_game() {
        // Up column 3 and across row 3 from the bottom, meeting at the top
        // of column 3.
        let crossing = board([".......", ".......", "XXXX...", "OOOX...", "OOOX...", "XOXXO.."]).unwrap();
        assert_eq!(crossing.status(), Status::Won(Player::X, [14, 15, 16, 17]));
        assert!(crossing.legal_moves().is_empty());
    }

    #[test]
    fn a_board_no_order_of_moves_stacks_is_impossible() {
        // Both columns have O at the bottom: X's first stone has nowhere to be.
        let message = impossible_message(board([".......", ".......", ".......", ".......", "XX.....", "OO....."]));
        assert_eq!(
            message,
            "no game produces this board: X's first move lands on the bottom row, but every stone there is O"
        );
        // After X's stone in column 0 and O's first in column 1, X has no
        // stone left to play next: column 1 goes on with another O.
        let message = impossible_message(board([".......", ".......", ".......", ".X.....", ".O.....", "XO....."]));
        assert_eq!(
            message,
            "no game produces this board: no order of moves, X first and the players alternating, stacks its columns as they stand"
        );
    }

    #[test]
    fn an_order_no_window_rules_out_is_still_searched_for() {
        // Every stone fits a window of its own, yet no order stacks the
        // columns: only the search finds that out.
        let rows = ["XO.X..X", "XXOO..O", "XOXX..X", "OXOOX.O", "OOXXOXX", "OXOOXOO"];
        let (mut x, mut o) = (0, 0);
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.chars().enumerate() {
                let cell_bit = bit(c as u32, 5 - r as u32);
                match cell {
                    'X' => x |= cell_bit,
                    'O' => o |= cell_bit,
                    _ => {}
                }
            }
        }
        let (heights, earliest) = reachable::columns_of(x, o);
        assert!(reachable::windows_fit(x, &earliest, &heights, (x | o).count_ones()));
        assert!(!some_game_reaches(Position { x, o }));
        let message = impossible_message(board(rows));
        assert!(message.starts_with("no game produces this board: no order of moves"), "{message}");
    }

    /// Whether some game ends exactly at `target`, found independently of
    /// the validation: forwards from the empty board, through `play`, trying
    /// only moves that put a stone where `target` has one of that colour.
    fn some_game_reaches(target: Position) -> bool {
        fn search(position: Position, target: Position, seen: &mut HashSet<Position>) -> bool {
            if position == target {
                return true;
            }
            if !seen.insert(position) {
                return false;
            }
            let wanted = if position.to_move() == Player::X { target.x } else { target.o };
            position.legal_moves().into_iter().any(|column| {
                let child = position.play(column).expect("a legal move");
                let stone = (child.x | child.o) & !(position.x | position.o);
                stone & wanted != 0 && search(child, target, seen)
            })
        }
        search(Position::EMPTY, target, &mut HashSet::new())
    }

    /// The board of `position` with the colours of some stones swapped.
    fn swapped(position: Position, swaps: usize, rng: &mut fastrand::Rng) -> Position {
        let Position { mut x, mut o } = position;
        for _ in 0..swaps {
            if x == 0 || o == 0 {
                break;
            }
            let pick = |stones: u64, rng: &mut fastrand::Rng| {
                let nth = rng.u32(..stones.count_ones());
                (0..u64::BITS).filter(|&i| stones >> i & 1 != 0).nth(nth as usize).map_or(0, |i| 1 << i)
            };
            let (from_x, from_o) = (pick(x, rng), pick(o, rng));
            x = x & !from_x | from_o;
            o = o & !from_o | from_x;
        }
        // Not a validated position: only its rows are used.
        Position { x, o }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// Every position a game reaches reads back from its rows.
        #[test]
        fn every_reached_position_is_a_valid_board(columns in prop::collection::vec(0u8..7, 0..60)) {
            let mut position = Position::EMPTY;
            for column in columns {
                if let Some(next) = position.play(column) {
                    position = next;
                }
                let read = Position::from_json_board(&json!(position.rows()));
                prop_assert_eq!(read, Ok(position));
            }
        }

        /// Random sequences either replay move by move or fail at the first
        /// move `play` refuses.
        #[test]
        fn a_sequence_fails_exactly_at_the_first_move_that_cannot_be_played(columns in prop::collection::vec(0u8..9, 0..50)) {
            let mut position = Position::EMPTY;
            let mut refused = None;
            for (i, &column) in columns.iter().enumerate() {
                match position.play(column) {
                    Some(next) => position = next,
                    None => {
                        refused = Some(i);
                        break;
                    }
                }
            }
            match (Position::from_columns(&columns), refused) {
                (Ok(replayed), None) => prop_assert_eq!(replayed, position),
                (Err(Connect4Error::Invalid { field, .. }), Some(i)) => prop_assert_eq!(field, format!("moves[{i}]")),
                (other, refused) => prop_assert!(false, "{other:?}, yet play refused move {refused:?}"),
            }
        }
    }

    /// Boards of stones resting on one another, sparse or nearly full,
    /// reached by a game or with some colours swapped: accepted exactly when
    /// some game reaches them.
    #[test]
    fn boards_are_accepted_exactly_when_some_game_reaches_them() {
        let mut rng = fastrand::Rng::with_seed(7);
        let (mut accepted, mut refused) = (0, 0);
        let mut reasons = std::collections::BTreeMap::new();
        for _ in 0..3_000 {
            let mut position = Position::EMPTY;
            // Few columns stack high: more fours, more orders that fail.
            let mut columns = [0, 1, 2, 3, 4, 5, 6];
            rng.shuffle(&mut columns);
            let columns = &columns[..rng.usize(1..=7)];
            for _ in 0..rng.usize(0..=42) {
                if let Some(next) = position.play(columns[rng.usize(..columns.len())]) {
                    position = next;
                }
            }
            let candidate = swapped(position, rng.usize(0..=3), &mut rng);
            let result = Position::from_json_board(&json!(candidate.rows()));
            match &result {
                Ok(read) => {
                    accepted += 1;
                    assert_eq!(*read, candidate);
                    assert!(some_game_reaches(candidate), "accepted {candidate}, which no game reaches");
                }
                Err(Connect4Error::Impossible { message, .. }) => {
                    refused += 1;
                    let reason = message.split([':', '(']).next().unwrap_or_default().replace(['O', '2'], "X");
                    *reasons.entry(reason).or_insert(0) += 1;
                    assert!(!some_game_reaches(candidate), "refused {candidate}, which a game reaches: {message}");
                }
                Err(error) => panic!("{candidate}: stones resting on stones are a well-formed board: {error}"),
            }
        }
        // Each rule refused some boards, and each answer was common enough
        // for the comparison to mean something.
        assert!(accepted > 500 && refused > 500, "{accepted} accepted, {refused} refused: {reasons:#?}");
        assert!(reasons.len() >= 5, "{reasons:#?}");
    }

    #[test]
    fn the_lines_are_the_69_fours_and_the_shift_test_agrees_with_them() {
        assert_eq!(LINES.iter().collect::<HashSet<_>>().len(), 69);
        for line in LINES {
            assert_eq!(line.count_ones(), 4);
            assert_eq!(line & !(BOTTOM * COLUMN), 0, "{line:b} leaves the board");
        }
        let mut rng = fastrand::Rng::with_seed(1);
        for _ in 0..20_000 {
            let stones = rng.u64(..) & (BOTTOM * COLUMN) & rng.u64(..);
            assert_eq!(has_four(stones), fours(stones).next().is_some(), "{stones:b}");
        }
    }
}
