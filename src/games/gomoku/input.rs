//! Validated Gomoku positions, read from a move list or a board.
//!
//! A move list is replayed: each square must be on the board and empty,
//! and none may follow the end of the game. A board is read square by
//! square and held to what a game can produce: X (black) moves first, so
//! X has as many stones as O or one more; at most one side has five in a
//! row, the side that moved last, and all its winning lines share a stone
//! (the last one: play stops at the first five). Whatever passes is a
//! [`Position`].

use serde_json::Value;

use super::rules::{square_name, Board, Rule, MAX_CELLS, MAX_SIZE, MIN_SIZE, STRIDE};
use crate::games::board::{cell_from_char, json_kind, Player};
use crate::suggest::shorten;

/// What a move list looks like, for error messages.
pub const MOVES_SHAPE: &str = "moves is a string of square names, black (X) first, separated by spaces, commas or semicolons or written together (\"h8 i9 j10\", \"h8i9j10\"), or an array of square names ([\"h8\", \"i9\"]): a column letter (a on the left) and a row number (1 at the bottom)";

/// What a board looks like, for error messages.
pub const BOARD_SHAPE: &str = "a Gomoku board is an array of rows, the top row first, each a string of one character a square: X (black), O (white) or \".\" (empty), as many rows as squares in a row (5 to 20)";

/// Why a request's position cannot be read: the field (or path) at
/// fault, the error code of the contract, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GomokuError {
    /// The error code: `invalid_moves`, `invalid_board`,
    /// `impossible_position` or `invalid_option`.
    pub code: &'static str,
    /// The field or path at fault.
    pub field: String,
    /// What is wrong, for a person.
    pub message: String,
}

impl std::fmt::Display for GomokuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for GomokuError {}

fn error(code: &'static str, field: impl Into<String>, message: impl Into<String>) -> GomokuError {
    GomokuError { code, field: field.into(), message: message.into() }
}

/// The standing of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on.
    InProgress,
    /// A player made five.
    Won(Player),
    /// The board is full with no five.
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

/// A Gomoku position that a game can reach: the board, its side to move
/// and the winning line if the game is won.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    board: Board,
    /// The squares of the winning line, ascending, when the game is won.
    line: Option<Vec<usize>>,
}

/// Reads a square's name (`h8`, `H8`) on a board of side `size`: the
/// column letter and the row number; `Err` with what is wrong.
pub fn parse_square(name: &str, size: usize) -> Result<usize, String> {
    let bytes = name.as_bytes();
    let shape =
        || format!("{} is not a square: a column letter and a row number, as h8", shorten(&format!("{name:?}")));
    let (&letter, digits) = bytes.split_first().ok_or_else(shape)?;
    if !letter.is_ascii_alphabetic() || digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit)
    {
        return Err(shape());
    }
    let column = usize::from(letter.to_ascii_lowercase() - b'a');
    let row: usize = std::str::from_utf8(digits).ok().and_then(|d| d.parse().ok()).ok_or_else(shape)?;
    if column >= size || row == 0 || row > size {
        let last = char::from(b'a' + size as u8 - 1);
        return Err(format!("{name} is off the {size}x{size} board: columns a to {last}, rows 1 to {size}"));
    }
    Ok((row - 1) * STRIDE + column)
}

/// The square names in a move string: separated by spaces, commas or
/// semicolons, or written together (a letter, then the row's digits).
pub fn split_moves(text: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|t| !t.is_empty()) {
        let mut chars = token.chars().peekable();
        while let Some(letter) = chars.next() {
            let mut name = String::from(letter);
            while let Some(digit) = chars.next_if(char::is_ascii_digit) {
                name.push(digit);
            }
            if !letter.is_ascii_alphabetic() || name.len() == 1 {
                return Err(format!(
                    "{} is not a list of squares: each is a column letter and a row number, as h8",
                    shorten(&format!("{token:?}"))
                ));
            }
            names.push(name);
        }
    }
    Ok(names)
}

impl Position {
    /// The empty board.
    pub fn new(size: usize, rule: Rule) -> Position {
        Position { board: Board::empty(size, rule), line: None }
    }

    /// The position after the moves named in `names`, X first; `field`
    /// names the place of the move at `i` in an error.
    pub fn from_names(
        names: &[String],
        size: usize,
        rule: Rule,
        field: impl Fn(usize) -> String,
    ) -> Result<Position, GomokuError> {
        let mut position = Position::new(size, rule);
        let mut played: Vec<usize> = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            let cell = parse_square(name, size)
                .map_err(|message| error("invalid_moves", field(i), format!("move {}: {message}", i + 1)))?;
            if let Some(status) = Some(position.status()).filter(|s| *s != Status::InProgress) {
                let why = match status {
                    Status::Won(player) => format!("{player} made five with move {i}"),
                    _ => "the board is full".to_string(),
                };
                return Err(error(
                    "invalid_moves",
                    field(i),
                    format!("move {} ({name}) comes after the end of the game: {why}", i + 1),
                ));
            }
            if let Some(before) = played.iter().position(|&c| c == cell) {
                return Err(error(
                    "invalid_moves",
                    field(i),
                    format!("move {} ({name}) is on an occupied square: move {} took it", i + 1, before + 1),
                ));
            }
            played.push(cell);
            position = position.play(cell).expect("an empty square while the game goes on");
        }
        Ok(position)
    }

    /// The position after the moves of a request's `moves` (a string or
    /// an array of square names).
    pub fn from_json_moves(value: &Value, size: usize, rule: Rule) -> Result<Position, GomokuError> {
        match value {
            Value::String(text) => {
                let names = split_moves(text).map_err(|m| error("invalid_moves", "moves", m))?;
                Position::from_names(&names, size, rule, |_| "moves".to_string())
            }
            Value::Array(items) => {
                let names = items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| match item {
                        Value::String(name) => Ok(name.trim().to_string()),
                        other => Err(error(
                            "invalid_moves",
                            format!("moves[{i}]"),
                            format!("moves[{i}] is {}, not a square name such as \"h8\"", json_kind(other)),
                        )),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Position::from_names(&names, size, rule, |i| format!("moves[{i}]"))
            }
            other => Err(error("invalid_moves", "moves", format!("{MOVES_SHAPE}, not {}", json_kind(other)))),
        }
    }

    /// The position on a request's `board` (rows, the top one first),
    /// of side `size` when the request gives one, with `to_move` to move
    /// (by default the side the stone counts say).
    pub fn from_json_board(
        value: &Value,
        size: Option<usize>,
        rule: Rule,
        to_move: Option<Player>,
    ) -> Result<Position, GomokuError> {
        let rows = value
            .as_array()
            .ok_or_else(|| error("invalid_board", "board", format!("{BOARD_SHAPE}, not {}", json_kind(value))))?;
        let side = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&side) {
            return Err(error("invalid_board", "board", format!("the board has {side} rows; {BOARD_SHAPE}")));
        }
        if let Some(size) = size.filter(|&s| s != side) {
            return Err(error(
                "invalid_board",
                "board",
                format!("size is {size} but the board has {side} rows: send a {size}x{size} board, or leave size out"),
            ));
        }
        let mut board = Board::empty(side, rule);
        let mut counts = [0usize; 2];
        for (r, row) in rows.iter().enumerate() {
            let field = format!("board[{r}]");
            let text = row.as_str().ok_or_else(|| {
                error(
                    "invalid_board",
                    field.clone(),
                    format!("{field} is {}, not a string; {BOARD_SHAPE}", json_kind(row)),
                )
            })?;
            let chars: Vec<char> = text.chars().collect();
            if chars.len() != side {
                return Err(error(
                    "invalid_board",
                    field.clone(),
                    format!("{field} has {} squares, not {side}; {BOARD_SHAPE}", chars.len()),
                ));
            }
            for (column, &c) in chars.iter().enumerate() {
                let cell = (side - 1 - r) * STRIDE + column;
                match cell_from_char(c) {
                    Ok(Some(player)) => {
                        counts[usize::from(player == Player::O)] += 1;
                        board.place(cell, player);
                    }
                    Ok(None) => {}
                    Err(()) => {
                        return Err(error(
                            "invalid_board",
                            field.clone(),
                            format!("{field} holds {:?} at {}: a square is X, O or \".\"", c, square_name(cell)),
                        ))
                    }
                }
            }
        }
        let [x, o] = counts;
        let by_count = match x.checked_sub(o) {
            Some(0) => Player::X,
            Some(1) => Player::O,
            _ => {
                return Err(error(
                    "impossible_position",
                    "board",
                    format!("X has {x} stones and O {o}: X moves first and the players take turns, so X has as many stones as O or one more"),
                ))
            }
        };
        let to_move = match to_move {
            Some(side) if side != by_count => {
                return Err(error(
                    "impossible_position",
                    "to_move",
                    format!("X has {x} stones and O {o}, so it is {by_count}'s turn, not {side}'s"),
                ))
            }
            _ => by_count,
        };
        board.set_to_move(to_move);
        let line = winning_line(&board)?;
        board.set_winner(line.as_ref().map(|(player, _)| *player));
        Ok(Position { board, line: line.map(|(_, line)| line) })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The side to move.
    pub fn to_move(&self) -> Player {
        self.board.to_move()
    }

    /// The standing of the game.
    pub fn status(&self) -> Status {
        match self.board.winner() {
            Some(player) => Status::Won(player),
            None if self.board.full() => Status::Draw,
            None => Status::InProgress,
        }
    }

    /// The squares of the winning line (the whole run), ascending, when
    /// the game is won.
    pub fn winning_line(&self) -> Option<&[usize]> {
        self.line.as_deref()
    }

    /// The position after the side to move takes the empty `cell`, or
    /// `None` when the game is over or the square is not empty.
    pub fn play(&self, cell: usize) -> Option<Position> {
        let on_board = cell % STRIDE < self.size() && cell / STRIDE < self.size();
        if self.status() != Status::InProgress || !on_board || self.board.cell(cell).is_some() {
            return None;
        }
        let board = self.board.play(cell);
        let line = board.winner().and_then(|_| board.line_through(cell));
        Some(Position { board, line })
    }

    /// The empty squares, ascending: every legal move while the game goes
    /// on.
    pub fn legal_moves(&self) -> Vec<usize> {
        if self.status() != Status::InProgress {
            return Vec::new();
        }
        let size = self.size();
        (0..size * STRIDE).filter(|&cell| cell % STRIDE < size && self.board.cell(cell).is_none()).collect()
    }

    /// The board as rows, the top one first.
    pub fn rows(&self) -> Vec<String> {
        self.board.rows()
    }
}

/// The winner of a board read square by square and its winning line, if
/// one side has five: refused when both have, when the side to move has
/// (it moved after its win), or when two of the winner's lines share no
/// stone (play went on after a five).
fn winning_line(board: &Board) -> Result<Option<(Player, Vec<usize>)>, GomokuError> {
    let mut lines: [Vec<Vec<usize>>; 2] = [Vec::new(), Vec::new()];
    for cell in 0..MAX_CELLS {
        let Some(player) = board.cell(cell) else { continue };
        for line in board.lines_through(cell) {
            let lines = &mut lines[usize::from(player == Player::O)];
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
    }
    let names = |line: &[usize]| line.iter().map(|&c| square_name(c)).collect::<Vec<_>>().join(" ");
    let winner = match (&lines[0][..], &lines[1][..]) {
        ([], []) => return Ok(None),
        ([x, ..], [o, ..]) => {
            return Err(error(
                "impossible_position",
                "board",
                format!(
                    "both sides have five in a row (X: {}; O: {}): the game ends at the first five",
                    names(x),
                    names(o)
                ),
            ))
        }
        (_, []) => Player::X,
        _ => Player::O,
    };
    let won = &lines[usize::from(winner == Player::O)];
    if board.to_move() == winner {
        return Err(error(
            "impossible_position",
            "board",
            format!(
                "{winner} has five in a row ({}) but it is {winner}'s turn: {} moved after {winner} won",
                names(&won[0]),
                winner.other()
            ),
        ));
    }
    // The last stone lies on every winning line.
    let shared = won[0].iter().copied().find(|cell| won.iter().all(|line| line.contains(cell)));
    let Some(last) = shared else {
        return Err(error(
            "impossible_position",
            "board",
            format!(
                "{winner} has two separate fives ({}; {}): the game ends at the first",
                names(&won[0]),
                names(&won[1])
            ),
        ));
    };
    let line = board.line_through(last).unwrap_or_else(|| won[0].clone());
    Ok(Some((winner, line)))
}
