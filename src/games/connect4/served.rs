//! Connect Four as the service serves it: `moves` (digits or columns) or a
//! `board`, answered by the engine with the opening book (which Connect
//! Four loads once, from the `OPENING_BOOK` setting) and the endgame
//! solver as its oracle.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::{Book, BookError, Connect4Error, Endgame, Position, Status, BOARD_SHAPE, CELLS, MOVES_SHAPE};
use crate::games::board::{moves_or_board, BoardFacts, PositionField, Standing};
use crate::search::{Cancelled, Score};
use crate::suggest::answer::{index, Place};
use crate::suggest::pipeline::{engine, EngineGame};
use crate::suggest::request::read_position;
use crate::suggest::{
    Answer, Context, Fields, InputError, MoveId, Options, Played, PlayedGame, ProgressReport, Scale, ServedPosition,
    Style,
};

/// A level's style: deeper and sharper with each level, the whole game at
/// level 10.
pub fn style(level: u8) -> Style {
    const DEPTH: [Option<u32>; 10] =
        [Some(1), Some(2), Some(2), Some(3), Some(4), Some(5), Some(6), Some(8), Some(10), None];
    const TEMPERATURE: [f64; 10] = [8.0, 8.0, 4.0, 4.0, 3.0, 2.0, 1.5, 1.0, 0.5, 0.0];
    Style::at(level, &DEPTH, &TEMPERATURE)
}

/// The value of the `OPENING_BOOK` setting that turns the book off.
pub const NO_BOOK: &str = "none";

/// The opening book the `OPENING_BOOK` setting asks for: unset, the book
/// built into the binary (`Book::embedded`, decompressed once per
/// process and shared; none without the `book` feature); [`NO_BOOK`], none; anything else, the book file at
/// that path.
pub fn load_book(setting: Option<&Path>) -> Result<Option<Arc<Book>>, BookError> {
    static EMBEDDED: OnceLock<Option<Arc<Book>>> = OnceLock::new();
    match setting {
        #[cfg(feature = "book")]
        None => {
            if let Some(book) = EMBEDDED.get() {
                return Ok(book.clone());
            }
            let book = Arc::new(Book::embedded()?);
            Ok(EMBEDDED.get_or_init(|| Some(book)).clone())
        }
        // Built without the `book` feature, there is no built-in book.
        #[cfg(not(feature = "book"))]
        None => Ok(EMBEDDED.get_or_init(|| None).clone()),
        Some(path) if path.as_os_str() == NO_BOOK => Ok(None),
        Some(path) => Book::load(path).map(|book| Some(Arc::new(book))),
    }
}

/// A game as the request wrote it, so that the answer gives the game after
/// its move in the same notation (and the same JSON: a string or an array).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum MoveList {
    /// Digits 1 to 7 (`"4453"`).
    Digits(String),
    /// Columns 0 to 6 (`[3, 3, 4, 2]`).
    Columns(Vec<u8>),
}

impl MoveList {
    /// The list with the column `mv` (0 to 6) played after it.
    pub fn then(&self, mv: u8) -> MoveList {
        match self {
            MoveList::Digits(digits) => {
                let mut digits = digits.clone();
                digits.push(char::from(b'1' + mv));
                MoveList::Digits(digits)
            }
            MoveList::Columns(columns) => {
                let mut columns = columns.clone();
                columns.push(mv);
                MoveList::Columns(columns)
            }
        }
    }
}

/// A Connect Four position to answer: the position, the game as the
/// request wrote it (for a game sent as moves), and the opening book.
#[derive(Debug)]
pub struct Question {
    position: Position,
    moves: Option<MoveList>,
    book: Option<Arc<Book>>,
}

/// Reads the position from exactly one of `moves` or `board`, refusing the
/// other games' fields; the answers use `book`.
pub fn read(fields: &Fields<'_>, book: Option<Arc<Book>>) -> Result<Box<dyn ServedPosition>, InputError> {
    let hint = "X moves first, so the stones on the board say whose turn it is";
    let field = moves_or_board(
        "connect4",
        fields,
        &[("to_move", hint), ("maximizing", hint)],
        "a connect4 request needs \"moves\" (such as \"4453\" or [3, 3, 4, 2]) or \"board\" (6 rows of 7 cells, top row first)",
    )?;
    let (position, moves) = match field {
        PositionField::Moves(moves) => {
            let value = read_position(moves, "moves", "invalid_moves", MOVES_SHAPE)?;
            let position = Position::from_json_moves(&value).map_err(|e| error(e, "invalid_moves"))?;
            // The position was read from this value, so it is a digit string
            // or an array of columns 0 to 6.
            let list = match value {
                Value::String(digits) => MoveList::Digits(digits),
                Value::Array(items) => {
                    MoveList::Columns(items.iter().filter_map(Value::as_u64).map(|c| c as u8).collect())
                }
                _ => return Err(InputError::invalid("invalid_moves", "moves".to_string(), MOVES_SHAPE)),
            };
            (position, Some(list))
        }
        PositionField::Board(board) => {
            let value = read_position(board, "board", "invalid_board", BOARD_SHAPE)?;
            (Position::from_json_board(&value).map_err(|e| error(e, "invalid_board"))?, None)
        }
    };
    Ok(Box::new(Question { position, moves, book }))
}

/// A Connect Four error: input that is not a position gets the code
/// `invalid` (`invalid_moves` or `invalid_board`, after the field it came
/// in); a board no game produces gets `impossible_position`.
fn error(error: Connect4Error, invalid: &'static str) -> InputError {
    match error {
        Connect4Error::Invalid { field, message } => InputError::invalid(invalid, field, message),
        Connect4Error::Impossible { field, message } => InputError::invalid("impossible_position", field, message),
    }
}

fn standing(status: Status) -> Standing {
    let won = match &status {
        Status::Won(player, line) => Some((*player, &line[..])),
        _ => None,
    };
    Standing::of(status.as_str(), won)
}

impl ServedPosition for Question {
    fn style(&self, level: u8) -> Style {
        style(level)
    }

    fn answer(
        &self,
        options: &Options,
        context: &Context<'_>,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&ProgressReport),
    ) -> Result<Answer, Cancelled> {
        let position = &self.position;
        let remaining = u64::from(CELLS - position.stones());
        let rules =
            EngineGame { kind: "connect4", name: index, draw_plies: Some(remaining), level_score: |s: Score| s };
        // The book near the start, the endgame solver near the end.
        let oracle = Endgame::with_book(self.book.as_deref());
        let (mut answer, choice) = engine(&position.game(), &oracle, rules, options, context, cancel, progress)?;
        let status = position.status();
        let after = choice.and_then(|c| position.play(c.mv));
        let status_after = after.map_or(status, |p| p.status());
        BoardFacts::lined(
            position.to_move().as_str(),
            (standing(status), standing(status_after)),
            after.map(|p| p.rows()),
            after.map(|p| (p.to_move().as_str(), p.legal_moves())),
        )
        .write(&mut answer.extra);
        let moves_after = self.moves.as_ref().zip(choice).map(|(moves, c)| moves.then(c.mv));
        answer.extra.push(Place::AfterSeed, "moves_after", &moves_after);
        Ok(answer)
    }
}

/// Connect Four's scores are +1, 0 and -1, so a review weighs them by
/// their outcome; an evaluation (a search the budget cut) has a winning
/// chance of 1 / (1 + e^(-p / 100)) for `p` points.
const REVIEW_SCALE: Scale = Scale { points_per_unit: None, chance_slope: 0.01, distance_counts: true, good_margin: 0 };

/// Reads a game to review from `moves`: each move with the position it
/// was played in, answered with `book`.
pub fn read_game(fields: &Fields<'_>, book: Option<Arc<Book>>) -> Result<PlayedGame, InputError> {
    let raw = fields.get("moves").ok_or_else(|| InputError::invalid("invalid_request", None, MOVES_SHAPE))?;
    let value = read_position(raw, "moves", "invalid_moves", MOVES_SHAPE)?;
    // Checks every move's notation, naming the first bad one; from the
    // empty board, that it can be played too.
    let from_start = Position::from_json_moves(&value).map_err(|e| error(e, "invalid_moves"));
    // A game may start from a board.
    let mut position = match fields.get("board") {
        Some(board) => {
            let board = read_position(board, "board", "invalid_board", BOARD_SHAPE)?;
            Position::from_json_board(&board).map_err(|e| error(e, "invalid_board"))?
        }
        None => {
            from_start?;
            Position::EMPTY
        }
    };
    let written: Vec<(Value, Option<u8>)> = match &value {
        Value::String(digits) => digits
            .chars()
            .map(|d| {
                (Value::String(d.to_string()), d.to_digit(10).filter(|d| (1..=7).contains(d)).map(|d| d as u8 - 1))
            })
            .collect(),
        Value::Array(items) => {
            items.iter().map(|c| (c.clone(), c.as_u64().filter(|&c| c < 7).map(|c| c as u8))).collect()
        }
        _ => return Err(InputError::invalid("invalid_moves", "moves".to_string(), MOVES_SHAPE)),
    };
    let mut plies = Vec::with_capacity(written.len());
    for (index, (notation, column)) in written.into_iter().enumerate() {
        let bad = |why: String| InputError::invalid("invalid_moves", format!("moves[{index}]"), why);
        let Some(column) = column else {
            return Err(bad(format!("{notation} is not a column: {MOVES_SHAPE}")));
        };
        if position.status() != Status::InProgress {
            return Err(bad(format!("the game is over before moves[{index}]")));
        }
        let before = Question { position, moves: None, book: book.clone() };
        plies.push(Played {
            notation,
            name: MoveId::Index(u64::from(column)),
            index,
            mover: position.to_move().as_str(),
            before: Box::new(before),
            after: None,
        });
        position = position.play(column).ok_or_else(|| bad(format!("column {column} (0 to 6) is full")))?;
    }
    Ok(PlayedGame { game: "connect4", plies, scale: REVIEW_SCALE })
}
