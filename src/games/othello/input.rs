//! Validated Othello positions, read from move sequences or boards, and
//! the names of squares.
//!
//! A move sequence is replayed from the start: each move must name a
//! square, be legal for the side whose turn it is, and not follow the end
//! of the game; a side with no legal move passes without a word (a pass
//! may also be written `"pass"` in an array). A board is read square by
//! square, in `.obf` order (a1, b1, ..., h1, a2, ..., h8) or as 8 rows of
//! 8, row 1 first; it must have its four centre squares occupied (every
//! game starts with them, and discs are never removed), and comes with the
//! side to move. Whatever passes is a [`Position`].

use std::fmt;

use super::game::{Moves, Othello};
use super::rules::{final_score, flips, legal_moves};
use super::{PASS, SQUARES};
use crate::games::board::{cell_from_char, cell_from_json, json_kind, Player};
use crate::suggest::shorten;

/// The four centre squares: d4, e4, d5, e5.
const CENTRE: [u8; 4] = [27, 28, 35, 36];

/// What a position was refused for: one code per kind of mistake, for the
/// api's error body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A move that is not a square name (`"z9"`, `"f"`, a number).
    MalformedMove,
    /// A square (or a pass) that the side to move may not play.
    IllegalMove,
    /// A move after the end of the game.
    GameOver,
    /// A board that is not 64 squares, in one string or 8 rows of 8.
    BoardShape,
    /// A board square that is not a disc or an empty square.
    MalformedSquare,
    /// A board with an empty centre square.
    EmptyCentre,
    /// A board without a side to move.
    MissingSideToMove,
    /// A side to move that is not black or white.
    MalformedSideToMove,
}

impl ErrorKind {
    /// The kind as the api names it.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::MalformedMove => "malformed_move",
            ErrorKind::IllegalMove => "illegal_move",
            ErrorKind::GameOver => "game_over",
            ErrorKind::BoardShape => "board_shape",
            ErrorKind::MalformedSquare => "malformed_square",
            ErrorKind::EmptyCentre => "empty_centre",
            ErrorKind::MissingSideToMove => "missing_side_to_move",
            ErrorKind::MalformedSideToMove => "malformed_side_to_move",
        }
    }
}

/// What is wrong with a position a caller sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OthelloError {
    /// The kind of mistake.
    pub kind: ErrorKind,
    /// The path of the offending part of the request: `moves[3]`,
    /// `board[2][5]`, `board`, `to_move`.
    pub field: String,
    /// What is wrong, for a person.
    pub message: String,
}

impl fmt::Display for OthelloError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for OthelloError {}

fn error(kind: ErrorKind, field: impl Into<String>, message: impl Into<String>) -> OthelloError {
    OthelloError { kind, field: field.into(), message: message.into() }
}

/// What `moves` holds, for error messages.
pub const MOVES_SHAPE: &str = "moves is a string of square names, black first, passes left out (\"f5d6c3d3c4\"), or an array of square names ([\"f5\", \"d6\"]), columns a to h and rows 1 to 8 in either case";

/// What `board` holds, for error messages.
pub const BOARD_SHAPE: &str = "an Othello board is 64 squares in .obf order (a1, b1, ..., h1, a2, ..., h8), as one string or as 8 rows of 8 (strings or arrays), each square X (black), O (white) or empty (\".\", \"-\", \"_\" or \" \")";

/// The name of a square, column letter then row digit (`"c4"` for 26);
/// `"pass"` for [`PASS`], `"?"` for anything else.
pub fn move_name(mv: u8) -> String {
    match mv {
        PASS => "pass".to_string(),
        _ => square_name(mv).unwrap_or_else(|| "?".to_string()),
    }
}

/// The name of a square (`"c4"` for 26), or `None` for a number past 63.
pub fn square_name(square: u8) -> Option<String> {
    (u32::from(square) < SQUARES).then(|| {
        let column = (b'a' + square % 8) as char;
        let row = (b'1' + square / 8) as char;
        format!("{column}{row}")
    })
}

/// The square a name stands for: a column `a`-`h` and a row `1`-`8`, in
/// either case (`"C4"` is 26). `None` for anything else.
pub fn parse_square(name: &str) -> Option<u8> {
    match name.as_bytes() {
        &[column, row] => {
            let column = column.to_ascii_lowercase();
            ((b'a'..=b'h').contains(&column) && (b'1'..=b'8').contains(&row))
                .then(|| (row - b'1') * 8 + (column - b'a'))
        }
        _ => None,
    }
}

/// The side to move from its name: `X`, `B` or `black` for black, `O`, `W`
/// or `white` for white, in any case. An error names `to_move`.
pub fn parse_side(text: &str) -> Result<Player, OthelloError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "x" | "b" | "black" => Ok(Player::X),
        "o" | "w" | "white" => Ok(Player::O),
        "" => {
            Err(error(ErrorKind::MissingSideToMove, "to_move", "the side to move is missing: X (black) or O (white)"))
        }
        _ => Err(error(
            ErrorKind::MalformedSideToMove,
            "to_move",
            format!("{:?} is not a side: X (black) or O (white)", shorten(text)),
        )),
    }
}

/// A list of squares for a message: `"c4, d3, e6"`, or `"none"`.
fn square_list(squares: u64) -> String {
    if squares == 0 {
        return "none".to_string();
    }
    Moves::new(squares, false).map(move_name).collect::<Vec<_>>().join(", ")
}

/// The player's colour in words.
fn colour(player: Player) -> &'static str {
    match player {
        Player::X => "black (X)",
        Player::O => "white (O)",
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A side can move (or must pass while the other can move).
    InProgress,
    /// Neither side can move, and this player has more discs.
    Won(Player),
    /// Neither side can move, and the discs are even.
    Draw,
}

impl Status {
    /// The status as the api names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::InProgress => "in_progress",
            Status::Won(Player::X) => "x_won",
            Status::Won(Player::O) => "o_won",
            Status::Draw => "draw",
        }
    }
}

/// An Othello position: the discs of both colours and the side to move.
///
/// The only ways to get one are the constructors below, which refuse
/// malformed input, and [`Position::play`]. A side to move that has no
/// legal move while the game goes on must pass: its only move is
/// [`PASS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    black: u64,
    white: u64,
    to_move: Player,
}

impl Position {
    /// The start of a game: d5 and e4 black, d4 and e5 white, black to move.
    pub const START: Position = Position { black: 1 << 28 | 1 << 35, white: 1 << 27 | 1 << 36, to_move: Player::X };

    /// The position after a game in the usual notation: square names one
    /// after the other, black first, passes left out (`"f5d6c3d3c4"`),
    /// spaces or commas between moves allowed. An error names the move as
    /// `moves[i]`, `i` counting moves from 0.
    pub fn from_notation(moves: &str) -> Result<Position, OthelloError> {
        replay(notation_squares(moves)?.into_iter().map(Ok), &mut |_, _, _| {})
    }

    /// Every move of a game given as in [`Position::from_json_moves`] (but
    /// played from `start`), with
    /// its index in the list and the position it was played in. A pass
    /// written in an array is left out, and so is a pass a side had to
    /// make without one written: the move after it is the other side's.
    pub fn game_from_json_moves(
        start: Position,
        value: &serde_json::Value,
    ) -> Result<Vec<(usize, u8, Position)>, OthelloError> {
        use serde_json::Value;
        let mut moves = Vec::new();
        let mut visit = |i: usize, mv: u8, before: &Position| {
            if mv != PASS {
                moves.push((i, mv, *before));
            }
        };
        match value {
            Value::String(text) => replay_from(start, notation_squares(text)?.into_iter().map(Ok), &mut visit)?,
            Value::Array(items) => {
                replay_from(start, items.iter().enumerate().map(|(i, item)| array_move(i, item)), &mut visit)?
            }
            other => {
                return Err(error(
                    ErrorKind::MalformedMove,
                    "moves",
                    format!("{MOVES_SHAPE}, not {}", json_kind(other)),
                ))
            }
        };
        Ok(moves)
    }
}

/// The squares of a game written in the usual notation (see
/// [`Position::from_notation`]).
fn notation_squares(moves: &str) -> Result<Vec<u8>, OthelloError> {
    let separator = |c: char| c.is_whitespace() || c == ',';
    let mut names = Vec::new();
    // Positions are counted in characters, not bytes.
    let mut chars = moves.chars().enumerate().filter(|&(_, c)| !separator(c)).peekable();
    while let Some((at, first)) = chars.next() {
        let i = names.len();
        // A square's two characters are written together.
        let second = moves.chars().nth(at + 1).filter(|&c| !separator(c));
        let Some(second) = second else {
            let why = if chars.peek().is_none() { "the string ends in the middle of a move: " } else { "" };
            return Err(error(
                    ErrorKind::MalformedMove,
                    format!("moves[{i}]"),
                    format!("{why}{first:?} at character {at} is a column without a row (a move is a column a-h and a row 1-8 written together, as in f5)"),
                ));
        };
        chars.next();
        let name: String = [first, second].iter().collect();
        match parse_square(&name) {
            Some(square) => names.push(square),
            None => {
                return Err(error(
                    ErrorKind::MalformedMove,
                    format!("moves[{i}]"),
                    format!(
                        "{name:?} at character {at} is not a square: a move is a column a-h and a row 1-8, as in f5"
                    ),
                ))
            }
        }
    }
    Ok(names)
}

impl Position {
    /// The position after a game given as square names (`["f5", "d6"]`),
    /// black first; a pass may be written `"pass"` or left out. An error
    /// names the move as `moves[i]`.
    pub fn from_square_names<S: AsRef<str>>(names: &[S]) -> Result<Position, OthelloError> {
        replay(names.iter().enumerate().map(|(i, name)| move_from_name(i, name.as_ref())), &mut |_, _, _| {})
    }

    /// Reads `moves` from JSON: a string in the usual notation
    /// (`"f5d6c3"`) or an array of square names (`["f5", "d6", "c3"]`).
    pub fn from_json_moves(value: &serde_json::Value) -> Result<Position, OthelloError> {
        use serde_json::Value;
        match value {
            Value::String(moves) => Position::from_notation(moves),
            Value::Array(items) => {
                replay(items.iter().enumerate().map(|(i, item)| array_move(i, item)), &mut |_, _, _| {})
            }
            other => Err(error(ErrorKind::MalformedMove, "moves", format!("{MOVES_SHAPE}, not {}", json_kind(other)))),
        }
    }

    /// A board in one string, with the side to move: 64 squares in `.obf`
    /// order, or 8 rows of 8 separated by `/` or line breaks, row 1 first.
    /// Squares are `X` (black), `O` (white), or empty: `.`, `-`, `_` or a
    /// space. `to_move` is required (`None` is an error naming
    /// `to_move`).
    pub fn from_board(board: &str, to_move: Option<Player>) -> Result<Position, OthelloError> {
        let chars: Vec<char> = board.chars().collect();
        let rows: Vec<&str> = if chars.len() == 64 { Vec::new() } else { board.split(['/', '\n']).collect() };
        let mut cells = [None; 64];
        if chars.len() == 64 {
            for (i, &c) in chars.iter().enumerate() {
                cells[i] = char_cell(c, &format!("board[{i}]"), i)?;
            }
        } else if rows.len() == 8 {
            for (r, row) in rows.iter().enumerate() {
                let row = row.strip_suffix('\r').unwrap_or(row);
                let row_chars: Vec<char> = row.chars().collect();
                if row_chars.len() != 8 {
                    return Err(error(
                        ErrorKind::BoardShape,
                        format!("board[{r}]"),
                        format!("row {} has {} squares; {BOARD_SHAPE}", r + 1, row_chars.len()),
                    ));
                }
                for (c, &symbol) in row_chars.iter().enumerate() {
                    cells[r * 8 + c] = char_cell(symbol, &format!("board[{r}][{c}]"), r * 8 + c)?;
                }
            }
        } else {
            return Err(error(
                ErrorKind::BoardShape,
                "board",
                format!(
                    "a board string has 64 squares, or 8 rows of 8 separated by \"/\" or line breaks; this one has {} characters{}",
                    chars.len(),
                    if rows.len() > 1 { format!(" in {} rows", rows.len()) } else { String::new() }
                ),
            ));
        }
        Position::from_cells(&cells, to_move)
    }

    /// A line of an `.obf` file: 64 squares, a space, the side to move
    /// (`X` or `O`), and anything after a `;` (the scores of the moves)
    /// ignored.
    pub fn from_obf(line: &str) -> Result<Position, OthelloError> {
        let position = line.split(';').next().unwrap_or_default().trim();
        let (board, side) = match position.rsplit_once(char::is_whitespace) {
            Some((board, side)) if board.trim_end().chars().count() == 64 => (board.trim_end(), Some(side)),
            _ => (position, None),
        };
        let to_move = side.map(parse_side).transpose()?;
        Position::from_board(board, to_move)
    }

    /// Reads a board from JSON, with the side to move: a string as
    /// [`Position::from_board`] reads, 8 rows (each a string of 8 squares
    /// or an array of 8 cells), or an array of 64 cells. Cells are `"X"`
    /// and `"O"` in either case; empty is `"."`, `"-"`, `"_"`, `" "`, `""`
    /// or `null`.
    pub fn from_json_board(value: &serde_json::Value, to_move: Option<Player>) -> Result<Position, OthelloError> {
        use serde_json::Value;
        let items = match value {
            Value::String(board) => return Position::from_board(board, to_move),
            Value::Array(items) => items,
            other => {
                return Err(error(ErrorKind::BoardShape, "board", format!("{BOARD_SHAPE}, not {}", json_kind(other))))
            }
        };
        let mut cells = [None; 64];
        match items.len() {
            64 => {
                for (i, item) in items.iter().enumerate() {
                    cells[i] = cell_from_json(item)
                        .map_err(|m| error(ErrorKind::MalformedSquare, format!("board[{i}]"), m))?;
                }
            }
            8 => {
                for (r, row) in items.iter().enumerate() {
                    match row {
                        Value::String(text) => {
                            let row_chars: Vec<char> = text.chars().collect();
                            if row_chars.len() != 8 {
                                return Err(error(
                                    ErrorKind::BoardShape,
                                    format!("board[{r}]"),
                                    format!("a row string has 8 squares, a to h; this one has {}", row_chars.len()),
                                ));
                            }
                            for (c, &symbol) in row_chars.iter().enumerate() {
                                cells[r * 8 + c] = char_cell(symbol, &format!("board[{r}][{c}]"), r * 8 + c)?;
                            }
                        }
                        Value::Array(row_cells) => {
                            if row_cells.len() != 8 {
                                return Err(error(
                                    ErrorKind::BoardShape,
                                    format!("board[{r}]"),
                                    format!("a row has 8 cells, a to h; this one has {}", row_cells.len()),
                                ));
                            }
                            for (c, cell) in row_cells.iter().enumerate() {
                                cells[r * 8 + c] = cell_from_json(cell)
                                    .map_err(|m| error(ErrorKind::MalformedSquare, format!("board[{r}][{c}]"), m))?;
                            }
                        }
                        other => {
                            return Err(error(
                                ErrorKind::BoardShape,
                                format!("board[{r}]"),
                                format!(
                                    "a row is a string of 8 squares or an array of 8 cells, not {}",
                                    json_kind(other)
                                ),
                            ))
                        }
                    }
                }
            }
            n => {
                return Err(error(
                    ErrorKind::BoardShape,
                    "board",
                    format!("a board array has 8 rows or 64 cells; this one has {n} items"),
                ))
            }
        }
        Position::from_cells(&cells, to_move)
    }

    /// A board from its squares in `.obf` order, with the side to move.
    pub fn from_cells(cells: &[Option<Player>; 64], to_move: Option<Player>) -> Result<Position, OthelloError> {
        let (mut black, mut white) = (0u64, 0u64);
        for (i, cell) in cells.iter().enumerate() {
            match cell {
                Some(Player::X) => black |= 1 << i,
                Some(Player::O) => white |= 1 << i,
                None => {}
            }
        }
        let empty_centre: Vec<String> =
            CENTRE.iter().filter(|&&s| (black | white) >> s & 1 == 0).map(|&s| move_name(s)).collect();
        if !empty_centre.is_empty() {
            let (squares, are) = if empty_centre.len() == 1 { ("square", "is") } else { ("squares", "are") };
            return Err(error(
                ErrorKind::EmptyCentre,
                "board",
                format!(
                    "centre {squares} {} {are} empty: a game starts with discs on d4, e4, d5 and e5, and discs are never removed",
                    empty_centre.join(", ")
                ),
            ));
        }
        let Some(to_move) = to_move else {
            return Err(error(
                ErrorKind::MissingSideToMove,
                "to_move",
                "a board needs the side to move: X (black) or O (white)",
            ));
        };
        Ok(Position { black, white, to_move })
    }

    /// The side to move (who must pass when it has no legal move).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Black's and white's discs, as bitboards (bit `i` is square `i`).
    pub fn bitboards(&self) -> (u64, u64) {
        (self.black, self.white)
    }

    /// The disc on `square` (0 to 63), if any.
    pub fn cell(&self, square: u8) -> Option<Player> {
        if u32::from(square) >= SQUARES {
            None
        } else if self.black >> square & 1 != 0 {
            Some(Player::X)
        } else if self.white >> square & 1 != 0 {
            Some(Player::O)
        } else {
            None
        }
    }

    /// Black's and white's discs, counted.
    pub fn disc_counts(&self) -> (u32, u32) {
        (self.black.count_ones(), self.white.count_ones())
    }

    /// The empty squares, counted.
    pub fn empties(&self) -> u32 {
        (!(self.black | self.white)).count_ones()
    }

    /// The side to move's discs and the opponent's.
    fn sides(&self) -> (u64, u64) {
        match self.to_move {
            Player::X => (self.black, self.white),
            Player::O => (self.white, self.black),
        }
    }

    /// Where the game stands: over once neither side can move.
    pub fn status(&self) -> Status {
        let (me, op) = self.sides();
        if legal_moves(me, op) != 0 || legal_moves(op, me) != 0 {
            return Status::InProgress;
        }
        match final_score(self.black, self.white) {
            0 => Status::Draw,
            score if score > 0 => Status::Won(Player::X),
            _ => Status::Won(Player::O),
        }
    }

    /// The final score for black, the empty squares counted for the
    /// winner, once the game is over (`None` before).
    pub fn final_score(&self) -> Option<i64> {
        (self.status() != Status::InProgress).then(|| final_score(self.black, self.white))
    }

    /// The legal moves, ascending (a1 first): the squares the side to move
    /// can play, `[PASS]` when it must pass, none once the game is over.
    pub fn legal_moves(&self) -> Vec<u8> {
        let (me, op) = self.sides();
        let squares = legal_moves(me, op);
        Moves::new(squares, squares == 0 && legal_moves(op, me) != 0).collect()
    }

    /// The position after the side to move plays `mv` (a square, or
    /// [`PASS`] when it has no legal square), or `None` if that is not a
    /// legal move.
    pub fn play(&self, mv: u8) -> Option<Position> {
        let (me, op) = self.sides();
        let squares = legal_moves(me, op);
        if mv == PASS {
            return (squares == 0 && legal_moves(op, me) != 0).then_some(self.passed());
        }
        if u32::from(mv) >= SQUARES || squares >> mv & 1 == 0 {
            return None;
        }
        let flipped = flips(me, op, u32::from(mv));
        let (me, op) = (me | flipped | 1 << mv, op ^ flipped);
        Some(match self.to_move {
            Player::X => Position { black: me, white: op, to_move: Player::O },
            Player::O => Position { black: op, white: me, to_move: Player::X },
        })
    }

    /// The same board with the other side to move.
    fn passed(&self) -> Position {
        Position { to_move: self.to_move.other(), ..*self }
    }

    /// The state the searches play through.
    pub fn game(&self) -> Othello {
        let (me, op) = self.sides();
        Othello::from_bitboards(me, op)
    }

    /// The board as 8 strings of 8 squares, `X`, `O` or `.`, row 1 first.
    pub fn rows(&self) -> Vec<String> {
        (0..8u8).map(|r| (0..8u8).map(|c| self.cell(r * 8 + c).map_or(".", Player::as_str)).collect()).collect()
    }

    /// The position as a line of an `.obf` file: 64 squares (`X`, `O`,
    /// `-`), a space and the side to move.
    pub fn to_obf(&self) -> String {
        let squares: String = (0..64u8).map(|s| self.cell(s).map_or("-", Player::as_str)).collect();
        format!("{squares} {}", self.to_move)
    }
}

impl fmt::Display for Position {
    /// The rows, row 1 first, joined by `/`, then the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.rows().join("/"), self.to_move)
    }
}

/// One board character as a square, or an error naming `field`.
fn char_cell(symbol: char, field: &str, square: usize) -> Result<Option<Player>, OthelloError> {
    cell_from_char(symbol).map_err(|()| {
        error(
            ErrorKind::MalformedSquare,
            field,
            format!(
                "{symbol:?} (square {}) is not a square: use X (black), O (white), or one of \".\", \"-\", \"_\", \" \" for an empty square",
                move_name(square as u8)
            ),
        )
    })
}

/// One move of an array: a square name or `"pass"`.
/// The move `item` of an array of square names, at index `i`.
fn array_move(i: usize, item: &serde_json::Value) -> Result<u8, OthelloError> {
    match item {
        serde_json::Value::String(name) => move_from_name(i, name),
        other => Err(error(
            ErrorKind::MalformedMove,
            format!("moves[{i}]"),
            format!(
                "{} is not a square: a move in an array is a square name such as \"f5\", not {}",
                shorten(&other.to_string()),
                json_kind(other)
            ),
        )),
    }
}

fn move_from_name(i: usize, name: &str) -> Result<u8, OthelloError> {
    if name.eq_ignore_ascii_case("pass") {
        return Ok(PASS);
    }
    parse_square(name).ok_or_else(|| {
        error(
            ErrorKind::MalformedMove,
            format!("moves[{i}]"),
            format!(
                "{:?} is not a square: a move is a column a-h and a row 1-8, as in \"f5\", or \"pass\"",
                shorten(name)
            ),
        )
    })
}

/// Plays a sequence of moves from the start, passing for a side that has
/// no legal move, and stopping at the first move that cannot be played;
/// `visit` sees each move (its index, the move, the position it is played
/// in) before it is played.
fn replay(
    moves: impl Iterator<Item = Result<u8, OthelloError>>,
    visit: &mut dyn FnMut(usize, u8, &Position),
) -> Result<Position, OthelloError> {
    replay_from(Position::START, moves, visit)
}

/// [`replay`] from `start`.
fn replay_from(
    start: Position,
    moves: impl Iterator<Item = Result<u8, OthelloError>>,
    visit: &mut dyn FnMut(usize, u8, &Position),
) -> Result<Position, OthelloError> {
    let mut position = start;
    // Plies played, passes included.
    let mut ply = 0;
    for (i, mv) in moves.enumerate() {
        let field = format!("moves[{i}]");
        if position.status() != Status::InProgress {
            let (black, white) = position.disc_counts();
            return Err(error(
                ErrorKind::GameOver,
                field,
                format!(
                    "the game is over after moves[{}]: neither side can move (black {black}, white {white} discs)",
                    i.saturating_sub(1)
                ),
            ));
        }
        let mv = mv?;
        let legal = position.legal_moves();
        if legal == [PASS] && mv != PASS {
            // The side to move has no move: it passes, and the move is the
            // other side's.
            position = position.passed();
            ply += 1;
        }
        let Some(next) = position.play(mv) else {
            let (me, op) = position.sides();
            let squares = legal_moves(me, op);
            let why = match mv {
                PASS => "a side may pass only when it has no legal move".to_string(),
                _ if position.cell(mv).is_some() => format!("{} is occupied", move_name(mv)),
                _ => format!("{} flips no disc", move_name(mv)),
            };
            return Err(error(
                ErrorKind::IllegalMove,
                field,
                format!(
                    "{} is not a legal move for {} at ply {} ({why}); the legal moves are {}",
                    move_name(mv),
                    colour(position.to_move),
                    ply + 1,
                    square_list(squares)
                ),
            ));
        };
        visit(i, mv, &position);
        position = next;
        ply += 1;
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for square in 0..64u8 {
            let name = square_name(square).unwrap();
            assert_eq!(parse_square(&name), Some(square));
            assert_eq!(parse_square(&name.to_uppercase()), Some(square));
        }
        assert_eq!(square_name(26).as_deref(), Some("c4"));
        assert_eq!(move_name(PASS), "pass");
        assert_eq!(square_name(64), None);
        for bad in ["", "a", "a0", "a9", "i1", "c44", "4c", "é1"] {
            assert_eq!(parse_square(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_start_has_black_to_move_with_four_moves() {
        let p = Position::START;
        assert_eq!(p.legal_moves(), vec![19, 26, 37, 44]);
        assert_eq!(p.disc_counts(), (2, 2));
        assert_eq!(p.rows()[3], "...OX...");
        assert_eq!(p.status(), Status::InProgress);
        assert_eq!(Position::from_board(&p.to_obf()[..64], Some(Player::X)), Ok(p));
        assert_eq!(Position::from_obf(&p.to_obf()), Ok(p));
    }
}
